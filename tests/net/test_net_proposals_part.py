"""The proposals part and the outcomes part, each on its own (no session, no network)."""

from __future__ import annotations

import random

from durak_core import Take, parse_action
from durak_net.audit import Stop, Verdict
from durak_net.gamelog import GameLog, LogEntry
from durak_net.identity import Identity
from durak_net.outcomes import Outcomes
from durak_net.proposals import (
    OPEN_WITHIN,
    Finding,
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
from durak_net.wire import Entry, Open, Order, Propose, Refused

TABLE, GAME, SEAT, PID = 0x7AB1E, 1, 1, 3


def _keys() -> tuple[Identity, Identity]:
    rng = random.Random(5)
    return Identity.generate(rng.randbytes), Identity.generate(rng.randbytes)


def _proposal(seat: Identity, seen: int = 4) -> tuple[Propose, bytes]:
    salt = salt_for(seat.private, TABLE, GAME, PID)
    commit = proposal_commit(salt, "1 take", [])
    seen_hash = _log(4).link(GAME, 4)  # the link hash of entries 0 to 3
    sig = seat.sign(*proposal_signed(TABLE, GAME, SEAT, PID, commit, seen, seen_hash))
    return Propose(0, PID, GAME, commit, seen, seen_hash, sig), salt


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
    part.replay_propose(Take(SEAT), [], salt, frame, automatic=True, now=5.0)
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


# ------------------------------------------- the part's decisions, on messages alone


def _log(length: int, bot_for: int | None = None) -> GameLog:
    """Game ``GAME``'s log of ``length`` entries (entry 4 by a bot for ``bot_for``); a
    proposal's ``seen_hash`` is the link hash of entries 0 to 3."""
    log = GameLog()
    log.begin(GAME)
    for index in range(length):
        forced = "bot" if index == 4 and bot_for is not None else ""
        actor = bot_for if forced else 0
        log.add(GAME, LogEntry(f"{actor} pass", bytes(16) if index == 3 else
                               bytes([index + 1]) * 16, forced=forced))
    return log


def _answer(part: Proposals, frame: Propose, seat: Identity, log: GameLog, *,
            in_game: bool = True) -> str:
    answer = part.answer(SEAT, frame, table=TABLE, key=seat.public, game=GAME,
                         in_game=in_game, log=log)
    return answer.kind + (f": {answer.reason}" if answer.reason else "")


def test_the_host_places_a_proposal_made_on_its_log_and_refuses_the_rest_unopened() -> None:
    host, seat = _keys()
    frame, _ = _proposal(seat, seen=4)
    assert _answer(Proposals(), frame, seat, _log(4)) == "place"
    assert _answer(Proposals(), frame, seat, _log(5)).startswith(
        "refuse: made on entry 4; the table moved on to entry 5")
    assert _answer(Proposals(), frame, seat, _log(4), in_game=False) == (
        f"refuse: game {GAME} is not in play")
    assert _answer(Proposals(), frame, host, _log(4)) == (  # not its seat's signature
        "refuse: the proposal is not signed by its seat")
    assert _answer(Proposals(), frame, seat, _log(3)) == "forked"  # a log we never sent
    assert _answer(Proposals(), _proposal(seat, seen=3)[0], seat, _log(4)) == "forked"
    assert _answer(Proposals(), frame, seat, _log(5, bot_for=SEAT)).startswith(
        "refuse: made before entry 4, which a bot played for this seat")


def test_a_copy_gets_the_same_answer_and_an_id_is_never_reused() -> None:
    _, seat = _keys()
    part = Proposals()
    frame, _ = _proposal(seat, seen=4)
    assert _answer(part, frame, seat, _log(4)) == "place"
    assert _answer(part, frame, seat, _log(4)) == "order"  # asked again: its place again
    other = Propose(0, PID + 1, GAME, bytes(32), 4, bytes(16), bytes(64))
    assert _answer(part, other, seat, _log(4)) == "queue" and part.queued == [(SEAT, other)]
    reused = Propose(0, PID, GAME, bytes(32), 4, bytes(16), frame.sig)
    assert _answer(part, reused, seat, _log(4)).startswith("reused: proposal id 3 was used")
    part.slot = None
    part.refused(SEAT, PID, "stale", 5)
    answer = part.answer(SEAT, frame, table=TABLE, key=seat.public, game=GAME,
                         in_game=True, log=_log(5))
    assert (answer.kind, answer.reason, answer.game, answer.at) == ("refused", "stale", GAME, 5)


def test_a_seat_opens_only_an_order_the_host_signed_for_the_log_it_made_the_move_on(
) -> None:
    host, seat = _keys()

    def order(index: int, by: Identity = host) -> Order:
        frame = part.frames[PID]
        return Order(0, PID, GAME, index, by.sign(*order_signed(TABLE, GAME, SEAT, PID,
                                                               frame.commit, index)))

    def check(frame: Order, log_len: int = 4) -> tuple[str, Finding | None]:
        kind, _, finding = part.check_order(frame, table=TABLE, seat=SEAT,
                                            host_key=host.public, game=GAME, in_game=True,
                                            log_len=log_len)
        return kind, finding

    part = Proposals()
    frame, salt = _proposal(seat, seen=4)
    part.sent(OwnProposal(Take(SEAT), [], salt, frame))
    kind, finding = check(order(4, by=seat))
    assert kind == "fault" and finding is not None and finding.code == "violation"
    kind, finding = check(order(5))
    assert kind == "fault" and finding is not None and finding.code == "bad_order"
    assert host_broke_its_word("bad_order", list(finding.proof), table=TABLE, game=GAME,
                               seat=SEAT, seat_key=seat.public, host_key=host.public,
                               entry_at=lambda index: None)
    assert check(order(4), log_len=5)[0] == "fault"  # placed where the host has an entry
    assert check(order(4)) == ("open", None) and part.own[PID].index == 4
    assert check(order(4)) == ("again", None)  # (after a restart: open it again)


def test_a_refusal_checks_out_only_for_a_proposal_the_table_moved_past() -> None:
    host, seat = _keys()

    def refusal(at: int, by: Identity = host) -> Refused:
        return Refused(0, PID, "why not", at, by.sign(*refused_signed(TABLE, GAME, SEAT, PID,
                                                                      at)))

    def check(frame: Refused, log_len: int = 5) -> Finding | None:
        return part.check_refusal(frame, table=TABLE, seat=SEAT, host_key=host.public,
                                  game=GAME, in_game=True, log_len=log_len)

    part = Proposals()
    frame, salt = _proposal(seat, seen=4)
    part.sent(OwnProposal(Take(SEAT), [], salt, frame))
    assert check(refusal(5)) is None  # entry 4 came first: our move was made too early
    bad = check(refusal(5, by=seat))
    assert bad is not None and bad.code == "violation"
    own_log = check(refusal(4))
    assert own_log is not None and own_log.code == "bad_refusal" and own_log.culprit == 0
    assert host_broke_its_word("bad_refusal", list(own_log.proof), table=TABLE, game=GAME,
                               seat=SEAT, seat_key=seat.public, host_key=host.public,
                               entry_at=lambda index: None)
    unsent = check(refusal(7))  # at a log the host never sent us
    assert unsent is not None and unsent.code == "bad_refusal" and not unsent.proof
    part.replay_order(PID, 4, bytes(64))
    placed = check(refusal(5))  # it placed the move, saw it, then refused it
    assert placed is not None and placed.code == "bad_refusal"


def test_an_opening_must_be_what_its_seat_committed_to() -> None:
    _, seat = _keys()
    part = Proposals()
    frame, salt = _proposal(seat, seen=4)
    slot = part.place(SEAT, frame, 4, GAME)
    assert part.opening(slot, Open(0, PID, "1 take", [], salt)) == Take(SEAT)
    other = part.opening(slot, Open(0, PID, "1 pass", [], salt))
    assert isinstance(other, Finding) and (other.code, other.culprit) == ("bad_open", SEAT)
    commit = proposal_commit(salt, "0 take", [])
    foreign = part.opening(slot.__class__(SEAT, Propose(0, PID, GAME, commit, 4, bytes(16),
                                                        bytes(64)), 4, GAME),
                           Open(0, PID, "0 take", [], salt))
    assert isinstance(foreign, Finding) and foreign.note.code == "committed_other_seat"


def test_a_placed_proposal_is_due_open_within_the_bound_counted_from_its_seats_return(
) -> None:
    _, seat = _keys()
    part = Proposals()
    assert part.open_due() is None
    frame, _ = _proposal(seat, seen=4)
    part.place(SEAT, frame, 4, GAME, now=100.0)
    assert part.open_due() == 100.0 + OPEN_WITHIN and part.open_due(5.0) == 105.0
    part.wait_again(2, 130.0)  # another seat's return changes nothing
    assert part.open_due(5.0) == 105.0
    part.wait_again(SEAT, 130.0)  # its seat was away: the time starts again
    assert part.open_due(5.0) == 135.0


def test_a_seat_sorts_each_entry_by_whose_it_is_and_names_the_host_for_a_false_one() -> None:
    _, seat = _keys()
    part = Proposals()
    frame, salt = _proposal(seat, seen=4)
    part.sent(OwnProposal(Take(SEAT), [], salt, frame))

    def check(action: str, pid: int = 0, forced: str = "", sig: bytes = b"", salt: bytes = b"",
              adopted: tuple[int, ...] = (), index: int = 4) -> tuple[str, str | None]:
        entry = Entry(0, GAME, index, action, bytes(32), pid, [], 0, b"", sig, forced, salt)
        kind, finding = part.check_entry(entry, parse_action(action), me=SEAT, host=0,
                                         adopted=adopted, clock=30)
        return kind, None if finding is None else f"{finding.code}:{finding.note.code}"

    assert check("1 take", pid=PID) == ("own", None)
    assert check("1 pass", pid=PID) == ("", "forged:not_proposed")
    assert check("1 take", forced="timeout") == ("timeout", None)  # the clock's, no pid
    assert check("1 take", forced="late") == ("", "forged:entry_marked")
    assert check("2 take", forced="bot") == ("", "forged:bot_never_opened")
    assert check("2 take", forced="bot", adopted=(2,)) == ("bot", None)
    assert check("2 take") == ("", "forged:no_proposal")  # another seat's, unsigned
    assert check("2 take", pid=1, sig=bytes(64), salt=bytes(16)) == ("other", None)
    assert check("0 take") == ("host", None)
    assert check("0 take", pid=5) == ("", "desync:desync_host_pid")
    part.replay_order(PID, 4, bytes(64))  # placed at entry 4: only it may be there
    assert check("0 take") == ("", "bad_order:entry_at_our_place")
    assert check("0 take", adopted=(SEAT,)) == ("host", None)  # our hand opened: void
    assert part.own[PID].index == -1
