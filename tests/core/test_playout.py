"""The compiled greedy playout plays exactly like the greedy bot's rollout policy."""

from __future__ import annotations

import random

import pytest

from durak_core import Game, Rules
from durak_core.bots import RandomBot, next_to_act
from durak_core.bots.greedy import rollout_action
from durak_core.playout import greedy_choice, next_seat, playout

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
