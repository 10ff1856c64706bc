"""A game seen from one seat stays consistent with the full game along random games.

The view is made once, at the deal, and then follows the game as a client of a
hidden-hand network game would: it applies every action (the opponents' too)
and learns only its own seat's draws.  At each step it must agree with the full
game on everything that seat may know.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from durak_core import (
    Action,
    Attack,
    Card,
    Defend,
    Game,
    Rules,
    Transfer,
    cards_of,
    mask_of,
    new_deck,
)
from durak_core.cards import BEATERS

from .helpers import ALL_RULES, examples, new_game, play

SETTINGS = settings(max_examples=examples(40), deadline=None, derandomize=True, database=None)


def _cards_of_action(action: Action) -> list[Card]:
    if isinstance(action, Attack):
        return list(action.cards)
    if isinstance(action, Defend | Transfer):
        return [action.card]
    return []


def _with_card(action: Action, card: Card, trump: int) -> Action | None:
    """The same action played with ``card`` instead, if that would fit the table."""
    if isinstance(action, Attack) and not action.more:
        if card.rank == action.card.rank:
            return Attack(action.player, card)
    elif isinstance(action, Defend):
        if BEATERS[trump][action.attack_card.index] & card.bit:
            return Defend(action.player, action.attack_card, card)
    elif isinstance(action, Transfer) and not action.show and card.rank == action.card.rank:
        return Transfer(action.player, card)
    return None


def assert_determinization_consistent(view: Game, seat: int, rng: random.Random) -> None:
    """A determinized view: same observation, every card once, and it plays to the end."""
    full = view.determinize(rng)
    assert full.viewer is None
    assert full.observation(seat) == view.observation(seat)
    assert full.public_hash() == view.public_hash()
    visible: list[Card] = []
    for s in range(full.players):
        visible += full.hand(s)
        assert full.hand_size(s) == len(full.hand(s))
    visible += [c for pair in full.table for c in pair if c is not None]
    visible += full.discarded
    assert len(visible) == len(set(visible))
    assert len(visible) + full.talon_size == full.rules.deck_size
    # The talon holds the rest: play the determinized game out and count again.
    while not full.is_over:
        full.apply(rng.choice(full.legal_actions()))
        assert full.bouts <= full.rules.bout_limit
    placed = [c for s in range(full.players) for c in full.hand(s)]
    placed += [c for pair in full.table for c in pair if c is not None] + full.discarded
    assert full.talon_size == 0
    assert sorted(placed, key=lambda c: c.index) == new_deck(full.rules.deck_size)


@st.composite
def view_setups(draw: st.DrawFn) -> tuple[Rules, int, int, int]:
    rules = draw(st.sampled_from(ALL_RULES))
    return (
        rules,
        draw(st.integers(0, 2**32 - 1)),
        draw(st.integers(0, rules.players - 1)),
        draw(st.integers(0, 2**32 - 1)),
    )


@SETTINGS
@given(view_setups())
def test_seat_view_and_full_game_stay_consistent(setup: tuple[Rules, int, int, int]) -> None:
    rules, seed, seat, move_seed = setup
    game = Game.new(rules, seed=seed)
    view = game.view(seat)
    rng = random.Random(move_seed)
    steps = 0
    while True:
        obs = game.observation(seat)
        assert json.loads(json.dumps(obs)) == obs  # JSON-able, as the network sends it
        assert view.observation(seat) == obs
        assert view.public_hash() == game.public_hash()
        assert view.legal_actions(seat) == game.legal_actions(seat)
        assert Game.from_observation(obs).observation(seat) == obs
        for s in range(game.players):
            known = view.hand(s)
            assert set(known) <= set(game.hand(s))
            assert len(known) + view.unknown_count(s) == game.hand_size(s)
        hidden = {c for s in range(game.players) if s != seat for c in game.hand(s)}
        hidden -= {c for s in range(game.players) for c in view.hand(s)}
        assert set(view.unseen) >= hidden
        if rng.random() < 0.04:
            assert_determinization_consistent(view, seat, rng)
        mine = mask_of(view.hand(seat))
        for other in range(game.players):
            if other == seat:
                continue
            # An opponent never plays, in the view, a card known to be in the viewer's hand.
            for action in view.legal_actions(other):
                assert not mask_of(_cards_of_action(action)) & mine, action
                for c in cards_of(mine):
                    swapped = _with_card(action, c, int(game.trump_suit))
                    if swapped is not None:
                        reason = view.why_illegal(swapped)
                        assert reason is not None and "cannot hold" in reason, swapped
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        if action.player != seat:
            assert view.why_illegal(action) is None, (action, view.why_illegal(action))
        game.apply(action)
        view.apply(action)
        drawn = set(game.hand(seat)) - set(view.hand(seat))
        if drawn:
            view.reveal(seat, drawn)
        steps += 1
        assert steps < 20_000
    assert view.is_over and view.durak == game.durak and view.losers == game.losers


def test_view_of_another_seat_is_refused() -> None:
    """A view answers for its own seat only: another seat's observation is an error."""
    game = Game.new(Rules(players=3), seed=4)
    view = game.view(1)
    with pytest.raises(ValueError, match="seen from seat 1"):
        view.observation(0)
    with pytest.raises(ValueError, match="seen from seat 1"):
        view.view(2)
    with pytest.raises(ValueError, match="no deck order"):
        view.to_json()


def test_reveal_refuses_a_card_known_elsewhere() -> None:
    """The viewer cannot be told that an opponent holds a card the viewer holds."""
    game = new_game(Rules(), ["6s 7s 8s 9s 10s Js", "6c 7c 8c 9c 10c Jc"], "Ah")
    view = game.view(0)
    assert view.unknown_count(1) == 6
    with pytest.raises(ValueError, match="cannot be hidden"):
        view.reveal(1, [Card.parse("6s")])
    with pytest.raises(ValueError, match="cannot be hidden"):
        view.reveal(1, [Card.parse("Ah")])  # the trump card lies under the talon
    view.reveal(1, [Card.parse("6c")])
    assert view.unknown_count(1) == 5 and Card.parse("6c") in view.hand(1)


def test_opponent_card_known_to_viewer_is_refused_in_view() -> None:
    """In seat 1's view, seat 0 cannot attack with a card seat 1 holds."""
    game = new_game(Rules(), ["6s 7s 8s 9s 10s Js", "6c 7c 8c 9c 10c Jc"], "Ah")
    view = game.view(1)
    reason = view.why_illegal(Attack(0, Card.parse("6c")))
    assert reason == "Player 0 cannot hold 6♣: it is known to be elsewhere."
    assert view.why_illegal(Attack(0, Card.parse("Qd"))) is None  # could be in the hidden hand
    play(game, "0 attack 6s")
    view.apply(Attack(0, Card.parse("6s")))
    assert view.observation(1) == game.observation(1)
