"""durak_core.render: games drawn as HTML cards, and no hidden card in a seat's picture.

The HTML is parsed (html.parser) rather than matched as text, so the checks say
where each card face sits: in which seat's row, on the table, under the talon.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest

from durak_core import Card, Game, Rules, Suit
from durak_core.render import back_html, card_html, cards_html, table_html

from .helpers import new_game, play


@dataclass
class Face:
    """One card element: its classes, its card code (None for a back) and its place."""

    classes: set[str]
    code: str | None
    seat: int | None  # the seat row it lies in, None elsewhere
    area: str  # "seat", "table", "talon" or "row"


@dataclass
class Picture:
    faces: list[Face] = field(default_factory=list)
    pairs: list[set[str]] = field(default_factory=list)
    seats: dict[int, set[str]] = field(default_factory=dict)
    status: str = ""
    text: str = ""

    def codes(self, area: str, seat: int | None = None) -> list[str]:
        return [
            f.code
            for f in self.faces
            if f.area == area and f.code is not None and (seat is None or f.seat == seat)
        ]

    def backs(self, area: str, seat: int | None = None) -> int:
        return sum(
            1
            for f in self.faces
            if f.area == area and f.code is None and (seat is None or f.seat == seat)
        )


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.picture = Picture()
        self._stack: list[tuple[str, set[str], dict[str, str | None]]] = []
        self._in_status = False

    def _inside(self, cls: str) -> dict[str, str | None] | None:
        for _, classes, attrs in reversed(self._stack):
            if cls in classes:
                return attrs
        return None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        classes = set((named.get("class") or "").split())
        self._stack.append((tag, classes, named))
        if "durak-pair" in classes:
            self.picture.pairs.append(classes)
        if "durak-seat" in classes:
            self.picture.seats[int(named["data-seat"] or "-1")] = classes
        if "durak-status" in classes:
            self._in_status = True
        if "durak-card" in classes:
            seat_attrs = self._inside("durak-seat")
            if seat_attrs is not None:
                area, seat = "seat", int(seat_attrs["data-seat"] or "-1")
            elif self._inside("durak-table") is not None:
                area, seat = "table", None
            elif self._inside("durak-talon") is not None:
                area, seat = "talon", None
            else:
                area, seat = "row", None
            self.picture.faces.append(Face(classes, named.get("data-card"), seat, area))

    def handle_endtag(self, tag: str) -> None:
        while self._stack:
            open_tag, classes, _ = self._stack.pop()
            if "durak-status" in classes:
                self._in_status = False
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._stack and self._stack[-1][0] == "style":
            return
        self.picture.text += data
        if self._in_status:
            self.picture.status += data


def read(html: str) -> Picture:
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.picture


def codes(cards: list[Card]) -> list[str]:
    return [c.code for c in cards]


HANDS = ["6h 7s 8s 9s 10s Js", "7c 7h 6c 8c 9c 10c", "7d Qs Ks Qd Kd Ad"]


def test_a_card_face_names_its_card_colour_and_trump() -> None:
    ten = read(card_html(Card.parse("10h"), trump=Suit.HEARTS)).faces[0]
    assert ten.code == "10H"
    assert {"durak-card", "durak-red", "durak-trump"} <= ten.classes
    spade = read(card_html(Card.parse("As"), trump=Suit.HEARTS)).faces[0]
    assert spade.code == "AS"
    assert "durak-black" in spade.classes and "durak-trump" not in spade.classes
    assert "durak-trump" not in read(card_html(Card.parse("10h"))).faces[0].classes


def test_a_card_back_names_no_card() -> None:
    back = read(back_html()).faces[0]
    assert back.code is None and "durak-back" in back.classes


def test_a_row_of_cards_keeps_their_order() -> None:
    hand = [Card.parse(t) for t in ("9s", "Ah", "6d")]
    picture = read(cards_html(hand, trump=Suit.DIAMONDS))
    assert picture.codes("row") == ["9S", "AH", "6D"]
    assert [("durak-trump" in f.classes) for f in picture.faces] == [False, False, True]
    assert "no cards" in read(cards_html([])).text


def test_the_full_game_shows_every_hand_and_only_the_trump_of_the_talon() -> None:
    game = Game.new(Rules(players=3), seed=7)
    picture = read(table_html(game))
    for seat in range(3):
        assert picture.codes("seat", seat) == codes(game.hand(seat))
        assert picture.backs("seat", seat) == 0
    assert picture.codes("talon") == [game.trump_card.code]
    assert picture.backs("talon") == 1
    assert picture.codes("table") == []
    assert f"talon: {game.talon_size} cards" in picture.text
    assert "discard: 0 cards" in picture.text
    assert "durak-attacker" in picture.seats[game.attacker]
    assert "durak-defender" in picture.seats[game.defender]
    assert picture.status.startswith(f"Player {game.attacker} leads against player {game.defender}")


def test_defence_cards_lie_over_the_attack_cards_they_beat() -> None:
    game = new_game(Rules(players=3), HANDS, "Ah")
    play(game, "0 attack 7s", "1 defend 7s with 7h", "2 attack 7d")
    picture = read(table_html(game))
    assert picture.codes("table") == ["7S", "7H", "7D"]
    roles = {f.code: f.classes for f in picture.faces if f.area == "table"}
    assert "durak-attack" in roles["7S"] and "durak-attack" in roles["7D"]
    assert {"durak-defence", "durak-trump"} <= roles["7H"]
    assert picture.pairs == [{"durak-pair"}, {"durak-pair", "durak-unbeaten"}]
    assert "7S" not in picture.codes("seat") and "7H" not in picture.codes("seat", 1)


def test_repr_html_is_the_full_picture() -> None:
    game = Game.new(Rules(), seed=3)
    assert game._repr_html_() == table_html(game)


def test_rendering_is_deterministic_and_changes_nothing() -> None:
    game = Game.new(Rules(players=4), seed=11)
    before = game.state_hash()
    assert table_html(game) == table_html(game.copy())
    assert table_html(game, seat=2) == table_html(game.view(2))
    assert game.state_hash() == before


def test_a_seat_picture_shows_backs_for_the_other_hands() -> None:
    game = Game.new(Rules(players=3), seed=7)
    picture = read(table_html(game, seat=1))
    assert picture.codes("seat", 1) == codes(game.hand(1))
    for other in (0, 2):
        assert picture.codes("seat", other) == []
        assert picture.backs("seat", other) == game.hand_size(other)
    assert "durak-you" in picture.seats[1]


def test_picked_up_cards_are_shown_face_up_to_everybody() -> None:
    game = new_game(Rules(players=3), HANDS, "Ah")
    play(game, "0 attack 7s", "1 take", "0 pass", "2 pass")
    assert Card.parse("7s") in game.known_cards(1)
    picture = read(table_html(game, seat=0))
    assert "7S" in picture.codes("seat", 1)
    assert picture.backs("seat", 1) == game.hand_size(1) - len(game.known_cards(1))


def test_a_view_is_drawn_from_its_own_seat_only() -> None:
    view = Game.new(Rules(players=3), seed=7).view(2)
    assert table_html(view) == table_html(view, seat=2)
    with pytest.raises(ValueError, match="seen from seat 2"):
        table_html(view, seat=0)
    with pytest.raises(ValueError, match="no seat 3"):
        table_html(Game.new(Rules(players=3), seed=7), seat=3)


def _hidden_from(game: Game, seat: int) -> set[Card]:
    """Cards ``seat`` may not see: others' unpublished cards and the talon but its bottom."""
    view = game.view(seat)
    return set(view.unseen)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_hidden_card_leaks_into_a_seat_picture(seed: int) -> None:
    """Through whole random games, every seat's picture names only cards it may see."""
    rules = Rules(players=3, variant="perevodnoy")
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over:
        for seat in game.active_players:
            hidden = _hidden_from(game, seat)
            checked += len(hidden)
            html = table_html(game, seat=seat)
            shown = set(re.findall(r'data-card="([^"]*)"', html))
            assert not shown & {c.code for c in hidden}
            assert not any(f'title="{c}' in html for c in hidden)
        game.apply(rng.choice(game.legal_actions()))
    assert checked > 0
    assert "Game over" in read(table_html(game)).status


