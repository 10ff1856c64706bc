"""docs/rules.md, "Setting up": players, the deal, the trump, the first attacker, matches."""

from __future__ import annotations

import random

import pytest

from durak_core import Card, Drew, Game, Match, Rules, new_deck

from .helpers import build_deck, cards, new_game, play


def lowest_trump_holder(game: Game) -> int:
    """The seat holding the lowest trump, or 0: computed from the hands, for comparison."""
    held = [
        (c.rank, seat)
        for seat in range(game.players)
        for c in game.hand(seat)
        if c.suit == game.trump_suit
    ]
    return min(held)[1] if held else 0


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_get_six_cards_each(players: int) -> None:
    game = Game.new(Rules(players=players), seed=players)
    assert game.players == players
    assert [game.hand_size(s) for s in range(players)] == [6] * players
    assert game.talon_size == 36 - 6 * players
    assert game.defender == (game.attacker + 1) % players


def test_default_is_two_players() -> None:
    assert Rules().players == 2


@pytest.mark.parametrize("players", [1, 7, 0])
def test_player_count_outside_two_to_six_is_refused(players: int) -> None:
    with pytest.raises(ValueError, match="players must be 2 to 6"):
        Rules(players=players, deck_size=52)


def test_deal_is_one_card_at_a_time_clockwise() -> None:
    """Card i of the deck goes to seat i % n; the next card is the trump card."""
    deck = new_deck(36)
    random.Random(11).shuffle(deck)
    game = Game.new(Rules(players=3), deck=deck)
    for seat in range(3):
        assert set(game.hand(seat)) == set(deck[seat:18:3])
    assert game.trump_card is deck[18]
    assert game.trump_suit == deck[18].suit


def test_seeded_deals_are_reproducible() -> None:
    a, b = Game.new(Rules(players=4), seed=99), Game.new(Rules(players=4), seed=99)
    assert a.state_hash() == b.state_hash()
    assert a.deck == b.deck
    assert Game.new(Rules(players=4), seed=100).deck != a.deck


@pytest.mark.parametrize("size", [24, 36, 52])
def test_a_seed_deals_what_random_shuffle_gives(size: int) -> None:
    # The compiled engine shuffles with its own copy of random.shuffle's algorithm;
    # a seed must deal the same game in either build and on any Python.
    for seed in range(25):
        deck = new_deck(size)
        random.Random(seed).shuffle(deck)
        assert Game.new(Rules(deck_size=size), seed=seed).deck == tuple(deck)


def test_trump_card_lies_under_the_talon_and_is_drawn_last() -> None:
    """5 players x 36: the talon is 5 cards and then the trump card, drawn last.

    Seat 0 (lowest trump 6♥) leads three sevens, seat 1 beats them and everybody
    passes: seat 0 draws 3, then seat 1 draws the last 3, ending with the trump card.
    """
    rules = Rules(players=5)
    game = new_game(
        rules,
        ["7s 7c 7d 6h 8s 8c", "9s 9c 9d 10s 10c 10d", "", "", ""],
        "Ah",
        talon="Js Jc Jd Qs Qc",
    )
    assert game.attacker == 0 and game.defender == 1
    assert game.talon_size == 6 and game.trump_card == Card.parse("Ah")
    events = play(
        game, "0 attack 7s 7c 7d", "1 defend 7s with 9s", "1 defend 7c with 9c",
        "1 defend 7d with 9d", "0 pass", "2 pass", "3 pass", "4 pass",
    )  # fmt: skip
    draws = [e for e in events if isinstance(e, Drew)]
    assert [(d.player, d.cards) for d in draws] == [
        (0, tuple(cards("Js Jc Jd"))),
        (1, tuple(cards("Qs Qc Ah"))),
    ]
    assert game.talon_size == 0
    assert Card.parse("Ah") in game.hand(1)
    assert Card.parse("Ah") in game.known_cards(1)  # everybody saw it drawn


def test_six_players_36_cards_trump_stays_in_last_hand() -> None:
    """Everything is dealt: the last card dealt shows trump and stays with its owner."""
    game = new_game(Rules(players=6), ["", "", "", "", "", "8d"], "8d")
    assert game.talon_size == 0
    assert game.trump_card == Card.parse("8d")
    assert game.trump_card in game.hand(5)
    assert game.known_cards(5) == [game.trump_card]
    assert all(game.known_cards(s) == [] for s in range(5))
    deck = build_deck([""] * 5 + ["8d"], "8d", deck_size=36)
    assert deck[-1] == game.trump_card


def test_first_attacker_holds_the_lowest_trump() -> None:
    game = new_game(
        Rules(players=3),
        ["9h 6s 7s 8s 9s 10s", "Ah Kh 6c 7c 8c 9c", "7h 6d 7d 8d 9d 10d"],
        "Qh",
    )
    assert game.attacker == 2
    assert game.defender == 0


def test_first_attacker_is_seat_zero_when_nobody_holds_a_trump() -> None:
    game = new_game(
        Rules(players=3),
        ["6s 7s 8s 9s 10s Js", "6c 7c 8c 9c 10c Jc", "6d 7d 8d 9d 10d Jd"],
        "6h",
    )
    assert game.attacker == 0
    assert game.defender == 1


def test_defender_sits_on_the_attackers_left() -> None:
    """Seats are numbered clockwise: the defender is the next seat after the attacker."""
    game = new_game(
        Rules(players=4),
        ["6s 7s 8s 9s 10s Js", "6c 7c 8c 9c 10c Jc", "6d 7d 8d 9d 10d Jd", "6h"],
        "Ah",
    )
    assert (game.attacker, game.defender) == (3, 0)


@pytest.mark.parametrize(("players", "durak"), [(2, 0), (2, 1), (3, 0), (4, 2), (6, 5)])
def test_match_first_attack_against_previous_durak_by_player_on_their_right(
    players: int, durak: int
) -> None:
    rules = Rules(players=players, deck_size=52, match=True)
    game = Game.new(rules, seed=5, previous_durak=durak)
    assert game.defender == durak
    assert game.attacker == (durak - 1) % players


def test_previous_durak_needs_match_and_a_seat() -> None:
    with pytest.raises(ValueError, match="needs Rules\\(match=True\\)"):
        Game.new(Rules(), seed=1, previous_durak=0)
    with pytest.raises(ValueError, match="must be a seat"):
        Game.new(Rules(match=True), seed=1, previous_durak=2)


def test_match_series_starts_next_game_against_the_durak() -> None:
    """A Match deals the next game against the last durak; a draw falls back to lowest trump."""
    match = Match(Rules(players=3, match=True), seed=8)
    rng = random.Random(2)
    for _ in range(4):
        game = match.new_game()
        if match.last_durak is not None:
            assert game.defender == match.last_durak
            assert game.attacker == (match.last_durak - 1) % 3
        else:
            assert game.attacker == lowest_trump_holder(game)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
    match.new_game()
    assert match.games_played == 4
    assert sum(match.score) + match.draws == 4
