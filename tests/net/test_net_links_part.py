"""The links part on its own (no session, no network): a seat's links found by seat and
by pairing id, what they drop and send together, and the signed heartbeats between
seated players."""

from __future__ import annotations

import msgspec
from msgspec import Struct

from durak_net.identity import Identity
from durak_net.links import Beacons, Links, beacon_signed
from durak_net.seating import Player
from durak_net.wire import (
    FAULT_BYTES,
    MAX_DATAGRAM,
    Beacon,
    Deal,
    Fault,
    Sync,
    decode_beacon,
)

TABLE = 0x11C5


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


def _pair(now: float = 0.0) -> tuple[Links, Links]:
    """A host's links and a seated player's, paired with the same key."""
    host, ben = Links(seat=0), Links(seat=1)
    host.open(0xA1, bytes(range(32)), 1, ("10.0.0.2", 4000), now, name="Ben", sas="one two")
    ben.open(0xA1, bytes(range(32)), 0, ("10.0.0.1", 4000), now, name="Ann", sas="one two")
    return host, ben


def test_a_link_is_found_by_seat_and_by_pairing_id_until_its_seat_is_given_up() -> None:
    host, _ = _pair()
    link = host.by_seat[1]
    assert host.route(0xA1) is link and host.route(0xB2) is None
    assert host.sids() == [0xA1] and host.sas(1) == "one two" and host.sas(2) == ""
    host.open(0xB2, bytes(32), 2, ("10.0.0.3", 4000), 0.0)
    host.remove(1)
    assert host.route(0xA1) is None and host.sids() == [0xB2] and 1 not in host.by_seat


def test_a_seat_back_from_its_journal_restarts_every_links_streams_in_its_new_epoch(
        ) -> None:
    host, _ = _pair()
    host.open(0xB2, bytes(32), 2, ("10.0.0.3", 4000), 0.0)
    for link in host.by_seat.values():
        link.push(Sync(0, 1, 3), 0.0)
    assert host.in_flight() == 2
    assert host.restart(epoch=4) == [1, 2]  # (each seat is then told where we stand)
    assert host.in_flight() == 0
    assert [link.epoch for link in host.by_seat.values()] == [4, 4]
    host.by_seat[1].push(Sync(0, 1, 3), 0.0)
    assert host.by_seat[1].channel.due(0.0)[0].seq == 1  # a new stream begins at 1


def test_frames_pushed_on_one_side_arrive_on_the_other_and_nothing_is_in_flight_after() -> None:
    host, ben = _pair()
    host.by_seat[1].push(Sync(0, 1, 3), 0.0)
    assert host.in_flight() == 1
    sent = host.datagrams_to_send(0.0, heartbeat=1.0, quiet=False)
    assert sent and all(addr == ("10.0.0.2", 4000) for _, addr in sent)
    got = []
    for data, _ in sent:
        link = ben.route(0xA1)
        assert link is not None
        packet = link.open(data)
        assert link.accept(packet, ("10.0.0.1", 4000), 0.1).accepted
        got += link.frames(packet)
    assert [type(f) for f in got] == [Sync]
    for data, _ in ben.datagrams_to_send(0.2, heartbeat=1.0, quiet=False):
        link = host.by_seat[1]
        link.accept(link.open(data), ("10.0.0.2", 4000), 0.3)
    assert host.in_flight() == 0


def test_a_silent_link_is_reported_lost_once_and_its_tag_looked_for() -> None:
    host, _ = _pair()
    assert not host.lost and host.next_timer(1.0, 3.0)
    assert host.silent(2.0, lost_after=3.0) == []
    (lost,) = host.silent(10.0, lost_after=3.0)
    assert lost[0] == 1 and lost[1] > 0
    assert host.lost and host.silent(11.0, lost_after=3.0) == []  # (once)
    assert host.rendezvous_tags() == [host.by_seat[1].rendezvous]


def test_drops_are_counted_over_every_link_and_before_any() -> None:
    host, _ = _pair()
    host.drops["unknown_session"] += 2
    host.by_seat[1].drops["bad_tag"] += 1
    assert host.total_drops() == {"unknown_session": 2, "bad_tag": 1}
    assert host.drops == {"unknown_session": 2}  # (the links' own stay theirs)


def _players(addr2: str = "10.0.0.3:4002") -> dict[int, Player]:
    return {0: Player(0, "Ann", b"", "host"), 1: Player(1, "Ben", b"", "player", "10.0.0.2:4001"),
            2: Player(2, "Cat", b"", "player", addr2)}


