"""``sharp``: with ``particles`` and ``trust``, the particle filter models the opponent as
the greedy bot itself, and the AI deals from it only while the opponent has made greedy
moves alone; once it strays, the card weights deal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from durak_core import Game, Rules
from durak_core.actions import Action
from durak_core.bots import GreedyBot, IsmctsBot, IsmctsConfig, RandomBot, make_bot, play_game
from durak_core.bots.driver import next_to_act, seat_events
from durak_core.bots.ismcts import V2_CONFIG
from durak_core.bots.particles import GREEDY, LOOSE, HandFilter
from durak_core.events import Event


class Dealing(IsmctsBot):
    """The AI, noting at each search whether the opponent had strayed and whether the
    search dealt from the particles."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.searches: list[tuple[bool, bool]] = []

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        searched = len(self.history)
        action = super().choose(observation, legal)
        if len(self.history) > searched:
            self.searches.append((self._strayed(), self._particles() is not None))
        return action


def test_sharp_is_checked_and_needs_particles_and_trust() -> None:
    assert IsmctsConfig().sharp is False
    assert IsmctsConfig(particles=50, trust=1, sharp=1).sharp is True
    for bad in ({"sharp": 1}, {"sharp": 1, "trust": 1}, {"sharp": 1, "particles": 50}):
        with pytest.raises(ValueError, match="sharp needs particles"):
            IsmctsConfig(**bad)
    with pytest.raises(ValueError, match="sharp must be 0 or 1, not 2"):
        IsmctsConfig(particles=50, trust=1, sharp=2)
    assert make_bot("ismcts?iterations=10&particles=50&trust=1&sharp=1", seed=1).config.sharp
    assert V2_CONFIG.sharp is False


def test_against_greedy_every_search_deals_from_the_particles() -> None:
    bot = Dealing(seed=3, iterations=40, particles=100, trust=1, sharp=1)
    play_game(Game.new(Rules(), seed=3), [GreedyBot(), bot])
    assert bot.searches and all(by for _, by in bot.searches)
    assert bot._hands is not None and bot._hands.model is GREEDY


def test_once_the_opponent_strays_the_card_weights_deal() -> None:
    bot = Dealing(seed=2, iterations=40, particles=100, trust=1, sharp=1)
    play_game(Game.new(Rules(), seed=2), [bot, RandomBot(seed=2)])
    assert [by for strayed, by in bot.searches] == [not strayed for strayed, _ in bot.searches]
    assert any(strayed for strayed, _ in bot.searches)  # caught, so the check can fail
    # Without sharp the particles deal all game, caught or not, with the loose model.
    plain = Dealing(seed=2, iterations=40, particles=100, trust=1)
    play_game(Game.new(Rules(), seed=2), [plain, RandomBot(seed=2)])
    assert all(by for _, by in plain.searches)
    assert plain._hands is not None and plain._hands.model is LOOSE


def _greedy_game(seed: int) -> tuple[Game, list[tuple[int, list[Event], Game]]]:
    """A game of two greedy bots while the talon holds cards: for seat 1, each of its
    decisions as (events seen before it, the true game then)."""
    game = Game.new(Rules(), seed=seed)
    seen: list[Event] = []
    points = []
    greedy = GreedyBot()
    while not game.is_over and game.talon_size:
        seat = next_to_act(game)
        assert seat is not None
        legal = game.legal_actions(seat)
        if seat == 1 and game.view(1).unknown_count(0):
            points.append((len(seen), list(seen), game.copy()))
        seen += seat_events(1, game.apply(greedy.choose(game.observation(seat), legal)), game)
    return game, points


def test_the_greedy_model_gives_a_greedy_opponents_cards_more_chance() -> None:
    """On games of greedy bots the sharp model gives the cards the opponent holds more
    chance than the loose one, on the same events (benchmarks/inference_quality.py
    measures it on more games)."""
    totals = {}
    for model in (LOOSE, GREEDY):
        total = count = 0.0
        for seed in range(4):
            game, points = _greedy_game(seed)
            hands = HandFilter(seat=1, trump=int(game.trump_suit), particles=300, seed=seed,
                               model=model)
            done = 0
            for upto, seen, truth in points:
                hands.observe(seen[done:upto])
                done = upto
                hands.sync(truth.view(1))
                chances = hands.chances()
                held = [c.index for c in truth.hand(0) if c.index in chances]
                total += sum(chances[i] for i in held)
                count += len(held)
        totals[model] = total / count
    assert totals[GREEDY] > totals[LOOSE] + 0.02, totals
