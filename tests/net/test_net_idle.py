"""A seat that never moves is named (section 7 of the protocol, "A seat that keeps the
table waiting"): with no move clock (or a lead the clock cannot make for it), a seat the
game waits for that is still heard but makes no move for the table's idle bound
(:func:`~durak_net.timers.idle_bound`: ten grace periods, at least five minutes) stops
the game, named ``idle`` by every seat that heard it while it waited; a seat that could
not hear it directly names nobody on the host's word.  An honest seat whose move the
host holds back names the host first (the stall bound is shorter), and a host that says
a seat was idle before its time is not believed.  In simulated time.
"""

from __future__ import annotations

import json

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net.timers import IDLE_MIN, idle_bound, idle_due, idle_holders, stall_bound

from .tables import Table, make_table
from .test_net_cli_verdicts import _peer

GRACE = 20  # (the idle bound: its floor, five minutes)
BOUND = idle_bound(GRACE, 0)


def _verdicts(table: Table, seat: int) -> list[ev.GameAudited]:
    return [e for e in table.seats[seat].events if isinstance(e, ev.GameAudited)]


def _all_audited(table: Table) -> bool:
    return all(_verdicts(table, s) for s in range(len(table.seats)))


def _waiting_on(table: Table, seat: int) -> bool:
    """The game waits for ``seat`` alone at every seat (it holds the game up)."""
    return all(seat in side.session.handover.idle.deadlines for side in table.seats)


def test_the_bound_is_ten_grace_periods_at_least_five_minutes_and_beyond_the_stall_bound(
        ) -> None:
    assert BOUND == IDLE_MIN == 300 and idle_bound(60, 0) == 600 and idle_bound(60, 10) == 610
    assert all(idle_bound(g, 0) > stall_bound(g) for g in (0, 20, 60, 600))
    assert idle_holders({2: "pass", 1: "take", 3: "pass"}) == [1]  # the defender thinks
    assert idle_due({}, judged=lambda s: True) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_seat_that_never_moves_is_named_by_every_seat_that_hears_it(players: int) -> None:
    idle = 1
    table = make_table(7 + players, Rules(players=players, deck_size=24), grace=GRACE,
                       idle=(idle,))
    net = table.net
    assert net.run(lambda: _waiting_on(table, idle), limit=600.0)
    waited_from = net.now
    assert net.run(lambda: _all_audited(table), limit=net.now + BOUND + 120.0)
    stop = next(e for e in table.seats[0].events if isinstance(e, ev.GameStopped))
    assert stop.at >= waited_from + BOUND - 1.0  # never before the bound
    for seat in range(players):
        if seat == idle:
            continue
        (verdict,) = _verdicts(table, seat)
        assert (verdict.code, verdict.culprit) == ("idle", idle), (seat, verdict)
        assert "made no move for 300 s" in verdict.verdict
    assert not table.seats[0].session.lost  # it was heard all along


def test_a_host_that_never_moves_is_named_by_both_seats() -> None:
    table = make_table(12, Rules(players=3, deck_size=24), grace=GRACE, idle=(0,))
    net = table.net
    assert net.run(lambda: _waiting_on(table, 0), limit=600.0)
    assert net.run(lambda: _all_audited(table), limit=net.now + BOUND + 120.0)
    for seat in (1, 2):
        (verdict,) = _verdicts(table, seat)
        assert (verdict.code, verdict.culprit) == ("idle", 0), (seat, verdict)


def test_a_host_that_says_a_seat_was_idle_before_its_time_is_not_believed() -> None:
    """The malicious host: it names seat 1 idle a minute after the game began to wait
    for it.  Seat 2's own clock says otherwise: it names nobody; seat 1 names the host."""
    table = make_table(9, Rules(players=3, deck_size=24), grace=GRACE, idle=(1,))
    net, host = table.net, table.host
    assert net.run(lambda: _waiting_on(table, 1), limit=600.0)
    assert net.run(lambda: False, limit=net.now + 60.0) is False  # a minute passes
    host._idle(1, net.now)
    assert net.run(lambda: _all_audited(table), limit=net.now + 120.0)
    (bystander,) = _verdicts(table, 2)
    assert (bystander.code, bystander.culprit) == ("disputed", None), bystander
    (victim,) = _verdicts(table, 1)
    assert (victim.code, victim.culprit) == ("false_claim", 0), victim


