"""Invitation and reply codes: a WebRTC session description as a short text for a chat.

Two players who are not on one network meet over a WebRTC data channel, and the
offer/answer exchange that opens it needs a rendezvous.  With no game server, the
players carry it themselves: one pastes an *invitation* code (the offer) into a chat,
the other pastes back a *reply* code (the answer).  So a code must be short and must
survive a chat.  A data-channel-only description needs only what ICE and DTLS use: the
ICE user fragment and password, the DTLS certificate's SHA-256 fingerprint, the DTLS
role (``setup``) and the candidates (the addresses to try).  :func:`pack_description`
keeps those, :func:`unpack_description` writes a full SDP again that Chromium and
aiortc accept.  docs/lan-protocol.md, section 14, is the byte-by-byte format.

Why these choices:

* **Base58** (Bitcoin's alphabet): letters and digits only, so a double click selects
  the whole code, no chat turns part of it into markup (``_``, ``*``, ``~``) or a link,
  and the look-alikes ``0 O I l`` are left out; at 5.86 bits a character it is 15%
  shorter than base32 (a case-insensitive alphabet helps a code read aloud, but these
  are pasted).
* **A 3-byte check** (BLAKE2b-24) at the end, so a code cut short by a chat or
  mistyped is told apart from a code of another version, and never reaches the ICE
  agent as a wrong address or fingerprint.
* **An expiry time**, because a code names live ICE credentials of a waiting peer: a
  code pasted from yesterday's chat says so instead of failing to connect.
* **Deflate only when it helps**: the credentials and fingerprint are random bytes, so
  it rarely does (a flag says which).
* Every field is re-created on expansion with the values the two stacks use anyway
  (mid ``0``, SCTP port 5000, priorities from the candidate type and order), so they
  cost nothing unless a description differs (then they are carried).

>>> offer = example_sdp("offer")
>>> code = pack_description(offer, "offer", now=1_800_000_000)
>>> len(code), code.isalnum()
(124, True)
>>> kind, sdp = unpack_description(code, now=1_800_000_060)
>>> kind, "a=ice-ufrag:Xk3d" in sdp, "a=setup:actpass" in sdp
('offer', True, True)
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import re
import uuid
import zlib
from dataclasses import dataclass, field
from typing import Final

from .i18n import _
from .wire import PROTOCOL_VERSION

#: The first byte of every code: the protocol version (a code of another version could
#: not play with this one anyway).
CODE_VERSION: Final = PROTOCOL_VERSION
#: How long a code is good for, by default (seconds): long enough to reach a friend by
#: chat, short enough that an old code in a chat's history is refused.
DEFAULT_TTL: Final = 1800.0
#: Base58, Bitcoin's alphabet: digits and letters without 0, O, I and l.
ALPHABET: Final = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
#: The characters of an ICE ufrag or password (RFC 8839 ``ice-char``), 6 bits each.
ICE_CHARS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
#: Bytes of the check at the end of a code.
CHECK_SIZE: Final = 3
#: The longest code accepted (characters): far beyond any real description.
MAX_CODE: Final = 2000

KINDS: Final = ("offer", "answer")
SETUPS: Final = ("actpass", "active", "passive")
CANDIDATE_TYPES: Final = ("host", "srflx", "prflx", "relay")
#: RFC 8445 type preferences, for the priorities written on expansion.
TYPE_PREFERENCE: Final = {"host": 126, "prflx": 110, "srflx": 100, "relay": 0}
DEFAULT_MID: Final = "0"
DEFAULT_SCTP_PORT: Final = 5000
#: What the expanded SDP announces it can receive (both stacks take at least this).
MAX_MESSAGE_SIZE: Final = 65536

# Flags byte.
_ANSWER: Final = 0x01
_SETUP_SHIFT: Final = 1  # two bits: index into SETUPS
_DEFLATED: Final = 0x08
_OTHER_MID: Final = 0x10
_OTHER_SCTP_PORT: Final = 0x20
_KNOWN_FLAGS: Final = 0x3F

# Candidate byte: address form in the high nibble, type in the low two bits.
_IPV4, _IPV6, _MDNS, _NAME = 0, 1, 2, 3
_MDNS_NAME = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.local$")


class CodeError(ValueError):
    """A code that cannot be used: malformed, expired or of another version.  The
    message is one line for a person, saying what to do next."""

    def _render_traceback_(self) -> list[str]:
        """What IPython shows when a cell raises this (its hook for exceptions that
        draw themselves): the one line, without the frames of our code above it, which
        say nothing to a person who pasted a code and would bury the line that does."""
        return [f"{type(self).__name__}: {self}"]


@dataclass(frozen=True)
class Candidate:
    """One ICE candidate as a code carries it (UDP, component 1)."""

    address: str  # IPv4, IPv6, or a hostname (an mDNS ``<uuid>.local`` name)
    port: int
    type: str = "host"


@dataclass(frozen=True)
class Description:
    """What a data-channel-only session description needs for ICE and DTLS."""

    kind: str
    ufrag: str
    pwd: str
    fingerprint: bytes  # SHA-256 of the DTLS certificate, 32 bytes
    setup: str
    candidates: tuple[Candidate, ...] = field(default=())
    mid: str = DEFAULT_MID
    sctp_port: int = DEFAULT_SCTP_PORT


# ------------------------------------------------------------------------- SDP


def _ice_text(value: str, what: str) -> str:
    if not 1 <= len(value) <= 255 or any(c not in ICE_CHARS for c in value):
        raise ValueError(f"the SDP's {what} is not 1 to 255 ICE characters: {value!r}")
    return value


def parse_sdp(sdp: str, kind: str) -> Description:
    """Reduce a data-channel-only SDP to a :class:`Description`; ValueError if it is
    not one (media sections, no SHA-256 fingerprint, no ICE credentials).  Only UDP
    candidates of component 1 are kept (TCP ones are left out: aiortc has none and a
    data channel over UDP needs none)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be 'offer' or 'answer', not {kind!r}")
    session: dict[str, str] = {}
    media: dict[str, str] = {}
    fingerprints: dict[str, str] = {}
    candidates: list[Candidate] = []
    sections = 0
    for raw in sdp.splitlines():
        line = raw.strip()
        if line.startswith("m="):
            sections += 1
            if not line.startswith("m=application ") or "webrtc-datachannel" not in line:
                raise ValueError(f"not a data-channel-only description: {line!r}")
            continue
        if not line.startswith("a="):
            continue
        name, _sep, value = line[2:].partition(":")
        value = value.strip()
        if name == "fingerprint":
            algorithm, _sp, digest = value.partition(" ")
            fingerprints[algorithm.lower()] = digest.strip()
        elif name == "candidate":
            found = _parse_candidate(value)
            if found is not None and found not in candidates:
                candidates.append(found)
        elif name in ("ice-ufrag", "ice-pwd", "setup", "mid", "sctp-port"):
            (media if sections else session)[name] = value
    if sections != 1:
        raise ValueError(f"expected one data channel section, found {sections}")
    merged = {**session, **media}
    if "ice-ufrag" not in merged or "ice-pwd" not in merged:
        raise ValueError("the SDP has no ICE ufrag and password")
    if "sha-256" not in fingerprints:
        raise ValueError("the SDP has no sha-256 fingerprint")
    try:
        fingerprint = bytes.fromhex(fingerprints["sha-256"].replace(":", ""))
    except ValueError:
        raise ValueError(f"bad fingerprint {fingerprints['sha-256']!r}") from None
    if len(fingerprint) != 32:
        raise ValueError(f"a sha-256 fingerprint has 32 bytes, not {len(fingerprint)}")
    setup = merged.get("setup", "actpass")
    if setup not in SETUPS:
        raise ValueError(f"setup must be one of {', '.join(SETUPS)}, not {setup!r}")
    mid = merged.get("mid", DEFAULT_MID)
    if not 1 <= len(mid.encode()) <= 32:
        raise ValueError(f"a mid of 1 to 32 bytes, not {mid!r}")
    port_text = merged.get("sctp-port", str(DEFAULT_SCTP_PORT))
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"bad sctp-port {port_text!r}")
    if len(candidates) > 255:
        raise ValueError("more than 255 candidates")
    return Description(kind, _ice_text(merged["ice-ufrag"], "ice-ufrag"),
                       _ice_text(merged["ice-pwd"], "ice-pwd"), fingerprint, setup,
                       tuple(candidates), mid, int(port_text))


