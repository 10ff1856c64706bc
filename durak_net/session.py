"""One game session between two peers, as a state machine with no I/O.

Like h11 or aioquic: bytes and a clock go in, bytes and events come out; no sockets,
no threads, no clock reads.  The driver (:class:`~durak_net.node.LanNode` over UDP, or
the in-memory link of the tests) calls

* :meth:`Session.receive` with each datagram, its source address and ``now``;
* :meth:`Session.timer` when :meth:`Session.next_timer` says so;
* :meth:`Session.datagrams_to_send` after either, and sends what it returns;
* :meth:`Session.journal_records` before sending, and appends them to the journal
  (write-ahead: nothing leaves that a restarted kernel would not remember);
* :meth:`Session.events` to collect what happened.

The application calls :meth:`Session.act` for its seat's moves and
:meth:`Session.start_next_game` for a rematch.

Hidden hands.  Each peer holds only its seat's view of the game (``self.game`` is a
:meth:`~durak_core.Game.view`): the deck is dealt by mental poker
(:class:`~durak_net.dealer.MentalDealer`), a card reaches a hand when the other seat
publishes its key for it, and a card leaves a hidden hand only with its holder's key,
which proves it was dealt there.  Log entries carry the hash of the *public* state,
which both views share.  When a game ends (or stops on a fault), both seats publish
their seeds and each audits the whole game (:mod:`durak_net.audit`).

How the two peers stay in agreement:

* The inviting peer is the **sequencer** (seat 0): it orders every action into one log.
  The other, the **follower** (seat 1), proposes its actions; the sequencer checks
  each with durak_core (and its reveals with the dealer) and appends it, or refuses
  it with the reason.
* Both validate every entry; an illegal entry or a different hash is a desync, a card
  not proven is a fault: the game stops and is audited, never silently diverges.
* Frames travel over a :class:`~durak_net.reliable.ReliableChannel`; packets are
  authenticated with the session key; a peer that restarts from its journal starts a
  new *epoch*, both streams restart, and each side sends what the other lacks.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from durak_core import (
    Action,
    Attack,
    Card,
    Defend,
    Game,
    IllegalAction,
    Rules,
    Transfer,
    parse_action,
)
from durak_core.events import Drew

from . import events as ev
from .audit import Stop, Verdict, audit
from .crypto import Entropy, mac, mac_ok, rendezvous_tag
from .dealer import DealContext, DealFault, MentalDealer, Reveal
from .reliable import ReliableChannel, RtoConfig
from .wire import (
    KIND_SESSION,
    MAX_DATAGRAM,
    SESSION_PREFIX,
    TAG_BYTES,
    Bye,
    Deal,
    Entry,
    Fault,
    Frame,
    Packet,
    Propose,
    Refused,
    Sync,
    WireError,
    check_header,
    decode_packet_body,
    encode_packet_body,
    encoded_size,
    session_header,
)

Addr = tuple[str, int]

#: Bytes of a packet besides its frames (header, tag, epochs, numbers, a full sack).
_PACKET_OVERHEAD = SESSION_PREFIX + 48 + 32 * 9
#: Packet numbers remembered behind the newest one: within it a late packet is told
#: from a replay; anything older is dropped (as IPsec and DTLS do).
REPLAY_WINDOW = 64
_WINDOW_MASK = (1 << REPLAY_WINDOW) - 1
JOURNAL_VERSION = 2

#: Builds the dealer of one game (``seed``: restore one from the journal).
DealerFactory = Callable[[DealContext, "bytes | None"], MentalDealer]


def mental_dealer(context: DealContext, seed: bytes | None = None) -> MentalDealer:
    """The default :data:`DealerFactory`."""
    return MentalDealer(context, seed)


class Role(str, Enum):
    """Who orders the log: the inviter (sequencer, seat 0) or the invitee (follower, seat 1)."""

    SEQUENCER = "sequencer"
    FOLLOWER = "follower"


class SessionError(RuntimeError):
    """Local misuse of a session (acting in a closed session, a rematch mid-game...).

    Remote misbehaviour is never raised: it becomes an event.
    """


@dataclass(frozen=True)
class SessionConfig:
    """Timing and behaviour knobs; the defaults suit a LAN and a person at the table."""

    #: Send a packet at least this often (seconds) so the peer knows we are alive.
    heartbeat: float = 1.0
    #: Declare the peer lost after this long without a valid packet.
    lost_after: float = 3.0
    #: Retransmission timing of the reliable stream.
    rto: RtoConfig = field(default_factory=RtoConfig)
    #: Propose our seat's pass by ourselves when it is our only legal action
    #: (durak_core requires that explicit pass; nobody should have to click it).
    auto_pass: bool = True
    #: After saying goodbye, keep acknowledging the peer for this long.
    linger: float = 5.0
    #: Give up waiting for the goodbye to be acknowledged after this long.
    close_timeout: float = 2.0
    #: A peer that is connected but has not published its seed this long after the
    #: game ended refuses the audit.
    audit_timeout: float = 30.0


@dataclass(frozen=True)
class LogEntry:
    """One applied action: its text, the public-state hash after it, its proposal id and
    the reveals of the cards it opened (``(position, key)``)."""

    action: str
    hash: bytes
    pid: int = 0
    reveals: tuple[tuple[int, bytes], ...] = ()


def log_hash(entries: list[LogEntry]) -> str:
    """A hash of a game's action log (the terminal peer prints it per finished game)."""
    text = "\n".join(e.action for e in entries).encode()
    return hashlib.blake2b(text, digest_size=16).hexdigest()


def action_cards(action: Action) -> list[Card]:
    """The cards an action takes out of its player's hand or shows from it."""
    if isinstance(action, Attack):
        return [action.card, *action.more]
    if isinstance(action, Defend | Transfer):
        return [action.card]
    return []


