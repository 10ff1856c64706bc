"""What a third seat can and cannot settle of a claim about something only two saw.

A ``desync`` (one seat's state disagrees with an entry), an ``unopened`` (the host says a
seat never opened the move it placed) and an ``abandoned`` game (a silence) are claims
about what passed between two parties; a third seat names nobody (``disputed``) where
nothing signed shows which of the two is telling the truth.  Version 5's signed entries
settle part of it:

* a ``desync`` Fault carries the entry the finder's state disagreed with, as the host
  signed it; a seat that holds another entry the host signed at that place sees two logs
  of the host's, and names it (``forked``, proven), at 3 and 4 seats; a seat that claims
  a desync over the entry every seat holds gets nobody named;
* an ``unopened`` Fault must carry the seat's signed Propose on the log and the host's
  signed Order at the stop: one that does not (a claim about a move already logged, or
  with no evidence) is the host's own (``forged``); one that does stays ``disputed`` at a
  third seat, also when the host drops a real opening (only the two of them saw it), and
  the seat itself names the host.

Each ends with the right verdict at every seat, the culprit named by every honest seat
that can tell, and never an honest seat.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from durak_core import Rules
from durak_net import entry_sig
from durak_net.notes import Note
from durak_net.outcomes import fault_signed
from durak_net.proposals import OPEN_WITHIN, evidence
from durak_net.session import HOST, Session
from durak_net.wire import Entry, Fault, Open

from .helpers import FAST
from .tables import Table, make_table


def _verdict(table: Table, seat: int) -> tuple[str, int | None]:
    (verdict,) = table.seats[seat].audited
    return verdict.code, verdict.culprit


def _all_audited(table: Table, limit: float = 120.0) -> None:
    assert table.net.run(lambda: all(s.audited for s in table.seats), limit=limit)


def _never_honest(table: Table, honest: range | tuple[int, ...]) -> None:
    for seat in honest:
        for verdict in table.seats[seat].audited:
            assert verdict.culprit not in honest, (seat, verdict)


def _dealt(seed: int, players: int) -> Table:
    """A dealt table without bots, the host attacking first."""
    while True:
        table = make_table(seed, Rules(players=players, deck_size=36), bots=False)
        assert table.net.run(lambda t=table: all(s.session.game is not None
                                                 for s in t.seats), limit=30.0)
        if table.host.game.attacker == HOST:
            return table
        seed += 100


# ---------------------------------------------------------------------- desync


def _wrong_hash_to(table: Table, victim: int) -> None:
    """The host's first move, told to ``victim`` with another state hash (signed: the host
    says it is so), to every other seat as it is."""
    host = table.host
    link = host.links[victim]
    honest_push = link.push

    def push(frame: Any, now: float) -> None:
        if isinstance(frame, Entry) and frame.index == 0 and frame.game == 1:
            bent = msgspec.structs.replace(frame, hash=bytes(16), host_sig=b"", prev=b"")
            frame = entry_sig.sign(host.identity, host.table, bent, frame.prev)
        honest_push(frame, now)

    link.push = push  # type: ignore[method-assign]
    host.act(host.game.legal_actions(HOST)[0], table.net.now)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_host_that_signs_one_seat_a_wrong_state_hash_is_named_by_every_seat(
        players: int) -> None:
    table = _dealt(20 + players, players)
    victim = players - 1
    _wrong_hash_to(table, victim)
    _all_audited(table)
    fault = table.seats[victim].session.outcomes.faults[1]
    assert (fault.code, fault.seat, fault.by, len(fault.evidence)) == ("desync", HOST, victim, 1)
    assert _verdict(table, victim) == ("bad_log", HOST)  # its own audit replays the lie
    for seat in range(1, victim):  # the others see two entries 0 the host signed
        code, culprit = _verdict(table, seat)
        assert (code, culprit) == ("forked", HOST), (players, seat)
        assert 1 in table.seats[seat].session.outcomes.forks
        assert "signed two logs that differ at entry 0" in table.seats[seat].audited[0].verdict
        # Its journal keeps where the fork showed: a seat back from it judges the same.
        back = Session.restore(table.seats[seat].journal, table.net.now, config=FAST)
        assert back.outcomes.forks == {1: 0} and back.audits[1].code == "forked"
    _never_honest(table, range(1, players))


def test_a_seat_that_claims_a_desync_over_the_entry_every_seat_holds_gets_nobody_named(
) -> None:
    """Its evidence is the host's real entry, the one the others hold: it proves no fork.
    The others cannot see what this seat computed, so they name nobody; the host, which
    knows its entry, names the claimant."""
    table = _dealt(31, 3)
    net, host = table.net, table.host
    host.act(host.game.legal_actions(HOST)[0], net.now)
    liar = table.seats[1].session
    assert net.run(lambda: all(len(s.session.log) == 1 for s in table.seats), limit=10.0)
    liar._desync(1, 0, Note.of("desync_hash", index=0, mine="0" * 12, theirs="1" * 12),
                 net.now)
    assert len(liar.outcomes.faults[1].evidence) == 1  # the host's signed entry 0
    _all_audited(table)
    assert _verdict(table, 2) == ("disputed", None)
    assert _verdict(table, 0) == ("false_claim", 1)
    assert not table.seats[2].session.outcomes.forks
    _never_honest(table, (0, 2))


# --------------------------------------------------------------------- unopened


class _UnplacingHost(Session):
    """A host that logs the victim's first opened move and then claims it was never
    opened, with the seat's real Propose and its own real Order as "evidence"."""

    victim = 1
    claimed = False

    def _on_open(self, link, frame: Open, now: float) -> None:  # type: ignore[no-untyped-def]
        slot = self.proposals.slot
        if link.peer_seat != self.victim or slot is None or self.claimed:
            super()._on_open(link, frame, now)
            return
        proof = evidence(slot.frame, self.play.order(slot))
        super()._on_open(link, frame, now)
        self.claimed = True
        self._stop(self.game_no, self.victim, "unopened",
                   Note.of("never_opened", index=slot.index, seconds=15), now, proof=proof)


