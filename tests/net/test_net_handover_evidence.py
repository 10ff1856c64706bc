"""No hand-over of a seat that is still there.

A seat's hand opens to all only when every other seat publishes its share of the seat's
seed.  The host decides that a seat is lost; the others used to publish on its word, so
a host could say a connected seat was lost and read its hand.  Now every seated player
hears every other one directly (signed heartbeats sent to the address each signed in
its Hello, not through the host), and publishes its share only after it has itself
heard nothing from that seat for the grace period.
"""

from __future__ import annotations

from durak_core import Rules
from durak_net import events as ev

from .helpers import FAST
from .tables import Table, make_table, seat_addr

GRACE = 20


def _mid_game(seed: int, players: int) -> Table:
    table = make_table(seed, Rules(players=players, deck_size=36), grace=GRACE)
    assert table.net.run(lambda: len(table.host.log) >= 6, limit=60.0)
    return table


def test_a_host_that_claims_a_connected_seat_is_lost_gets_no_share() -> None:
    for players in (3, 4):
        table = _mid_game(110 + players, players)
        net, host = table.net, table.host
        victim = 2
        host.absence.hand_over(host, victim, net.now)  # "seat 2 is lost": it is not
        net.run(lambda: False, limit=net.now + 3 * GRACE)
        dealer = host.dealer
        assert victim not in dealer.adopted and dealer.hand_of(victim) == []
        others = [s for s in range(1, players) if s != victim]
        for seat in others:
            session = table.seats[seat].session
            assert session.seat_state.get(victim) == "bot"  # told so, but
            assert victim not in session.dealer._shares_sent  # published nothing
            assert session.presence.heard[victim] > net.now - 2 * FAST.heartbeat  # it hears it


def test_a_seat_really_gone_is_handed_over_when_the_others_stop_hearing_it_too() -> None:
    table = _mid_game(120, 4)
    net, host = table.net, table.host
    net.remove(seat_addr(2))
    gone = net.now
    assert net.run(lambda: 2 in host.dealer.adopted, limit=gone + GRACE + 30.0)
    # Each of the others released its share only after its own grace period.
    for seat in (1, 3):
        session = table.seats[seat].session
        assert 2 in session.dealer._shares_sent
        assert session.presence.heard.get(2, 0.0) <= gone + 0.01
    statuses = [e.state for e in table.seats[1].events
                if isinstance(e, ev.SeatStatus) and e.seat == 2]
    assert statuses[:2] == ["lost", "bot"]
    assert net.now - gone >= GRACE


def test_seats_hear_each_other_directly_with_signed_heartbeats() -> None:
    table = make_table(130, Rules(players=3, deck_size=24), bots=False)
    net = table.net
    net.run(lambda: False, limit=net.now + 3.0)
    one, two = table.seats[1].session, table.seats[2].session
    assert 2 in one.presence.heard and 1 in two.presence.heard
    # A heartbeat that is not signed by its seat proves nothing.
    from durak_net.wire import Beacon, encode_beacon

    before = one.presence.heard[2]
    forged = encode_beacon(Beacon(one.table, 2, 10**6, bytes(64)))
    one.receive(forged, seat_addr(0), net.now + 0.5)
    assert one.presence.heard[2] == before and one.drops["bad_beacon"] == 1


def test_a_player_back_after_its_hand_was_opened_is_told_at_once() -> None:
    table = _mid_game(121, 4)
    net, host = table.net, table.host
    net.remove(seat_addr(2))
    assert net.run(lambda: 2 in host.dealer.adopted, limit=net.now + GRACE + 30.0)
    back = table.restart(2)
    assert net.run(lambda: 2 not in host.bots, limit=net.now + 30.0)
    assert net.run(lambda: any(isinstance(e, ev.SeatStatus) and e.state == "opened"
                               for e in table.seats[2].collect() + table.seats[2].events),
                   limit=net.now + 5.0)
    (told,) = [e for e in table.seats[2].events if isinstance(e, ev.SeatStatus)
               and e.state == "opened"]
    assert told.seat == 2 == back.seat
    assert not any(isinstance(e, ev.SeatStatus) and e.state == "opened"
                   for s in (0, 1, 3) for e in table.seats[s].events)
