"""The move clock part on its own (no session, no network): deadlines, what has run
out, and whether a "timed out" is early by this seat's own clock."""

from __future__ import annotations

from durak_net.clock import CLOCK_ALLOWANCE, MoveClock


def test_each_seat_waited_for_gets_the_full_time_after_every_entry() -> None:
    clock = MoveClock(seconds=10)
    clock.restart(5.0, [2, 0])
    assert clock.deadlines == {0: 15.0, 2: 15.0} and clock.next_deadline() == 15.0
    assert clock.expired(14.9) == [] and clock.expired(15.0) == [0, 2]
    clock.stop(0)
    assert clock.expired(20.0) == [2]
    clock.restart(21.0, [1])
    assert clock.deadlines == {1: 31.0}


def test_without_a_clock_nothing_runs_out() -> None:
    clock = MoveClock()
    clock.restart(5.0, [0, 1])
    assert clock.deadlines == {} and clock.next_deadline() is None and clock.expired(1e9) == []
    assert clock.early(0, 6.0) is None


def test_a_timeout_is_early_only_beyond_the_allowance() -> None:
    clock = MoveClock(seconds=60)
    clock.restart(0.0, [1])
    assert clock.early(1, 10.0) == 50.0
    assert clock.early(1, 60.0 - CLOCK_ALLOWANCE - 0.01) is not None
    assert clock.early(1, 60.0 - CLOCK_ALLOWANCE) is None
    assert clock.early(2, 10.0) is None  # a seat we keep no clock for: not judged


def test_a_seat_that_was_away_judges_nothing_for_a_moves_time() -> None:
    clock = MoveClock(seconds=60)
    clock.restart(0.0, [1])
    clock.away(5.0)
    assert clock.away_until == 5.0 + 60 + CLOCK_ALLOWANCE
    assert clock.early(1, 10.0) is None
    clock.restart(70.0, [1])
    assert clock.early(1, 80.0) == 50.0  # back to judging once that has passed