def test_a_seated_player_at_three_seats_sends_signed_heartbeats_to_the_other_players() -> None:
    ben = _identity(2)
    beacons = Beacons(TABLE, 1, 3, now=5.0)
    assert beacons.on and beacons.due(has_addr=True, closing=False) == 5.0
    assert beacons.send(4.0, 1.0, ben, _players("")) == []  # nobody to send to yet
    sent = beacons.send(4.5, 1.0, ben, _players())  # Cat's address is new: at once
    assert [addr for _, addr in sent] == [("10.0.0.3", 4002)]  # not the host, not us
    beacon = decode_beacon(sent[0][0])
    assert (beacon.table, beacon.seat, beacon.count) == (TABLE, 1, 1)
    assert beacons.due(True, False) == 5.5 and beacons.send(5.0, 1.0, ben, _players()) == []
    assert decode_beacon(beacons.send(5.5, 1.0, ben, _players())[0][0]).count == 2
    assert beacons.send(6.5, 1.0, ben, _players("")) == []  # Cat gave no address
    assert beacons.due(has_addr=False, closing=False) is None
    assert beacons.due(has_addr=True, closing=True) is None


def test_only_a_seated_player_at_three_or_more_seats_sends_heartbeats() -> None:
    assert not Beacons(TABLE, 0, 3, 0.0).on  # the host hears everyone over its links
    assert not Beacons(TABLE, 1, 2, 0.0).on  # a table of two has only the host
    assert Beacons(TABLE, 0, 3, 0.0).due(True, False) is None


def test_a_heartbeat_counts_only_if_its_seat_signed_it_for_our_table() -> None:
    cat, mallory = _identity(3), _identity(9)
    keys = [b"", _identity(2).public, cat.public]
    mine = Beacons(TABLE, 1, 3, 0.0)

    def beacon(who: Identity, table: int = TABLE, seat: int = 2, count: int = 7) -> Beacon:
        return Beacon(table, seat, count, who.sign(*beacon_signed(table, seat, count)))

    assert mine.check(beacon(cat), keys)
    assert not mine.check(beacon(mallory), keys)  # not Cat's
    assert not mine.check(beacon(cat, table=TABLE + 1), keys)
    assert not mine.check(Beacon(TABLE, 2, 8, beacon(cat).sig), keys)  # replayed count
    assert not mine.check(beacon(cat, seat=0), keys)  # the host sends none
    assert not mine.check(beacon(cat, seat=1), keys)  # "from" us
    assert not mine.check(beacon(cat, seat=3), keys)  # no such seat


def test_a_heartbeat_can_carry_its_seats_fault_and_seed_and_still_fits_a_datagram() -> None:
    ben = _identity(2)
    # The largest Fault the wire allows: FAULT_BYTES encoded (its detail cut to fit).
    def fault_with(evidence: bytes) -> Fault:
        return Fault(2**32, 2**16, 2**16, 5, "x" * 24, "y" * 30, 1, bytes(64), [evidence])

    room = FAULT_BYTES - len(msgspec.msgpack.encode(fault_with(b""))) - 1
    biggest = fault_with(bytes(room))
    assert len(msgspec.msgpack.encode(biggest)) == FAULT_BYTES
    fault = Fault(0, 1, 4, 0, "stalled", "neither placed nor refused our move", 1,
                  bytes(64))
    seed = Deal(0, 1, 1, bytes(40), bytes(64))
    beacons = Beacons(TABLE, 1, 3, now=0.0)
    (data, _), = beacons.send(0.0, 1.0, ben, _players(), fault, seed)
    beacon = decode_beacon(data)
    assert (beacon.fault, beacon.seed) == (fault, seed)
    # The largest Fault the wire allows and a seed message still make one datagram
    # (MAX_DATAGRAM: the beacon's decoder refuses longer ones).
    (data, _), = Beacons(TABLE, 1, 3, now=0.0).send(0.0, 1.0, ben, _players(), biggest,
                                                     seed)
    assert len(data) <= MAX_DATAGRAM and decode_beacon(data).fault == biggest


def test_a_peer_that_knows_heartbeats_without_fault_or_seed_still_reads_one_with_them() -> None:
    class OldBeacon(Struct, array_like=True, frozen=True):  # the four fields of before
        table: int
        seat: int
        count: int
        sig: bytes

    beacon = Beacon(TABLE, 2, 7, bytes(64), Fault(0, 1, 4, 0, "stalled", "", 2, bytes(64)))
    old = msgspec.msgpack.decode(msgspec.msgpack.encode(beacon), type=OldBeacon)
    assert (old.table, old.seat, old.count, old.sig) == (TABLE, 2, 7, bytes(64))
    plain = msgspec.msgpack.encode(OldBeacon(TABLE, 2, 7, bytes(64)))
    assert msgspec.msgpack.decode(plain, type=Beacon) == Beacon(TABLE, 2, 7, bytes(64))
