"""Where ``cryptography`` is missing (the site's kernel), X25519, Ed25519 and HKDF come
from libsodium and give the very bytes ``cryptography`` gives (durak_net/primitives.py).

The libsodium route runs here over pysodium (the same C library libsodium.js is built
from); tests/net/test_net_sodium_backend.py runs it through a libsodium.js stand-in and
tests/e2e/sodium_support.py through the real one in the site's kernel.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from durak_net import crypto, identity, mental, primitives

from .sodium_check import check_keys
from .test_net_sodium_backend import VECTORS


@pytest.fixture
def libsodium() -> Iterator[None]:
    primitives._reset("libsodium")
    yield
    primitives._reset()


def test_a_computer_with_cryptography_uses_it() -> None:
    primitives._reset()
    assert primitives.backend() == "cryptography"


def test_a_computer_with_libsodium_signs_and_verifies_with_it(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ed25519 is a seat's crypto on every move: libsodium's, where LAN play has it."""
    primitives._reset()
    try:
        assert primitives.signing_backend() == "libsodium"
        calls: list[str] = []
        sodium = mental.sodium()
        def counted(name: str) -> Callable[..., Any]:
            real = getattr(sodium, name)

            def call(*args: Any) -> Any:
                calls.append(name)
                return real(*args)
            return call

        for name in ("crypto_sign_detached", "crypto_sign_verify_detached"):
            monkeypatch.setattr(sodium, name, counted(name))
        seed = bytes(range(32))
        signature = primitives.ed25519_sign(seed, b"move")
        assert primitives.ed25519_verify(primitives.ed25519_public(seed), signature, b"move")
        assert not primitives.ed25519_verify(primitives.ed25519_public(seed), signature, b"x")
        assert calls == ["crypto_sign_detached"] + ["crypto_sign_verify_detached"] * 2
        assert signature == Ed25519PrivateKey.from_private_bytes(seed).sign(b"move")
    finally:
        primitives._reset()


def test_a_computer_without_libsodium_signs_with_cryptography(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mental, "_sodium", None)
    monkeypatch.setitem(sys.modules, "pysodium", None)
    primitives._reset()
    try:
        assert primitives.signing_backend() == "cryptography"
        seed = bytes(range(32))
        signature = primitives.ed25519_sign(seed, b"move")
        assert primitives.ed25519_verify(primitives.ed25519_public(seed), signature, b"move")
    finally:
        primitives._reset()


def test_libsodium_gives_the_bytes_cryptography_gives(libsodium: None) -> None:
    rng = random.Random(34)
    for _ in range(20):
        a, b, seed = rng.randbytes(32), rng.randbytes(32), rng.randbytes(32)
        ours = X25519PrivateKey.from_private_bytes(a)
        theirs = X25519PrivateKey.from_private_bytes(b)
        assert primitives.x25519_public(a) == ours.public_key().public_bytes_raw()
        assert primitives.x25519_exchange(a, primitives.x25519_public(b)) == ours.exchange(
            theirs.public_key())
        signer = Ed25519PrivateKey.from_private_bytes(seed)
        message = rng.randbytes(rng.randrange(200))
        assert primitives.ed25519_public(seed) == signer.public_key().public_bytes_raw()
        assert primitives.ed25519_sign(seed, message) == signer.sign(message)
        for salt in (b"", rng.randbytes(8), rng.randbytes(64)):
            ikm, info = rng.randbytes(rng.randrange(1, 80)), rng.randbytes(rng.randrange(30))
            want = HKDF(algorithm=hashes.SHA256(), length=32, salt=salt or None,
                        info=info).derive(ikm)
            assert primitives.hkdf_sha256(ikm, salt, info) == want


def test_libsodium_refuses_what_cryptography_refuses(libsodium: None) -> None:
    seed = bytes(range(32))
    signature = primitives.ed25519_sign(seed, b"move")
    public = primitives.ed25519_public(seed)
    assert primitives.ed25519_verify(public, signature, b"move")
    assert not primitives.ed25519_verify(public, signature, b"move!")
    assert not primitives.ed25519_verify(public, bytes(64), b"move")
    assert not primitives.ed25519_verify(public[:31], signature, b"move")
    with pytest.raises(ValueError):
        primitives.x25519_exchange(seed, bytes(32))  # low order: the all-zero secret
    with pytest.raises(ValueError, match="32 bytes"):
        primitives.x25519_exchange(seed, bytes(31))


def test_the_vectors_pair_and_sign_either_way(libsodium: None) -> None:
    results = check_keys(VECTORS)
    assert results == dict.fromkeys(results, True)
    primitives._reset("cryptography")
    results = check_keys(VECTORS)
    assert results == dict.fromkeys(results, True)


def test_a_pairing_across_the_two_libraries_agrees() -> None:
    """One side on cryptography, the other on libsodium: the same key and words."""
    rng = random.Random(7)
    primitives._reset("cryptography")
    a = crypto.KeyPair.generate(rng.randbytes)
    seat = identity.Identity.generate(rng.randbytes)
    signature = seat.sign(b"deal", b"1")
    primitives._reset("libsodium")
    try:
        b = crypto.KeyPair.generate(rng.randbytes)
        assert identity.verify(seat.public, signature, b"deal1")
        key_b = crypto.session_key(b.exchange(a.public), b"", 9)
    finally:
        primitives._reset("cryptography")
    assert crypto.session_key(a.exchange(b.public), b"", 9) == key_b
    primitives._reset()


def _count_checks(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The messages libsodium is asked to check a signature over, from now on."""
    checked: list[bytes] = []
    sodium = mental.sodium()
    real = sodium.crypto_sign_verify_detached

    def verify(signature: bytes, message: bytes, public: bytes) -> Any:
        checked.append(message)
        return real(signature, message, public)

    monkeypatch.setattr(sodium, "crypto_sign_verify_detached", verify)
    return checked


def test_the_same_signed_bytes_are_verified_once_and_any_other_afresh(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    primitives._reset()
    try:
        checked = _count_checks(monkeypatch)
        seed = bytes(range(32))
        public, signature = primitives.ed25519_public(seed), primitives.ed25519_sign(seed, b"move")
        for _ in range(3):  # every seat's copy of one entry
            assert primitives.ed25519_verify(public, signature, b"move")
        assert checked == [b"move"]
        forged = bytes([signature[0] ^ 1]) + signature[1:]
        for _ in range(2):
            assert not primitives.ed25519_verify(public, forged, b"move")
            assert primitives.ed25519_verify(public, signature, b"move")
            assert not primitives.ed25519_verify(public, signature, b"move!")
        other = primitives.ed25519_public(bytes(32))
        assert not primitives.ed25519_verify(other, signature, b"move")
        assert checked == [b"move", b"move", b"move!", b"move"]
    finally:
        primitives._reset()


def test_a_benchmark_of_seats_as_machines_can_have_every_check_made(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    primitives._reset()
    monkeypatch.setattr(primitives, "REMEMBER_VERIFIED", False)
    try:
        checked = _count_checks(monkeypatch)
        seed = bytes(range(32))
        public, signature = primitives.ed25519_public(seed), primitives.ed25519_sign(seed, b"move")
        assert primitives.ed25519_verify(public, signature, b"move")
        assert primitives.ed25519_verify(public, signature, b"move")
        assert not primitives.ed25519_verify(public, signature, b"move!")
        assert checked == [b"move", b"move", b"move!"]
    finally:
        primitives._reset()
