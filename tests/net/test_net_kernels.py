"""Test 4 of the issue: two real Jupyter kernels play each other over UDP.

Each kernel (started with jupyter_client, as JupyterLab would) runs ``lan()`` with a
bot playing its seat through the table controller.  Network events reach the widgets
through the kernel-mode hand-off (``kernel.io_loop.add_callback``), which only runs
while the kernel is idle: the test polls with short cells, as a person would click.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_net_udp import free_udp_port

jupyter_client = pytest.importorskip("jupyter_client", reason="needs jupyter_client")

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]


def run(client: Any, code: str, timeout: float = 60.0) -> str:
    """Execute ``code`` in a kernel; return its stdout; fail with the traceback on error."""
    out: list[str] = []
    errors: list[str] = []

    def hook(msg: dict[str, Any]) -> None:
        kind, content = msg["header"]["msg_type"], msg["content"]
        if kind == "stream" and content.get("name") == "stdout":
            out.append(content["text"])
        elif kind == "error":
            errors.append("\n".join(content.get("traceback", [])))

    reply = client.execute_interactive(code, timeout=timeout, output_hook=hook)
    if reply["content"]["status"] != "ok" or errors:
        raise AssertionError(f"kernel error running {code!r}:\n" + "\n".join(errors))
    return "".join(out)


@pytest.fixture
def two_kernels() -> Iterator[list[Any]]:
    from jupyter_client.manager import start_new_kernel

    started: list[tuple[Any, Any]] = []
    try:
        for _ in range(2):
            manager, client = start_new_kernel(kernel_name="python3", startup_timeout=60)
            started.append((manager, client))
            run(client, f"import sys; sys.path.insert(0, {str(REPO)!r})")
        yield [client for _, client in started]
    finally:
        for manager, client in started:
            with contextlib.suppress(Exception):  # the kernel may be what failed
                run(client, "lobby.close()", timeout=10)
            client.stop_channels()
            manager.shutdown_kernel(now=True)


def test_two_kernels_find_each_other_and_their_bots_play_a_full_game(two_kernels) -> None:
    one, two = two_kernels
    port = free_udp_port()
    run(
        one,
        f"from durak_widgets import lan\nlobby = lan(name='K1', port={port}, bot='random', "
        "seed=1, auto_accept=True, journal_dir=None)\nprint(lobby.handoff.mode)",
    )
    mode = run(
        two,
        f"from durak_widgets import lan\nlobby = lan(name='K2', port={port}, "
        "bot='random', seed=2, invite='K1', journal_dir=None)\n"
        "print(lobby.handoff.mode)",
    )
    assert mode.strip() == "kernel"  # the real hand-off onto the kernel's event loop
    # Each kernel reports the finished game (public hashes) and its audit (the hash of
    # the full game it rebuilt from both seeds): the same on both sides, and fair.
    poll = (
        "import json\nprint(json.dumps([[r.game, r.state_hash, r.log_hash] "
        "for r in lobby.results] + [[a.game, a.verdict, a.state_hash, a.log_hash] "
        "for a in lobby.backend.verdicts.values()] if lobby.backend else []))"
    )
    results: list[Any] = [[], []]
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and not all(len(r) == 2 for r in results):
        results = [json.loads(run(kernel, poll).strip()) for kernel in (one, two)]
        time.sleep(0.05)
    assert len(results[0]) == 2 and results[0] == results[1], results
    assert results[0][1][1] == "audited: fair"
    status = (
        "print(lobby.controller.view.status.value, lobby.node.handler_errors, "
        "lobby.backend.game.public_hash(), lobby.badge.value)"
    )
    for kernel in (one, two):
        text = run(kernel, status)
        assert "Game over" in text and "[]" in text and results[0][0][1] in text
        assert "hidden hands · verified" in text and "audited: fair" in text
