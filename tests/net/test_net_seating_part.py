"""The seating part on its own (no session, no network): who sits where, what a Hello
or a Seating changes, which seats are free, and the table words."""

from __future__ import annotations

from durak_net.identity import Identity
from durak_net.seating import (
    Player,
    SeatingChart,
    addr_signed,
    addr_text,
    parse_addr,
    table_words,
)
from durak_net.wire import Hello, SeatInfo, Seating

TABLE = 0x5EA7


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


HOST_ID, BEN, CAT, MALLORY = _identity(1), _identity(2), _identity(3), _identity(9)


def _host_chart(seats: int = 3) -> SeatingChart:
    return SeatingChart(TABLE, seats, 0, Player(0, "Ann", HOST_ID.public, "host"))


def _hello(who: Identity, seat: int, name: str, addr: str = "") -> Hello:
    sig = who.sign(*addr_signed(TABLE, seat, addr)) if addr else b""
    return Hello(0, seat, name, who.public, addr, sig)


def test_a_paired_seat_is_taken_but_its_key_comes_only_with_its_hello() -> None:
    chart = _host_chart()
    assert chart.free() == [1, 2] and chart.missing() == [1, 2]
    chart.seat(1, "Ben", "player")
    assert chart.free() == [2] and chart.missing() == [1, 2]
    assert chart.take_hello(_hello(BEN, 1, "Ben"), link_seat=1, host=True) is None
    assert chart.missing() == [2]
    assert chart.keys() == [HOST_ID.public, BEN.public, b""]
    assert chart.names() == ["Ann", "Ben", "seat 2"]


def test_a_hello_for_another_seat_or_with_a_new_key_is_a_violation_and_changes_nothing() -> None:
    chart = _host_chart()
    chart.seat(1, "Ben", "player")
    chart.seat(2, "Cat", "player")
    wrong = chart.take_hello(_hello(CAT, 2, "Cat"), link_seat=1, host=True)
    assert wrong is not None and wrong.code == "hello_wrong_link"
    assert chart.players[2].sign_key == b""
    assert chart.take_hello(_hello(BEN, 1, "Ben"), link_seat=1, host=True) is None
    changed = chart.take_hello(_hello(MALLORY, 1, "Ben"), link_seat=1, host=True)
    assert changed is not None and changed.code == "key_changed"
    assert chart.players[1].sign_key == BEN.public
    # Only the host takes Hellos.
    player = SeatingChart(TABLE, 3, 1, Player(1, "Ben", BEN.public, "player"))
    assert player.take_hello(_hello(CAT, 2, "Cat"), link_seat=0, host=False) is not None


def test_an_address_is_kept_only_when_its_seat_signed_it() -> None:
    chart = _host_chart()
    chart.seat(1, "Ben", "player")
    chart.seat(2, "Cat", "player")
    assert chart.take_hello(_hello(BEN, 1, "Ben", "10.0.0.2:4000"), 1, True) is None
    forged = Hello(0, 2, "Cat", CAT.public, "10.0.0.66:4000",
                   MALLORY.sign(*addr_signed(TABLE, 2, "10.0.0.66:4000")))
    assert chart.take_hello(forged, 2, True) is None
    assert chart.players[1].addr == "10.0.0.2:4000"
    assert chart.players[2].addr == "" and chart.players[2].sign_key == CAT.public


def test_the_table_starts_on_the_last_hello_only_if_it_was_waiting_for_it_and_only_once() -> None:
    chart = SeatingChart(TABLE, 2, 0, Player(0, "Ann", HOST_ID.public, "host"))
    chart.seat(1, "Ben", "player")
    assert not chart.ready()  # not waiting to start
    chart.start_when_ready = True
    assert not chart.ready()  # Ben's key is not in yet
    chart.take_hello(_hello(BEN, 1, "Ben"), 1, True)
    assert chart.ready() and not chart.ready()


def test_a_seat_that_gets_up_before_play_leaves_its_seat_open() -> None:
    chart = _host_chart()
    chart.seat(1, "Ben", "player")
    chart.take_hello(_hello(BEN, 1, "Ben"), 1, True)
    chart.open_again(1)
    assert chart.free() == [1, 2] and chart.players[1] == Player(1, "", b"", "open")


