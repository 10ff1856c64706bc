"""Root-parallel search (``workers=N``): helper processes, merged root statistics, and
a helper's failure never failing the bot."""

from __future__ import annotations

import pytest

from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, make_bot, parallel, play_game
from durak_core.bots.ismcts import HelperTask, run_task
from tests.bots.unstarted import unstarted_pool


def _position() -> tuple[Game, int]:
    game = Game.new(Rules(), seed=9)
    return game, game.attacker


def _task(seed: int = 5, actions: list[str] | None = None) -> HelperTask:
    game, seat = _position()
    bot = IsmctsBot(seed=1, iterations=40)
    return HelperTask(
        bot.config, seed, seat, game.observation(seat),
        actions if actions is not None else [str(a) for a in game.legal_actions(seat)[:4]],
        None,
    )


@pytest.fixture
def fresh_pools():
    """Each test starts without helpers and leaves none behind."""
    parallel._close_all()
    yield
    parallel._close_all()


def test_a_helper_returns_what_the_same_search_gives_in_this_process(fresh_pools) -> None:
    task = _task()
    helpers = parallel.pool(1)
    assert helpers.send(run_task, [task]) == 1
    (remote,) = helpers.collect(1, 60.0)
    assert remote == run_task(task)
    assert sum(visits for visits, _, _ in remote) >= 40


def test_the_bot_with_a_helper_is_deterministic_and_runs_its_whole_budget(fresh_pools) -> None:
    logs = []
    for _ in range(2):
        bot = IsmctsBot(seed=3, iterations=60, workers=2)
        game = play_game(Game.new(Rules(), seed=7), [bot, GreedyBot()])
        logs.append([str(a) for a in game.log])
        assert bot.helper_failures == 0
        assert bot.history and all(n >= 60 for n in bot.history)
    assert logs[0] == logs[1]
    assert len(parallel._POOLS) == 1  # one pool, reused by both bots


def test_merged_statistics_are_the_sum_of_both_searches(fresh_pools) -> None:
    game, seat = _position()
    legal = game.legal_actions(seat)[:3]
    bot = IsmctsBot(seed=2, iterations=30, workers=2)
    bot.start(seat, game.rules)
    root = bot._search(Game.from_observation(game.observation(seat)), seat, legal, None,
                       game.observation(seat))
    visits = sum(child.visits for child in root.children.values())
    assert visits == bot.history[-1] == 30  # 5 paired rounds of 3 actions in each process
    # Each process compared every root action on the same deals.
    assert {child.visits for child in root.children.values()} == {10}


def test_a_dead_helper_leaves_its_share_to_the_bot(fresh_pools) -> None:
    helpers = parallel.pool(1)
    for proc in helpers._procs:
        proc.kill()
        proc.join(5)
    game, seat = _position()
    bot = IsmctsBot(seed=1, iterations=40, workers=2)
    bot.start(seat, game.rules)
    action = bot.choose(game.observation(seat), game.legal_actions(seat))
    assert action in game.legal_actions(seat)
    assert bot.helper_failures == 1
    assert bot.history[-1] >= 40  # the helper's share ran here
    assert helpers.broken
    assert "died" in helpers.reason or "could not take" in helpers.reason
    # The next decision starts new helpers.
    assert not parallel.pool(1).broken


def test_a_failing_search_in_a_helper_breaks_the_pool_not_the_caller(fresh_pools) -> None:
    helpers = parallel.pool(1)
    helpers.send(run_task, [_task(actions=["not an action"])])
    assert helpers.collect(1, 60.0) == [None]
    assert helpers.broken
    assert "failed" in helpers.reason


def test_the_pool_runs_any_named_function_and_knows_nothing_of_the_search(fresh_pools) -> None:
    import ast
    from pathlib import Path

    helpers = parallel.pool(2)
    assert helpers.send(abs, [-3, 4.5]) == 2
    assert helpers.collect(2, 60.0) == [3, 4.5]
    source = Path(parallel.__file__).read_text(encoding="utf-8")
    imported = [
        node.module or "" for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom)
    ]
    assert not [m for m in imported if "ismcts" in m or m.startswith(".")]


@pytest.mark.parametrize("bad", ["workers=0", "workers=17", "workers=1.5"])
def test_workers_is_checked(bad: str) -> None:
    with pytest.raises(ValueError, match="workers"):
        make_bot(f"ismcts?{bad}")


def test_a_helper_gets_every_search_option_of_the_bot_and_its_share_of_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The helpers search with the bot's own options (a new option cannot be forgotten
    there: the config goes whole), on their share of the budget, in one process."""
    pool = unstarted_pool(monkeypatch)
    bot = IsmctsBot(seed=3, iterations=10, c=0.4, reply_greedy=0.25, near=2, workers=3)
    game, seat = _position()
    bot.start(seat, game.rules)
    bot.choose(game.observation(seat), game.legal_actions(seat))
    (sent,) = pool.sent
    assert len(sent) == 2 and len({t.seed for t in sent}) == 2
    assert all(
        t.config == bot.config.replace(iterations=4, workers=1, adapt=False, drop=False)
        for t in sent
    )
    assert bot.helper_failures == 2 and bot.history[-1] >= 10  # their shares ran here
