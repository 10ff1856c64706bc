"""The compiled greedy playout plays exactly like the greedy bot's rollout policy; the
rollout's refinements near the end (``finish``) do what they say."""

from __future__ import annotations

import random

import pytest

import durak_core
from durak_core import Card, Game, Rules
from durak_core.actions import Attack
from durak_core.bots import RandomBot, next_to_act
from durak_core.bots.greedy import rollout_action
from durak_core.endgame import EndgameSolver, seats_left
from durak_core.playout import (
    finish,
    greedy_choice,
    next_seat,
    outcome,
    playout,
    unbeatable_throw,
)

from .helpers import position

RULE_SETS = {
    "podkidnoy": Rules(),
    "3-seats": Rules(players=3),
    "perevodnoy": Rules(variant="perevodnoy"),
    "show-trump": Rules(variant="perevodnoy", transfer_by_showing_trump=True, players=3),
    "52-cards-4": Rules(players=4, deck_size=52, throw_in="neighbours"),
    "one-at-a-time": Rules(open_with_several=False, deck_size=24),
    "teams": Rules(players=4, teams=True),
}


def python_playout(game: Game) -> None:
    """The rollout of IsmctsBot before the compiled one: the greedy policy in Python."""
    trump = int(game.trump_suit)
    while not game.is_over:
        actor = next_to_act(game)
        assert actor is not None
        legal = game.legal_actions(actor)
        game.apply(legal[0] if len(legal) == 1 else rollout_action(game, actor, legal, trump))


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_playout_plays_move_for_move_like_the_greedy_policy(rules: Rules) -> None:
    """From positions reached by random play, at every stage of the game."""
    for deal in range(25):
        game = Game.new(rules, seed=deal)
        bot = RandomBot(seed=deal)
        rng = random.Random(deal)
        stop = rng.randrange(0, 120)
        for _ in range(stop):
            seat = next_to_act(game)
            if seat is None:
                break
            game.apply(bot.choose(game.observation(seat), game.legal_actions(seat)))
        ours, theirs = game.copy(), game.copy()
        python_playout(theirs)
        playout(ours)
        assert ours.log == theirs.log, f"deal {deal}"
        assert ours.state_hash() == theirs.state_hash()


def test_next_seat_is_next_to_act() -> None:
    game = Game.new(Rules(players=3), seed=2)
    while not game.is_over:
        actor = next_to_act(game)
        assert next_seat(game) == actor
        assert actor is not None
        game.apply(greedy_choice(game, actor))
    assert next_seat(game) == -1


def test_playout_refuses_a_seat_view() -> None:
    with pytest.raises(ValueError, match="full game"):
        playout(Game.new(Rules(), seed=1).view(0))


# ---------------------------------------------------------------- finish: the rollout's refinements


def _endgames(rules: Rules, count: int, most: int) -> list[Game]:
    """Two seats, empty talon, at most ``most`` cards in the hands, from greedy play with
    some random moves (seeded)."""
    found: list[Game] = []
    deal = 0
    while len(found) < count:
        deal += 1
        game = Game.new(rules, seed=deal)
        rng = random.Random(deal)
        while not game.is_over:
            actor = next_seat(game)
            if seats_left(game) and sum(game.hand_size(s) for s in range(game.players)) <= most:
                found.append(game.copy())
                break
            legal = game.legal_actions(actor)
            game.apply(rng.choice(legal) if rng.random() < 0.2 else greedy_choice(game, actor))
    return found


@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_finish_without_refinements_is_the_greedy_playout(rules: Rules) -> None:
    for deal in range(10):
        game = Game.new(rules, seed=deal)
        ours, theirs = game.copy(), game.copy()
        rewards = finish(ours)
        playout(theirs)
        assert ours.log == theirs.log
        assert rewards == outcome(theirs)


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(variant="perevodnoy"), Rules(players=3)],
    ids=["podkidnoy", "perevodnoy", "3-seats"],
)
def test_finish_ends_with_the_solvers_exact_value(rules: Rules) -> None:
    """``tail``: once the two seats hold few enough cards, the rollout's rewards are the
    solver's proven result (the solver asked first, then handed to ``finish``), not the
    greedy play's."""
    differs = 0
    # 20 endgames on the pure-Python engine (scripts/test.sh runs tests/core on both):
    # the 25th three-seat one takes the solver 1.7 M nodes, 6.5 s of CPU there and most
    # of this test's time, and checks nothing the other endgames do not.  The first 20
    # of each rule set hold several that the greedy playout misplays.
    for game in _endgames(rules, 30 if durak_core.COMPILED else 20, most=7):
        seats = seats_left(game)
        trump = int(game.trump_suit)
        solver = EndgameSolver(rules, trump)
        exact = solver.solve(game, seats[0])
        assert exact.exact
        # The same solver, its table kept: the solve is not paid for twice (one of the
        # three-seat endgames takes 1.7 M nodes, seconds in the pure engine).
        rewards = finish(game.copy(), solver, 7, 10**6)
        assert rewards[seats[0]] == exact.reward
        assert rewards[seats[1]] == 1 - exact.reward
        greedy = game.copy()
        playout(greedy)
        differs += outcome(greedy)[seats[0]] != exact.reward
        # Beyond the threshold nothing is solved: the greedy playout, move for move.
        assert finish(game.copy(), EndgameSolver(rules, trump), 1, 10**6) == outcome(greedy)
    assert differs  # the greedy policy misplays some of them: the solver did the work


def test_finish_plays_on_greedily_when_the_solver_runs_out_of_nodes() -> None:
    for game in _endgames(Rules(), 10, most=12):
        greedy = game.copy()
        playout(greedy)
        # One position is not enough to prove anything but the end itself.
        rewards = finish(game.copy(), EndgameSolver(Rules(), int(game.trump_suit)), 12, 1)
        assert rewards == outcome(greedy)


def test_unbeatable_throw_gives_the_defender_a_card_it_cannot_beat() -> None:
    # Trumps are diamonds.  Seat 1 defends a six of clubs, beaten by the seven; seat 0
    # may throw in a six or a seven: 6s and 7s are beaten by the 8s, 6h by nothing.
    game = position(Rules(), ["6s 7s 6h Kc", "8s 9c 10c"], "Ad", attacker=0, defender=1,
                    table=[("6c", "7c")])
    assert greedy_choice(game, 0) == Attack(0, Card.parse("6s"))  # the cheapest
    assert unbeatable_throw(game, 0) == Attack(0, Card.parse("6h"))
    rewards = finish(game.copy(), throw=True)
    assert rewards == [1.0, 0.0]  # seat 1 takes and seat 0 plays out its hand
    # Not for the defender, nor once it takes (any card will do then), nor with a talon.
    assert unbeatable_throw(game, 1) is None
    taking = position(Rules(), ["6s 7s 6h Kc", "8s 9c 10c"], "Ad", attacker=0, defender=1,
                      table=[("6c", None)], taking=True)
    assert unbeatable_throw(taking, 0) is None
    fresh = Game.new(Rules(), seed=1)
    assert unbeatable_throw(fresh, fresh.attacker) is None



def test_finish_refuses_a_seat_view() -> None:
    with pytest.raises(ValueError, match="full game"):
        finish(Game.new(Rules(), seed=1).view(0))