def test_a_seat_the_bystander_never_heard_directly_is_not_named_there() -> None:
    """Seat 2 never hears seat 1's heartbeats (as over channels): when the host names
    seat 1 idle, seat 2 names nobody on the host's word, and ends all the same."""
    table = make_table(9, Rules(players=3, deck_size=24), grace=GRACE, idle=(1,))
    net = table.net
    bystander = table.seats[2].session
    bystander._on_beacon = lambda beacon, now: None  # type: ignore[method-assign]
    assert net.run(lambda: _waiting_on(table, 1), limit=600.0)
    assert net.run(lambda: _all_audited(table), limit=net.now + BOUND + 120.0)
    (verdict,) = _verdicts(table, 2)
    assert (verdict.code, verdict.culprit) == ("disputed", None), verdict
    (hosts,) = _verdicts(table, 0)
    assert (hosts.code, hosts.culprit) == ("idle", 1), hosts


def test_the_terminal_prints_the_json_line_and_exits_2_for_an_idle_seat() -> None:
    table = make_table(9, Rules(players=2, deck_size=24), grace=GRACE, idle=(1,))
    assert table.net.run(lambda: _all_audited(table), limit=BOUND + 600.0)
    (verdict,) = _verdicts(table, 0)
    peer, out = _peer()
    peer.game_audited(verdict)
    (line,) = [json.loads(x) for x in out.getvalue().splitlines()]
    assert (line["code"], line["culprit"]) == ("idle", 1), line
    assert peer.status == 2


def test_a_host_that_keeps_a_seats_fault_from_a_seat_that_cannot_hear_it_leaves_no_wait(
        ) -> None:
    """Online (no seat hears another directly): seat 1, on move, stops the game with its
    Fault, and the host keeps that Fault from seat 2 and writes nothing more.  Seat 2
    cannot judge seat 1 (it cannot hear it) and still hears the host: it used to wait
    until ``--timeout``.  Past the idle bound and the margin it ends the game
    ``abandoned``, naming nobody (either may be the one holding the game up)."""
    from durak_net.notes import Note
    from durak_net.timers import unheard_margin

    from .test_net_stalls import _withholding_faults_of

    table = make_table(9, Rules(players=3, deck_size=24), grace=GRACE, idle=(1, 2),
                       direct=False)
    net = table.net
    assert net.run(lambda: all(list(s.session.handover.idle.deadlines) == [1]
                               for s in table.seats), limit=600.0)
    deadline = table.seats[2].session.handover.idle.deadlines[1]
    kept = _withholding_faults_of(table, 1)
    finder = table.seats[1].session
    finder._stop(finder.game_no, 0, "stalled", Note.of("stalled", seconds=30), net.now)
    net.touch(table.addrs[1])
    limit = deadline + unheard_margin(GRACE) + 60.0
    assert net.run(lambda: bool(_verdicts(table, 2)), limit=limit)
    assert kept  # (seat 2 never had the Fault)
    (verdict,) = _verdicts(table, 2)
    assert (verdict.code, verdict.culprit) == ("abandoned", None), verdict
    assert "nobody can tell whether it held the game up or Host kept" in verdict.verdict
    ended = next(e for e in table.seats[2].events if isinstance(e, ev.GameAudited))
    assert ended.at >= deadline + unheard_margin(GRACE) - 1.0  # not before the margin
    assert table.seats[2].session.closed or table.seats[2].session.closing
    restored = table.restart(2)  # (its journal gives the same verdict)
    assert restored.outcomes.audits[1].code == "abandoned"
    assert restored.outcomes.audits[1].culprit is None
