"""A CPU-time budget (``cpu=1``) reads only the CPU clock, so a loaded machine, which
stretches wall time, cannot shorten the search: the iterations depend on CPU time alone."""

from __future__ import annotations

import time

import pytest

from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, play_game

#: The wall clocks a search could read (each patched to fail when read).
WALL_CLOCKS = ("time", "time_ns", "perf_counter", "perf_counter_ns", "monotonic",
               "monotonic_ns")


class CpuClock:
    """A fake ``time.process_time``: one CPU millisecond passes at each reading."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.now += 0.001
        self.reads += 1
        return self.now


def _games(spec: dict[str, object]) -> tuple[list[list[str]], list[list[int]]]:
    """Two games of the AI on a CPU-time budget against greedy: logs and iterations."""
    logs, histories = [], []
    for deal in (3, 8):
        bot = IsmctsBot(seed=deal, ms=25, cpu=1, **spec)
        game = play_game(Game.new(Rules(), seed=deal), [bot, GreedyBot()])
        logs.append([str(a) for a in game.log])
        histories.append(bot.history)
    return logs, histories


@pytest.mark.parametrize("spec", [{}, {"halving": 1}, {"solver": 2, "near": 2}])
def test_a_cpu_budget_never_reads_wall_time_so_load_cannot_shorten_the_search(
    monkeypatch: pytest.MonkeyPatch, spec: dict[str, object]
) -> None:
    monkeypatch.setattr(time, "process_time", CpuClock())
    quiet = _games(spec)
    assert all(sum(h) > 0 for h in quiet[1])

    # A loaded machine: wall time runs away; any read of it by the search fails the test.
    def wall(*_: object) -> float:
        raise AssertionError("a cpu=1 search read wall time")

    for name in WALL_CLOCKS:
        monkeypatch.setattr(time, name, wall)
    cpu = CpuClock()
    monkeypatch.setattr(time, "process_time", cpu)
    assert _games(spec) == quiet  # the same iterations, so the same moves
    assert cpu.reads > 0


def test_the_iterations_follow_the_cpu_clock_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CPU clock twice as slow (each reading half a millisecond on) buys the bot
    twice the clock readings, so about twice the paired rounds, whatever the wall does."""
    game = Game.new(Rules(), seed=5)
    seat = game.attacker
    legal = game.legal_actions(seat)

    def rounds(step: float) -> int:
        now = [0.0]

        def clock() -> float:
            now[0] += step
            return now[0]

        bot = IsmctsBot(seed=1, ms=40, cpu=1, clock=clock, width=3)
        bot.start(seat, game.rules)
        bot.choose(game.observation(seat), legal)
        return bot.history[-1]

    # The first round runs unasked, then one a reading: 1 + 39 rounds of three actions.
    assert rounds(0.0005) == 2 * rounds(0.001) == 2 * 3 * 40
