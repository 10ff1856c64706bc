"""durak_net finds its libsodium by itself: pysodium on a computer, libsodium's
WebAssembly build (libsodium.js, durak_net/sodium_js.py) in a web page's Python; each
missing one says what to do.

In a page, durak_net talks to libsodium.js through Pyodide's JavaScript bridge, which
this Python has not: a stand-in for libsodium.js's ``sodium`` object plays it here, with
libsodium.js's names and habits (Uint8Array in and out, a JavaScript ``Error`` thrown
where libsodium refuses) and libsodium's own C code (through pysodium) behind them, so
what is checked is durak_net's side: which library it picks, the names it calls and
what it makes of the answers.  tests/e2e/sodium_support.py checks the real
libsodium.js in the site's kernel against the same vectors.
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pysodium
import pytest

from durak_net import escrow, mental, primitives, sodium_js

from .sodium_check import check

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "docs" / "lan-vectors.json")
                     .read_text(encoding="utf-8"))


class JsError(Exception):
    """What a JavaScript ``throw`` becomes in Pyodide (``JsException``)."""


class Uint8Array:
    """A JavaScript byte array, as Pyodide hands it to Python (``to_bytes()``)."""

    def __init__(self, data: bytes) -> None:
        self.data = bytes(data)

    def to_bytes(self) -> bytes:
        return self.data


def to_js(data: bytes) -> Uint8Array:
    assert isinstance(data, bytes), f"only bytes cross to JavaScript, not {type(data)}"
    return Uint8Array(data)


def _js(function: Callable[..., Any]) -> Callable[..., Any]:
    """A libsodium.js function: Uint8Array arguments, a Uint8Array result, and a thrown
    Error where libsodium returns an error."""

    def call(*args: Uint8Array) -> Any:
        assert all(isinstance(a, Uint8Array) for a in args), args
        try:
            result = function(*(a.data for a in args))
        except ValueError as exc:
            raise JsError(f"Error: {exc}") from None
        return Uint8Array(result) if isinstance(result, bytes) else result

    return call


class LibsodiumJsStandIn:
    """libsodium.js's ``sodium`` object, for the functions durak_net calls."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        names = {
            "crypto_core_ristretto255_from_hash": pysodium.crypto_core_ristretto255_from_hash,
            "crypto_core_ristretto255_scalar_reduce":
                pysodium.crypto_core_ristretto255_scalar_reduce,
            "crypto_core_ristretto255_scalar_mul": pysodium.crypto_core_ristretto255_scalar_mul,
            "crypto_core_ristretto255_scalar_invert":
                pysodium.crypto_core_ristretto255_scalar_invert,
            "crypto_scalarmult_ristretto255": pysodium.crypto_scalarmult_ristretto255,
            "crypto_core_ristretto255_is_valid_point":
                pysodium.crypto_core_ristretto255_is_valid_point,
            "crypto_sign_ed25519_pk_to_curve25519": pysodium.crypto_sign_pk_to_box_pk,
            "crypto_sign_ed25519_sk_to_curve25519": pysodium.crypto_sign_sk_to_box_sk,
            "crypto_box_easy": pysodium.crypto_box,
            "crypto_box_open_easy": pysodium.crypto_box_open,
            "crypto_scalarmult_base": pysodium.crypto_scalarmult_curve25519_base,
            "crypto_scalarmult": pysodium.crypto_scalarmult_curve25519,
            "crypto_sign_detached": pysodium.crypto_sign_detached,
        }
        self._functions = {name: _js(f) for name, f in names.items()}
        self._functions["crypto_sign_seed_keypair"] = self._seed_keypair
        self._functions["crypto_sign_verify_detached"] = self._verify_detached

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name not in self._functions:
            raise AttributeError(f"libsodium.js has no {name}")
        self.calls.append(name)
        return self._functions[name]

    @staticmethod
    def _seed_keypair(seed: Uint8Array) -> Any:
        public, secret = pysodium.crypto_sign_seed_keypair(seed.data)
        return types.SimpleNamespace(publicKey=Uint8Array(public),
                                     privateKey=Uint8Array(secret), keyType="ed25519")

    @staticmethod
    def _verify_detached(sig: Uint8Array, msg: Uint8Array, pk: Uint8Array) -> bool:
        """libsodium.js answers true or false (pysodium raises)."""
        try:
            pysodium.crypto_sign_verify_detached(sig.data, msg.data, pk.data)
        except ValueError:
            return False
        return True


