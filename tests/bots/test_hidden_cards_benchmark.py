"""benchmarks/hidden_cards.py's diagnostic bot: told the other hand, it deals exactly
that hand and nothing more (the talon's order stays its own guess); as the seer, it
deals the game itself."""

from __future__ import annotations

import argparse
import importlib.util
import random
from pathlib import Path

import pytest

from durak_core import Game, Rules
from durak_core.bots import GreedyBot
from durak_core.bots.driver import next_to_act

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "hidden_cards.py"


def _module():
    spec = importlib.util.spec_from_file_location("hidden_cards", _PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_told_bot_deals_the_true_hand_and_a_guessed_talon() -> None:
    game = Game.new(Rules(), seed=8)
    for _ in range(15):
        seat = next_to_act(game)
        game.apply(GreedyBot().choose(game.observation(seat), game.legal_actions(seat)))
    assert game.talon_size > 2
    told = _module().ToldBot(seed=1, iterations=10)
    for seat in (0, 1):
        told.start(seat, game.rules)
        view = Game.from_observation(game.observation(seat))
        told.truth = game
        talons = set()
        for draw in range(6):
            deal = told._deal(view, random.Random(draw))
            assert set(deal.hand(1 - seat)) == set(game.hand(1 - seat))
            assert deal.hand(seat) == game.hand(seat)
            assert deal.public_hash() == game.public_hash()
            talons.add(tuple(deal._talon))
        assert len(talons) > 1  # the talon's order is not told
        told.truth = None  # not told: a deal of its own
        guesses = {frozenset(told._deal(view, random.Random(d)).hand(1 - seat))
                   for d in range(6)}
        assert frozenset(game.hand(1 - seat)) not in guesses


def test_a_hinted_bot_deals_the_held_cards_more_often_and_stays_consistent() -> None:
    game = Game.new(Rules(), seed=8)
    for _ in range(15):
        seat = next_to_act(game)
        game.apply(GreedyBot().choose(game.observation(seat), game.legal_actions(seat)))
    seat = 0
    view = Game.from_observation(game.observation(seat))
    held = set(game.hand(1)) & set(view.unseen)
    unknown = view.unknown_count(1)
    assert 0 < unknown < len(view.unseen)
    module = _module()

    def share(hint: float | None) -> float:
        """The share of the other seat's dealt unknown cards that it really holds."""
        bot = module.ToldBot(seed=1, iterations=10)
        bot.start(seat, game.rules)
        bot.truth, bot.hint = game, hint
        hits = 0
        for draw in range(300):
            deal = bot._deal(view, random.Random(draw))
            assert deal.hand(seat) == game.hand(seat)
            assert deal.public_hash() == game.public_hash()
            hits += len(set(deal.hand(1)) & held)
        return hits / (300 * unknown)

    uniform = unknown / len(view.unseen)
    two, eight = share(2.0), share(8.0)
    assert uniform + 0.05 < two < eight < 1  # sharper with a larger hint, never told
    assert share(None) == 1  # told: exactly the hand


def test_the_seer_deals_the_game_itself_and_plays_against_another_opponent() -> None:
    game = Game.new(Rules(), seed=8)
    for _ in range(15):
        seat = next_to_act(game)
        game.apply(GreedyBot().choose(game.observation(seat), game.legal_actions(seat)))
    module = _module()
    seer = module.ToldBot(seed=1, iterations=10)
    seer.start(0, game.rules)
    seer.truth, seer.seer = game, True
    view = Game.from_observation(game.observation(0))
    for draw in range(3):
        deal = seer._deal(view, random.Random(draw))
        assert deal.to_json() == game.to_json()
        assert deal is not game
    assert module.play((8, 0, "seer", 2, "greedy", "")) in ("win", "loss", "draw")
    assert module.play((8, 1, "as-is", 2, "greedy", "model=0&width=2")) in ("win", "loss", "draw")


def test_an_arm_of_the_command_line_is_checked() -> None:
    module = _module()
    assert [module.parse_arm(a) for a in ("as-is", "told", "seer", "hint=2.5")] == [
        "as-is", "told", "seer", "hint=2.5"
    ]
    for bad in ("hint=1", "hint=x", "hinted=3", "seen"):
        with pytest.raises(argparse.ArgumentTypeError, match="as-is, told, seer or hint=W"):
            module.parse_arm(bad)