class Session:
    """A two-peer game session (see the module docstring)."""

    def __init__(
        self,
        sid: int,
        role: Role | str,
        key: bytes,
        rules: Rules,
        peer_addr: Addr,
        now: float,
        *,
        entropy: Entropy = os.urandom,
        dealer_factory: DealerFactory = mental_dealer,
        config: SessionConfig | None = None,
        peer_name: str = "",
        name: str = "",
        sas: str = "",
        _restoring: bool = False,
    ) -> None:
        if rules.players != 2:
            raise ValueError(f"a LAN session is for 2 players, not {rules.players}")
        if len(key) != 32:
            raise ValueError("the session key has 32 bytes")
        self.sid = sid
        self.role = Role(role)
        self.seat = 0 if self.role is Role.SEQUENCER else 1
        self.peer_seat = 1 - self.seat
        self.rules = rules
        self.peer_addr = peer_addr
        self.peer_name = peer_name
        self.name = name
        #: The four words both people compare (from the pairing).
        self.sas = sas
        self.config = config or SessionConfig()
        self._key = key
        self._entropy = entropy
        self._dealer_factory = dealer_factory
        self._header = session_header(sid)
        self._rendezvous = rendezvous_tag(key)
        #: Datagrams dropped, by reason (malformed, oversized, foreign, unknown_session,
        #: bad_mac, stale, duplicate...); never raised.
        self.drops: Counter[str] = Counter()
        self.stats: Counter[str] = Counter()
        self.channel: ReliableChannel[Frame] = ReliableChannel(self.config.rto)
        self.epoch = 1
        self.peer_epoch = 0
        self._pn = 0
        self._peer_pn = -1
        self._seen_pns = 0  # bit k: packet number _peer_pn - k has arrived
        self._last_recv = now
        self._last_send = float("-inf")
        self.lost = False
        self.closed = False
        self._closing_since: float | None = None
        self._linger_until: float | None = None
        self.close_reason = ""
        # games
        self.game_no = 0
        #: Our seat's view of the current game (never the full game).
        self.game: Game | None = None
        self.logs: dict[int, list[LogEntry]] = {}
        self.dealers: dict[int, MentalDealer] = {}
        self._broken: set[int] = set()
        self._stops: dict[int, Stop] = {}
        self._faults: dict[int, Fault] = {}
        #: Audit verdicts by game.
        self.audits: dict[int, Verdict] = {}
        self._audit_due: dict[int, float] = {}
        self._previous_durak: int | None = None
        self._requested: set[int] = set()
        # proposals
        self._next_pid = 1
        self.pending: dict[int, Action] = {}
        self._pending_reveals: dict[int, list[tuple[int, bytes]]] = {}
        self._handled: dict[int, str | None] = {}
        self._proposed: dict[int, tuple[int, str]] = {}  # pid -> (game, action) seen
        #: Actions the sequencer refused in the current state: text -> reason.
        self.refused: dict[str, str] = {}
        self._refused_state: tuple[int, int] = (0, -1)
        self._catch_up = False
        self._last_events: list[Any] = []
        self._finished_reported = 0
        self._replaying = False
        self._events: list[Any] = []
        self._journal: list[dict[str, Any]] = []
        if not _restoring:
            self._record(
                t="session",
                version=JOURNAL_VERSION,
                sid=sid,
                role=self.role.value,
                key=key.hex(),
                rules=rules.to_dict(),
                peer_addr=list(peer_addr),
                peer_name=peer_name,
                name=name,
                sas=sas,
            )
            self._record(t="epoch", epoch=self.epoch)
            self.channel.push(Sync(0, 0, 0), now)
            self.start_next_game(now)

    # ================================================================ public API

    @property
    def log(self) -> list[LogEntry]:
        """The current game's log."""
        return self.logs.get(self.game_no, [])

    @property
    def in_game(self) -> bool:
        """Is a game dealt and not over (nor stopped)?"""
        return (
            self.game is not None and not self.game.is_over and self.game_no not in self._broken
        )

    @property
    def rendezvous_tag(self) -> bytes:
        """What we announce while looking for the peer (see :func:`crypto.rendezvous_tag`)."""
        return self._rendezvous

    @property
    def dealer(self) -> MentalDealer | None:
        """The current game's dealer (our keys and what we know of the cards)."""
        return self.dealers.get(self.game_no)

    @property
    def waiting_for_cards(self) -> bool:
        """Have we drawn cards whose keys have not all arrived yet?"""
        dealer = self.dealer
        return self.in_game and dealer is not None and dealer.waiting_for_cards

    def act(self, action: Action, now: float) -> None:
        """Play ``action`` for our seat.

        Raises :class:`~durak_core.IllegalAction` (with the reason) if it is not legal
        in our view of the game, if our drawn cards are still being opened, if the
        sequencer refused this very action in this state, or while our previous
        proposal is on its way; :class:`SessionError` if the session is closed.  The
        sequencer applies a legal action at once; the follower proposes it, and learns
        the outcome from an :class:`~durak_net.events.ActionApplied` or
        :class:`~durak_net.events.ActionRefused` event.
        """
        if self.closed or self._closing_since is not None:
            raise SessionError("the session is closed")
        if self.game is None or not self.in_game:
            raise IllegalAction("no game in progress", action)
        if getattr(action, "player", None) != self.seat:
            raise IllegalAction(f"you play seat {self.seat}", action)
        if self.waiting_for_cards:
            raise IllegalAction("your drawn cards are still being dealt; a moment", action)
        reason = self.game.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason, action)
        if self.role is Role.FOLLOWER:
            self._check_proposal_allowed(action, now)
        dealer = self.dealer
        assert dealer is not None
        reveals = [r for r in (dealer.reveal(c) for c in action_cards(action)) if r is not None]
        pairs = [(r.position, r.key) for r in reveals]
        if self.role is Role.SEQUENCER:
            self._append(action, 0, pairs, now)
        else:
            self._propose(action, pairs, now)

    def start_next_game(self, now: float, game: int | None = None) -> int:
        """Agree to deal the next game (a rematch); returns its number.

        The game starts when the peer agrees too (it gets a
        :class:`~durak_net.events.NextGameRequested` event). ``game`` names the
        game agreed to, e.g. the one of a ``NextGameRequested`` event: agreeing
        to a game that has already been dealt meanwhile (both sides asked at
        once) does nothing and returns its number.
        """
        if self.closed or self._closing_since is not None:
            raise SessionError("the session is closed")
        if game is not None and game <= self.game_no:
            return game
        if self.game is not None and not self.game.is_over and self.game_no not in self._broken:
            raise SessionError("the current game is not over")
        number = self.game_no + 1
        dealer = self._dealer(number)
        if not dealer.began:
            self._record(t="begin", game=number)
            self._deal_out(number, dealer.begin(), now)
            self._maybe_deal(number, now)
        return number

    def close(self, now: float, reason: str = "") -> None:
        """Say goodbye; the session ends when the peer acknowledges (or after a timeout).

        A game in progress is left: our seed is published first, so the peer can
        still audit the cards played so far.
        """
        if self.closed or self._closing_since is not None:
            return
        number = self.game_no
        dealer = self.dealer
        if dealer is not None and dealer.locked is not None and number not in self.audits:
            if self.in_game:
                self._broken.add(number)
                self._set_stop(number, Stop(self.seat, len(self.log), "left the game", False))
            self._publish_seed(number, now)
        self.close_reason = reason
        self._closing_since = now
        self.channel.push(Bye(0, reason[:200]), now)
        self._record(t="bye", reason=reason[:200])

    def finished(self, now: float) -> bool:
        """Closed and past lingering: the driver may forget this session."""
        return self.closed and (self._linger_until is None or now >= self._linger_until)

    def events(self) -> list[Any]:
        """Events since the last call (see :mod:`durak_net.events`)."""
        out, self._events = self._events, []
        return out

    def journal_records(self) -> list[dict[str, Any]]:
        """Journal records since the last call; append them before sending datagrams."""
        out, self._journal = self._journal, []
        return out

    # ============================================================ datagram I/O

    def receive(self, data: bytes, addr: Addr, now: float) -> None:
        """Take in one datagram.  Anything not authentic and well-formed is dropped and
        counted in :attr:`drops`; nothing is ever raised."""
        try:
            packet = self._open(data)
        except WireError as exc:
            self.drops[exc.counter] += 1
            return
        if packet.peer_epoch not in (0, self.epoch) or packet.epoch < self.peer_epoch:
            self.drops["stale"] += 1
            return
        if packet.epoch > self.peer_epoch:
            if self.peer_epoch != 0:
                self._peer_restarted(now)
            self.peer_epoch = packet.epoch
            self._peer_pn = -1
            self._seen_pns = 0
        if packet.pn > self._peer_pn:
            ahead = min(packet.pn - self._peer_pn, REPLAY_WINDOW)
            self._seen_pns = (self._seen_pns << ahead | 1) & _WINDOW_MASK
            self._peer_pn = packet.pn
            self.peer_addr = addr  # the peer may have moved (a restarted kernel's new port)
        else:
            behind = self._peer_pn - packet.pn
            if behind >= REPLAY_WINDOW or self._seen_pns >> behind & 1:
                # A copy of a packet already taken in (the network's or a replay), or
                # one too old to tell: it would say nothing new, nor prove the peer alive.
                self.drops["duplicate"] += 1
                return
            self._seen_pns |= 1 << behind
            self.stats["packets_reordered"] += 1
        self._last_recv = now
        if self.lost:
            self.lost = False
            self._emit(ev.PeerBack(self.sid, now))
        self.stats["packets_received"] += 1
        self.channel.on_ack(packet.ack, list(packet.sack), now)
        for frame in packet.frames:
            for ready in self.channel.receive(frame):
                try:
                    self._handle(ready, now)
                except Exception as exc:  # a bug must not kill the receiving thread
                    self.drops["internal_error"] += 1
                    self._emit(ev.ProtocolViolation(self.sid, f"internal error: {exc!r}", now))
        self._check_closed(now)

    def timer(self, now: float) -> None:
        """Let time pass: detect a silent peer, give up a goodbye nobody acknowledges,
        and name a connected peer that withholds its seed from the audit."""
        silent = now - self._last_recv
        if not self.lost and not self.closed and now >= self._last_recv + self.config.lost_after:
            self.lost = True
            self._emit(ev.PeerLost(self.sid, silent, now))
        for number, due in list(self._audit_due.items()):
            if self.lost:
                self._audit_due[number] = max(due, now + self.config.audit_timeout)
            elif now >= due:
                self._conclude(number, now, refused=True)
        self._check_closed(now)

    def next_timer(self) -> float | None:
        """When :meth:`timer` (or :meth:`datagrams_to_send`) next has work to do."""
        if self.closed:
            return None  # lingering is the driver's business (see finished())
        times = [self._last_send + self.config.heartbeat]
        retransmit = self.channel.next_timer()
        if retransmit is not None:
            times.append(retransmit)
        if not self.lost:
            times.append(self._last_recv + self.config.lost_after)
            times += self._audit_due.values()
        if self._closing_since is not None:
            times.append(self._closing_since + self.config.close_timeout)
        if self.channel.ack_due:
            times.append(float("-inf"))
        return min(times)

    def datagrams_to_send(self, now: float) -> list[tuple[bytes, Addr]]:
        """The datagrams to send now: new frames, retransmissions, acks, heartbeats."""
        frames = self.channel.due(now)
        heartbeat = now >= self._last_send + self.config.heartbeat
        if self.closed and not self.channel.ack_due:
            return []
        if not frames and not self.channel.ack_due and not heartbeat:
            return []
        out: list[tuple[bytes, Addr]] = []
        batch: list[Frame] = []
        size = _PACKET_OVERHEAD
        for frame in frames:
            frame_size = encoded_size(frame)
            if batch and size + frame_size > MAX_DATAGRAM:
                out.append((self._seal(batch), self.peer_addr))
                batch, size = [], _PACKET_OVERHEAD
            batch.append(frame)
            size += frame_size
        out.append((self._seal(batch), self.peer_addr))
        self.channel.ack_due = False
        self._last_send = now
        self.stats["packets_sent"] += len(out)
        return out

    def _seal(self, frames: list[Frame]) -> bytes:
        self._pn += 1
        ack, sack = self.channel.ack_state()
        body = encode_packet_body(Packet(self.epoch, self.peer_epoch, self._pn, ack, sack, frames))
        return self._header + mac(self._key, self._header, bytes([self.seat]), body) + body

    def _open(self, data: bytes) -> Packet:
        if check_header(data) != KIND_SESSION or len(data) < SESSION_PREFIX:
            raise WireError("malformed", "not a session datagram")
        header = data[: SESSION_PREFIX - TAG_BYTES]
        if header != self._header:
            raise WireError("unknown_session", "another session's datagram")
        tag = data[SESSION_PREFIX - TAG_BYTES : SESSION_PREFIX]
        body = data[SESSION_PREFIX:]
        # The tag covers the sender's seat, so a datagram reflected back to its own
        # sender (same key, same session) fails authentication.
        if not mac_ok(self._key, tag, header, bytes([self.peer_seat]), body):
            raise WireError("bad_mac", "authentication failed")
        return decode_packet_body(body)

    # ================================================================ frames

    def _handle(self, frame: Frame, now: float) -> None:
        if isinstance(frame, Entry):
            self._on_entry(frame, now)
        elif isinstance(frame, Propose):
            self._on_propose(frame, now)
        elif isinstance(frame, Refused):
            self._on_refused(frame, now)
        elif isinstance(frame, Deal):
            self._on_deal(frame, now)
        elif isinstance(frame, Sync):
            self._on_sync(frame, now)
        elif isinstance(frame, Fault):
            self._on_fault(frame, now)
        elif isinstance(frame, Bye) and not self.closed:
            self._on_bye(frame, now)

    def _on_bye(self, frame: Bye, now: float) -> None:
        self.closed = True
        self._linger_until = now + self.config.linger
        self.close_reason = frame.reason
        self._record(t="bye", reason=frame.reason, by_peer=True)
        number = self.game_no
        if self.in_game:  # the peer left mid-game: audit what was played
            self._broken.add(number)
            self._set_stop(number, Stop(self.peer_seat, len(self.log), "left the game", False))
        dealer = self.dealers.get(number)
        if dealer is not None and dealer.locked is not None and (
            number in self._audit_due or (number in self._stops and number not in self.audits)
        ):
            self._publish_seed(number, now)
            self._conclude(number, now, refused=not dealer.seeds_in)
        self._emit(ev.SessionClosed(self.sid, frame.reason, True, now))

    # --------------------------------------------------------------- dealing

    def _dealer(self, number: int, seed: bytes | None = None) -> MentalDealer:
        dealer = self.dealers.get(number)
        if dealer is None:
            previous = None
            if self.rules.match and self.game is not None and self.game.is_over:
                previous = self.game.durak
            context = DealContext(self.sid, number, self.seat, self.rules.players,
                                  self.rules.deck_size, self._entropy, previous)
            dealer = self._dealer_factory(context, seed)
            self.dealers[number] = dealer
            self._record(t="dealer", game=number, seed=dealer.seed.hex(), previous=previous)
        return dealer

    def _deal_out(self, number: int, messages: list[bytes], now: float) -> None:
        for data in messages:
            self._push(Deal(0, number, self.seat, data), now)

    def _on_deal(self, frame: Deal, now: float) -> None:
        number = frame.game
        if number > self.game_no + 1 or number < 1 or frame.seat != self.peer_seat:
            self._violation(f"deal message for game {number} from seat {frame.seat} while "
                            f"at game {self.game_no}", now)
            return
        if number < self.game_no and number not in self.dealers:
            return
        dealer = self._dealer(number)
        self._record(t="dealmsg", game=number, seat=frame.seat, data=frame.data.hex())
        try:
            replies = dealer.receive(frame.data, frame.seat)
        except DealFault as fault:
            self._fault(number, fault, now)
            return
        self._deal_out(number, replies, now)
        self._after_deal_message(number, now)

    def _after_deal_message(self, number: int, now: float) -> None:
        if number == self.game_no and self.game is not None and self.in_game:
            self._take_new_cards(now)
            self._after_change(now)
        self._maybe_request(now)
        self._maybe_deal(number, now)
        self._maybe_audit(number, now)

    def _take_new_cards(self, now: float) -> None:
        """Reveal our drawn cards to our view once their keys are in."""
        dealer = self.dealer
        if dealer is None or self.game is None:
            return
        try:
            fresh = dealer.new_cards()
        except DealFault as fault:
            self._fault(self.game_no, fault, now)
            return
        if fresh:
            self.game.reveal(self.seat, fresh)
            self._emit(ev.CardsRevealed(self.sid, self.game_no, self.seat, tuple(fresh), now))

    def _maybe_request(self, now: float) -> None:
        """Tell the application once that the peer wants the next game."""
        number = self.game_no + 1
        dealer = self.dealers.get(number)
        if (
            dealer is not None
            and not dealer.began
            and dealer.heard
            and number not in self._requested
            and not self.in_game
        ):
            self._requested.add(number)
            self._emit(ev.NextGameRequested(self.sid, number, now))

    def _maybe_deal(self, number: int, now: float) -> None:
        dealer = self.dealers.get(number)
        if dealer is None or number <= self.game_no or number in self._broken:
            return
        if self._closing_since is not None or (self.closed and not self._replaying):
            return  # a session that is ending deals no new game
        try:
            if not dealer.done:
                return
        except DealFault as fault:
            self._fault(number, fault, now)
            return
        if self.game is not None and self.game.is_over and self.rules.match:
            self._previous_durak = self.game.durak
        self.game_no = number
        self.game = dealer.deal(self.rules)
        self.logs.setdefault(number, [])
        self.refused = {}
        self._emit(ev.GameStarted(self.sid, number, self.seat, self.game.public_hash(), now,
                                  shown=dealer.shown_trump))
        self._after_change(now)

    # ------------------------------------------------------------ sequencing

    def _append(self, action: Action, pid: int, reveals: list[tuple[int, bytes]],
                now: float) -> None:
        """Sequencer: apply a checked action (its reveals checked too) and log it."""
        assert self.game is not None
        index = len(self.log)
        digest, keys = self._apply(action)
        entry = LogEntry(str(action), bytes.fromhex(digest), pid, tuple(reveals))
        self.logs[self.game_no].append(entry)
        if pid:
            self._handled[pid] = None
        self._record(t="entry", game=self.game_no, index=index, action=entry.action,
                     hash=digest, pid=pid, reveals=[[p, k.hex()] for p, k in reveals])
        self._push(Entry(0, self.game_no, index, entry.action, entry.hash, pid, reveals), now)
        self._deal_out(self.game_no, keys, now)  # our keys for the cards the other drew
        self._after_apply(action, index, digest, now)

    def _apply(self, action: Action) -> tuple[str, list[bytes]]:
        """Apply an action to our view: the public hash after it, and the dealer messages
        with our keys for the cards another seat drew (to send after the entry)."""
        assert self.game is not None
        self._last_events = self.game.apply(action)
        dealer = self.dealer
        assert dealer is not None
        keys: list[bytes] = []
        for e in self._last_events:
            if isinstance(e, Drew):
                keys += dealer.drawn(e.player, len(e.cards))
        return self.game.public_hash(), keys

    def _after_apply(self, action: Action, index: int, digest: str, now: float) -> None:
        self._emit(
            ev.ActionApplied(self.sid, self.game_no, index, action, tuple(self._last_events),
                             action.player == self.seat, digest, now)
        )
        self._take_new_cards(now)
        self._after_change(now)

    def _check_reveals(self, seat: int, action: Action, reveals: list[tuple[int, bytes]],
                       now: float) -> bool:
        """Check the cards another seat opens with ``action``; a fault stops the game."""
        assert self.game is not None
        dealer = self.dealer
        assert dealer is not None
        known = set(self.game.hand(seat))
        pending = list(reveals)
        try:
            for card in action_cards(action):
                if card in known:
                    continue
                if not self._could_hold(seat, card):
                    raise DealFault(seat, "not_held", f"played {card}, a card it cannot hold")
                if not pending:
                    raise DealFault(seat, "not_held", f"played {card} without opening it")
                position, key = pending.pop(0)
                dealer.check_reveal(seat, card, Reveal(position, key))
            if pending:
                raise DealFault(seat, "protocol", "opened more cards than it played")
        except DealFault as fault:
            self._fault(self.game_no, fault, now)
            return False
        return True

    def _could_hold(self, seat: int, card: Card) -> bool:
        assert self.game is not None
        return card in self.game.hand(seat) or (
            self.game.unknown_count(seat) > 0 and card in self.game.unseen
        )

    def _refuse(self, pid: int, action: str, reason: str, now: float) -> None:
        self._handled[pid] = reason
        self._record(t="refused", pid=pid, reason=reason[:200])
        self._push(Refused(0, pid, reason[:200]), now)
        self._emit(ev.PeerActionRefused(self.sid, action, reason, now))

    def _on_propose(self, frame: Propose, now: float) -> None:
        if self.role is not Role.SEQUENCER:
            self._violation("the sequencing peer sent a proposal", now)
            return
        if frame.pid in self._handled:
            if self._proposed.get(frame.pid, (frame.game, frame.action)) != (
                frame.game, frame.action
            ):  # a new proposal under an old id: ids count per session, never reused
                self._push(Refused(0, frame.pid, f"proposal id {frame.pid} was used before "
                                   "(ids count from 1 per session and are never reused)"), now)
                return
            reason = self._handled[frame.pid]  # the same proposal again, after a restart
            if reason is not None:
                self._push(Refused(0, frame.pid, reason[:200]), now)
            return
        self._proposed[frame.pid] = (frame.game, frame.action)
        if frame.game != self.game_no or not self.in_game:
            self._refuse(frame.pid, frame.action, f"game {frame.game} is not in play", now)
            return
        try:
            action = parse_action(frame.action)
        except ValueError as exc:
            self._refuse(frame.pid, frame.action, str(exc), now)
            return
        if action.player != self.peer_seat:
            self._refuse(frame.pid, frame.action,
                         f"seat {self.peer_seat} may only play its own actions", now)
            return
        assert self.game is not None
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        self._record(t="proposal", pid=frame.pid, game=frame.game, action=frame.action,
                     reveals=[[p, k.hex()] for p, k in reveals])
        if not self._check_reveals(self.peer_seat, action, reveals, now):
            return
        reason = self.game.why_illegal(action)
        if reason is not None:
            # A stale proposal (the table changed meanwhile): refused.  The cards it
            # opened are now known to be in the proposer's hand.
            opened = [c for c in action_cards(action) if c not in self.game.hand(self.peer_seat)]
            if opened:
                self.game.reveal(self.peer_seat, opened)
                self._record(t="opened", game=self.game_no, seat=self.peer_seat,
                             action=frame.action, reveals=[[p, k.hex()] for p, k in reveals])
            self._refuse(frame.pid, frame.action, reason, now)
            return
        self._append(action, frame.pid, reveals, now)

    def _check_proposal_allowed(self, action: Action, now: float) -> None:
        """The proposal rate limit: only one proposal is on its way at a time (so at most
        one per round trip), and an action the sequencer refused is not proposed again
        until the state changes (so at most one per legal move and state)."""
        if self.pending:
            raise IllegalAction("your previous move is still on its way", action)
        state = (self.game_no, len(self.log))
        if self._refused_state != state:
            self._refused_state = state
            self.refused = {}
        reason = self.refused.get(str(action))
        if reason is not None:
            raise IllegalAction(f"{self.peer_name or 'the peer'} refused this move: {reason}",
                                action)

    def _propose(self, action: Action, reveals: list[tuple[int, bytes]], now: float) -> None:
        pid = self._next_pid
        self._next_pid += 1
        self.pending[pid] = action
        self._pending_reveals[pid] = reveals
        self._record(t="propose", pid=pid, game=self.game_no, action=str(action),
                     reveals=[[p, k.hex()] for p, k in reveals])
        self._push(Propose(0, pid, self.game_no, str(action), reveals), now)

    def _on_refused(self, frame: Refused, now: float) -> None:
        action = self.pending.pop(frame.pid, None)
        self._pending_reveals.pop(frame.pid, None)
        if action is None:
            return
        self._record(t="refused", pid=frame.pid, reason=frame.reason)
        state = (self.game_no, len(self.log))
        if self._refused_state != state:
            self._refused_state = state
            self.refused = {}
        self.refused[str(action)] = frame.reason
        self._emit(ev.ActionRefused(self.sid, action, frame.reason, now))
        self._after_change(now)

    def _on_entry(self, frame: Entry, now: float) -> None:
        if self.role is not Role.FOLLOWER:
            self._violation("the following peer sent a log entry", now)
            return
        if frame.game in self._broken:
            self.drops["after_stop"] += 1
            return
        if frame.game != self.game_no or self.game is None:
            self._desync(frame.game, frame.index,
                         f"entry for game {frame.game}, but game {self.game_no} is dealt", now)
            return
        log = self.log
        if frame.index < len(log):
            return  # resent after a restart: already applied
        if frame.index > len(log):
            self._desync(frame.game, frame.index,
                         f"entry {frame.index} arrived but only {len(log)} are applied", now)
            return
        try:
            action = parse_action(frame.action)
        except ValueError as exc:
            self._desync(frame.game, frame.index, f"unreadable entry: {exc}", now)
            return
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        if action.player == self.seat:
            proposed = self.pending.get(frame.pid) if frame.pid else None
            if proposed != action:
                self._stop(frame.game, self.peer_seat, "forged", f"sent entry {frame.index}, "
                           f"which plays our seat ({action}) though we did not propose it",
                           now)
                return
            del self.pending[frame.pid]
            self._pending_reveals.pop(frame.pid, None)
        elif frame.pid:
            self._desync(frame.game, frame.index, "an entry of the peer's own seat names a "
                         "proposal of mine", now)
            return
        else:
            if not self._check_reveals(action.player, action, reveals, now):
                return
        reason = self.game.why_illegal(action)
        if reason is not None:
            self._stop(frame.game, self.peer_seat, "illegal", f"sent entry {frame.index} "
                       f"({action}), which is illegal: {reason}", now)
            return
        digest, keys = self._apply(action)
        self._deal_out(frame.game, keys, now)
        log.append(LogEntry(str(action), frame.hash, frame.pid, tuple(reveals)))
        self._record(t="entry", game=frame.game, index=frame.index, action=str(action),
                     hash=frame.hash.hex(), pid=frame.pid,
                     reveals=[[p, k.hex()] for p, k in reveals])
        if digest != frame.hash.hex():
            self._emit(
                ev.ActionApplied(self.sid, frame.game, frame.index, action,
                                 tuple(self._last_events), action.player == self.seat, digest,
                                 now)
            )
            self._desync(frame.game, frame.index,
                         f"state hash after entry {frame.index} differs "
                         f"(mine {digest[:12]}, the sequencer's {frame.hash.hex()[:12]})", now)
            return
        self._after_apply(action, frame.index, digest, now)

    def _after_change(self, now: float) -> None:
        """Game over (publish our seed for the audit), or our seat's automatic pass."""
        game = self.game
        if game is None or self.game_no in self._broken:
            return
        if game.is_over:
            if self._finished_reported != self.game_no:
                self._finished_reported = self.game_no
                self._emit(ev.GameFinished(
                    self.sid, self.game_no, game.durak, tuple(game.losers), len(self.log),
                    game.public_hash(), log_hash(self.log), now))
                self._publish_seed(self.game_no, now)
            self._maybe_request(now)
            return
        if self._replaying or not self.config.auto_pass:
            return
        if self._closing_since is not None or self.closed or self.waiting_for_cards:
            return
        automatic = [a for a in game.automatic_actions() if a.player == self.seat]
        if not automatic:
            return
        if self.role is Role.SEQUENCER:
            self._append(automatic[0], 0, [], now)
        elif not self.pending:
            self._propose(automatic[0], [], now)

    # -------------------------------------------------------- stops and audits

    def _fault(self, number: int, fault: DealFault, now: float) -> None:
        """The dealer caught a seat breaking the deal: stop the game and audit it."""
        self._stop(number, fault.seat, fault.code, fault.detail, now)

    def _stop(self, number: int, culprit: int, code: str, detail: str, now: float,
              stopper: int | None = None) -> None:
        """Stop game ``number`` (the evidence names ``culprit``); both seats then publish
        their seeds and the audit decides."""
        if number in self._stops or number in self.audits:
            return
        by_peer = stopper is not None and stopper != self.seat
        self._broken.add(number)
        index = len(self.logs.get(number, []))
        self._set_stop(number, Stop(self.seat if stopper is None else stopper, index,
                                    detail[:200], True, culprit, code[:24]))
        if not by_peer:
            fault = Fault(0, number, index, culprit, code[:24], detail[:200])
            self._faults[number] = fault
            self._push(fault, now)
        self._emit(ev.GameStopped(self.sid, number, culprit, detail, by_peer, now))
        self._publish_seed(number, now)

    def _set_stop(self, number: int, stop: Stop) -> None:
        self._stops[number] = stop
        self._record(t="stop", game=number, seat=stop.seat, index=stop.index,
                     reason=stop.reason, claim=stop.claim, culprit=stop.culprit, code=stop.code)

    def _on_fault(self, frame: Fault, now: float) -> None:
        if frame.game not in self.dealers:
            self._violation(f"a fault reported for game {frame.game}, never dealt", now)
            return
        if frame.code == "desync" and frame.game not in self._stops:
            self._emit(ev.DesyncDetected(self.sid, frame.game, frame.index, frame.detail, True,
                                         now))
        self._stop(frame.game, frame.seat, frame.code, frame.detail, now,
                   stopper=self.peer_seat)

    def _publish_seed(self, number: int, now: float) -> None:
        dealer = self.dealers.get(number)
        if dealer is None:
            return
        messages = dealer.publish_seed()
        if messages:
            self._record(t="publish", game=number)
            self._deal_out(number, messages, now)
            self._audit_due.setdefault(number, now + self.config.audit_timeout)
        self._maybe_audit(number, now)

    def _maybe_audit(self, number: int, now: float) -> None:
        dealer = self.dealers.get(number)
        if dealer is None or number in self.audits or not dealer.seeds_in:
            return
        game_over = number == self.game_no and self.game is not None and self.game.is_over
        if not game_over and number not in self._stops:
            return
        self._conclude(number, now)

    def _conclude(self, number: int, now: float, refused: bool = False) -> None:
        """Audit game ``number`` (or name the seat that did not publish its seed)."""
        if number in self.audits:
            return
        dealer = self.dealers[number]
        log = self.logs.get(number, [])
        names = [self.name or "you", self.peer_name or "the peer"]
        if self.seat == 1:
            names.reverse()
        if refused and not dealer.seeds_in:
            missing = next(s for s in range(dealer.n) if s not in dealer.seeds)
            verdict = Verdict(False, "refused", f"{names[missing]} did not publish its keys "
                              "for the audit", missing)
        else:
            verdict = audit(dealer, self.rules, [(e.action, e.hash) for e in log], names,
                            self._stops.get(number))
        self.audits[number] = verdict
        self._audit_due.pop(number, None)
        self._record(t="audit", game=number, fair=verdict.fair, code=verdict.code,
                     detail=verdict.detail, culprit=verdict.culprit,
                     state_hash=verdict.state_hash)
        self._emit(ev.GameAudited(self.sid, number, verdict.fair, verdict.text, verdict.code,
                                  verdict.culprit, verdict.state_hash, log_hash(log), now))

    # ---------------------------------------------------------------- resync

    def _peer_restarted(self, now: float) -> None:
        """The peer came back from its journal: restart both streams and catch up."""
        self.stats["peer_restarts"] += 1
        self.channel.reset()
        self.channel.push(Sync(0, self.game_no, len(self.log)), now)
        self._catch_up = True

    def _on_sync(self, frame: Sync, now: float) -> None:
        if not self._catch_up:
            return
        self._catch_up = False
        first = max(frame.game, 1)
        for number in sorted(set(self.dealers) | set(self.logs)):
            if number < first:
                continue
            dealer = self.dealers.get(number)
            if self.role is Role.SEQUENCER:
                start = frame.log_len if number == frame.game else 0
                entries = self.logs.get(number, [])
                if number == frame.game and frame.log_len > len(entries):
                    self._desync(number, len(entries), "the peer has entries I never sent", now)
                    return
            if dealer is not None:
                self._deal_out(number, dealer.sent(), now)
            if self.role is Role.SEQUENCER:
                for index in range(start, len(entries)):
                    e = entries[index]
                    self._push(Entry(0, number, index, e.action, e.hash, e.pid,
                                     list(e.reveals)), now)
            fault = self._faults.get(number)
            if fault is not None:
                self._push(fault, now)
        if self.role is Role.FOLLOWER:
            for pid in sorted(self.pending):
                self._push(Propose(0, pid, self.game_no, str(self.pending[pid]),
                                   self._pending_reveals.get(pid, [])), now)

    # --------------------------------------------------------------- helpers

    def _desync(self, game: int, index: int, detail: str, now: float) -> None:
        """Our states disagree: reported to both sides, and the game is stopped for the
        audit (which finds who made them disagree)."""
        if game in self._broken:
            return
        self._emit(ev.DesyncDetected(self.sid, game, index, detail, False, now))
        if game in self.dealers:
            self._stop(game, self.peer_seat, "desync", detail, now)
        else:
            self._broken.add(game)
            self._push(Fault(0, game, index, self.peer_seat, "desync", detail[:200]), now)

    def _violation(self, detail: str, now: float) -> None:
        self.drops["violation"] += 1
        self._emit(ev.ProtocolViolation(self.sid, detail, now))

    def _check_closed(self, now: float) -> None:
        if self._closing_since is None or self.closed:
            return
        if self.channel.in_flight == 0 or now >= self._closing_since + self.config.close_timeout:
            self.closed = True
            self._linger_until = now + self.config.linger
            self._emit(ev.SessionClosed(self.sid, self.close_reason, False, now))

    def _push(self, frame: Frame, now: float) -> None:
        if not self._replaying:
            self.channel.push(frame, now)

    def _emit(self, event: Any) -> None:
        if not self._replaying:
            self._events.append(event)

    def _record(self, **record: Any) -> None:
        if not self._replaying:
            self._journal.append(record)

    # ================================================================= restore

    @classmethod
    def restore(
        cls,
        records: list[dict[str, Any]],
        now: float,
        *,
        entropy: Entropy = os.urandom,
        dealer_factory: DealerFactory = mental_dealer,
        config: SessionConfig | None = None,
    ) -> Session:
        """Rebuild a session from its journal records (a restarted kernel resumes).

        The records are replayed through the same code that made them (nothing is sent
        or reported meanwhile); then a new epoch starts, and when the peer hears it both
        streams restart and each side resends what the other may lack.  Raises
        ``ValueError`` if the journal is not a session journal of this version or does
        not replay.
        """
        if not records or records[0].get("t") != "session":
            raise ValueError("not a session journal (no header record)")
        head = records[0]
        if head.get("version") != JOURNAL_VERSION:
            raise ValueError(f"a journal of version {head.get('version', 1)} (this durak "
                             f"writes version {JOURNAL_VERSION}); it cannot be resumed")
        session = cls(
            int(head["sid"]),
            head["role"],
            bytes.fromhex(head["key"]),
            Rules.from_dict(head["rules"]),
            (str(head["peer_addr"][0]), int(head["peer_addr"][1])),
            now,
            entropy=entropy,
            dealer_factory=dealer_factory,
            config=config,
            peer_name=str(head.get("peer_name", "")),
            name=str(head.get("name", "")),
            sas=str(head.get("sas", "")),
            _restoring=True,
        )
        session._replaying = True
        try:
            session._replay(records[1:], now)
        except (KeyError, TypeError, ValueError, DealFault) as exc:
            raise ValueError(f"journal: {exc}") from None
        finally:
            session._replaying = False
        session._record(t="epoch", epoch=session.epoch)
        session.channel.reset()
        session.channel.push(Sync(0, session.game_no, len(session.log)), now)
        session._catch_up = True
        for number in list(session._audit_due):
            session._audit_due[number] = now + session.config.audit_timeout
        if session.game is not None:
            dealer = session.dealer
            session._emit(ev.GameStarted(
                session.sid, session.game_no, session.seat, session.game.public_hash(), now,
                resumed=True, shown=dealer.shown_trump if dealer is not None else None))
        return session

    def _replay(self, records: list[dict[str, Any]], now: float) -> None:
        epoch = 0
        for rec in records:
            kind = rec.get("t")
            if kind == "epoch":
                epoch = max(epoch, int(rec["epoch"]))
            elif kind == "dealer":
                number = int(rec["game"])
                if number in self.dealers:
                    raise ValueError(f"game {number} has two dealers")
                previous = rec.get("previous")
                context = DealContext(self.sid, number, self.seat, self.rules.players,
                                      self.rules.deck_size, self._entropy,
                                      None if previous is None else int(previous))
                self.dealers[number] = self._dealer_factory(context, bytes.fromhex(rec["seed"]))
            elif kind == "begin":
                number = int(rec["game"])
                self.dealers[number].begin()
                self._maybe_deal(number, now)
            elif kind == "dealmsg":
                number = int(rec["game"])
                self.dealers[number].receive(bytes.fromhex(rec["data"]), int(rec["seat"]))
                self._after_deal_message(number, now)
            elif kind == "entry":
                self._replay_entry(rec, now)
            elif kind == "propose":
                pid = int(rec["pid"])
                action = parse_action(rec["action"])
                dealer = self.dealer
                assert dealer is not None
                for card in action_cards(action):
                    dealer.reveal(card)
                self.pending[pid] = action
                self._pending_reveals[pid] = [(int(p), bytes.fromhex(k))
                                              for p, k in rec.get("reveals", [])]
                self._next_pid = max(self._next_pid, pid + 1)
            elif kind == "proposal":  # a proposal the sequencer received (its outcome follows)
                self._proposed[int(rec["pid"])] = (int(rec.get("game", self.game_no)),
                                                   str(rec["action"]))
            elif kind == "opened":  # cards a refused proposal opened (section 8, rule 4)
                action = parse_action(rec["action"])
                reveals = [(int(p), bytes.fromhex(k)) for p, k in rec.get("reveals", [])]
                assert self.game is not None
                seat = int(rec["seat"])
                if not self._check_reveals(seat, action, reveals, now):
                    raise ValueError("a refused proposal's cards do not check")
                opened = [c for c in action_cards(action) if c not in self.game.hand(seat)]
                if opened:
                    self.game.reveal(seat, opened)
            elif kind == "refused":
                pid = int(rec["pid"])
                reason = str(rec.get("reason", ""))
                if self.role is Role.FOLLOWER:
                    action_ = self.pending.pop(pid, None)
                    self._pending_reveals.pop(pid, None)
                    if action_ is not None:
                        self.refused[str(action_)] = reason
                        self._refused_state = (self.game_no, len(self.log))
                    self._next_pid = max(self._next_pid, pid + 1)
                else:
                    self._handled[pid] = reason
            elif kind == "stop":
                number = int(rec["game"])
                self._broken.add(number)
                culprit = rec.get("culprit")
                self._stops[number] = Stop(int(rec["seat"]), int(rec["index"]),
                                           str(rec["reason"]), bool(rec.get("claim", True)),
                                           None if culprit is None else int(culprit),
                                           str(rec.get("code", "stopped")))
            elif kind == "publish":
                number = int(rec["game"])
                self.dealers[number].publish_seed()
                self._audit_due.setdefault(number, now)
            elif kind == "audit":
                number = int(rec["game"])
                self.audits[number] = Verdict(bool(rec["fair"]), str(rec["code"]),
                                              str(rec["detail"]), rec.get("culprit"),
                                              str(rec.get("state_hash", "")))
                self._audit_due.pop(number, None)
            elif kind == "bye":
                self.closed = True
        self.epoch = epoch + 1
        self._linger_until = now if self.closed else None

    def _replay_entry(self, rec: dict[str, Any], now: float) -> None:
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
            if self.role is Role.FOLLOWER and pid:
                self.pending.pop(pid, None)
                self._pending_reveals.pop(pid, None)
        elif not self._check_reveals(action.player, action, reveals, now):
            raise ValueError(f"game {number} entry {index} opens a card that does not check")
        if self.role is Role.SEQUENCER and pid:
            self._handled[pid] = None
        digest, _ = self._apply(action)
        if digest != rec["hash"]:
            raise ValueError(f"game {number} entry {index} does not replay")
        self.logs[number].append(LogEntry(rec["action"], bytes.fromhex(digest), pid,
                                          tuple(reveals)))
        self._take_new_cards(now)
        self._after_change(now)
