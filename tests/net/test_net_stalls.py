"""Nothing hangs until ``--timeout``: a host that a seat still hears (the link alive,
so nobody is ``abandoned``) but that keeps it waiting is named by it (section 7 of the
protocol, "A host that stalls").

Two ways: it neither places nor refuses a seat's proposal (``stalled``), or, with a
move clock, it writes no entry for a seat whose time ran out (``stalled_clock``), within
the stated bound (:func:`~durak_net.timers.stall_bound`: the table's grace period, at
least :data:`~durak_net.timers.STALL_MIN`).  The host doubles here are the honest session
with one handler replaced.  A third seat cannot check a proposal it never saw: it names
nobody; it checks the clock case on its own clock, and names the host.  An honest host
that is slow, but inside the bound, is named by nobody.  In simulated time.
"""

from __future__ import annotations

import json
from typing import Any

from durak_core import Rules
from durak_net import events as ev
from durak_net.clock import CLOCK_ALLOWANCE
from durak_net.dealer import Seed, decode
from durak_net.links import beacon_signed
from durak_net.timers import STALL_MIN, clock_stall_seen, stall_bound, stall_due
from durak_net.wire import Beacon, Deal, Fault, Propose, encode_beacon

from .tables import Table, make_table
from .test_net_cli_verdicts import _peer

GRACE = 40
BOUND = stall_bound(GRACE)


def _verdicts(table: Table, seat: int) -> list[ev.GameAudited]:
    return [e for e in table.seats[seat].events if isinstance(e, ev.GameAudited)]


def _all_audited(table: Table) -> bool:
    return all(_verdicts(table, s) for s in range(len(table.seats)))


def _host_ignoring_proposals_of(players: int, victim: int, seed: int = 5,
                                hold: float | None = None) -> tuple[Table, list[float]]:
    """A table whose host drops every Propose of ``victim`` (never places nor refuses
    it); with ``hold``, it is an honest but slow host instead: it handles each one
    ``hold`` seconds late.  Returns the table and when each dropped Propose came."""
    table = make_table(seed, Rules(players=players, deck_size=24), grace=GRACE,
                       start=False)
    host, net = table.host, table.net
    honest = host._on_propose
    came: list[float] = []
    later: list[tuple[float, Any, Propose]] = []

    def on_propose(link: Any, frame: Propose, now: float) -> None:
        if link.peer_seat != victim:
            honest(link, frame, now)
            return
        came.append(now)
        if hold is not None:
            later.append((now + hold, link, frame))

    def release(now: float) -> None:
        while later and now >= later[0][0]:
            _, link, frame = later.pop(0)
            honest(link, frame, now)
            net.touch(table.addrs[0])

    host._on_propose = on_propose  # type: ignore[method-assign]
    net.hooks.insert(0, release)
    assert net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    host.start(net.now)
    return table, came


def _host_ignoring_the_clock_of(players: int, victim: int, seed: int = 9
                                ) -> tuple[Table, list[float]]:
    """A table with a move clock whose host never acts when ``victim``'s time runs out
    (``victim`` is idle: it never moves).  Returns the table and when the host's own
    clock ran out for it."""
    table = make_table(seed, Rules(players=players, deck_size=24), clock=5, grace=GRACE,
                       idle=(victim,))
    host = table.host
    honest = host._clock_ran_out
    ran_out: list[float] = []

    def clock_ran_out(seat: int, now: float) -> None:
        if seat == victim:
            host.move_clock.stop(seat)
            ran_out.append(now)
            return
        honest(seat, now)

    host._clock_ran_out = clock_ran_out  # type: ignore[method-assign]
    return table, ran_out


def test_the_bound_is_the_grace_period_and_never_less_than_its_floor() -> None:
    assert stall_bound(60) == 60.0 and stall_bound(0) == STALL_MIN == 30.0


