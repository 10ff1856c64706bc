"""The strength bars of the built-in bots, on a small seeded sample.

Two players, 36 cards, duplicate deals (each deal played twice with the
seats swapped); a rate is wins over decided games.  ISMCTS runs on an
iteration budget here, not on wall time, so these games are the same on
every machine; ``benchmarks/ai_strength.py`` measures the full bars at
100 ms per move.  The ISMCTS games run in two worker processes.
"""

from __future__ import annotations

import pytest

from durak_arena.referee import BotSpec
from durak_arena.tournament import ProcessExecutor, run_tournament
from durak_core import Game, Rules
from durak_core.bots import GreedyBot, RandomBot, play_game

pytestmark = pytest.mark.slow


def test_greedy_beats_random_in_at_least_85_percent():
    wins = losses = 0
    for deal in range(100):
        for greedy_seat in (0, 1):
            bots = [RandomBot(seed=deal), RandomBot(seed=deal)]
            bots[greedy_seat] = GreedyBot()
            game = play_game(Game.new(Rules(), seed=10_000 + deal), bots)
            if game.losers:
                wins += greedy_seat not in game.losers
                losses += greedy_seat in game.losers
    assert wins + losses >= 190
    assert wins / (wins + losses) >= 0.85


@pytest.fixture(scope="module")
def ismcts_results():
    """The AI against random (20 games, 40 rollouts per decision), greedy (60 games, 40
    rollouts) and the yardstick ``ismcts-v1`` (40 games; 60 rollouts against 30, about
    the same CPU time: the AI's compiled playouts run twice as many in it)."""
    ismcts = BotSpec.parse("builtin:ismcts?iterations=40")
    executor = ProcessExecutor(2)
    try:
        vs_random = run_tournament([ismcts, BotSpec.parse("builtin:random")], games=20, seed=5,
                                   rules=Rules(), move_time=60.0, executor=executor,
                                   tasks_per_group=4)
        vs_greedy = run_tournament([ismcts, BotSpec.parse("builtin:greedy")], games=60, seed=6,
                                   rules=Rules(), move_time=60.0, executor=executor,
                                   tasks_per_group=6)
        vs_v1 = run_tournament([BotSpec.parse("builtin:ismcts?iterations=60"),
                                BotSpec.parse("builtin:ismcts-v1?iterations=30")],
                               games=40, seed=7, rules=Rules(), move_time=60.0,
                               executor=executor, tasks_per_group=5)
    finally:
        executor.close()
    return vs_random, vs_greedy, vs_v1


def _rate(results):
    (pair,) = results.pairs.values()
    assert pair.forfeits == 0
    return pair.a_wins / (pair.a_wins + pair.b_wins), pair.a_wins + pair.b_wins


def test_ismcts_beats_random_in_at_least_95_percent(ismcts_results):
    rate, decided = _rate(ismcts_results[0])
    assert decided >= 18
    assert rate >= 0.95


def test_the_ai_beats_greedy_in_at_least_75_percent(ismcts_results):
    """The full bar is 90% (benchmarks/ai_strength.py).  With 40 rollouts a decision the
    AI won 43 of these 54 decided games (79.6%; comparing five root actions, width=5, the
    default before, 44 of 51; with replies=0, 50 of 55); the AI without its opponent model
    (model=0) won 38 of 56 (67.9%), ismcts-v1 37 of 51."""
    rate, decided = _rate(ismcts_results[1])
    assert decided >= 40  # draws (both out in the same bout) are common between good bots
    assert rate >= 0.75


def test_the_ai_beats_the_yardstick_ismcts_v1_in_at_least_60_percent(ismcts_results):
    """At about the same CPU time per decision: 25 of these 39 decided games (64.1%; with
    width=5, 26 of 39; with replies=0, 28 of 40).  The issue's bar is 65% at 100 ms of
    CPU time a decision, measured by benchmarks/ai_ablation.py on thousands of games
    (docs/ai.md); forty games at 60 rollouts cannot tell a few points apart."""
    rate, decided = _rate(ismcts_results[2])
    assert decided >= 30
    assert rate >= 0.60
