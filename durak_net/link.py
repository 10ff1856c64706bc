"""One authenticated, reliable stream between two peers: packets, epochs, replay window.

A :class:`Link` is the part of a session that talks to one other peer: it seals frames
into authenticated datagrams and opens the peer's, keeps the packet numbers and the
replay window, notices a peer that restarted (a new epoch) or went silent, and carries
a :class:`~durak_net.reliable.ReliableChannel` for the frames themselves.  It knows
nothing of games: the session decides what the frames mean.  A two-seat session has
one link; the host of a table has one per other seat.

Like the rest of the protocol it has no I/O: bytes and ``now`` in, bytes out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .crypto import mac, mac_ok, rendezvous_tag
from .reliable import ReliableChannel, RtoConfig
from .wire import (
    KIND_SESSION,
    MAX_DATAGRAM,
    SESSION_PREFIX,
    TAG_BYTES,
    Frame,
    Packet,
    WireError,
    check_header,
    decode_packet_body,
    encode_packet_body,
    encoded_size,
    session_header,
)

Addr = tuple[str, int]

#: Bytes of a packet besides its frames (header, tag, epochs, numbers, a full sack).
PACKET_OVERHEAD = SESSION_PREFIX + 48 + 32 * 9
#: Packet numbers remembered behind the newest one: within it a late packet is told
#: from a replay; anything older is dropped (as IPsec and DTLS do).
REPLAY_WINDOW = 64
_WINDOW_MASK = (1 << REPLAY_WINDOW) - 1


@dataclass
class Arrival:
    """What :meth:`Link.accept` found out about a packet."""

    accepted: bool
    #: The peer came back in a new epoch (a restarted kernel): streams restart.
    restarted: bool = False
    #: The peer had been reported lost and is heard again.
    back: bool = False


class Link:
    """The stream to one peer (see the module docstring).

    sid: the pairing's session id (its datagrams carry it); key: the pairing's key;
    seat / peer_seat: whose tag we write and whose we check.
    """

    def __init__(self, sid: int, key: bytes, seat: int, peer_seat: int, peer_addr: Addr,
                 now: float, rto: RtoConfig | None = None, epoch: int = 1) -> None:
        if len(key) != 32:
            raise ValueError("the session key has 32 bytes")
        self.sid = sid
        self.seat = seat
        self.peer_seat = peer_seat
        self.peer_addr = peer_addr
        self.epoch = epoch
        self.peer_epoch = 0
        self.channel: ReliableChannel[Frame] = ReliableChannel(rto)
        self.drops: Counter[str] = Counter()
        self.stats: Counter[str] = Counter()
        self.lost = False
        self.last_recv = now
        self.last_send = float("-inf")
        self.rendezvous = rendezvous_tag(key)
        self._key = key
        self._header = session_header(sid)
        self._pn = 0
        self._peer_pn = -1
        self._seen_pns = 0  # bit k: packet number _peer_pn - k has arrived

    # ---------------------------------------------------------------- receiving

    def open(self, data: bytes) -> Packet:
        """The authenticated packet of a datagram, or :class:`WireError`."""
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

    def accept(self, packet: Packet, addr: Addr, now: float) -> Arrival:
        """Epochs, packet numbers and the replay window (section 6 of the protocol)."""
        if packet.peer_epoch not in (0, self.epoch) or packet.epoch < self.peer_epoch:
            self.drops["stale"] += 1
            return Arrival(False)
        restarted = False
        if packet.epoch > self.peer_epoch:
            if self.peer_epoch != 0:
                restarted = True
                self.stats["peer_restarts"] += 1
                self.channel.reset()
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
                return Arrival(False, restarted)
            self._seen_pns |= 1 << behind
            self.stats["packets_reordered"] += 1
        self.last_recv = now
        back = self.lost
        self.lost = False
        self.stats["packets_received"] += 1
        self.channel.on_ack(packet.ack, list(packet.sack), now)
        return Arrival(True, restarted, back)

    def frames(self, packet: Packet) -> list[Frame]:
        """The packet's frames that are now deliverable, in stream order."""
        out: list[Frame] = []
        for frame in packet.frames:
            out += self.channel.receive(frame)
        return out

    # ---------------------------------------------------------------- sending

    def push(self, frame: Frame, now: float) -> None:
        self.channel.push(frame, now)

    def datagrams_to_send(self, now: float, heartbeat: float, quiet: bool = False
                          ) -> list[tuple[bytes, Addr]]:
        """New frames, retransmissions, acks and (every ``heartbeat`` s) a heartbeat;
        ``quiet``: the session is closed, send acknowledgements only."""
        frames = self.channel.due(now)
        due = now >= self.last_send + heartbeat
        if quiet and not self.channel.ack_due:
            return []
        if not frames and not self.channel.ack_due and not due:
            return []
        out: list[tuple[bytes, Addr]] = []
        batch: list[Frame] = []
        size = PACKET_OVERHEAD
        for frame in frames:
            frame_size = encoded_size(frame)
            if batch and size + frame_size > MAX_DATAGRAM:
                out.append((self.seal(batch), self.peer_addr))
                batch, size = [], PACKET_OVERHEAD
            batch.append(frame)
            size += frame_size
        out.append((self.seal(batch), self.peer_addr))
        self.channel.ack_due = False
        self.last_send = now
        self.stats["packets_sent"] += len(out)
        return out

    def seal(self, frames: list[Frame]) -> bytes:
        self._pn += 1
        ack, sack = self.channel.ack_state()
        body = encode_packet_body(Packet(self.epoch, self.peer_epoch, self._pn, ack, sack,
                                         frames))
        return self._header + mac(self._key, self._header, bytes([self.seat]), body) + body

    # ---------------------------------------------------------------- time

    def silent_since(self, now: float, lost_after: float) -> float | None:
        """How long the peer has been silent, the first time it passes ``lost_after``
        (the link is then lost until heard again); None otherwise."""
        if not self.lost and now >= self.last_recv + lost_after:
            self.lost = True
            return now - self.last_recv
        return None

    def next_timer(self, heartbeat: float, lost_after: float) -> float:
        if self.channel.ack_due:
            return float("-inf")
        due = self.last_send + heartbeat
        retransmit = self.channel.next_timer()
        if retransmit is not None and retransmit < due:
            due = retransmit
        if not self.lost and self.last_recv + lost_after < due:
            due = self.last_recv + lost_after
        return due
