"""Property tests over random games, for every valid combination of rule options.

Each example deals a game from a random seed under rules drawn from every valid
option combination, then plays it out with a seeded ``random.Random`` choosing
among ``game.legal_actions()`` (uniformly, or for some examples preferring to
fight, which reaches rarer endings such as draws), checking invariants at each
step.  Legal actions are also checked against docs/rules.md written out independently
(:func:`assert_makes_sense`, :func:`assert_complete`).  ``derandomize=True`` makes
the examples the same on every run, so CI is stable.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from durak_core import (
    Action,
    Attack,
    Card,
    Defend,
    Event,
    Game,
    GameOver,
    IllegalAction,
    Left,
    NewBout,
    Pass,
    Rules,
    Suit,
    Take,
    Transfer,
    new_deck,
    parse_action,
)
from durak_core.cards import ALL_CARDS

from .helpers import ALL_RULES, all_cards_placed, examples

#: A game of random moves ends in a few hundred actions; bout_limit (1000 bouts)
#: bounds it for sure.  Far above the longest game seen, far below "forever".
MAX_ACTIONS = 20_000

SETTINGS = settings(max_examples=examples(50), deadline=None, derandomize=True, database=None)


@dataclass(frozen=True)
class Setup:
    """A random game to play: its rules, deal seed, previous durak and move seed."""

    rules: Rules
    seed: int
    previous_durak: int | None
    move_seed: int
    #: Chance of preferring a defence, transfer or throw-in over a uniform choice.
    #: Uniform play (0.0) almost never ends in a draw; eager defending reaches draws.
    eagerness: float = 0.0

    def deal(self) -> Game:
        return Game.new(self.rules, seed=self.seed, previous_durak=self.previous_durak)


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    rules = draw(st.sampled_from(ALL_RULES))
    previous = None
    if rules.match:
        previous = draw(st.none() | st.integers(0, rules.players - 1))
    return Setup(
        rules=rules,
        seed=draw(st.integers(0, 2**32 - 1)),
        previous_durak=previous,
        move_seed=draw(st.integers(0, 2**32 - 1)),
        eagerness=draw(st.sampled_from([0.0, 0.0, 0.7, 1.0])),
    )


def choose(game: Game, rng: random.Random, eagerness: float) -> Action:
    """A random legal action; with probability ``eagerness`` a defence or attack if any."""
    legal = game.legal_actions()
    assert legal, f"nobody can act, yet the game is not over:\n{game.to_text()}"
    if eagerness and rng.random() < eagerness:
        fights: list[Action] = [a for a in legal if isinstance(a, Defend | Transfer)]
        if not fights and rng.random() < 0.5:
            fights = [a for a in legal if isinstance(a, Attack)]
        if fights:
            return rng.choice(fights)
    return rng.choice(legal)


def play_out(
    setup: Setup, check: Callable[[Game, random.Random], None] | None = None
) -> tuple[Game, list[list[Event]]]:
    """Play a game with random legal actions (see :func:`choose`); ``check`` runs before each move.

    Returns the finished game and the events of every action.
    """
    game = setup.deal()
    rng = random.Random(setup.move_seed)
    history: list[list[Event]] = []
    while not game.is_over:
        assert len(history) < MAX_ACTIONS, "the game does not end"
        if check is not None:
            check(game, rng)
        history.append(game.apply(choose(game, rng, setup.eagerness)))
    if check is not None:
        check(game, rng)
    return game, history


def random_action(game: Game, rng: random.Random) -> Action:
    """Any action at all: a random kind, seat (sometimes no seat) and cards."""
    player = rng.randrange(-1, game.players + 1)
    kind = rng.randrange(5)
    c = rng.choice(ALL_CARDS)
    if kind == 0:
        more = tuple(x for x in rng.sample(ALL_CARDS, rng.randrange(3)) if x is not c)
        return Attack(player, c, more)
    if kind == 1:
        return Defend(player, rng.choice(ALL_CARDS), c)
    if kind == 2:
        return Transfer(player, c, show=rng.random() < 0.5)
    if kind == 3:
        return Take(player)
    return Pass(player)


def near_miss(game: Game, rng: random.Random) -> Action:
    """An action built from cards that matter now (hands, table), mostly illegal."""
    table = [a for a, _ in game.table] or [rng.choice(ALL_CARDS)]
    player = rng.randrange(game.players)
    hand = game.hand(player) or [rng.choice(ALL_CARDS)]
    c = rng.choice(hand)
    kind = rng.randrange(5)
    if kind == 0:
        return Attack(player, c)
    if kind == 1:
        return Defend(player, rng.choice(table), c)
    if kind == 2:
        return Transfer(player, c, show=rng.random() < 0.3)
    if kind == 3:
        return Take(player)
    return Pass(player)


def assert_cards_conserved(game: Game) -> None:
    placed = all_cards_placed(game)
    assert len(placed) == len(set(placed)), "a card is in two places"
    assert sorted(placed, key=lambda c: c.index) == new_deck(game.rules.deck_size)


@SETTINGS
@given(setups())
def test_cards_are_conserved_and_never_duplicated(setup: Setup) -> None:
    """Hands + table + talon + discard are exactly the deck, at every step."""

    def check(game: Game, rng: random.Random) -> None:
        assert_cards_conserved(game)
        on_table = sum(1 if d is None else 2 for _, d in game.table)
        in_hands = sum(game.hand_size(s) for s in range(game.players))
        counted = in_hands + on_table + game.talon_size + game.discard_size
        assert counted == game.rules.deck_size
        for s in range(game.players):
            assert set(game.known_cards(s)) <= set(game.hand(s))
        if game.is_over:
            return
        # The limit: at most 6 attack cards (5 before the first discard), never more
        # unbeaten ones than the defender holds.
        assert len(game.table) <= game.limit <= 6
        if game.discard_size == 0 and game.rules.first_bout_limit is not None:
            assert game.limit <= game.rules.first_bout_limit
        unbeaten = sum(d is None for _, d in game.table)
        assert unbeaten <= game.hand_size(game.defender)
        assert game.defender in game.active_players
        assert game.attacker != game.defender
        if game.rules.teams:
            team = game.rules.team_of(game.defender)
            assert all(game.rules.team_of(s) != team for s in game.throwers())

    play_out(setup, check)


def beats(card: Card, attack: Card, trump: Suit) -> bool:
    """The beating rule written out from docs/rules.md, independent of the engine's tables."""
    if card.suit == attack.suit:
        return card.rank > attack.rank
    return card.suit == trump


