"""A seat's links and heartbeats, one part of a seat's session: the stream to each other
seat (the host's, for a seated player), found by seat or by the pairing id its
datagrams carry, and the signed heartbeats a seated player sends the other seated
players straight, so each can check for itself that a seat is gone (section 7 of the
protocol).

Each :class:`~durak_net.link.Link` seals, opens and retransmits; :class:`Links` keeps
them together and answers for all of them (is any lost, what they dropped, when they
next have work, what they send now).  :class:`Beacons` makes and checks the heartbeats
between seated players at a table of three or more.  No I/O: bytes and ``now`` in,
bytes out.

>>> links = Links(seat=1)
>>> link = links.open(0xAB, bytes(32), 0, ("10.0.0.1", 4000), 0.0, epoch=1)
>>> links.route(0xAB) is link, links.sids()
(True, [171])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from .identity import Identity, verify
from .link import Addr, Link
from .outcomes import HOST
from .reliable import RtoConfig
from .seating import Player, parse_addr, u64
from .wire import Beacon, Deal, Fault, encode_beacon


def beacon_signed(table: int, seat: int, count: int) -> list[bytes]:
    """What a seat signs for one heartbeat to the other seats (section 7)."""
    return [b"durak-lan v4 beacon", u64(table), bytes([seat]), u64(count)]


class Links:
    """Seat ``seat``'s links, by the other end's seat and by pairing id."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        #: The stream to each other seat (the host) or to the host (a seated player).
        self.by_seat: dict[int, Link] = {}
        self.by_sid: dict[int, Link] = {}
        #: Each link's pairing: seat -> (the name it paired with, the pairing words).
        self.pairing: dict[int, tuple[str, str]] = {}
        #: Datagrams dropped before a link took them (and by the session), by reason.
        self.drops: Counter[str] = Counter()
        self.stats: Counter[str] = Counter()

    def open(self, sid: int, key: bytes, seat: int, addr: Addr, now: float, *,
             rto: RtoConfig | None = None, epoch: int = 1, name: str = "", sas: str = ""
             ) -> Link:
        """A new link to ``seat`` (pairing id ``sid``, key ``key``), at ``addr``."""
        link = Link(sid, key, self.seat, seat, addr, now, rto or RtoConfig(), epoch)
        self.by_seat[seat] = link
        self.by_sid[sid] = link
        self.pairing[seat] = (name, sas)
        return link

    def remove(self, seat: int) -> None:
        """``seat``'s player got up before play: its link is gone."""
        link = self.by_seat.pop(seat)
        self.by_sid = {s: lk for s, lk in self.by_sid.items() if lk is not link}

    def restart(self, epoch: int) -> list[int]:
        """We are back from our journal in epoch ``epoch``: every link's streams start
        afresh (its peer, hearing the new epoch, restarts its own).  Returns the seats at
        their other ends, each to be told where we stand and caught up on its Sync
        (:meth:`durak_net.resync.Resync.peer_restarted`)."""
        for link in self.by_seat.values():
            link.epoch = epoch
            link.channel.reset()
        return list(self.by_seat)

    def route(self, sid: int) -> Link | None:
        """The link whose datagrams carry pairing id ``sid``."""
        return self.by_sid.get(sid)

    def sids(self) -> list[int]:
        """The pairing ids our links' datagrams carry."""
        return list(self.by_sid)

    def sas(self, seat: int) -> str:
        """The pairing words of the link to ``seat`` ("" if none)."""
        return self.pairing.get(seat, ("", ""))[1]

    @property
    def lost(self) -> bool:
        """Is any link lost?  (Asked whenever the session's timer is, so a plain loop.)"""
        for link in self.by_seat.values():  # noqa: SIM110 (no generator: asked often)
            if link.lost:
                return True
        return False

    def rendezvous_tags(self) -> list[bytes]:
        """The tags of the links that look for their peer (resumed, or lost)."""
        return [link.rendezvous for link in self.by_seat.values()
                if link.lost or link.peer_epoch == 0]

    def total_drops(self) -> Counter[str]:
        """Datagrams dropped, by reason, over every link and before any."""
        total = Counter(self.drops)
        for link in self.by_seat.values():
            total.update(link.drops)
        return total

    def total_stats(self) -> Counter[str]:
        total = Counter(self.stats)
        for link in self.by_seat.values():
            total.update(link.stats)
        return total

    def silent(self, now: float, lost_after: float) -> list[tuple[int, float]]:
        """The seats whose link has just gone silent (lost): ``(seat, silent since)``."""
        out = []
        for link in self.by_seat.values():
            since = link.silent_since(now, lost_after)
            if since is not None:
                out.append((link.peer_seat, since))
        return out

    def next_timer(self, heartbeat: float, lost_after: float) -> tuple[float, ...]:
        """When each link next has work (a heartbeat, a retransmission, a silence)."""
        return tuple([link.next_timer(heartbeat, lost_after) for link in self.by_seat.values()])

    def datagrams_to_send(self, now: float, heartbeat: float, quiet: bool
                          ) -> list[tuple[bytes, Addr]]:
        """Every link's datagrams to send now (``quiet``: acks only, we are closed)."""
        out: list[tuple[bytes, Addr]] = []
        for link in self.by_seat.values():
            out += link.datagrams_to_send(now, heartbeat, quiet=quiet)
        return out

    def in_flight(self) -> int:
        """Frames sent and not acknowledged yet, over every link."""
        return sum(link.channel.in_flight for link in self.by_seat.values())


