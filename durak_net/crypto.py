"""Keys, pairing, message authentication: a few lines each over vetted primitives.

X25519 and HKDF come from ``cryptography`` (libsodium in a web page:
:mod:`durak_net.primitives`), SPAKE2 (the PIN pairing) from ``spake2``
(the library magic-wormhole uses), hashes and MACs from ``hashlib``'s BLAKE2b; the
mental-poker group arithmetic is libsodium's (:mod:`durak_net.mental`).  Nothing here
is cipher or curve arithmetic of our own.  docs/lan-protocol.md spells every input
of every derivation as bytes; the test vectors in docs/lan-vectors.json pin them.

Randomness never comes from a global source here: callers pass ``entropy``, a function
``n -> n random bytes`` (``os.urandom`` in play, a seeded generator in tests), which
keeps the protocol objects deterministic under test.

>>> import random
>>> rng = random.Random(1)
>>> a, b = KeyPair.generate(rng.randbytes), KeyPair.generate(rng.randbytes)
>>> k1 = session_key(a.exchange(b.public), b"", 7)
>>> k1 == session_key(b.exchange(a.public), b"", 7)
True
>>> short_auth_string(7, a.public, b.public) == short_auth_string(7, a.public, b.public)
True
>>> len(short_auth_string(7, a.public, b.public).split())
4
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from . import primitives
from .i18n import N_, Refusal
from .words import WORDS

Entropy = Callable[[int], bytes]

_KEY_INFO: Final = b"durak-lan v2 session key"
_COMMIT_LABEL: Final = b"durak-lan v2 key commitment"
_SAS_LABEL: Final = b"durak-lan v2 sas"
_PROOF_LABEL: Final = b"durak-lan v2 pairing "
_RENDEZVOUS_LABEL: Final = b"durak-lan v2 rendezvous"
_SPAKE_ID_INVITER: Final = b"durak-lan v2 inviter"
_SPAKE_ID_INVITEE: Final = b"durak-lan v2 invitee"


def random_id(entropy: Entropy) -> int:
    """A random 64-bit identifier (node ids, invitation ids, session ids), never 0."""
    return int.from_bytes(entropy(8), "big") or 1


def u64(value: int) -> bytes:
    return value.to_bytes(8, "big")


@dataclass(frozen=True)
class KeyPair:
    """An ephemeral X25519 key pair: one per invitation, never stored beyond it."""

    private: bytes
    public: bytes

    @classmethod
    def generate(cls, entropy: Entropy) -> KeyPair:
        private = entropy(32)
        return cls(private, primitives.x25519_public(private))

    def exchange(self, peer_public: bytes) -> bytes:
        """The X25519 shared secret; ``ValueError`` for a bad public key (wrong length,
        or a low-order point that gives an all-zero secret)."""
        return primitives.x25519_exchange(self.private, peer_public)


def key_commitment(public: bytes) -> bytes:
    """``BLAKE2b-256("durak-lan v2 key commitment" || public)``: the inviter commits to
    its public key before it sees the invitee's (as ZRTP does), so a man in the middle
    cannot search for keys that make both screens show the same words."""
    return hashlib.blake2b(_COMMIT_LABEL + public, digest_size=32).digest()


def session_key(shared: bytes, pin_key: bytes, invite: int) -> bytes:
    """``HKDF-SHA256(ikm = shared || pin_key, salt = u64be(invite), info = "durak-lan v2
    session key", 32 bytes)``; ``pin_key`` is SPAKE2's key with a PIN, else empty."""
    return primitives.hkdf_sha256(shared + pin_key, u64(invite), _KEY_INFO)


def transcript(invite: int, inviter_key: bytes, invitee_key: bytes,
               inviter_spake: bytes = b"", invitee_spake: bytes = b"") -> bytes:
    """Everything both sides exchanged to pair, as the proofs bind it."""
    return u64(invite) + inviter_key + invitee_key + inviter_spake + invitee_spake


def pairing_proof(key: bytes, inviter: bool, text: bytes) -> bytes:
    """``BLAKE2b-128(key = session key, "durak-lan v2 pairing " || role || transcript)``
    with role ``inviter`` or ``invitee``: proves its sender derived the same key."""
    role = b"inviter" if inviter else b"invitee"
    return hashlib.blake2b(_PROOF_LABEL + role + text, key=key, digest_size=16).digest()


def proof_ok(key: bytes, inviter: bool, text: bytes, proof: bytes) -> bool:
    return hmac.compare_digest(pairing_proof(key, inviter, text), proof)


def short_auth_string(invite: int, inviter_key: bytes, invitee_key: bytes) -> str:
    """Four words both people compare: ``BLAKE2b-256("durak-lan v2 sas" || u64be(invite)
    || inviter_key || invitee_key)``, its first four bytes as indices into
    :data:`~durak_net.words.WORDS`.  A man in the middle holds a different key on each
    side, so the two screens show different words (the chance they agree is 2**-32)."""
    digest = hashlib.blake2b(
        _SAS_LABEL + u64(invite) + inviter_key + invitee_key, digest_size=32
    ).digest()
    return " ".join(WORDS[b] for b in digest[:4])


def rendezvous_tag(key: bytes) -> bytes:
    """``BLAKE2b-64(key = session key, "durak-lan v2 rendezvous")``: announced while a
    session is being resumed; only the other peer of the session can recognise it."""
    return hashlib.blake2b(_RENDEZVOUS_LABEL, key=key, digest_size=8).digest()


class Pin:
    """One side of a SPAKE2 PIN pairing (``spake2``'s ed25519 group, with the
    identities ``durak-lan v2 inviter`` / ``durak-lan v2 invitee``)."""

    def __init__(self, pin: str, inviter: bool, entropy: Entropy) -> None:
        from spake2 import SPAKE2_A, SPAKE2_B

        digits = normalise_pin(pin)
        side = SPAKE2_A if inviter else SPAKE2_B
        self._spake = side(digits.encode(), idA=_SPAKE_ID_INVITER, idB=_SPAKE_ID_INVITEE,
                           entropy_f=entropy)
        self.message: bytes = self._spake.start()

    def key(self, peer_message: bytes) -> bytes:
        """The PIN key; ``ValueError`` for a message that is not the other side's."""
        from spake2 import SPAKEError

        try:
            return bytes(self._spake.finish(peer_message))
        except (SPAKEError, ValueError) as exc:
            raise ValueError(f"not a SPAKE2 message of the other side: {exc}") from None


def normalise_pin(pin: str) -> str:
    """``" 48-21 "`` -> ``"4821"``; ``ValueError`` unless 4 to 12 digits remain."""
    digits = "".join(ch for ch in str(pin) if not ch.isspace() and ch != "-")
    if not (digits.isascii() and digits.isdigit() and 4 <= len(digits) <= 12):
        raise Refusal(N_("a PIN has 4 to 12 digits"))
    return digits


def new_pin(entropy: Entropy, digits: int = 6) -> str:
    """A random PIN to read out to the other player."""
    value = int.from_bytes(entropy(8), "big") % 10**digits
    return f"{value:0{digits}d}"


def mac(key: bytes, *parts: bytes) -> bytes:
    """A 16-byte keyed BLAKE2b tag over the concatenated ``parts``."""
    h = hashlib.blake2b(key=key, digest_size=16)
    for part in parts:
        h.update(part)
    return h.digest()


def mac_ok(key: bytes, tag: bytes, *parts: bytes) -> bool:
    """Constant-time check of a :func:`mac` tag."""
    return hmac.compare_digest(mac(key, *parts), tag)
