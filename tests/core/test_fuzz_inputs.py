"""Fuzzing the entry points a person types into: only the documented errors, each a sentence.

``Card.parse``, ``parse_action`` and ``Game.from_json`` raise ``ValueError`` for any text
they cannot read; ``Rules(**options)`` raises ``ValueError`` for a bad value of a known
option (and, as every Python function does, ``TypeError`` for an unknown keyword).
Whatever hypothesis makes up, nothing else may come out (no ``KeyError``,
``AttributeError``, ``IndexError``...), and every message is one non-empty line.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from durak_core import Card, Game, Rules, parse_action

from .helpers import examples

#: Characters that make near-misses likelier than plain random text does.
_NEAR = "0123456789 AKQJTakqjtSCDHscdh♠♣♦♥♤♧♢♡wWitherpnsfoackdlv\t\n²٣-+.,"
TEXT = st.one_of(st.text(), st.text(alphabet=_NEAR, max_size=30))


def _one_line(exc: BaseException) -> None:
    message = str(exc)
    assert message.strip(), f"{type(exc).__name__} without a message"
    assert "\n" not in message, f"a message of several lines: {message!r}"


@given(TEXT)
@example("10h")
@example("1h")
@example("")
@example("♥10")
def test_card_parse_reads_a_card_or_says_why_not(text: str) -> None:
    try:
        card = Card.parse(text)
    except ValueError as exc:
        _one_line(exc)
        assert text.strip() in str(exc) or repr(text) in str(exc)
    else:
        assert Card.parse(str(card)) is card


_VERBS = st.sampled_from(["attack", "defend", "transfer", "show", "take", "pass", "with", "x"])
_CARD_TEXT = st.sampled_from(["7s", "7♠", "10h", "Th", "as", "1h", "zz", "9S", "2c"])
ACTION_TEXT = st.one_of(
    TEXT,
    st.lists(st.one_of(st.integers(-3, 12).map(str), _VERBS, _CARD_TEXT), max_size=6).map(
        " ".join
    ),
)


@given(ACTION_TEXT)
@example("1 defend 7s with 9s")
@example("0 attack 7s 7s")
@example("² take")
@example("99999999999999999999999 pass")
def test_parse_action_reads_an_action_or_says_why_not(text: str) -> None:
    try:
        action = parse_action(text)
    except ValueError as exc:
        _one_line(exc)
        assert str(exc).startswith("not an action: ")
    else:
        assert parse_action(str(action)) == action


_OPTION_NAMES = [f.name for f in fields(Rules)]
JSONISH = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-10, 100),
        st.floats(allow_nan=True),
        st.text(max_size=12),
        st.sampled_from(["podkidnoy", "perevodnoy", "all", "neighbours"]),
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)


@given(st.dictionaries(st.sampled_from(_OPTION_NAMES), JSONISH, max_size=5))
@example({"players": True})
@example({"deck_size": 36.0})
@example({"teams": "yes", "players": 4})
@example({"variant": [], "transfer_by_showing_trump": 1})
def test_rules_of_known_options_are_valid_or_a_value_error(options: dict[str, Any]) -> None:
    try:
        rules = Rules(**options)
    except ValueError as exc:
        _one_line(exc)
    else:
        assert Rules.from_dict(rules.to_dict()) == rules
        Game.new(rules, seed=1)  # valid rules always deal


@given(st.dictionaries(st.text(max_size=8), JSONISH, min_size=1, max_size=3))
@example({"self": None})
def test_unknown_rule_options_are_a_type_error_or_from_dict_value_error(
    options: dict[str, Any],
) -> None:
    unknown = set(options) - set(_OPTION_NAMES)
    try:
        Rules(**options)
    except TypeError as exc:
        assert unknown
        # Python's own sentence ("self" is the one name Rules takes twice).
        assert ("unexpected keyword argument" in str(exc)
                or "multiple values for argument 'self'" in str(exc))
    except ValueError as exc:
        _one_line(exc)
    try:
        Rules.from_dict(options)
    except ValueError as exc:
        _one_line(exc)


_SAVED = json.loads(Game.new(Rules(players=3), seed=4).to_json())


def _mutated(change: dict[str, Any], drop: list[str]) -> str:
    data = dict(_SAVED)
    data.update(change)
    for key in drop:
        data.pop(key, None)
    return json.dumps(data)


SAVE_TEXT = st.one_of(
    TEXT,
    JSONISH.map(json.dumps),
    st.builds(
        _mutated,
        st.dictionaries(
            st.sampled_from([*_SAVED, "extra"]),
            st.one_of(
                JSONISH,
                st.lists(st.sampled_from(_SAVED["deck"]), max_size=40),
                st.lists(ACTION_TEXT, max_size=3),
            ),
            max_size=3,
        ),
        st.lists(st.sampled_from(list(_SAVED)), max_size=2),
    ),
)


@settings(max_examples=examples(300))
@given(SAVE_TEXT)
@example("not json")
@example("{}")
@example('{"format": "durak-game", "version": 1}')
def test_from_json_loads_a_game_or_raises_a_value_error(text: str) -> None:
    try:
        game = Game.from_json(text)
    except ValueError as exc:
        _one_line(exc)
    else:
        assert Game.from_json(game.to_json()).state_hash() == game.state_hash()
