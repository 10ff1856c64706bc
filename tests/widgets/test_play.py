"""Playing through the widgets without a browser: clicks in, table out."""

from __future__ import annotations

import html
import random

import ipywidgets as widgets
import pytest

from durak_core import Card, Defend, Rules, Transfer, new_deck
from durak_widgets import Handoff, TableController, play
from durak_widgets.controller import card_face
from durak_widgets.view import HAND_SLOTS, SeatModel, TableModel, TableView

from .widget_driver import (
    check_table_matches_game,
    classes,
    click_one_move,
    game_of,
    play_to_the_end,
    shown,
)
from .widget_helpers import ScriptedBot, deal, sync_table


def hand_button(table: TableController, text: str) -> widgets.Button:
    for button in table.view.visible_hand():
        if button.description == text:
            return button
    raise AssertionError(f"{text} is not shown in the hand")


def attack_button(table: TableController, text: str) -> widgets.Button:
    for attack, _ in table.view.visible_pairs():
        if attack.description == text:
            return attack
    raise AssertionError(f"{text} is not an attack card on the table")


def status_text(table: TableController) -> str:
    return html.unescape(table.view.status.value)


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy"])
@pytest.mark.parametrize("players", [2, 4])
def test_whole_game_by_clicks_against_random_bots(
    players: int, variant: str, tables: list[TableController]
) -> None:
    rules = Rules(players=players, variant=variant)
    table = play(
        opponents=["random"] * (players - 1),
        rules=rules,
        seed=players * 10 + len(variant),
        delay=0,
        handoff=Handoff(mode="sync"),
    )
    tables.append(table)
    moves = play_to_the_end(table, random.Random(players))
    game = game_of(table)
    assert moves > 3
    assert game.is_over
    banner = html.unescape(table.view.banner_text.value)
    if game.durak is None:
        assert "draw" in banner
    else:
        assert table.backend.names[game.durak] in banner or "You are the durak" in banner
    assert shown(table.view.new_game)
    assert "Game over" in status_text(table)
    assert table.view.log.value.count("<li>") > 0


def test_hand_is_sorted_by_suit_trumps_last_then_rank(tables: list[TableController]) -> None:
    rules = Rules()
    game = deal(
        [["A♣", "6♥", "K♠", "7♣", "Q♥", "9♦"], ["6♣", "7♦", "8♠", "9♠", "10♠", "J♠"]],
        trump="K♥",
        rules=rules,
    )
    table = sync_table(rules, {1: ScriptedBot(["1 attack 7♦"])}, first_game=game)
    tables.append(table)
    # Suits in display order ♠ ♦ ♣, trumps (♥) last, each by rank.
    assert [b.description for b in table.view.visible_hand()] == [
        "K♠",
        "9♦",
        "7♣",
        "A♣",
        "6♥",
        "Q♥",
    ]
    trump_marks = [("durak-trump" in classes(b)) for b in table.view.visible_hand()]
    assert trump_marks == [False, False, False, False, True, True]
    reds = [("durak-red" in classes(b)) for b in table.view.visible_hand()]
    assert reds == [False, True, False, False, True, True]


def scenario_podkidnoy(tables: list[TableController]) -> TableController:
    """The bot (lowest trump 6♣) leads 7♦ 7♥; seat 0 holds Q♣ (beats both) and 9♥."""
    rules = Rules()
    game = deal(
        [["9♥", "J♦", "Q♣", "6♥", "A♠", "8♠"], ["6♣", "7♥", "7♦", "8♦", "9♠", "10♠"]],
        trump="K♣",
        rules=rules,
    )
    table = sync_table(rules, {1: ScriptedBot(["1 attack 7♦ 7♥", "1 pass"])}, first_game=game)
    tables.append(table)
    return table


def test_dimmed_card_click_explains_with_the_cores_reason_and_changes_nothing(
    tables: list[TableController],
) -> None:
    table = scenario_podkidnoy(tables)
    game = game_of(table)
    assert [(a.description, d) for a, d in table.view.visible_pairs()] == [
        ("7♦", None),
        ("7♥", None),
    ]
    six = hand_button(table, "6♥")
    assert "durak-dimmed" in classes(six)
    before = game.state_hash()
    six.click()
    expected = game.why_illegal(Defend(0, Card.parse("7♦"), Card.parse("6♥")))
    assert expected
    assert expected in status_text(table)
    assert game.state_hash() == before
    assert "durak-dimmed" in classes(hand_button(table, "6♥"))


def test_hidden_buttons_refuse_and_explain(tables: list[TableController]) -> None:
    table = scenario_podkidnoy(tables)
    game = game_of(table)
    assert set(table.view.visible_buttons()) == {"take"}  # defending: Take only
    before = game.state_hash()
    table.view.buttons["pass"].click()  # hidden: not legal for the defender
    assert "The defender cannot pass" in status_text(table)
    table.view.buttons["transfer"].click()
    assert "Transfers belong to perevodnoy" in status_text(table)
    table.view.new_game.click()
    assert "Finish this game first" in status_text(table)
    assert game.state_hash() == before


