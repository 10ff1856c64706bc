"""The example bots in examples/bots play whole games without a forfeit."""

from __future__ import annotations

import shutil
import sys

import pytest

from durak_arena.tournament import SerialExecutor, run_tournament
from durak_core import Rules

NODE = shutil.which("node")


@pytest.mark.skipif(NODE is None, reason="node (Node.js) is not installed")
def test_the_javascript_random_bot_plays_and_replays_exactly(spec):
    bots = [spec("builtin:greedy"), spec("cmd:node examples/bots/random.js")]
    first = run_tournament(bots, games=6, seed=4, rules=Rules(), move_time=10.0,
                           executor=SerialExecutor())
    again = run_tournament(bots, games=6, seed=4, rules=Rules(), move_time=10.0,
                           executor=SerialExecutor())
    assert first.forfeit_log() == []
    assert len(first.records) == 6
    assert all(r.decisions[r.bots.index(bots[1].text)] > 0 for r in first.records)
    # Seeded by the arena's start message, the bot repeats its games move for move.
    assert [r.log for r in first.records] == [r.log for r in again.records]


@pytest.mark.parametrize("form", ["py:examples/bots/mybot.py:MyBot",
                                  f"cmd:{sys.executable} examples/bots/mybot.py"])
def test_the_python_example_bot_runs_both_ways_and_beats_random(spec, form):
    bots = [spec("builtin:random"), spec(form)]
    results = run_tournament(bots, games=10, seed=5, rules=Rules(), move_time=10.0,
                             executor=SerialExecutor())
    assert results.forfeit_log() == []
    pair = results.pairs[(bots[0].text, bots[1].text)]
    assert pair.games == 10
    assert pair.b_wins > pair.a_wins