def _seating(infos: list[SeatInfo]) -> Seating:
    return Seating(0, TABLE, infos, 30, 60, False)


def test_a_seated_player_takes_the_hosts_seating_but_not_a_changed_key_nor_its_own_seat() -> None:
    ben = SeatingChart(TABLE, 3, 1, Player(1, "Ben", BEN.public, "player"))
    cat_addr = "10.0.0.3:4000"
    infos = [SeatInfo(0, "Ann", HOST_ID.public, "host"),
             SeatInfo(1, "Ben", BEN.public, "player"),
             SeatInfo(2, "Cat", CAT.public, "player", cat_addr,
                      CAT.sign(*addr_signed(TABLE, 2, cat_addr)))]
    assert ben.take_seating(_seating(infos)) is None
    assert ben.keys() == [HOST_ID.public, BEN.public, CAT.public]
    assert ben.players[2].addr == cat_addr
    record = ben.seating_record(_seating(infos))
    assert record[2] == [2, "Cat", CAT.public.hex(), "player", cat_addr,
                         ben.players[2].addr_sig.hex()]
    swapped = [*infos[:2], SeatInfo(2, "Cat", MALLORY.public, "player")]
    wrong = ben.take_seating(_seating(swapped))
    assert wrong is not None and wrong.code == "host_changed_key"
    assert ben.players[2].sign_key == CAT.public
    ours = [infos[0], SeatInfo(1, "Ben", MALLORY.public, "player"), infos[2]]
    taken = ben.take_seating(_seating(ours))
    assert taken is not None and taken.code == "our_seat_taken"


def test_the_journal_replays_hellos_and_seatings_as_they_were_taken() -> None:
    host = _host_chart()
    host.seat(1, "Ben", "bot")
    host.replay_hello({"seat": 1, "name": "Ben", "key": BEN.public.hex(),
                       "addr": "10.0.0.2:4000", "addr_sig": "ab"})
    assert host.players[1] == Player(1, "Ben", BEN.public, "bot", "10.0.0.2:4000", b"\xab")
    ben = SeatingChart(TABLE, 3, 1, Player(1, "Ben", BEN.public, "player"))
    ben.replay_seating({"seats": [[0, "Ann", HOST_ID.public.hex(), "host"],
                                  [1, "Mallory", MALLORY.public.hex(), "player"],
                                  [2, "Cat", CAT.public.hex(), "player", "h:1", "cd"]]})
    assert ben.players[1].sign_key == BEN.public  # our own seat is ours
    assert ben.players[2] == Player(2, "Cat", CAT.public, "player", "h:1", b"\xcd")


def test_the_table_words_need_every_key_and_a_table_of_two_binds_the_pairing_words() -> None:
    chart = _host_chart(2)
    chart.seat(1, "Ben", "player")
    assert chart.words() == ""
    chart.take_hello(_hello(BEN, 1, "Ben"), 1, True)
    keys = [HOST_ID.public, BEN.public]
    assert chart.words() == table_words(TABLE, keys)
    assert chart.words("apple pear") == table_words(TABLE, keys, "apple pear")
    assert table_words(TABLE, keys, "apple pear") != table_words(TABLE, keys, "apple plum")
    assert len(chart.words().split()) == 4


def test_our_hello_carries_our_key_and_signed_address() -> None:
    addr = "10.0.0.2:4000"
    mine = Player(1, "Ben", BEN.public, "player", addr, BEN.sign(*addr_signed(TABLE, 1, addr)))
    hello = SeatingChart(TABLE, 3, 1, mine).hello("")
    assert (hello.seat, hello.name, hello.sign_key, hello.addr) == (1, "player", BEN.public,
                                                                   addr)


def test_addresses_round_trip_and_bad_ones_are_none() -> None:
    assert addr_text(("10.0.0.2", 4000)) == "10.0.0.2:4000"
    assert addr_text(None) == "" and addr_text(("", 4000)) == ""
    assert parse_addr("10.0.0.2:4000") == ("10.0.0.2", 4000)
    for bad in ("10.0.0.2", ":4000", "h:0", "h:70000", "h:x"):
        assert parse_addr(bad) is None
