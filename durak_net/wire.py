"""The bytes on the wire: every datagram's schema, size limit and framing.

Two kinds of datagram share one 4-byte header, ``b"DK"``, the wire version and a kind
byte, so a stray datagram from another program is recognised and dropped cheaply::

    discovery:  b"DK" 0x06 b"D"  msgpack(Announce | Join | Invite | Answer | Confirm
                                         | Paired | Cancel | Ack)  signature (64 bytes)
    session:    b"DK" 0x06 b"S"  sid (8 bytes, big-endian)  tag (16 bytes)  msgpack(Packet)

Discovery messages travel in clear (they are what lets two strangers meet), but each
is signed: every message carries its sender's Ed25519 node key, the node id is a hash
of that key, and the 64 bytes after the message are the key's signature over all the
bytes before them (see :mod:`durak_net.lobby`), so nobody can speak for another node
id, nor take it over.  Session
datagrams are authenticated: ``tag`` is a keyed BLAKE2b over the header, the sender's
seat and the body, with the session key the two peers agreed by X25519 (and, with a
PIN, SPAKE2) during the invitation (see :mod:`durak_net.crypto`), so a third host
cannot inject or alter moves.  docs/lan-protocol.md is the specification of every
byte; this module implements it.

The schema is written as msgspec Structs (tagged unions, encoded as msgpack arrays).
Decoding validates types and lengths; anything that fails is dropped and counted by
the caller, never raised into the notebook.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Annotated, Any, Final

import msgspec
from msgspec import Meta, Struct

#: Every datagram of the protocol starts with these two bytes.
MAGIC: Final = b"DK"
#: Version of the framing below; a datagram of another version is dropped (an
#: announcement of an older version is recognised, so the lobby can say the peer runs
#: an older durak).
WIRE_VERSION: Final = 6
OLD_WIRE_VERSIONS: Final = (1, 2, 3, 4, 5)
#: Older versions whose announcements are signed as this one's are (4 on).
SIGNED_ANNOUNCE_VERSIONS: Final = (4, 5)
#: Name and version announced in discovery, so other LAN games on port 37020 are ignored.
PROTOCOL: Final = "durak-lan"
PROTOCOL_VERSION: Final = 6
#: Largest datagram sent or accepted: fits one Ethernet frame with room for tunnels.
MAX_DATAGRAM: Final = 1200
#: Default UDP port of discovery broadcasts (the tutorial's port).
DISCOVERY_PORT: Final = 37020

KIND_DISCOVERY: Final = b"D"
KIND_SESSION: Final = b"S"
HEADER: Final = MAGIC + bytes([WIRE_VERSION])
SID_BYTES: Final = 8
TAG_BYTES: Final = 16
SESSION_PREFIX: Final = len(HEADER) + 1 + SID_BYTES + TAG_BYTES

U64 = Annotated[int, Meta(ge=0)]
"""A non-negative integer that fits 64 bits (msgspec enforces the upper bound when
encoding and decoding: msgpack integers stop at 2**64 - 1)."""
Count = Annotated[int, Meta(ge=0, le=1_000_000)]
Name = Annotated[str, Meta(min_length=1, max_length=40)]
Reason = Annotated[str, Meta(max_length=200)]
ActionText = Annotated[str, Meta(min_length=1, max_length=64)]
Key = Annotated[bytes, Meta(min_length=32, max_length=32)]
Hash16 = Annotated[bytes, Meta(min_length=16, max_length=16)]
Tag8 = Annotated[bytes, Meta(min_length=8, max_length=8)]
#: A SPAKE2 message (33 bytes with the library's ed25519 group; empty without a PIN).
SpakeMessage = Annotated[bytes, Meta(max_length=64)]
Seat = Annotated[int, Meta(ge=0, le=5)]
Signature = Annotated[bytes, Meta(min_length=64, max_length=64)]
MaybeSignature = Annotated[bytes, Meta(max_length=64)]


class TableInfo(Struct, array_like=True, frozen=True):
    """A table being hosted: who sits where ("" for an open seat), the move clock
    (seconds, 0 for none), the grace period before a lost seat may go to a bot
    (seconds), whether play has started, and whether it takes players."""

    table: U64
    seats: Annotated[list[Annotated[str, Meta(max_length=40)]], Meta(min_length=2,
                                                                        max_length=6)]
    clock: Annotated[int, Meta(ge=0, le=3600)] = 0
    grace: Annotated[int, Meta(ge=0, le=3600)] = 60
    started: bool = False
    open: bool = True
RuleValue = bool | int | str | None
RulesDict = Annotated[dict[Annotated[str, Meta(max_length=40)], RuleValue], Meta(max_length=16)]


# ------------------------------------------------------------------ discovery


class Announce(Struct, tag="announce", array_like=True, frozen=True):
    """"I am here": broadcast about once a second, and sent unicast to `connect` peers.

    ``node_key`` is the sender's Ed25519 node key (``node`` must be its hash), ``seq`` counts the
    sender's announcements: a copy or an older one (a replay) changes nothing.

    ``port`` is the sender's game port (unicast traffic goes there, never to the shared
    discovery port, where the kernel would hand it to just one of the listeners).
    ``tags`` are rendezvous tags of sessions the sender is resuming: 8 bytes derived
    from each session's key, which only the other peer of that session recognises (a
    peer whose address changed is found again; nobody else learns anything).
    """

    proto: Annotated[str, Meta(max_length=32)]
    version: int
    node: U64
    node_key: Key
    seq: U64
    name: Name
    port: Annotated[int, Meta(ge=1, le=65535)]
    rules: RulesDict
    busy: bool = False
    tags: Annotated[list[Tag8], Meta(max_length=8)] = []
    table: TableInfo | None = None


class Join(Struct, tag="join", array_like=True, frozen=True):
    """"Seat me at your table" (``team``: the team wanted with ``Rules(teams=True)``,
    -1 for any).  The host answers with an Invite for a seat, or a Cancel with no seat."""

    node: U64
    node_key: Key
    to: U64
    table: U64
    name: Name
    team: Annotated[int, Meta(ge=-1, le=2)] = -1


class Invite(Struct, tag="invite", array_like=True, frozen=True):
    """``node`` invites ``to`` to a game with ``rules``.

    ``commit`` is a hash of the inviter's X25519 public key, which it reveals only in
    :class:`Confirm`, after the invitee's key is fixed: a man in the middle cannot then
    choose keys that make the two short authentication strings agree.  With a PIN,
    ``spake`` is the inviter's SPAKE2 message.
    """

    node: U64
    node_key: Key
    to: U64
    invite: U64
    name: Name
    rules: RulesDict
    commit: Key
    spake: SpakeMessage = b""
    table: U64 = 0
    seat: Annotated[int, Meta(ge=1, le=5)] = 1


class Answer(Struct, tag="answer", array_like=True, frozen=True):
    """The invitee's answer; on accept, ``key`` is its X25519 public key (and ``spake``
    its SPAKE2 message when the invitation asked for a PIN)."""

    node: U64
    node_key: Key
    to: U64
    invite: U64
    accept: bool
    reason: Reason = ""
    key: bytes = b""
    spake: SpakeMessage = b""


class Confirm(Struct, tag="confirm", array_like=True, frozen=True):
    """Inviter -> invitee: its X25519 public key (opening ``commit``) and a tag proving
    it derived the session key."""

    node: U64
    node_key: Key
    to: U64
    invite: U64
    key: Key
    proof: Hash16


class Paired(Struct, tag="paired", array_like=True, frozen=True):
    """Invitee -> inviter: the pairing worked (``proof`` shows the invitee holds the same
    key) or failed (``reason``: a wrong PIN, or someone in the middle)."""

    node: U64
    node_key: Key
    to: U64
    invite: U64
    ok: bool
    proof: bytes = b""
    reason: Reason = ""


class Cancel(Struct, tag="cancel", array_like=True, frozen=True):
    """The inviter withdraws an invitation (the invitee drops its Accept/Decline prompt);
    a host that cannot seat a Join answers with one too (``invite`` = the table id)."""

    node: U64
    node_key: Key
    to: U64
    invite: U64
    reason: Reason = ""


class Ack(Struct, tag="ack", array_like=True, frozen=True):
    """Receipt of a Join, Invite, Answer or Cancel (``what`` names which): stops its
    retries."""

    node: U64
    node_key: Key
    to: U64
    invite: U64
    what: Annotated[str, Meta(max_length=16)]


DiscoveryMessage = Announce | Join | Invite | Answer | Confirm | Paired | Cancel | Ack


class OldAnnounce(Struct, array_like=True, frozen=True):
    """An announcement of an older wire version, read only to say who runs an older
    durak."""

    tag: str
    proto: str
    version: int
    node: U64
    name: Name


# ------------------------------------------------------------------ session frames
# Every frame is sent reliably: ``seq`` numbers the sender's stream (1, 2, 3...).


class Sync(Struct, tag="sync", array_like=True, frozen=True):
    """First frame of every stream: where the sender stands (for resuming after a restart)."""

    seq: U64
    game: Count
    log_len: Count


class Hello(Struct, tag="hello", array_like=True, frozen=True):
    """A seated player to the host, first thing on every stream: its seat, name and the
    public key its messages to the table are signed with; ``addr`` (``"ip:port"``,
    signed by it: ``addr_sig``): where the other seats send it their heartbeats."""

    seq: U64
    seat: Seat
    name: Name
    sign_key: Key
    addr: Annotated[str, Meta(max_length=64)] = ""
    addr_sig: MaybeSignature = b""


class SeatInfo(Struct, array_like=True, frozen=True):
    """One seat of a table: its player's name and signing key (empty for an open seat)
    and kind: ``"host"``, ``"player"``, ``"bot"`` or ``"open"``."""

    seat: Seat
    name: Annotated[str, Meta(max_length=40)]
    sign_key: Annotated[bytes, Meta(max_length=32)]
    kind: Annotated[str, Meta(max_length=8)]
    addr: Annotated[str, Meta(max_length=64)] = ""
    addr_sig: MaybeSignature = b""


class Seating(Struct, tag="seating", array_like=True, frozen=True):
    """Host -> every seat: the table (each seat's player and key), the move clock and
    the grace period (seconds, 0: none), and whether play has started."""

    seq: U64
    table: U64
    seats: Annotated[list[SeatInfo], Meta(min_length=2, max_length=6)]
    clock: Annotated[int, Meta(ge=0, le=3600)]
    grace: Annotated[int, Meta(ge=0, le=3600)]
    start: bool


class Deal(Struct, tag="deal", array_like=True, frozen=True):
    """A message of seat ``seat``'s dealer for game ``game`` (opaque to the session; its
    schema is the dealer's, see :mod:`durak_net.dealer`), signed by that seat."""

    seq: U64
    game: Count
    seat: Seat
    data: Annotated[bytes, Meta(max_length=760)]
    sig: Signature


#: The link hash of a game's log up to an entry (section 7; empty before the first).
LinkHash = Annotated[bytes, Meta(max_length=32)]

#: A card opened by its holder: ``[position, key]`` (the position the deal gave it, the
#: holder's 32-byte key for that position).
Reveal = tuple[Annotated[int, Meta(ge=0, le=51)], Key]
Reveals = Annotated[list[Reveal], Meta(max_length=6)]


class Propose(Struct, tag="propose", array_like=True, frozen=True):
    """A seated player -> the host: "please place my move" (proposal ``pid``), as a
    commitment (``commit``: a hash of a salt, the action and its reveals, see
    :mod:`durak_net.proposals`), the length of the log it has seen and the hash after
    its last entry, all signed.  The host sees no card of it before it places it."""

    seq: U64
    pid: U64
    game: Count
    commit: Key
    seen: Count
    seen_hash: LinkHash
    sig: Signature


class Order(Struct, tag="order", array_like=True, frozen=True):
    """Host -> the proposer: proposal ``pid`` of game ``game`` is entry ``index`` (the
    log it was made on), signed by the host; only now does the proposer open it."""

    seq: U64
    pid: U64
    game: Count
    index: Count
    sig: Signature


Salt = Annotated[bytes, Meta(min_length=16, max_length=16)]


class Open(Struct, tag="open", array_like=True, frozen=True):
    """The proposer -> the host: the move of placed proposal ``pid``, the reveals of the
    cards it opens and the salt of its commitment."""

    seq: U64
    pid: U64
    action: ActionText
    reveals: Reveals
    salt: Salt


class Entry(Struct, tag="entry", array_like=True, frozen=True):
    """Host -> every seat: log entry ``index`` of game ``game``, the hash of the public
    state after it, and the reveals of the cards the action opened.

    An action of another seat carries its proposal: ``pid``, ``seen``, ``seen_hash``
    and ``sig`` as the proposer signed them, and the ``salt`` that opens its commitment
    (``pid`` 0 and an empty ``sig`` and ``salt`` for the host's own actions and for what
    the host plays for a seat: ``forced`` then says why, ``"timeout"``).  ``prev`` is the
    link hash of the log before it and ``host_sig`` the host's signature over the
    entry and ``prev`` (see :mod:`durak_net.entry_sig`): two entries the host signed
    that do not make one log prove that it told seats different logs."""

    seq: U64
    game: Count
    index: Count
    action: ActionText
    hash: Hash16
    pid: U64
    reveals: Reveals
    seen: Count
    seen_hash: LinkHash
    sig: MaybeSignature
    forced: Annotated[str, Meta(max_length=16)] = ""
    salt: Annotated[bytes, Meta(max_length=16)] = b""
    prev: LinkHash = b""
    host_sig: MaybeSignature = b""


class Refused(Struct, tag="refused", array_like=True, frozen=True):
    """Host -> the proposer: proposal ``pid`` was not applied, and why; ``at``: the
    length of the proposal's game's log when the host refused it (more than the log the
    proposal was made on, or the refusal is a fault of the host); ``sig``: the host's
    signature over it (see :func:`durak_net.proposals.refused_signed`), so that the
    proposer can show it to every seat."""

    seq: U64
    pid: U64
    reason: Reason
    at: Count = 0
    sig: MaybeSignature = b""


#: The most bytes one item of a Fault's evidence may take: the longest frame a Fault
#: carries (an Entry or an Open of six cards) fits; the finder shortens its ``detail`` so
#: that the whole Fault fits one datagram (:data:`FAULT_BYTES`).
EVIDENCE_ITEM_BYTES: Final = 700
#: The most bytes an encoded Fault may take (a datagram, less the packet's overhead).
FAULT_BYTES: Final = 820


class Head(Struct, tag="head", array_like=True, frozen=True):
    """Evidence only (never sent as a frame): entry ``index`` of game ``game`` as the host
    signed it, without the entry itself: the link hash before it (``prev``), the
    entry's digest and the host's signature.  Two heads that do not make one log prove
    that the host told seats different logs (see :mod:`durak_net.entry_sig`)."""

    game: Count
    index: Count
    prev: LinkHash
    digest: Key
    sig: Signature


class Fault(Struct, tag="fault", array_like=True, frozen=True):
    """"Game ``game`` stops after entry ``index``: seat ``seat`` broke the deal or the
    rules (``code``, ``detail``)", as seat ``by`` found and signed (``sig``); the host
    passes a seat's Fault on to every seat, unchanged.  All then publish their seeds for
    the audit.  ``evidence``: signed messages (msgpack-encoded frames) that let every
    seat check the claim itself (section 8)."""

    seq: U64
    game: Count
    index: Count
    seat: Seat
    code: Annotated[str, Meta(max_length=24)]
    detail: Reason
    by: Seat
    sig: MaybeSignature = b""
    evidence: Annotated[list[Annotated[bytes, Meta(max_length=EVIDENCE_ITEM_BYTES)]],
                        Meta(max_length=3)] = []


#: The most bytes of a Status's evidence: a seat's signed Bye (its reason cut to
#: :data:`BYE_REASON_BYTES`, a link hash, a signature) fits.
BYE_EVIDENCE_BYTES: Final = 400
#: The most UTF-8 bytes of the reason a leaving seat signs (so its Bye fits as evidence).
BYE_REASON_BYTES: Final = 200


class Status(Struct, tag="status", array_like=True, frozen=True):
    """Host -> every seat: seat ``seat``'s connection is ``"lost"``, ``"back"``, or the
    player ``"left"``.  ``evidence`` (``"left"`` while a game is in play): the seat's
    own signed Bye, passed on unchanged (msgpack-encoded, its ``seq`` 0), without which
    no seat believes it (:mod:`durak_net.leaving`)."""

    seq: U64
    seat: Seat
    state: Annotated[str, Meta(max_length=8)]
    detail: Reason = ""
    evidence: Annotated[bytes, Meta(max_length=BYE_EVIDENCE_BYTES)] = b""


class Bye(Struct, tag="bye", array_like=True, frozen=True):
    """The sender leaves the session for good.  A seated player leaving once play has
    begun signs it (``sig``, its seat key) over the table, its seat, the game it leaves
    (``game``), the log length it left at (``index``) and that log's link hash
    (``prev``) and ``reason``: the evidence of the host's Status ``"left"``
    (:mod:`durak_net.leaving`)."""

    seq: U64
    reason: Reason
    game: Count = 0
    index: Count = 0
    prev: LinkHash = b""
    sig: MaybeSignature = b""


class Beacon(Struct, array_like=True, frozen=True):
    """A seat's heartbeat, sent directly to every other seated player (not through the
    host), signed: so each can tell for itself that the seat is still there.  ``fault``:
    once the seat has stopped the game in play with a Fault of its own, that Fault (signed
    by it): so a host that keeps it from the others does not keep them waiting.
    ``seed``: once the seat has published its seed of the game in play for the audit,
    that deal message (signed by it): so a host that keeps it back gets no honest seat
    named for refusing the audit.  A heartbeat that carries neither is sent as the
    four elements before them; a peer that knows neither field ignores them (msgpack
    arrays may run longer)."""

    table: U64
    seat: Seat
    count: U64
    sig: Annotated[bytes, Meta(min_length=64, max_length=64)]
    fault: Fault | None = None
    seed: Deal | None = None


_beacon_decoder = msgspec.msgpack.Decoder(Beacon)


def beacon_sid(table: int) -> int:
    """The session id a table's heartbeats between seats carry (for routing only)."""
    digest = hashlib.blake2b(b"durak-lan v4 beacon" + table.to_bytes(8, "big"),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def encode_beacon(beacon: Beacon) -> bytes:
    """A heartbeat datagram: a session header with the table's beacon id, no tag (the
    beacon's signature authenticates it), then the beacon."""
    body = _encoder.encode(beacon if beacon.fault is not None or beacon.seed is not None
                           else [beacon.table, beacon.seat, beacon.count, beacon.sig])
    return session_header(beacon_sid(beacon.table)) + bytes(TAG_BYTES) + body


def decode_beacon(data: bytes) -> Beacon:
    """The beacon of a heartbeat datagram (``WireError`` if malformed)."""
    if len(data) > MAX_DATAGRAM:
        raise WireError("oversized", "datagram too long")
    try:
        return _beacon_decoder.decode(data[SESSION_PREFIX:])
    except (msgspec.DecodeError, ValueError) as exc:
        raise WireError("malformed", str(exc)) from None


Frame = (Sync | Hello | Seating | Deal | Propose | Order | Open | Entry | Refused | Fault | Status
         | Bye)


class Packet(Struct, array_like=True, frozen=True):
    """The authenticated body of a session datagram.

    ``epoch`` counts the sender's incarnations (a kernel resumed from its journal starts
    a new one); ``peer_epoch`` is the receiver's epoch as the sender knows it (0: not
    yet known), so packets meant for a previous incarnation are recognised as stale.
    ``pn`` numbers the sender's packets within its epoch.  ``ack`` is the highest
    sequence number received in order, ``sack`` lists ones received beyond a gap.
    A packet without frames is a bare acknowledgement or a heartbeat.
    """

    epoch: Annotated[int, Meta(ge=1, le=2**31)]
    peer_epoch: Annotated[int, Meta(ge=0, le=2**31)]
    pn: U64
    ack: U64
    sack: Annotated[list[U64], Meta(max_length=32)]
    frames: Annotated[list[Frame], Meta(max_length=32)]


# ------------------------------------------------------------------ encode / decode

_encoder = msgspec.msgpack.Encoder()
_discovery_decoder = msgspec.msgpack.Decoder(DiscoveryMessage)
_old_announce_decoder = msgspec.msgpack.Decoder(OldAnnounce)
_packet_decoder = msgspec.msgpack.Decoder(Packet)


class WireError(ValueError):
    """A datagram that is not ours or breaks the schema.  ``counter`` says which drop
    counter it belongs to (``foreign``, ``oversized``, ``malformed``)."""

    def __init__(self, counter: str, detail: str) -> None:
        super().__init__(f"{counter}: {detail}")
        self.counter = counter


def check_header(data: bytes) -> bytes:
    """The kind byte of a datagram of this protocol, or :class:`WireError`."""
    if len(data) > MAX_DATAGRAM:
        raise WireError("oversized", f"{len(data)} bytes > {MAX_DATAGRAM}")
    if len(data) < len(HEADER) + 1 or data[:2] != MAGIC:
        raise WireError("foreign", "not a durak-lan datagram")
    if data[2] != WIRE_VERSION:
        counter = "old_version" if data[2] in OLD_WIRE_VERSIONS else "foreign"
        raise WireError(counter, f"wire version {data[2]}, this peer speaks {WIRE_VERSION}")
    return data[3:4]


#: Bytes of the signature that ends every discovery datagram.
DISCOVERY_SIGNATURE: Final = 64


def encode_discovery(message: DiscoveryMessage, sign: Callable[[bytes], bytes]) -> bytes:
    """A discovery datagram: the message, then ``sign(everything before)`` (the sender's
    node key's signature: :meth:`durak_net.lobby.Lobby.sign_discovery`)."""
    unsigned = HEADER + KIND_DISCOVERY + _encoder.encode(message)
    data = unsigned + sign(unsigned)
    if len(data) > MAX_DATAGRAM:  # names and rules are bounded, so this is a bug
        raise ValueError(f"discovery message too large ({len(data)} bytes)")
    return data


def decode_discovery(data: bytes) -> DiscoveryMessage:
    """Parse a discovery datagram (its signature is not checked here: see
    :func:`discovery_signature`), or raise :class:`WireError`."""
    if check_header(data) != KIND_DISCOVERY:
        raise WireError("foreign", "not a discovery datagram")
    if len(data) < 4 + 1 + DISCOVERY_SIGNATURE:
        raise WireError("malformed", "a discovery datagram too short to be signed")
    try:
        return _discovery_decoder.decode(data[4:-DISCOVERY_SIGNATURE])
    except (msgspec.DecodeError, ValueError) as exc:  # ValueError: e.g. a string not UTF-8
        raise WireError("malformed", str(exc)) from None


def discovery_signature(data: bytes) -> tuple[bytes, bytes]:
    """The signed bytes of a discovery datagram (all before the signature) and the
    signature."""
    return data[:-DISCOVERY_SIGNATURE], data[-DISCOVERY_SIGNATURE:]


def decode_old_announce(data: bytes) -> OldAnnounce | None:
    """The sender of an announcement of an older version (to tell the person it runs an
    older durak), or None if ``data`` is not one."""
    if (len(data) > MAX_DATAGRAM or data[:2] != MAGIC or data[2] not in OLD_WIRE_VERSIONS
            or data[3:4] != KIND_DISCOVERY):
        return None
    try:
        if data[2] in SIGNED_ANNOUNCE_VERSIONS:  # announced as this one does (signed)
            signed = _discovery_decoder.decode(data[4:-DISCOVERY_SIGNATURE])
            if not isinstance(signed, Announce):
                return None
            message = OldAnnounce("announce", signed.proto, signed.version, signed.node,
                                  signed.name)
        else:
            message = _old_announce_decoder.decode(data[4:])
    except (msgspec.DecodeError, ValueError):
        return None
    return message if message.tag == "announce" and message.proto == PROTOCOL else None


def encode_packet_body(packet: Packet) -> bytes:
    """The msgpack body of a session datagram (the session adds header and tag)."""
    return _encoder.encode(packet)


def encoded_size(value: Any) -> int:
    """Encoded length of a frame, to fill datagrams up to :data:`MAX_DATAGRAM`."""
    return len(_encoder.encode(value))


def session_header(sid: int) -> bytes:
    """The bytes before the tag of a session datagram."""
    return HEADER + KIND_SESSION + sid.to_bytes(SID_BYTES, "big")


def session_id_of(data: bytes) -> int:
    """The session id of a session datagram (cheap: for routing to the right session)."""
    if check_header(data) != KIND_SESSION or len(data) < SESSION_PREFIX:
        raise WireError("malformed", "not a session datagram")
    return int.from_bytes(data[4 : 4 + SID_BYTES], "big")


def decode_packet_body(body: bytes) -> Packet:
    """Parse an authenticated packet body, or raise :class:`WireError`."""
    try:
        return _packet_decoder.decode(body)
    except (msgspec.DecodeError, ValueError) as exc:  # ValueError: e.g. a string not UTF-8
        raise WireError("malformed", str(exc)) from None
