"""cutoff: rollouts cut short and scored by the learnt value model (issue 36, "A learnt
evaluation"): the shipped model loads and is checked, scores obvious positions the right
way round, the cut rollout stops where it should, and the option changes play while
staying reproducible on an iteration budget."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

from durak_core import Card, Game, Rules, new_deck
from durak_core.bots import GreedyBot, IsmctsBot, IsmctsConfig, play_game
from durak_core.bots.value import MODEL_FILE, evaluate, load_model, value_weights
from durak_core.playout import (
    VALUE_FEATURES,
    between_bouts,
    blend_finish,
    cut_finish,
    outcome,
    playout,
    value_features,
    value_of,
)

ROOT = Path(__file__).resolve().parents[2]


def _lopsided(strong: int) -> Game:
    """A deal where seat ``strong`` holds the six highest hearts (trumps) and the other
    seat the six lowest spades, clubs and diamonds."""
    high = [Card.parse(t) for t in ("AH", "KH", "QH", "JH", "10H", "9H")]
    low = [Card.parse(t) for t in ("6S", "7S", "6C", "7C", "6D", "7D")]
    dealt: list[Card] = []
    for mine, theirs in zip(high, low, strict=True):
        dealt += [mine, theirs] if strong == 0 else [theirs, mine]
    trump = Card.parse("8H")
    rest = [c for c in new_deck(36) if c not in dealt and c != trump]
    return Game.new(Rules(), deck=[*dealt, trump, *rest])


def test_the_shipped_model_loads_and_names_the_engines_features() -> None:
    model = load_model()
    assert model["features"] == list(VALUE_FEATURES)
    weights = value_weights()
    assert len(weights) == len(VALUE_FEATURES) and all(math.isfinite(w) for w in weights)
    # Trained to beat a constant guess on positions it did not see.
    assert model["held_out_log_loss"] < model["constant_log_loss"]
    assert "pyproject" not in str(MODEL_FILE) and MODEL_FILE.name == "value_model.json"


def test_a_model_of_other_features_or_weights_is_refused(tmp_path: Path) -> None:
    model = load_model()
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**model, "features": model["features"][:-1]}))
    with pytest.raises(ValueError, match="other features"):
        load_model(other)
    other.write_text(json.dumps({**model, "weights": model["weights"][:-1]}))
    with pytest.raises(ValueError, match="one finite weight"):
        load_model(other)
    other.write_text("{not json")
    with pytest.raises(ValueError, match="cannot be read"):
        load_model(other)


def test_the_model_favours_the_hand_of_high_trumps() -> None:
    weights = value_weights()
    for strong in (0, 1):
        game = _lopsided(strong)
        assert between_bouts(game)
        assert value_of(game, strong, weights) > 0.75
        assert value_of(game, 1 - strong, weights) < 0.25


def test_taking_cards_lowers_the_value_and_trumps_raise_it() -> None:
    """One feature at a time on a seeded position: more plain cards to carry is worse,
    a high trump in place of a low plain card is better."""
    weights = value_weights()
    names = list(VALUE_FEATURES)
    row = value_features(Game.new(Rules(), seed=4), 0)
    base = evaluate([row], weights)[0]
    more = list(row)
    more[names.index("my_plain_low")] += 3
    more[names.index("my_extra")] += 3
    assert evaluate([more], weights)[0] < base
    trump = list(row)
    trump[names.index("my_plain_low")] -= 1
    trump[names.index("my_trump_ka")] += 1
    assert evaluate([trump], weights)[0] > base


def test_numpy_and_the_engine_give_the_same_value() -> None:
    weights = value_weights()
    games = [Game.new(Rules(), seed=s) for s in range(5)]
    rows = [value_features(g, 0) for g in games]
    for game, p in zip(games, evaluate(rows, weights), strict=True):
        assert p == pytest.approx(value_of(game, 0, weights), abs=1e-12)


def test_a_cut_rollout_stops_between_bouts_with_the_models_value() -> None:
    weights = value_weights()
    game = Game.new(Rules(), seed=7)
    played = game.copy()
    rewards = cut_finish(played, 0, weights, 2)
    assert played.bouts == game.bouts + 2 and between_bouts(played)
    assert rewards == [pytest.approx(value_of(played, 0, weights)),
                       pytest.approx(1 - value_of(played, 0, weights))]
    assert 0 < rewards[0] < 1


def test_a_cut_rollout_plays_to_the_end_when_the_talon_runs_out_first() -> None:
    weights = value_weights()
    full = Game.new(Rules(), seed=7)
    playout(full)
    cut = Game.new(Rules(), seed=7)
    assert cut_finish(cut, 1, weights, 1000) == outcome(full)
    assert cut.is_over and cut.log == full.log
    three = Game.new(Rules(players=3), seed=7)  # the model is for two seats only
    assert cut_finish(three, 0, weights, 1) == outcome(three) and three.is_over


def test_cutoff_is_off_by_default_checked_and_changes_the_search() -> None:
    assert IsmctsConfig().cutoff == 0
    with pytest.raises(ValueError, match="cutoff"):
        IsmctsConfig(cutoff=-1)
    game = Game.new(Rules(), seed=5)
    seat = game.attacker
    roots = []
    for cutoff in (0, 1):
        bot = IsmctsBot(seed=1, iterations=60, cutoff=cutoff)
        bot.start(seat, game.rules)
        bot.choose(game.observation(seat), game.legal_actions(seat))
        assert bot.last_root is not None
        roots.append([c.reward for c in bot.last_root.children.values()])
    # Without the model every rollout ends in 0, 0.5 or 1; with it mostly in between.
    assert all(2 * r == int(2 * r) for r in roots[0])
    assert any(2 * r != int(2 * r) for r in roots[1])


def test_cutoff_plays_other_games_and_the_same_game_twice() -> None:
    def game(cutoff: int, seed: int) -> Game:
        bots = [IsmctsBot(seed=2, iterations=60, cutoff=cutoff), GreedyBot()]
        return play_game(Game.new(Rules(), seed=seed), bots)

    assert game(1, 4).log == game(1, 4).log
    assert any(game(1, s).log != game(0, s).log for s in (4, 5, 6))


def test_the_generator_writes_the_same_file_twice(tmp_path: Path, monkeypatch) -> None:
    spec = importlib.util.spec_from_file_location("train_value", ROOT / "scripts/train_value.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    texts = []
    for name in ("a.json", "b.json"):
        monkeypatch.setattr(sys, "argv", ["train_value.py", "--games", "30", "--seed", "3",
                                          "--out", str(tmp_path / name)])
        assert module.main() == 0
        texts.append((tmp_path / name).read_text())
    assert texts[0] == texts[1]
    assert json.loads(texts[0])["features"] == list(VALUE_FEATURES)


def test_a_blended_rollout_plays_to_the_end_and_mixes_in_the_value() -> None:
    weights = value_weights()
    game = Game.new(Rules(), seed=7)
    full = game.copy()
    playout(full)
    # The value where the first bout ends (as a rollout cut after one bout stops).
    cut = game.copy()
    cut_finish(cut, 0, weights, 1)
    v = value_of(cut, 0, weights)
    played = game.copy()
    rewards, result = blend_finish(played, 0, weights, 0.25)
    assert played.is_over and played.log == full.log  # the rollout itself is unchanged
    assert result == outcome(full)
    assert rewards == [pytest.approx(0.25 * v + 0.75 * result[0]),
                       pytest.approx(0.25 * (1 - v) + 0.75 * result[1])]
    three = Game.new(Rules(players=3), seed=7)  # the model is for two seats only
    assert blend_finish(three, 0, weights, 0.5) == (outcome(three), outcome(three))


def test_blend_is_off_by_default_checked_and_counts_safe_by_the_result() -> None:
    assert IsmctsConfig().blend == 0.0
    with pytest.raises(ValueError, match="blend"):
        IsmctsConfig(blend=1.5)
    game = Game.new(Rules(), seed=5)
    seat = game.attacker
    roots = []
    for blend in (0.0, 0.5):
        # depth=1: flat Monte Carlo, so both searches play the very same rollouts.
        bot = IsmctsBot(seed=1, iterations=60, blend=blend, depth=1)
        bot.start(seat, game.rules)
        bot.choose(game.observation(seat), game.legal_actions(seat))
        assert bot.last_root is not None
        roots.append(list(bot.last_root.children.values()))
    # Without the value every rollout ends in 0, 0.5 or 1; with it mostly in between.
    assert all(2 * c.reward == int(2 * c.reward) for c in roots[0])
    assert any(2 * c.reward != int(2 * c.reward) for c in roots[1])
    # The same deals and rollouts: the safe counts (by the result) are the same.
    assert [c.safe for c in roots[0]] == [c.safe for c in roots[1]]
    assert [c.visits for c in roots[0]] == [c.visits for c in roots[1]]
