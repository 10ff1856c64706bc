"""Keys, message authentication and commitments, each a few lines over vetted primitives.

Randomness never comes from a global source here: callers pass ``entropy``, a function
``n -> n random bytes`` (``os.urandom`` in play, a seeded generator in tests), which
keeps the protocol objects deterministic under test.

>>> import random
>>> rng = random.Random(1)
>>> entropy = rng.randbytes
>>> a, b = KeyPair.generate(entropy), KeyPair.generate(entropy)
>>> a.shared_key(b.public, 7) == b.shared_key(a.public, 7)
True
>>> secret = entropy(32)
>>> check_commitment(commitment(secret, b"ctx"), secret, b"ctx")
True
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

Entropy = Callable[[int], bytes]

_KEY_INFO = b"durak-lan v1 session key"


def random_id(entropy: Entropy) -> int:
    """A random 64-bit identifier (node ids, invitation ids, session ids)."""
    return int.from_bytes(entropy(8), "big") or 1


@dataclass(frozen=True)
class KeyPair:
    """An ephemeral X25519 key pair: one per invitation, never stored beyond it."""

    private: X25519PrivateKey
    public: bytes

    @classmethod
    def generate(cls, entropy: Entropy) -> KeyPair:
        private = X25519PrivateKey.from_private_bytes(entropy(32))
        return cls(private, private.public_key().public_bytes_raw())

    def shared_key(self, peer_public: bytes, invite_id: int) -> bytes:
        """The 32-byte session key both ends derive; ``ValueError`` for a bad public key.

        HKDF binds the key to the invitation, so two invitations never share a key even
        if a buggy entropy source repeated a key pair.
        """
        if len(peer_public) != 32:
            raise ValueError("an X25519 public key has 32 bytes")
        shared = self.private.exchange(X25519PublicKey.from_public_bytes(peer_public))
        kdf = HKDF(
            algorithm=hashes.SHA256(),
            length=32,
            salt=invite_id.to_bytes(8, "big"),
            info=_KEY_INFO,
        )
        return kdf.derive(shared)


def mac(key: bytes, *parts: bytes) -> bytes:
    """A 16-byte keyed BLAKE2b tag over the concatenated ``parts``."""
    h = hashlib.blake2b(key=key, digest_size=16)
    for part in parts:
        h.update(part)
    return h.digest()


def mac_ok(key: bytes, tag: bytes, *parts: bytes) -> bool:
    """Constant-time check of a :func:`mac` tag."""
    return hmac.compare_digest(mac(key, *parts), tag)


def commitment(secret: bytes, context: bytes) -> bytes:
    """A binding, hiding commitment to a random 32-byte ``secret``.

    The secret itself is the nonce (32 random bytes cannot be guessed); ``context``
    (session and game number) stops a commitment being replayed into another game.
    """
    return hashlib.blake2b(b"durak-commit\x00" + context + secret, digest_size=32).digest()


def check_commitment(digest: bytes, secret: bytes, context: bytes) -> bool:
    """Does ``secret`` open ``digest``?"""
    return hmac.compare_digest(commitment(secret, context), digest)


def joint_seed(context: bytes, *secrets: bytes) -> int:
    """The deck seed both peers compute from every revealed secret, in seat order.

    Neither peer controls it alone: each committed to its secret before seeing the other's.
    """
    h = hashlib.blake2b(b"durak-seed\x00" + context, digest_size=16)
    for secret in secrets:
        h.update(len(secret).to_bytes(2, "big") + secret)
    return int.from_bytes(h.digest(), "big")
