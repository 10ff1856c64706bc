"""Mental poker on ristretto255: commutative encryption of cards with per-card keys.

The arithmetic is libsodium's (through pysodium; in a web page, through libsodium's
WebAssembly build, :mod:`durak_net.sodium_js`): points of the prime-order group
ristretto255 and scalars modulo its order.  This module only composes those
operations into the steps docs/lan-protocol.md specifies; it holds no curve
arithmetic of its own.

Why this works:

* every card is a point ``P_c`` hashed to the group (``from_hash``), so no seat
  knows a discrete-log relation between two cards and nobody can turn one card
  into another;
* multiplying by a secret scalar is encryption, and it commutes: ``a·(b·P) =
  b·(a·P)``, so seats can encrypt the deck one after another and later remove
  their layers in any order;
* each seat derives all of its secrets for one game from one 32-byte ``seed``
  (its shuffle key ``x``, its permutation, its per-card keys ``k_j``), so the
  end-of-game audit needs the seed alone to recompute everything that seat did.

>>> seed_a, seed_b = bytes(32), bytes([1]) * 32
>>> deck = [card_point(i) for i in range(3)]
>>> step0 = shuffle_pass(seed_a, deck)                   # seat 0 of 2: shuffle
>>> step1 = shuffle_lock_pass(seed_b, step0)             # the last seat: shuffle and lock
>>> locked = lock_pass(seed_a, step1)                    # seat 0: lock
>>> keys = [card_key(seed_a, j) for j in range(3)], [card_key(seed_b, j) for j in range(3)]
>>> sorted(open_card(locked[j], [keys[0][j], keys[1][j]]) for j in range(3))
[0, 1, 2]
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Final

#: Bytes of a point (a ristretto255 encoding) and of a scalar.
POINT_BYTES: Final = 32
SCALAR_BYTES: Final = 32
SEED_BYTES: Final = 32
#: Every card of the largest deck (indices 0..51, ``suit * 13 + rank - 2``).
CARD_COUNT: Final = 52

_CARD_LABEL: Final = b"durak-lan v2 card"
_ZERO: Final = bytes(SCALAR_BYTES)


class MentalError(ValueError):
    """Bad input to a mental-poker step: a point that is not in the group, a key that
    does not open a card.  The dealer turns it into a fault naming the seat."""


class SodiumMissing(RuntimeError):
    """libsodium is not there: the C library under pysodium on a computer, or, in a web
    page's Python (Pyodide), libsodium's WebAssembly build (:mod:`durak_net.sodium_js`)
    not loaded yet."""


_sodium: Any = None


def sodium() -> Any:
    """libsodium, found on first use: pysodium on a computer, libsodium.js in a web
    page's Python (``sys.platform == "emscripten"``); both give the same functions under
    the same names.  A clear :class:`SodiumMissing` if it is not there (local play never
    needs it; LAN and online play do)."""
    global _sodium
    if _sodium is None:
        _sodium = _in_page() if in_page() else _pysodium()
    return _sodium


def in_page() -> bool:
    """Is this Python running in a web page (Pyodide: JupyterLite, the site)?"""
    return sys.platform == "emscripten"


def _pysodium() -> Any:
    try:
        import pysodium
    except (ImportError, ValueError, OSError) as exc:
        raise SodiumMissing(
            "LAN play with hidden hands needs libsodium: install it with "
            "'apt-get install libsodium23' (Debian/Ubuntu) or 'brew install libsodium' "
            f"(macOS), and the Python package 'pysodium' ({exc})"
        ) from None
    return pysodium


def _in_page() -> Any:
    from . import sodium_js

    try:
        library = sodium_js.loaded() or sodium_js.load_now()
    except RuntimeError as exc:
        raise SodiumMissing(f"hidden hands in a web page need libsodium.js: {exc}") from None
    if library is None:
        raise SodiumMissing(
            "hidden hands in a web page need libsodium's WebAssembly build, which is not "
            "loaded yet: run 'await durak_net.mental.load_sodium()' once before the deal"
        )
    return library


async def load_sodium() -> None:
    """Have libsodium ready before a deal.  In a web page's Python this loads its
    WebAssembly build (which only an ``await`` can do; do it once, before the first
    deal); on a computer it only finds pysodium.  :class:`SodiumMissing` if it cannot."""
    global _sodium
    if _sodium is not None:
        return
    if not in_page():
        _sodium = _pysodium()
        return
    from . import sodium_js

    try:
        _sodium = await sodium_js.load()
    except RuntimeError as exc:
        raise SodiumMissing(f"hidden hands in a web page need libsodium.js: {exc}") from None


def warm_up() -> None:
    """Load libsodium and the card points now (a LAN peer does this when it opens, so a
    missing library is reported at once and the first deal does not pay for it)."""
    _point_to_card()


def _hash64(seed: bytes, data: bytes) -> bytes:
    return hashlib.blake2b(data, key=seed, digest_size=64).digest()


@cache
def card_point(index: int) -> bytes:
    """The group point of card ``index``: ``from_hash(BLAKE2b-512("durak-lan v2 card" ||
    index))``, with ``index`` as one byte (0..51)."""
    if not 0 <= index < CARD_COUNT:
        raise ValueError(f"no card with index {index}")
    digest = hashlib.blake2b(_CARD_LABEL + bytes([index]), digest_size=64).digest()
    return bytes(sodium().crypto_core_ristretto255_from_hash(digest))


@cache
def _point_to_card() -> dict[bytes, int]:
    return {card_point(i): i for i in range(CARD_COUNT)}


def card_of_point(point: bytes) -> int | None:
    """The card whose point this is, or None (not a card: a wrong key was used)."""
    return _point_to_card().get(point)


def derive_scalar(seed: bytes, label: bytes, index: int) -> bytes:
    """A scalar from a seed: ``reduce(BLAKE2b-512(key=seed, label || u16be(index)))``."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes")
    wide = _hash64(seed, label + index.to_bytes(2, "big"))
    return bytes(sodium().crypto_core_ristretto255_scalar_reduce(wide))