def assert_makes_sense(game: Game, action: Action) -> None:
    """A legal action agrees with docs/rules.md, checked from public properties only."""
    p = action.player
    hand = set(game.hand(p))
    table = game.table
    attacks = [a for a, _ in table]
    unbeaten = [a for a, d in table if d is None]
    assert p in game.active_players
    if isinstance(action, Attack):
        assert p != game.defender and set(action.cards) <= hand
        assert len({c.rank for c in action.cards}) == 1
        assert len(table) + len(action.cards) <= game.limit
        if table:
            ranks = {c.rank for pair in table for c in pair if c is not None}
            assert not action.more and action.card.rank in ranks
            assert p in game.throwers()
        else:
            assert p == game.attacker
            assert not action.more or game.rules.open_with_several
    elif isinstance(action, Defend):
        assert p == game.defender and action.card in hand and not game.taking
        assert action.attack_card in unbeaten
        assert beats(action.card, action.attack_card, game.trump_suit)
    elif isinstance(action, Transfer):
        assert game.rules.variant == "perevodnoy" and p == game.defender
        assert action.card in hand and not game.taking
        assert unbeaten == attacks and {a.rank for a in attacks} == {action.card.rank}
        if action.show:
            assert game.rules.transfer_by_showing_trump
            assert action.card.suit == game.trump_suit
    elif isinstance(action, Take):
        assert p == game.defender and unbeaten and not game.taking
    else:
        assert p != game.defender and table and p in game.throwers()
        assert game.taking or not unbeaten
        assert p not in game.passed


def expected_transfers(game: Game) -> set[Action]:
    """Transfers by playing a card, as docs/rules.md describes them."""
    rules = game.rules
    d = game.defender
    table = game.table
    if rules.variant != "perevodnoy" or not table or game.taking:
        return set()
    rank = table[0][0].rank
    if any(x is not None or a.rank != rank for a, x in table):
        return set()
    seats = [(d + k) % game.players for k in range(1, game.players)]
    team = rules.team_of(d)
    opponents = [s for s in seats if s in game.active_players and rules.team_of(s) != team]
    if not opponents:
        return set()
    new_defender = opponents[0]
    need = len(table) + 1
    if need > rules.limit_cap(game.discard_size == 0) or game.hand_size(new_defender) < need:
        return set()
    return {Transfer(d, c) for c in game.hand(d) if c.rank == rank}


def assert_complete(game: Game, legal: set[Action]) -> None:
    """Every move docs/rules.md allows (defences, take, throw-ins, passes) is offered."""
    if game.is_over:
        assert not legal
        return
    d = game.defender
    table = game.table
    unbeaten = [a for a, x in table if x is None]
    if table and not game.taking:
        for a in unbeaten:
            for c in game.hand(d):
                if beats(c, a, game.trump_suit):
                    assert Defend(d, a, c) in legal
    assert (Take(d) in legal) == bool(unbeaten and not game.taking)
    transfers = {a for a in legal if isinstance(a, Transfer) and not a.show}
    assert transfers == expected_transfers(game)
    if not table:
        for c in game.hand(game.attacker):
            assert Attack(game.attacker, c) in legal
        return
    ranks = {c.rank for pair in table for c in pair if c is not None}
    room = len(table) < game.limit
    for t in game.throwers():
        if not room:
            continue
        for c in game.hand(t):
            if c.rank in ranks:
                assert Attack(t, c) in legal
        may_pass = game.taking or not unbeaten
        if may_pass and t not in game.passed and game.hand_size(t):
            assert Pass(t) in legal