def _parse_candidate(value: str) -> Candidate | None:
    """``foundation component transport priority address port typ type ...``; None for
    what a code does not carry (TCP, RTCP, a type or address it cannot name)."""
    parts = value.split()
    if len(parts) < 8 or parts[6] != "typ":
        return None
    if parts[1] != "1" or parts[2].lower() != "udp" or parts[7] not in CANDIDATE_TYPES:
        return None
    if not parts[5].isdigit() or not 1 <= int(parts[5]) <= 65535:
        return None
    address = parts[4]
    try:
        address = str(ipaddress.ip_address(address))
    except ValueError:
        if not 1 <= len(address.encode()) <= 255 or not address.isascii():
            return None
    return Candidate(address, int(parts[5]), parts[7])


def priority(candidate: Candidate, index: int) -> int:
    """RFC 8445 priority for the ``index``-th candidate: its type's preference, then
    the order the description listed it in, component 1."""
    return (TYPE_PREFERENCE[candidate.type] << 24) | ((65535 - index) << 8) | 255


def to_sdp(description: Description) -> str:
    """The full SDP of a description, as both Chromium and aiortc accept it."""
    d = description
    session_id = int.from_bytes(d.fingerprint[:8], "big") >> 2  # < 2**62, as SDP wants
    first = d.candidates[0] if d.candidates else None
    port = first.port if first is not None else 9
    lines = [
        "v=0",
        f"o=- {session_id} 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        f"a=group:BUNDLE {d.mid}",
        "a=msid-semantic: WMS",
        f"m=application {port} UDP/DTLS/SCTP webrtc-datachannel",
        "c=IN IP4 0.0.0.0",
        f"a=ice-ufrag:{d.ufrag}",
        f"a=ice-pwd:{d.pwd}",
        "a=fingerprint:sha-256 " + ":".join(f"{b:02X}" for b in d.fingerprint),
        f"a=setup:{d.setup}",
        f"a=mid:{d.mid}",
        f"a=sctp-port:{d.sctp_port}",
        f"a=max-message-size:{MAX_MESSAGE_SIZE}",
    ]
    for i, c in enumerate(d.candidates):
        related = " raddr 0.0.0.0 rport 0" if c.type != "host" else ""
        lines.append(f"a=candidate:{i + 1} 1 udp {priority(c, i)} {c.address} {c.port} "
                     f"typ {c.type}{related} generation 0")
    # No "a=end-of-candidates": a peer that cannot resolve an mDNS name (aioice, where
    # multicast does not reach) must keep waiting for the checks that come from it
    # (peer-reflexive candidates) instead of giving up on a list it was told is whole.
    return "\r\n".join(lines) + "\r\n"


