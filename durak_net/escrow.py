"""Key escrow: how the other seats can open a lost seat's hand so a bot can finish it.

At a table of three or more, a seat whose player vanishes would stop the game for
everyone: its cards are locked under its key alone.  So when a game is dealt, each
seat splits its 32-byte seed into one *share* per other seat (XOR shares: all of them
together give the seed, any fewer give nothing) and sends each share encrypted to its
recipient, with a public hash of every share and of the seed.  If the seat is lost
for the table's grace period, the host hands it to a bot: every other seat publishes
its share (checked against its hash), everybody rebuilds the seed (checked against
its hash and against the keys the seat already sent), and the lost seat's hand is
then open to every seat alike while the bot plays it.

No single seat (not the host either) learns anything from the escrow; all the other
seats together could open the hand, as they could if they all conspired anyway to
share what they see.  A table of two has no escrow: the one share would be the seed.

Encryption is libsodium's ``crypto_box`` (X25519, XSalsa20-Poly1305) between the two
seats' signing keys converted to X25519 (``crypto_sign_ed25519_*_to_curve25519``: the
table words already vouch for the signing keys), with a nonce that names the table,
the game and both seats, so the message is the same bytes when a restarted seat sends
it again.  The shares follow from the seed, so the audit could rebuild them too.

>>> seed = bytes(range(32))
>>> shares = split(seed, 5, [0, 1, 3, 4])          # seat 2's seed, for the four others
>>> combine(shares.values()) == seed
True
>>> combine(list(shares.values())[:3]) == seed
False
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from .mental import sodium

SHARE_BYTES = 32
#: A sealed share: the share and Poly1305's 16-byte tag.
SEALED_BYTES = SHARE_BYTES + 16


def box_keys(sign_private: bytes) -> tuple[bytes, bytes]:
    """Our X25519 key pair (public, secret) from our Ed25519 signing key's 32 bytes."""
    na = sodium()
    public, secret = na.crypto_sign_seed_keypair(sign_private)
    return na.crypto_sign_pk_to_box_pk(public), na.crypto_sign_sk_to_box_sk(secret)


def box_public(sign_public: bytes) -> bytes:
    """Another seat's X25519 public key from its Ed25519 public key."""
    return bytes(sodium().crypto_sign_pk_to_box_pk(sign_public))


def nonce(table: int, game: int, sender: int, recipient: int) -> bytes:
    """The 24-byte nonce of one share: unique per table, game and pair of seats."""
    data = (b"durak-lan v3 escrow nonce" + table.to_bytes(8, "big") + game.to_bytes(4, "big")
            + bytes([sender, recipient]))
    return hashlib.blake2b(data, digest_size=24).digest()


def split(seed: bytes, players: int, others: Sequence[int]) -> dict[int, bytes]:
    """One share of ``seed`` per seat in ``others``: all but the last derived from the
    seed (keyed BLAKE2b), the last the XOR of the seed with all of them."""
    if not others:
        raise ValueError("a seed is shared among at least one other seat")
    shares: dict[int, bytes] = {}
    rest = seed
    for seat in others[:-1]:
        share = hashlib.blake2b(b"escrow share" + bytes([seat, players]), key=seed,
                                digest_size=SHARE_BYTES).digest()
        shares[seat] = share
        rest = _xor(rest, share)
    shares[others[-1]] = rest
    return shares


def combine(shares: Iterable[bytes]) -> bytes:
    """The seed the shares make (the XOR of them all)."""
    out = bytes(SHARE_BYTES)
    for share in shares:
        out = _xor(out, share)
    return out


def commitment(share: bytes) -> bytes:
    """The public hash of one share (its publisher is held to it)."""
    return hashlib.blake2b(b"durak-lan v3 escrow share" + share, digest_size=32).digest()


def seed_check(table: int, game: int, seat: int, seed: bytes) -> bytes:
    """The public hash of a seat's seed (the rebuilt seed must match it)."""
    data = (b"durak-lan v3 escrow seed" + table.to_bytes(8, "big") + game.to_bytes(4, "big")
            + bytes([seat]) + seed)
    return hashlib.blake2b(data, digest_size=32).digest()


def seal(share: bytes, nonce_: bytes, recipient_public: bytes, sender_secret: bytes) -> bytes:
    """``share`` encrypted and authenticated from us to the recipient."""
    return bytes(sodium().crypto_box(share, nonce_, recipient_public, sender_secret))


def unseal(sealed: bytes, nonce_: bytes, sender_public: bytes, recipient_secret: bytes
           ) -> bytes | None:
    """The share the sender sealed for us, or None if it does not open."""
    try:
        return bytes(sodium().crypto_box_open(sealed, nonce_, sender_public, recipient_secret))
    except (ValueError, RuntimeError):
        return None


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))