class _DroppingHost(Session):
    """A host that drops the victim's second opening, and after the bound says, with the
    real evidence, that it never came: only it and the victim know which is true."""

    victim = 1
    opens = 0

    def _on_open(self, link, frame: Open, now: float) -> None:  # type: ignore[no-untyped-def]
        if link.peer_seat == self.victim:
            self.opens += 1
            if self.opens == 2:
                return
        super()._on_open(link, frame, now)


def _table(seed: int, players: int, cls: type[Session]) -> Table:
    table = make_table(seed, Rules(players=players, deck_size=36), start=False)
    host = table.host
    host.__class__ = cls
    assert table.net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    host.start(table.net.now)
    return table


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_that_says_a_logged_move_was_never_opened_is_named_by_every_seat(
        players: int) -> None:
    table = _table(70 + players, players, _UnplacingHost)
    _all_audited(table, limit=300.0)
    assert table.host.claimed  # type: ignore[attr-defined]
    for seat in range(1, players):
        assert _verdict(table, seat)[1] == HOST, (seat, table.seats[seat].audited)
    for seat in range(2, players):  # the third seats: the claim is not backed
        assert _verdict(table, seat) == ("forged", HOST)
    _never_honest(table, range(1, players))


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_that_claims_unopened_without_evidence_is_named_by_every_seat(
        players: int) -> None:
    table = _dealt(80 + players, players)
    host, now = table.host, table.net.now
    index = len(host.log)
    sig = host.identity.sign(*fault_signed(host.table, 1, index, 1, "unopened", "x", HOST))
    fault = Fault(0, 1, index, 1, "unopened", "x", HOST, sig, [])
    for link in host.links.values():
        link.push(fault, now)
    _all_audited(table)
    for seat in range(1, players):
        assert _verdict(table, seat) == ("forged", HOST), (seat, table.seats[seat].audited)


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_that_drops_an_opening_and_claims_it_never_came_never_gets_the_seat_named(
        players: int) -> None:
    table = _table(90 + players, players, _DroppingHost)
    _all_audited(table, limit=OPEN_WITHIN + 300.0)
    assert table.host.opens >= 2  # type: ignore[attr-defined]
    fault = table.host.outcomes.faults[1]
    assert (fault.code, fault.seat) == ("unopened", 1)
    assert _verdict(table, 1) == ("false_claim", HOST)  # the seat knows it opened
    for seat in range(2, players):  # the others cannot tell: nobody
        assert _verdict(table, seat) == ("disputed", None)
    _never_honest(table, range(1, players))


