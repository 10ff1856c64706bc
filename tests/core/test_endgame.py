"""The endgame solver: exact, the same as brute force, and never refuted by play."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import durak_core
from durak_core import Game, Pass, Rules, Take
from durak_core.bots import Bot, GreedyBot, RandomBot, next_to_act
from durak_core.endgame import DRAW, LOSS, WIN, EndgameSolver, applies, seats_left

from .helpers import examples

#: Small enough for brute force: cards left in the two hands and on the table.
SMALL = 7


def result(game: Game, seat: int) -> int:
    """WIN, DRAW or LOSS of a finished game for ``seat``."""
    if not game.losers:
        return DRAW
    return LOSS if seat in game.losers else WIN


def brute_force(game: Game, seat: int, memo: dict[str, int] | None, line: set[str]) -> int:
    """Minimax over the engine itself: every legal action of the seat asked next.

    memo: results by position (None with transfers, where a position can come
        back: then a repetition on the line played is a draw, as endless play
        ends in a draw at the bout limit, and nothing is memoized).
    """
    if game.is_over:
        return result(game, seat)
    key = repr(game._state_tuple(public=False)[:-1])  # all but the bout counter
    if memo is not None and key in memo:
        return memo[key]
    if key in line:
        return DRAW
    line.add(key)
    actor = next_to_act(game)
    assert actor is not None
    values = []
    for action in game.legal_actions(actor):
        child = game.copy()
        child.apply(action)
        values.append(brute_force(child, seat, memo, line))
    line.discard(key)
    value = max(values) if actor == seat else min(values)
    if memo is not None:
        memo[key] = value
    return value


def live_cards(game: Game) -> int:
    return sum(game.hand_size(s) for s in game.active_players) + sum(
        1 if d is None else 2 for _, d in game.table
    )


def endgames(
    rules: Rules, count: int, most: int, seed: int = 0, bot: type[Bot] = RandomBot
) -> Iterator[Game]:
    """Positions from play by ``bot``: the talon empty, two seats left, at most ``most``
    cards in play (play goes on until then), at every stage of a bout."""
    found = 0
    deal = seed
    while found < count:
        deal += 1
        game = Game.new(rules, seed=deal)
        bots = [bot(seed=deal * 10 + s) for s in range(rules.players)]
        rng = random.Random(deal)
        while not game.is_over:
            seat = next_to_act(game)
            assert seat is not None
            if applies(game) and live_cards(game) <= most and rng.random() < 0.5:
                found += 1
                yield game.copy()
                break
            legal = game.legal_actions(seat)
            game.apply(bots[seat].choose(game.observation(seat), legal))


RULE_SETS = {
    "podkidnoy-24": Rules(deck_size=24),
    "podkidnoy-36": Rules(),
    "one-at-a-time": Rules(open_with_several=False, first_bout_limit=6, deck_size=24),
    "three-seats": Rules(players=3, deck_size=24),
    "perevodnoy": Rules(variant="perevodnoy", deck_size=24),
    "show-trump": Rules(variant="perevodnoy", transfer_by_showing_trump=True, deck_size=24),
}


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_the_solver_equals_brute_force_on_small_endgames(rules: Rules) -> None:
    cyclic = rules.variant == "perevodnoy"
    checked, count = 0, examples(10)
    for game in endgames(rules, count=count, most=6 if cyclic else SMALL):
        solver = EndgameSolver(rules, int(game.trump_suit))
        for seat in seats_left(game):
            solution = solver.solve(game, seat)
            assert solution.exact or cyclic
            assert solution.value == brute_force(game, seat, None if cyclic else {}, set())
        actor = next_to_act(game)
        assert actor is not None
        legal = game.legal_actions(actor)
        for action, after in zip(legal, solver.values(game, actor, legal), strict=True):
            child = game.copy()
            child.apply(action)
            assert after.exact or cyclic
            expected = brute_force(child, actor, None if cyclic else {}, set())
            assert after.value == expected, str(action)
        checked += 1
    assert checked == count


def play_out(game: Game, sides: dict[int, EndgameSolver | random.Random]) -> Game:
    """Play ``game`` to the end: a seat with a solver plays its best action, a seat with
    a random generator any legal action."""
    game = game.copy()
    while not game.is_over:
        actor = next_to_act(game)
        assert actor is not None
        legal = game.legal_actions(actor)
        side = sides[actor]
        if isinstance(side, EndgameSolver):
            action = side.solve(game, actor).action
            assert action in legal
        else:
            action = side.choice(legal)
        game.apply(action)
    return game


@pytest.mark.parametrize("rules", [Rules(), Rules(variant="perevodnoy")], ids=["podkidnoy",
                                                                               "perevodnoy"])
def test_play_never_contradicts_the_solver(rules: Rules) -> None:
    """From endgames of greedy play (about a dozen cards): the solver's side never does
    worse than the value it proved, against any replies; two solvers reach it exactly.
    (Fewer games on the pure-Python build, which solves five times slower.)"""
    count = 4 if durak_core.COMPILED else 2
    for number, game in enumerate(endgames(rules, count=count, most=14, bot=GreedyBot)):
        solver = EndgameSolver(rules, int(game.trump_suit))
        one, two = seats_left(game)
        values = {seat: solver.solve(game, seat) for seat in (one, two)}
        for seat, other in ((one, two), (two, one)):
            solution = values[seat]
            if not solution.exact:
                continue  # a draw by repetition (perevodnoy): nothing proven to check
            assert solution.value == -values[other].value
            both = play_out(game, {seat: solver, other: solver})
            assert result(both, seat) == solution.value
            for trial in range(3):
                rng = random.Random(number * 100 + trial)
                line = play_out(game, {seat: solver, other: rng})
                assert result(line, seat) >= solution.value


def near_endgames(
    rules: Rules, count: int, talon: int, seed: int = 0, forced: bool = False
) -> Iterator[Game]:
    """Positions of greedy play (one move in five random) with 1 to ``talon`` cards still
    in the talon, at a moment the seat to act can end the bout (take or pass), so that
    the engine's draw follows at once; ``forced``: ending it is the only legal move."""
    found = 0
    deal = seed
    while found < count:
        deal += 1
        game = Game.new(rules, seed=deal)
        greedy = GreedyBot()
        rng = random.Random(deal)
        while not game.is_over:
            seat = next_to_act(game)
            assert seat is not None
            legal = game.legal_actions(seat)
            ends = [a for a in legal if isinstance(a, (Take, Pass))]
            wanted = len(legal) == 1 if forced else bool(ends)
            if 1 <= game.talon_size <= talon and ends and wanted and rng.random() < 0.5:
                found += 1
                yield game.copy()
                break
            action = (rng.choice(legal) if rng.random() < 0.2
                      else greedy.choose(game.observation(seat), legal))
            game.apply(action)


