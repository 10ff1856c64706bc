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

How the two peers stay in agreement:

* The inviting peer is the **sequencer** (seat 0): it orders every action into one log.
  The other, the **follower** (seat 1), proposes its actions; the sequencer checks
  each with durak_core and appends it, or refuses it with the reason.
* Both validate every entry with durak_core, and every entry carries the state hash
  after it; an illegal or forged entry, or a different hash, is reported as a desync
  (:class:`~durak_net.events.DesyncDetected`), never applied silently.
* The deck comes from a :class:`~durak_net.dealer.Dealer` (commit/reveal by default).
* Frames travel over a :class:`~durak_net.reliable.ReliableChannel`; packets are
  authenticated with the session key; a peer that restarts from its journal starts a
  new *epoch*, both streams restart, and each side sends what the other lacks.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from durak_core import Action, Game, IllegalAction, Pass, Rules, parse_action

from . import events as ev
from .crypto import Entropy, mac, mac_ok
from .dealer import DealContext, Dealer, DealerFactory, DealError, commit_reveal_dealer
from .reliable import ReliableChannel, RtoConfig
from .wire import (
    KIND_SESSION,
    MAX_DATAGRAM,
    SESSION_PREFIX,
    TAG_BYTES,
    Bye,
    Deal,
    Desync,
    Entry,
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


@dataclass(frozen=True)
class LogEntry:
    """One applied action: its text, the full-state hash after it, its proposal id."""

    action: str
    hash: bytes
    pid: int = 0


def log_hash(entries: list[LogEntry]) -> str:
    """A hash of a game's action log (the terminal peer prints it per finished game)."""
    text = "\n".join(e.action for e in entries).encode()
    return hashlib.blake2b(text, digest_size=16).hexdigest()


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
        dealer_factory: DealerFactory = commit_reveal_dealer,
        config: SessionConfig | None = None,
        peer_name: str = "",
        name: str = "",
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
        self.config = config or SessionConfig()
        self._key = key
        self._entropy = entropy
        self._dealer_factory = dealer_factory
        self._header = session_header(sid)
        # The tag covers the sender's role, so a datagram reflected back to its own
        # sender (same key, same session) fails authentication.
        self._my_label = self.role.value.encode()
        self._peer_label = (
            Role.FOLLOWER if self.role is Role.SEQUENCER else Role.SEQUENCER
        ).value.encode()
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
        self.game: Game | None = None
        self.logs: dict[int, list[LogEntry]] = {}
        self.dealers: dict[int, Dealer] = {}
        self._broken: set[int] = set()
        self._previous_durak: int | None = None
        self._requested: set[int] = set()
        # proposals
        self._next_pid = 1
        self.pending: dict[int, Action] = {}
        self._handled: dict[int, str | None] = {}
        self._catch_up = False
        self._finished_reported = 0
        self._events: list[Any] = []
        self._journal: list[dict[str, Any]] = []
        if not _restoring:
            self._record(
                t="session",
                sid=sid,
                role=self.role.value,
                key=key.hex(),
                rules=rules.to_dict(),
                peer_addr=list(peer_addr),
                peer_name=peer_name,
                name=name,
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
        """Is a game dealt and not over (nor broken by a desync)?"""
        return (
            self.game is not None and not self.game.is_over and self.game_no not in self._broken
        )

    def act(self, action: Action, now: float) -> None:
        """Play ``action`` for our seat.

        Raises :class:`~durak_core.IllegalAction` (with the reason) if it is not legal
        in our copy of the game, :class:`SessionError` if the session is closed.  The
        sequencer applies a legal action at once; the follower proposes it, and
        learns the outcome from an :class:`~durak_net.events.ActionApplied` or
        :class:`~durak_net.events.ActionRefused` event.
        """
        if self.closed or self._closing_since is not None:
            raise SessionError("the session is closed")
        if self.game is None or not self.in_game:
            raise IllegalAction("no game in progress", action)
        if getattr(action, "player", None) != self.seat:
            raise IllegalAction(f"you play seat {self.seat}", action)
        reason = self.game.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason, action)
        if self.role is Role.SEQUENCER:
            self._append(action, 0, now)
        else:
            self._propose(action, now)

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
            for data in dealer.begin():
                self.channel.push(Deal(0, number, data), now)
            self._record(t="deal", game=number, state=dealer.record())
            self._maybe_deal(number, now)
        return number

    def close(self, now: float, reason: str = "") -> None:
        """Say goodbye; the session ends when the peer acknowledges (or after a timeout)."""
        if self.closed or self._closing_since is not None:
            return
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
        """Let time pass: detect a silent peer, give up a goodbye nobody acknowledges."""
        silent = now - self._last_recv
        if not self.lost and not self.closed and now >= self._last_recv + self.config.lost_after:
            self.lost = True
            self._emit(ev.PeerLost(self.sid, silent, now))
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
        return self._header + mac(self._key, self._header, self._my_label, body) + body

    def _open(self, data: bytes) -> Packet:
        if check_header(data) != KIND_SESSION or len(data) < SESSION_PREFIX:
            raise WireError("malformed", "not a session datagram")
        header = data[: SESSION_PREFIX - TAG_BYTES]
        if header != self._header:
            raise WireError("unknown_session", "another session's datagram")
        tag = data[SESSION_PREFIX - TAG_BYTES : SESSION_PREFIX]
        body = data[SESSION_PREFIX:]
        if not mac_ok(self._key, tag, header, self._peer_label, body):
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
        elif isinstance(frame, Desync):
            self._emit(
                ev.DesyncDetected(self.sid, frame.game, frame.index, frame.detail, True, now)
            )
            self._broken.add(frame.game)
        elif isinstance(frame, Bye) and not self.closed:
            self.closed = True
            self._linger_until = now + self.config.linger
            self.close_reason = frame.reason
            self._record(t="bye", reason=frame.reason, by_peer=True)
            self._emit(ev.SessionClosed(self.sid, frame.reason, True, now))

    # --------------------------------------------------------------- dealing

    def _dealer(self, number: int, record: dict[str, Any] | None = None) -> Dealer:
        dealer = self.dealers.get(number)
        if dealer is None:
            context = DealContext(self.sid, number, self.seat, self._entropy)
            dealer = self._dealer_factory(context, record)
            self.dealers[number] = dealer
        return dealer

    def _on_deal(self, frame: Deal, now: float) -> None:
        number = frame.game
        if number > self.game_no + 1 or number < 1:
            self._violation(f"deal message for game {number} while at game {self.game_no}", now)
            return
        dealer = self._dealer(number)
        try:
            replies = dealer.receive(frame.data)
        except DealError as exc:
            self._broken.add(number)
            self._violation(f"game {number}: {exc}", now)
            return
        for data in replies:
            self.channel.push(Deal(0, number, data), now)
        self._record(t="deal", game=number, state=dealer.record())
        self._maybe_request(now)
        self._maybe_deal(number, now)

    def _maybe_request(self, now: float) -> None:
        """Tell the application once that the peer wants the next game."""
        number = self.game_no + 1
        dealer = self.dealers.get(number)
        if (
            dealer is not None
            and not dealer.began
            and number not in self._requested
            and not self.in_game
        ):
            self._requested.add(number)
            self._emit(ev.NextGameRequested(self.sid, number, now))

    def _maybe_deal(self, number: int, now: float) -> None:
        dealer = self.dealers.get(number)
        if dealer is None or not dealer.done or number <= self.game_no:
            return
        if self.game is not None and self.game.is_over and self.rules.match:
            self._previous_durak = self.game.durak
        self.game_no = number
        self.game = dealer.deal(self.rules, self._previous_durak)
        self.logs.setdefault(number, [])
        self._emit(ev.GameStarted(self.sid, number, self.seat, self.game.state_hash(), now))
        self._after_change(now)

    # ------------------------------------------------------------ sequencing

    def _append(self, action: Action, pid: int, now: float) -> None:
        """Sequencer: apply a checked action and log it."""
        assert self.game is not None
        core_events = self.game.apply(action)
        digest = self.game.state_hash()
        entry = LogEntry(str(action), bytes.fromhex(digest), pid)
        index = len(self.log)
        self.logs[self.game_no].append(entry)
        if pid:
            self._handled[pid] = None
        self._record(t="entry", game=self.game_no, index=index, action=entry.action,
                     hash=digest, pid=pid)
        self.channel.push(
            Entry(0, self.game_no, index, entry.action, entry.hash, pid), now
        )
        self._emit(
            ev.ActionApplied(self.sid, self.game_no, index, action, tuple(core_events),
                             action.player == self.seat, digest, now)
        )
        self._after_change(now)

    def _refuse(self, pid: int, action: str, reason: str, now: float) -> None:
        self._handled[pid] = reason
        self._record(t="refused", pid=pid, reason=reason[:200])
        self.channel.push(Refused(0, pid, reason[:200]), now)
        self._emit(ev.PeerActionRefused(self.sid, action, reason, now))

    def _on_propose(self, frame: Propose, now: float) -> None:
        if self.role is not Role.SEQUENCER:
            self._violation("the sequencing peer sent a proposal", now)
            return
        if frame.pid in self._handled:  # re-proposed after a restart
            reason = self._handled[frame.pid]
            if reason is not None:
                self.channel.push(Refused(0, frame.pid, reason[:200]), now)
            return
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
        reason = self.game.why_illegal(action)
        if reason is not None:
            self._refuse(frame.pid, frame.action, reason, now)
            return
        self._append(action, frame.pid, now)

    def _propose(self, action: Action, now: float) -> None:
        pid = self._next_pid
        self._next_pid += 1
        self.pending[pid] = action
        self._record(t="propose", pid=pid, game=self.game_no, action=str(action))
        self.channel.push(Propose(0, pid, self.game_no, str(action)), now)

    def _on_refused(self, frame: Refused, now: float) -> None:
        action = self.pending.pop(frame.pid, None)
        if action is None:
            return
        self._record(t="refused", pid=frame.pid, reason=frame.reason)
        self._emit(ev.ActionRefused(self.sid, action, frame.reason, now))
        self._after_change(now)

    def _on_entry(self, frame: Entry, now: float) -> None:
        if self.role is not Role.FOLLOWER:
            self._violation("the following peer sent a log entry", now)
            return
        if frame.game in self._broken:
            self.drops["after_desync"] += 1
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
        if action.player == self.seat:
            proposed = self.pending.get(frame.pid) if frame.pid else None
            if proposed != action:
                self._desync(frame.game, frame.index,
                             f"entry {frame.index} plays my seat ({action}) "
                             "but I did not propose it", now)
                return
            del self.pending[frame.pid]
        elif frame.pid:
            self._desync(frame.game, frame.index, "an entry of the peer's own seat names a "
                         "proposal of mine", now)
            return
        reason = self.game.why_illegal(action)
        if reason is not None:
            self._desync(frame.game, frame.index, f"entry {frame.index} ({action}) is "
                         f"illegal here: {reason}", now)
            return
        core_events = self.game.apply(action)
        digest = self.game.state_hash()
        log.append(LogEntry(str(action), frame.hash, frame.pid))
        self._record(t="entry", game=frame.game, index=frame.index, action=str(action),
                     hash=frame.hash.hex(), pid=frame.pid)
        self._emit(
            ev.ActionApplied(self.sid, frame.game, frame.index, action, tuple(core_events),
                             action.player == self.seat, digest, now)
        )
        if digest != frame.hash.hex():
            self._desync(frame.game, frame.index,
                         f"state hash after entry {frame.index} differs "
                         f"(mine {digest[:12]}, the sequencer's {frame.hash.hex()[:12]})", now)
            return
        self._after_change(now)

    def _after_change(self, now: float) -> None:
        """Game over, or our seat's automatic pass."""
        game = self.game
        if game is None or self.game_no in self._broken:
            return
        if game.is_over:
            if self._finished_reported != self.game_no:
                self._finished_reported = self.game_no
                self._emit(ev.GameFinished(
                    self.sid, self.game_no, game.durak, tuple(game.losers), len(self.log),
                    game.state_hash(), log_hash(self.log), now))
            self._maybe_request(now)
            return
        if not self.config.auto_pass or self._closing_since is not None or self.closed:
            return
        automatic = [a for a in game.automatic_actions() if a.player == self.seat]
        if not automatic:
            return
        if self.role is Role.SEQUENCER:
            self._append(automatic[0], 0, now)
        elif not any(isinstance(a, Pass) for a in self.pending.values()):
            self._propose(automatic[0], now)

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
            if dealer is not None:
                for data in dealer.sent():
                    self.channel.push(Deal(0, number, data), now)
            if self.role is Role.SEQUENCER:
                start = frame.log_len if number == frame.game else 0
                entries = self.logs.get(number, [])
                if number == frame.game and frame.log_len > len(entries):
                    self._desync(number, len(entries), "the peer has entries I never sent", now)
                    return
                for index in range(start, len(entries)):
                    e = entries[index]
                    self.channel.push(Entry(0, number, index, e.action, e.hash, e.pid), now)
        if self.role is Role.FOLLOWER:
            for pid in sorted(self.pending):
                self.channel.push(Propose(0, pid, self.game_no, str(self.pending[pid])), now)

    # --------------------------------------------------------------- helpers

    def _desync(self, game: int, index: int, detail: str, now: float) -> None:
        self._broken.add(game)
        self._emit(ev.DesyncDetected(self.sid, game, index, detail, False, now))
        self.channel.push(Desync(0, game, index, detail[:200]), now)

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

    def _emit(self, event: Any) -> None:
        self._events.append(event)

    def _record(self, **record: Any) -> None:
        self._journal.append(record)

    # ================================================================= restore

    @classmethod
    def restore(
        cls,
        records: list[dict[str, Any]],
        now: float,
        *,
        entropy: Entropy = os.urandom,
        dealer_factory: DealerFactory = commit_reveal_dealer,
        config: SessionConfig | None = None,
    ) -> Session:
        """Rebuild a session from its journal records (a restarted kernel resumes).

        The session starts a new epoch; when the peer hears it, both streams restart
        and each side resends what the other may lack.  Raises ``ValueError`` if the
        journal is not a session journal or does not replay.
        """
        if not records or records[0].get("t") != "session":
            raise ValueError("not a session journal (no header record)")
        head = records[0]
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
            _restoring=True,
        )
        session._replay(records[1:], now)
        return session

    def _replay(self, records: list[dict[str, Any]], now: float) -> None:
        epoch = 0
        deals: dict[int, dict[str, Any]] = {}
        entries: dict[int, list[dict[str, Any]]] = {}
        proposals: dict[int, Action] = {}
        refused: dict[int, str] = {}
        closed = False
        for rec in records:
            kind = rec.get("t")
            if kind == "epoch":
                epoch = max(epoch, int(rec["epoch"]))
            elif kind == "deal":
                deals[int(rec["game"])] = rec["state"]
            elif kind == "entry":
                entries.setdefault(int(rec["game"]), []).append(rec)
            elif kind == "propose":
                proposals[int(rec["pid"])] = parse_action(rec["action"])
            elif kind == "refused":
                refused[int(rec["pid"])] = str(rec.get("reason", ""))
            elif kind == "bye":
                closed = True
        self.epoch = epoch + 1
        self._record(t="epoch", epoch=self.epoch)
        applied: set[int] = set()
        for number in sorted(deals):
            dealer = self._dealer(number, deals[number])
            if not dealer.done:
                continue
            if self.game is not None and self.game.is_over and self.rules.match:
                self._previous_durak = self.game.durak
            self.game_no = number
            self.game = dealer.deal(self.rules, self._previous_durak)
            log = self.logs.setdefault(number, [])
            for index, rec in enumerate(entries.get(number, [])):
                if int(rec["index"]) != index:
                    raise ValueError(f"journal: game {number} entry {index} is missing")
                action = parse_action(rec["action"])
                self.game.apply(action)
                if self.game.state_hash() != rec["hash"]:
                    raise ValueError(f"journal: game {number} entry {index} does not replay")
                pid = int(rec.get("pid", 0))
                applied.add(pid)
                log.append(LogEntry(rec["action"], bytes.fromhex(rec["hash"]), pid))
            if self.game.is_over:
                self._finished_reported = number
        self._next_pid = max([*proposals, *refused, 0]) + 1
        if self.role is Role.FOLLOWER:
            self.pending = {
                pid: a for pid, a in proposals.items() if pid not in applied and pid not in refused
            }
        else:
            self._handled = {pid: None for pid in applied if pid}
            self._handled.update(refused)
        self.closed = closed
        self._linger_until = now if closed else None
        self.channel.push(Sync(0, self.game_no, len(self.log)), now)
        self._catch_up = True
        if self.game is not None:
            self._emit(ev.GameStarted(self.sid, self.game_no, self.seat, self.game.state_hash(),
                                      now, resumed=True))