def finish(awaitable: Any) -> Any:
    """Run a coroutine that awaits nothing pending to its end, with no event loop (as
    Pyodide's ``run_sync`` does with JavaScript Promise Integration)."""
    try:
        awaitable.send(None)
    except StopIteration as done:
        return done.value
    raise AssertionError("it awaited something")


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No libsodium found yet (and none loaded into a page), no card point computed."""
    monkeypatch.setattr(mental, "_sodium", None)
    monkeypatch.setattr(sodium_js, "_loaded", None)
    mental.card_point.cache_clear()
    mental._point_to_card.cache_clear()
    yield
    mental.card_point.cache_clear()
    mental._point_to_card.cache_clear()


@pytest.fixture
def in_a_page(monkeypatch: pytest.MonkeyPatch, fresh: None) -> Iterator[None]:
    """This Python is Pyodide's, with no pysodium and no cryptography (importing them
    fails, as it would in the site)."""
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setitem(sys.modules, "pysodium", None)
    monkeypatch.setitem(sys.modules, "cryptography", None)
    primitives._reset()
    yield
    primitives._reset()


def test_a_computer_uses_pysodium(fresh: None) -> None:
    assert mental.sodium() is pysodium


def test_a_computer_without_libsodium_is_told_how_to_install_it(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pysodium", None)
    with pytest.raises(mental.SodiumMissing, match="apt-get install libsodium23"):
        mental.sodium()
    with pytest.raises(mental.SodiumMissing, match="pysodium"):
        mental.warm_up()  # what a LAN peer does when it opens


def test_a_page_deals_the_vectors_with_libsodium_js(in_a_page: None) -> None:
    standin = LibsodiumJsStandIn()
    sodium_js._loaded = sodium_js.LibsodiumJs(standin, to_js, JsError)
    assert mental.sodium() is sodium_js._loaded
    results = check(VECTORS)
    assert results == dict.fromkeys(results, True)
    # Every libsodium function durak_net uses went through libsodium.js.
    assert set(standin.calls) == {
        "crypto_core_ristretto255_from_hash", "crypto_core_ristretto255_scalar_reduce",
        "crypto_core_ristretto255_scalar_mul", "crypto_core_ristretto255_scalar_invert",
        "crypto_scalarmult_ristretto255", "crypto_core_ristretto255_is_valid_point",
        "crypto_sign_seed_keypair", "crypto_sign_ed25519_pk_to_curve25519",
        "crypto_sign_ed25519_sk_to_curve25519", "crypto_box_easy", "crypto_box_open_easy",
        # X25519 and Ed25519 (the pairing, the seats' signatures): no cryptography here.
        "crypto_scalarmult_base", "crypto_scalarmult", "crypto_sign_detached",
        "crypto_sign_verify_detached",
    }
    assert primitives.backend() == "libsodium"


def test_what_libsodium_js_refuses_is_a_value_error_as_with_pysodium(in_a_page: None) -> None:
    library = sodium_js.LibsodiumJs(LibsodiumJsStandIn(), to_js, JsError)
    with pytest.raises(ValueError, match="crypto_core_ristretto255_scalar_invert"):
        library.crypto_core_ristretto255_scalar_invert(bytes(32))
    with pytest.raises(ValueError, match="crypto_scalarmult_ristretto255"):
        library.crypto_scalarmult_ristretto255(bytes([1]) + bytes(31), b"\xff" * 32)
    # A short "point" is no point (libsodium.js would throw on its length).
    assert library.crypto_core_ristretto255_is_valid_point(b"\xff" * 31) is False
    sodium_js._loaded = library
    assert escrow.unseal(bytes(48), bytes(24), bytes(32), bytes(32)) is None


def test_a_page_without_libsodium_js_loaded_says_what_to_await(
    in_a_page: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In a comm message's handler a page cannot block on the library's loading.
    bridge = types.SimpleNamespace(can_run_sync=lambda: False)
    monkeypatch.setattr(sodium_js, "_ffi", lambda: bridge)
    with pytest.raises(mental.SodiumMissing,
                       match=r"await durak_net\.mental\.load_sodium\(\)"):
        mental.card_point(51)
    assert mental._sodium is None  # nothing is remembered: a later load still counts


def test_a_page_that_can_block_loads_libsodium_js_on_first_use(
    in_a_page: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    standin = LibsodiumJsStandIn()

    async def load(url: str | None = None) -> sodium_js.LibsodiumJs:
        sodium_js._loaded = sodium_js.LibsodiumJs(standin, to_js, JsError)
        return sodium_js._loaded

    monkeypatch.setattr(sodium_js, "load", load)
    monkeypatch.setattr(sodium_js, "_ffi",
                        lambda: types.SimpleNamespace(can_run_sync=lambda: True,
                                                      run_sync=finish))
    assert isinstance(mental.sodium(), sodium_js.LibsodiumJs)
    assert mental.sodium() is sodium_js.loaded()


def test_a_page_whose_site_lacks_libsodium_js_says_so(
    in_a_page: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def load(url: str | None = None) -> sodium_js.LibsodiumJs:
        raise RuntimeError("libsodium.js could not be loaded from http://x/static/sodium/")

    monkeypatch.setattr(sodium_js, "load", load)
    with pytest.raises(mental.SodiumMissing, match="could not be loaded from http://x/"):
        finish(mental.load_sodium())