def shuffle_key(seed: bytes) -> bytes:
    """The seat's shuffle key ``x`` (label ``"shuffle"``, index 0)."""
    return derive_scalar(seed, b"shuffle", 0)


def card_key(seed: bytes, position: int) -> bytes:
    """The seat's key ``k_j`` for deck position ``j`` (label ``"card"``)."""
    return derive_scalar(seed, b"card", position)


def permutation(seed: bytes, n: int) -> list[int]:
    """The seat's permutation of ``n`` positions: ``0..n-1`` sorted by
    ``BLAKE2b-128(key=seed, "perm" || u16be(i))`` (as bytes; a tie, which never
    happens in practice, keeps index order)."""
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a seed has {SEED_BYTES} bytes")

    def rank(i: int) -> bytes:
        return hashlib.blake2b(b"perm" + i.to_bytes(2, "big"), key=seed, digest_size=16).digest()

    return sorted(range(n), key=lambda i: (rank(i), i))


def seed_is_usable(seed: bytes, deck_size: int,
                   key: Callable[[bytes, int], bytes] = card_key) -> bool:
    """Does every scalar this seed gives differ from zero?  (A zero scalar would
    destroy a card; the chance is about 2**-246 per seed, but a dealer checks.)
    ``key``: :func:`card_key`, or a dealer's memo of it."""
    return shuffle_key(seed) != _ZERO and all(
        key(seed, j) != _ZERO for j in range(deck_size)
    )


def mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar · point``; :class:`MentalError` if ``point`` is not a valid group element."""
    try:
        return bytes(sodium().crypto_scalarmult_ristretto255(scalar, point))
    except ValueError:
        raise MentalError("not a point of the group") from None


def scalar_mul(a: bytes, b: bytes) -> bytes:
    return bytes(sodium().crypto_core_ristretto255_scalar_mul(a, b))


def invert(scalar: bytes) -> bytes:
    return bytes(sodium().crypto_core_ristretto255_scalar_invert(scalar))


def product(scalars: Sequence[bytes]) -> bytes:
    """The product of scalars (1 for none)."""
    out = (1).to_bytes(SCALAR_BYTES, "little")
    for s in scalars:
        out = scalar_mul(out, s)
    return out


def initial_deck(deck_size: int, indices: Sequence[int]) -> list[bytes]:
    """The points of a deck's cards in the order given (the canonical order: by index)."""
    if len(indices) != deck_size:
        raise ValueError("one index per card expected")
    return [card_point(i) for i in indices]


def shuffle_pass(seed: bytes, deck: Sequence[bytes]) -> list[bytes]:
    """A shuffling seat's step: ``out[j] = x · in[perm[j]]``."""
    x = shuffle_key(seed)
    order = permutation(seed, len(deck))
    return [mul(x, deck[i]) for i in order]


def shuffle_lock_pass(seed: bytes, deck: Sequence[bytes]) -> list[bytes]:
    """The last seat's step: shuffle and lock at once, ``out[j] = k_j · in[perm[j]]``."""
    order = permutation(seed, len(deck))
    return [mul(card_key(seed, j), deck[i]) for j, i in enumerate(order)]


def lock_pass(seed: bytes, deck: Sequence[bytes]) -> list[bytes]:
    """A shuffling seat's second step: swap its shuffle key for per-card keys,
    ``out[j] = (k_j · x⁻¹) · in[j]``."""
    x_inv = invert(shuffle_key(seed))
    return [mul(scalar_mul(card_key(seed, j), x_inv), p) for j, p in enumerate(deck)]


def unlock(point: bytes, keys: Sequence[bytes]) -> bytes:
    """Remove the layers of ``keys`` from ``point``: ``(∏ keys)⁻¹ · point``."""
    return mul(invert(product(keys)), point)


def open_card(point: bytes, keys: Sequence[bytes]) -> int:
    """The card under a locked point, given every seat's key for its position;
    :class:`MentalError` if the keys do not open a card."""
    card = card_of_point(unlock(point, keys))
    if card is None:
        raise MentalError("the keys do not open a card")
    return card


def opens_to(partial: bytes, key: bytes, card: int) -> bool:
    """Is ``partial`` (a locked point with every layer but one removed) the card
    ``card`` under ``key``?  One multiplication: ``key · P_card == partial``."""
    try:
        return mul(key, card_point(card)) == partial
    except MentalError:
        return False
