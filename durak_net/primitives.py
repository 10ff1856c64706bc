"""X25519, Ed25519 and HKDF-SHA256 from whichever vetted library this Python has.

On a computer they come from ``cryptography`` (OpenSSL), as they always did.  The
JupyterLite site's kernel (Pyodide, in a web page) has no ``cryptography``: its build
for Pyodide is not on PyPI, and the site is built offline from PyPI and npm alone.  There
the same functions come from libsodium, the one the deal already uses
(:func:`durak_net.mental.sodium`: libsodium.js in a page, :mod:`durak_net.sodium_js`),
under pysodium's names: ``crypto_scalarmult_curve25519(_base)`` for X25519,
``crypto_sign_seed_keypair``/``crypto_sign_detached``/``crypto_sign_verify_detached`` for
Ed25519.  Both libraries implement RFC 7748 and RFC 8032 (pure Ed25519 is
deterministic), so they give the same bytes; tests/net/test_net_primitives.py checks the
libsodium route against ``cryptography`` and docs/lan-vectors.json.

Ed25519 alone prefers libsodium wherever it is there (pysodium on a computer, which LAN
play needs for the deal anyway): signing and verifying are a seat's crypto on every move
(each entry, proposal, order and heartbeat), and libsodium verifies in about 60% of
OpenSSL's time (tests/net/test_net_primitives.py: the same signatures either way).  A
computer without libsodium signs with ``cryptography``.  HKDF on that route
is RFC 5869's two HMAC steps over the standard library's ``hmac`` (one output block:
every key here is 32 bytes); no curve or cipher arithmetic is written here.

>>> seed = bytes(range(32))
>>> len(x25519_public(seed)), len(ed25519_public(seed))
(32, 32)
>>> ed25519_verify(ed25519_public(seed), ed25519_sign(seed, b"hi"), b"hi")
True
"""

from __future__ import annotations

import hashlib
import hmac
from functools import lru_cache
from typing import Any

_BACKEND: str | None = None
_SIGNING: str | None = None


def backend() -> str:
    """``"cryptography"`` where it imports, else ``"libsodium"``."""
    global _BACKEND
    if _BACKEND is None:
        try:
            import cryptography.hazmat.primitives.asymmetric.ed25519  # noqa: F401
        except ImportError:
            _BACKEND = "libsodium"
        else:
            _BACKEND = "cryptography"
    return _BACKEND


def signing_backend() -> str:
    """Ed25519's library: ``"libsodium"`` where it loads (or :func:`backend` is it),
    else ``"cryptography"``."""
    global _SIGNING
    if _SIGNING is None:
        if backend() == "libsodium":
            _SIGNING = "libsodium"
        else:
            from .mental import SodiumMissing

            try:
                _sodium()
            except SodiumMissing:
                _SIGNING = "cryptography"
            else:
                _SIGNING = "libsodium"
    return _SIGNING


def _sodium() -> Any:
    from .mental import sodium

    return sodium()


# ------------------------------------------------------------------ X25519


def x25519_public(private: bytes) -> bytes:
    """The X25519 public key of the 32-byte ``private`` (clamped, as both libraries do)."""
    if len(private) != 32:
        raise ValueError("an X25519 private key has 32 bytes")
    if backend() == "cryptography":
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

        return X25519PrivateKey.from_private_bytes(private).public_key().public_bytes_raw()
    return bytes(_sodium().crypto_scalarmult_curve25519_base(private))


def x25519_exchange(private: bytes, peer_public: bytes) -> bytes:
    """The X25519 shared secret; ``ValueError`` for a bad public key (wrong length, or a
    low-order point that gives the all-zero secret: both libraries refuse it)."""
    if len(peer_public) != 32:
        raise ValueError("an X25519 public key has 32 bytes")
    if backend() == "cryptography":
        from cryptography.hazmat.primitives.asymmetric.x25519 import (
            X25519PrivateKey,
            X25519PublicKey,
        )

        return X25519PrivateKey.from_private_bytes(private).exchange(
            X25519PublicKey.from_public_bytes(peer_public))
    shared = bytes(_sodium().crypto_scalarmult_curve25519(private, peer_public))
    if not any(shared):  # (libsodium refuses it already; never let it through)
        raise ValueError("a low-order X25519 public key")
    return shared


