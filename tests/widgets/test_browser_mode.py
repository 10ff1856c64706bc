"""The table where there are no threads (a browser: JupyterLite's Pyodide kernel).

Pyodide cannot be run here, so these tests give CPython the same conditions: no threads
for bots (``threads_available`` patched to False) and an event loop seen through
:class:`~durak_widgets.browser.EventLoop` (what Pyodide's kernel gets: its asyncio
loop), here a deterministic one on a virtual clock.  The
real thing is tested in the browser (tests/e2e/test_site_browser.py).
"""

from __future__ import annotations

import heapq
import importlib
import subprocess
import sys
import threading
from typing import Any

import pytest

import durak_widgets
from durak_core import Attack, Card, Rules
from durak_widgets import Handoff, TableController, browser
from durak_widgets import backend as backend_module

from .widget_driver import game_of
from .widget_helpers import ScriptedBot, deal, sync_table

RULES = Rules()
HANDS = [["6♣", "7♠", "7♥", "Q♦", "A♠", "8♥"], ["8♣", "9♥", "10♥", "J♥", "9♠", "10♠"]]


class StepLoop:
    """A deterministic event loop: callbacks run in order when the test turns it, and
    timers fire on a virtual clock (the asyncio calls :class:`EventLoop` makes)."""

    def __init__(self) -> None:
        self.now = 0.0
        self._due: list[tuple[float, int, Any, tuple[Any, ...]]] = []
        self._count = 0

    def time(self) -> float:
        return self.now

    def call_soon(self, fn: Any, *args: Any) -> None:
        self.call_later(0.0, fn, *args)

    def call_later(self, delay: float, fn: Any, *args: Any) -> None:
        self._count += 1
        heapq.heappush(self._due, (self.now + delay, self._count, fn, args))

    def run_until(self, condition: Any, limit: int = 10_000) -> None:
        """Run callbacks (advancing the clock to each) until ``condition()`` holds."""
        for _ in range(limit):
            if condition():
                return
            assert self._due, "nothing left to run and the condition does not hold"
            when, _, fn, args = heapq.heappop(self._due)
            self.now = max(self.now, when)
            fn(*args)
        raise AssertionError("the condition did not hold")


@pytest.fixture
def loop() -> StepLoop:
    return StepLoop()


@pytest.fixture
def no_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backend_module, "threads_available", lambda: False)


def browser_table(loop: StepLoop, bot: ScriptedBot, delay: float) -> TableController:
    game = deal(HANDS, trump="K♣", rules=RULES)
    handoff = Handoff(mode="kernel", loop=browser.EventLoop(loop))  # type: ignore[arg-type]
    return sync_table(RULES, {1: bot}, first_game=game, handoff=handoff, delay=delay)


def test_without_threads_a_bot_moves_in_a_later_turn_of_the_loop_after_the_delay(
    loop: StepLoop, no_threads: None, tables: list[TableController]
) -> None:
    bot = ScriptedBot(["1 defend 7♠ with 9♠"])
    started = set(threading.enumerate())
    table = browser_table(loop, bot, delay=0.2)
    tables.append(table)
    game = game_of(table)
    loop.run_until(table.handoff.idle)

    next(b for b in table.view.visible_hand() if b.description == "7♠").click()
    assert game.log == []  # the click only posted its work to the loop
    loop.run_until(lambda: len(game.log) == 1)
    assert game.log == [Attack(0, Card.parse("7♠"))]
    # The page is told the bot thinks before it does: its move is a later turn.
    loop.run_until(lambda: table.backend.thinking() == (1,))
    assert len(game.log) == 1
    clock = loop.now
    loop.run_until(lambda: len(game.log) == 2)
    assert loop.now - clock >= 0.15  # the card lands after the visible pause
    assert str(game.log[1]) == "1 defend 7♠ with 9♠"
    assert table.backend.thinking() == ()
    # and no thread was started for it (one an earlier test left may have ended since)
    assert set(threading.enumerate()) <= started


def test_without_threads_asking_for_them_is_an_error(no_threads: None) -> None:
    with pytest.raises(ValueError, match="no threads"):
        backend_module.LocalBackend(RULES, {}, ["a", "b"], threads=True)


def test_in_a_browser_lan_says_it_needs_a_local_python() -> None:
    with pytest.raises(RuntimeError, match="LAN play needs a local Python"):
        browser.lan(name="Alice")


def test_in_a_browser_play_imports_without_the_network_package() -> None:
    """durak_widgets in Pyodide (sys.platform "emscripten") never imports durak_net, so
    msgspec and cryptography are not needed there, and its lan() is the explanation."""
    code = (
        "import sys\n"
        "sys.platform = 'emscripten'\n"
        "for name in ('durak_net', 'msgspec', 'cryptography'):\n"
        "    sys.modules[name] = None  # importing them now fails\n"
        "import durak_widgets\n"
        "from durak_widgets import lan, play\n"
        "assert durak_widgets.IN_BROWSER\n"
        "try:\n"
        "    lan()\n"
        "except RuntimeError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("LAN play needs a local Python"), done.stdout
    assert durak_widgets.lan is not browser.lan  # here, the real one


def test_in_a_browser_ismcts_gets_the_budget_measured_for_pyodide(
    monkeypatch: pytest.MonkeyPatch, tables: list[TableController]
) -> None:
    play_module = importlib.import_module("durak_widgets.play")  # the module, not play()

    handoff = Handoff(mode="sync")
    here = play_module.play(opponents=["ismcts", "ismcts?ms=50"], seed=1, delay=0,
                            handoff=handoff)
    tables.append(here)
    monkeypatch.setattr(play_module, "IN_BROWSER", True)
    there = play_module.play(opponents=["ismcts", "ismcts?ms=50"], seed=1, delay=0,
                             handoff=Handoff(mode="sync"))
    tables.append(there)
    assert [b.ms for b in here.backend.bots.values()] == [100, 50]  # type: ignore[attr-defined]
    assert [b.ms for b in there.backend.bots.values()] == [300, 50]  # type: ignore[attr-defined]


def test_without_threads_the_hint_is_computed_in_a_later_turn_of_the_loop(
    loop: StepLoop, monkeypatch: pytest.MonkeyPatch, tables: list[TableController]
) -> None:
    """In a browser the Hint toggle starts no thread: the page first shows "thinking",
    and the AI runs in a later turn of the kernel's loop."""
    from durak_widgets import coach as coach_module

    monkeypatch.setattr(backend_module, "threads_available", lambda: False)
    monkeypatch.setattr(coach_module, "threads_available", lambda: False)
    started = set(threading.enumerate())
    table = browser_table(loop, ScriptedBot([]), delay=0.0)
    tables.append(table)
    assert table.coach.threads is False
    table.coach.iterations = 30
    loop.run_until(table.handoff.idle)
    table.view.hint_toggle.value = True
    loop.run_until(lambda: "thinking" in table.view.hint.value)
    loop.run_until(lambda: "the AI would" in table.view.hint.value)
    assert table.coach.started == 1
    assert set(threading.enumerate()) <= started  # no thread of its own
    with pytest.raises(ValueError, match="no threads"):
        coach_module.TableCoach(table.backend, table.handoff, table.refresh, threads=True)
