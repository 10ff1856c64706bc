"""How each game of a table ended, a part of the session: stops, faults, audits.

A game ends by being played out, or stops: on a Fault (sent or received, signed by
its finder), because a seat left, or because one went silent.  Then every seat
publishes its seed and the audit (:mod:`durak_net.audit`) gives the verdict.  This part
keeps, per game, whether it stopped and why, the Fault that stopped it (resent to a
seat back from its journal), whether the evidence of a Fault against the host checked
out here, when a seat that withholds its seed is named, and the verdicts.  It also
judges, on the signed messages alone: whether a Fault is signed by the seat it names
as its finder (:meth:`Outcomes.fault_sender_blamed`), whether its evidence proves the
host broke its word, whether the host passed on as a seat's a message that seat did
not sign (:func:`forged_for`), and so what the audit's verdict becomes
(:meth:`Outcomes.judge`).  The session wires it; a journal replays through the
``replay_*`` methods.

>>> from durak_net.audit import Stop
>>> part = Outcomes()
>>> part.replay_stop(1, Stop(1, 4, "left the game", False))
>>> part.stopped(1), part.stopped(2)
(True, False)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from durak_core import parse_action

from . import entry_sig
from .audit import Stop, Verdict
from .gamelog import GameLog, LogEntry
from .identity import verify
from .notes import Note, Seat
from .proposals import host_broke_its_word, placed_unopened, proposal_commit, proposal_signed
from .wire import FAULT_BYTES, Deal, Fault, encoded_size

#: The host's seat (the sequencer): every table numbers it 0.
HOST = 0


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def deal_signed(table: int, game: int, seat: int, data: bytes) -> list[bytes]:
    """What a seat signs for one of its deal messages (section 8 of the protocol)."""
    return [b"durak-lan v3 deal", _u64(table), game.to_bytes(4, "big"), bytes([seat]), data]


def evidence_hash(items: Sequence[bytes]) -> bytes:
    """``BLAKE2b-256((u32be(len(item)) || item)*)``: a Fault's evidence as its finder
    signs it, so that nobody passing the Fault on can add, drop or alter an item."""
    data = b"".join(len(item).to_bytes(4, "big") + item for item in items)
    return hashlib.blake2b(data, digest_size=32).digest()


def fault_signed(table: int, game: int, index: int, seat: int, code: str, detail: str,
                 by: int, evidence: Sequence[bytes] = ()) -> list[bytes]:
    """What the seat that found a fault signs for it (section 8 of the protocol): its
    evidence too (:func:`evidence_hash`)."""
    return [b"durak-lan v5 fault", _u64(table), game.to_bytes(4, "big"),
            index.to_bytes(4, "big"), bytes([seat]), code.encode() + b"\x00",
            detail.encode() + b"\x00", bytes([by]), evidence_hash(evidence)]


def fitted_detail(game: int, index: int, seat: int, code: str, detail: str, by: int,
                  evidence: Sequence[bytes]) -> str:
    """``detail`` shortened so that the Fault with its ``evidence`` fits one datagram
    (:data:`~durak_net.wire.FAULT_BYTES`; the longest evidence, an Entry or an Open of six
    cards, leaves room for some words)."""
    detail = detail[:200]
    while detail and encoded_size(Fault(2**32, game, index, seat, code, detail, by,
                                        bytes(64), list(evidence))) > FAULT_BYTES:
        detail = detail[:-10]
    return detail


def forged_for(table: int, game: int, seat: int, key: bytes, deals: Sequence[Deal],
               log: Sequence[LogEntry]) -> bool:
    """Did the host pass on, as ``seat``'s (signing key ``key``), a deal message or a
    proposal of game ``game`` that ``seat`` did not sign?  (What a seated player knows
    of a third seat came through the host, which may have altered it.)"""
    if any(d.seat == seat and not verify(key, d.sig, *deal_signed(table, game, seat, d.data))
           for d in deals):
        return True
    for e in log:
        if e.forced and not e.pid:
            continue  # the clock's or a bot's move: the host's, signed by nobody
        action = parse_action(e.action)
        commit = proposal_commit(e.salt, e.action, list(e.reveals))
        if action.player == seat and not verify(key, e.sig, *proposal_signed(
                table, game, seat, e.pid, commit, e.seen, e.seen_hash)):
            return True
    return False


@dataclass
class Outcomes:
    """Per game: stopped or not, why, the Fault, the audit due and the verdict."""

    #: Games stopped before their end (no more entries are made or applied).
    broken: set[int] = field(default_factory=set)
    #: Why each stopped game stopped.
    stops: dict[int, Stop] = field(default_factory=dict)
    #: The Fault that stopped a game (ours, or another seat's as signed).
    faults: dict[int, Fault] = field(default_factory=dict)
    #: Games stopped on a fault of the host whose evidence checked out here.
    proven: set[int] = field(default_factory=set)
    #: Games where a seat's Fault (a ``desync``, an ``early_clock``) carried an entry the
    #: host signed that contradicts our log: the entry's index, by game.
    forks: dict[int, int] = field(default_factory=dict)
    #: Audit verdicts by game.
    audits: dict[int, Verdict] = field(default_factory=dict)
    #: When a connected seat that has not published its seed refuses the audit.
    audit_due: dict[int, float] = field(default_factory=dict)

    def stopped(self, game: int) -> bool:
        return game in self.broken

    def settled(self, game: int, verdict: Verdict) -> None:
        """Game ``game``'s verdict is in: nothing more is due."""
        self.audits[game] = verdict
        self.audit_due.pop(game, None)

    def replay_stop(self, game: int, stop: Stop) -> None:
        self.broken.add(game)
        self.stops[game] = stop

    def replay_publish(self, game: int, due: float) -> None:
        """We published our seed for game ``game``; its audit is due by ``due``."""
        self.audit_due.setdefault(game, due)

    def replay_proven(self, game: int, fork: int | None = None) -> None:
        """A journal's ``proven`` (``fork``: the index where the host's fork shows)."""
        self.proven.add(game)
        if fork is not None:
            self.forks[game] = fork

    def replay_audit(self, game: int, verdict: Verdict) -> None:
        self.settled(game, verdict)

    # ------------------------------------------------------------------ judging

    def abandon_verdict(self, game: int, seat: int, silent: float, names: Sequence[str], *,
                        me: int, heard_ago: float | None, wait: float) -> Verdict:
        """Game ``game``'s verdict as seat ``me`` settles it without ``seat``, silent for
        ``silent`` seconds (its stop is kept): the fault we saw ourselves, if we stopped
        the game on evidence; else ``abandoned`` naming it, where our own ears say so.
        ``heard_ago``: None when it is at the other end of one of our links (our link is
        what we heard); else since when its own heartbeats last reached us, infinite if
        they never did.  Heard within ``wait`` while the host says it is silent: one of
        the two is not telling the truth, and we cannot tell which.  Never heard: we
        have only the host's word that it went silent (it gave no address, or the way
        from it to us does not carry its heartbeats), and a host that holds back a seat's
        messages would get it named on that word alone: nobody is named."""
        stop = self.stops[game]
        culprit = stop.culprit
        if stop.claim and stop.seat == me and culprit is not None and culprit != me:
            return Verdict.of(False, stop.code, Note.of("silent_after", verdict=Note.of(
                "cheated", culprit=Seat(culprit), detail=stop.said), seat=Seat(seat)), names,
                culprit)
        if heard_ago is not None and heard_ago < wait:
            return Verdict.of(False, "abandoned", Note.of(
                "silent_disputed", host=Seat(HOST), seat=Seat(seat)), names)
        if heard_ago is not None and math.isinf(heard_ago):
            return Verdict.of(False, "abandoned", Note.of(
                "silent_reported", host=Seat(HOST), seat=Seat(seat),
                seconds=round(silent)), names)
        return Verdict.of(False, "abandoned", Note.of(
            "silent", seat=Seat(seat), seconds=round(silent)), names, seat)

    @staticmethod
    def fault_sender_blamed(frame: Fault, *, table: int, me: int, sender: int,
                            keys: Sequence[bytes]) -> Note | None:
        """Another seat's Fault, as ``sender`` sent it to seat ``me``: why it is the
        sender's own fault (None: it is signed by the seat it names as its finder).
        The host passes a seat's Fault on, but a seat's Fault comes to the host only
        from that seat; one that names us as its finder is not ours."""
        by = frame.by
        if by == me:
            return Note.of("fault_ours")
        if me == HOST and by != sender:
            return Note.of("fault_relayed", seat=Seat(by))
        if not (0 <= by < len(keys)) or not verify(keys[by], frame.sig, *fault_signed(
                table, frame.game, frame.index, frame.seat, frame.code, frame.detail, by,
                frame.evidence)):
            return (Note.of("fault_unsigned_by", seat=Seat(by)) if sender != by
                    else Note.of("fault_unsigned"))
        return None

    @staticmethod
    def signed_proof(frame: Fault, *, table: int, keys: Sequence[bytes],
                     log: GameLog) -> bool | None:
        """What another seat's Fault proves to us on signatures alone, where they settle
        its claim (``log``: our own log, as the host signed it to us).

        * A seat's ``forked`` against the host: True when its evidence proves, with the
          host's own signatures, that the host signed two logs; False when it does not
          (the finder made it up: an honest seat claims a fork only with the proof).
        * Any other claim of a seat against the host that carries an entry the host
          signed to it (a ``desync``: the entry its state disagreed with; an
          ``early_clock``: the "timed out" entry): True when that entry and our own log
          make no one log: the host told the two of us different things.  Otherwise None:
          what made the finder's state differ from ours, or when its clock started, we
          cannot see (the verdict stays ``disputed`` or ``clock_disputed``).
        * The host's ``unopened`` against a seat: False when it does not carry the seat's
          signed Propose on our log and the host's signed Order of it at the stop
          (:func:`~durak_net.proposals.placed_unopened`: the host made the claim up);
          else None (that the opening never came only the host can see).

        None: nothing here settles the claim."""
        game = frame.game
        if frame.seat == HOST and frame.by != HOST:
            if frame.code == "forked":
                return entry_sig.proves_fork(list(frame.evidence), table=table, game=game,
                                             host_key=keys[HOST])
            theirs = entry_sig.signed_entry(list(frame.evidence), table=table, game=game,
                                            host_key=keys[HOST])
            if theirs is None:
                return None
            ours = [head for i in (theirs.index - 1, theirs.index, theirs.index + 1)
                    if (head := log.head_at(game, i)) is not None]
            shown = [entry_sig.encode(h) for h in ours] + [entry_sig.encode(theirs)]
            return True if entry_sig.proves_fork(shown, table=table, game=game,
                                                 host_key=keys[HOST]) else None
        if frame.code == "unopened" and frame.by == HOST and 0 < frame.seat < len(keys):
            backed = placed_unopened(list(frame.evidence), table=table, game=game,
                                     index=frame.index, seat=frame.seat,
                                     seat_key=keys[frame.seat], host_key=keys[HOST], log=log)
            return None if backed else False
        return None

    @staticmethod
    def fork_shown(frame: Fault, *, table: int, host_key: bytes) -> int | None:
        """The index of the entry a seat's Fault (not a ``forked`` one) carries as the
        host signed it: where the host's fork shows, once :meth:`signed_proof` found that
        entry contradicts our log (None: it carries none)."""
        if frame.code == "forked":
            return None
        theirs = entry_sig.signed_entry(list(frame.evidence), table=table, game=frame.game,
                                        host_key=host_key)
        return theirs.index if theirs is not None else None

    @staticmethod
    def proves(frame: Fault, *, table: int, keys: Sequence[bytes],
               log: Sequence[LogEntry]) -> bool:
        """Does a Fault against the host, found by a seat, carry evidence that proves
        to us (the signed messages, and our own ``log`` of its game) that the host
        broke its word about that seat's proposal?"""
        seat = frame.by
        if not frame.evidence or frame.seat != HOST or not 0 < seat < len(keys):
            return False

        def entry_at(index: int) -> tuple[int, int] | None:
            if not 0 <= index < len(log):
                return None
            return parse_action(log[index].action).player, log[index].pid

        return host_broke_its_word(frame.code, list(frame.evidence), table=table,
                                   game=frame.game, seat=seat, seat_key=keys[seat],
                                   host_key=keys[HOST], entry_at=entry_at)

    def judge(self, game: int, verdict: Verdict, names: Sequence[str], *, me: int,
              log: Sequence[LogEntry], forged: Callable[[int], bool], table: int = 0,
              host_key: bytes = b"") -> Verdict:
        """The audit's ``verdict`` of game ``game`` as seat ``me`` gives it, once it has
        weighed what only the signed messages tell: a seat blamed for what the host
        passed on that it never signed (``forged(seat)``), a clock claim the log bears
        out, a Fault against the host whose evidence checked out here."""
        verdict = self.check_blame(verdict, names, me=me, seats=len(names), forged=forged)
        verdict = self.check_clock_claim(game, verdict, names, me=me, log=log, table=table,
                                         host_key=host_key)
        return self.check_evidence(game, verdict, names)

    @staticmethod
    def check_blame(verdict: Verdict, names: Sequence[str], *, me: int, seats: int,
                    forged: Callable[[int], bool]) -> Verdict:
        """The audit blames a seat for what the host passed on to us: was it really
        that seat's (its signature), or did the host make it up?"""
        culprit = verdict.culprit
        if verdict.fair or me == HOST or culprit in (HOST, me):
            return verdict
        # The seat named, or, when nobody is (a dispute between others), any third
        # seat: an entry or deal message it did not sign proves the host forged it.
        suspects = [culprit] if culprit is not None else [
            s for s in range(seats) if s not in (HOST, me)]
        seat = next((s for s in suspects if forged(s)), None)
        if seat is None:
            return verdict
        return Verdict.of(False, "forged", Note.of("cheated", culprit=Seat(HOST), detail=Note.of(
            "relayed_unsigned", seat=Seat(seat))), names, HOST, verdict.state_hash)

    def check_clock_claim(self, game: int, verdict: Verdict, names: Sequence[str], *,
                          me: int, log: Sequence[LogEntry], table: int = 0,
                          host_key: bytes = b"") -> Verdict:
        """A seat stopped the game saying the host timed it out before its own clock
        ran out.  Only that seat can know (a clock is not evidence another seat can
        check): if the host did write a "timeout" entry of that seat where it stopped
        (the host-signed Entry the Fault carries, or, for a Fault we no longer hold, our
        own log), the others name nobody.  An honest seat claims this only of such an
        entry, and carries it: a Fault that carries none, or one that is no timeout of
        that seat at that place, is made up, and names its sender (``false_claim``),
        unless the entry it carries shows the host told us another (a fork:
        :meth:`check_evidence` names the host)."""
        stop = self.stops.get(game)
        if (verdict.code not in ("false_claim", "disputed") or stop is None
                or stop.code != "early_clock" or stop.seat == me or game in self.forks):
            return verdict
        entry = log[stop.index] if 0 <= stop.index < len(log) else None
        fault = self.faults.get(game)
        if fault is not None:
            signed = entry_sig.signed_entry(list(fault.evidence), table=table, game=game,
                                            host_key=host_key)
            entry = (LogEntry.of_frame(signed) if signed is not None
                     and signed.index == stop.index else None)
        if entry is None or entry.forced != "timeout" or not entry.action.startswith(
                f"{stop.seat} "):
            if fault is None:
                return verdict
            return Verdict.of(False, "false_claim", Note.of(
                "false_claim", by=Seat(stop.seat), claim=Note.of(
                    "claim_against", culprit=Seat(HOST), claim=stop.said)), names, stop.seat,
                verdict.state_hash)
        return Verdict.of(False, "clock_disputed", Note.of(
            "clock_disputed", seat=Seat(stop.seat), host=Seat(HOST), index=stop.index), names,
            None, verdict.state_hash)

    def check_evidence(self, game: int, verdict: Verdict, names: Sequence[str]) -> Verdict:
        """A seat stopped the game with evidence that we checked ourselves (against the
        host: its signed messages; against a seat: its signed commitment and what it
        opened): its claim is no longer one word against another."""
        stop = self.stops.get(game)
        if game not in self.proven or stop is None:
            return verdict
        if game in self.forks and verdict.code in ("disputed", "clock_disputed"):
            # Whatever the finder claimed, the entry it carried and ours are two logs the
            # host signed: that much is proven, and it is the host's.
            return Verdict.of(False, "forked", Note.of(
                "proven", host=Seat(HOST), claim=Note.of("forked_signed",
                                                         index=self.forks[game]),
                by=Seat(stop.seat)), names, HOST, verdict.state_hash)
        if verdict.code != "disputed":
            return verdict
        claim = stop.note if stop.note is not None else Note.plain_text(stop.reason)
        culprit = HOST if stop.culprit is None else stop.culprit
        if claim.code == "left_unbacked":  # the host's word to us, checked by us alone
            return Verdict.of(False, stop.code, Note.of("cheated", culprit=Seat(HOST),
                                                        detail=claim), names, HOST,
                              verdict.state_hash)
        if culprit != HOST:  # a seat's own signed commitment, opened at fault
            return Verdict.of(False, stop.code, Note.of("cheated", culprit=Seat(culprit),
                                                        detail=claim), names, culprit,
                              verdict.state_hash)
        return Verdict.of(False, stop.code, Note.of("proven", host=Seat(HOST), claim=claim,
                                                    by=Seat(stop.seat)),
                          names, HOST, verdict.state_hash)