# ------------------------------------------------------------------------ bytes


def _pack_ice(text: str) -> bytes:
    """[n] then the n characters at 6 bits each, big-endian, zero-padded."""
    value = 0
    for c in text:
        value = (value << 6) | ICE_CHARS.index(c)
    size = math.ceil(6 * len(text) / 8)
    value <<= 8 * size - 6 * len(text)
    return bytes([len(text)]) + value.to_bytes(size, "big")


def _unpack_ice(data: bytes, at: int) -> tuple[str, int]:
    n = data[at]
    size = math.ceil(6 * n / 8)
    if n == 0 or at + 1 + size > len(data):
        raise IndexError
    value = int.from_bytes(data[at + 1:at + 1 + size], "big") >> (8 * size - 6 * n)
    chars = [ICE_CHARS[(value >> (6 * (n - 1 - i))) & 63] for i in range(n)]
    return "".join(chars), at + 1 + size


def _pack_candidate(c: Candidate) -> bytes:
    kind = CANDIDATE_TYPES.index(c.type)
    try:
        ip = ipaddress.ip_address(c.address)
    except ValueError:
        if _MDNS_NAME.match(c.address):
            return (bytes([_MDNS << 4 | kind]) + uuid.UUID(c.address[:-6]).bytes
                    + c.port.to_bytes(2, "big"))
        name = c.address.encode()
        return bytes([_NAME << 4 | kind, len(name)]) + name + c.port.to_bytes(2, "big")
    form = _IPV4 if ip.version == 4 else _IPV6
    return bytes([form << 4 | kind]) + ip.packed + c.port.to_bytes(2, "big")


