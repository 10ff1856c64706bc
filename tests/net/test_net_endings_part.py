"""The endings part on its own (no session, no network): a game stopped on a fault
found here or sent by another seat, the seed published, the audit settled."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from durak_core import Rules, Take
from durak_net import events as ev
from durak_net.audit import Verdict
from durak_net.endings import Endings
from durak_net.gamelog import GameLog
from durak_net.identity import Identity, verify
from durak_net.notes import Note
from durak_net.outcomes import HOST, Outcomes, fault_signed
from durak_net.play import Play
from durak_net.proposals import Proposals
from durak_net.seating import Player, SeatingChart
from durak_net.wire import Fault

from .dealt import dealt
from .recorders import Broadcasts

TABLE = 0xE4D
RULES = Rules(players=3, deck_size=36)


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


IDS = [_identity(1), _identity(2), _identity(3)]
KEYS = [i.public for i in IDS]


@dataclass
class Recorder(Broadcasts):
    """The effects an endings part asks for, kept to look at."""

    dealt: list[int] = field(default_factory=list)
    violations: list[Note] = field(default_factory=list)
    drained: int = 0
    settles: int = 0

    def deal_out(self, number: int, messages: list[bytes], now: float, /) -> None:
        self.dealt.append(len(messages))

    def violation(self, note: Note, now: float, /) -> None:
        self.violations.append(note)

    def drain(self, now: float, /) -> None:
        self.drained += 1

    def settled(self, now: float, /) -> None:
        self.settles += 1

    def stall_seen(self, frame: Fault, now: float, /) -> bool:
        return False  # (no clock here: a stalled_clock claim is not borne out)


def _part(me: int) -> Endings:
    """Seat ``me``'s endings part of a dealt game 1 of three seats (the deal done in
    memory; every seat's key known)."""
    deals = dealt(TABLE, IDS, 7)
    dealing, log, proposals = deals[me], GameLog(), Proposals()
    play = Play(TABLE, me, 3, IDS[me], log, proposals, dealing)
    play.begin(1, dealing.dealers[1].deal(RULES))
    seating = SeatingChart(TABLE, 3, me, Player(me, f"P{me}", KEYS[me],
                                                "host" if me == HOST else "player"))
    for s in range(3):
        seating.players[s] = Player(s, f"P{s}", KEYS[s], "host" if s == HOST else "player")
    return Endings(TABLE, me, f"P{me}", RULES, IDS[me], audit_timeout=30.0,
                   outcomes=Outcomes(), dealing=dealing, game_log=log, proposals=proposals,
                   play=play, seating=seating)


def _fault(by: int, culprit: int, code: str = "not_held", signer: int | None = None) -> Fault:
    detail = "played a card it does not hold"
    sig = IDS[by if signer is None else signer].sign(
        *fault_signed(TABLE, 1, 0, culprit, code, detail, by))
    return Fault(0, 1, 0, culprit, code, detail, by, sig, [])


def test_a_fault_found_here_is_signed_sent_and_stops_the_game_for_its_audit() -> None:
    part, fx = _part(1), Recorder()
    part.stop(fx, 1, 2, "not_held", Note.plain_text("played a card it does not hold"), 5.0,
              proof=[b"evidence"])
    ((fault, but),) = fx.sent
    assert isinstance(fault, Fault) and but is None  # to every seat
    assert (fault.seat, fault.by, fault.code, fault.evidence) == (2, 1, "not_held",
                                                                     [b"evidence"])
    assert verify(KEYS[1], fault.sig, *fault_signed(TABLE, 1, 0, 2, "not_held", fault.detail,
                                                    1, [b"evidence"]))
    assert part.outcomes.stopped(1) and part.outcomes.faults[1] == fault
    assert [r["t"] for r in fx.records] == ["stop", "publish"]  # our seed, for the audit
    assert fx.dealt and part.outcomes.audit_due == {1: 35.0}
    (stopped,) = [e for e in fx.events if isinstance(e, ev.GameStopped)]
    assert (stopped.culprit, stopped.by_peer) == (2, False)
    part.stop(fx, 1, 0, "other", Note.plain_text("again"), 6.0)  # (stopped once)
    assert len(fx.sent) == 1 and part.outcomes.stops[1].culprit == 2


