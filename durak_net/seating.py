"""Who sits where, one part of a seat's session: each seat's player (name, signing key,
kind, the address it takes heartbeats at), what a Hello or a Seating changes, the free
seats, and the words everybody at the table compares.

The host seats players (each paired over its own link) and tells every seat who sits
where in a Seating; a seated player takes the host's Seating, but never lets the host
change a key it already knows, nor seat somebody else at its own seat (section 7 of the
protocol).  An address is kept only when its seat signed it (:func:`addr_signed`): the
others send that seat heartbeats there, and a host cannot point them elsewhere.  No I/O:
the session sends the frames and journals the records; this part decides what they
change.

>>> chart = SeatingChart(table=7, seats=3, me=0, mine=Player(0, "Ann", b"k" * 32, "host"))
>>> chart.seat(1, "Ben", "player")
>>> chart.free()
[2]
>>> chart.missing()  # Ben's key arrives in his Hello
[1, 2]
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from .identity import verify
from .link import Addr
from .notes import Note, Seat
from .wire import Hello, SeatInfo, Seating
from .words import WORDS


@dataclass
class Player:
    """Who sits at a seat, as the table knows it."""

    seat: int
    name: str
    sign_key: bytes = b""
    kind: str = "open"  # host, player, bot, open
    #: Where the seat takes heartbeats from the other seats (``"ip:port"``, as it
    #: signed it: ``addr_sig``); "" when unknown.
    addr: str = ""
    addr_sig: bytes = b""


def u64(n: int) -> bytes:
    """``n`` as 8 bytes, big-endian (the protocol's integers in signed bytes)."""
    return n.to_bytes(8, "big")


def table_words(table: int, keys: list[bytes], pairing: str | None = None) -> str:
    """``BLAKE2b-256("durak-lan v3 table" || u64be(table) || ([seat] || key) for every
    seat in order)``, its first four bytes as words (section 5 of the protocol).

    A table of two passes ``pairing``, the pairing words of its one link: the label is
    then ``"durak-lan v4 table of two"`` and the words' UTF-8 text follows the keys.  A
    man in the middle of a game of two relays both seats' signed keys untouched, so
    keys alone would give both screens the same table words next to pairing words that
    differ; bound to the pairing words, they differ too."""
    label = b"durak-lan v3 table" if pairing is None else b"durak-lan v4 table of two"
    data = label + u64(table)
    for seat, key in enumerate(keys):
        data += bytes([seat]) + key
    if pairing is not None:
        data += pairing.encode()
    digest = hashlib.blake2b(data, digest_size=32).digest()
    return " ".join(WORDS[b] for b in digest[:4])


def addr_signed(table: int, seat: int, addr: str) -> list[bytes]:
    """What a seat signs for the address the others send it heartbeats to."""
    return [b"durak-lan v4 address", u64(table), bytes([seat]), addr.encode()]


def addr_text(addr: Addr | None) -> str:
    """An address as a seat signs it (``"ip:port"``; "" for none)."""
    return f"{addr[0]}:{addr[1]}" if addr and addr[0] else ""


def parse_addr(text: str) -> Addr | None:
    """The address of ``"ip:port"`` (None: not one)."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return (host, int(port))


class SeatingChart:
    """Every seat's player at table ``table`` of ``seats`` seats, as seat ``me`` (whose
    player is ``mine``) knows them."""

    def __init__(self, table: int, seats: int, me: int, mine: Player) -> None:
        self.table = table
        self.me = me
        self.players: dict[int, Player] = {s: Player(s, "", b"", "open") for s in range(seats)}
        self.players[me] = mine
        #: Host: a table of two starts once the other seat's Hello is in.
        self.start_when_ready = False

    # ------------------------------------------------------------------ reading

    def free(self) -> list[int]:
        """Seats nobody holds yet."""
        return [s for s, p in sorted(self.players.items()) if p.kind == "open"]

    def missing(self) -> list[int]:
        """Seats whose signing key we do not know yet (nobody there, or no Hello)."""
        return [s for s, p in self.players.items() if not p.sign_key]

    def keys(self) -> list[bytes]:
        """Every seat's signing key, in seat order (b"": not known yet)."""
        return [self.players[s].sign_key for s in range(len(self.players))]

    def names(self, ours: str | None = None) -> list[str]:
        """Each seat's player's name.  ``ours``: our own name as our screen says it of
        us, for the words of a verdict we settle ourselves ("you" if it is empty); None:
        ours as the seating has it."""
        names = [self.players[s].name or f"seat {s}" for s in range(len(self.players))]
        if ours is not None:
            names[self.me] = ours or "you"
        return names

    def infos(self) -> list[SeatInfo]:
        """Who sits where, as a Seating says it."""
        return [SeatInfo(p.seat, p.name[:40], p.sign_key, p.kind, p.addr, p.addr_sig)
                for _, p in sorted(self.players.items())]

    def words(self, pairing: str | None = None) -> str:
        """The table words ("" until every seat's key is known); a table of two passes
        the pairing words of its one link (see :func:`table_words`)."""
        keys = self.keys()
        if not all(keys):
            return ""
        return table_words(self.table, keys, pairing)

    def hello(self, name: str) -> Hello:
        """Our Hello to the host: our name, key and signed address."""
        me = self.players[self.me]
        return Hello(0, self.me, name or "player", me.sign_key, me.addr, me.addr_sig)

    # ------------------------------------------------------------------ changes

    def seat(self, seat: int, name: str, kind: str) -> None:
        """A player paired for ``seat`` (its key arrives in its Hello); also the host's
        seat, for a seated player."""
        self.players[seat] = Player(seat, name, b"", kind)

    def open_again(self, seat: int) -> None:
        """The player of ``seat`` got up before play: the seat is open again."""
        self.players[seat] = Player(seat, "", b"", "open")

    def take_hello(self, frame: Hello, link_seat: int, host: bool) -> Note | None:
        """Host: a seat's Hello over ``link_seat``'s link.  None: taken (its name, key,
        and address if it signed it); else the protocol violation it is (a Hello for
        another seat, or a key other than the one the seat said before)."""
        if not host or frame.seat != link_seat:
            return Note.of("hello_wrong_link", seat=Seat(link_seat))
        player = self.players[frame.seat]
        if player.sign_key and player.sign_key != frame.sign_key:
            return Note.of("key_changed", seat=Seat(frame.seat))
        player.name, player.sign_key = frame.name, frame.sign_key
        if frame.addr and verify(frame.sign_key, frame.addr_sig,
                                 *addr_signed(self.table, frame.seat, frame.addr)):
            player.addr, player.addr_sig = frame.addr, frame.addr_sig
        if player.kind == "open":
            player.kind = "player"
        return None

    def ready(self) -> bool:
        """Host: was the table waiting for the last Hello to start, and is it in?  (Once:
        the answer is True only the first time.)"""
        if self.start_when_ready and not self.missing():
            self.start_when_ready = False
            return True
        return False

    def take_seating(self, frame: Seating) -> Note | None:
        """A seated player: the host's Seating.  None: taken; else the violation it is
        (our seat given to another key, a key the host changed)."""
        for info in frame.seats:
            if info.seat == self.me:
                if info.sign_key and info.sign_key != self.players[self.me].sign_key:
                    return Note.of("our_seat_taken")
                continue
            old = self.players.get(info.seat)
            if old is not None and old.sign_key and info.sign_key != old.sign_key:
                return Note.of("host_changed_key", seat=Seat(info.seat))
            signed = bool(info.addr) and verify(info.sign_key, info.addr_sig, *addr_signed(
                self.table, info.seat, info.addr))
            self.players[info.seat] = Player(info.seat, info.name, info.sign_key, info.kind,
                                             info.addr if signed else "",
                                             info.addr_sig if signed else b"")
        return None

    def seating_record(self, frame: Seating) -> list[list[Any]]:
        """The ``seats`` of a ``seating`` journal record of ``frame`` (as taken)."""
        return [[i.seat, i.name, i.sign_key.hex(), i.kind, self.players[i.seat].addr,
                 self.players[i.seat].addr_sig.hex()] for i in frame.seats]

    # ------------------------------------------------------------------ replay

    def replay_hello(self, rec: dict[str, Any]) -> None:
        """A ``hello`` record (host): a seat's name, signing key and address."""
        seat = int(rec["seat"])
        what = self.players[seat].kind
        self.players[seat] = Player(seat, str(rec["name"]), bytes.fromhex(rec["key"]),
                                    what if what != "open" else "player",
                                    str(rec.get("addr", "")),
                                    bytes.fromhex(rec.get("addr_sig", "")))

    def replay_seating(self, rec: dict[str, Any]) -> None:
        """A ``seating`` record (a seated player): who sits where."""
        for seat, name, key, what, *addr in rec["seats"]:
            if int(seat) != self.me:
                self.players[int(seat)] = Player(
                    int(seat), str(name), bytes.fromhex(key), str(what),
                    str(addr[0]) if addr else "", bytes.fromhex(addr[1]) if addr else b"")
