"""A seat that leaves mid-game, as every seat that hears it can tell (section 7 of the
protocol, "Lost seats" and "A player who leaves"): the host's Status "left" stops the
game only once the seat is quiet here too, where we hear its heartbeats directly; a
host that says a seat still playing left is named by the seat it told (``said_left``),
and nobody names the honest seat.  Where a seat cannot hear the leaver directly (no
address, as over channels), the host's word is all it has, as before.  In simulated
time.
"""

from __future__ import annotations

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net.timers import left_heard
from durak_net.wire import Status

from .tables import Table, make_table

GRACE = 40


def _verdicts(table: Table, seat: int) -> list[ev.GameAudited]:
    return [e for e in table.seats[seat].events if isinstance(e, ev.GameAudited)]


def _all_audited(table: Table) -> bool:
    return all(_verdicts(table, s) for s in range(len(table.seats)))


def _host_says_left(players: int, told: int, victim: int = 1) -> Table:
    """The malicious host tells seat ``told`` that seat ``victim`` left the table while
    it is still playing (the game waits for it: it is thinking)."""
    table = make_table(9, Rules(players=players, deck_size=24), grace=GRACE,
                       idle=(victim,))
    net, host = table.net, table.host
    assert net.run(lambda: victim in host.handover.idle.deadlines, limit=100.0)
    host.links[told].push(Status(0, victim, "left", "got up"), net.now)
    net.touch(table.addrs[0])
    return table


def test_a_seat_quiet_after_the_hosts_word_left_and_one_still_heard_did_not() -> None:
    assert left_heard(10.0, None, 12.9, heartbeat=1.0, lost_after=3.0) is None
    assert left_heard(10.0, None, 13.0, heartbeat=1.0, lost_after=3.0) is True
    assert left_heard(10.0, 11.5, 14.0, heartbeat=1.0, lost_after=3.0) is False
    # A heartbeat sent before its goodbye may still be on its way: not held against it.
    assert left_heard(10.0, 10.9, 13.9, heartbeat=1.0, lost_after=3.0) is True


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_that_says_a_seat_still_playing_left_is_named_by_the_seat_it_told(
        players: int) -> None:
    table = _host_says_left(players, told=2)
    assert table.net.run(lambda: _all_audited(table), limit=table.net.now + 120.0)
    (told,) = _verdicts(table, 2)
    assert (told.code, told.culprit) == ("said_left", 0), told
    assert "said P1 left the table, but P1 was still heard here" in told.verdict
    for seat in range(1, players):  # no honest seat names an honest seat
        (verdict,) = _verdicts(table, seat)
        assert verdict.culprit in (None, 0), (seat, verdict)
    (victim,) = _verdicts(table, 1)
    assert (victim.code, victim.culprit) == ("disputed", None), victim


def test_a_seat_that_cannot_hear_the_leaver_takes_the_hosts_word() -> None:
    """Seat 2 hears no heartbeat of seat 1 (as over channels): the host's word stops
    the game there as a leaving, and seat 1 is never named (here the lying host, which
    plays on with seat 1, never publishes its seed: seat 2 names it for that)."""
    table = make_table(9, Rules(players=3, deck_size=24), grace=GRACE, idle=(1,))
    net, host = table.net, table.host
    table.seats[2].session.beacons.on = False  # it neither sends nor takes heartbeats
    assert net.run(lambda: 1 in host.handover.idle.deadlines, limit=100.0)
    host.links[2].push(Status(0, 1, "left", "got up"), net.now)
    net.touch(table.addrs[0])
    assert net.run(lambda: bool(_verdicts(table, 2)), limit=net.now + 120.0)
    (verdict,) = _verdicts(table, 2)
    assert verdict.culprit in (None, 0) and verdict.code != "said_left", verdict
    stop = table.seats[2].session.outcomes.stops[1]
    assert (stop.seat, stop.reason, stop.claim) == (1, "left the game", False)


def test_the_leave_check_wakes_when_it_can_decide_not_before() -> None:
    """A heartbeat that came just after the host's word (one sent before the goodbye)
    moves the check to a silence after it: the session asks to be woken then, not at
    the time already judged (which would wake it again and again until then)."""
    table = make_table(9, Rules(players=3, deck_size=24), grace=GRACE, idle=(1,))
    net, seat = table.net, table.seats[2].session
    assert net.run(lambda: 1 in seat.handover.idle.deadlines, limit=100.0)
    told = net.now
    seat._on_status(Status(0, 1, "left", "got up"), told)  # (as from the host)
    assert 1 in seat.presence.leave_wait
    seat.presence.heard_from(1, told + 0.5 * seat.config.heartbeat)
    quiet = told + 0.5 * seat.config.heartbeat + seat.config.lost_after
    seat.timer(told + seat.config.lost_after)  # not decided yet: heard since
    assert 1 in seat.presence.leave_wait
    assert seat._leave_times() == (quiet,)  # (after the time just judged)
    seat.timer(quiet)
    assert not seat.presence.leave_wait  # it left: quiet here since its last heartbeat