def test_defend_select_then_target_cancel_and_automatic_target(
    tables: list[TableController],
) -> None:
    table = scenario_podkidnoy(tables)
    game = game_of(table)
    before = game.state_hash()

    hand_button(table, "Q♣").click()  # beats both attack cards: wait for a target
    assert table.selected == Card.parse("Q♣")
    assert "durak-selected" in classes(hand_button(table, "Q♣"))
    assert all("durak-target" in classes(a) for a, _ in table.view.visible_pairs())
    assert game.state_hash() == before

    hand_button(table, "Q♣").click()  # again: cancel
    assert table.selected is None
    assert not any("durak-target" in classes(a) for a, _ in table.view.visible_pairs())
    assert game.state_hash() == before

    attack_button(table, "7♦").click()  # a target without a card: explained
    assert "Pick a card from your hand first" in status_text(table)

    hand_button(table, "Q♣").click()
    attack_button(table, "7♦").click()
    assert game.table[0] == (Card.parse("7♦"), Card.parse("Q♣"))

    hand_button(table, "9♥").click()  # fits 7♥ only: played at once
    # The bot passed, so the bout is over and seat 0 leads next.
    assert not game.table
    assert game.attacker == 0
    assert game.discard_size == 4
    check_table_matches_game(table)
    assert "Your lead" in status_text(table)
    log = html.unescape(table.view.log.value)
    assert "you beat 7♦ with Q♣" in log and "you beat 7♥ with 9♥" in log


def test_transfer_by_selecting_a_card_then_transfer(tables: list[TableController]) -> None:
    rules = Rules(variant="perevodnoy")
    game = deal(
        [["7♠", "7♥", "8♦", "9♣", "10♣", "J♣"], ["6♥", "7♦", "8♠", "9♠", "10♠", "J♠"]],
        trump="A♥",
        rules=rules,
    )
    table = sync_table(
        rules, {1: ScriptedBot(["1 attack 7♦", "1 take", "1 pass"])}, first_game=game
    )
    tables.append(table)
    game = game_of(table)
    assert set(table.view.visible_buttons()) == {"take", "transfer"}
    assert "transfer" in status_text(table)
    before = game.state_hash()

    table.view.buttons["transfer"].click()  # two cards could transfer: which?
    assert "Select the card to transfer with (a 7)" in status_text(table)
    assert game.state_hash() == before

    hand_button(table, "7♥").click()  # beats 7♦ and could transfer: wait, don't guess
    assert table.selected == Card.parse("7♥")
    assert game.state_hash() == before
    hand_button(table, "7♥").click()
    assert table.selected is None

    hand_button(table, "8♦").click()  # beats 7♦ and cannot transfer: played at once
    assert Defend(0, Card.parse("7♦"), Card.parse("8♦")) in game.log
    # The bot passes instead of throwing in its 8♠: the bout is beaten, seat 0 leads.
    assert game.discard_size == 2
    assert game.attacker == 0


def test_transfer_button_with_the_selected_card(tables: list[TableController]) -> None:
    rules = Rules(variant="perevodnoy")
    game = deal(
        [["7♠", "7♥", "8♦", "9♣", "10♣", "J♣"], ["6♥", "7♦", "8♠", "9♠", "10♠", "J♠"]],
        trump="A♥",
        rules=rules,
    )
    table = sync_table(rules, {1: ScriptedBot(["1 attack 7♦", "1 take"])}, first_game=game)
    tables.append(table)
    game = game_of(table)
    hand_button(table, "9♣").click()
    assert table.selected is None  # cannot beat or transfer: explained instead
    assert game.why_illegal(Defend(0, Card.parse("7♦"), Card.parse("9♣"))) in status_text(table)

    hand_button(table, "7♠").click()  # transfer only: selected, Transfer completes it
    assert table.selected == Card.parse("7♠")
    table.view.buttons["transfer"].click()
    assert Transfer(0, Card.parse("7♠")) in game.log
    # The bot takes; seat 0 may still throw in its 7♥, or pass.
    assert game.taking and game.defender == 1
    assert "takes" in status_text(table)
    assert table.view.visible_buttons()["pass"].description == "Pass"
    check_table_matches_game(table)
    table.view.buttons["pass"].click()
    assert sorted(game.known_cards(1)) == sorted([Card.parse("7♦"), Card.parse("7♠")])
    check_table_matches_game(table)


