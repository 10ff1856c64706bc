"""every_seat: at tables of 3-6 every other seat's first replies are searched, each
counted on its own, where the default searches the first ``replies`` opponent decisions
in all and leaves the later seats to the greedy model (issue 36, "Tables of 3-6").
Legal, reproducible on an iteration budget, at 3, 4 and 6 seats; the same play at two
seats; a crash forfeits only its game."""

from __future__ import annotations

import pytest

from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, IsmctsConfig, next_to_act
from durak_core.bots.driver import play_game


def position(players: int, seed: int) -> tuple[Game, int]:
    """A deal's first decision with more than one legal move, and the seat to act."""
    game = Game.new(Rules(players=players), seed=seed)
    greedy = GreedyBot()
    while True:
        seat = next_to_act(game)
        assert seat is not None
        legal = game.legal_actions(seat)
        if len(legal) > 1:
            return game, seat
        game.apply(greedy.choose(game.observation(seat), legal))


Stats = list[tuple[str, int, float]]


def searched(players: int, seed: int, **options: object) -> tuple[str, Stats]:
    """The move an iteration-budget search chooses at ``position``, and its root's
    statistics (each compared action's visits and summed reward)."""
    game, seat = position(players, seed)
    bot = IsmctsBot(seed=7, iterations=120, **options)
    bot.start(seat, game.rules)
    action = bot.choose(game.observation(seat), game.legal_actions(seat))
    root = bot.last_root
    assert root is not None
    stats = sorted((str(a), n.visits, round(n.reward, 6)) for a, n in root.children.items())
    return str(action), stats


def test_the_option_is_checked() -> None:
    with pytest.raises(ValueError, match="every_seat must be 0 or 1"):
        IsmctsConfig(every_seat=2)
    assert IsmctsConfig().every_seat is False  # off until the arena says otherwise


def test_at_three_and_more_seats_it_changes_the_search() -> None:
    """With a count per seat the seats after the first two opponent decisions are
    searched too, so the root's statistics change on some deals at every table size
    (each iteration still adds one node: the tree's size stays the budget's)."""
    for players in (3, 4, 6):
        changed = sum(searched(players, seed) != searched(players, seed, every_seat=1)
                      for seed in range(1, 7))
        assert changed >= 1, players


def test_without_the_model_or_replies_it_changes_nothing() -> None:
    """The option shapes only the model's searched replies."""
    for options in ({"replies": 0}, {"model": 0}):
        assert searched(4, 3, **options) == searched(4, 3, every_seat=1, **options)


def test_at_two_seats_play_is_unchanged() -> None:
    """One opponent: a count per seat is the one count, move for move and node for node."""
    for seed in range(1, 7):
        assert searched(2, seed) == searched(2, seed, every_seat=1)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_whole_games_are_legal_and_reproducible(players: int) -> None:
    """play_game raises on an illegal move; the same seed plays the same game."""

    def log(seed: int) -> list[str]:
        moves: list[str] = []
        bots = [IsmctsBot(seed=seed, iterations=12, every_seat=1)]
        bots += [GreedyBot() for _ in range(players - 1)]
        game = play_game(Game.new(Rules(players=players), seed=11),
                         bots, on_action=lambda a, _e: moves.append(str(a)))
        assert game.is_over
        return moves

    assert log(5) == log(5)


def test_a_crash_forfeits_only_its_game(monkeypatch) -> None:
    """A failure inside the search costs the game it happened in, as any bot crash does
    in the arena; the table's other games are played out as usual."""
    from durak_arena.referee import BotSpec
    from durak_arena.tournament import SerialExecutor, run_tournament

    calls = {"n": 0}
    real = IsmctsBot._walk_for

    def once_broken(self, seat):  # type: ignore[no-untyped-def]
        if self.config.every_seat:
            calls["n"] += 1
            if calls["n"] == 2:  # the first walk is made in __init__
                raise RuntimeError("search broke")
        return real(self, seat)

    monkeypatch.setattr(IsmctsBot, "_walk_for", once_broken)
    ai = BotSpec.parse("builtin:ismcts?iterations=8&every_seat=1")
    bots = [ai, BotSpec.parse("builtin:greedy"), BotSpec.parse("builtin:greedy#2")]
    results = run_tournament(bots, games=3, seed=4, rules=Rules(players=3),
                             move_time=60.0, executor=SerialExecutor())
    rows = {r["name"]: r for r in results.bot_rows()}
    assert calls["n"] > 2  # the later games searched again
    assert rows[ai.text]["forfeits"] == 1
    assert rows[ai.text]["games"] == 3
