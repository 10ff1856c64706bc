"""Proposals that commit first and open their move only once the host has placed them.

A seated player's move travels in three steps (section 7 of docs/lan-protocol.md):

1. **Propose**: the seat sends a *commitment* to its move, a hash of a fresh random
   salt, the action's text and the reveals of the cards it opens, signed with the log
   it was made on (``seen``, ``seen_hash``).  The host learns that the seat moves, not
   what it plays.
2. **Order**: the host places the commitment at the next index of its log, which must
   be the log the seat made it on (``index == seen``), and signs that place.  A
   proposal the table has moved past is refused here, still closed.  From now on the
   index is the proposal's: the host appends nothing else until it is opened.
3. **Open**: the seat checks the place and only then sends the salt, the action and
   its card keys; the host checks them against the commitment and appends the entry,
   which carries the salt so that every seat can check the proposer's signature.

So a host that refuses a proposal has seen no card of it, and a host that refuses one
it has placed, or fills its place with another entry, holds nothing the proposer cannot
show: the proposer names it (``bad_refusal``, ``bad_order``).  This module holds the
derivations and the two sides' bookkeeping; :class:`~durak_net.session.Session` wires
them to its links.

>>> c = proposal_commit(bytes(16), "1 take", [])
>>> len(c), c == proposal_commit(bytes(16), "1 take", [])
(32, True)
>>> c == proposal_commit(bytes([1]) + bytes(15), "1 take", [])
False
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from durak_core import Action

from .wire import Open, Propose

#: Bytes of the salt that hides a committed move (the actions open to a seat are few;
#: without a salt the host could hash every one and compare).
SALT_BYTES = 16


def _u64(n: int) -> bytes:
    return n.to_bytes(8, "big")


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def proposal_commit(salt: bytes, action: str, reveals: list[tuple[int, bytes]]) -> bytes:
    """``BLAKE2b-256("durak-lan v4 proposal" || salt || action || 0x00 || [count] ||
    ([position] || key)*)``: what a Propose commits to."""
    opened = b"".join(bytes([p]) + k for p, k in reveals)
    data = (b"durak-lan v4 proposal" + salt + action.encode() + b"\x00"
            + bytes([len(reveals)]) + opened)
    return hashlib.blake2b(data, digest_size=32).digest()


def salt_for(secret: bytes, table: int, game: int, pid: int) -> bytes:
    """The salt of proposal ``pid``: ``BLAKE2b-128(key = secret, "durak-lan v4 salt" ||
    u64be(table) || u32be(game) || u64be(pid))`` with the seat's private signing key as
    ``secret``.  Nobody else can compute it, and a seat back from its journal makes the
    same one again (any 16 bytes the host cannot guess would do: the spec asks no more)."""
    data = b"durak-lan v4 salt" + _u64(table) + _u32(game) + _u64(pid)
    return hashlib.blake2b(data, key=secret[:64], digest_size=SALT_BYTES).digest()


def proposal_signed(table: int, game: int, seat: int, pid: int, commit: bytes, seen: int,
                    seen_hash: bytes) -> list[bytes]:
    """What a seat signs for one of its proposals (section 7 of the protocol)."""
    return [b"durak-lan v4 propose", _u64(table), _u32(game), bytes([seat]), _u64(pid),
            commit, _u32(seen), seen_hash]


def order_signed(table: int, game: int, seat: int, pid: int, commit: bytes,
                 index: int) -> list[bytes]:
    """What the host signs when it places seat ``seat``'s proposal ``pid`` (committed to
    ``commit``) at entry ``index`` of game ``game``."""
    return [b"durak-lan v4 order", _u64(table), _u32(game), bytes([seat]), _u64(pid),
            commit, _u32(index)]


@dataclass
class OwnProposal:
    """A proposal of our seat on its way: the move, its opening (kept until the host has
    placed it), the Propose as sent, and the host's signed place once it came."""

    action: Action
    reveals: list[tuple[int, bytes]]
    salt: bytes
    frame: Propose
    #: Our seat's automatic pass (the player made no move).
    automatic: bool = False
    #: Made because our move clock ran out (a lead).
    timeout: bool = False
    #: The index the host placed it at, and its signature (-1: not placed yet).
    index: int = -1
    order_sig: bytes = b""

    @property
    def opening(self) -> Open:
        """The Open frame that reveals the move (sent only once it is placed)."""
        return Open(0, self.frame.pid, str(self.action), self.reveals, self.salt)


@dataclass
class Slot:
    """Host: a proposal placed at ``index`` and not opened yet; nothing else is appended
    until it is (or the seat is handed to a bot)."""

    seat: int
    frame: Propose
    index: int
    game: int
