"""What a newcomer types wrong gets one clear sentence, never a stray traceback.

Each test is one mistake a person makes at the notebook prompt: a seat that is not at
the table, a save file that is not JSON, a card written as text where the engine wants
a Card, an action given as text to ``apply``.
"""

from __future__ import annotations

import json

import pytest

from durak_core import Attack, Card, Defend, Game, IllegalAction, Rules, Transfer, parse_action

C = Card.parse


@pytest.mark.parametrize("seat", [9, -1, 4])
def test_observation_and_view_check_the_seat_as_legal_actions_does(seat: int) -> None:
    game = Game.new(Rules(players=4), seed=3)
    message = f"no seat {seat} in a 4-player game"
    with pytest.raises(ValueError, match=message):
        game.legal_actions(seat)
    with pytest.raises(ValueError, match=message):
        game.observation(seat)
    with pytest.raises(ValueError, match=message):
        game.view(seat)
    with pytest.raises(ValueError, match=message):
        game.hand(seat)


@pytest.mark.parametrize(
    ("text", "detail"),
    [
        ("not json", "not JSON: Expecting value at line 1, column 1"),
        ("{", "not JSON: Expecting property name"),
        ("", "not JSON: Expecting value"),
        ("{}", ""),
        ("[1, 2]", ""),
        ('{"format": "chess"}', ""),
    ],
)
def test_from_json_says_not_a_saved_game_for_anything_that_is_not_one(
    text: str, detail: str
) -> None:
    with pytest.raises(ValueError, match=r"^not a saved durak game") as info:
        Game.from_json(text)
    assert detail in str(info.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rules": None}, "'rules' must be an object"),
        ({"rules": {"players": 9}}, "players must be 2 to 6, not 9"),
        ({"deck": "7s 8s"}, "'deck' must be a list of strings"),
        ({"deck": [1, 2]}, "'deck' must be a list of strings"),
        ({"log": [None]}, "'log' must be a list of strings"),
        ({"previous_durak": "0"}, "'previous_durak' must be a seat"),
        ({"log": ["0 dance"]}, "unknown verb"),
    ],
)
def test_a_damaged_save_file_names_what_is_wrong(change: dict[str, object], message: str) -> None:
    data = json.loads(Game.new(Rules(), seed=2).to_json())
    data.update(change)
    with pytest.raises(ValueError, match=message):
        Game.from_json(json.dumps(data))
    for key in ("rules", "deck", "log"):
        partial = json.loads(Game.new(Rules(), seed=2).to_json())
        del partial[key]
        with pytest.raises(ValueError, match=f"'{key}' must be"):
            Game.from_json(json.dumps(partial))


@pytest.mark.parametrize(
    ("make", "kind", "text"),
    [
        (lambda: Attack(0, "7s"), "Attack", "7s"),  # type: ignore[arg-type]
        (lambda: Defend(1, "7s", C("9s")), "Defend", "7s"),  # type: ignore[arg-type]
        (lambda: Defend(1, C("7s"), "9s"), "Defend", "9s"),  # type: ignore[arg-type]
        (lambda: Transfer(1, "7d"), "Transfer", "7d"),  # type: ignore[arg-type]
        (lambda: Attack(0, C("7s"), ("7h",)), "Attack", "7h"),  # type: ignore[arg-type]
    ],
)
def test_a_card_given_as_text_is_refused_at_construction_naming_card_parse(
    make: object, kind: str, text: str
) -> None:
    with pytest.raises(TypeError) as info:
        make()  # type: ignore[operator]
    message = str(info.value)
    assert message.startswith(f"{kind} wants a Card, not the text {text!r}")
    assert f"Card.parse({text!r})" in message and "parse_action(" in message


def test_other_non_cards_are_refused_too() -> None:
    with pytest.raises(TypeError, match="Attack wants a Card, not 7 "):
        Attack(0, 7)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="more wants a tuple of Cards, not '7h'"):
        Attack(0, C("7s"), "7h")  # type: ignore[arg-type]


def test_apply_of_text_says_to_use_parse_action_and_changes_nothing() -> None:
    game = Game.new(Rules(), seed=7)
    before = game.state_hash()
    with pytest.raises(IllegalAction) as info:
        game.apply("1 attack 9c")  # type: ignore[arg-type]
    assert info.value.reason == (
        "'1 attack 9c' is text, not an action: read it with parse_action('1 attack 9c') first."
    )
    assert game.state_hash() == before
    game.apply(parse_action("1 attack 9c"))  # what the sentence says works
    assert game.table == [(C("9c"), None)]


def test_rules_refuse_a_bool_where_a_number_belongs() -> None:
    with pytest.raises(ValueError, match="first_bout_limit must be None or 1 to 6, not True"):
        Rules(first_bout_limit=True)
    with pytest.raises(ValueError, match="bout_limit must be a positive number, not True"):
        Rules(bout_limit=True)
    with pytest.raises(ValueError, match=r"deck_size must be 24, 36 or 52, not 36\.0"):
        Rules(deck_size=36.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rule options must be a dict, not list"):
        Rules.from_dict([])  # type: ignore[arg-type]


def test_parse_action_wants_an_ascii_seat_number() -> None:
    # "²".isdigit() is True but int("²") fails: the sentence must still be the usual one.
    with pytest.raises(ValueError, match="write the seat, then a verb"):
        parse_action("² take")