def test_the_deadlines_are_pure_and_a_seat_back_from_away_judges_no_clock_yet() -> None:
    assert stall_due({}, {}, bound=30.0, allowance=2.0) is None
    # Back from away at 150: the clock that ran out at 100 counts from 150.
    assert stall_due({}, {1: 100.0}, bound=30.0, allowance=2.0, judged_from=150.0) == (
        180.0, "stalled_clock", 1)
    assert stall_due({4: 90.0}, {1: 100.0}, bound=30.0, allowance=2.0)[1:] == ("stalled", 4)
    assert not clock_stall_seen({}, 1000.0, bound=30.0)
    assert not clock_stall_seen({1: 100.0}, 140.0, bound=30.0, judged_from=120.0)


def test_a_host_that_never_places_a_proposal_is_named_by_it_at_a_table_of_two() -> None:
    table, came = _host_ignoring_proposals_of(2, 1)
    assert table.net.run(lambda: _all_audited(table), limit=400.0)
    (verdict,) = _verdicts(table, 1)
    assert (verdict.code, verdict.culprit) == ("stalled", 0), verdict
    assert "neither placed nor refused our move for 40 s" in verdict.verdict
    stopped = [e for e in table.seats[1].events if isinstance(e, ev.GameStopped)]
    # (sent up to 2 ms before it came: the bound runs from sending)
    assert stopped and stopped[0].at >= came[0] - 0.002 + BOUND
    assert not table.seats[1].session.lost  # the host was heard all along


def test_at_a_table_of_three_the_victim_names_the_host_and_nobody_names_the_victim() -> None:
    table, came = _host_ignoring_proposals_of(3, 1)
    assert table.net.run(lambda: _all_audited(table), limit=400.0)
    assert came
    (mine,) = _verdicts(table, 1)
    assert (mine.code, mine.culprit) == ("stalled", 0), mine
    (theirs,) = _verdicts(table, 2)  # it never saw seat 1's proposal: it names nobody
    assert (theirs.code, theirs.culprit) == ("disputed", None), theirs
    assert not theirs.fair


def test_a_slow_honest_host_inside_the_bound_is_named_by_nobody() -> None:
    table, came = _host_ignoring_proposals_of(2, 1, hold=BOUND - 5.0)
    assert table.net.run(table.done, limit=3000.0)
    assert came  # every proposal of seat 1 waited BOUND - 5 s
    for seat in (0, 1):
        verdicts = _verdicts(table, seat)
        assert verdicts and all(v.fair for v in verdicts), verdicts


def test_a_host_that_never_times_out_a_seat_is_named_by_it_at_a_table_of_two() -> None:
    table, ran_out = _host_ignoring_the_clock_of(2, 1)
    assert table.net.run(lambda: _all_audited(table), limit=600.0)
    (verdict,) = _verdicts(table, 1)
    assert (verdict.code, verdict.culprit) == ("stalled_clock", 0), verdict
    stopped = [e for e in table.seats[1].events if isinstance(e, ev.GameStopped)]
    assert ran_out and stopped[0].at >= ran_out[0] + CLOCK_ALLOWANCE + BOUND - 0.5


def test_a_host_that_never_plays_past_its_own_clock_is_named_at_a_table_of_two() -> None:
    table, ran_out = _host_ignoring_the_clock_of(2, 0)
    assert table.net.run(lambda: _all_audited(table), limit=600.0)
    (verdict,) = _verdicts(table, 1)
    assert (verdict.code, verdict.culprit) == ("stalled_clock", 0), verdict
    assert ran_out


def test_at_a_table_of_three_both_honest_seats_name_the_host_for_a_clock_stall() -> None:
    """The bystander checks the clock case itself: it saw the entry that put the
    victim on move and keeps its clock, so it names the host, as the victim does."""
    table, ran_out = _host_ignoring_the_clock_of(3, 1)
    assert table.net.run(lambda: _all_audited(table), limit=600.0)
    assert ran_out
    for seat in (1, 2):
        (verdict,) = _verdicts(table, seat)
        assert verdict.culprit == 0 and verdict.code == "stalled_clock", (seat, verdict)


def test_the_terminal_prints_the_json_line_and_exits_2_for_a_stalling_host() -> None:
    table, _ = _host_ignoring_proposals_of(2, 1)
    assert table.net.run(lambda: _all_audited(table), limit=400.0)
    (verdict,) = _verdicts(table, 1)
    peer, out = _peer()
    peer.game_audited(verdict)
    (line,) = [json.loads(x) for x in out.getvalue().splitlines()]
    assert (line["code"], line["culprit"]) == ("stalled", 0), line
    assert peer.status == 2  # "cheating: an audit named a fault" (durak-lan --help)


