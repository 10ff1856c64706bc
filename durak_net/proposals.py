"""Proposals that commit first and open their move only once the host has placed them.

A seated player's move travels in three steps (section 7 of docs/lan-protocol.md):

1. **Propose**: the seat sends a *commitment* to its move, a hash of a fresh random
   salt, the action's text and the reveals of the cards it opens, signed with the log
   it was made on (``seen``, ``seen_hash``).  The host learns that the seat moves, not
   what it plays.
2. **Order**: the host places the commitment at the next index of its log, which must
   be the log the seat made it on (``index == seen``), and signs that place.  A
   proposal the table has moved past is refused here, still closed.  From now on the
   index is the proposal's: the host appends nothing else until it is opened.
3. **Open**: the seat checks the place and only then sends the salt, the action and
   its card keys; the host checks them against the commitment and appends the entry,
   which carries the salt so that every seat can check the proposer's signature.

So a host that refuses a proposal has seen no card of it, and a host that refuses one
it has placed, or fills its place with another entry, holds nothing the proposer cannot
show: the proposer names it (``bad_refusal``, ``bad_order``).  This module holds the
derivations, the two sides' bookkeeping and their decisions (what to answer a
Propose, whether an Order, a Refused or an Open checks out), each on the messages and
the log alone; :class:`~durak_net.session.Session` wires them to its links.

>>> c = proposal_commit(bytes(16), "1 take", [])
>>> len(c), c == proposal_commit(bytes(16), "1 take", [])
(32, True)
>>> c == proposal_commit(bytes([1]) + bytes(15), "1 take", [])
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection
from dataclasses import dataclass

import msgspec

from durak_core import Action, Pass, Take, parse_action

from .gamelog import GameLog
from .identity import verify
from .notes import Note, Seat, Theirs
from .wire import EVIDENCE_ITEM_BYTES, Entry, Open, Order, Propose, Refused

#: Seconds a seat has to open a proposal the host has placed (its Order and the Open
#: are one round trip; lost datagrams are resent well within this).  A seat that stays
#: connected and does not open it stalls the table: the host then stops the game with
#: a Fault ``unopened`` naming it (section 7).  A seat whose link is lost is waited for
#: as any lost seat (hand-over, or ``abandoned``), and the time starts again when it is
#: back.
OPEN_WITHIN = 15.0

#: Bytes of the salt that hides a committed move (the actions open to a seat are few;
#: without a salt the host could hash every one and compare).
SALT_BYTES = 16


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def proposal_commit(salt: bytes, action: str, reveals: list[tuple[int, bytes]]) -> bytes:
    """``BLAKE2b-256("durak-lan v4 proposal" || salt || action || 0x00 || [count] ||
    ([position] || key)*)``: what a Propose commits to."""
    opened = b"".join(bytes([p]) + k for p, k in reveals)
    data = (b"durak-lan v4 proposal" + salt + action.encode() + b"\x00"
            + bytes([len(reveals)]) + opened)
    return hashlib.blake2b(data, digest_size=32).digest()


def salt_for(secret: bytes, table: int, game: int, pid: int) -> bytes:
    """The salt of proposal ``pid``: ``BLAKE2b-128(key = secret, "durak-lan v4 salt" ||
    u64be(table) || u32be(game) || u64be(pid))`` with the seat's private signing key as
    ``secret``.  Nobody else can compute it, and a seat back from its journal makes the
    same one again (any 16 bytes the host cannot guess would do: the spec asks no more)."""
    data = b"durak-lan v4 salt" + _u64(table) + _u32(game) + _u64(pid)
    return hashlib.blake2b(data, key=secret[:64], digest_size=SALT_BYTES).digest()


def proposal_signed(table: int, game: int, seat: int, pid: int, commit: bytes, seen: int,
                    seen_hash: bytes) -> list[bytes]:
    """What a seat signs for one of its proposals (section 7 of the protocol)."""
    return [b"durak-lan v4 propose", _u64(table), _u32(game), bytes([seat]), _u64(pid),
            commit, _u32(seen), seen_hash]


def order_signed(table: int, game: int, seat: int, pid: int, commit: bytes,
                 index: int) -> list[bytes]:
    """What the host signs when it places seat ``seat``'s proposal ``pid`` (committed to
    ``commit``) at entry ``index`` of game ``game``."""
    return [b"durak-lan v4 order", _u64(table), _u32(game), bytes([seat]), _u64(pid),
            commit, _u32(index)]


def refused_signed(table: int, game: int, seat: int, pid: int, at: int) -> list[bytes]:
    """What the host signs when it refuses seat ``seat``'s proposal ``pid`` of game
    ``game`` at log length ``at`` (the reason is words, not evidence, and not signed)."""
    return [b"durak-lan v4 refused", _u64(table), _u32(game), bytes([seat]), _u64(pid),
            _u32(at)]


# ------------------------------------------------------------------ evidence
# A proposer that catches the host breaking its word about a proposal shows every seat
# the signed messages that prove it, so that they need not take its word (section 8).

_evidence_decoder = msgspec.msgpack.Decoder(Propose | Order | Refused | Open)



def evidence(*frames: Propose | Order | Refused | Open) -> list[bytes]:
    """Frames as a Fault carries them: msgpack, ``seq`` 0, a refusal without its words.
    Every frame a Fault carries fits the wire's bound (:data:`EVIDENCE_ITEM_BYTES`: an
    Open of six cards does), and the finder shortens its words to fit the Fault in one
    datagram; a frame that did not would be left out (the claim then rests on the
    audit)."""
    out = []
    for frame in frames:
        frame = msgspec.structs.replace(frame, seq=0)
        if isinstance(frame, Refused):
            frame = msgspec.structs.replace(frame, reason="")
        data = msgspec.msgpack.encode(frame)
        if len(data) <= EVIDENCE_ITEM_BYTES:
            out.append(data)
    return out


def _signed_proposal(items: list[bytes], *, table: int, game: int, seat: int,
                     seat_key: bytes
                     ) -> tuple[list[Propose | Order | Refused | Open], Propose] | None:
    """A Fault's evidence decoded, and the one Propose in it, of game ``game`` and signed
    by seat ``seat`` (None when the evidence does not decode, holds no such Propose, or
    more than one)."""
    try:
        frames: list[Propose | Order | Refused | Open] = [
            _evidence_decoder.decode(item) for item in items]
    except (msgspec.DecodeError, ValueError):
        return None
    proposals = [f for f in frames if isinstance(f, Propose)]
    if len(proposals) != 1:
        return None
    p = proposals[0]
    if p.game != game or not verify(seat_key, p.sig, *proposal_signed(
            table, game, seat, p.pid, p.commit, p.seen, p.seen_hash)):
        return None
    return frames, p


def opened_as_committed(items: list[bytes], *, table: int, game: int, seat: int,
                        seat_key: bytes) -> tuple[Propose, Open] | None:
    """A Fault's evidence against seat ``seat``'s opening: its Propose, signed by it, and
    the Open that matches the commitment (None when they are not both there, or do not
    check out).  Only the seat knows its salt, so an Open that matches its signed
    commitment is its own word, though the Open itself is not signed: what it opened
    is proven, and every seat can judge it on its own log (the host appends nothing
    while a placed proposal is not opened)."""
    found = _signed_proposal(items, table=table, game=game, seat=seat, seat_key=seat_key)
    if found is None:
        return None
    frames, p = found
    openings = [f for f in frames if isinstance(f, Open)]
    if len(openings) != 1 or openings[0].pid != p.pid:
        return None
    o = openings[0]
    reveals = [(pos, bytes(k)) for pos, k in o.reveals]
    if proposal_commit(o.salt, o.action, reveals) != p.commit:
        return None
    return p, o


def placed_unopened(items: list[bytes], *, table: int, game: int, index: int, seat: int,
                    seat_key: bytes, host_key: bytes, log: GameLog) -> bool:
    """Does a Fault ``unopened`` of the host against ``seat`` (game ``game``, stopped at
    log length ``index``) carry what an honest host's does: the seat's signed Propose
    made on our log, and the host's signed Order placing it at ``index``, its ``seen``,
    where our own log (``log``, signed to us by the host) holds no entry yet?

    That proves the seat was placed and owed an opening; not that the opening never
    came (an absence no signature shows: the others' verdict stays ``disputed``).  A
    claim without it proves nothing the host could not make up, since an honest host
    stops only the proposal it placed and appends nothing after it: the host's fault."""
    found = _signed_proposal(items, table=table, game=game, seat=seat, seat_key=seat_key)
    if found is None or found[1].seen != index:
        return False
    frames, p = found
    if not any(isinstance(f, Order) and f.pid == p.pid and f.game == game and f.index == index
               and verify(host_key, f.sig, *order_signed(table, game, seat, p.pid, p.commit,
                                                         index)) for f in frames):
        return False
    ours = len(log.of(game))
    return ours <= index and (ours < index or log.link(game, index) == p.seen_hash)


def host_broke_its_word(code: str, items: list[bytes], *, table: int, game: int, seat: int,
                        seat_key: bytes, host_key: bytes,
                        entry_at: Callable[[int], tuple[int, int] | None]) -> bool:
    """Does ``items`` (a Fault's evidence) prove the host's fault ``code`` about seat
    ``seat``'s proposal in game ``game``?  ``entry_at(i)``: (seat, pid) of entry ``i`` of
    our own log (None if we have no such entry).

    ``bad_refusal``: the seat's signed proposal and the host's signed refusal of it, and
    either the host's signed order of it (it refused a move it had placed and seen) or
    a refusal at a log no longer than the one the move was made on.  ``bad_order``: the
    signed proposal and the signed order, placing it elsewhere than on the log it was
    made on, or where our own log holds another entry."""
    found = _signed_proposal(items, table=table, game=game, seat=seat, seat_key=seat_key)
    if found is None:
        return False
    frames, p = found
    order = next((f for f in frames if isinstance(f, Order) and f.pid == p.pid
                  and f.game == game and verify(host_key, f.sig, *order_signed(
                      table, game, seat, p.pid, p.commit, f.index))), None)
    refusal = next((f for f in frames if isinstance(f, Refused) and f.pid == p.pid
                    and verify(host_key, f.sig, *refused_signed(table, game, seat, p.pid,
                                                                f.at))), None)
    if code == "bad_refusal":
        return refusal is not None and (order is not None or refusal.at <= p.seen)
    if code == "bad_order" and order is not None:
        if order.index != p.seen:
            return True
        placed = entry_at(order.index)
        return placed is not None and placed != (seat, p.pid)
    return False


@dataclass
class OwnProposal:
    """A proposal of our seat on its way: the move, its opening (kept until the host has
    placed it), the Propose as sent, and the host's signed place once it came."""

    action: Action
    reveals: list[tuple[int, bytes]]
    salt: bytes
    frame: Propose
    #: Our seat's automatic pass (the player made no move).
    automatic: bool = False
    #: Made because our move clock ran out (a lead).
    timeout: bool = False
    #: The index the host placed it at, and its signature (-1: not placed yet).
    index: int = -1
    order_sig: bytes = b""

    @property
    def opening(self) -> Open:
        """The Open frame that reveals the move (sent only once it is placed)."""
        return Open(0, self.frame.pid, str(self.action), self.reveals, self.salt)

    @property
    def order(self) -> Order | None:
        """The host's signed Order, once it came (our evidence)."""
        if self.index < 0:
            return None
        return Order(0, self.frame.pid, self.frame.game, self.index, self.order_sig)


@dataclass(frozen=True)
class Finding:
    """What a check of a proposal's message found wrong: ``code`` (a Fault's code, or
    ``"violation"`` for a message dropped as not authentic), ``culprit`` (the seat at
    fault), what it did, and the signed messages that prove it (a Fault's evidence)."""

    code: str
    culprit: int
    note: Note
    proof: tuple[bytes, ...] = ()


@dataclass(frozen=True)
class Answer:
    """Host: what to do with a Propose (:meth:`Proposals.answer`).

    ``kind``: ``"place"`` (it is ``slot`` now: send its Order), ``"order"`` (send
    ``slot``'s Order again), ``"refuse"`` (refuse it, unopened, for ``reason``, at the
    log of game ``game``), ``"refused"`` (send the refusal made before, at ``at``),
    ``"reused"`` (a new proposal under an old id: say so, unsigned), ``"queue"`` (it
    waits for the placed move), ``"forked"`` (it names a log that is not a prefix of
    ours), ``"ignore"``."""

    kind: str
    reason: str = ""
    game: int = 0
    at: int = 0
    slot: Slot | None = None


@dataclass
class Slot:
    """Host: a proposal placed at ``index`` and not opened yet; nothing else is appended
    until it is (or the seat is handed to a bot)."""

    seat: int
    frame: Propose
    index: int
    game: int
    #: When it was placed (or its seat was last back): its opening is due
    #: :data:`OPEN_WITHIN` after.
    since: float = 0.0


class Proposals:
    """The proposals part of a session: one seat's side of every proposal.

    A seated player keeps its proposals on their way (the move, the Propose as sent,
    the opening, the host's place); the host keeps what it decided about each seat's
    (placed, refused, applied), the one placed and not yet opened, and what waits for
    it.  The session drives it from frames; a journal replays through the ``replay_*``
    methods, so that nothing outside writes its fields.
    """

    def __init__(self) -> None:
        # -- a seated player
        self.next_pid = 1
        #: Our proposals on their way (pid -> move); the host: its own move held (pid 0).
        self.pending: dict[int, Action] = {}
        #: The Propose of each, as sent (resent after a restart).
        self.frames: dict[int, Propose] = {}
        self.own: dict[int, OwnProposal] = {}
        #: Our proposals that are the seat's automatic pass (the player made no move).
        self.automatic: set[int] = set()
        #: Our proposals made because our move clock ran out (a lead).
        self.timeout_pids: set[int] = set()
        #: When each proposal of ours was sent (this run's ``now``; one replayed from a
        #: journal counts from the resume, which only lengthens the host's time).
        self.sent_at: dict[int, float] = {}
        # -- the host
        #: (seat, pid) -> None (applied) or the reason it was refused.
        self.handled: dict[tuple[int, int], str | None] = {}
        #: The log length each refusal was made at (it goes with the reason).
        self.refused_at: dict[tuple[int, int], int] = {}
        #: Each proposal received, as (game, commitment).
        self.proposed: dict[tuple[int, int], tuple[int, bytes]] = {}
        #: The proposal placed in the log and not opened yet (nothing else is appended
        #: meanwhile).
        self.slot: Slot | None = None
        #: Proposals that came while a slot was open: ``(seat, frame)``.
        self.queued: list[tuple[int, Propose]] = []
        #: Moves of our own seat or our bots made while a slot was open.
        self.held: list[tuple[int, Action]] = []
        #: Placed proposals of seats handed to a bot meanwhile, refused after the next
        #: entry: ``(seat, frame)``.
        self.voided: list[tuple[int, Propose]] = []

    # ------------------------------------------------------------ a seated player

    def new_pid(self) -> int:
        pid = self.next_pid
        self.next_pid += 1
        return pid

    def sent(self, own: OwnProposal) -> None:
        """Our proposal is on its way."""
        pid = own.frame.pid
        self.pending[pid] = own.action
        self.frames[pid] = own.frame
        self.own[pid] = own
        if own.automatic:
            self.automatic.add(pid)
        self.next_pid = max(self.next_pid, pid + 1)

    def done(self, pid: int) -> Action | None:
        """Our proposal ``pid`` was applied or refused: forget it (its move)."""
        self.frames.pop(pid, None)
        self.own.pop(pid, None)
        self.automatic.discard(pid)
        self.timeout_pids.discard(pid)
        self.sent_at.pop(pid, None)
        return self.pending.pop(pid, None)

    def unordered(self, game: int) -> dict[int, float]:
        """Our proposals in game ``game`` the host has neither placed nor refused yet:
        when each was sent (a host that keeps one so too long stalls us:
        :func:`durak_net.timers.stall_due`)."""
        return {pid: at for pid, at in self.sent_at.items()
                if (own := self.own.get(pid)) is not None and own.index < 0
                and own.frame.game == game}

    def placed_at(self, game: int, index: int) -> OwnProposal | None:
        """Our proposal the host placed at entry ``index`` of ``game``, if any."""
        return next((own for own in self.own.values()
                     if own.index == index and own.frame.game == game), None)

    def replay_propose(self, action: Action, reveals: list[tuple[int, bytes]], salt: bytes,
                       frame: Propose, automatic: bool, now: float) -> None:
        """Our proposal, from the journal: sent again after the restart, so the host's
        time to place or refuse it runs from ``now`` (the resume), never earlier than
        it could have run at the host."""
        self.sent(OwnProposal(action, reveals, salt, frame, automatic))
        self.sent_at[frame.pid] = now

    def replay_refused(self, pid: int) -> tuple[Action | None, Propose | None]:
        """Our proposal ``pid`` was refused: its move and Propose (None: not known)."""
        frame = self.frames.get(pid)
        self.next_pid = max(self.next_pid, pid + 1)
        return self.done(pid), frame

    def replay_order(self, pid: int, index: int, sig: bytes) -> None:
        own = self.own.get(pid)
        if own is not None:
            own.index, own.order_sig = index, sig

    def check_entry(self, frame: Entry, action: Action, *, me: int, host: int,
                    adopted: Collection[int], clock: int) -> tuple[str, Finding | None]:
        """A seated player (seat ``me``): whose entry ``frame`` (playing ``action``) is,
        as far as the proposals tell, or the host's fault in it.

        The kind: ``"timeout"`` (the host played take or pass for a seat whose move clock
        ran out: no proposal, the host's word like the clock), ``"bot"`` (the host's bot
        played a seat whose hand every seat opened, ``adopted``), ``"own"`` (our
        proposal, now logged: we forget it), ``"other"`` (another seat's proposal, passed
        on with its signature), ``"host"`` (the host's own move).  The finding: an entry
        at the place the host gave our proposal that is not it (``bad_order``, with our
        Propose and its Order; unless our hand was opened while we were away: then the
        place is void), a mark other than "timeout" or "bot", a bot's move for a seat
        whose hand was never opened, a move of our seat we did not propose, another
        seat's move without its proposal (each ``forged``), a host move naming a
        proposal (``"desync"``).  The cards and the rules are the game's to check."""
        actor = action.player
        placed = self.placed_at(frame.game, frame.index)
        if placed is not None and (actor != me or frame.pid != placed.frame.pid):
            if me in adopted:
                placed.index = -1  # we were away, handed to a bot: the place is void
            else:
                order = placed.order
                return "", Finding("bad_order", host, Note.of(
                    "entry_at_our_place", index=frame.index, move=action, ours=placed.action),
                    tuple(evidence(placed.frame, *([order] if order else []))))
        if frame.forced not in ("", "timeout", "bot"):
            return "", Finding("forged", host, Note.of(
                "entry_marked", index=frame.index, move=action, mark=Theirs(frame.forced)))
        if frame.forced == "timeout" and not frame.pid and clock > 0 and isinstance(
                action, Take | Pass):
            return "timeout", None
        if frame.forced == "bot":
            if frame.pid or actor not in adopted:
                return "", Finding("forged", host, Note.of(
                    "bot_never_opened", index=frame.index, move=action, seat=Seat(actor)))
            return "bot", None
        if actor == me:
            proposed = self.pending.get(frame.pid) if frame.pid else None
            if proposed != action:
                return "", Finding("forged", host, Note.of(
                    "not_proposed", index=frame.index, move=action))
            return "own", None
        if actor != host:
            if not frame.pid or len(frame.sig) != 64 or len(frame.salt) != 16:
                return "", Finding("forged", host, Note.of(
                    "no_proposal", index=frame.index, move=action, seat=Seat(actor)))
            return "other", None
        if frame.pid:
            return "", Finding("desync", host, Note.of("desync_host_pid"))
        return "host", None

    def check_order(self, frame: Order, *, table: int, seat: int, host_key: bytes,
                    game: int, in_game: bool, log_len: int
                    ) -> tuple[str, OwnProposal | None, Finding | None]:
        """The host placed our proposal ``frame.pid``: ``("open", own, None)`` when the
        place is the log we made it on (entry ``seen``, and no entry beyond it) and the
        host signed it (the place is kept: our evidence); ``("again", own, None)`` for
        the same Order again (open it again); ``("ignore", ...)`` for one not ours to
        open (not pending, or its game stopped); ``("fault", own, finding)`` for an
        unsigned Order (``"violation"``) or one placing it elsewhere (``bad_order``,
        with the proposal and the Order as evidence)."""
        own = self.own.get(frame.pid)
        if own is None or frame.pid not in self.pending:
            return "ignore", None, None
        proposal = own.frame
        if own.index >= 0:
            return ("again" if own.index == frame.index else "ignore"), own, None
        if frame.game != proposal.game or not verify(host_key, frame.sig, *order_signed(
                table, frame.game, seat, frame.pid, proposal.commit, frame.index)):
            return "fault", own, Finding("violation", 0, Note.of("order_unsigned",
                                                                pid=frame.pid))
        if frame.game != game or not in_game:
            return "ignore", own, None  # (the game stopped meanwhile: nothing to open)
        if frame.index != proposal.seen or log_len != frame.index:
            return "fault", own, Finding("bad_order", 0, Note.of(
                "placed_elsewhere", move=own.action, index=frame.index, seen=proposal.seen),
                tuple(evidence(proposal, frame)))
        own.index, own.order_sig = frame.index, frame.sig
        return "open", own, None

    def check_refusal(self, frame: Refused, *, table: int, seat: int, host_key: bytes,
                      game: int, in_game: bool, log_len: int) -> Finding | None:
        """The host refused our proposal ``frame.pid``, which is pending.  It may refuse
        only a proposal the table has moved past: one made on a log shorter than the
        host's (its entries, sent before the refusal on the same ordered stream, are
        in: ``log_len``), or for a game no longer in play.  A refusal not signed by the
        host is a ``"violation"``; one of a move it placed, or that we made on its own
        log, is ``bad_refusal`` (the signed messages prove it); one at a log longer than
        the host sent us is ``bad_refusal`` on its face.  None: it checks out."""
        proposal = self.frames.get(frame.pid)
        own = self.own.get(frame.pid)
        if proposal is None:
            return None
        move = str(self.pending[frame.pid]).split(" ", 1)[1]
        if not verify(host_key, frame.sig, *refused_signed(table, proposal.game, seat,
                                                           frame.pid, frame.at)):
            return Finding("violation", 0, Note.of("refusal_unsigned", pid=frame.pid))
        if proposal.game != game or not in_game:
            return None
        placed = own.order if own is not None else None
        proof = tuple(evidence(proposal, *([placed] if placed else []), frame))
        if own is not None and own.index >= 0:
            return Finding("bad_refusal", 0, Note.of(
                "refused_after_placing", move=move, index=own.index,
                reason=Theirs(frame.reason[:120])), proof)
        if frame.at <= proposal.seen:
            return Finding("bad_refusal", 0, Note.of(
                "refused_own_log", move=move, index=proposal.seen,
                reason=Theirs(frame.reason[:120])), proof)
        if frame.at > log_len:
            return Finding("bad_refusal", 0, Note.of("refused_unsent", move=move,
                                                     index=frame.at))
        return None

    # ------------------------------------------------------------------ the host

    def is_slot(self, seat: int, pid: int) -> bool:
        slot = self.slot
        return slot is not None and (slot.seat, slot.frame.pid) == (seat, pid)

    def answer(self, seat: int, frame: Propose, *, table: int, key: bytes, game: int,
               in_game: bool, log: GameLog, now: float = 0.0) -> Answer:
        """Host: what to answer seat ``seat``'s Propose (signed with ``key``), our game
        ``game`` being in play or not (``in_game``) with the log ``log``.

        A proposal is placed at the next index of our log only if it was made on our
        log (and signed by its seat, for the game in play); else it is refused unopened,
        so we see no card of a proposal we refuse.  One made before our bot played the
        seat (it was away) is stale like any move on an old log: its cards may have been
        played for it.  A copy (after a restart) gets the same answer again; a proposal
        that comes while another is placed waits for it."""
        ident = (seat, frame.pid)
        slot = self.slot
        if ident in self.handled or self.is_slot(seat, frame.pid):
            if self.proposed.get(ident, (frame.game, frame.commit)) != (frame.game,
                                                                       frame.commit):
                # A new proposal under an old id: ids count per seat and are never reused.
                return Answer("reused", f"proposal id {frame.pid} was used before (ids "
                              "count from 1 per session and are never reused)")
            if slot is not None and self.is_slot(seat, frame.pid):
                return Answer("order", slot=slot)  # again, after a restart
            reason = self.handled[ident]  # the same proposal again, after a restart
            if reason is None:
                return Answer("ignore")
            return Answer("refused", reason, self.proposed.get(ident, (0, b""))[0],
                          self.refused_at.get(ident, 0))
        if slot is not None:  # a placed move is being opened: this one waits for it
            if all(queued is not frame for _, queued in self.queued):
                self.queued.append((seat, frame))
            return Answer("queue")
        self.proposed[ident] = (frame.game, frame.commit)  # (checked or not)
        signed = proposal_signed(table, frame.game, seat, frame.pid, frame.commit,
                                 frame.seen, frame.seen_hash)
        if not verify(key, frame.sig, *signed):
            return Answer("refuse", "the proposal is not signed by its seat", frame.game)
        if frame.game != game or not in_game:
            return Answer("refuse", f"game {frame.game} is not in play", frame.game)
        if log.forks(game, frame.seen, frame.seen_hash):
            return Answer("forked", game=game)
        played_for = log.played_for_since(game, seat, frame.seen)
        if played_for is not None:
            return Answer("refuse", f"made before entry {played_for}, which a bot played "
                          "for this seat while it was away", game)
        length = len(log.of(game))
        if frame.seen < length:
            return Answer("refuse", f"made on entry {frame.seen}; the table moved on to "
                          f"entry {length} before it arrived", game)
        return Answer("place", slot=self.place(seat, frame, length, game, now))

    def opening(self, slot: Slot, frame: Open) -> Action | Finding:
        """Host: the proposer opens ``slot``'s proposal: the move, if what it opens is
        what it committed to, readable, and its own seat's; else the proposer's fault
        (``bad_open``), not a refusal.  (Its cards and its legality are the game's to
        check.)"""
        seat = slot.seat
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        if proposal_commit(frame.salt, frame.action, reveals) != slot.frame.commit:
            return Finding("bad_open", seat, Note.of("opened_other", pid=frame.pid))
        try:
            action = parse_action(frame.action)
        except ValueError as exc:
            return Finding("bad_open", seat, Note.of("committed_unreadable", reason=str(exc)))
        if action.player != seat:
            return Finding("bad_open", seat, Note.of(
                "committed_other_seat", seat=Seat(action.player), move=action))
        return action

    def place(self, seat: int, frame: Propose, index: int, game: int,
              now: float = 0.0) -> Slot:
        """Host: ``frame`` is entry ``index`` until it is opened (due by ``now`` plus
        :data:`OPEN_WITHIN`)."""
        self.proposed[(seat, frame.pid)] = (frame.game, frame.commit)
        self.slot = Slot(seat, frame, index, game, now)
        return self.slot

    def open_due(self, within: float = OPEN_WITHIN) -> float | None:
        """Host: when the placed proposal's opening is overdue (None: none placed)."""
        return None if self.slot is None else self.slot.since + within

    def wait_again(self, seat: int, now: float) -> None:
        """Host: ``seat`` is back (its link, or our session from the journal): the
        time to open its placed proposal, if any, starts again (it sends the opening
        again when the streams restart)."""
        if self.slot is not None and self.slot.seat == seat:
            self.slot.since = now

    def refused(self, seat: int, pid: int, reason: str, at: int) -> None:
        self.handled[(seat, pid)] = reason
        self.refused_at[(seat, pid)] = at

    def applied(self, seat: int, pid: int) -> None:
        """Host: proposal ``pid`` of ``seat`` is in the log (its slot, if any, is closed)."""
        self.handled[(seat, pid)] = None
        if self.is_slot(seat, pid):
            self.slot = None

    def void(self, seat: int) -> Slot | None:
        """Host: ``seat`` went to a bot; its placed proposal, if any, loses its place."""
        slot = self.slot
        if slot is None or slot.seat != seat:
            return None
        self.slot = None
        return slot