def _unpack_candidate(data: bytes, at: int) -> tuple[Candidate, int]:
    head = data[at]
    form, kind = head >> 4, head & 0x0F
    at += 1
    if form == _IPV4:
        address, at = str(ipaddress.IPv4Address(data[at:at + 4])), at + 4
    elif form == _IPV6:
        address, at = str(ipaddress.IPv6Address(data[at:at + 16])), at + 16
    elif form == _MDNS:
        address, at = str(uuid.UUID(bytes=data[at:at + 16])) + ".local", at + 16
    elif form == _NAME:
        n = data[at]
        name = data[at + 1:at + 1 + n]
        if n == 0 or len(name) != n or not name.isascii():
            raise ValueError("bad candidate name")
        address, at = name.decode(), at + 1 + n
    else:
        raise ValueError("unknown address form")
    if kind >= len(CANDIDATE_TYPES) or at + 2 > len(data):
        raise ValueError("bad candidate")
    port = int.from_bytes(data[at:at + 2], "big")
    if port == 0:
        raise ValueError("port 0")
    return Candidate(address, port, CANDIDATE_TYPES[kind]), at + 2


def encode_body(d: Description) -> bytes:
    """The fields after the header: credentials, fingerprint, candidates, extras."""
    body = bytearray(_pack_ice(d.ufrag) + _pack_ice(d.pwd) + d.fingerprint)
    body.append(len(d.candidates))
    for c in d.candidates:
        body += _pack_candidate(c)
    if d.mid != DEFAULT_MID:
        mid = d.mid.encode()
        body += bytes([len(mid)]) + mid
    if d.sctp_port != DEFAULT_SCTP_PORT:
        body += d.sctp_port.to_bytes(2, "big")
    return bytes(body)


def check(data: bytes) -> bytes:
    """The check at the end of a code: BLAKE2b-24 of everything before it."""
    return hashlib.blake2b(data, digest_size=CHECK_SIZE).digest()


def encode(d: Description, expires: int, *, deflate: bool | None = None) -> bytes:
    """A description as the bytes of a code (before base58).  ``deflate``: None
    deflates when that is shorter; True/False force it (tests)."""
    if not 0 <= expires < 1 << 32:
        raise ValueError(f"expiry out of range: {expires}")
    body = encode_body(d)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(body) + packer.flush()
    use = len(packed) < len(body) if deflate is None else deflate
    flags = (_ANSWER if d.kind == "answer" else 0) | SETUPS.index(d.setup) << _SETUP_SHIFT
    flags |= _DEFLATED if use else 0
    flags |= _OTHER_MID if d.mid != DEFAULT_MID else 0
    flags |= _OTHER_SCTP_PORT if d.sctp_port != DEFAULT_SCTP_PORT else 0
    data = bytes([CODE_VERSION, flags]) + expires.to_bytes(4, "big") + (packed if use else body)
    return data + check(data)


def decode(data: bytes) -> tuple[Description, int]:
    """(description, expiry) from a code's bytes whose check, version and flags were
    checked already; ValueError/IndexError for a body that does not parse."""
    flags = data[1]
    expires = int.from_bytes(data[2:6], "big")
    body = data[6:-CHECK_SIZE]
    if flags & _DEFLATED:
        unpacker = zlib.decompressobj(wbits=-15)
        body = unpacker.decompress(body, 4096)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise ValueError("bad deflate stream")
    ufrag, at = _unpack_ice(body, 0)
    pwd, at = _unpack_ice(body, at)
    fingerprint, at = body[at:at + 32], at + 32
    if len(fingerprint) != 32:
        raise IndexError
    candidates = []
    count, at = body[at], at + 1
    for _i in range(count):
        candidate, at = _unpack_candidate(body, at)
        candidates.append(candidate)
    mid = DEFAULT_MID
    if flags & _OTHER_MID:
        n = body[at]
        raw = body[at + 1:at + 1 + n]
        if n == 0 or len(raw) != n:
            raise IndexError
        mid, at = raw.decode(), at + 1 + n
    sctp_port = DEFAULT_SCTP_PORT
    if flags & _OTHER_SCTP_PORT:
        if at + 2 > len(body):
            raise IndexError
        sctp_port, at = int.from_bytes(body[at:at + 2], "big"), at + 2
    if at != len(body) or sctp_port == 0:
        raise ValueError("trailing bytes or bad fields")
    setup = (flags >> _SETUP_SHIFT) & 3
    if setup >= len(SETUPS):
        raise ValueError("bad setup")
    kind = "answer" if flags & _ANSWER else "offer"
    return Description(kind, ufrag, pwd, bytes(fingerprint), SETUPS[setup], tuple(candidates),
                       mid, sctp_port), expires


# ------------------------------------------------------------------------ text