def test_a_seat_that_says_an_honest_host_stalled_its_clock_gets_no_honest_seat_named() -> None:
    """The malicious seat: seat 2 stops the game saying the host let seat 1's clock run
    out, a moment after the entry that put seat 1 on move.  Seat 1's own clock shows
    no such thing: it names nobody (never the host); the host names the liar."""
    table = make_table(31, Rules(players=3, deck_size=24), clock=5, grace=GRACE, idle=(1,))
    net, liar = table.net, table.seats[2].session
    assert net.run(lambda: 1 in liar.deadlines and liar.due(1) in ("take", "pass"),
                   limit=600.0)
    liar._stalled((net.now, "stalled_clock", 1), net.now)
    assert net.run(lambda: _all_audited(table), limit=net.now + 120.0)
    (bystander,) = _verdicts(table, 1)
    assert (bystander.code, bystander.culprit) == ("disputed", None), bystander
    (hosts,) = _verdicts(table, 0)
    assert (hosts.code, hosts.culprit) == ("false_claim", 2), hosts


def test_a_bystander_names_the_host_on_its_own_clock_when_told_of_a_clock_stall() -> None:
    """At three seats the bystander, told by the victim (through the host, which passes
    the Fault on), checks its own clock and concurs: the host is named as proven.  (Its
    own finding, due a moment later, is switched off here, so the Fault is what it
    judges.)"""
    table, _ = _host_ignoring_the_clock_of(3, 1)
    bystander = table.seats[2].session
    bystander._stall_due = lambda judging=None: None  # type: ignore[method-assign]
    assert table.net.run(lambda: _all_audited(table), limit=600.0)
    (stop,) = [e for e in table.seats[2].events if isinstance(e, ev.GameStopped)]
    assert stop.by_peer  # told by seat 1
    (verdict,) = _verdicts(table, 2)
    assert (verdict.code, verdict.culprit) == ("stalled_clock", 0), verdict
    assert "showed" in verdict.verdict  # "(as P1 showed, ...)": checked here, not said


def test_at_a_table_of_three_a_host_stalling_its_own_clock_is_named_by_both_seats() -> None:
    table, ran_out = _host_ignoring_the_clock_of(3, 0)
    assert table.net.run(lambda: _all_audited(table), limit=600.0)
    assert ran_out
    for seat in (1, 2):
        (verdict,) = _verdicts(table, seat)
        assert (verdict.code, verdict.culprit) == ("stalled_clock", 0), (seat, verdict)


def test_a_seat_restored_from_its_journal_still_names_a_host_that_holds_its_proposal() -> None:
    table, came = _host_ignoring_proposals_of(2, 1)
    net = table.net
    assert net.run(lambda: bool(came), limit=60.0)
    # Its kernel restarts before the bound ran out: the proposal comes back from the
    # journal and is sent again; the host's time runs from the restart.
    assert net.run(lambda: net.now >= came[0] + BOUND / 2, limit=BOUND)
    restarted = net.now
    table.restart(1)
    assert net.run(lambda: _all_audited(table), limit=400.0)
    (verdict,) = _verdicts(table, 1)
    assert (verdict.code, verdict.culprit) == ("stalled", 0), verdict
    stopped = [e for e in table.seats[1].events if isinstance(e, ev.GameStopped)]
    assert stopped and stopped[0].at >= restarted + BOUND


def _withholding_faults_of(table: Table, finder: int, *, faults: bool = True,
                           seeds: bool = False) -> list[Any]:
    """The host keeps ``finder``'s Faults (and with ``seeds``, its seed published for
    the audit) from every other seat; returns what it kept back."""
    kept: list[Any] = []
    for seat, link in table.host.links.items():
        if seat == finder:
            continue
        honest_push = link.push

        def push(frame: Any, now: float, honest_push: Any = honest_push) -> None:
            if (faults and isinstance(frame, Fault) and frame.by == finder) or (
                    seeds and isinstance(frame, Deal) and frame.seat == finder
                    and isinstance(decode(frame.data), Seed)):
                kept.append(frame)
                return
            honest_push(frame, now)

        link.push = push  # type: ignore[method-assign]
    return kept


