"""The fixed order in which bots are asked, what each seat sees, and the in-process loop."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from durak_core import (
    Action,
    Attack,
    Card,
    Defend,
    Drew,
    Event,
    Game,
    IllegalAction,
    Pass,
    Rules,
    Take,
    new_deck,
)
from durak_core.bots import Bot, GreedyBot, RandomBot, next_to_act, play_game, seat_events


def c(text: str) -> Card:
    return Card.parse(text)


def deal(hands: Sequence[Sequence[str]], trump: str, rules: Rules) -> Game:
    """A game whose seats hold ``hands`` and whose trump card is ``trump``; the rest in order."""
    n = rules.players
    chosen = [c(t) for h in hands for t in h] + [c(trump)]
    deck: list[Card] = [c("6s")] * (6 * n)
    for seat, hand in enumerate(hands):
        for i, t in enumerate(hand):
            deck[i * n + seat] = c(t)
    rest = [x for x in new_deck(rules.deck_size) if x not in chosen]
    return Game.new(rules, deck=[*deck, c(trump), *rest])


def test_the_leader_is_asked_first_then_the_defender():
    game = deal([["6s", "7s", "8s", "9s", "10s", "Js"], ["6c", "7c", "8c", "9c", "10c", "Jc"]],
                "Ah", Rules())
    assert game.attacker == 0  # nobody holds a trump: seat 0 leads
    assert next_to_act(game) == 0
    game.apply(Attack(0, c("6s")))
    assert next_to_act(game) == 1  # an unbeaten card: the defender, although 0 may throw in
    game.apply(Take(1))
    assert next_to_act(game) == 0  # after take: the attacker throws in or passes
    game.apply(Pass(0))
    assert next_to_act(game) == 0  # 1 picked up; 0 leads again


def test_throwers_are_asked_clockwise_from_the_attacker_and_passed_ones_skipped():
    rules = Rules(players=3)
    game = deal([["6s", "7s", "8s", "9s", "10s", "Js"], ["6c", "7c", "8c", "9c", "10c", "Jc"],
                 ["6d", "7d", "8d", "9d", "10d", "Jd"]], "Ah", rules)
    game.apply(Attack(0, c("6s")))
    game.apply(Take(1))
    assert next_to_act(game) == 0
    game.apply(Pass(0))
    assert next_to_act(game) == 2  # 2 holds a six: it may still throw in
    game.apply(Attack(2, c("6d")))
    assert next_to_act(game) == 0  # the table changed: 0 is asked again first
    game.apply(Pass(0))
    game.apply(Pass(2))
    assert game.table == []  # everybody passed: 1 picked up, the bout is over
    assert next_to_act(game) == 2  # seat 1 took: the next attacker is on their left


def test_a_beaten_table_asks_the_attacker_to_pass_or_throw_in():
    game = deal([["6s", "7s", "8s", "9s", "10s", "Js"], ["Qs", "7c", "8c", "9c", "10c", "Jc"]],
                "Ah", Rules())
    game.apply(Attack(0, c("6s")))
    game.apply(Defend(1, c("6s"), c("Qs")))
    assert next_to_act(game) == 0
    assert Pass(0) in game.legal_actions(0)


def test_nobody_acts_in_a_finished_game():
    game = play_game(Game.new(Rules(), seed=1), [RandomBot(1), RandomBot(2)])
    assert game.is_over and next_to_act(game) is None


def test_other_seats_draws_are_hidden_except_the_trump_card():
    trump = c("Ah")
    events: list[Event] = [Drew(0, (c("6s"), c("7s"))), Drew(1, (c("8s"), trump))]
    game = deal([["6c", "7c", "8c", "9c", "10c", "Jc"], ["6d", "7d", "8d", "9d", "10d", "Jd"]],
                "Ah", Rules())
    seen = seat_events(0, events, game)
    assert seen[0] == events[0]
    assert seen[1] == Drew(1, (None, trump))
    assert seat_events(1, events, game)[0] == Drew(0, (None, None))


class Spy(Bot):
    """Records what it is shown, and checks that it is only ever its own seat."""

    def __init__(self) -> None:
        self.observations: list[dict[str, Any]] = []
        self.events: list[Event] = []
        self.inner = RandomBot(3)

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        self.observations.append(observation)
        assert observation["seat"] == self.seat
        assert [str(a) for a in legal] == observation["legal"]
        assert len(legal) >= 2  # forced moves are made for the bot
        assert all(a.player == self.seat for a in legal)
        return self.inner.choose(observation, legal)

    def on_events(self, events: Sequence[Event]) -> None:
        self.events.extend(events)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_bots_see_only_their_seat(players):
    rules = Rules(players=players)
    spies = [Spy() for _ in range(players)]
    game = play_game(Game.new(rules, seed=players), spies)
    assert game.is_over
    for seat, spy in enumerate(spies):
        assert spy.observations  # everybody had decisions to make
        for event in spy.events:
            if isinstance(event, Drew) and event.player != seat:
                assert all(x is None or x is game.trump_card for x in event.cards)


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
def test_greedy_bots_finish_games_at_every_table_size(variant):
    for players in range(2, 7):
        rules = Rules(players=players, variant=variant)
        game = play_game(Game.new(rules, seed=players), [GreedyBot() for _ in range(players)])
        assert game.is_over


def test_an_illegal_choice_raises_with_the_reason():
    class Rogue(Bot):
        def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
            return Take(self.seat)  # the leader cannot take

    game = Game.new(Rules(), seed=2)
    with pytest.raises(IllegalAction, match="Only the defender, player 1, can take"):
        play_game(game, [Rogue(), Rogue()])


def test_play_game_wants_one_bot_per_seat():
    with pytest.raises(ValueError, match="2 seats need 2 bots"):
        play_game(Game.new(Rules(), seed=1), [RandomBot()])