def test_hot_seat_hides_each_hand_between_turns(tables: list[TableController]) -> None:
    table = play(hot_seat=2, seed=5, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    assert table.backend.names == ("Player 1", "Player 2")
    game = game_of(table)
    rng = random.Random(5)
    switches = 0
    last_viewer = table.viewer
    while not game.is_over:
        if table.viewer != last_viewer:
            switches += 1
            last_viewer = table.viewer
        if not table.revealed:
            assert not shown(table.view.hand)
            assert shown(table.view.reveal)
            assert table.backend.names[table.viewer] in table.view.reveal.description
            assert_no_private_card_visible(table)
            table.view.reveal.click()
        assert shown(table.view.hand)
        check_table_matches_game(table)
        click_one_move(table, rng)
    assert switches >= 4


def visible_texts(table: TableController) -> list[str]:
    """Every text the page shows outside the (hidden) hand."""
    view = table.view
    texts = [view.status.value, view.me.value, view.log.value, view.talon.value]
    texts += [box.value for box in view.opponent_boxes]
    for attack, defence in view.visible_pairs():
        texts.append(attack.description)
        if defence is not None:
            texts.append(defence.description)
    return [html.unescape(t) for t in texts]


def assert_no_private_card_visible(table: TableController) -> None:
    game = game_of(table)
    text = " ".join(visible_texts(table))
    for seat in range(game.players):
        public = set(game.known_cards(seat)) | {game.trump_card}
        for card in game.hand(seat):
            if card not in public:
                assert str(card) not in text, f"seat {seat}'s {card} is visible"


def test_new_game_keeps_the_match_score(tables: list[TableController]) -> None:
    table = play(opponents=["random"], seed=11, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    rng = random.Random(3)
    play_to_the_end(table, rng)
    first = game_of(table)
    backend = table.backend
    assert backend.match.games_played == 1
    assert "games 1" in table.view.score.value
    table.view.new_game.click()
    assert not shown(table.view.banner)
    second = game_of(table)
    assert second is not first and not second.is_over
    assert "new game" in table.view.log.value
    play_to_the_end(table, rng)
    score = backend.score()
    assert score.games == 2
    assert sum(score.durak_counts) + score.draws == 2
    for seat, count in enumerate(score.durak_counts):
        assert f"{backend.names[seat]} {count}" in table.view.score.value


def test_widgets_are_updated_in_place_not_rebuilt(tables: list[TableController]) -> None:
    table = play(opponents=["random"], seed=2, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    view = table.view
    children = {name: getattr(view, name).children for name in ("root", "hand", "table")}
    created: list[widgets.Widget] = []
    widgets.Widget.on_widget_constructed(created.append)
    try:
        play_to_the_end(table, random.Random(2))
    finally:
        widgets.Widget._widget_construction_callback = None
    if len(game_of(table).hand(0)) <= len(view.hand_cards):
        assert [w for w in created if not isinstance(w, widgets.Layout)] == []
    for name, before in children.items():
        if name == "hand" and len(view.hand_cards) > len(before):
            continue  # the pool grew once: the only allowed change of children
        assert getattr(view, name).children is before


def test_the_hand_pool_grows_for_a_big_hand() -> None:
    view = TableView(players=2)
    faces = tuple(card_face(str(c), "♥", "dimmed") for c in new_deck(52)[: HAND_SLOTS + 7])
    me = SeatModel(seat=0, name="You", count=len(faces))
    model = TableModel(
        opponents=(SeatModel(seat=1, name="bot", count=3),),
        me=me,
        hand=faces,
        hand_hidden=False,
        reveal_label="",
        pairs=(),
        trump=card_face("A♥", "♥"),
        talon=0,
        discard=10,
    )
    view.render(model)
    assert len(view.visible_hand()) == HAND_SLOTS + 7
    assert [b.description for b in view.visible_hand()] == [f.text for f in faces]
    view.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"opponents": ["random"] * 6},
            "1 person and 6 bots make 7 players; a table seats 2 to 6",
        ),
        ({"opponents": []}, "1 person and 0 bots make 1 player; a table seats 2 to 6"),
        (
            {"hot_seat": 2, "opponents": ["random"] * 5},
            "2 people and 5 bots make 7 players; a table seats 2 to 6",
        ),
        (
            {"hot_seat": 3, "rules": Rules(players=2)},
            "3 people at the screen but the rules are for 2 players",
        ),
        (
            {"opponents": [], "rules": Rules(players=2)},
            "the rules are for 2 players, but there is 1 person and 0 bots",
        ),
        (
            {"opponents": ["random", "random"], "rules": Rules(players=2)},
            "the rules are for 2 players, but there are 1 person and 2 bots",
        ),
    ],
)
def test_a_table_that_does_not_add_up_says_so_in_plain_english(kwargs, message):
    with pytest.raises(ValueError) as info:
        play(handoff=Handoff(mode="sync"), **kwargs)
    assert str(info.value) == message