def test_another_seats_signed_fault_stops_the_game_and_the_host_passes_it_on() -> None:
    host, fx = _part(HOST), Recorder()
    fault = _fault(by=1, culprit=2)
    host.on_fault(fx, 1, fault, 1.0, in_game=True)
    assert host.outcomes.stops[1].culprit == 2 and host.outcomes.faults[1] == fault
    assert fx.sent[0] == (fault, 1)  # as it was signed, to every seat but its finder
    (stopped,) = [e for e in fx.events if isinstance(e, ev.GameStopped)]
    assert (stopped.culprit, stopped.by_peer) == (2, True)


def test_a_fault_not_signed_by_its_finder_is_the_fault_of_its_sender() -> None:
    seat, fx = _part(2), Recorder()
    # The host passes on a Fault "found by seat 1" that it signed itself.
    seat.on_fault(fx, HOST, _fault(by=1, culprit=2, signer=HOST), 1.0, in_game=True)
    stop = seat.outcomes.stops[1]
    assert (stop.culprit, stop.code, stop.seat) == (HOST, "forged", 2)
    ((ours, _),) = fx.sent
    assert isinstance(ours, Fault) and (ours.by, ours.seat) == (2, HOST)
    # A Fault naming us as its finder is not ours, whoever signed it.
    again, fx = _part(2), Recorder()
    again.on_fault(fx, HOST, _fault(by=2, culprit=1), 1.0, in_game=True)
    assert (again.outcomes.stops[1].culprit, again.outcomes.stops[1].code) == (HOST,
                                                                               "forged")


def test_a_fault_of_a_game_never_dealt_is_a_violation_and_stops_nothing() -> None:
    part, fx = _part(1), Recorder()
    fault = msgspec.structs.replace(_fault(by=2, culprit=0), game=9)
    part.on_fault(fx, HOST, fault, 1.0, in_game=True)
    assert [n.code for n in fx.violations] == ["fault_undealt"]
    assert not part.outcomes.stops and not fx.sent


def test_a_seat_that_withholds_its_seed_is_named_when_the_audit_is_refused() -> None:
    part, fx = _part(1), Recorder()
    part.stop(fx, 1, 2, "not_held", Note.plain_text("it played a card it does not hold"),
              1.0)
    assert 1 not in part.outcomes.audits  # the others' seeds are not in
    part.conclude(fx, 1, 40.0, refused=True)
    verdict = part.outcomes.audits[1]
    assert (verdict.fair, verdict.code, verdict.culprit) == (False, "refused", 0)
    assert fx.records[-1]["t"] == "audit" and fx.settles == 1
    (audited,) = [e for e in fx.events if isinstance(e, ev.GameAudited)]
    assert (audited.code, audited.culprit) == ("refused", 0)
    assert part.outcomes.audit_due == {}  # nothing more is due
    part.conclude(fx, 1, 41.0, refused=True)  # (settled once)
    assert fx.settles == 1


def test_a_settled_verdict_is_kept_journalled_and_reported() -> None:
    part, fx = _part(2), Recorder()
    verdict = Verdict.of(False, "abandoned", Note.of("silent", seat=1, seconds=60),
                         ["P0", "P1", "you"], 1)
    part.settle(fx, 1, verdict, 9.0, silent=(1, 3.0))
    assert part.outcomes.audits[1] == verdict and fx.settles == 1
    assert fx.records == [{"t": "audit", "game": 1, "fair": False, "code": "abandoned",
                           "detail": verdict.detail, "culprit": 1,
                           "state_hash": verdict.state_hash, "full": verdict.game,
                           "note": verdict.note.to_json() if verdict.note else None}]
    (audited,) = fx.events
    assert isinstance(audited, ev.GameAudited) and audited.silent_since == 3.0


def test_a_journals_publish_record_replays_the_seed_and_its_audit_due() -> None:
    part, fx = _part(1), Recorder()
    part.replay_publish(fx, 1, 3.0)
    assert fx.dealt and part.outcomes.audit_due == {1: 3.0}


def test_a_stop_lets_the_hosts_held_moves_follow_once_no_proposal_is_placed() -> None:
    host, fx = _part(HOST), Recorder()
    host.proposals.held.append((HOST, Take(HOST)))  # (a move held behind a placed one)
    host.stop(fx, 1, 1, "unopened", Note.plain_text("never opened its move"), 1.0)
    assert fx.drained == 1  # they follow: each is refused now, the game being stopped
    seat, fx = _part(1), Recorder()
    seat.proposals.held.append((1, Take(1)))
    seat.stop(fx, 1, 2, "not_held", Note.plain_text("x"), 1.0)
    assert fx.drained == 0  # (only the host holds moves)