class Beacons:
    """The heartbeats of seat ``seat`` at table ``table`` of ``players`` seats to the
    other seated players (only a seated player at a table of three or more sends or
    takes them: ``on``)."""

    def __init__(self, table: int, seat: int, players: int, now: float) -> None:
        self.table = table
        self.seat = seat
        self.players = players
        self.on = seat != HOST and players >= 3
        self.sent = 0
        self.next_at = now
        #: The seats our heartbeats have gone to: one new to us (its address just came
        #: in the Seating) gets one at once, so that the others hear us from the start
        #: (a seat never heard directly is never named on the host's word, section 7).
        self.greeted: set[int] = set()

    def due(self, has_addr: bool, closing: bool) -> float | None:
        """When our next heartbeat is due (None: we send none: we gave no address the
        others could answer us at, or we are leaving)."""
        return self.next_at if self.on and has_addr and not closing else None

    def send(self, now: float, heartbeat: float, identity: Identity,
             players: Mapping[int, Player], fault: Fault | None = None,
             seed: Deal | None = None) -> list[tuple[bytes, Addr]]:
        """Our heartbeat, signed, to every other seated player that gave an address, if
        one is due at ``now`` (the next is due ``heartbeat`` later); with ``fault``, the
        Fault by which we stopped the game in play rides along, and with ``seed``, our
        published seed of it."""
        targets = []
        for seat, player in sorted(players.items()):
            addr = parse_addr(player.addr)
            if seat not in (HOST, self.seat) and addr is not None:
                targets.append((seat, addr))
        if now < self.next_at and all(seat in self.greeted for seat, _ in targets):
            return []
        self.greeted.update(seat for seat, _ in targets)
        self.next_at = now + heartbeat
        self.sent += 1
        sig = identity.sign(*beacon_signed(self.table, self.seat, self.sent))
        data = encode_beacon(Beacon(self.table, self.seat, self.sent, sig, fault, seed))
        return [(data, addr) for _, addr in targets]

    def check(self, beacon: Beacon, keys: list[bytes]) -> bool:
        """Is ``beacon`` another seated player's heartbeat of our table, signed by it?"""
        seat = beacon.seat
        return beacon.table == self.table and 0 < seat < self.players and (
            seat != self.seat) and verify(keys[seat], beacon.sig,
                                          *beacon_signed(self.table, seat, beacon.count))
