"""Look through a peer's memory for a way to open the other seat's hidden cards.

What an attacker would try with everything its own process holds: every 32-byte
string and every 64-digit hex string it can find (standalone, or inside a deal
message it received), used as a key for a position, and as a seed that derives keys.
A hidden position of the other seat is *opened* when one of them turns the locked
point (with our own key removed) into a card.  The scan is tested against memory
that does hold a key, so a scan that finds nothing means something.
"""

from __future__ import annotations

import contextlib
import gc
import pickle
import pickletools
from collections.abc import Iterable

from durak_net import mental
from durak_net.dealer import Keys, MentalDealer, Seed, Trump, decode


def candidates_in(blobs: Iterable[bytes | str]) -> set[bytes]:
    """The 32-byte values an attacker would try, from raw strings found in memory."""
    out: set[bytes] = set()
    for blob in blobs:
        if isinstance(blob, str):
            if len(blob) == 64:
                with contextlib.suppress(ValueError):
                    out.add(bytes.fromhex(blob))
            continue
        if len(blob) == 32:
            out.add(bytes(blob))
            continue
        try:  # a deal message kept in memory (sent or received)
            message = decode(bytes(blob))
        except ValueError:
            continue
        if isinstance(message, Keys):
            out.update(message.keys)
        elif isinstance(message, Trump) and message.key:
            out.add(message.key)
        elif isinstance(message, Seed):
            out.add(message.seed)
    return out


def strings_in_pickle(data: bytes) -> list[bytes | str]:
    """Every bytes and str constant in a pickle."""
    out: list[bytes | str] = []
    for op, arg, _ in pickletools.genops(data):
        if isinstance(arg, bytes | str) and op.name not in ("GLOBAL", "STACK_GLOBAL"):
            out.append(arg)
    return out


def strings_in_memory() -> list[bytes | str]:
    """Every bytes and str object referenced by any object the garbage collector tracks."""
    out: list[bytes | str] = []
    seen: set[int] = set()
    for obj in gc.get_objects():
        for ref in gc.get_referents(obj):
            if isinstance(ref, bytes | bytearray | str) and id(ref) not in seen:
                seen.add(id(ref))
                out.append(ref)
    return out


def opened_by(dealer: MentalDealer, positions: Iterable[int], keys: set[bytes]) -> dict[int, int]:
    """Positions whose card one of ``keys`` opens (as a key, or as a seed), given what
    ``dealer`` (our seat) knows: the locked deck and our own keys."""
    locked = dealer.locked
    assert locked is not None
    found: dict[int, int] = {}
    usable = [k for k in keys if k != bytes(32)]
    for j in positions:
        # Everything but the holder's own key, as far as we know them (at a table of
        # two: our key; at larger tables also the keys the other seats published).
        known = dealer._others_keys(j, dealer.owner.get(j, -1))
        if known is None:
            continue
        partial = mental.unlock(locked[j], known)
        for key in usable:
            for guess in (key, mental.card_key(key, j)):
                try:
                    card = mental.card_of_point(mental.unlock(partial, [guess]))
                except (mental.MentalError, ValueError):
                    continue
                if card is not None:
                    found[j] = card
                    break
            if j in found:
                break
    return found


def hidden_positions(dealer: MentalDealer, seat: int) -> list[int]:
    """Positions ``seat`` holds that nobody else has seen opened (from ``dealer``'s seat)."""
    return [j for j, s in sorted(dealer.owner.items()) if s == seat and j not in dealer.opened]


def opened_own_positions(dealer: MentalDealer) -> list[int]:
    """Our own hidden positions whose card we have opened: every other seat's key to it
    has arrived, so our memory must hold a way to open it (a card just drawn, its keys
    still on the way, is not one of them yet)."""
    return [j for j in hidden_positions(dealer, dealer.seat) if j in dealer.mine]


def pickled_candidates(obj: object) -> set[bytes]:
    return candidates_in(strings_in_pickle(pickle.dumps(obj)))