# ------------------------------------------------------------------ HKDF-SHA256


def hkdf_sha256(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    """RFC 5869 HKDF with SHA-256, ``length`` at most 32 (one block: what is used)."""
    if not 1 <= length <= 32:
        raise ValueError("hkdf_sha256 gives 1 to 32 bytes here")
    if backend() == "cryptography":
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)
    prk = hmac.new(salt or bytes(32), ikm, hashlib.sha256).digest()
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()[:length]


# ------------------------------------------------------------------ Ed25519


def ed25519_public(seed: bytes) -> bytes:
    """The Ed25519 public key of the 32-byte private ``seed``."""
    return _signer(seed)[0]


def ed25519_sign(seed: bytes, message: bytes) -> bytes:
    """A pure Ed25519 signature (64 bytes, deterministic) of ``message``."""
    key = _signer(seed)[1]
    if signing_backend() == "cryptography":
        return bytes(key.sign(message))
    return bytes(_sodium().crypto_sign_detached(message, key))


def ed25519_verify(public: bytes, signature: bytes, message: bytes) -> bool:
    """Is ``signature`` the holder of ``public``'s over ``message``?

    The answer for the very same three byte strings is remembered (the last
    :data:`VERIFIED_KEPT`): it cannot change, and the same signed bytes come to a
    process more than once: a heartbeat the network duplicated, or, where one process
    runs several seats (the tests' in-memory tables, where every seat checks the host's
    signature on each entry), every seat's copy.  Any other bytes, a flipped bit
    anywhere, are verified afresh."""
    if len(public) != 32 or len(signature) != 64:
        return False
    if not REMEMBER_VERIFIED:
        return _verified.__wrapped__(public, signature, message)
    return _verified(bytes(public), bytes(signature), bytes(message))


#: How many (key, signature, message) answers :func:`ed25519_verify` keeps.
VERIFIED_KEPT = 2048
#: Does :func:`ed25519_verify` reuse them?  A benchmark that runs several seats in one
#: process as if each were a machine of its own (benchmarks/net_table.py) turns this
#: off, so that each seat is charged for its own checks.
REMEMBER_VERIFIED = True


@lru_cache(maxsize=VERIFIED_KEPT)
def _verified(public: bytes, signature: bytes, message: bytes) -> bool:
    if signing_backend() == "cryptography":
        from cryptography.exceptions import InvalidSignature

        try:
            _public_key(public).verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True
    try:
        _sodium().crypto_sign_verify_detached(signature, message, public)
    except ValueError:
        return False
    return True


@lru_cache(maxsize=16)
def _signer(seed: bytes) -> tuple[bytes, Any]:
    """(public key, what signs): cryptography's key object, or libsodium's 64-byte
    secret key."""
    if len(seed) != 32:
        raise ValueError("an Ed25519 private key has 32 bytes")
    if signing_backend() == "cryptography":
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        key = Ed25519PrivateKey.from_private_bytes(seed)
        return key.public_key().public_bytes_raw(), key
    public, secret = _sodium().crypto_sign_seed_keypair(seed)
    return bytes(public), bytes(secret)


@lru_cache(maxsize=64)
def _public_key(public: bytes) -> Any:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    return Ed25519PublicKey.from_public_bytes(public)


def _reset(name: str | None = None) -> None:
    """Tests: use the backend ``name`` for everything, Ed25519 too (None: find both
    again)."""
    global _BACKEND, _SIGNING
    _BACKEND = _SIGNING = name
    _signer.cache_clear()
    _verified.cache_clear()