def test_the_status_says_who_must_beat_and_who_may_act() -> None:
    game = new_game(Rules(players=3), HANDS, "Ah")
    play(game, "0 attack 7s")
    picture = read(table_html(game))
    assert picture.status == (
        "Player 0 attacks player 1 (1 attack card of at most 5): 1 to beat or take. "
        "May act now: players 1, 2."
    )
    # Seat 2 holds 7♦ to throw in; seat 0 has no other seven and must wait.
    assert "durak-to-act" in picture.seats[2] and "durak-to-act" not in picture.seats[0]
    assert picture.pairs == [{"durak-pair", "durak-unbeaten"}]


def test_the_status_of_a_finished_game_names_the_durak() -> None:
    game = Game.new(Rules(), seed=5)
    rng = random.Random(5)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    status = read(table_html(game)).status
    if game.durak is None:
        assert status.startswith("Game over: a draw")
    else:
        assert status == f"Game over: player {game.durak} is the durak."


def test_a_taking_defender_is_marked() -> None:
    game = new_game(Rules(players=3), HANDS, "Ah")
    play(game, "0 attack 7s", "1 take")
    picture = read(table_html(game))
    assert picture.status.startswith("Player 1 takes (1 attack card of at most 5)")
    assert "Player 1 · defender (takes)" in picture.text