def base58_encode(data: bytes) -> str:
    """Bytes as base58 (each leading zero byte is a ``1``)."""
    value = int.from_bytes(data, "big")
    out = []
    while value:
        value, digit = divmod(value, 58)
        out.append(ALPHABET[digit])
    zeros = len(data) - len(data.lstrip(b"\0"))
    return "1" * zeros + "".join(reversed(out))


def base58_decode(text: str) -> bytes:
    """The inverse of :func:`base58_encode`; ValueError for a character outside it."""
    value = 0
    for c in text:
        digit = ALPHABET.find(c)
        if digit < 0:
            raise ValueError(c)
        value = value * 58 + digit
    zeros = len(text) - len(text.lstrip("1"))
    body = value.to_bytes((value.bit_length() + 7) // 8, "big") if value else b""
    return b"\0" * zeros + body


#: What a chat may wrap a pasted code in: spaces and line breaks, quotes, brackets.
_WRAPPING = re.compile(r"[\s`'\"<>()\[\]]+")


def pack_description(sdp: str, kind: str, *, now: float, ttl: float = DEFAULT_TTL) -> str:
    """The code of a session description (``kind`` "offer" or "answer"), good until
    ``now + ttl`` (``now``: Unix time, seconds); ValueError if the SDP is not a
    data-channel-only description with ICE credentials and a SHA-256 fingerprint."""
    if ttl <= 0:
        raise ValueError(f"ttl must be positive, not {ttl!r}")
    description = parse_sdp(sdp, kind)
    return base58_encode(encode(description, math.ceil(now + ttl)))


def read_code(code: str, *, now: float) -> tuple[Description, int]:
    """(description, expiry) of a code, or :class:`CodeError` with one line saying
    what is wrong and what to do."""
    text = _WRAPPING.sub("", code)
    if not text:
        raise CodeError(_("the code is empty: paste the whole code you were sent"))
    try:
        if len(text) > MAX_CODE:
            raise ValueError(len(text))
        data = base58_decode(text)
    except ValueError:
        raise CodeError(_("this is not a durak code (it has characters no code has): "
                          "paste the whole code exactly as you were sent it")) from None
    if len(data) < 6 + CHECK_SIZE or check(data[:-CHECK_SIZE]) != data[-CHECK_SIZE:]:
        raise CodeError(_("this code is cut short or mistyped: paste the whole code "
                          "exactly as you were sent it")) from None
    if data[0] != CODE_VERSION:
        raise CodeError(_("this code is from another version of durak (protocol {theirs}, "
                          "this is {ours}): both players need the same version")
                        .format(theirs=data[0], ours=CODE_VERSION))
    if data[1] & ~_KNOWN_FLAGS & 0xFF:
        raise CodeError(_("this code uses features this version of durak does not know: "
                          "both players need the same version"))
    try:
        description, expires = decode(data)
    except (ValueError, IndexError, UnicodeDecodeError, zlib.error):
        raise CodeError(_("this code is damaged: ask for a new one")) from None
    if now > expires:
        minutes = max(1, round((now - expires) / 60))
        raise CodeError(_("this code expired {minutes} min ago: ask for a new one")
                        .format(minutes=minutes))
    return description, expires


def unpack_description(code: str, *, now: float) -> tuple[str, str]:
    """(kind, full SDP) of a code made by :func:`pack_description`; :class:`CodeError`
    (one line for a person) if it is malformed, expired (``now``: Unix time) or of
    another version.  Spaces, line breaks, quotes and brackets a chat added are
    ignored."""
    description, _expires = read_code(code, now=now)
    return description.kind, to_sdp(description)


def example_sdp(kind: str) -> str:
    """A data-channel-only description like the ones Chromium writes (for the doctests,
    the vectors and the docs): fixed credentials, fingerprint and candidates."""
    fingerprint = hashlib.sha256(f"durak example {kind}".encode()).digest()
    candidates = (
        [Candidate("0b4e6a2c-4d8f-4f2a-9c3e-7d1a5b6c8e90.local", 54321),
         Candidate("203.0.113.7", 54321, "srflx")] if kind == "offer"
        else [Candidate("10.77.0.2", 40001)]
    )
    description = Description(kind, "Xk3d" if kind == "offer" else "P9qZ",
                              "Zt8Jm2Qp0Rr5Vb7Xn4Lc1Wy6" if kind == "offer"
                              else "e2Rk8Mn3Tq6Vx9Zb1Hj4Lp7S",
                              fingerprint, "actpass" if kind == "offer" else "active",
                              tuple(candidates))
    return to_sdp(description)
