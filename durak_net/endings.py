"""How a game ends, a part of the session: stopped on a fault, then audited and settled.

One job: the way from a finding to a verdict.  A fault found here stops the game with a
Fault signed by us, carrying its evidence, sent to every seat; another seat's Fault is
checked (signed by the seat it names as its finder, its evidence our own log bears out)
before it stops anything, and one that is not is the fault of whoever sent it.  Once a
game is over or stopped, every seat publishes its seed; when all seeds are in, the
audit (:mod:`durak_net.audit`) gives the verdict, weighed by what the signed messages
alone tell (:meth:`Outcomes.judge`), and the verdict is settled: kept, journalled,
reported.  The bookkeeping (stops, faults, audits due, verdicts) is the outcomes part's
(:class:`~durak_net.outcomes.Outcomes`); the decisions are here.

It holds no session: what it needs done around it (frames sent, events, journal
records, the host's held moves let go, a table that was ending ended) it asks of an
:class:`Effects` passed to each call (tests/net/test_net_endings_part.py fakes it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from durak_core import Rules

from . import events as ev
from .audit import Stop, Verdict, audit
from .dealer import DealFault
from .dealing import Dealing
from .gamelog import GameLog, log_hash
from .identity import Identity
from .notes import Note, Seat, Theirs
from .outcomes import HOST, Outcomes, fault_signed, fitted_detail
from .play import Play
from .proposals import Proposals, opened_as_committed
from .seating import SeatingChart
from .wire import Fault, Frame


class Effects(Protocol):
    """What the endings part asks of the session around it (the session implements it;
    while a journal replays, it sends, reports and records nothing)."""

    def broadcast(self, frame: Frame, now: float, /, but: int | None = None) -> None:
        """Send ``frame`` to every seat we have a link to, but seat ``but``."""

    def emit(self, event: Any, /) -> None:
        """An event for the application."""

    def record(self, **record: Any) -> None:
        """A journal record."""

    def deal_out(self, number: int, messages: list[bytes], now: float, /) -> None:
        """Sign and send our deal messages of game ``number``."""

    def violation(self, note: Note, now: float, /) -> None:
        """A message that breaks the protocol, dropped and reported."""

    def drain(self, now: float, /) -> None:
        """Host: the moves held while a placed proposal was opened may follow."""

    def settled(self, now: float, /) -> None:
        """A game's verdict is in (a table that was ending ends)."""

    def stall_seen(self, frame: Fault, now: float, /) -> bool:
        """Another seat's ``stalled_clock`` against the host: does our own clock bear it
        out?"""