def _assert_refused(game: Game, action: Action) -> None:
    """An action not in legal_actions has a reason, raises, and changes nothing."""
    reason = game.why_illegal(action)
    assert isinstance(reason, str) and reason, f"{action} is not legal but has no reason"
    before = game.state_hash()
    log_len = len(game.log)
    try:
        game.apply(action)
    except IllegalAction as exc:
        assert exc.reason == reason
    else:
        raise AssertionError(f"{action} is not in legal_actions but was applied")
    assert game.state_hash() == before
    assert len(game.log) == log_len


@SETTINGS
@given(setups())
def test_action_applies_exactly_when_in_legal_actions(setup: Setup) -> None:
    """Legal actions apply without error; every other action is refused with a reason.

    Also: legal_actions(p) is legal_actions() filtered to p, and why_illegal is None
    for every legal action.
    """

    def check(game: Game, rng: random.Random) -> None:
        legal = game.legal_actions()
        legal_set = set(legal)
        assert len(legal_set) == len(legal), "an action is listed twice"
        for p in range(game.players):
            assert game.legal_actions(p) == [a for a in legal if a.player == p]
        for a in legal:
            assert game.why_illegal(a) is None, f"{a}: {game.why_illegal(a)}"
            assert_makes_sense(game, a)
        assert_complete(game, legal_set)
        for auto in game.automatic_actions():
            assert game.legal_actions(auto.player) == [auto] == [Pass(auto.player)]
        for a in rng.sample(legal, min(4, len(legal))):
            trial = game.copy()
            trial.apply(a)
            assert trial.log[-1] == a
        for make in (random_action, random_action, near_miss, near_miss, near_miss):
            action = make(game, rng)
            if action in legal_set:
                assert game.why_illegal(action) is None
                game.copy().apply(action)
            else:
                _assert_refused(game, action)

    play_out(setup, check)


@SETTINGS
@given(setups())
def test_json_round_trips_and_log_replays_to_same_hash(setup: Setup) -> None:
    """At checkpoints and at the end: JSON and the text log rebuild the same state."""
    checkpoints = 0

    def check(game: Game, rng: random.Random) -> None:
        nonlocal checkpoints
        if not (game.is_over or rng.random() < 0.05):
            return
        checkpoints += 1
        text = game.to_json()
        json.loads(text)
        again = Game.from_json(text)
        assert again.state_hash() == game.state_hash()
        assert again.log == game.log
        deck = game.deck
        assert deck is not None
        replayed = Game.replay(
            game.rules, deck, [str(a) for a in game.log], previous_durak=setup.previous_durak
        )
        assert replayed.state_hash() == game.state_hash()
        assert [parse_action(str(a)) for a in game.log] == game.log

    game, _ = play_out(setup, check)
    assert game.is_over and checkpoints >= 1


def assert_result_consistent(game: Game, history: list[list[Event]]) -> None:
    """The end of a game agrees with who went out and when (draw only all out together)."""
    rules = game.rules
    seats = set(range(rules.players))
    over_events = [e for events in history for e in events if isinstance(e, GameOver)]
    assert len(over_events) == 1 and isinstance(history[-1][-1], GameOver)
    assert game.legal_actions() == []
    assert len(game.finish_order) == len(set(game.finish_order))
    assert set(game.finish_order) | set(game.active_players) == seats
    assert not set(game.finish_order) & set(game.active_players)
    if game.end_reason == "bout limit reached":
        assert game.bouts == rules.bout_limit and game.durak is None
        return
    if game.durak is None:
        assert game.active_players == [] and set(game.finish_order) == seats
        assert game.losers == ()
        last_bout: list[Event] = []
        for events in history:
            for e in events:
                if isinstance(e, NewBout):
                    last_bout = []
                else:
                    last_bout.append(e)
        left_last = [e.player for e in last_bout if isinstance(e, Left)]
        # Two or more players (teams) were still in when the last bout began,
        # and all of them went out in it.
        assert len({rules.team_of(s) for s in left_last}) >= 2
        assert game.finish_order[len(game.finish_order) - len(left_last) :] == left_last
        return
    assert game.durak in game.active_players
    assert game.durak in game.losers
    if rules.teams:
        team = rules.team_of(game.durak)
        assert set(game.losers) == {s for s in seats if rules.team_of(s) == team}
        assert {rules.team_of(s) for s in game.active_players} == {team}
    else:
        assert game.losers == (game.durak,)
        assert game.active_players == [game.durak]
        assert set(game.finish_order) == seats - {game.durak}


@settings(SETTINGS, max_examples=examples(300))
@given(setups())
def test_every_game_ends_and_a_draw_only_when_everybody_is_out_together(setup: Setup) -> None:
    """Random games end (play_out bounds them); the result is consistent."""
    game, history = play_out(setup)
    assert_result_consistent(game, history)


def test_draws_in_random_games_have_everybody_out_together() -> None:
    """Draws are rare in random play: play eager games until several draws were checked."""
    draws = 0
    for i in range(2000):
        rules = ALL_RULES[i * 7 % len(ALL_RULES)]
        game, history = play_out(Setup(rules, i, None, i, eagerness=1.0))
        assert_result_consistent(game, history)
        if game.durak is None:
            draws += 1
            if draws == 8:
                break
    assert draws == 8
