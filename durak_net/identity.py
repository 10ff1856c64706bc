"""A seat's signing key, so that the host of a table cannot speak for another seat.

At a table of more than two, every seat talks to the host only, and the host passes
the other seats' messages on.  A pairwise session key proves only that a message came
over that link, so the host could forge a message "from" another seat (a wrong key, a
move it did not make).  Every message a seat authors that others will see (its deal
messages and its proposals) is therefore signed with the seat's own Ed25519 key
(libsodium's, as the deal's; ``cryptography``'s where libsodium is missing:
:mod:`durak_net.primitives`), whose public half every seat learns at the start
(``Hello``, then the host's ``Seating``).  docs/lan-protocol.md spells the bytes signed.

>>> import random
>>> me = Identity.generate(random.Random(4).randbytes)
>>> signature = me.sign(b"deal", b"1234")
>>> verify(me.public, signature, b"deal", b"1234"), verify(me.public, signature, b"deal", b"x")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass

from . import primitives
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
        return cls(private, primitives.ed25519_public(private))

    def sign(self, *parts: bytes) -> bytes:
        """An Ed25519 signature over the concatenated ``parts``."""
        return primitives.ed25519_sign(self.private, b"".join(parts))


def verify(public: bytes, signature: bytes, *parts: bytes) -> bool:
    """Is ``signature`` the holder of ``public``'s over the concatenated ``parts``?"""
    return primitives.ed25519_verify(public, signature, b"".join(parts))
