"""A cheating host, and seats that try to speak for each other, at tables of three.

At a table every seat talks only to the host, which passes the others' messages on.
The pairwise session keys prove only which link a message came over; what stops the
host from speaking for a seat is that seat's own signature.  Each test double below is
an honest session whose host side does one dishonest thing, written the way an attacker
would (through the same links, with correct hashes where it can compute them), and
each test checks the verdict every honest seat reaches names the host, and why.
"""

from __future__ import annotations

from typing import Any

from durak_core import Rules, Take
from durak_net import entry_sig
from durak_net import events as ev
from durak_net.wire import Deal, Entry, Propose, SeatInfo, Seating

from .tables import Table, host_altering_seat2s_keys, make_table

RULES = Rules(players=3, deck_size=36)


def _verdicts(table: Table, seat: int) -> list[ev.GameAudited]:
    return [e for e in table.seats[seat].events if isinstance(e, ev.GameAudited)]


def _all_audited(table: Table) -> bool:
    return all(_verdicts(table, s) for s in range(len(table.seats)))


def _forge_take_for(table: Table, victim: int) -> bool:
    """The host appends "victim take" when the victim defends, with a made-up proposal
    (the host cannot sign for the victim): once; True when done."""
    host = table.host
    game = host.game
    if game is None or not host.in_game or game.defender != victim:
        return False
    take = Take(victim)
    if game.why_illegal(take) is not None:
        return False
    seen, seen_hash = host.game_log.head(host.game_no)  # (a careful liar: on its log)
    fake = Propose(0, 4242, host.game_no, bytes(32), seen, seen_hash, bytes(64))
    host._append(take, 4242, [], table.net.now, proposal=fake, salt=bytes(16))
    return True


def test_a_host_that_plays_a_move_for_another_seat_is_named_by_every_seat() -> None:
    table = make_table(21, RULES)
    done: list[bool] = []

    def hook(now: float) -> None:
        if not done and _forge_take_for(table, 2):
            done.append(True)

    table.net.hooks.insert(0, hook)
    assert table.net.run(lambda: bool(done) and _all_audited(table), limit=120.0)
    # The victim sees an entry of its seat it never proposed ...
    stopped = next(e for e in table.seats[2].events if isinstance(e, ev.GameStopped))
    assert stopped.culprit == 0 and "did not propose" in stopped.detail
    for seat in (1, 2):
        verdict = _verdicts(table, seat)[0]
        assert not verdict.fair and verdict.code == "forged" and verdict.culprit == 0, verdict
    # ... and the bystander, who applied it (it was legal), learns from the audit that
    # the host could not show the victim's signature for it.
    assert "did not sign" in _verdicts(table, 1)[0].verdict


def _dealt(seed: int) -> Table:
    table = make_table(seed, RULES, bots=False)
    assert table.net.run(lambda: all(s.session.game is not None for s in table.seats),
                         limit=30.0)
    return table


def test_a_host_that_tells_two_seats_different_moves_is_caught_by_the_next_proposal() -> None:
    # A deal where the host attacks first with two different legal moves, so it can log
    # one and tell seat 2 the other (with the right hash for it: a careful liar).
    seed = 22
    table = _dealt(seed)
    while table.host.game.attacker != 0 or len(table.host.game.legal_actions(0)) < 2:
        seed += 100
        table = _dealt(seed)
    net, host = table.net, table.host
    first, other = host.game.legal_actions(0)[:2]
    lie = host.game.copy()
    lie.apply(other)
    link = host.links[2]
    honest_push = link.push

    def push(frame: Any, now: float) -> None:
        if isinstance(frame, Entry) and frame.index == 0 and frame.action == str(first):
            key = host.dealer.reveal(other.card) if hasattr(other, "card") else None
            reveals = [(key.position, key.key)] if key is not None else []
            frame = entry_sig.sign(host.identity, host.table, Entry(
                frame.seq, frame.game, 0, str(other), bytes.fromhex(lie.public_hash()), 0,
                reveals, 0, b"", b""), b"")
        honest_push(frame, now)

    link.push = push  # type: ignore[method-assign]
    host.act(first, net.now)
    # Seat 1 (which saw the real move) plays next; its proposal names the log it saw,
    # which the host must pass on to seat 2 with the proposer's signature.
    for _ in range(5000):
        net.step()
        seat1 = table.seats[1].session
        if seat1.game is not None and seat1.in_game and not seat1.pending:
            moves = [a for a in seat1.game.legal_actions(1)]
            if moves and len(seat1.log) >= 1:
                seat1.act(moves[0], net.now)
                break
    assert net.run(lambda: any(isinstance(e, ev.GameStopped) for e in table.seats[2].events),
                   limit=60.0)
    stopped = next(e for e in table.seats[2].events if isinstance(e, ev.GameStopped))
    # It holds the host's signatures on both logs (tests/net/test_net_signed_entries.py
    # checks the proof every other seat draws from them).
    assert stopped.culprit == 0 and "signed two logs" in stopped.detail


