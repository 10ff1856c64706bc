"""A seat's signing key, so that the host of a table cannot speak for another seat.

At a table of more than two, every seat talks to the host only, and the host passes
the other seats' messages on.  A pairwise session key proves only that a message came
over that link, so the host could forge a message "from" another seat (a wrong key, a
move it did not make).  Every message a seat authors that others will see (its deal
messages and its proposals) is therefore signed with the seat's own Ed25519 key
(``cryptography``'s, over OpenSSL), whose public half every seat learns at the start
(``Hello``, then the host's ``Seating``).  docs/lan-protocol.md spells the bytes signed.

>>> import random
>>> me = Identity.generate(random.Random(4).randbytes)
>>> signature = me.sign(b"deal", b"1234")
>>> verify(me.public, signature, b"deal", b"1234"), verify(me.public, signature, b"deal", b"x")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from .crypto import Entropy

SIGNATURE_BYTES = 64


@dataclass(frozen=True)
class Identity:
    """One seat's signing key pair for one table (never stored beyond its journal)."""

    private: bytes
    public: bytes

    @classmethod
    def generate(cls, entropy: Entropy) -> Identity:
        return cls.from_private(entropy(32))

    @classmethod
    def from_private(cls, private: bytes) -> Identity:
        key = Ed25519PrivateKey.from_private_bytes(private)
        return cls(private, key.public_key().public_bytes_raw())

    def sign(self, *parts: bytes) -> bytes:
        """An Ed25519 signature over the concatenated ``parts``."""
        return _private_key(self.private).sign(b"".join(parts))


@lru_cache(maxsize=16)
def _private_key(private: bytes) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(private)


@lru_cache(maxsize=64)
def _public_key(public: bytes) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(public)


def verify(public: bytes, signature: bytes, *parts: bytes) -> bool:
    """Is ``signature`` the holder of ``public``'s over the concatenated ``parts``?"""
    if len(public) != 32 or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        _public_key(public).verify(signature, b"".join(parts))
    except (InvalidSignature, ValueError):
        return False
    return True
