"""``trust``: while the opponent has played only moves the greedy policy could have made,
the AI searches none of its replies (the model plays them all); once it strays, the
searched replies of ``replies`` come back.  ``drop``: once it strays, the model goes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from durak_core import Game, Rules
from durak_core.actions import Action
from durak_core.bots import (
    GreedyBot,
    IsmctsBot,
    IsmctsConfig,
    RandomBot,
    make_bot,
    play_game,
)
from durak_core.bots.ismcts import V2_CONFIG
from durak_core.tree import Node
from tests.bots.unstarted import unstarted_pool


def opponent_nodes(node: Node, seat: int) -> int:
    """How many nodes of the tree below ``node`` hold a move of a seat other than
    ``seat``: the searched replies (the model's moves are played without a node)."""
    count = 0
    for action, child in node.children.items():
        count += (action.player != seat) + opponent_nodes(child, seat)
    return count


class Watched(IsmctsBot):
    """The AI, noting for each search whether the opponent had strayed by then and how
    many opponent nodes its tree grew."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.searches: list[tuple[bool, int]] = []

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        action = super().choose(observation, legal)
        if self.last_root is not None:
            self.searches.append((self._strayed(), opponent_nodes(self.last_root, self.seat)))
        return action


def test_trust_is_an_option_that_is_checked() -> None:
    assert IsmctsConfig().trust is False
    assert IsmctsConfig(trust=1).trust is True
    with pytest.raises(ValueError, match="trust must be 0 or 1, not 2"):
        IsmctsConfig(trust=2)
    assert make_bot("ismcts?iterations=10&trust=1", seed=1).config.trust is True
    with pytest.raises(ValueError, match="trust"):
        make_bot("ismcts?trust=2", seed=1)
    assert V2_CONFIG.trust is False  # the frozen yardstick searches its replies always


def test_against_a_greedy_opponent_no_reply_is_searched() -> None:
    """Every search of a game against greedy grows no opponent node with ``trust``;
    without it the same games do (so the count can fail)."""
    for seed in range(2):
        trusting = Watched(seed=seed, iterations=80, trust=1, drop=0)
        play_game(Game.new(Rules(), seed=seed), [trusting, GreedyBot()])
        assert trusting.searches and not any(strayed for strayed, _ in trusting.searches)
        assert all(nodes == 0 for _, nodes in trusting.searches)
        assert trusting.trusted == len(trusting.searches)
        plain = Watched(seed=seed, iterations=80)
        play_game(Game.new(Rules(), seed=seed), [plain, GreedyBot()])
        assert sum(nodes for _, nodes in plain.searches) > 0
        assert plain.trusted == 0


def test_once_the_opponent_strays_the_replies_are_searched_again() -> None:
    """Against a random opponent the AI trusts the model until the first move greedy
    could not have made, and searches the replies from then on."""
    caught = 0
    for seed in range(3):
        bot = Watched(seed=seed, iterations=80, trust=1, drop=0)
        play_game(Game.new(Rules(), seed=seed), [RandomBot(seed=seed), bot])
        flags = [strayed for strayed, _ in bot.searches]
        # Once caught, caught for the rest of the game.
        assert flags == sorted(flags)
        assert all(nodes == 0 for strayed, nodes in bot.searches if not strayed)
        after = [nodes for strayed, nodes in bot.searches if strayed]
        if after:
            caught += 1
            assert sum(after) > 0
            assert bot._walk.replies == bot.config.replies == 2
        assert bot.trusted == flags.count(False)
    assert caught >= 2


def test_trust_is_reproducible_on_an_iteration_budget() -> None:
    logs = []
    for _ in range(2):
        game = play_game(
            Game.new(Rules(), seed=5),
            [IsmctsBot(seed=5, iterations=60, trust=1), RandomBot(seed=5)],
        )
        logs.append(game.log)
    assert logs[0] == logs[1]


def test_a_new_game_trusts_again() -> None:
    """Straying is a fact about one game: the next game starts trusting."""
    bot = Watched(seed=1, iterations=40, trust=1)
    play_game(Game.new(Rules(), seed=1), [bot, RandomBot(seed=1)])
    assert bot._style is not None and bot._style.strays()
    bot.searches.clear()
    play_game(Game.new(Rules(), seed=2), [bot, GreedyBot()])
    assert bot.searches and all(nodes == 0 for _, nodes in bot.searches)


class Dropping(Watched):
    """The AI with ``drop``, noting for each search whether the model was in force."""

    def __init__(self, **options: Any) -> None:
        super().__init__(trust=1, drop=1, **options)
        self.models: list[bool] = []

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        action = super().choose(observation, legal)
        if self.last_root is not None:
            self.models.append(self._walk.model)
        return action


def test_drop_is_an_option_that_is_checked() -> None:
    assert IsmctsConfig().drop is True  # on by default (docs/ai.md)
    assert IsmctsConfig(drop=0).drop is False
    assert IsmctsConfig(trust=1, drop=1).drop is True
    with pytest.raises(ValueError, match="drop must be 0 or 1, not 2"):
        IsmctsConfig(drop=2)
    assert make_bot("ismcts?iterations=10&trust=1&drop=1", seed=1).config.drop is True
    assert V2_CONFIG.drop is False


def test_with_drop_the_model_goes_once_the_opponent_strays() -> None:
    """Against a random opponent ``drop`` keeps the model until the first move greedy
    could not have made and searches without it from then on (every opponent move a
    node); against greedy it never drops it."""
    caught = 0
    for seed in range(3):
        bot = Dropping(seed=seed, iterations=80)
        play_game(Game.new(Rules(), seed=seed), [RandomBot(seed=seed), bot])
        flags = [strayed for strayed, _ in bot.searches]
        assert bot.models == [not strayed for strayed in flags]
        if any(flags):
            caught += 1
            assert sum(nodes for strayed, nodes in bot.searches if strayed) > 0
        trusting = Watched(seed=seed, iterations=80, trust=1, drop=0)
        play_game(Game.new(Rules(), seed=seed), [RandomBot(seed=seed), trusting])
        assert trusting._walk.model is True  # trust alone keeps the model
    assert caught >= 2
    bot = Dropping(seed=0, iterations=80)
    play_game(Game.new(Rules(), seed=0), [bot, GreedyBot()])
    assert bot.models and all(bot.models)
    # Without trust, drop drops the model all the same; before, the replies are searched.
    alone = Watched(seed=0, iterations=40, drop=1)
    play_game(Game.new(Rules(), seed=0), [RandomBot(seed=0), alone])
    assert alone._strayed() and alone._walk.model is False
    assert alone.trusted == 0 and alone.searches[0][1] > 0
    # And against greedy it plays as the AI without it, move for move.
    logs = [play_game(Game.new(Rules(), seed=seed), [IsmctsBot(seed=seed, iterations=40,
                                                               **options), GreedyBot()]).log
            for seed in range(2) for options in ({"drop": 1}, {"drop": 0})]
    assert logs[0] == logs[1] and logs[2] == logs[3]


def test_helpers_search_without_the_model_once_it_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A helper has not seen the game: it is told the search's model, and searches
    without it once the opponent has strayed."""
    sent = unstarted_pool(monkeypatch).sent
    bot = Dropping(seed=1, iterations=40, workers=2)
    play_game(Game.new(Rules(), seed=1), [bot, RandomBot(seed=1)])
    assert any(not model for model in bot.models) and len(sent) == len(bot.models)
    for tasks, model in zip(sent, bot.models, strict=True):
        (task,) = tasks
        assert task.config.model is model
        assert not (task.config.trust or task.config.drop)