# -------------------------------------------------------------------- abandoned


@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_never_heard_directly_is_not_named_on_the_hosts_word_that_it_went_silent(
        players: int) -> None:
    """After the last move the host tells seat 1 that seat 2 is lost and keeps seat 2's
    seed from it, at a table where seat 2's heartbeats cannot reach seat 1 (a path that
    does not carry them; online, a seat gives no address at all).  Seat 1 has only the
    host's word: it names nobody, never the honest seat 2, which got everything."""
    from durak_net.wire import Deal, Status

    table = make_table(53, Rules(players=players, deck_size=24), start=False)
    net, host = table.net, table.host
    assert net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    seat1 = table.seats[1].session
    on_beacon = seat1._on_beacon

    def deaf_to_2(beacon: Any, now: float) -> None:
        if beacon.seat != 2:
            on_beacon(beacon, now)

    seat1._on_beacon = deaf_to_2  # type: ignore[method-assign]
    link = host.links[1]
    honest_push = link.push
    told: list[bool] = []

    def push(frame: Any, now: float) -> None:
        over = host.game is not None and host.game.is_over
        if over and isinstance(frame, Deal) and frame.seat == 2:
            return  # seat 2's seed never reaches seat 1
        if over and isinstance(frame, Deal) and frame.seat == 0 and not told:
            told.append(True)
            honest_push(Status(0, 2, "lost"), now)
        honest_push(frame, now)

    link.push = push  # type: ignore[method-assign]
    host.start(net.now)
    assert net.run(lambda: bool(table.seats[1].audited), limit=900.0)
    (verdict,) = table.seats[1].audited
    assert told and (verdict.code, verdict.culprit) == ("abandoned", None), verdict
    assert "cannot be heard here directly" in verdict.verdict
    assert table.seats[2].audited[0].fair  # seat 2 itself got everything


def test_a_host_that_skips_an_entry_for_one_seat_is_named_by_it_and_by_nobody_else() -> None:
    """The host sends seat 1 entry 0 without its signature (dropped and counted: the
    game waits) and then entry 1: a gap.  Seat 1 names the host (a desync); its Fault
    carries entry 1 as signed, which follows the very log seat 2 holds, so seat 2 cannot
    tell whether the host skipped an entry or seat 1 lies: nobody."""
    from durak_core import Attack

    seed = 60
    while True:
        table = _dealt(seed, 3)
        host = table.host
        first = next((a for a in host.game.legal_actions(HOST) if isinstance(a, Attack)), None)
        if first is not None:
            after = host.game.copy()
            after.apply(first)
            if any(isinstance(a, Attack) for a in after.legal_actions(HOST)):
                break
        seed += 1
    net = table.net
    link = host.links[1]
    honest_push = link.push

    def push(frame: Any, now: float) -> None:
        if isinstance(frame, Entry) and frame.index == 0:
            frame = msgspec.structs.replace(frame, host_sig=b"")
        honest_push(frame, now)

    link.push = push  # type: ignore[method-assign]
    host.act(first, net.now)
    seat1 = table.seats[1].session
    assert net.run(lambda: seat1.drops["unsigned_entry"] == 1, limit=10.0)
    assert seat1.log == [] and 1 not in seat1.outcomes.broken  # it waits
    host.act(next(a for a in host.game.legal_actions(HOST) if isinstance(a, Attack)), net.now)
    _all_audited(table)
    fault = seat1.outcomes.faults[1]
    assert (fault.code, fault.seat, len(fault.evidence)) == ("desync", HOST, 1)
    assert _verdict(table, 1) == ("desync", HOST)
    assert _verdict(table, 2) == ("disputed", None)