class Endings:
    """Stopping a game and settling it (see the module docstring).  The other arguments
    are the sibling parts it reads and writes."""

    def __init__(self, table: int, seat: int, name: str, rules: Rules, identity: Identity, *,
                 audit_timeout: float, outcomes: Outcomes, dealing: Dealing, game_log: GameLog,
                 proposals: Proposals, play: Play, seating: SeatingChart) -> None:
        self.table = table
        self.seat = seat
        self.name = name
        self.rules = rules
        self.identity = identity
        self.audit_timeout = audit_timeout
        self.outcomes = outcomes
        self.dealing = dealing
        self.game_log = game_log
        self.proposals = proposals
        self.play = play
        self.seating = seating

    def _names(self, ours: bool = False) -> list[str]:
        """Each seat's name; ``ours``: ours as our screen says it ("you" if nameless)."""
        return self.seating.names(ours=self.name if ours else None)

    # ------------------------------------------------------------------ stops

    def set_stop(self, fx: Effects, number: int, stop: Stop) -> None:
        """Game ``number`` stopped (kept and journalled)."""
        self.outcomes.stops[number] = stop
        fx.record(t="stop", game=number, seat=stop.seat, index=stop.index,
                  reason=stop.reason, claim=stop.claim, culprit=stop.culprit, code=stop.code,
                  note=stop.note.to_json() if stop.note is not None else None)

    def stop(self, fx: Effects, number: int, culprit: int, code: str, said: Note | str,
             now: float, stopper: int | None = None, at: int | None = None,
             frame: Fault | None = None, proof: list[bytes] | None = None) -> None:
        """Stop game ``number`` (the evidence names ``culprit``, ``said``: what it did);
        every seat then publishes its seed and the audit decides.  ``at``: the log
        length the stopping seat had, ``frame``: its signed Fault (another seat's fault,
        passed on as is, its detail in its own words); ``proof``: the signed messages
        our own Fault carries as evidence."""
        out = self.outcomes
        if number in out.stops or number in out.audits:
            return
        note = said if isinstance(said, Note) else Note.plain_text(said)
        detail = frame.detail if frame is not None else note.english(self._names())
        by = self.seat if stopper is None else stopper
        out.broken.add(number)
        if self.proposals.slot is not None and self.proposals.slot.game == number:
            self.proposals.slot = None  # (nothing more is appended to this game)
        index = len(self.game_log.of(number)) if at is None else at
        self.set_stop(fx, number, Stop(by, index, detail[:200], True, culprit, code[:24], note))
        if frame is None:
            detail = fitted_detail(number, index, culprit, code[:24], detail, by, proof or [])
            sig = self.identity.sign(*fault_signed(self.table, number, index, culprit,
                                                   code[:24], detail, by, proof or []))
            fault = Fault(0, number, index, culprit, code[:24], detail, by, sig,
                          proof or [])
        else:
            fault = frame
        out.faults[number] = fault
        if by == self.seat:
            fx.broadcast(fault, now)
        elif self.seat == HOST:
            fx.broadcast(fault, now, but=by)  # pass a seat's fault on to the others
        line = (Note.of("stopped_by", by=Seat(by), culprit=Seat(culprit), detail=note)
                if by != self.seat else Note.of("found_desync", culprit=Seat(culprit),
                                                 detail=note) if code == "desync"
                else Note.of("found", culprit=Seat(culprit), detail=note))
        fx.emit(ev.GameStopped(self.table, number, culprit, detail, by != self.seat, now,
                               line))
        self.publish_seed(fx, number, now)
        parts = self.proposals
        if self.seat == HOST and (parts.held or parts.queued) and parts.slot is None:
            fx.drain(now)

    def fault(self, fx: Effects, number: int, fault: DealFault, now: float,
              proof: list[bytes] | None = None) -> None:
        """The dealer caught a seat breaking the deal: stop the game and audit it.

        A seated player names a third seat only for messages that seat signed: what it
        knows of them came through the host, which may have altered them (then the
        host is named)."""
        culprit = fault.seat
        if self.seat != HOST and culprit not in (HOST, self.seat) and self.forged_for(
                number, culprit):
            self.stop(fx, number, HOST, "forged", Note.of("relayed_unsigned",
                                                          seat=Seat(culprit)), now)
            return
        self.stop(fx, number, fault.seat, fault.code, fault.note, now, proof=proof)

    def on_fault(self, fx: Effects, sender: int, frame: Fault, now: float, *,
                 in_game: bool) -> None:
        """Another seat's Fault, from ``sender``: it stops the game only if signed by the
        seat it names as its finder.  One that is not came from the seat that sent it to
        us (the host passes the others' faults on): it is that seat's fault."""
        number = frame.game
        out = self.outcomes
        if number not in self.dealing.dealers:
            fx.violation(Note.of("fault_undealt", game=number), now)
            return
        if number in out.stops or number in out.audits:
            return  # (the same fault again, or one after the game stopped: nothing new)
        by = frame.by
        keys = self.seating.keys()
        why = out.fault_sender_blamed(frame, table=self.table, me=self.seat, sender=sender,
                                      keys=keys)
        if why is not None:
            self.stop(fx, number, sender, "forged", why, now)
            return
        if (proven := out.signed_proof(frame, table=self.table, keys=keys,
                                       log=self.game_log)) is not None:
            if proven:
                fork = out.fork_shown(frame, table=self.table,
                                      host_key=self.seating.players[HOST].sign_key)
                out.replay_proven(number, fork)
                fx.record(t="proven", game=number, fork=fork)
            elif self.seat not in (HOST, by):  # evidence that does not back the claim
                self.stop(fx, number, by, "forged", Note.of("fault_unproven",
                                                            seat=Seat(frame.seat)), now)
                return
            # (the host passes a made-up claim on as it is, for every seat to check; its
            # own audit finds it false)
        if frame.code == "desync":
            fx.emit(ev.DesyncDetected(self.table, number, frame.index, frame.detail, True,
                                      now, Note.of("desync_peer", by=Seat(by),
                                                   detail=Theirs(frame.detail))))
        if frame.evidence and by == HOST and frame.seat not in (HOST, self.seat):
            # The host's fault of a seat's opening, with its evidence: checked on our
            # own log.  Evidence that is the seat's and does not show a fault is made
            # up: the host's.
            opened = opened_as_committed(list(frame.evidence), table=self.table,
                                         game=number, seat=frame.seat,
                                         seat_key=self.seating.players[frame.seat].sign_key)
            if opened is not None and number == self.play.game_no and self.game_log.head(
                    number) == (opened[0].seen, opened[0].seen_hash):
                if not self.play.opening_fault(frame.seat, opened[1], in_game):
                    self.stop(fx, number, sender, "forged", Note.of(
                        "fault_unproven", seat=Seat(frame.seat)), now)
                    return
                out.proven.add(number)
                fx.record(t="proven", game=number)
        if (out.proves(frame, table=self.table, keys=keys, log=self.game_log.of(number))
                or fx.stall_seen(frame, now)):
            out.proven.add(number)
            fx.record(t="proven", game=number)
        self.stop(fx, number, frame.seat, frame.code, Note.did_theirs(by, frame.code,
                                                                      frame.detail),
                  now, stopper=by, at=frame.index, frame=frame)

    # ------------------------------------------------------------------ audits

    def publish_seed(self, fx: Effects, number: int, now: float) -> None:
        """Publish our seed of game ``number`` for its audit (once), and audit it if
        every seed is in."""
        dealer = self.dealing.dealers.get(number)
        if dealer is None:
            return
        messages = dealer.publish_seed()
        if messages:
            fx.record(t="publish", game=number)
            fx.deal_out(number, messages, now)
            self.outcomes.audit_due.setdefault(number, now + self.audit_timeout)
        self.maybe_audit(fx, number, now)

    def replay_publish(self, fx: Effects, number: int, now: float) -> None:
        """A journal's ``publish`` record: we published our seed of game ``number``."""
        fx.deal_out(number, self.dealing.dealers[number].publish_seed(), now)
        self.outcomes.replay_publish(number, now)

    def maybe_audit(self, fx: Effects, number: int, now: float) -> None:
        """Audit game ``number`` if it is over or stopped and every seed is in."""
        dealer = self.dealing.dealers.get(number)
        if dealer is None or number in self.outcomes.audits or not dealer.seeds_in:
            return
        game = self.play.game
        game_over = number == self.play.game_no and game is not None and game.is_over
        if not game_over and number not in self.outcomes.stops:
            return
        self.conclude(fx, number, now)

    def conclude(self, fx: Effects, number: int, now: float, refused: bool = False,
                 heard: Callable[[int], bool] = lambda seat: True) -> None:
        """Audit game ``number`` (or name the seat that did not publish its seed).

        A seated player gets a third seat's seed through the host, or on that seat's
        own heartbeats: one it did not hear directly while it waited (``heard``) may
        have published and had it kept back by the host, so it names nobody then."""
        if number in self.outcomes.audits:
            return
        dealer = self.dealing.dealers[number]
        log = self.game_log.of(number)
        names = self._names(ours=True)
        if refused and not dealer.seeds_in:
            missing = [s for s in range(dealer.n) if s not in dealer.seeds]
            named = [s for s in missing if self.seat == HOST or s == HOST or heard(s)]
            if named:
                verdict = Verdict.of(False, "refused", Note.of("no_keys", seat=Seat(named[0])),
                                     names, named[0])
            else:
                verdict = Verdict.of(False, "refused", Note.of(
                    "no_keys_relayed", seat=Seat(missing[0]), host=Seat(HOST)), names, None)
        else:
            verdict = audit(dealer, self.rules, [(e.action, e.hash) for e in log], names,
                            self.outcomes.stops.get(number))
            verdict = self.outcomes.judge(number, verdict, names, me=self.seat, log=log,
                                          forged=lambda seat: self.forged_for(number, seat),
                                          table=self.table,
                                          host_key=self.seating.players[HOST].sign_key)
        self.settle(fx, number, verdict, now)

    def settle(self, fx: Effects, number: int, verdict: Verdict, now: float,
               silent: tuple[int, float] | None = None) -> None:
        """Game ``number``'s verdict: kept, journalled, reported (and a table that is
        ending ends)."""
        log = self.game_log.of(number)
        self.outcomes.settled(number, verdict)
        fx.record(t="audit", game=number, fair=verdict.fair, code=verdict.code,
                  detail=verdict.detail, culprit=verdict.culprit,
                  state_hash=verdict.state_hash, full=verdict.game,
                  note=verdict.note.to_json() if verdict.note is not None else None)
        fx.emit(ev.GameAudited(self.table, number, verdict.fair, verdict.text, verdict.code,
                               verdict.culprit, verdict.state_hash, log_hash(log), now,
                               verdict.game, silent[1] if silent is not None else None,
                               verdict.note))
        fx.settled(now)

    def forged_for(self, number: int, seat: int) -> bool:
        """Did the host pass on, as ``seat``'s, a deal message or a proposal of game
        ``number`` that ``seat`` did not sign?"""
        return self.dealing.forged_for(number, seat, self.seating.players[seat].sign_key,
                                       self.game_log.of(number))
