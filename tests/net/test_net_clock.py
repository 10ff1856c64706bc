"""The move clock: a seat that does not move in time has its safe default played.

The host keeps the clock.  Take and pass need no card, so the host plays them for the
seat ("timeout" entries every seat accepts without the seat's signature); a lead needs
a card only the seat can open, so the host tells the seat its time is up and the
seat's own peer leads its cheapest card.  In simulated time, so the clock is exact.
"""

from __future__ import annotations

from durak_core import Attack, Pass, Rules, Take
from durak_net import events as ev

from .tables import make_table

RULES = Rules(players=3, deck_size=24)


def _applied(table, seat: int) -> list[ev.ActionApplied]:
    return [e for e in table.seats[seat].events if isinstance(e, ev.ActionApplied)]


def test_a_seat_nobody_plays_is_timed_out_and_the_game_still_ends_fair() -> None:
    table = make_table(31, RULES, clock=5, idle=(2,))
    assert table.net.run(table.done, limit=3600.0), f"stalled at {table.net.now:.0f} s"
    assert not table.bad()
    host_log = table.host.logs[1]
    timed_out = [e for e in host_log if e.forced == "timeout"]
    assert timed_out and all(e.action.startswith("2 ") for e in timed_out)
    kinds = {type(a.action) for a in _applied(table, 1) if a.forced == "timeout"}
    assert kinds <= {Take, Pass, Attack} and kinds & {Take, Pass}
    for seat in table.seats:  # one log, audited fair everywhere
        assert seat.session.logs[1] == host_log
        assert seat.audited[0].fair
    # Seat 2 never chose a move: every action of its seat was the clock's.
    mine = [e for e in host_log if e.action.startswith("2 ")]
    automatic = [e for e in mine if e.forced != "timeout" and e.action == "2 pass"]
    assert len(timed_out) + len(automatic) == len(mine)


def test_a_lead_that_times_out_is_the_seats_cheapest_card() -> None:
    table = make_table(32, RULES, clock=5, idle=(0, 1, 2))
    net = table.net
    assert net.run(lambda: any(e.forced == "timeout" for e in _applied(table, 0)),
                   limit=60.0)
    first = next(e for e in _applied(table, 0) if e.forced == "timeout")
    attacker = first.action.player
    game = table.seats[attacker].session.game
    assert isinstance(first.action, Attack)
    # It was led about `clock` seconds after the deal, never before.
    started = next(e for e in table.seats[0].events if isinstance(e, ev.GameStarted))
    assert 5.0 <= first.at - started.at < 5.5
    # ... and it was the lowest non-trump the seat held.
    hand = [*game.hand(attacker), first.action.card]
    plain = [c for c in hand if c.suit != game.trump_suit] or hand
    assert first.action.card.rank == min(c.rank for c in plain)


def test_without_a_clock_nothing_is_forced() -> None:
    table = make_table(33, RULES, idle=(1,))
    net = table.net
    net.run(lambda: False, limit=120.0)
    assert not table.host.deadlines
    assert not [e for e in table.host.log if e.forced]
    assert table.host.in_game  # it waits for seat 1, as long as it takes
