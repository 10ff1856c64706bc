"""Bots that time out, crash, babble or cheat forfeit the game; the tournament goes on."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import pytest

from durak_arena.referee import InProcessSeat, ProcessSeat, referee_game
from durak_arena.tournament import SerialExecutor, run_tournament
from durak_core import Action, Rules, Take
from durak_core.bots import REGISTRY, RandomBot

from .conftest import FIXTURES


def _play(seat, spec, move_time=10.0, deal_seed=3):
    """One game: the bot under test in seat 0 against builtin:random."""
    try:
        return referee_game(
            Rules(),
            0,
            deal_seed,
            [seat, InProcessSeat(spec("builtin:random"))],
            [1, 2],
            move_time,
            "g",
        )
    finally:
        seat.close()


@pytest.mark.parametrize(
    ("bot", "kind", "reason", "stderr"),
    [
        ("misbehaving.py:Sleeper", "timeout", "no reply within 0.5 s", "thinking very hard"),
        ("misbehaving.py:Crasher", "crash", "exited with code 3", "out of memory"),
        ("misbehaving.py:Raiser", "crash", "exited with code 1", "RuntimeError: raiser"),
        ("misbehaving.py:Cheater", "illegal", "is not legal; legal were: 0 ", "own rules"),
    ],
)
def test_each_misbehaviour_forfeits_with_its_reason_and_stderr(spec, bot, kind, reason, stderr):
    seat = ProcessSeat(spec(f"py:{FIXTURES / bot}"))
    record = _play(seat, spec, move_time=0.5)
    assert record.forfeit is not None
    assert record.forfeit["seat"] == 0
    assert record.forfeit["kind"] == kind
    assert reason in record.forfeit["reason"]
    assert stderr in record.forfeit["stderr"]
    assert record.losers == [0] and record.durak == 0


def test_garbage_on_stdout_forfeits(spec):
    seat = ProcessSeat(spec(f"cmd:{sys.executable} {FIXTURES / 'garbage.py'}"))
    record = _play(seat, spec)
    assert record.forfeit is not None
    assert record.forfeit["kind"] == "garbage"
    assert "not a JSON line" in record.forfeit["reason"]
    assert "I think I will attack" in record.forfeit["stderr"]


def test_a_bot_speaking_another_protocol_version_forfeits_at_the_handshake(spec):
    record = _play(ProcessSeat(spec(f"cmd:{sys.executable} {FIXTURES / 'old_version.py'}")), spec)
    assert record.forfeit is not None
    assert record.forfeit["kind"] == "garbage"
    assert "version 99" in record.forfeit["reason"]
    assert record.actions == 0


def test_a_program_that_cannot_start_forfeits(spec):
    record = _play(ProcessSeat(spec("cmd:/nonexistent/durak-bot --fast")), spec)
    assert record.forfeit is not None
    assert record.forfeit["kind"] == "crash"
    assert "cannot start" in record.forfeit["reason"]


class _Illegal(RandomBot):
    """Plays for a seat that is not at the table."""

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        return Take(99)


class _Broken(RandomBot):
    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise ZeroDivisionError("in-process bug")


@pytest.mark.parametrize(
    ("factory", "move_time", "kind", "reason"),
    [
        (_Broken, 10.0, "crash", "ZeroDivisionError: in-process bug"),
        (_Illegal, 10.0, "illegal", "99 take is not among the legal actions"),
        # Any bot needs more than a nanosecond: the limit check itself is what is tested.
        (RandomBot, 1e-9, "timeout", "the limit is 1e-09 s"),
    ],
)
def test_in_process_bots_forfeit_too(spec, monkeypatch, factory, move_time, kind, reason):
    monkeypatch.setitem(REGISTRY, "under-test", factory)
    # Deal 1: seat 0 leads, so the bot under test decides first (the time limit binds all).
    record = _play(InProcessSeat(spec("builtin:under-test")), spec, move_time, deal_seed=1)
    assert record.forfeit is not None
    assert record.forfeit["kind"] == kind and record.forfeit["seat"] == 0
    assert reason in record.forfeit["reason"]
    if kind == "crash":
        assert "Traceback" in record.forfeit["stderr"]


def test_the_tournament_goes_on_after_forfeits_and_restarts_the_bot(spec):
    """A crashing bot loses each game it crashes in; every game is still played and counted."""
    bots = [
        spec("builtin:greedy"),
        spec(f"py:{FIXTURES / 'misbehaving.py'}:Crasher"),
        spec("builtin:random"),
    ]
    results = run_tournament(
        bots, games=4, seed=2, rules=Rules(), move_time=10.0, executor=SerialExecutor()
    )
    assert len(results.records) == 12
    crasher = results.tallies[bots[1].text]
    assert crasher.games == 8 and crasher.forfeits == 8 and crasher.losses == 8
    pair = results.pairs[(bots[0].text, bots[2].text)]
    assert pair.games == 4 and pair.forfeits == 0
    assert pair.a_wins + pair.b_wins + pair.draws == 4
    log = results.forfeit_log()
    assert len(log) == 8 and all(f["bot"] == bots[1].text for f in log)
    assert all("out of memory" in f["stderr"] for f in log)
