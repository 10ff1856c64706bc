"""exact_talon: the AI plays by the endgame solver a bout or so before the endgame
(issue 36, "Exact play one bout earlier").  With the trump card alone left it plays the
solver's proven move for the seat's view; with more it chooses by the mean of exact
solves on deals of the hidden cards (PIMC), legal, reproducible on an iteration budget;
a crash there forfeits only the game it happened in."""

from __future__ import annotations

import random

import pytest

from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, IsmctsConfig, next_to_act
from durak_core.endgame import LOSS, EndgameSolver, seats_left


def positions(talon: int, count: int, seed: int = 0) -> list[tuple[Game, int]]:
    """Two-seat greedy play (one move in five random), stopped at a decision of a seat
    with more than one legal move when the talon holds ``talon`` cards; the game and
    the seat to act."""
    found: list[tuple[Game, int]] = []
    deal = seed
    while len(found) < count:
        deal += 1
        game = Game.new(Rules(), seed=deal)
        greedy = GreedyBot()
        rng = random.Random(deal)
        while not game.is_over:
            seat = next_to_act(game)
            assert seat is not None
            legal = game.legal_actions(seat)
            if game.talon_size == talon and len(legal) > 1:
                found.append((game.copy(), seat))
                break
            action = (rng.choice(legal) if rng.random() < 0.2
                      else greedy.choose(game.observation(seat), legal))
            game.apply(action)
    return found


def test_the_option_is_checked() -> None:
    with pytest.raises(ValueError, match="exact_talon must be a number of talon cards"):
        IsmctsConfig(exact_talon=-1)
    assert IsmctsConfig().exact_talon == 0  # off by default


def test_with_the_trump_card_alone_left_it_plays_a_proven_best_move() -> None:
    """The seat's view with one talon card (the face-up trump) is a game of perfect
    information: when the solver (on the full game) says the seat is not lost, the AI
    plays a move whose exact value is the position's value, and says it decided so
    (``solved_early``); when lost, it searches."""
    played = 0
    for game, seat in positions(talon=1, count=6):
        solver = EndgameSolver(game.rules, int(game.trump_suit), talon=1)
        assert seats_left(game.view(seat), 1)
        truth = solver.solve(game, seat, 200_000)
        if not truth.exact:
            continue
        bot = IsmctsBot(seed=3, iterations=40, exact_talon=1, endgame_nodes=200_000)
        bot.start(seat, game.rules)
        legal = game.legal_actions(seat)
        action = bot.choose(game.observation(seat), legal)
        assert action in legal
        if truth.value == LOSS:
            assert bot.solved_early == 0
            continue
        assert bot.solved_early == 1
        child = game.copy()
        child.apply(action)
        if child.is_over:
            assert seat not in child.losers or truth.value == LOSS
        else:
            assert solver.solve(child, seat, 200_000).value == truth.value
        played += 1
    assert played >= 2


def test_with_more_cards_it_chooses_by_the_deals_votes() -> None:
    """With two talon cards the deals differ in the talon's order: each deal is solved
    once and votes for its best move; the AI's choice is legal, the same for the same
    seed, made by the solver (``solved_early``) when its node budget settles enough deals,
    and then a move that is exactly best on at least one of the deals it solved."""
    decided = 0
    for game, seat in positions(talon=2, count=4, seed=10):
        legal = game.legal_actions(seat)
        choices = []
        for _ in range(2):
            bot = _RecordingBot(seed=5, iterations=30, exact_talon=2, endgame_nodes=60_000)
            bot.start(seat, game.rules)
            choices.append(bot.choose(game.observation(seat), legal))
        assert choices[0] == choices[1]
        assert choices[0] in legal
        if bot.solved_early:
            solver = EndgameSolver(game.rules, int(game.trump_suit), talon=2)
            best_somewhere = False
            for deal in bot.deals:
                value = solver.solve(deal, seat, 200_000).value
                after = deal.copy()
                after.apply(choices[0])
                if after.is_over:
                    best_somewhere |= seat not in after.losers and value != LOSS
                else:
                    best_somewhere |= value != LOSS and (
                        solver.solve(after, seat, 200_000).value == value
                    )
            assert best_somewhere, f"{choices[0]} is best on none of the deals"
            decided += 1
    assert decided >= 1


class _RecordingBot(IsmctsBot):
    """Keeps a copy of every deal it makes (the early solve's deals, when it decides)."""

    def __init__(self, **options: int) -> None:
        super().__init__(**options)
        self.deals: list[Game] = []

    def _deal(self, view: Game, rng: random.Random) -> Game:
        deal = super()._deal(view, rng)
        self.deals.append(deal.copy())
        return deal


def test_off_it_leaves_play_as_it_was() -> None:
    """exact_talon=0 never solves with cards in the talon (the default AI's games, and
    ismcts-v2's recorded ones, stay as they were)."""
    game, seat = positions(talon=1, count=1)[0]
    bot = IsmctsBot(seed=3, iterations=40)
    bot.start(seat, game.rules)
    bot.choose(game.observation(seat), game.legal_actions(seat))
    assert bot.solved_early == 0 and bot.history  # it searched


def test_a_crash_in_the_early_solve_forfeits_only_its_game(monkeypatch) -> None:
    """A failure inside exact_talon's solving costs the game it happened in, as any bot
    crash does in the arena, and the next game is played out as usual."""
    from durak_arena.referee import BotSpec
    from durak_arena.tournament import SerialExecutor, run_tournament

    calls = {"n": 0}
    real = IsmctsBot._play_early

    def once_broken(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("solver broke")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(IsmctsBot, "_play_early", once_broken)
    ai = BotSpec.parse("builtin:ismcts?iterations=10&exact_talon=4&endgame_nodes=20000")
    results = run_tournament([ai, BotSpec.parse("builtin:greedy")], games=2, seed=4,
                             rules=Rules(), move_time=60.0, executor=SerialExecutor())
    (row,) = results.pair_rows()
    assert calls["n"] >= 2  # the second game reached the option again
    assert row["forfeits"] == 1
    assert row["a_wins"] + row["b_wins"] + row["draws"] == 2
