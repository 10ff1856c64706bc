"""The one hand-off point: order, thread, and no re-entrance, in each mode."""

from __future__ import annotations

import threading

import pytest
from tornado.ioloop import IOLoop

from durak_widgets import Handoff


def test_sync_mode_runs_at_once_and_queues_nested_posts_after_the_current_one() -> None:
    handoff = Handoff(mode="sync")
    order: list[str] = []

    def outer() -> None:
        order.append("outer start")
        handoff.post(lambda: order.append("nested"))
        order.append("outer end")

    handoff.post(outer)
    assert order == ["outer start", "outer end", "nested"]
    assert handoff.idle()


def test_manual_mode_runs_only_when_pumped() -> None:
    handoff = Handoff(mode="manual")
    ran: list[int] = []
    for i in range(3):
        handoff.post(lambda i=i: ran.append(i))
    assert ran == [] and not handoff.idle()
    assert handoff.pump(limit=2) == 2
    assert ran == [0, 1]
    assert handoff.pump() == 1
    assert ran == [0, 1, 2] and handoff.idle()


def test_pump_until_waits_for_a_post_from_another_thread() -> None:
    handoff = Handoff(mode="manual")
    ran: list[str] = []
    worker = threading.Thread(target=lambda: handoff.post(lambda: ran.append("from worker")))
    worker.start()
    handoff.pump_until(lambda: bool(ran), timeout=10)
    worker.join(timeout=10)
    assert ran == ["from worker"]


def test_pump_until_times_out_with_a_clear_error() -> None:
    with pytest.raises(TimeoutError, match="within"):
        Handoff(mode="manual").pump_until(lambda: False, timeout=0.05)


def test_kernel_mode_runs_everything_on_the_loop_thread_in_posting_order() -> None:
    """Posts from several threads (clicks on a subshell, a bot worker) land on the loop."""
    started = threading.Event()
    holder: dict[str, IOLoop] = {}

    def run_loop() -> None:
        loop = IOLoop()
        holder["loop"] = loop
        loop.add_callback(started.set)
        loop.start()
        loop.close()

    loop_thread = threading.Thread(target=run_loop, name="fake-kernel-loop")
    loop_thread.start()
    assert started.wait(10)
    loop = holder["loop"]
    handoff = Handoff(mode="kernel", loop=loop)
    seen: list[tuple[str, int, str]] = []
    done = threading.Event()

    def poster(name: str) -> None:
        for i in range(50):
            handoff.post(lambda i=i: seen.append((name, i, threading.current_thread().name)))

    posters = [threading.Thread(target=poster, args=(f"t{k}",)) for k in range(3)]
    for thread in posters:
        thread.start()
    for thread in posters:
        thread.join(10)
    handoff.post(done.set)
    assert done.wait(10)
    loop.add_callback(loop.stop)
    loop_thread.join(10)

    assert len(seen) == 150
    assert {thread for _, _, thread in seen} == {"fake-kernel-loop"}
    for name in ("t0", "t1", "t2"):
        assert [i for n, i, _ in seen if n == name] == list(range(50))


def test_kernel_mode_without_a_kernel_is_refused() -> None:
    with pytest.raises(ValueError, match="running IPython kernel"):
        Handoff(mode="kernel")
    with pytest.raises(ValueError, match="add_callback"):
        Handoff(mode="kernel", loop=object())
    with pytest.raises(ValueError, match="mode must be"):
        Handoff(mode="threads")  # type: ignore[arg-type]


def test_auto_mode_outside_a_kernel_is_sync() -> None:
    assert Handoff().mode == "sync"


def test_a_failing_post_is_reported_and_the_next_still_runs() -> None:
    errors: list[BaseException] = []
    handoff = Handoff(mode="sync", on_error=errors.append)
    ran: list[int] = []

    def broken() -> None:
        raise RuntimeError("boom")

    handoff.post(broken)
    handoff.post(lambda: ran.append(1))
    assert [str(e) for e in errors] == ["boom"]
    assert ran == [1]
    assert handoff.idle()


def test_closed_handoff_drops_posts() -> None:
    handoff = Handoff(mode="manual")
    ran: list[int] = []
    handoff.post(lambda: ran.append(1))
    handoff.close()
    handoff.post(lambda: ran.append(2))
    assert handoff.pump() == 0 and ran == [] and handoff.idle()
