"""The hand-over part on its own (no session, no network): whose move clock runs, which
lost seat goes to a bot and when, when a silent seat's game is abandoned, and which
seat that holds the game up may be judged idle."""

from __future__ import annotations

from durak_core import Game, Rules
from durak_net.handover import HandOver, due
from durak_net.presence import MIN_ABANDON, Presence

#: A deal of three seats whose first attacker is seat 1.
SEED_LEAD_1 = 4


def _game(players: int = 3) -> Game:
    return Game.new(Rules(players=players), seed=7)


def test_the_game_waits_for_the_first_attacker_to_lead_and_nobody_else() -> None:
    game = _game()
    waits = {s: due(game, s) for s in range(3)}
    assert waits[game.attacker] == "lead"
    assert [s for s, what in waits.items() if what is not None] == [game.attacker]
    assert due(None, 0) is None


def test_only_the_seats_the_game_waits_for_get_the_clock() -> None:
    part = HandOver(3, host=True)
    game = _game()
    part.clock.seconds = 30
    part.restart_clock(10.0, game, in_game=True)
    assert part.clock.deadlines == {game.attacker: 40.0}
    part.restart_clock(10.0, game, in_game=False)  # a stopped game runs no clock
    assert part.clock.deadlines == {}


def test_a_nudged_lead_is_marked_timeout_once_and_only_in_the_state_it_was_nudged() -> None:
    part = HandOver(3, host=True)
    part.nudge(2, (1, 5))
    assert not part.was_nudged(2, (1, 6))  # the table moved on: a move of its own
    part.nudge(2, (1, 5))
    assert part.was_nudged(2, (1, 5)) and not part.was_nudged(2, (1, 5))


def test_only_a_host_of_three_or_more_with_a_grace_hands_a_lost_seat_over() -> None:
    presence = Presence()
    presence.lost(1, 100.0)
    presence.lost(2, 90.0)
    anyone = HandOver(3, host=True)
    assert anyone.handover_due(presence, grace=20, in_game=True,
                               can_hand_over=lambda s: True) == (2, 110.0)
    assert anyone.handover_due(presence, grace=20, in_game=True,
                               can_hand_over=lambda s: s == 1) == (1, 120.0)
    assert anyone.handover_due(presence, grace=0, in_game=True,
                               can_hand_over=lambda s: True) is None
    assert anyone.handover_due(presence, grace=20, in_game=False,
                               can_hand_over=lambda s: True) is None
    for part in (HandOver(2, host=True), HandOver(3, host=False)):
        assert part.handover_due(presence, grace=20, in_game=True,
                                 can_hand_over=lambda s: True) is None
    anyone.hand_over(2)
    assert anyone.handover_due(presence, grace=20, in_game=True,
                               can_hand_over=lambda s: True) == (1, 120.0)


def test_a_seat_handed_over_and_back_is_its_players_again() -> None:
    part = HandOver(3, host=True)
    part.lost(2)
    assert part.waiting_on_silence() and part.silent([]) == [2]
    part.hand_over(2)
    assert part.seat_state == {2: "bot"} and part.silent([2]) == []
    assert part.back(2) and not part.back(2)
    assert part.bots == set() and not part.waiting_on_silence()


def test_a_silent_seat_is_abandoned_after_the_grace_and_a_reported_one_later() -> None:
    presence = Presence()
    presence.lost(1, 100.0)
    part = HandOver(2, host=True)  # a table of two: no hand-over, only abandon
    times = part.abandon_times(presence, grace=30, audit_timeout=5.0, in_game=True,
                               adopted=(), can_hand_over=lambda s: False)
    assert times == {1: (130.0, 100.0)}
    short = part.abandon_times(presence, grace=1, audit_timeout=5.0, in_game=True,
                               adopted=(), can_hand_over=lambda s: False)
    assert short == {1: (100.0 + MIN_ABANDON, 100.0)}  # a late heartbeat ends no table
    seat = HandOver(3, host=False)
    presence = Presence()
    presence.reported(2, "lost", 50.0)
    assert seat.abandon_times(presence, grace=30, audit_timeout=5.0, in_game=True,
                              adopted=(), can_hand_over=lambda s: False) == {}
    seat.reported(2, "lost")  # the host's word: waited for longer than the host waits
    assert seat.abandon_times(presence, grace=30, audit_timeout=5.0, in_game=True,
                              adopted=(), can_hand_over=lambda s: False) == {2: (85.0, 50.0)}


def test_a_seat_a_bot_plays_or_that_can_be_handed_over_is_not_abandoned() -> None:
    presence = Presence()
    presence.lost(2, 100.0)
    host = HandOver(3, host=True)
    assert host.abandon_times(presence, grace=30, audit_timeout=5.0, in_game=True,
                              adopted=(2,), can_hand_over=lambda s: False) == {}
    assert host.abandon_times(presence, grace=30, audit_timeout=5.0, in_game=True,
                              adopted=(), can_hand_over=lambda s: True) == {}
    # One that may yet be handed over (its escrow on its way) is given the audit
    # timeout more.
    assert host.abandon_times(presence, grace=30, audit_timeout=5.0, in_game=True,
                              adopted=(), can_hand_over=lambda s: False) == {2: (135.0, 100.0)}


def test_the_idle_bound_runs_for_the_seats_that_hold_the_game_up_and_is_judged_on_hearing(
        ) -> None:
    game = Game.new(Rules(players=3), seed=SEED_LEAD_1)  # seat 1 must lead: it alone
    assert game.attacker == 1                            # holds the game up
    part = HandOver(3, host=False)  # seat 2's
    part.idle.seconds = 300
    part.restart_clock(10.0, game, in_game=False)  # a stopped game: no bound runs
    assert part.idle.deadlines == {}
    part.restart_clock(10.0, game, in_game=True)
    assert part.idle.deadlines == {1: 310.0}
    # A seated player judges the host always (it hears it over its link), itself never,
    # another seat only if its heartbeat came while the table waited for it.
    assert part.idle_judged(0, me=2, heard={}) and not part.idle_judged(2, me=2, heard={})
    assert not part.idle_judged(1, me=2, heard={1: 9.0})  # (heard before the wait began)
    assert part.idle_judged(1, me=2, heard={1: 200.0})
    assert part.idle_due(me=2, heard={1: 200.0}) == (310.0, 1)
    assert part.idle_due(me=2, heard={}) is None  # never heard directly: not judged
    assert part.idle_seen(1, 308.5, me=2, heard={1: 200.0})  # (the 2 s allowance)
    assert not part.idle_seen(1, 300.0, me=2, heard={1: 200.0})  # told too early
    part.lost(1)  # a lost seat is waited for as such
    assert part.idle_due(me=2, heard={1: 200.0}) is None
