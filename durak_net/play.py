"""The game in play, a part of the session: our view, and the log's entries applied to it.

One job: keep our seat's view of the current game (a :meth:`~durak_core.Game.view`) in
step with the log.  The host orders: it appends its own moves, places a seat's
committed proposal (an Order), checks the opening against the commitment and the rules
and appends it, or refuses a proposal the table moved past (section 7 of
docs/lan-protocol.md).  A seated player sends its proposals, opens one the host placed
on the log it was made on, and applies every entry the host signs, checking its cards,
its mark and its hash.  The decisions on the messages alone are the sibling parts'
(:class:`~durak_net.proposals.Proposals`, :class:`~durak_net.gamelog.GameLog`,
:class:`~durak_net.dealing.Dealing`); this part applies them to the game.

It holds no session.  What it needs done around it (a frame sent, an event for the
player, a journal record, the game stopped on a finding) it asks of an
:class:`Effects` passed to each call, which the session implements and a test fakes
(tests/net/test_net_play_part.py drives it with hand-made signed frames, no network).
So the same code runs when a journal is replayed: the session's effects then send and
report nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from durak_core import Action, Card, Game, IllegalAction, parse_action
from durak_core.events import Drew

from . import entry_sig
from . import events as ev
from .dealer import DealFault, MentalDealer, Reveal
from .dealing import Dealing, action_cards
from .gamelog import GameLog, LogEntry
from .identity import Identity
from .notes import Note, Rule, Seat
from .outcomes import HOST
from .proposals import (
    Finding,
    OwnProposal,
    Proposals,
    Slot,
    evidence,
    order_signed,
    proposal_commit,
    proposal_signed,
    refused_signed,
    salt_for,
)
from .wire import Entry, Frame, Open, Order, Propose, Refused

Reveals = list[tuple[int, bytes]]


class Effects(Protocol):
    """What the play part asks of the session around it (the session implements it;
    while a journal replays, it sends, reports and records nothing)."""

    def linked(self, seat: int, /) -> bool:
        """Have we a link to ``seat``?"""

    def push(self, seat: int, frame: Frame, now: float, /) -> None:
        """Send ``frame`` to ``seat``."""

    def broadcast(self, frame: Frame, now: float, /) -> None:
        """Send ``frame`` to every seat we have a link to."""

    def emit(self, event: Any, /) -> None:
        """An event for the application."""

    def record(self, **record: Any) -> None:
        """A journal record."""

    def deal_out(self, number: int, messages: list[bytes], now: float, /) -> None:
        """Sign and send our deal messages of game ``number``."""

    def stop(self, number: int, culprit: int, code: str, note: Note, now: float, /, *,
             proof: list[bytes] | None = None) -> None:
        """Stop game ``number`` on a finding against ``culprit`` (and audit it)."""

    def fault(self, number: int, fault: DealFault, now: float,
              proof: list[bytes] | None = None, /) -> None:
        """The cards of a move broke the deal: stop game ``number`` on it."""

    def desync(self, game: int, index: int, note: Note, now: float, /) -> None:
        """Our state and the host's disagree at entry ``index``."""

    def violation(self, note: Note, now: float, /) -> None:
        """A message that breaks the protocol, dropped and reported."""

    def entry_applied(self, now: float, /) -> None:
        """An entry is applied: our new cards, the move clocks, the next automatic move."""


