"""The particle filter over the opponent's whole hand (:mod:`durak_core.bots.particles`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from durak_core import Attack, Card, Game, Rules, Take
from durak_core.bots import GreedyBot, IsmctsBot, make_bot, play_game, seat_events
from durak_core.bots.particles import HandFilter
from durak_core.cards import mask_of, popcount
from durak_core.events import Event


class Watching(IsmctsBot):
    """The AI with particles, checking its filter against its view at every decision."""

    checked = 0

    def choose(self, observation: dict[str, Any], legal: Sequence[Any]) -> Any:
        searched = len(self.history)
        action = super().choose(observation, legal)
        hands = self._hands
        if hands is not None and len(self.history) > searched:  # synced with this view
            view = Game.from_observation(observation)
            unseen = mask_of(view.unseen)
            unknown = view.unknown_count(1 - self.seat)
            assert all(h & ~unseen == 0 and popcount(h) == unknown for h in hands.hands)
            assert abs(sum(hands.weights()) - 1) < 1e-9
            chances = hands.chances()
            assert set(chances) == {c.index for c in view.unseen}
            assert abs(sum(chances.values()) - unknown) < 1e-6
            Watching.checked += 1
        return action


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
def test_the_filter_follows_the_game_exactly_and_its_hands_fit_every_view(variant: str) -> None:
    """Between two decisions the filter keeps up the seat's knowledge from the events
    alone (who drew, took and played what); at every decision the view agrees with it
    (no drift) and every candidate hand is a possible hand."""
    Watching.checked = 0
    rules = Rules(variant=variant)
    for deal in range(3):
        for seat in (0, 1):
            bot = Watching(seed=deal, iterations=6, particles=40)
            other = make_bot("ismcts-v1?iterations=6", seed=deal)
            play_game(Game.new(rules, seed=deal), [bot, other] if seat == 0 else [other, bot])
            assert bot._hands is not None and bot._hands.drift == 0
    assert Watching.checked > 30


def _filter_after(events: list[Event], view: Game, seed: int = 1) -> HandFilter:
    hands = HandFilter(seat=1, trump=int(view.trump_suit), particles=2000, seed=seed)
    hands.observe(events)
    hands.sync(view)
    return hands


def test_taking_a_low_card_makes_its_cheap_beaters_unlikely_in_the_whole_hand() -> None:
    game = Game.new(Rules(), seed=7)  # hearts are trumps; seat 1 leads
    nine = Card.parse("9♣")
    events = seat_events(1, game.apply(Attack(1, nine)) + game.apply(Take(0)), game)
    hands = _filter_after(events, game.view(1))
    chances = hands.chances()
    unknown = game.view(1).unknown_count(0)
    uniform = unknown / len(chances)
    beats = [i for i in chances if Card.from_index(i).beats(nine, int(game.trump_suit))]
    others = [i for i in chances if i not in beats]
    assert sum(chances[i] for i in beats) / len(beats) < uniform
    assert sum(chances[i] for i in others) / len(others) > uniform


def test_a_lead_makes_cheaper_cards_unlikely() -> None:
    game = Game.new(Rules(), seed=11)
    seat = game.attacker
    lead = max((a for a in game.legal_actions(seat) if isinstance(a, Attack) and not a.more),
               key=lambda a: a.card.rank if a.card.suit != game.trump_suit else 0)
    events = seat_events(1 - seat, game.apply(lead), game)
    hands = HandFilter(seat=1 - seat, trump=int(game.trump_suit), particles=2000, seed=3)
    hands.observe(events)
    hands.sync(game.view(1 - seat))
    chances = hands.chances()
    cheap = [i for i in chances if i % 13 + 2 < lead.card.rank and i // 13 != game.trump_suit]
    dear = [i for i in chances if i // 13 == game.trump_suit]
    assert sum(chances[i] for i in cheap) / len(cheap) < sum(chances[i] for i in dear) / len(dear)


def test_the_filter_is_deterministic_for_a_seed_and_deals_possible_games() -> None:
    import random

    game = Game.new(Rules(), seed=7)
    events = seat_events(1, game.apply(Attack(1, Card.parse("9♣"))) + game.apply(Take(0)), game)
    view = game.view(1)
    a, b = _filter_after(events, view, seed=5), _filter_after(events, view, seed=5)
    assert a.chances() == b.chances() and a.hands == b.hands
    rng = random.Random(1)
    for _ in range(20):
        full = a.deal(view, rng)
        assert full.public_hash() == view.public_hash()
        assert mask_of(full.hand(0)) & ~mask_of(view.hand(0)) in set(a.hands)


def test_the_bot_with_particles_is_deterministic_and_leaves_larger_tables_to_the_weights() -> None:
    logs = []
    for _ in range(2):
        bot = make_bot("ismcts?iterations=20&particles=50", seed=4)
        game = play_game(Game.new(Rules(), seed=2), [bot, GreedyBot()])
        logs.append([str(a) for a in game.log])
    assert logs[0] == logs[1]
    three = IsmctsBot(seed=1, iterations=10, particles=50)
    play_game(Game.new(Rules(players=3), seed=2), [three, GreedyBot(), GreedyBot()])
    assert three._hands is None and three._inference is not None
    with pytest.raises(ValueError, match="particles must be 0"):
        make_bot("ismcts?particles=-1")


def test_a_bot_seated_mid_game_without_the_past_events_fits_its_filter_to_the_view() -> None:
    """A bot that takes over a seat mid-game (a hand-over) has not seen the game's
    events: the filter then starts from the view itself and deals possible hands."""
    game = Game.new(Rules(), seed=6)
    greedy = GreedyBot()
    for _ in range(25):
        seat = 0 if game.legal_actions(0) else 1
        game.apply(greedy.choose(game.observation(seat), game.legal_actions(seat)))
    seat = 0 if game.legal_actions(0) else 1
    bot = IsmctsBot(seed=1, iterations=12, particles=30, solver=0)
    bot.start(seat, game.rules)
    action = bot.choose(game.observation(seat), game.legal_actions(seat))
    assert action in game.legal_actions(seat)
    hands, view = bot._hands, game.view(seat)
    assert hands is not None and hands.drift == 1  # fixed once, from the view
    unseen = mask_of(view.unseen)
    assert all(h & ~unseen == 0 and popcount(h) == view.unknown_count(1 - seat)
               for h in hands.hands)
