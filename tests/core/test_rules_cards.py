"""docs/rules.md, "Cards": deck sizes, rank order, what beats what, text forms."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from durak_core import Card, Defend, Game, Rules, Suit, new_deck
from durak_core.cards import popcount

from .helpers import cards, new_game, play

HEARTS = Suit.HEARTS


@pytest.mark.parametrize(("size", "lowest"), [(24, 9), (36, 6), (52, 2)])
def test_deck_sizes_24_36_52(size: int, lowest: int) -> None:
    """24 cards are 9 to A, 36 are 6 to A, 52 are 2 to A, in each of the four suits."""
    deck = new_deck(size)
    assert len(deck) == len(set(deck)) == size
    assert {c.rank for c in deck} == set(range(lowest, 15))
    assert {c.suit for c in deck} == set(Suit)
    game = Game.new(Rules(deck_size=size), seed=3)
    assert game.talon_size == size - 12
    dealt = set(game.hand(0)) | set(game.hand(1)) | {game.trump_card}
    assert dealt <= set(deck)


def test_default_deck_is_36() -> None:
    assert Rules().deck_size == 36
    assert Game.new(Rules(), seed=0).talon_size == 36 - 12


@pytest.mark.parametrize(
    ("players", "deck_size", "message"),
    [
        (5, 24, "5 players need 30 cards for the deal, but a 24-card deck has 24"),
        (7, 52, "players must be 2 to 6, not 7"),
        (2, 40, "deck_size must be 24, 36 or 52, not 40"),
    ],
)
def test_deck_size_must_deal_six_cards_to_everyone(
    players: int, deck_size: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Rules(players=players, deck_size=deck_size)


def test_largest_tables_that_fit() -> None:
    """4 players fit a 24-card deck and 6 players a 36-card deck exactly: no talon."""
    assert Game.new(Rules(players=4, deck_size=24), seed=1).talon_size == 0
    assert Game.new(Rules(players=6, deck_size=36), seed=1).talon_size == 0
    assert Game.new(Rules(players=6, deck_size=52), seed=1).talon_size == 52 - 36


def test_explicit_deck_must_be_the_whole_deck() -> None:
    deck = new_deck(36)
    with pytest.raises(ValueError, match="exactly once"):
        Game.new(Rules(), deck=deck[:-1] + deck[:1])
    with pytest.raises(ValueError, match="exactly once"):
        Game.new(Rules(), deck=new_deck(52)[:36])
    with pytest.raises(ValueError, match="either seed or deck"):
        Game.new(Rules(), seed=1, deck=deck)


def test_rank_order_low_to_high() -> None:
    """2 3 4 5 6 7 8 9 10 J Q K A: each rank beats every lower rank of its suit."""
    order = cards("2s 3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As")
    assert [c.rank for c in order] == list(range(2, 15))
    for i, low in enumerate(order):
        for high in order[i + 1 :]:
            assert high.beats(low, HEARTS)
            assert not low.beats(high, HEARTS)
        assert not low.beats(low, HEARTS)


def test_no_suit_outranks_another_except_trump() -> None:
    """An ace of one plain suit does not beat a six of another plain suit."""
    for a in (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS):
        for b in (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS):
            if a != b:
                assert not Card(14, a).beats(Card(6, b), HEARTS)


def test_trump_beats_any_non_trump() -> None:
    six_of_trumps = Card.parse("6h")
    for c in new_deck(36):
        if c.suit != HEARTS:
            assert six_of_trumps.beats(c, HEARTS)
            assert not c.beats(six_of_trumps, HEARTS)


def test_trump_beats_lower_trump_only() -> None:
    assert Card.parse("Qh").beats(Card.parse("10h"), HEARTS)
    assert not Card.parse("10h").beats(Card.parse("Qh"), HEARTS)
    assert not Card.parse("Qh").beats(Card.parse("Qh"), HEARTS)


def test_defender_may_beat_exactly_with_the_cards_that_beat() -> None:
    """In a game, the defences offered are exactly the hand's cards that beat the attack."""
    game = new_game(Rules(), ["8s 6c 7c 8c 9c 10c", "7s 9s Ks 7d 6h Ah"], "Jh")
    play(game, "1 attack 7d")  # seat 1 holds the lowest trump (6♥) and leads
    attack = Card.parse("7d")
    offered = {a.card for a in game.legal_actions(0) if isinstance(a, Defend)}
    assert offered == {c for c in game.hand(0) if c.beats(attack, HEARTS)} == set()
    game = new_game(Rules(), ["8s 6c 7c 8d 9h 10h", "7s 9s Ks 7d 6h Ah"], "Jh")
    play(game, "1 attack 7d")
    offered = {a.card for a in game.legal_actions(0) if isinstance(a, Defend)}
    assert offered == set(cards("8d 9h 10h"))


def test_text_form_is_rank_then_suit() -> None:
    assert str(Card.parse("10h")) == "10♥"
    assert str(Card.parse("as")) == "A♠"
    assert [str(c) for c in cards("Jc Qd Kh 2s")] == ["J♣", "Q♦", "K♥", "2♠"]


@pytest.mark.parametrize("text", ["10h", "10H", "Th", "tH", "10♥", " 10 h ", "10♡"])
def test_ascii_input_is_accepted(text: str) -> None:
    assert Card.parse(text) is Card(10, HEARTS)


@pytest.mark.parametrize(("text", "expected"), [("AS", "A♠"), ("as", "A♠"), ("qd", "Q♦")])
def test_ascii_input_any_case(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


def test_card_text_round_trips_for_every_card() -> None:
    for c in new_deck(52):
        assert Card.parse(str(c)) is c
        assert Card.parse(c.ascii) is c
        assert Card.parse(c.code) is c


@given(st.integers(min_value=0, max_value=(1 << 52) - 1))
def test_popcount_counts_the_cards_of_any_mask(mask: int) -> None:
    assert popcount(mask) == mask.bit_count()