class Play:
    """Our seat's view of the current game and the log's entries applied to it (see the
    module docstring).  ``game_log``, ``proposals`` and ``dealing`` are the sibling parts
    it shares with the session."""

    def __init__(self, table: int, seat: int, players: int, identity: Identity,
                 game_log: GameLog, proposals: Proposals, dealing: Dealing) -> None:
        self.table = table
        self.seat = seat
        self.players = players
        self.identity = identity
        self.game_log = game_log
        self.proposals = proposals
        self.dealing = dealing
        #: The number of the current game (0: none dealt yet).
        self.game_no = 0
        #: Our seat's view of the current game (never the full game).
        self.game: Game | None = None
        #: What the last applied action did (the core's events).
        self.last_events: list[Any] = []
        # Actions the host refused, and the state (game, log length) they were refused in.
        self._refused: dict[str, str] = {}
        self._refused_state: tuple[int, int] = (0, -1)

    # ------------------------------------------------------------------ state

    @property
    def log(self) -> list[LogEntry]:
        """The current game's log."""
        return self.game_log.of(self.game_no)

    @property
    def dealer(self) -> MentalDealer | None:
        """The current game's dealer."""
        return self.dealing.dealers.get(self.game_no)

    def begin(self, number: int, game: Game) -> None:
        """Game ``number`` is dealt: ``game`` is our view of it, its log empty."""
        self.game_no = number
        self.game = game
        self.game_log.begin(number)

    @property
    def refused(self) -> dict[str, str]:
        """The actions the host refused in the current state: text -> reason.  Empty
        once the table has moved on (another entry, another game): a move refused in a
        race may be legal, or the only move, now."""
        if self._refused_state != (self.game_no, len(self.log)):
            return {}
        return self._refused

    def note_refusal(self, action: Action, reason: str, made_on: tuple[int, int]) -> None:
        """The host refused ``action``, which we proposed on the log ``made_on`` (game,
        log length); also when replaying.  It is held against the move only while that
        is the state: a proposal made on an older log was refused for that log (say as
        stale: a seat back from its journal proposes on the view it left, before the
        entries of the host's bot that played for it), and the same move may be legal
        now, even the only one."""
        state = (self.game_no, len(self.log))
        if made_on != state:
            return
        if self._refused_state != state:
            self._refused_state = state
            self._refused = {}
        self._refused[str(action)] = reason

    def apply(self, action: Action) -> tuple[str, list[bytes]]:
        """Apply an action to our view: the public hash after it, and the dealer messages
        with our keys for the cards another seat drew (to send after the entry)."""
        assert self.game is not None
        self.last_events = self.game.apply(action)
        dealer = self.dealer
        assert dealer is not None
        keys: list[bytes] = []
        for e in self.last_events:
            if isinstance(e, Drew):
                keys += dealer.drawn(e.player, len(e.cards))
        return self.game.public_hash(), keys

    def take_new_cards(self, fx: Effects, now: float) -> None:
        """Reveal our drawn cards to our view once their keys are in (and the cards of
        the hands open to every seat)."""
        dealer = self.dealer
        if dealer is None or self.game is None:
            return
        try:
            fresh = dealer.new_cards()
        except DealFault as fault:
            fx.fault(self.game_no, fault, now)
            return
        if fresh:
            self.game.reveal(self.seat, fresh)
            fx.emit(ev.CardsRevealed(self.table, self.game_no, self.seat, tuple(fresh), now))
        self.reveal_open_hands(fx, now)

    def reveal_open_hands(self, fx: Effects, now: float) -> None:
        """The hands of seats whose seed was rebuilt (handed to a bot) are open to every
        seat: show their cards in our view as they become known."""
        if self.game is None:
            return
        try:
            for seat, fresh in self.dealing.open_hands(self.game_no, self.game):
                fx.emit(ev.CardsRevealed(self.table, self.game_no, seat, tuple(fresh), now))
        except DealFault as fault:
            fx.fault(self.game_no, fault, now)

    def _applied(self, fx: Effects, action: Action, index: int, digest: str, now: float,
                 forced: str = "") -> None:
        fx.emit(ev.ActionApplied(self.table, self.game_no, index, action,
                                 tuple(self.last_events), action.player == self.seat, digest,
                                 now, forced))
        fx.entry_applied(now)

    # ------------------------------------------------------------------ cards

    def reveal_fault(self, seat: int, action: Action, reveals: Reveals,
                     commit: bool) -> DealFault | None:
        """What is wrong with the cards ``seat`` opens with ``action`` (None: nothing)."""
        assert self.game is not None and self.dealer is not None
        return self.dealing.reveal_fault(self.dealer, self.game, seat, action, reveals, commit)

    def check_reveals(self, fx: Effects, seat: int, action: Action, reveals: Reveals,
                      now: float, commit: bool = True, proof: list[bytes] | None = None
                      ) -> bool:
        """Check the cards another seat opens with ``action``; a fault stops the game
        (its Fault carrying ``proof``).  ``commit=False``: only check (a proposal, which
        may yet be refused)."""
        fault = self.reveal_fault(seat, action, reveals, commit)
        if fault is not None:
            fx.fault(self.game_no, fault, now, proof)
            return False
        return True

    def opening_fault(self, seat: int, frame: Open, in_game: bool) -> bool:
        """Is seat ``seat``'s opening ``frame`` (proven its own: see
        :func:`~durak_net.proposals.opened_as_committed`) at fault on our own log: an
        unreadable move, another seat's, a card not proven, or a move the rules refuse?"""
        if self.game is None or not in_game:
            return False
        try:
            action = parse_action(frame.action)
        except ValueError:
            return True
        if action.player != seat:
            return True
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        if self.reveal_fault(seat, action, reveals, commit=False) is not None:
            return True
        return self.game.why_illegal(action) is not None

    def check_own_bot_move(self, fx: Effects, action: Action, reveals: Reveals, index: int,
                           now: float) -> bool:
        """A bot played our seat while we were away: its cards must be ours, opened with
        our own keys (the others rebuilt our seed)."""
        dealer = self.dealer
        assert dealer is not None and self.game is not None
        pending = list(reveals)
        for card in action_cards(action):
            if dealer.hidden_position(card) is None:
                continue  # open to all already (picked up, shown)
            if not pending or not dealer.check_own_reveal(card, Reveal(*pending.pop(0))):
                fx.stop(self.game_no, HOST, "forged", Note.of(
                    "bot_cards_not_ours", index=index, move=action), now)
                return False
        if pending:
            fx.stop(self.game_no, HOST, "forged", Note.of("bot_opens_more", index=index),
                    now)
            return False
        for card in action_cards(action):
            dealer.reveal(card)
        return True

    def open_to_all(self, seat: int) -> set[Card]:
        """The cards of ``seat``'s hand every seat knows without a reveal (picked up
        from the table, shown, the open trump), but for the never opened cards of an
        open hand (a seat handed to a bot)."""
        assert self.game is not None and self.dealer is not None
        return self.dealing.open_to_all(self.dealer, self.game, seat)

    # ------------------------------------------------------------------ the host

    def append(self, fx: Effects, action: Action, pid: int, reveals: Reveals, now: float,
               proposal: Propose | None = None, forced: str = "", salt: bytes = b"") -> None:
        """Host: apply a checked action (its reveals checked too), log it, and send it."""
        assert self.game is not None
        index = len(self.log)
        digest, keys = self.apply(action)
        seen, seen_hash, sig = (proposal.seen, proposal.seen_hash, proposal.sig) if (
            proposal is not None) else (0, b"", b"")
        entry = self.game_log.signed(self.game_no, LogEntry(
            str(action), bytes.fromhex(digest), pid, tuple(reveals), seen, seen_hash, sig,
            forced, salt), self.identity, self.table)
        self.game_log.add(self.game_no, entry)
        if pid:
            self.proposals.applied(action.player, pid)
        fx.record(**entry.record(self.game_no, index))
        fx.broadcast(entry.frame(self.game_no, index), now)
        voided, self.proposals.voided = self.proposals.voided, []
        for seat, frame in voided:
            self.refuse(fx, seat, frame.pid, f"placed at entry {index}, which a bot played "
                        "for this seat while it was away", now, only_linked=True)
        fx.deal_out(self.game_no, keys, now)  # our keys for the cards others drew
        self._applied(fx, action, index, digest, now, forced)

    def refusal(self, seat: int, pid: int, reason: str, at: int, game: int) -> Refused:
        """Host: a Refused, signed (the proposer may show it to every seat)."""
        sig = self.identity.sign(*refused_signed(self.table, game, seat, pid, at))
        return Refused(0, pid, reason[:200], at, sig)

    def refuse(self, fx: Effects, seat: int, pid: int, reason: str, now: float,
               game: int | None = None, only_linked: bool = False) -> None:
        """Host: refuse ``seat``'s proposal (before it is opened), saying at which log
        length (of the proposal's ``game``).  ``only_linked``: not if we have no link to
        the seat (a voided place: the seat is away)."""
        if only_linked and not fx.linked(seat):
            return
        number = self.game_no if game is None else game
        at = len(self.game_log.logs.get(number, []))
        self.proposals.refused(seat, pid, reason, at)
        fx.record(t="refused", seat=seat, pid=pid, reason=reason[:200], at=at)
        fx.push(seat, self.refusal(seat, pid, reason, at, number), now)
        fx.emit(ev.PeerActionRefused(self.table, "", reason, now, seat=seat, pid=pid))

    def order(self, slot: Slot) -> Order:
        """Host: our signed word that ``slot``'s proposal is entry ``slot.index``."""
        frame = slot.frame
        sig = self.identity.sign(*order_signed(self.table, slot.game, slot.seat, frame.pid,
                                               frame.commit, slot.index))
        return Order(0, frame.pid, slot.game, slot.index, sig)

    def on_propose(self, fx: Effects, seat: int, frame: Propose, now: float, *, key: bytes,
                   in_game: bool) -> None:
        """Host: seat ``seat``'s commitment to a move (``key``: its signing key): placed
        at the next index of our log if it was made on our log, else refused (unopened:
        we see no card of a proposal we refuse); :meth:`Proposals.answer` decides."""
        answer = self.proposals.answer(seat, frame, table=self.table, key=key,
                                       game=self.game_no, in_game=in_game, log=self.game_log,
                                       now=now)
        kind = answer.kind
        if kind == "reused":
            fx.push(seat, Refused(0, frame.pid, answer.reason), now)
        elif kind == "order" and answer.slot is not None:
            fx.push(seat, self.order(answer.slot), now)
        elif kind == "refused":
            fx.push(seat, self.refusal(seat, frame.pid, answer.reason, answer.at,
                                       answer.game), now)
        elif kind == "refuse":
            self.refuse(fx, seat, frame.pid, answer.reason, now, answer.game)
        elif kind == "forked":
            self.check_seen(fx, seat, frame.seen, frame.seen_hash, now)
        elif kind == "place" and answer.slot is not None:
            fx.record(t="proposal", seat=seat, pid=frame.pid, game=frame.game,
                      commit=frame.commit.hex(), seen=frame.seen,
                      seen_hash=frame.seen_hash.hex(), sig=frame.sig.hex())
            fx.push(seat, self.order(answer.slot), now)

    def check_seen(self, fx: Effects, seat: int, seen: int, seen_hash: bytes,
                   now: float) -> bool:
        """A proposal names the log it was made on: it must be a prefix of ours.  (A host
        that shows seats different logs is caught when any of them proposes.)"""
        if self.game_log.forks(self.game_no, seen, seen_hash):
            culprit = seat if self.seat == HOST else HOST
            fx.stop(self.game_no, culprit, "forked", Note.of(
                "proposed_forked", index=max(seen - 1, 0)) if culprit == seat else Note.of(
                "forked", seat=Seat(seat), index=max(seen - 1, 0)), now)
            return False
        return True

    def on_open(self, fx: Effects, seat: int, frame: Open, now: float, *, in_game: bool,
                was_nudged: Callable[[int, tuple[int, int]], bool]) -> bool:
        """Host: seat ``seat`` opens its placed proposal.  What it opens must be what it
        committed to, its cards proven, and the move legal on the log it was made on
        (ours, up to its place): anything else is the proposer's fault, not a refusal.
        ``was_nudged``: was the seat told its time was up in this state (the hand-over
        part's)?  True when the moves held meanwhile may follow (the place is done)."""
        slot = self.proposals.slot
        assert slot is not None and (slot.seat, slot.frame.pid) == (seat, frame.pid)
        self.proposals.slot = None
        if slot.game != self.game_no or not in_game or slot.index != len(self.log):
            return True
        assert self.game is not None
        # What a seat opened as it committed to is its own word (only it knows the
        # salt): a fault in it carries its Propose and the Open, and every seat checks
        # it on its own log.
        proof = evidence(slot.frame, frame)
        opened = self.proposals.opening(slot, frame)
        if isinstance(opened, Finding):
            fx.stop(self.game_no, opened.culprit, opened.code, opened.note, now, proof=proof)
            return False
        action = opened
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        if not self.check_reveals(fx, seat, action, reveals, now, commit=False, proof=proof):
            return False
        reason = self.game.why_illegal(action)
        if reason is not None:
            fx.stop(self.game_no, seat, "illegal", Note.of(
                "committed_illegal", move=action, reason=Rule(reason)), now, proof=proof)
            return False
        assert self.dealer is not None
        self.dealing.commit_reveals(self.dealer, self.game, seat, action, reveals)
        nudged = was_nudged(seat, (self.game_no, len(self.log)))
        self.append(fx, action, frame.pid, reveals, now, proposal=slot.frame,
                    forced="timeout" if nudged else "", salt=frame.salt)
        return True

    # ------------------------------------------------------------------ a seated player

    def check_proposal_allowed(self, action: Action, host_name: str) -> None:
        """The proposal rate limit: only one proposal is on its way at a time (so at most
        one per round trip), and an action the host refused is not proposed again
        until the state changes (so at most one per legal move and state).  Raises
        :class:`~durak_core.IllegalAction`."""
        if self.proposals.pending:
            raise IllegalAction("your previous move is still on its way", action)
        reason = self.refused.get(str(action))
        if reason is not None:
            raise IllegalAction(f"{host_name or 'the host'} refused this move: {reason}",
                                action)

    def propose(self, fx: Effects, action: Action, reveals: Reveals, now: float,
                automatic: bool = False) -> None:
        """Send the host a commitment to ``action`` (its cards open only once the host
        has placed it: :meth:`on_order`); ``automatic``: our seat's automatic pass,
        which no player chose (journaled, so a refusal after a restart is still known
        as one)."""
        pid = self.proposals.new_pid()
        seen, seen_hash = self.game_log.head(self.game_no)
        text = str(action)
        salt = salt_for(self.identity.private, self.table, self.game_no, pid)
        commit = proposal_commit(salt, text, reveals)
        sig = self.identity.sign(*proposal_signed(self.table, self.game_no, self.seat, pid,
                                                   commit, seen, seen_hash))
        frame = Propose(0, pid, self.game_no, commit, seen, seen_hash, sig)
        self.proposals.sent(OwnProposal(action, list(reveals), salt, frame, automatic))
        self.proposals.sent_at[pid] = now
        extra: dict[str, Any] = {"auto": True} if automatic else {}
        fx.record(t="propose", pid=pid, game=self.game_no, action=text,
                  reveals=[[p, k.hex()] for p, k in reveals], seen=seen,
                  seen_hash=seen_hash.hex(), sig=sig.hex(), salt=salt.hex(), **extra)
        fx.push(HOST, frame, now)

    def on_order(self, fx: Effects, frame: Order, now: float, *, host_key: bytes,
                 in_game: bool) -> None:
        """The host placed our proposal: open it, if the place is the log we made it on
        (entry ``seen``, and no entry of ours beyond it) and the host signed it.  The
        signed place is our evidence: a host that refuses the move now, or puts another
        entry there, is named (``bad_refusal``, ``bad_order``)."""
        kind, own, finding = self.proposals.check_order(
            frame, table=self.table, seat=self.seat, host_key=host_key, game=self.game_no,
            in_game=in_game, log_len=len(self.log))
        if finding is not None:
            self._finding(fx, finding, now)
            return
        if own is None or kind == "ignore":
            return
        if kind == "open":
            fx.record(t="order", pid=frame.pid, index=frame.index, sig=frame.sig.hex())
        fx.push(HOST, own.opening, now)

    def on_refused(self, fx: Effects, frame: Refused, now: float, *, host_key: bytes,
                   in_game: bool) -> bool:
        """The host did not log our proposal.  It may refuse only a proposal the table
        has moved past (:meth:`Proposals.check_refusal`); a refusal of a move we made on
        the host's own log (legal in our view, signed by us) is a fault of the host.
        True when the refusal stands (the player is told)."""
        if frame.pid not in self.proposals.pending:
            return False
        proposal = self.proposals.frames.get(frame.pid)
        finding = self.proposals.check_refusal(
            frame, table=self.table, seat=self.seat, host_key=host_key, game=self.game_no,
            in_game=in_game, log_len=len(self.log))
        if finding is not None:
            self._finding(fx, finding, now)
            return False
        automatic = frame.pid in self.proposals.automatic
        action = self.proposals.done(frame.pid)
        assert action is not None  # (it was pending)
        fx.record(t="refused", seat=self.seat, pid=frame.pid, reason=frame.reason)
        if proposal is not None:  # (always: a proposal is pending with its frame)
            self.note_refusal(action, frame.reason, (proposal.game, proposal.seen))
        fx.emit(ev.ActionRefused(self.table, action, frame.reason, now, automatic))
        return True

    def _finding(self, fx: Effects, finding: Finding, now: float) -> None:
        """A part found a message wrong: drop it (not authentic), or stop the game on
        the finding, with its evidence."""
        if finding.code == "violation":
            fx.violation(finding.note, now)
        else:
            fx.stop(self.game_no, finding.culprit, finding.code, finding.note, now,
                    proof=list(finding.proof) or None)

    def on_entry(self, fx: Effects, frame: Entry, now: float, *, host_key: bytes, clock: int,
                 clock_early: Callable[[float], float | None]) -> str:
        """A seated player: the host's entry ``frame`` of the current game, checked and
        applied (``clock``: the table's seconds a move; ``clock_early``: how long our own
        clock still runs, see :meth:`MoveClock.early`).  Returns "" or the counter of a
        datagram dropped as not the host's (``"unsigned_entry"``)."""
        if frame.game != self.game_no or self.game is None:
            fx.desync(frame.game, frame.index, Note.of(
                "desync_game", game=frame.game, current=self.game_no), now)
            return ""
        log = self.log
        signed, proof = self.game_log.check(frame, table=self.table, host_key=host_key)
        if signed == "unsigned":
            return "unsigned_entry"
        if signed == "fork":  # two things the host signed that make no one log
            fx.stop(frame.game, HOST, "forked", Note.of("forked_signed", index=frame.index),
                    now, proof=proof)
            return ""
        if frame.index < len(log):
            return ""  # resent after a restart: already applied
        if frame.index > len(log):
            fx.desync(frame.game, frame.index, Note.of(
                "desync_gap", index=frame.index, count=len(log)), now)
            return ""
        try:
            action = parse_action(frame.action)
        except ValueError as exc:
            fx.desync(frame.game, frame.index, Note.of("desync_unreadable",
                                                       reason=str(exc)), now)
            return ""
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        actor = action.player
        if not 0 <= actor < self.players:
            fx.stop(frame.game, HOST, "illegal", Note.of("entry_for_nobody",
                                                         index=frame.index), now)
            return ""
        dealer = self.dealer
        assert dealer is not None
        kind, finding = self.proposals.check_entry(frame, action, me=self.seat, host=HOST,
                                                   adopted=dealer.adopted, clock=clock)
        if finding is not None:
            if finding.code == "desync":
                fx.desync(frame.game, frame.index, finding.note, now)
            else:
                fx.stop(frame.game, finding.culprit, finding.code, finding.note, now,
                        proof=list(finding.proof) or None)
            return ""
        own_forced = ""
        if actor == self.seat and kind == "timeout":
            # Our clock ran out (a proposal of ours on its way will be refused) -- by our
            # own clock, started when we saw the entry that put us on move.
            early = clock_early(now)
            if early is not None:
                fx.stop(frame.game, HOST, "early_clock", Note.of(
                    "early_clock", index=frame.index, move=action, seconds=early), now,
                    proof=[entry_sig.encode(frame)])  # (the host's signed word)
                return ""
        elif actor == self.seat and kind == "bot":
            if not self.check_own_bot_move(fx, action, reveals, frame.index, now):
                return ""
        elif kind == "own":
            # Whether our own move was the clock's is ours to say (a lead made because
            # our time was up), not the host's: the host marks a lead "timeout" if it
            # arrives after it told us our time was up, which a move we chose may.
            own_forced = "timeout" if frame.pid in self.proposals.timeout_pids else ""
            self.proposals.done(frame.pid)
            for card in action_cards(action):  # our proposal is logged: its cards open
                dealer.reveal(card)
        else:
            # Another seat's proposal is kept with its signature, and checked if the
            # audit blames that seat (see Session._conclude).  That it names our log
            # (its ``seen_hash`` is the entry's ``prev``, which is our link) the host's
            # signature already proved (GameLog.check: else a proven fork, not a claim).
            if not self.check_reveals(fx, actor, action, reveals, now):
                return ""
        reason = self.game.why_illegal(action)
        if reason is not None:
            fx.stop(frame.game, HOST, "illegal", Note.of(
                "illegal_entry", index=frame.index, move=action, reason=Rule(reason)), now)
            return ""
        digest, keys = self.apply(action)
        fx.deal_out(frame.game, keys, now)
        entry = LogEntry.of_frame(frame)  # (with the host's signature: our evidence)
        self.game_log.add(frame.game, entry)
        fx.record(**entry.record(frame.game, frame.index))
        if digest != frame.hash.hex():
            fx.emit(ev.ActionApplied(self.table, frame.game, frame.index, action,
                                     tuple(self.last_events), actor == self.seat, digest, now))
            fx.desync(frame.game, frame.index, Note.of(
                "desync_hash", index=frame.index, mine=digest[:12],
                theirs=frame.hash.hex()[:12]), now)
            return ""
        self._applied(fx, action, frame.index, digest, now,
                      own_forced if actor == self.seat and frame.pid else frame.forced)
        return ""

    # ------------------------------------------------------------------ a journal

    def replay_entry(self, fx: Effects, rec: dict[str, Any], now: float) -> None:
        """A journal's ``entry`` record: applied again, every card it opens checked again
        and its hash compared (``ValueError`` if it does not replay); then what follows
        any entry (``fx.entry_applied``: our new cards, the clocks, an automatic move)."""
        number = int(rec["game"])
        if number != self.game_no or self.game is None:
            raise ValueError(f"an entry of game {number} while at game {self.game_no}")
        index = int(rec["index"])
        if index != len(self.log):
            raise ValueError(f"game {number} entry {len(self.log)} is missing")
        action = parse_action(rec["action"])
        reveals = [(int(p), bytes.fromhex(k)) for p, k in rec.get("reveals", [])]
        pid = int(rec.get("pid", 0))
        dealer = self.dealer
        assert dealer is not None
        if action.player == self.seat:
            for card in action_cards(action):
                dealer.reveal(card)
            if self.seat != HOST and pid:
                self.proposals.done(pid)
        elif not self.check_reveals(fx, action.player, action, reveals, now):
            raise ValueError(f"game {number} entry {index} opens a card that does not check")
        if self.seat == HOST and pid:
            self.proposals.applied(action.player, pid)
        digest, keys = self.apply(action)
        fx.deal_out(number, keys, now)
        if digest != rec["hash"]:
            raise ValueError(f"game {number} entry {index} does not replay")
        self.game_log.replay(rec)
        fx.entry_applied(now)
