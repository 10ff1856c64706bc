"""Discovery and invitations, as a state machine with no I/O (like the session).

Every peer broadcasts an :class:`~durak_net.wire.Announce` about once a second (name,
random 64-bit node id, game port, rules) and forgets a peer silent for five seconds.
Its own announcements come back and are filtered by node id; datagrams of other
programs or protocol versions are dropped and counted.

Invitations fix the original design's lost ``stop_scan``: every Invite, Answer and
Cancel is acknowledged and resent with backoff until it is, and an invitation that
nobody answers ends with a reason after a timeout, so nobody hangs.  The Invite
and the accepting Answer carry X25519 public keys; both ends derive the session key
from them (the session id is the invitation id).

Datagrams to :data:`BROADCAST` are for the driver to send to every broadcast address
on the discovery port; all other traffic is unicast to a peer's game port.

>>> import random
>>> rng = random.Random(2)
>>> from durak_core import Rules
>>> alice = Lobby("Alice", 40001, Rules(), 0.0, entropy=rng.randbytes)
>>> [dst for _, dst in alice.datagrams_to_send(0.0)] == [BROADCAST]
True
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from durak_core import Rules

from . import events as ev
from .crypto import Entropy, KeyPair, random_id
from .wire import (
    PROTOCOL,
    PROTOCOL_VERSION,
    Ack,
    Announce,
    Answer,
    Cancel,
    DiscoveryMessage,
    Invite,
    WireError,
    decode_discovery,
    encode_discovery,
)

Addr = tuple[str, int]

#: Destination of announcements: every broadcast address, on the discovery port.
BROADCAST: Addr = ("<broadcast>", 0)


@dataclass(frozen=True)
class LobbyConfig:
    """Timing of discovery and invitations (seconds)."""

    announce_every: float = 1.0
    forget_after: float = 5.0
    retry_first: float = 0.2
    retry_max: float = 2.0
    #: An invitation nobody answers is withdrawn after this long.
    invite_timeout: float = 60.0
    #: Give up resending an Answer or Cancel that is never acknowledged after this long.
    give_up_after: float = 30.0
    #: Forget a finished invitation after this long (until then, duplicates are re-acked).
    keep_done: float = 300.0


@dataclass
class _Peer:
    info: ev.PeerInfo
    last_seen: float
    addr_seen: float


@dataclass
class _Invitation:
    invite: int
    peer: ev.PeerInfo
    outgoing: bool
    rules: Rules
    created: float
    keypair: KeyPair | None = None
    peer_key: bytes = b""
    #: "calling" (resending Invite), "ringing" (acked, awaiting answer), "received"
    #: (awaiting our answer), "answering" (resending Answer), "done".
    state: str = "calling"
    message: bytes = b""
    next_send: float = 0.0
    interval: float = 0.0
    sent_since: float = 0.0
    cancelled: bool = False
    accepted: bool = False


def _is_loopback(addr: Addr) -> bool:
    return addr[0].startswith("127.")


class Lobby:
    """Who is on the LAN, and the invitations to and from them (see module doc)."""

    def __init__(
        self,
        name: str,
        game_port: int,
        rules: Rules,
        now: float,
        *,
        entropy: Entropy = os.urandom,
        node: int | None = None,
        config: LobbyConfig | None = None,
    ) -> None:
        name = " ".join(name.split())
        if not 1 <= len(name) <= 40:
            raise ValueError("the name must have 1 to 40 characters")
        if rules.players != 2:
            raise ValueError(f"LAN games are for 2 players, not {rules.players}")
        self.name = name
        self.game_port = game_port
        self.rules = rules
        self.config = config or LobbyConfig()
        self._entropy = entropy
        self.node = node if node is not None else random_id(entropy)
        self.peers: dict[int, _Peer] = {}
        self.invitations: dict[int, _Invitation] = {}
        #: Addresses (game ports) that get our announcement unicast: --connect targets,
        #: and peers that announced themselves to us unicast.
        self.direct: dict[Addr, float] = {}
        self.busy = False
        self.sessions: list[int] = []
        self.drops: Counter[str] = Counter()
        self._next_announce = now
        self._out: list[tuple[bytes, Addr]] = []
        self._events: list[Any] = []

    # ================================================================ public API

    def connect(self, addr: Addr) -> None:
        """Announce ourselves unicast to ``addr`` (a peer's game port), for networks
        where broadcasts do not reach; it answers in kind and appears as a peer."""
        self.direct[addr] = float("inf")
        self._next_announce = float("-inf")

    def invite(self, node: int, now: float, rules: Rules | None = None) -> int:
        """Invite a peer seen on the LAN; returns the invitation id.  ``ValueError`` if
        the peer is unknown."""
        peer = self.peers.get(node)
        if peer is None:
            raise ValueError(f"no peer {node:x} on the LAN (it may have left)")
        rules = rules or self.rules
        if rules.players != 2:
            raise ValueError(f"LAN games are for 2 players, not {rules.players}")
        invite = random_id(self._entropy)
        keypair = KeyPair.generate(self._entropy)
        message = encode_discovery(
            Invite(self.node, node, invite, self.name, rules.to_dict(), keypair.public)
        )
        self.invitations[invite] = _Invitation(
            invite, peer.info, True, rules, now, keypair=keypair, message=message,
            next_send=now, interval=self.config.retry_first, sent_since=now,
        )
        return invite

    def accept(self, invite: int, now: float) -> None:
        """Accept an incoming invitation: a :class:`~durak_net.events.SessionAgreed`
        event follows at once (the peer learns it from our retried Answer)."""
        inv = self._incoming(invite)
        keypair = KeyPair.generate(self._entropy)
        try:
            key = keypair.shared_key(inv.peer_key, invite)
        except ValueError:
            self._answer(inv, False, "the invitation's key is invalid", b"", now)
            self._close(inv, "the invitation's key is invalid", now)
            return
        self._answer(inv, True, "", keypair.public, now)
        inv.accepted = True
        self._emit(ev.SessionAgreed(invite, False, inv.peer, key, inv.rules, now))

    def decline(self, invite: int, now: float, reason: str = "declined") -> None:
        """Decline an incoming invitation (the inviter sees ``reason``)."""
        inv = self._incoming(invite)
        self._answer(inv, False, reason[:200], b"", now)
        self._close(inv, reason, now)

    def cancel(self, invite: int, now: float, reason: str = "cancelled") -> None:
        """Withdraw one of our invitations."""
        inv = self.invitations.get(invite)
        if inv is None or not inv.outgoing or inv.state not in ("calling", "ringing"):
            return
        self._send_cancel(inv, now)
        self._close(inv, reason, now)

    def pending_invites(self) -> list[_Invitation]:
        """Invitations not yet answered, both ways."""
        return [i for i in self.invitations.values() if i.state in ("calling", "ringing",
                                                                      "received")]

    def events(self) -> list[Any]:
        out, self._events = self._events, []
        return out

    # ================================================================ datagram I/O

    def receive(self, data: bytes, addr: Addr, now: float, direct: bool = False) -> None:
        """Take in one datagram (``direct``: it came unicast, not by broadcast).  Anything
        malformed, foreign or addressed to another node is dropped and counted."""
        try:
            message = decode_discovery(data)
        except WireError as exc:
            self.drops[exc.counter] += 1
            return
        if message.node == self.node:
            self.drops["own"] += 1
            return
        if isinstance(message, Announce):
            self._on_announce(message, addr, now, direct)
            return
        if message.to != self.node:
            self.drops["stranger"] += 1
            return
        if isinstance(message, Invite):
            self._on_invite(message, addr, now)
        elif isinstance(message, Answer):
            self._on_answer(message, addr, now)
        elif isinstance(message, Cancel):
            self._on_cancel(message, addr, now)
        else:
            self._on_ack(message, now)

    def timer(self, now: float) -> None:
        if now >= self._next_announce:
            self._announce(now)
        for node, peer in list(self.peers.items()):
            if now >= peer.last_seen + self.config.forget_after:
                del self.peers[node]
                if self.direct.get(peer.info.addr, float("inf")) != float("inf"):
                    del self.direct[peer.info.addr]  # learned, not configured: forget it too
                self._emit(ev.PeerGone(peer.info, now))
                for inv in list(self.invitations.values()):
                    if inv.peer.node == node and inv.state in ("calling", "ringing", "received"):
                        self._close(inv, f"{peer.info.name} left", now)
        for inv in list(self.invitations.values()):
            self._invitation_timer(inv, now)
            if inv.state == "done" and now >= inv.created + self.config.keep_done:
                del self.invitations[inv.invite]

    def next_timer(self) -> float | None:
        times = [self._next_announce]
        times += [p.last_seen + self.config.forget_after for p in self.peers.values()]
        for inv in self.invitations.values():
            if inv.message and inv.state in ("calling", "answering", "cancelling"):
                times.append(inv.next_send)
            if inv.outgoing and inv.state in ("calling", "ringing"):
                times.append(inv.created + self.config.invite_timeout)
        return min(times)

    def datagrams_to_send(self, now: float) -> list[tuple[bytes, Addr]]:
        """What to send now (an announcement that fell due is included)."""
        if now >= self._next_announce:
            self._announce(now)
        out, self._out = self._out, []
        return out

    # ================================================================ internals

    def _emit(self, event: Any) -> None:
        self._events.append(event)

    def _send(self, message: DiscoveryMessage, addr: Addr) -> None:
        self._out.append((encode_discovery(message), addr))

    def _announce(self, now: float) -> None:
        data = encode_discovery(
            Announce(PROTOCOL, PROTOCOL_VERSION, self.node, self.name, self.game_port,
                     self.rules.to_dict(), self.busy, self.sessions[:8])
        )
        self._out.append((data, BROADCAST))
        for addr in self.direct:
            self._out.append((data, addr))
        self._next_announce = now + self.config.announce_every

    def _on_announce(self, msg: Announce, addr: Addr, now: float, direct: bool) -> None:
        if msg.proto != PROTOCOL or msg.version != PROTOCOL_VERSION:
            self.drops["foreign"] += 1
            return
        try:
            rules = Rules.from_dict(dict(msg.rules))
        except (TypeError, ValueError):
            self.drops["malformed"] += 1
            return
        peer_addr = (addr[0], msg.port)
        if direct and peer_addr not in self.direct:
            self.direct[peer_addr] = now  # it may not hear our broadcasts: answer in kind
            self._next_announce = min(self._next_announce, now)
        known = self.peers.get(msg.node)
        if known is not None:
            old = known.info.addr
            if peer_addr != old and not (
                now >= known.addr_seen + 2.5 * self.config.announce_every
                or (_is_loopback(peer_addr) and not _is_loopback(old))
            ):
                peer_addr = old  # the same peer heard on two paths: keep one address
            if peer_addr == old:
                known.addr_seen = now
        info = ev.PeerInfo(msg.node, msg.name, peer_addr, rules.to_dict(), msg.busy,
                           tuple(msg.sessions))
        if known is None:
            self.peers[msg.node] = _Peer(info, now, now)
            self._emit(ev.PeerSeen(info, now))
            return
        known.last_seen = now
        if info != known.info:
            known.info = info
            known.addr_seen = now
            self._emit(ev.PeerSeen(info, now))

    def _peer_from(self, node: int, name: str, addr: Addr, rules: Rules) -> ev.PeerInfo:
        known = self.peers.get(node)
        if known is not None:
            return known.info
        return ev.PeerInfo(node, name, addr, rules.to_dict())

    def _on_invite(self, msg: Invite, addr: Addr, now: float) -> None:
        self._send(Ack(self.node, msg.node, msg.invite, "invite"), addr)
        if msg.invite in self.invitations:
            self.drops["duplicate"] += 1
            return
        try:
            rules = Rules.from_dict(dict(msg.rules))
        except (TypeError, ValueError) as exc:
            self._send(Answer(self.node, msg.node, msg.invite, False,
                              f"unusable rules: {exc}"[:200]), addr)
            self.drops["malformed"] += 1
            return
        peer = replace(self._peer_from(msg.node, msg.name, addr, rules), addr=addr)
        inv = _Invitation(msg.invite, peer, False, rules, now, peer_key=msg.key, state="received")
        self.invitations[msg.invite] = inv
        if rules.players != 2:
            self._answer(inv, False, "LAN games are for 2 players", b"", now)
            self._close(inv, "the invitation was for more than 2 players", now)
            return
        self._emit(ev.InviteReceived(msg.invite, peer, rules, now))

    def _on_answer(self, msg: Answer, addr: Addr, now: float) -> None:
        inv = self.invitations.get(msg.invite)
        if inv is None or not inv.outgoing or inv.peer.node != msg.node:
            self.drops["stranger"] += 1
            return
        self._send(Ack(self.node, msg.node, msg.invite, "answer"), addr)
        if inv.state not in ("calling", "ringing"):
            self.drops["duplicate"] += 1
            return
        if not msg.accept:
            self._close(inv, msg.reason or "declined", now)
            return
        assert inv.keypair is not None
        try:
            key = inv.keypair.shared_key(msg.key, inv.invite)
        except ValueError:
            self._close(inv, "the answer's key is invalid", now)
            return
        inv.state = "done"
        inv.message = b""
        peer = replace(inv.peer, addr=addr)
        self._emit(ev.SessionAgreed(inv.invite, True, peer, key, inv.rules, now))

    def _on_cancel(self, msg: Cancel, addr: Addr, now: float) -> None:
        self._send(Ack(self.node, msg.node, msg.invite, "cancel"), addr)
        inv = self.invitations.get(msg.invite)
        if inv is None or inv.outgoing or inv.peer.node != msg.node:
            return
        if inv.state == "received":
            self._close(inv, "cancelled by the inviter", now)
        elif inv.accepted and not inv.cancelled:
            # We accepted, but the inviter had already given up: the session we started
            # has nobody on the other side; the driver closes it on this event.
            inv.cancelled = True
            self._emit(ev.InviteClosed(inv.invite, inv.peer, False, "cancelled by the inviter",
                                       now))

    def _on_ack(self, msg: Ack, now: float) -> None:
        inv = self.invitations.get(msg.invite)
        if inv is None or inv.peer.node != msg.node:
            self.drops["stranger"] += 1
            return
        if msg.what == "invite" and inv.state == "calling":
            inv.state = "ringing"
        elif (msg.what, inv.state) in (("answer", "answering"), ("cancel", "cancelling")):
            inv.state = "done"
            inv.message = b""
        else:
            self.drops["duplicate"] += 1

    def _incoming(self, invite: int) -> _Invitation:
        inv = self.invitations.get(invite)
        if inv is None or inv.outgoing or inv.state != "received":
            raise ValueError(f"no pending invitation {invite:x} to answer")
        return inv

    def _answer(self, inv: _Invitation, accept: bool, reason: str, key: bytes,
                now: float) -> None:
        inv.message = encode_discovery(
            Answer(self.node, inv.peer.node, inv.invite, accept, reason, key)
        )
        inv.state = "answering"
        inv.next_send = now
        inv.interval = self.config.retry_first
        inv.sent_since = now

    def _send_cancel(self, inv: _Invitation, now: float) -> None:
        inv.message = encode_discovery(Cancel(self.node, inv.peer.node, inv.invite))
        inv.state = "cancelling"
        inv.next_send = now
        inv.interval = self.config.retry_first
        inv.sent_since = now

    def _close(self, inv: _Invitation, reason: str, now: float) -> None:
        if not inv.cancelled:
            inv.cancelled = True
            if inv.state in ("calling", "ringing", "received"):
                inv.state = "done"
            self._emit(ev.InviteClosed(inv.invite, inv.peer, inv.outgoing, reason, now))

    def _invitation_timer(self, inv: _Invitation, now: float) -> None:
        if inv.outgoing and inv.state in ("calling", "ringing") and (
            now >= inv.created + self.config.invite_timeout
        ):
            self._send_cancel(inv, now)
            self._close(inv, "no answer", now)
        if inv.state in ("answering", "cancelling") and (
            now >= inv.sent_since + self.config.give_up_after
        ):
            inv.state = "done"
            inv.message = b""
        if inv.message and inv.state in ("calling", "answering", "cancelling") and (
            now >= inv.next_send
        ):
            self._out.append((inv.message, inv.peer.addr))
            inv.next_send = now + inv.interval
            inv.interval = min(self.config.retry_max, inv.interval * 2)
