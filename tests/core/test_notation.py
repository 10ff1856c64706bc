"""Text forms of actions and cards, rule validation, events as dicts, save-file errors."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from durak_core import (
    Action,
    Attack,
    Attacked,
    Card,
    Defend,
    Defended,
    Discarded,
    Drew,
    Event,
    Game,
    GameOver,
    IllegalAction,
    Left,
    NewBout,
    Pass,
    Passed,
    PickedUp,
    Rules,
    Take,
    TakeDeclared,
    Transfer,
    Transferred,
    event_to_dict,
    parse_action,
)

from .helpers import ALL_RULES, cards

C = Card.parse

EVERY_KIND: list[tuple[Action, str]] = [
    (Attack(0, C("7s")), "0 attack 7♠"),
    (Attack(0, C("7s"), (C("7h"),)), "0 attack 7♠ 7♥"),
    (Attack(3, C("10d"), (C("10s"), C("10c"))), "3 attack 10♠ 10♣ 10♦"),
    (Defend(1, C("7s"), C("9s")), "1 defend 7♠ with 9♠"),
    (Transfer(1, C("7d")), "1 transfer 7♦"),
    (Transfer(2, C("7h"), show=True), "2 show 7♥"),
    (Take(1), "1 take"),
    (Pass(5), "5 pass"),
]


@pytest.mark.parametrize(("action", "text"), EVERY_KIND, ids=[t for _, t in EVERY_KIND])
def test_action_text_round_trips_for_every_kind(action: Action, text: str) -> None:
    assert str(action) == text
    assert parse_action(text) == action
    assert parse_action(str(parse_action(text))) == action


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("1 DEFEND 7s WITH 9S", "1 defend 7♠ with 9♠"),
        ("  0   attack   10h  ", "0 attack 10♥"),
        ("0 attack Th", "0 attack 10♥"),
        ("0 Attack 7h 7c", "0 attack 7♣ 7♥"),
        ("0 attack 7c 7h", "0 attack 7♣ 7♥"),
        ("1 Show 7H", "1 show 7♥"),
        ("1 transfer qd", "1 transfer Q♦"),
        ("2 TAKE", "2 take"),
        ("4 Pass", "4 pass"),
    ],
)
def test_forgiving_input_gives_canonical_text(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical


def test_multi_card_lead_is_one_action_whatever_the_order() -> None:
    a = Attack(0, C("9h"), (C("9s"), C("9d")))
    b = Attack(0, C("9d"), (C("9h"), C("9s")))
    assert a == b and hash(a) == hash(b)
    assert a.cards == tuple(cards("9s 9d 9h"))


def test_a_card_cannot_be_led_twice() -> None:
    with pytest.raises(ValueError, match="a card cannot be led twice in one attack"):
        Attack(0, C("9h"), (C("9h"),))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("attack 7s", "write the seat, then a verb"),
        ("0", "write the seat, then a verb"),
        ("", "write the seat, then a verb"),
        ("0 attack", "attack needs a card"),
        ("0 attack 1h", "not a card: '1h'"),
        ("1 defend 7s 9s", "write e.g. '1 defend 7♠ with 9♠'"),
        ("1 defend 7s by 9s", "write e.g. '1 defend 7♠ with 9♠'"),
        ("1 transfer", "transfer needs one card"),
        ("1 show 7h 7d", "show needs one card"),
        ("1 take 7s", "take takes no cards"),
        ("0 pass now", "pass takes no cards"),
        ("0 jump", "unknown verb 'jump'"),
        ("0 attack 9h 9h", "a card cannot be led twice"),
    ],
)
def test_parse_action_errors_say_what_to_write(text: str, message: str) -> None:
    with pytest.raises(ValueError, match="not an action") as info:
        parse_action(text)
    assert message in str(info.value)


def test_every_legal_action_of_random_games_round_trips() -> None:
    rng = random.Random(5)
    for i, rules in enumerate(ALL_RULES[::37]):
        game = Game.new(rules, seed=i)
        for _ in range(60):
            if game.is_over:
                break
            legal = game.legal_actions()
            for action in legal:
                assert parse_action(str(action)) == action
            game.apply(rng.choice(legal))


@pytest.mark.parametrize("text", ["1h", "", "10", "Zs", "10x", "♥10", "11s", "A", "AAs"])
def test_card_parse_errors(text: str) -> None:
    with pytest.raises(ValueError, match="not a card") as info:
        Card.parse(text)
    assert "write rank then suit, e.g. 10♥, 10h, AS" in str(info.value)


def test_card_constructor_checks_and_cards_are_immutable() -> None:
    with pytest.raises(ValueError, match="no such card"):
        Card(1, 0)
    with pytest.raises(ValueError, match="no such card"):
        Card(10, 4)
    assert Card(10, 3) is C("10h")
    with pytest.raises(AttributeError, match="immutable"):
        setattr(C("10h"), "rank", 11)  # noqa: B010


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 1}, "players must be 2 to 6, not 1"),
        ({"players": "2"}, "players must be 2 to 6, not '2'"),
        ({"deck_size": 32}, "deck_size must be 24, 36 or 52, not 32"),
        ({"players": 6, "deck_size": 24}, "6 players need 36 cards for the deal"),
        ({"variant": "durak"}, "variant must be 'podkidnoy' or 'perevodnoy', not 'durak'"),
        ({"throw_in": "left"}, "throw_in must be 'all' or 'neighbours', not 'left'"),
        ({"first_bout_limit": 0}, "first_bout_limit must be None or 1 to 6, not 0"),
        ({"first_bout_limit": 7}, "first_bout_limit must be None or 1 to 6, not 7"),
        ({"transfer_by_showing_trump": True}, "transfer_by_showing_trump needs variant="),
        ({"teams": True}, "teams need 4 or 6 players, not 2"),
        ({"bout_limit": 0}, "bout_limit must be a positive number, not 0"),
        ({"open_with_several": 1}, "open_with_several must be True or False, not 1"),
        ({"match": "yes"}, "match must be True or False, not 'yes'"),
    ],
)
def test_rules_validation_messages(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as info:
        Rules(**options)
    assert message in str(info.value)


def test_rules_dict_round_trip_and_unknown_keys() -> None:
    for rules in ALL_RULES[::11]:
        data = rules.to_dict()
        assert json.loads(json.dumps(data)) == data
        assert Rules.from_dict(data) == rules
    with pytest.raises(ValueError, match="unknown rule option\\(s\\): colour, size"):
        Rules.from_dict({"players": 2, "size": 36, "colour": "red"})


EVENTS: list[tuple[Event, dict[str, Any]]] = [
    (Attacked(0, (C("7s"), C("7h"))), {"type": "attacked", "player": 0, "cards": ["7♠", "7♥"]}),
    (
        Defended(1, C("7s"), C("9s")),
        {"type": "defended", "player": 1, "attack_card": "7♠", "card": "9♠"},
    ),
    (
        Transferred(1, C("7d"), True, 2),
        {"type": "transferred", "player": 1, "card": "7♦", "shown": True, "defender": 2},
    ),
    (TakeDeclared(1), {"type": "takedeclared", "player": 1}),
    (Passed(2), {"type": "passed", "player": 2}),
    (PickedUp(1, (C("7s"), C("9s"))), {"type": "pickedup", "player": 1, "cards": ["7♠", "9♠"]}),
    (Discarded((C("7s"), C("9s"))), {"type": "discarded", "cards": ["7♠", "9♠"]}),
    (Drew(0, (C("Ah"), None)), {"type": "drew", "player": 0, "cards": ["A♥", None]}),
    (Left(2, 1), {"type": "left", "player": 2, "place": 1}),
    (NewBout(1, 2), {"type": "newbout", "attacker": 1, "defender": 2}),
    (
        GameOver(None, (), (0, 1), "everybody went out together"),
        {
            "type": "gameover",
            "durak": None,
            "losers": [],
            "finish_order": [0, 1],
            "reason": "everybody went out together",
        },
    ),
]


@pytest.mark.parametrize(("event", "expected"), EVENTS, ids=[type(e).__name__ for e, _ in EVENTS])
def test_event_to_dict(event: Event, expected: dict[str, Any]) -> None:
    data = event_to_dict(event)
    assert data == expected
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data
    assert str(event)  # every event has a log line


def test_event_log_lines() -> None:
    assert str(Drew(0, (C("Ah"), None))) == "player 0 draws 2 cards"
    assert str(Drew(0, (None,))) == "player 0 draws 1 card"
    assert str(GameOver(None, (), (0, 1), "everybody went out together")) == (
        "game over: a draw (everybody went out together)"
    )
    assert str(GameOver(1, (1, 3), (0, 2), "one team")) == "game over: team 1, 3 lose"
    assert str(GameOver(1, (1,), (0,), "last")) == "game over: player 1 is the durak"


def test_why_illegal_answers_for_anything() -> None:
    game = Game.new(Rules(), seed=7)
    assert (
        game.why_illegal("0 pass")
        == "'0 pass' is text, not an action: read it with parse_action('0 pass') first."
    )
    assert (
        game.why_illegal(42) == "42 is not an action (Attack, Defend, Transfer, Take or Pass)."
    )
    assert game.why_illegal(Pass(2)) == "There is no seat 2 at this 2-player table."
    assert game.why_illegal(Pass(True)) == "There is no seat True at this 2-player table."
    assert game.why_illegal(Attack(game.attacker, C("2s"))) == "2♠ is not in a 36-card deck."
    with pytest.raises(IllegalAction) as info:
        game.apply(Take(0))
    assert info.value.reason == "There is nothing on the table to take yet."
    assert info.value.action == Take(0)
    for bad, seat in ((Pass("x"), "'x'"), (Pass(2.0), "2.0"), (Pass(True), "True")):
        with pytest.raises(IllegalAction, match=f"There is no seat {seat} at this"):
            game.apply(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no seat 2 in a 2-player game"):
        game.legal_actions(2)


def test_game_constructor_and_save_file_errors() -> None:
    with pytest.raises(TypeError, match=r"use Game\.new"):
        Game()
    with pytest.raises(ValueError, match="not a saved durak game"):
        Game.from_json(json.dumps({"format": "chess"}))
    with pytest.raises(ValueError, match="not a saved durak game"):
        Game.from_json("[1, 2]")
    game = Game.new(Rules(), seed=2)
    data = json.loads(game.to_json())
    data["version"] = 99
    with pytest.raises(ValueError, match="unsupported saved-game version 99"):
        Game.from_json(json.dumps(data))
    deck = game.deck
    assert deck is not None
    with pytest.raises(ValueError, match="log entry 0 \\(0 take\\) is illegal"):
        Game.replay(game.rules, deck, ["0 take"])


def test_saved_game_is_rules_deck_and_log_as_text() -> None:
    game = Game.new(Rules(players=3), seed=12)
    game.apply(game.legal_actions()[0])
    data = json.loads(game.to_json())
    assert data["format"] == "durak-game" and data["version"] == 1
    assert data["rules"] == Rules(players=3).to_dict()
    assert data["deck"] == [str(c) for c in game.deck or ()]
    assert data["log"] == [str(a) for a in game.log]
    assert Game.from_json(game.to_json()).state_hash() == game.state_hash()


def test_the_rules_part_of_a_state_hash_is_made_once_and_leaves_equality_alone() -> None:
    """Game.public_hash runs on every move of a network game; the sorted options it
    hashes are kept on the Rules (options never change), without making two equal
    Rules differ or hash apart."""
    rules = Rules(players=3, variant="perevodnoy")
    assert rules.hash_items is rules.hash_items
    assert rules.hash_items == tuple(sorted(rules.to_dict().items()))
    assert rules == Rules(players=3, variant="perevodnoy")
    assert hash(rules) == hash(Rules(players=3, variant="perevodnoy"))
    game = Game.new(rules, seed=5)
    assert game.public_hash() == Game.new(Rules(players=3, variant="perevodnoy"),
                                          seed=5).public_hash()
