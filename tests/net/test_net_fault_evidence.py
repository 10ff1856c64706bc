"""A fault of a seat's opening carries its proof, and every seat checks it itself.

A seated player's move is committed first (its signed Propose) and opened once the host
has placed it.  Only the seat knows the salt of its commitment, so an Open that matches
the signed commitment is the seat's own word.  When the opening is at fault (an illegal
move, a card it cannot hold, a move of another seat), the host's Fault carries the
Propose and the Open; every other seat checks both on its own log and names the seat
itself, instead of taking the host's word (``disputed``).  A Fault whose evidence is the
seat's and shows no fault is made up: every honest seat names the host.
"""

from __future__ import annotations

from typing import Any

import pytest

from durak_core import Attack, Pass, Rules, Take
from durak_net import events as ev
from durak_net.session import HOST, Session
from durak_net.wire import Open

from .helpers import propose
from .tables import Table, make_table

CHEAT = 1


def _run_to_verdicts(table: Table) -> None:
    assert table.net.run(lambda: all(s.audited for s in table.seats), limit=120.0)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_illegal_opening_is_named_by_every_honest_seat_from_its_evidence(
        players: int) -> None:
    table = make_table(60 + players, Rules(players=players, deck_size=36), bots=False)
    net = table.net
    assert net.run(lambda: all(s.session.game is not None for s in table.seats), limit=30.0)
    cheat = table.seats[CHEAT].session
    game = cheat.game
    assert game is not None
    illegal = next(a for a in [Take(CHEAT), Pass(CHEAT)] if game.why_illegal(a))
    for frame in propose(cheat, 99, str(illegal)):
        cheat.links[HOST].push(frame, net.now)
    _run_to_verdicts(table)
    fault = table.host.outcomes.faults[1]
    assert (fault.code, fault.seat, len(fault.evidence)) == ("illegal", CHEAT, 2)
    for side in table.seats:
        if side.session.seat == CHEAT:
            continue
        (verdict,) = side.audited
        assert (verdict.code, verdict.culprit) == ("illegal", CHEAT), verdict
    for side in table.seats[2:]:  # a third seat checked the evidence itself
        assert 1 in side.session.outcomes.proven


@pytest.mark.parametrize("kind", ["another seat's move", "a card it does not hold"])
def test_an_opening_of_another_seats_move_or_card_is_named_by_every_honest_seat(
        kind: str) -> None:
    table = make_table(71, Rules(players=3, deck_size=36), bots=False)
    net = table.net
    assert net.run(lambda: all(s.session.game is not None for s in table.seats), limit=30.0)
    cheat = table.seats[CHEAT].session
    if kind == "another seat's move":
        move, code = "2 take", "bad_open"  # seat 2's move, in seat 1's commitment
    else:
        card = table.host.game.hand(HOST)[0]  # the host's card, opened with no key
        move, code = str(Attack(CHEAT, card)), "not_held"
    for frame in propose(cheat, 99, move):
        cheat.links[HOST].push(frame, net.now)
    _run_to_verdicts(table)
    for side in (table.seats[0], table.seats[2]):
        (verdict,) = side.audited
        assert (verdict.code, verdict.culprit) == (code, CHEAT), verdict


class _BlamingHost(Session):
    """A host that takes the victim's first opening (a legal move) and stops the game
    calling it illegal, with the real Propose and Open as its "evidence"."""

    victim = 1

    def _on_open(self, link: Any, frame: Open, now: float) -> None:
        slot = self.proposals.slot
        if link.peer_seat != self.victim or slot is None or slot.seat != self.victim:
            super()._on_open(link, frame, now)
            return
        from durak_net.notes import Note
        from durak_net.proposals import evidence

        self.proposals.slot = None
        self._stop(self.game_no, self.victim, "illegal", Note.of("opened_more"), now,
                   proof=evidence(slot.frame, frame))


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_that_makes_up_a_fault_from_an_honest_opening_is_named(players: int) -> None:
    table = make_table(80 + players, Rules(players=players, deck_size=36), start=False)
    host = table.host
    host.__class__ = _BlamingHost
    assert table.net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    host.start(table.net.now)
    _run_to_verdicts(table)
    assert any(isinstance(e, ev.GameStopped) for e in table.seats[1].events)
    for side in table.seats[1:]:  # the victim and every other honest seat
        (verdict,) = side.audited
        assert verdict.culprit == HOST, verdict
    for side in table.seats[2:]:
        (verdict,) = side.audited
        assert verdict.code == "forged" and "evidence does not check out" in verdict.verdict
