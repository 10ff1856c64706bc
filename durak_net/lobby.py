"""Discovery and invitations, as a state machine with no I/O (like the session).

Every peer broadcasts an :class:`~durak_net.wire.Announce` about once a second (name,
random 64-bit node id, game port, rules) and forgets a peer silent for five seconds.
Its own announcements come back and are filtered by node id; datagrams of other
programs or protocol versions are dropped and counted.

Every discovery message is signed with the sender's node key, and a node id is that
key's hash (:func:`node_id`): a Cancel, a decline, a seat offer or refusal, an Ack come
from the node they name, and nobody takes over another's node id.  What strangers send
costs bounded work and leaves bounded state (:class:`LobbyConfig`'s limits): cheap
checks first, the signature last and only within a budget for unknown nodes, capped
tables, and unicast announcements answered one for one, so no forged source address
turns the lobby into a reflector.

Invitations fix the original design's lost ``stop_scan``: every Invite, Answer,
Confirm and Cancel is acknowledged (or answered) and resent with backoff until it is,
and an invitation that nobody answers ends with a reason after a timeout, so nobody
hangs.

Pairing.  The Invite carries a commitment to the inviter's X25519 key, the accepting
Answer the invitee's key, the Confirm the inviter's key itself and a proof that it
derived the session key, the Paired the invitee's proof.  Both sides then show the
same four words (the short authentication string): a man in the middle would hold a
different key on each side, and having committed to its key first it cannot search
for a pair that makes the words agree.  With a PIN, both sides also run SPAKE2 with
it and mix its key in: a wrong PIN (or anyone in the middle) fails the proofs.  The
session id is the invitation id.

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

import hashlib
import os
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from durak_core import Rules

from . import events as ev
from .crypto import (
    Entropy,
    KeyPair,
    Pin,
    key_commitment,
    pairing_proof,
    proof_ok,
    random_id,
    session_key,
    short_auth_string,
    transcript,
)
from .i18n import N_, Reason, Refusal
from .identity import Identity, verify
from .limits import Bucket, PerKey, put_capped
from .notes import OLDER_PEER
from .text import NAME_LIMIT, plain
from .wire import (
    PROTOCOL,
    PROTOCOL_VERSION,
    Ack,
    Announce,
    Answer,
    Cancel,
    Confirm,
    DiscoveryMessage,
    Invite,
    Join,
    Paired,
    TableInfo,
    WireError,
    decode_discovery,
    decode_old_announce,
    discovery_signature,
    encode_discovery,
)

Addr = tuple[str, int]

#: Destination of announcements: every broadcast address, on the discovery port.
BROADCAST: Addr = ("<broadcast>", 0)
#: What a node key signs: this label, then the discovery datagram up to its signature.
DISCOVERY_LABEL = b"durak-lan v4 lobby"
_NODE_LABEL = b"durak-lan v4 node"


def _name(text: str) -> str:
    """A name a peer sent, as we show and match it (see :mod:`durak_net.text`)."""
    return plain(text, NAME_LIMIT) or "(no name)"


def node_id(node_key: bytes) -> int:
    """A node's id: ``BLAKE2b-64("durak-lan v4 node" || node key)`` as a big-endian
    integer, so an id belongs to one key (finding another key with the same id is
    2**64 work).

    >>> node_id(bytes(32)) == node_id(bytes(32)) != node_id(bytes(31) + b"\\1")
    True
    """
    return int.from_bytes(hashlib.blake2b(_NODE_LABEL + node_key, digest_size=8).digest(),
                          "big")


@dataclass(frozen=True)
class LobbyConfig:
    """Timing of discovery and invitations (seconds)."""

    announce_every: float = 1.0
    forget_after: float = 5.0
    retry_first: float = 0.2
    retry_max: float = 2.0
    #: An invitation nobody answers is withdrawn after this long.
    invite_timeout: float = 60.0
    #: A seat offered to a peer that asked for it is withdrawn after this long: the
    #: joiner's lobby accepts at once, so a joiner that does not answer only holds the
    #: seat from others (a stranger asking for every seat and never sitting down).
    seat_offer_timeout: float = 15.0
    #: Give up resending an Answer or Cancel that is never acknowledged after this long.
    give_up_after: float = 30.0
    #: Forget a finished invitation after this long (until then, duplicates are re-acked).
    keep_done: float = 300.0
    #: Peers listed at most (a new node beyond it is dropped as ``peers_full``).
    max_peers: int = 64
    #: Discovery datagrams taken from one source address a second, and in a burst
    #: (beyond: ``rate_limited``); at most this many addresses are tracked.
    per_source_rate: float = 50.0
    per_source_burst: float = 100.0
    sources_tracked: int = 1024
    #: Announcements of nodes we do not know yet checked a second, and in a burst
    #: (each costs a signature check; beyond: ``new_node_limited``).
    new_node_rate: float = 16.0
    new_node_burst: float = 32.0
    #: Our announcements sent back, in all, to peers that announce themselves to us
    #: unicast (a second, and in a burst; at most one an interval per address).
    reply_rate: float = 20.0
    reply_burst: float = 40.0
    #: Invitations to us awaiting an answer, and invitations kept in all (beyond:
    #: ``invites_full``).
    max_pending_invites: int = 16
    max_invitations: int = 256


@dataclass
class _Peer:
    info: ev.PeerInfo
    last_seen: float
    addr_seen: float
    #: When it first appeared (``--invite NAME`` waits a little, so that a second
    #: peer announcing the same name is seen before anyone is invited).
    first_seen: float = 0.0


@dataclass
class _Invitation:
    invite: int
    peer: ev.PeerInfo
    outgoing: bool
    rules: Rules
    created: float
    keypair: KeyPair | None = None
    #: The inviter's key commitment (invitee side), then its key (both sides).
    commit: bytes = b""
    inviter_key: bytes = b""
    invitee_key: bytes = b""
    pin: Pin | None = None
    #: The invitation asks for a PIN (invitee side: one must be given to accept).
    wants_pin: bool = False
    inviter_spake: bytes = b""
    invitee_spake: bytes = b""
    key: bytes = b""
    #: "calling" (resending Invite), "ringing" (acked, awaiting answer), "confirming"
    #: (inviter resending Confirm), "received" (awaiting our answer), "answering"
    #: (resending Answer until the Confirm), "cancelling", "done".
    state: str = "calling"
    message: bytes = b""
    #: The invitee's Paired, sent again for every copy of the Confirm.
    paired: bytes = b""
    next_send: float = 0.0
    interval: float = 0.0
    sent_since: float = 0.0
    cancelled: bool = False
    accepted: bool = False
    #: The table this invitation seats at (0: a game of two) and the seat offered.
    table: int = 0
    seat: int = 1


@dataclass
class _Join:
    """Our request to sit at another peer's table, resent until acknowledged."""

    host: ev.PeerInfo
    table: int
    team: int
    created: float
    message: bytes
    next_send: float
    interval: float
    acked: bool = False