def test_a_host_that_also_withholds_the_stalled_seats_fault_is_outrun_by_its_heartbeats() -> None:
    table, came = _host_ignoring_proposals_of(3, 1)
    kept = _withholding_faults_of(table, 1)
    assert table.net.run(lambda: _all_audited(table), limit=400.0)
    assert came and kept  # the host kept the Fault back; it came with the heartbeats
    (mine,) = _verdicts(table, 1)
    assert (mine.code, mine.culprit) == ("stalled", 0), mine
    (theirs,) = _verdicts(table, 2)
    assert (theirs.code, theirs.culprit) == ("disputed", None), theirs


def test_a_host_that_keeps_the_stalled_seats_fault_and_seed_gets_nobody_honest_named() -> None:
    table, _ = _host_ignoring_proposals_of(3, 1)
    kept = _withholding_faults_of(table, 1, seeds=True)
    assert table.net.run(lambda: _all_audited(table), limit=400.0)
    assert {type(f) for f in kept} == {Fault, Deal}
    (mine,) = _verdicts(table, 1)
    assert (mine.code, mine.culprit) == ("stalled", 0), mine
    (theirs,) = _verdicts(table, 2)  # (not "P1 did not publish its keys")
    assert (theirs.code, theirs.culprit) == ("disputed", None), theirs


def test_a_host_that_keeps_a_seats_seed_from_the_audit_gets_it_named_by_nobody() -> None:
    for players in (3, 4):
        table = make_table(21, Rules(players=players, deck_size=24), grace=GRACE)
        kept = _withholding_faults_of(table, 2, faults=False, seeds=True)
        assert table.net.run(table.done, limit=3000.0), players
        assert kept  # every other seat had seat 2's seed from its heartbeats
        for seat in range(players):
            verdicts = _verdicts(table, seat)
            assert verdicts and all(v.fair for v in verdicts), (players, seat, verdicts)


def test_a_heartbeat_with_another_seats_fault_or_a_forged_seed_is_dropped_and_counted() -> None:
    table = make_table(5, Rules(players=3, deck_size=24), grace=GRACE)
    net = table.net
    assert net.run(lambda: table.seats[1].session.in_game, limit=30.0)
    ben, cat = table.seats[1].session, table.seats[2].session
    number = ben.game_no

    def heartbeat(count: int, **extra: Any) -> bytes:
        sig = cat.identity.sign(*beacon_signed(cat.table, 2, count))
        return encode_beacon(Beacon(cat.table, 2, count, sig, **extra))

    # Cat's heartbeat carrying a Fault "found" by the host, and a seed Cat did not sign.
    made_up = Fault(0, number, 0, 1, "illegal", "", 0, bytes(64))
    ben.receive(heartbeat(1000, fault=made_up), table.addrs[2], net.now)
    ben.receive(heartbeat(1001, seed=Deal(0, number, 2, b"\x92\xa4seed\xc4\x00",
                                          bytes(64))), table.addrs[2], net.now)
    assert ben.drops["bad_beacon"] == 2
    assert number not in ben.outcomes.stops


def test_a_seat_that_cannot_hear_another_names_nobody_when_its_seed_never_comes() -> None:
    """As over channels, seat 1 hears no heartbeat of seat 2; the host keeps seat 2's
    seed from it.  Seat 1 cannot tell which of the two kept it back: it names nobody
    (it used to name the honest seat 2)."""
    table = make_table(21, Rules(players=3, deck_size=24), grace=GRACE)
    table.seats[1].session.beacons.on = False  # it neither sends nor takes heartbeats
    kept = _withholding_faults_of(table, 2, faults=False, seeds=True)
    assert table.net.run(lambda: _all_audited(table), limit=3000.0)
    assert kept
    (verdict,) = _verdicts(table, 1)
    assert (verdict.code, verdict.culprit) == ("refused", None), verdict
    assert "either may have kept them back" in verdict.verdict
    assert all(v.fair for s in (0, 2) for v in _verdicts(table, s))
