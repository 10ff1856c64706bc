"""The tutorials' helpers (durak_widgets/tutorial.py) answer as the exercises say."""

from __future__ import annotations

import pytest

import durak_widgets.tutorial as tutorial
from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, RandomBot
from durak_widgets.tutorial import (
    check_prediction,
    check_transfer_finder,
    deal,
    duel,
    hint_spread,
    play_moves,
    show_search,
    strength,
)


def two_jacks() -> Game:
    game = deal(["6♦ J♠ J♣ 6♣ 8♥ K♥", "Q♠ 8♠ 10♦ 7♣ J♥ A♣"], trump="9♦")
    play_moves(game, "0 attack J♠ J♣")
    return game


def test_a_prediction_is_right_only_when_it_names_every_legal_action_and_no_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = two_jacks()
    everything = {"1 defend J♠ with Q♠", "1 defend js with 10d", "1 defend J♣ with A♣",
                  "1 defend J♣ with 10♦", "1 take"}  # any spelling the engine reads
    assert check_prediction(game, 1, everything)
    assert capsys.readouterr().out.endswith("all right\n")
    assert not check_prediction(game, 1, everything - {"1 take"})
    said = capsys.readouterr().out
    assert said == "4 of 5 legal actions predicted; 1 missing, 0 that the engine refuses\n"
    assert not check_prediction(game, 1, everything | {"1 defend J♣ with J♥"})
    assert "refused  1 defend J♣ with J♥: J♥ cannot beat J♣" in capsys.readouterr().out


def test_the_transfer_check_wants_a_game_where_some_seat_may_transfer() -> None:
    assert not check_transfer_finder(lambda: None)
    assert not check_transfer_finder(lambda: Game.new(Rules(), seed=1))
    game = Game.new(Rules(variant="perevodnoy"), seed=0)
    play_moves(game, str(game.legal_actions(game.attacker)[0]))
    assert check_transfer_finder(lambda: game) == any(
        type(a).__name__ == "Transfer" for a in game.legal_actions())


def test_a_duel_plays_every_deal_twice_with_the_seats_swapped() -> None:
    won, lost, drawn = duel(GreedyBot, lambda: RandomBot(seed=1), deals=3)
    assert won + lost + drawn == 6
    mirrored = duel(lambda: RandomBot(seed=1), GreedyBot, deals=3)
    assert mirrored == (lost, won, drawn)


def test_strength_gives_the_rate_of_decided_games_inside_its_interval() -> None:
    rate, low, high = strength("ismcts?iterations=3", games=4)
    assert 0 <= low <= rate <= high <= 1


def _count_games(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A fresh memory of played games, and a list that grows by one a game played."""
    monkeypatch.setattr(tutorial, "_PLAYED", {})
    played: list[int] = []
    real = tutorial.play_game

    def counted(*args: object, **kwargs: object) -> Game:
        played.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tutorial, "play_game", counted)
    return played


def test_strength_plays_a_game_once_and_more_games_extend_the_deals_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Tutorial 04 asks for 24, then 48 games of the same bots: the first 24 are the
    same deals, remembered, and the figures are those of games played afresh."""
    played = _count_games(monkeypatch)
    first = strength("ismcts?iterations=3", games=4, rival="random")
    assert len(played) == 4
    assert strength("ismcts?iterations=3", games=4, rival="random") == first
    more = strength("ismcts?iterations=3", games=8, rival="random")
    assert len(played) == 8
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == printed[1]
    played = _count_games(monkeypatch)  # forget them: the same figures, played again
    assert strength("ismcts?iterations=3", games=8, rival="random") == more
    assert capsys.readouterr().out.splitlines() == printed[2:]
    # Another rival, rules or seat count are other games.
    strength("ismcts?iterations=3", games=4, rival="greedy")
    strength("ismcts?iterations=3", games=4, rival="random", rules=Rules(deck_size=24))
    assert len(played) == 8 + 4 + 4


def test_strength_never_remembers_a_game_of_a_bot_with_a_time_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A time budget makes the moves depend on how fast the machine is just then."""
    played = _count_games(monkeypatch)
    strength("ismcts?ms=1&iterations=2", games=2, rival="random")
    strength("ismcts?ms=1&iterations=2", games=2, rival="random")
    assert len(played) == 4


def test_show_search_prints_the_root_the_bot_searched(capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new(Rules(), seed=2)
    show_search(IsmctsBot(seed=1, iterations=30), game, game.attacker)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("actions deep") and "3 compared" in lines[0]
    assert sum("<- chosen" in line for line in lines) == 1


def test_hint_spread_prints_each_moves_range_and_mean_best_mean_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game = two_jacks()
    capsys.readouterr()  # what two_jacks printed
    spread = hint_spread(game.observation(1), [], iterations=20, seeds=[0, 1])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "20 rollouts, seeds 0-1: each move's chance of not being the durak"
    means = [sum(values) / len(values) for values in spread.values()]
    assert len(lines) == 1 + len(spread) and all(len(v) == 2 for v in spread.values())
    printed = [float(line.split("mean ")[1].split("%")[0]) for line in lines[1:]]
    assert printed == sorted(printed, reverse=True)
    assert sorted(printed) == sorted(round(100 * m, 1) for m in means)