def test_the_solver_draws_the_talon_as_the_engine_does() -> None:
    """With cards still in the talon (``talon=2``) and the bout's end the only move, the
    solver's value of the position, which draws inside the solver, is that of the
    position after the engine's own draw, valued by the plain endgame solver once the
    talon is empty (or by the same solver while it is not), for both seats: the draw's
    order and hand limit, which decide who gets the trump card, are the engine's.
    (Positions where a solve needs more than 5,000 positions are skipped, to keep the
    test cheap.)"""
    rules = Rules()
    checked = 0
    for game in near_endgames(rules, count=30, talon=2, forced=True):
        trump = int(game.trump_suit)
        near = EndgameSolver(rules, trump, talon=2)
        plain = EndgameSolver(rules, trump)
        actor = next_to_act(game)
        assert actor is not None
        (action,) = game.legal_actions(actor)
        child = game.copy()
        child.apply(action)
        for seat in seats_left(game, 2):
            before = near.solve(game, seat, 5000)
            if not before.exact:
                continue
            if child.is_over:
                after = result(child, seat)
            else:
                solution = (plain if applies(child) else near).solve(child, seat, 5000)
                if not solution.exact:
                    continue
                after = solution.value
            assert before.value == after
            checked += 1
    assert checked >= 20


def test_the_solver_with_a_talon_wants_it_known() -> None:
    """Only a talon whose cards are known can be solved: a seat's view with a hidden
    card in the talon is refused; with the trump card alone left it is solved."""
    rules = Rules()
    for game in near_endgames(rules, count=3, talon=2):
        seat = next_to_act(game)
        assert seat is not None
        view = game.view(seat)
        solver = EndgameSolver(rules, int(game.trump_suit), talon=2)
        if game.talon_size == 2:
            assert not seats_left(view, 2)
            with pytest.raises(ValueError, match="at most 2 cards in the talon"):
                solver.solve(view, seat)
        else:
            assert seats_left(view, 2)
            assert solver.solve(view, seat).value == solver.solve(game, seat).value
        assert not seats_left(game)  # the plain solver still wants an empty talon
