"""The proposals part and the outcomes part, each on its own (no session, no network)."""

from __future__ import annotations

import random

from durak_core import Take
from durak_net.audit import Stop, Verdict
from durak_net.identity import Identity
from durak_net.outcomes import Outcomes
from durak_net.proposals import (
    OwnProposal,
    Proposals,
    evidence,
    host_broke_its_word,
    order_signed,
    proposal_commit,
    proposal_signed,
    refused_signed,
    salt_for,
)
from durak_net.wire import Order, Propose, Refused

TABLE, GAME, SEAT, PID = 0x7AB1E, 1, 1, 3


def _keys() -> tuple[Identity, Identity]:
    rng = random.Random(5)
    return Identity.generate(rng.randbytes), Identity.generate(rng.randbytes)


def _proposal(seat: Identity, seen: int = 4) -> tuple[Propose, bytes]:
    salt = salt_for(seat.private, TABLE, GAME, PID)
    commit = proposal_commit(salt, "1 take", [])
    sig = seat.sign(*proposal_signed(TABLE, GAME, SEAT, PID, commit, seen, bytes(16)))
    return Propose(0, PID, GAME, commit, seen, bytes(16), sig), salt


def test_a_commitment_hides_the_move_behind_a_salt_only_its_seat_can_make() -> None:
    host, seat = _keys()
    salt = salt_for(seat.private, TABLE, GAME, PID)
    assert salt != salt_for(host.private, TABLE, GAME, PID)  # the host cannot make it
    assert salt != salt_for(seat.private, TABLE, GAME, PID + 1)  # nor is it reused
    moves = ["1 take", "1 pass", "1 attack 7♠"]
    guesses = {proposal_commit(bytes(16), m, []) for m in moves}
    assert proposal_commit(salt, "1 take", []) not in guesses


def test_the_host_places_one_proposal_at_a_time_and_a_hand_over_voids_its_place() -> None:
    part = Proposals()
    frame, _ = _proposal(_keys()[1])
    slot = part.place(SEAT, frame, 4, GAME)
    assert part.is_slot(SEAT, PID) and part.proposed[(SEAT, PID)] == (GAME, frame.commit)
    assert part.void(2) is None and part.slot is slot  # another seat's hand-over
    assert part.void(SEAT) is slot and part.slot is None
    part.place(SEAT, frame, 4, GAME)
    part.applied(SEAT, PID)
    assert part.slot is None and part.handled[(SEAT, PID)] is None


def test_our_proposal_is_opened_only_once_placed_and_forgotten_when_done() -> None:
    part = Proposals()
    frame, salt = _proposal(_keys()[1])
    part.replay_propose(Take(SEAT), [], salt, frame, automatic=True)
    assert part.pending == {PID: Take(SEAT)} and part.automatic == {PID}
    own = part.own[PID]
    assert own.order is None and part.placed_at(GAME, 4) is None
    part.replay_order(PID, 4, bytes(64))
    assert part.placed_at(GAME, 4) is own and own.order == Order(0, PID, GAME, 4, bytes(64))
    assert own.opening.salt == salt and own.opening.action == "1 take"
    assert part.replay_refused(PID) == (Take(SEAT), frame)
    assert not (part.pending or part.own or part.frames or part.automatic)
    assert part.new_pid() == PID + 1


def test_evidence_proves_a_host_that_refused_a_placed_move_and_nothing_else() -> None:
    host, seat = _keys()
    frame, _ = _proposal(seat)
    order = Order(0, PID, GAME, 4, host.sign(*order_signed(TABLE, GAME, SEAT, PID,
                                                           frame.commit, 4)))
    refusal = Refused(9, PID, "not now", 5, host.sign(*refused_signed(TABLE, GAME, SEAT,
                                                                      PID, 5)))

    def check(code: str, items: list[bytes], entry: tuple[int, int] | None = None) -> bool:
        return host_broke_its_word(code, items, table=TABLE, game=GAME, seat=SEAT,
                                   seat_key=seat.public, host_key=host.public,
                                   entry_at=lambda index: entry)

    assert check("bad_refusal", evidence(frame, order, refusal))
    assert not check("bad_refusal", evidence(frame, refusal))  # at 5 > seen 4: a race
    forged = OwnProposal(Take(SEAT), [], b"", frame, index=4, order_sig=seat.sign(b"x")).order
    assert forged is not None and not check("bad_refusal", evidence(frame, forged, refusal))
    assert not check("bad_refusal", [b"\x00junk"])
    # Its order kept its word if entry 4 here is that proposal; not if it is another.
    assert not check("bad_order", evidence(frame, order), entry=(SEAT, PID))
    assert check("bad_order", evidence(frame, order), entry=(0, 0))
    assert not check("bad_order", evidence(frame, order), entry=None)  # (we cannot tell)


def test_outcomes_keep_each_games_stop_and_verdict() -> None:
    part = Outcomes()
    part.replay_publish(1, 30.0)
    part.replay_stop(1, Stop(SEAT, 4, "left the game", False))
    assert part.stopped(1) and part.audit_due == {1: 30.0}
    part.replay_audit(1, Verdict(True, "fair", "audited: fair", None))
    assert part.audit_due == {} and part.audits[1].fair