def test_a_host_that_forges_a_seats_deal_message_is_named_by_the_audit() -> None:
    table, forged = host_altering_seat2s_keys(23, RULES)
    net = table.net
    assert net.run(lambda: bool(_verdicts(table, 1)), limit=60.0)
    assert forged
    verdict = _verdicts(table, 1)[0]
    assert not verdict.fair and verdict.code == "forged" and verdict.culprit == 0, verdict


def test_a_host_that_seats_a_false_key_makes_the_table_words_differ() -> None:
    table = make_table(24, RULES, bots=False, start=False)
    net, host = table.net, table.host
    assert net.run(lambda: all(s.session.table_words for s in table.seats), limit=30.0)
    honest = {s.session.table_words for s in table.seats}
    assert len(honest) == 1 and "" not in honest
    # The host tells seat 1 that seat 2 signs with a key of the host's own: it could
    # then speak for seat 2 to seat 1.  A fresh seat 1 (it never heard seat 2's key).
    from durak_net.identity import Identity

    mine = Identity.generate(lambda n: bytes([7]) * n)
    seats = [SeatInfo(p.seat, p.name, mine.public if p.seat == 2 else p.sign_key, p.kind)
             for _, p in sorted(host.players.items())]
    fresh = make_table(24, RULES, bots=False, start=False)
    victim = fresh.seats[1].session
    victim.players[2].sign_key = b""
    victim.joining.on_seating(victim, Seating(0, victim.table, seats, 0, 60, False), net.now)
    assert victim.table_words and victim.table_words not in honest


def test_a_seat_cannot_send_a_deal_message_or_a_proposal_as_another() -> None:
    table = make_table(25, RULES, bots=False, start=False)
    net, host = table.net, table.host
    assert net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    seat1 = table.seats[1].session
    before = host.drops["violation"]
    # A deal message of seat 2's, sent by seat 1: refused on its link.
    seat1.links[0].push(Deal(0, 1, 2, b"\x91\xa5ready", bytes(64)), net.now)
    # One of its own, signed with the wrong key.
    seat1.links[0].push(Deal(0, 1, 1, b"\x91\xa5ready", bytes(64)), net.now)
    assert net.run(lambda: host.drops["violation"] >= before + 2, limit=10.0)
    violations = [e.detail for e in table.seats[0].events
                  if isinstance(e, ev.ProtocolViolation)]
    names = host.names
    assert f"{names[1]} sent a deal message as {names[2]}" in violations
    assert f"{names[1]}'s deal message is not signed by it" in violations


def test_a_proposal_with_a_bad_signature_is_refused() -> None:
    table = _dealt(26)
    net = table.net
    seat1 = table.seats[1].session
    seat1.links[0].push(Propose(0, 1, 1, bytes(32), 0, b"", bytes(64)), net.now)
    assert net.run(lambda: any(isinstance(e, ev.PeerActionRefused)
                               for e in table.seats[0].events), limit=10.0)
    refused = [e for e in table.seats[0].events if isinstance(e, ev.PeerActionRefused)]
    assert [e.reason for e in refused] == ["the proposal is not signed by its seat"]
