"""Every entry the host sends is signed by it, so what it told each seat is proof.

Version 5 (section 7 of docs/lan-protocol.md): the host signs each Entry over the table,
the game, the index, the link hash of the log before it and the entry.  An honest host
signs one log; a host that tells seats different logs signs two, and the seat that sees
both (two versions of one entry, an entry that follows a log it never signed to us, or
a seat's proposal placed on a log other than the one the entry follows) stops the game
with the host's signed words as the Fault's evidence.  Every other seat checks them with
the host's key alone and names the host, at 2, 3 and 4 seats; a seat that makes such
evidence up is named; an entry the host did not sign is dropped and counted.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from durak_core import Attack, Rules
from durak_net import entry_sig
from durak_net import events as ev
from durak_net.identity import verify
from durak_net.notes import Note
from durak_net.outcomes import fault_signed
from durak_net.session import HOST
from durak_net.wire import FAULT_BYTES, Entry, Fault, Head, encoded_size

from .helpers import propose
from .tables import Table, make_table


def _dealt(seed: int, players: int) -> Table:
    """A table whose game is dealt, the host attacking first with two moves to choose
    from (so that it can log one and tell a seat the other)."""
    while True:
        table = make_table(seed, Rules(players=players, deck_size=36), bots=False)
        assert table.net.run(lambda t=table: all(s.session.game is not None
                                                 for s in t.seats), limit=30.0)
        game = table.host.game
        if game.attacker == HOST and len(game.legal_actions(HOST)) >= 2:
            return table
        seed += 100


def _lie(table: Table, other: Any, index: int = 0) -> Entry:
    """Entry ``index`` playing ``other`` instead, signed by the host (a careful liar)."""
    host = table.host
    lie = host.game.copy()
    lie.apply(other)
    key = host.dealer.reveal(other.card) if hasattr(other, "card") else None
    reveals = [(key.position, key.key)] if key is not None else []
    frame = Entry(0, host.game_no, index, str(other), bytes.fromhex(lie.public_hash()), 0,
                  reveals, 0, b"", b"")
    return entry_sig.sign(host.identity, host.table, frame, host.game_log.link(
        host.game_no, index))


def _verdicts_name_the_host(table: Table, seats: range) -> None:
    assert table.net.run(lambda: all(table.seats[s].audited for s in seats), limit=120.0)
    for s in seats:
        (verdict,) = table.seats[s].audited
        assert (verdict.code, verdict.culprit) == ("forked", HOST), (s, verdict)


def _first_proposal_of_seat_1(table: Table) -> None:
    net = table.net
    for _ in range(5000):
        net.step()
        seat1 = table.seats[1].session
        if seat1.in_game and not seat1.pending and len(seat1.log) >= 1:
            moves = seat1.game.legal_actions(1)
            if moves:
                seat1.act(moves[0], net.now)
                return
    raise AssertionError("seat 1 never had a move")


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_that_shows_a_seat_another_log_is_named_by_every_seat_from_its_signatures(
        players: int) -> None:
    table = _dealt(30 + players, players)
    net, host = table.net, table.host
    first, other = host.game.legal_actions(HOST)[:2]
    victim = players - 1
    link = host.links[victim]
    honest_push = link.push

    lie = _lie(table, other)

    def push(frame: Any, now: float) -> None:
        if isinstance(frame, Entry) and frame.index == 0 and frame.action == str(first):
            frame = msgspec.structs.replace(lie, seq=frame.seq)
        honest_push(frame, now)

    link.push = push  # type: ignore[method-assign]
    host.act(first, net.now)
    _first_proposal_of_seat_1(table)  # seat 1 saw the real move: its proposal crosses
    _verdicts_name_the_host(table, range(1, players))
    fault = table.seats[victim].session.outcomes.faults[1]
    assert (fault.code, fault.seat, fault.by) == ("forked", HOST, victim)
    assert entry_sig.proves_fork(list(fault.evidence), table=host.table, game=1,
                                 host_key=host.identity.public)
    for side in table.seats[1:victim]:  # the seats that saw no lie checked the proof
        assert 1 in side.session.outcomes.proven


def test_a_host_that_signs_two_versions_of_an_entry_is_named_at_a_table_of_two() -> None:
    table = _dealt(40, 2)
    net, host = table.net, table.host
    first, other = host.game.legal_actions(HOST)[:2]
    lie = _lie(table, other)
    host.act(first, net.now)
    seat = table.seats[1].session
    assert net.run(lambda: len(seat.log) == 1, limit=10.0)
    # The host now sends entry 0 again, as the other move (signed: it says it is so).
    host.links[1].push(lie, net.now)
    _verdicts_name_the_host(table, range(1, 2))
    stopped = next(e for e in table.seats[1].events if isinstance(e, ev.GameStopped))
    assert "signed two logs that differ at entry 0" in stopped.detail


def test_a_host_that_strips_the_evidence_from_a_seats_fork_fault_is_named_forged() -> None:
    table = _dealt(33, 3)
    net, host = table.net, table.host
    first, other = host.game.legal_actions(HOST)[:2]
    honest_push = host.links[2].push
    lie = _lie(table, other)

    def lie_to_2(frame: Any, now: float) -> None:
        if isinstance(frame, Entry) and frame.index == 0 and frame.action == str(first):
            frame = msgspec.structs.replace(lie, seq=frame.seq)
        honest_push(frame, now)

    host.links[2].push = lie_to_2  # type: ignore[method-assign]
    honest_push1 = host.links[1].push

    def strip_for_1(frame: Any, now: float) -> None:
        if isinstance(frame, Fault) and frame.by == 2:
            frame = msgspec.structs.replace(frame, evidence=[])
        honest_push1(frame, now)

    host.links[1].push = strip_for_1  # type: ignore[method-assign]
    host.act(first, net.now)
    _first_proposal_of_seat_1(table)
    assert net.run(lambda: bool(table.seats[1].audited), limit=120.0)
    (verdict,) = table.seats[1].audited
    assert (verdict.code, verdict.culprit) == ("forged", HOST), verdict


def test_a_seat_that_makes_up_fork_evidence_against_the_host_is_named() -> None:
    table = _dealt(34, 3)
    net, host = table.net, table.host
    host.act(host.game.legal_actions(HOST)[0], net.now)
    liar = table.seats[1].session
    assert net.run(lambda: len(liar.log) == 1 and len(table.seats[2].session.log) == 1,
                   limit=10.0)
    # Two "heads" of entry 0 that differ: one real, one with a signature made up.
    real = liar.game_log.head_at(1, 0)
    assert real is not None
    fake = Head(1, 0, b"", bytes(32), bytes(64))
    evidence = [entry_sig.encode(real), entry_sig.encode(fake)]
    # The liar stops the game as an honest finder would (signing the Fault and its
    # evidence, publishing its seed).
    liar._stop(1, HOST, "forked", Note.of("forked_signed", index=0), net.now, proof=evidence)
    fault = liar.outcomes.faults[1]
    assert verify(liar.identity.public, fault.sig, *fault_signed(
        liar.table, 1, 1, HOST, "forked", fault.detail, 1, evidence))
    assert net.run(lambda: bool(table.seats[0].audited and table.seats[2].audited),
                   limit=120.0)
    expected = {0: "false_claim", 2: "forged"}  # the host passes it on for 2 to check
    for s, code in expected.items():
        (verdict,) = table.seats[s].audited
        assert (verdict.code, verdict.culprit) == (code, 1), (s, verdict)


@pytest.mark.parametrize("how", ["unsigned", "signed by a seat's key", "another prev"])
def test_an_entry_the_host_did_not_sign_is_dropped_and_counted(how: str) -> None:
    table = _dealt(35, 3)
    net, host = table.net, table.host
    seat = table.seats[1].session
    frame = _lie(table, host.game.legal_actions(HOST)[0])
    if how == "unsigned":
        frame = msgspec.structs.replace(frame, host_sig=b"")
    elif how == "signed by a seat's key":
        frame = entry_sig.sign(table.seats[2].session.identity, host.table,
                               frame, frame.prev)
    else:
        frame = msgspec.structs.replace(frame, prev=bytes(32))  # its signature fails
    host.links[1].push(frame, net.now)
    assert net.run(lambda: seat.drops["unsigned_entry"] == 1, limit=10.0)
    assert seat.log == [] and 1 not in seat.outcomes.broken


def test_a_fault_of_a_long_opening_carries_it_and_every_seat_proves_it() -> None:
    # Seat 1 commits to an attack with five of its cards (illegal: not one rank); the
    # Open is far over the 200 bytes version 4 could carry.
    table = make_table(36, Rules(players=3, deck_size=36), bots=False)
    net = table.net
    assert net.run(lambda: all(s.session.game is not None for s in table.seats), limit=30.0)
    cheat = table.seats[1].session
    cards = sorted(cheat.game.hand(1), key=str)[:5]
    reveals = []
    for card in cards:
        key = cheat.dealer.reveal(card)
        reveals.append((key.position, key.key))
    move = str(Attack(1, cards[0], tuple(cards[1:])))
    frames = propose(cheat, 99, move, reveals)
    assert encoded_size(frames[1]) > 200
    for frame in frames:
        cheat.links[HOST].push(frame, net.now)
    assert net.run(lambda: all(s.audited for s in table.seats[::2]), limit=120.0)
    fault = table.host.outcomes.faults[1]
    assert len(fault.evidence) == 2 and max(len(e) for e in fault.evidence) > 200
    assert encoded_size(fault) <= FAULT_BYTES
    assert 1 in table.seats[2].session.outcomes.proven
    for s in (0, 2):
        (verdict,) = table.seats[s].audited
        assert verdict.culprit == 1, (s, verdict)


def test_a_signed_entry_costs_its_prev_and_signature() -> None:
    # What version 5 adds to every Entry on the wire: the link hash before it and the
    # host's signature.
    frame = Entry(1, 1, 3, "1 attack 10♥", bytes(16), 2, [(4, bytes(32))], 3, bytes(32),
                  bytes(64), "", bytes(16))
    signed = msgspec.structs.replace(frame, prev=bytes(32), host_sig=bytes(64))
    assert encoded_size(signed) - encoded_size(frame) == 32 + 64  # (b"" took 2 bytes each)


@pytest.mark.parametrize("version", [4, 5])
def test_a_version_4_or_5_peer_is_listed_as_an_older_durak_and_not_invited(
        version: int) -> None:
    import random

    from durak_net.lobby import Lobby

    from .crafted import Crafter

    crafter = Crafter(5)
    data = crafter.announce("Vera", version=version)
    old = b"DK" + bytes([version]) + data[3:]  # as that durak sends it (signed alike)
    lobby = Lobby("Alice", 40000, Rules(), 0.0, entropy=random.Random(1).randbytes)
    lobby.receive(old, ("10.77.0.9", 37020), 0.5)
    (peer,) = lobby.peers.values()
    assert peer.info.incompatible == (f"runs an older durak (LAN protocol {version}); both "
                                      "players need the same version")
    with pytest.raises(ValueError, match="Vera runs an older durak"):
        lobby.invite(peer.info.node, 0.6)
    assert lobby.drops["old_version"] == 1


def test_an_early_clock_fault_carries_the_timeout_entry_the_host_signed() -> None:
    from durak_core import Take

    from .test_net_clock_proof import _early_take

    table, _ = _early_take(70, 3)
    fault = table.seats[1].session.outcomes.faults[1]
    assert (fault.code, fault.seat, fault.by) == ("early_clock", HOST, 1)
    entry = entry_sig.signed_entry(list(fault.evidence), table=table.host.table, game=1,
                                   host_key=table.host.identity.public)
    assert entry is not None and entry.forced == "timeout" and entry.action == str(Take(1))
    assert entry.index == fault.index  # the entry the seat refused to apply
    for seat in (0, 2):  # still a clock no other seat can check: nobody named
        (verdict,) = table.seats[seat].audited
        assert (verdict.code, verdict.culprit) == ("clock_disputed", None), verdict


def test_what_two_signed_heads_prove_on_their_own() -> None:
    # No session: the host's key, its entries, and the rules of a proof.
    import random

    from durak_net.gamelog import GameLog, LogEntry
    from durak_net.identity import Identity

    host = Identity.generate(random.Random(7).randbytes)
    table, key = 99, host.public
    log, other = GameLog(), GameLog()
    for part, move in ((log, "0 attack 6♠"), (other, "0 attack 7♠")):
        part.begin(1)
        part.add(1, part.signed(1, LogEntry(move, bytes(16)), host, table))
    mine, theirs = log.head_at(1, 0), other.head_at(1, 0)
    assert mine is not None and theirs is not None
    assert entry_sig.head_signed(mine, table=table, host_key=key)
    same = [entry_sig.encode(mine), entry_sig.encode(mine)]
    assert not entry_sig.proves_fork(same, table=table, game=1, host_key=key)
    both = [entry_sig.encode(mine), entry_sig.encode(theirs)]
    assert entry_sig.proves_fork(both, table=table, game=1, host_key=key)
    assert not entry_sig.proves_fork(both, table=table + 1, game=1, host_key=key)
    assert not entry_sig.proves_fork(both, table=table, game=2, host_key=key)
    # The next entry of the other log follows a link our log never had.
    other.add(1, other.signed(1, LogEntry("1 take", bytes(16)), host, table))
    frame = other.of(1)[1].frame(1, 1)
    assert log.check(frame, table=table, host_key=key)[0] == "fork"
    assert other.check(frame, table=table, host_key=key)[0] == "copy"
    # On our own log it is the next entry; one of a seat's proposals named on another
    # log than the entry's prev is a fork on its own.
    ours = log.signed(1, LogEntry("1 take", bytes(16)), host, table).frame(1, 1)
    assert log.check(ours, table=table, host_key=key) == ("next", [])
    bad = entry_sig.sign(host, table, msgspec.structs.replace(
        ours, pid=3, seen=1, seen_hash=bytes(32), sig=bytes(64), salt=bytes(16)), ours.prev)
    kind, proof = log.check(bad, table=table, host_key=key)
    assert kind == "fork" and entry_sig.proves_fork(proof, table=table, game=1, host_key=key)
    assert log.check(msgspec.structs.replace(ours, host_sig=bytes(64)), table=table,
                     host_key=key) == ("unsigned", [])