#: Invitation states in which a message is resent until it is answered.
_RESENDING = ("calling", "answering", "confirming", "cancelling")


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
        identity: Identity | None = None,
        config: LobbyConfig | None = None,
        ports: bool = True,
    ) -> None:
        name = plain(name, 41)
        if not 1 <= len(name) <= 40:
            raise Refusal(N_("the name must have 1 to 40 characters"))
        self.name = name
        self.game_port = game_port
        #: Are addresses ``(host, port)`` (UDP: a peer's announcements come from any port,
        #: and it is answered on the game port it announces)?  False for a carrier whose
        #: every address is one peer's own channel (``("rtc", 3)``): it is answered where
        #: its datagrams come from, and each address is a source of its own.
        self.ports = ports
        self.rules = rules
        self.config = config or LobbyConfig()
        self._entropy = entropy
        #: The node key: it signs every discovery message we send, and our node id is
        #: its hash, so nobody else can speak for (or announce) our node id.
        self.identity = identity or Identity.generate(entropy)
        self.node_key = self.identity.public
        self.node = node_id(self.node_key)
        self._announce_seq = 0
        #: The highest announcement number seen from each node (older ones are replays).
        self._seqs: dict[int, int] = {}
        self.peers: dict[int, _Peer] = {}
        self.invitations: dict[int, _Invitation] = {}
        #: Addresses (game ports) that get our announcement unicast every interval: the
        #: --connect targets.  A peer that announces itself to us unicast gets one of
        #: ours back for each of its own (:meth:`_answer_in_kind`): never more than it
        #: sent, so a forged source address cannot make us flood someone.
        self.direct: dict[Addr, float] = {}
        self._replied: dict[Addr, float] = {}
        self._replies = Bucket(self.config.reply_rate, self.config.reply_burst)
        self._per_source: PerKey[str] = PerKey(self.config.per_source_rate,
                                               self.config.per_source_burst,
                                               self.config.sources_tracked)
        self._new_nodes = Bucket(self.config.new_node_rate, self.config.new_node_burst)
        self.busy = False
        #: Rendezvous tags of the sessions we are resuming (see :func:`crypto.rendezvous_tag`).
        self.tags: list[bytes] = []
        #: The table we host, announced with us (None: not hosting).
        self.table: TableInfo | None = None
        #: Our requests to sit at other peers' tables, by table id.
        self.joins: dict[int, _Join] = {}
        self._join_requests: dict[tuple[int, int], float] = {}
        self.drops: Counter[str] = Counter()
        #: Signatures checked so far (the costly step a flood would aim at).
        self.signatures_checked = 0
        self._next_announce = now
        self._out: list[tuple[bytes, Addr]] = []
        self._events: list[Any] = []

    # ================================================================ public API

    def connect(self, addr: Addr) -> None:
        """Announce ourselves unicast to ``addr`` (a peer's game port), for networks
        where broadcasts do not reach; it answers in kind and appears as a peer."""
        self.direct[addr] = float("inf")
        self._next_announce = float("-inf")

    def invite(self, node: int, now: float, rules: Rules | None = None,
               pin: str | None = None, table: int = 0, seat: int = 1) -> int:
        """Invite a peer seen on the LAN; returns the invitation id.  With ``pin``, the
        invitee must type the same PIN to accept.  ``table`` and ``seat``: the seat of
        our table offered to a peer that asked to join (0: a game of two).
        ``ValueError`` if the peer is unknown or cannot play this version, or the PIN
        is not 4 to 12 digits."""
        peer = self.peers.get(node)
        if peer is None:
            raise Refusal(N_("no peer {peer} on the LAN (it may have left)"),
                          peer=f"{node:x}")
        if peer.info.incompatible:
            raise Refusal(N_("{name} {reason}"), name=peer.info.name,
                          reason=Reason(peer.info.incompatible))
        rules = rules or self.rules
        if table == 0 and rules.players != 2:
            raise Refusal(N_("an invitation is for a game of 2; host a table of {count} "
                             "and let players join it"), count=rules.players)
        pairing = Pin(pin, True, self._entropy) if pin is not None else None
        invite = random_id(self._entropy)
        keypair = KeyPair.generate(self._entropy)
        spake = pairing.message if pairing is not None else b""
        message = self._encode(
            Invite(self.node, self.node_key, node, invite, self.name, rules.to_dict(),
                   key_commitment(keypair.public), spake, table, seat)
        )
        self._introduce(peer.info.addr)
        self.invitations[invite] = _Invitation(
            invite, peer.info, True, rules, now, keypair=keypair, inviter_key=keypair.public,
            pin=pairing, wants_pin=pairing is not None, inviter_spake=spake, message=message,
            next_send=now, interval=self.config.retry_first, sent_since=now, table=table,
            seat=seat,
        )
        return invite

    def join(self, node: int, table: int, now: float, team: int = -1) -> None:
        """Ask a peer hosting ``table`` for a seat (its Invite for a seat is accepted by
        itself).  ``ValueError`` if the peer is unknown or hosts no such open table."""
        peer = self.peers.get(node)
        if peer is None:
            raise Refusal(N_("no peer {peer} on the LAN (it may have left)"),
                          peer=f"{node:x}")
        info = peer.info.table
        if info is None or info.get("table") != table:
            raise Refusal(N_("{name} hosts no table {table}"), name=peer.info.name,
                          table=f"{table:x}")
        if not info.get("open", True) or info.get("started"):
            raise Refusal(N_("{name}'s table takes no more players"), name=peer.info.name)
        message = self._encode(Join(self.node, self.node_key, node, table, self.name, team))
        self._introduce(peer.info.addr)
        self.joins[table] = _Join(peer.info, table, team, now, message, now,
                                  self.config.retry_first)

    def refuse_join(self, node: int, table: int, now: float, reason: str) -> None:
        """Host: tell a peer that asked to join that it gets no seat (and why)."""
        peer = self.peers.get(node)
        self._join_requests.pop((node, table), None)
        if peer is not None:
            self._send(Cancel(self.node, self.node_key, node, table, reason[:200]), peer.info.addr)

    def accept(self, invite: int, now: float, pin: str | None = None) -> None:
        """Accept an incoming invitation (with the PIN the inviter read out, if it asked
        for one).  :class:`~durak_net.events.SessionAgreed` follows once the inviter's
        Confirm proves both hold the same key.  ``ValueError`` for an unknown
        invitation, or a PIN missing or malformed."""
        inv = self._incoming(invite)
        if inv.wants_pin and pin is None:
            raise Refusal(N_("{name} asked for a PIN: type the PIN they read out"),
                          name=inv.peer.name)
        pairing = Pin(pin, False, self._entropy) if inv.wants_pin and pin is not None else None
        keypair = KeyPair.generate(self._entropy)
        inv.keypair = keypair
        inv.invitee_key = keypair.public
        inv.pin = pairing
        inv.invitee_spake = pairing.message if pairing is not None else b""
        self._answer(inv, True, "", keypair.public, now, inv.invitee_spake)
        inv.accepted = True

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

    def wants_pin(self, invite: int) -> bool:
        """Does this incoming invitation ask for a PIN?"""
        inv = self.invitations.get(invite)
        return inv is not None and inv.wants_pin

    def events(self) -> list[Any]:
        out, self._events = self._events, []
        return out

    # ================================================================ datagram I/O

    def receive(self, data: bytes, addr: Addr, now: float, direct: bool = False) -> None:
        """Take in one datagram (``direct``: it came unicast, not by broadcast).  Anything
        malformed, foreign, forged, addressed to another node, or beyond what a source
        may send is dropped and counted.  The cheap checks come first: the signature is
        checked last, and only for a node we know or have room and time for."""
        if not self._per_source.take(addr[0] if self.ports else repr(addr), now):
            self.drops["rate_limited"] += 1
            return
        try:
            message = decode_discovery(data)
        except WireError as exc:
            if exc.counter == "old_version":  # counted once there, by what it turns out to be
                self._on_old_announce(data, addr, now)
            else:
                self.drops[exc.counter] += 1
            return
        if message.node == self.node:
            self.drops["own"] += 1
            return
        if not isinstance(message, Announce) and message.to != self.node:
            self.drops["stranger"] += 1
            return
        if not isinstance(message, Announce) and message.node not in self.peers:
            # Only a peer that announced itself (so signed its node key) gets an answer.
            self.drops["unknown_node"] += 1
            return
        if not self._authentic(message, data, now):
            return
        if isinstance(message, Announce):
            self._on_announce(message, addr, now, direct)
            return
        if isinstance(message, Invite):
            self._on_invite(message, addr, now)
        elif isinstance(message, Join):
            self._on_join(message, addr, now)
        elif isinstance(message, Answer):
            self._on_answer(message, addr, now)
        elif isinstance(message, Confirm):
            self._on_confirm(message, addr, now)
        elif isinstance(message, Paired):
            self._on_paired(message, addr, now)
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
                twins = [p for p in self.peers.values() if p.info.name == peer.info.name]
                if len(twins) == 1:
                    twins[0].info = replace(twins[0].info, same_name=False)
                    self._emit(ev.PeerSeen(twins[0].info, now))
                self._emit(ev.PeerGone(peer.info, now))
                for inv in list(self.invitations.values()):
                    if inv.peer.node == node and inv.state in ("calling", "ringing", "received"):
                        self._close(inv, f"{peer.info.name} left", now)
        for join in list(self.joins.values()):
            if not join.acked and now >= join.next_send:
                self._out.append((join.message, join.host.addr))
                join.next_send = now + join.interval
                join.interval = min(self.config.retry_max, join.interval * 2)
            if now >= join.created + self.config.invite_timeout:
                del self.joins[join.table]
                self._emit(ev.InviteClosed(join.table, join.host, True, "no seat offered", now))
        for inv in list(self.invitations.values()):
            self._invitation_timer(inv, now)
            if inv.state == "done" and now >= inv.created + self.config.keep_done:
                del self.invitations[inv.invite]

    def next_timer(self) -> float | None:
        times = [self._next_announce]
        times += [p.last_seen + self.config.forget_after for p in self.peers.values()]
        for join in self.joins.values():
            times.append(join.created + self.config.invite_timeout)
            if not join.acked:
                times.append(join.next_send)
        for inv in self.invitations.values():
            if inv.message and inv.state in _RESENDING:
                times.append(inv.next_send)
            if inv.outgoing and inv.state in ("calling", "ringing"):
                times.append(inv.created + self._timeout(inv))
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

    def sign_discovery(self, unsigned: bytes) -> bytes:
        """Our node key's signature over a discovery datagram's bytes (see
        :data:`DISCOVERY_LABEL`)."""
        return self.identity.sign(DISCOVERY_LABEL, unsigned)

    def _encode(self, message: DiscoveryMessage) -> bytes:
        return encode_discovery(message, self.sign_discovery)

    def _send(self, message: DiscoveryMessage, addr: Addr) -> None:
        self._out.append((self._encode(message), addr))

    def _announcement(self) -> bytes:
        """Our announcement, numbered after the last."""
        self._announce_seq += 1
        return self._encode(
            Announce(PROTOCOL, PROTOCOL_VERSION, self.node, self.node_key, self._announce_seq,
                     self.name, self.game_port,
                     self.rules.to_dict(), self.busy, self.tags[:8], self.table)
        )

    def _announce(self, now: float) -> None:
        data = self._announcement()
        self._out.append((data, BROADCAST))
        for addr in self.direct:
            self._out.append((data, addr))
        self._next_announce = now + self.config.announce_every

    def _authentic(self, message: DiscoveryMessage, data: bytes, now: float) -> bool:
        """Does ``message`` come from the node it names?  Its node id must be the hash
        of the key it carries (else ``impostor``: someone announcing or speaking for
        another's node id), and the key must have signed the datagram (else
        ``bad_signature``: a forged or altered message).  Replayed announcements are
        ``replay``."""
        if node_id(message.node_key) != message.node:
            self.drops["impostor"] += 1
            return False
        if isinstance(message, Announce):
            if message.seq <= self._seqs.get(message.node, 0):
                self.drops["replay"] += 1  # before the signature: a copy costs nothing
                return False
            known = self.peers.get(message.node)
            if known is not None and now < known.last_seen + self.config.announce_every / 4:
                self.drops["too_often"] += 1
                return False
            if known is None and len(self.peers) >= self.config.max_peers:
                self.drops["peers_full"] += 1
                return False
            if known is None and not self._new_nodes.take(now):
                self.drops["new_node_limited"] += 1
                return False
        signed, signature = discovery_signature(data)
        self.signatures_checked += 1
        if not verify(message.node_key, signature, DISCOVERY_LABEL, signed):
            self.drops["bad_signature"] += 1
            return False
        return True

    def _on_announce(self, msg: Announce, addr: Addr, now: float, direct: bool) -> None:
        if msg.proto != PROTOCOL or msg.version != PROTOCOL_VERSION:
            self.drops["foreign"] += 1
            return
        put_capped(self._seqs, msg.node, msg.seq, 4 * self.config.max_peers)
        try:
            rules = Rules.from_dict(dict(msg.rules))
        except (TypeError, ValueError):
            self.drops["malformed"] += 1
            return
        peer_addr = (addr[0], msg.port) if self.ports else addr
        if direct:
            self._answer_in_kind(peer_addr, now)
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
        table = None
        if msg.table is not None:
            if len(msg.table.seats) != rules.players:
                self.drops["malformed"] += 1
                return
            table = {"table": msg.table.table,
                     "seats": tuple(_name(n) if n else "" for n in msg.table.seats),
                     "clock": msg.table.clock, "grace": msg.table.grace,
                     "started": msg.table.started, "open": msg.table.open}
        info = ev.PeerInfo(msg.node, _name(msg.name), peer_addr, rules.to_dict(), msg.busy,
                           tuple(msg.tags), table=table)
        self._seen(msg.node, info, known, now)

    def _introduce(self, addr: Addr) -> None:
        """Announce ourselves to a peer we are about to invite or ask for a seat: it
        answers only nodes it has heard announce, and may not hear our broadcasts."""
        self._out.append((self._announcement(), addr))

    def _answer_in_kind(self, addr: Addr, now: float) -> None:
        """A peer announced itself to us unicast: it may not hear our broadcasts, so
        send it one announcement back (at most one an interval per address, and a
        bounded number in all; none to a --connect target, which gets them anyway)."""
        if addr in self.direct or now < self._replied.get(addr, float("-inf")) + (
                self.config.announce_every * 0.9):
            return
        if not self._replies.take(now):
            self.drops["replies_limited"] += 1
            return
        put_capped(self._replied, addr, now, self.config.sources_tracked)
        self._out.append((self._announcement(), addr))

    def _seen(self, node: int, info: ev.PeerInfo, known: _Peer | None, now: float) -> None:
        """Take in a peer's announcement; say when two peers announce the same name."""
        twins = [p for n, p in self.peers.items() if n != node and p.info.name == info.name]
        info = replace(info, same_name=bool(twins))
        for twin in twins:
            if not twin.info.same_name:
                twin.info = replace(twin.info, same_name=True)
                self._emit(ev.PeerSeen(twin.info, now))
        if known is None:
            self.peers[node] = _Peer(info, now, now, now)
            self._emit(ev.PeerSeen(info, now))
            return
        known.last_seen = now
        if info != known.info:
            known.info = info
            known.addr_seen = now
            self._emit(ev.PeerSeen(info, now))

    def _on_old_announce(self, data: bytes, addr: Addr, now: float) -> None:
        """An announcement of an older protocol: counted ``old_version`` and listed as
        an older durak, or counted as what else it is (a claim on a current peer's node
        id, or no room): one count a datagram."""
        old = decode_old_announce(data)
        if old is None or old.node == self.node:
            self.drops["old_version"] += 1
            return
        known = self.peers.get(old.node)
        if known is not None and not known.info.incompatible:
            self.drops["impostor"] += 1  # an unsigned claim on a current peer's node id
            return
        if known is None and len(self.peers) >= self.config.max_peers:
            self.drops["peers_full"] += 1
            return
        self.drops["old_version"] += 1
        info = ev.PeerInfo(old.node, _name(old.name), addr, {},
                           incompatible=OLDER_PEER.format(version=old.version))
        self._seen(old.node, info, self.peers.get(old.node), now)

    def _peer_from(self, node: int, name: str, addr: Addr, rules: Rules) -> ev.PeerInfo:
        known = self.peers.get(node)
        if known is not None:
            return known.info
        return ev.PeerInfo(node, _name(name), addr, rules.to_dict())

    def _on_invite(self, msg: Invite, addr: Addr, now: float) -> None:
        if msg.invite not in self.invitations:
            waiting = [i for i in self.invitations.values()
                       if not i.outgoing and i.state == "received"]
            if (len(waiting) >= self.config.max_pending_invites
                    or len(self.invitations) >= self.config.max_invitations
                    or any(i.peer.node == msg.node for i in waiting)):
                self.drops["invites_full"] += 1  # not acknowledged: it may come again
                return
        self._send(Ack(self.node, self.node_key, msg.node, msg.invite, "invite"), addr)
        if msg.invite in self.invitations:
            self.drops["duplicate"] += 1
            return
        try:
            rules = Rules.from_dict(dict(msg.rules))
        except (TypeError, ValueError) as exc:
            self._send(Answer(self.node, self.node_key, msg.node, msg.invite, False,
                              f"unusable rules: {exc}"[:200]), addr)
            self.drops["malformed"] += 1
            return
        peer = replace(self._peer_from(msg.node, msg.name, addr, rules), addr=addr)
        inv = _Invitation(msg.invite, peer, False, rules, now, commit=msg.commit,
                          wants_pin=bool(msg.spake), inviter_spake=msg.spake, state="received",
                          table=msg.table, seat=msg.seat)
        self.invitations[msg.invite] = inv
        if not 0 < msg.seat < rules.players or (msg.table == 0 and rules.players != 2):
            self._answer(inv, False, "an invitation for a seat the rules do not have", b"",
                         now)
            self._close(inv, f"the invitation offered seat {msg.seat} of {rules.players}", now)
            return
        join = self.joins.get(msg.table) if msg.table else None
        if msg.table and (join is None or join.host.node != msg.node):
            self._answer(inv, False, "we did not ask to join that table", b"", now)
            self._close(inv, "an unrequested seat", now, force=True)
            return
        if join is not None and not inv.wants_pin:
            del self.joins[msg.table]  # the seat we asked for: take it
            self.accept(msg.invite, now)
            return
        self._emit(ev.InviteReceived(msg.invite, peer, rules, now, pin=inv.wants_pin,
                                     table=msg.table, seat=msg.seat))

    def _on_join(self, msg: Join, addr: Addr, now: float) -> None:
        self._send(Ack(self.node, self.node_key, msg.node, msg.table, "join"), addr)
        table = self.table
        if table is None or table.table != msg.table:
            self._send(Cancel(self.node, self.node_key, msg.node, msg.table,
                              "no such table here"), addr)
            return
        if (msg.node, msg.table) in self._join_requests:
            self.drops["duplicate"] += 1
            return
        put_capped(self._join_requests, (msg.node, msg.table), now, 4 * self.config.max_peers)
        self._emit(ev.JoinRequested(msg.table, self.peers[msg.node].info, msg.team, now))

    def _on_answer(self, msg: Answer, addr: Addr, now: float) -> None:
        inv = self.invitations.get(msg.invite)
        if inv is None or not inv.outgoing or inv.peer.node != msg.node:
            self.drops["stranger"] += 1
            return
        self._send(Ack(self.node, self.node_key, msg.node, msg.invite, "answer"), addr)
        if inv.state not in ("calling", "ringing"):
            self.drops["duplicate"] += 1
            return
        if not msg.accept:
            self._close(inv, plain(msg.reason) or "declined", now)
            return
        assert inv.keypair is not None
        try:
            shared = inv.keypair.exchange(msg.key)
            pin_key = b""
            if inv.pin is not None:
                pin_key = inv.pin.key(msg.spake)
        except ValueError:
            self._send_cancel(inv, now)
            self._close(inv, "the answer's key is invalid", now)
            return
        inv.invitee_key = msg.key
        inv.invitee_spake = msg.spake
        inv.key = session_key(shared, pin_key, inv.invite)
        proof = pairing_proof(inv.key, True, self._transcript(inv))
        inv.peer = replace(inv.peer, addr=addr)
        inv.message = self._encode(Confirm(self.node, self.node_key, inv.peer.node, inv.invite,
                                               inv.inviter_key, proof))
        inv.state = "confirming"
        inv.next_send = now
        inv.interval = self.config.retry_first
        inv.sent_since = now

    @staticmethod
    def _transcript(inv: _Invitation) -> bytes:
        return transcript(inv.invite, inv.inviter_key, inv.invitee_key, inv.inviter_spake,
                          inv.invitee_spake)

    def _on_confirm(self, msg: Confirm, addr: Addr, now: float) -> None:
        inv = self.invitations.get(msg.invite)
        if inv is None or inv.outgoing or inv.peer.node != msg.node or not inv.accepted:
            self.drops["stranger"] += 1
            return
        if inv.paired:  # a copy: our Paired was lost
            self._out.append((inv.paired, addr))
            return
        if inv.state != "answering":
            self.drops["duplicate"] += 1
            return
        failure = ""
        if key_commitment(msg.key) != inv.commit:
            failure = "the inviter's key does not match its commitment: someone is in the middle"
        else:
            inv.inviter_key = msg.key
            assert inv.keypair is not None
            try:
                shared = inv.keypair.exchange(msg.key)
                pin_key = inv.pin.key(inv.inviter_spake) if inv.pin is not None else b""
            except ValueError:
                failure = "the inviter's key is invalid"
            else:
                inv.key = session_key(shared, pin_key, inv.invite)
                if not proof_ok(inv.key, True, self._transcript(inv), msg.proof):
                    failure = ("the PIN does not match, or someone is in the middle"
                               if inv.pin is not None else
                               "the pairing proof is wrong: someone is in the middle")
        if failure:
            inv.paired = self._encode(Paired(self.node, self.node_key, inv.peer.node,
                                             inv.invite, False, b"", failure))
            self._out.append((inv.paired, addr))
            inv.state = "done"
            inv.message = b""
            self._close(inv, f"pairing failed: {failure}", now, force=True)
            return
        proof = pairing_proof(inv.key, False, self._transcript(inv))
        inv.paired = self._encode(Paired(self.node, self.node_key, inv.peer.node, inv.invite,
                                         True, proof))
        self._out.append((inv.paired, addr))
        inv.state = "done"
        inv.message = b""
        peer = replace(inv.peer, addr=addr)
        self._emit(ev.SessionAgreed(inv.invite, False, peer, inv.key, inv.rules, now,
                                    self._sas(inv), inv.pin is not None, inv.table, inv.seat))

    def _on_paired(self, msg: Paired, addr: Addr, now: float) -> None:
        inv = self.invitations.get(msg.invite)
        if inv is None or not inv.outgoing or inv.peer.node != msg.node:
            self.drops["stranger"] += 1
            return
        if inv.state != "confirming":
            self.drops["duplicate"] += 1
            return
        inv.state = "done"
        inv.message = b""
        if not msg.ok:
            self._close(inv, f"pairing failed: {plain(msg.reason) or 'refused by the invitee'}",
                        now,
                        force=True)
            return
        if not proof_ok(inv.key, False, self._transcript(inv), msg.proof):
            failure = ("the PIN does not match, or someone is in the middle"
                       if inv.pin is not None else "the invitee's proof is wrong: someone is "
                       "in the middle")
            self._close(inv, f"pairing failed: {failure}", now, force=True)
            return
        peer = replace(inv.peer, addr=addr)
        self._emit(ev.SessionAgreed(inv.invite, True, peer, inv.key, inv.rules, now,
                                    self._sas(inv), inv.pin is not None, inv.table, inv.seat))

    @staticmethod
    def _sas(inv: _Invitation) -> str:
        return short_auth_string(inv.invite, inv.inviter_key, inv.invitee_key)

    def _on_cancel(self, msg: Cancel, addr: Addr, now: float) -> None:
        self._send(Ack(self.node, self.node_key, msg.node, msg.invite, "cancel"), addr)
        join = self.joins.get(msg.invite)
        if join is not None and join.host.node == msg.node:  # no seat for us
            del self.joins[msg.invite]
            self._emit(ev.InviteClosed(msg.invite, join.host, True,
                                       plain(msg.reason) or "the host gave no seat", now))
            return
        inv = self.invitations.get(msg.invite)
        if inv is None or inv.outgoing or inv.peer.node != msg.node:
            return
        if inv.state in ("received", "answering"):
            inv.message = b""
            self._close(inv, "cancelled by the inviter", now, force=True)
        elif inv.accepted and not inv.cancelled:
            # We accepted, but the inviter had already given up: the session we started
            # has nobody on the other side; the driver closes it on this event.
            inv.cancelled = True
            self._emit(ev.InviteClosed(inv.invite, inv.peer, False, "cancelled by the inviter",
                                       now))

    def _on_ack(self, msg: Ack | Join, now: float) -> None:
        if isinstance(msg, Join):  # pragma: no cover (dispatched to _on_join)
            return
        join = self.joins.get(msg.invite)
        if msg.what == "join" and join is not None and join.host.node == msg.node:
            join.acked = True
            return
        inv = self.invitations.get(msg.invite)
        if inv is None or inv.peer.node != msg.node:
            self.drops["stranger"] += 1
            return
        if msg.what == "invite" and inv.state == "calling":
            inv.state = "ringing"
        elif (msg.what, inv.state) == ("answer", "answering") and inv.accepted:
            inv.message = b""  # received: now the inviter's Confirm is awaited
        elif (msg.what, inv.state) in (("answer", "answering"), ("cancel", "cancelling")):
            inv.state = "done"
            inv.message = b""
        else:
            self.drops["duplicate"] += 1

    def _incoming(self, invite: int) -> _Invitation:
        inv = self.invitations.get(invite)
        if inv is None or inv.outgoing or inv.state != "received":
            raise Refusal(N_("no pending invitation {invite} to answer"),
                          invite=f"{invite:x}")
        return inv

    def _answer(self, inv: _Invitation, accept: bool, reason: str, key: bytes,
                now: float, spake: bytes = b"") -> None:
        inv.message = self._encode(
            Answer(self.node, self.node_key, inv.peer.node, inv.invite, accept, reason, key, spake)
        )
        inv.state = "answering"
        inv.next_send = now
        inv.interval = self.config.retry_first
        inv.sent_since = now

    def _send_cancel(self, inv: _Invitation, now: float) -> None:
        inv.message = self._encode(Cancel(self.node, self.node_key, inv.peer.node, inv.invite))
        inv.state = "cancelling"
        inv.next_send = now
        inv.interval = self.config.retry_first
        inv.sent_since = now

    def _close(self, inv: _Invitation, reason: str, now: float, force: bool = False) -> None:
        if not inv.cancelled:
            inv.cancelled = True
            closing = force or inv.state in ("calling", "ringing", "received", "confirming")
            if closing and inv.state != "cancelling":
                inv.state = "done"
            self._emit(ev.InviteClosed(inv.invite, inv.peer, inv.outgoing, reason, now))

    def _timeout(self, inv: _Invitation) -> float:
        """How long an invitation of ours waits for its answer (a seat offer: shorter)."""
        return self.config.seat_offer_timeout if inv.table else self.config.invite_timeout

    def _invitation_timer(self, inv: _Invitation, now: float) -> None:
        if inv.outgoing and inv.state in ("calling", "ringing") and (
            now >= inv.created + self._timeout(inv)
        ):
            self._send_cancel(inv, now)
            self._close(inv, "no answer", now)
        if inv.state in ("answering", "confirming", "cancelling") and (
            now >= inv.sent_since + self.config.give_up_after
        ):
            if inv.state == "confirming":
                self._close(inv, "the pairing was never confirmed", now, force=True)
            elif inv.state == "answering" and inv.accepted:
                self._close(inv, "the inviter never confirmed", now, force=True)
            inv.state = "done"
            inv.message = b""
        if inv.message and inv.state in _RESENDING and now >= inv.next_send:
            self._out.append((inv.message, inv.peer.addr))
            inv.next_send = now + inv.interval
            inv.interval = min(self.config.retry_max, inv.interval * 2)
