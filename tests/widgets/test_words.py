"""The words a player reads: the table's own words everywhere, never seat numbers or the
AI's jargon; and the game-over screen and a new game's counter."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path

from durak_core import Game, Pass, Rules, parse_action
from durak_core.bots import GreedyBot, play_game
from durak_widgets import Handoff, TableController, play, review
from durak_widgets.controller import card_face
from durak_widgets.view import _talon_html
from durak_widgets.words import BEATEN, Moment, say_action, with_names

from .widget_driver import game_of, play_to_the_end, shown
from .widget_helpers import GatedBot, ScriptedBot, deal, sync_table

REPO = Path(__file__).resolve().parents[2]
RULES = Rules()
# Seat 0 holds the lowest trump (6♣) and leads; seat 1 beats the 7♠ with the 9♠.
HANDS = [["6♣", "7♠", "7♥", "Q♦", "A♠", "8♥"], ["8♣", "9♥", "10♥", "J♥", "9♠", "10♠"]]
#: An action in the engine's text form: a seat number and a verb ("0 attack 7♠").
ENGINE_TEXT = re.compile(r"\b\d+ (attack|defend|transfer|show|take|pass)\b")


def text_of(value: str) -> str:
    """An HTML value as a person reads it (tags dropped)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", value)).split())


def beaten_position(tables: list[TableController]) -> TableController:
    """Seat 0 led 7♠, the bot beat it with 9♠: seat 0 may throw in 7♥ or say Beaten."""
    bot = ScriptedBot(["1 defend 7♠ with 9♠"])
    table = sync_table(RULES, {1: bot}, first_game=deal(HANDS, "K♣", RULES))
    tables.append(table)
    seven = next(b for b in table.view.visible_hand() if b.description == "7♠")
    seven.click()
    assert game_of(table).table == [(parse_action("0 attack 7♠").card,
                                     parse_action("1 defend 7♠ with 9♠").card)]
    return table


def test_one_function_words_a_move_as_the_buttons_and_the_status_line_do() -> None:
    lead = Moment(lead=True, attacker=0, taking=False)
    throw = Moment(lead=False, attacker=0, taking=False)
    taking = Moment(lead=False, attacker=0, taking=True)
    names = ["You", "Bob", "Cid"]
    assert say_action(parse_action("0 attack 7s"), lead) == "lead 7♠"
    assert say_action(parse_action("0 attack 7s 7h"), lead, names, 0) == "you lead 7♠ 7♥"
    assert say_action(parse_action("2 attack As"), throw, names, 0) == "Cid throws in A♠"
    assert say_action(parse_action("1 defend 9c with 10c"), throw) == "beat 9♣ with 10♣"
    assert say_action(Pass(0), throw) == f"say “{BEATEN}”"  # the main attacker's button
    assert say_action(Pass(2), throw, names, 0) == "Cid passes"  # another thrower's
    assert say_action(Pass(0), taking) == "pass"  # the defender takes: the button says Pass
    assert say_action(parse_action("1 take"), throw, names, 0) == "Bob takes"
    assert say_action(parse_action("1 transfer 7d"), lead) == "transfer with 7♦"
    assert say_action(parse_action("1 show 7h"), lead) == "show 7♥ to transfer"


def test_the_engines_seat_numbers_become_names() -> None:
    names = ["You", "Bob", "Cid"]
    assert with_names("Wait for player 1 to beat the cards.", names, 0) == (
        "Wait for Bob to beat the cards.")
    assert with_names("Player 2 is your partner.", names, 0) == "Cid is your partner."
    assert with_names("the defender's left (players 1 and 2) may", names, 0) == (
        "the defender's left (Bob and Cid) may")
    assert with_names("There is no player 7 here.", names, 0) == "There is no player 7 here."


def test_the_hint_says_beaten_and_throw_in_as_the_buttons_do(
    tables: list[TableController],
) -> None:
    table = beaten_position(tables)
    table.coach.iterations = 60
    view = table.view
    assert view.buttons["pass"].description == BEATEN and shown(view.buttons["pass"])
    assert "click Beaten" in text_of(view.status.value)
    view.hint_toggle.value = True
    hint = text_of(view.hint.value)
    assert "the AI would" in hint
    assert f"say “{BEATEN}”" in hint and "throw in 7♥" in hint
    assert "pass" not in hint.lower().replace("passes", "")
    assert "attack" not in hint
    assert not ENGINE_TEXT.search(hint)


def test_the_log_uses_the_same_words(tables: list[TableController]) -> None:
    table = beaten_position(tables)
    table.view.buttons["pass"].click()
    log = text_of(table.view.log.value)
    assert "you lead 7♠" in log
    assert "scripted beats 7♠ with 9♠" in log
    assert f"you say “{BEATEN}”" in log
    assert "attacks with" not in log and not ENGINE_TEXT.search(log)


def test_a_refusal_names_the_player_not_the_seat(tables: list[TableController]) -> None:
    bot = GatedBot(["1 defend 7♠ with 9♠"])
    table = sync_table(RULES, {1: bot}, first_game=deal(HANDS, "K♣", RULES),
                       handoff=Handoff(mode="manual"), threads=True)
    tables.append(table)
    table.handoff.pump()
    next(b for b in table.view.visible_hand() if b.description == "7♠").click()
    table.handoff.pump()
    table.view.buttons["pass"].click()  # hidden: the bot has not beaten the 7♠ yet
    table.handoff.pump()
    status = text_of(table.view.status.value)
    assert "Wait for gated to beat the cards" in status, status
    assert "player 1" not in status
    bot.gate.set()


def test_the_review_speaks_of_moves_not_seats_or_rollouts() -> None:
    game = play_game(Game.new(RULES, seed=3), [GreedyBot(), GreedyBot()])
    report = review(game, seat=0, iterations=40, seed=1, names=["You", "greedy"])
    assert report.drops, "this game needs a move to criticise"
    for text in (repr(report), text_of(report._repr_html_())):
        assert "rollout" not in text and "iteration" not in text
        assert not ENGINE_TEXT.search(text), text
        assert "your move:" in text and "the AI would" in text


def test_the_game_over_screen_says_each_thing_once_and_leaves_no_gap(
    tables: list[TableController],
) -> None:
    table = play(opponents=["random"], seed=11, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    table.view.hint_toggle.value = True
    table.coach.iterations = 20
    play_to_the_end(table, random.Random(3))
    view = table.view
    banner = text_of(view.banner_text.value)
    status = text_of(view.status.value)
    assert "durak" in banner or "draw" in banner
    assert banner not in status and "Game over" in status
    assert not shown(view.hint), view.hint.value  # no "Hint: the game is over."
    if not game_of(table).hand(0):
        assert not shown(view.hand)  # no empty row where the hand was


def test_new_game_starts_the_move_counter_again(tables: list[TableController]) -> None:
    table = play(opponents=["random"], seed=11, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    play_to_the_end(table, random.Random(3))
    assert table.moves > 10
    hook = table.view.scroll_hook.value
    table.view.new_game.click()
    assert table.view.scroll_hook.value != hook  # the new deal scrolls into view again
    moves_now = len(game_of(table).log)
    assert table.moves == moves_now  # the bot may have led already
    assert f"bout 1 · move {moves_now}" in text_of(table.view.status.value)


def test_the_trump_cards_suit_has_an_element_of_its_own_for_every_rank() -> None:
    for text in ("10♥", "6♠", "Q♣", "A♦"):
        talon = _talon_html(card_face(text, text[-1]), 12)
        assert f'<span class="durak-trump-suit">{text[-1]}</span>' in talon
        assert f'<span class="durak-trump-rank">{text[:-1]}</span>' in talon


def test_the_table_reads_as_a_table_where_it_cannot_be_drawn(
    tables: list[TableController],
) -> None:
    table = play(opponents=["random"], seed=1, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    text = repr(table)
    assert "JupyterLab" not in text and "run this cell" in text


def test_the_play_notebook_as_saved_asks_to_run_the_cell(
    tables: list[TableController],
) -> None:
    """Opened in JupyterLab before its cell runs, the play notebook shows its saved
    output: a dead table drawn from saved widget state (its clicks go nowhere) or a line
    saying to open JupyterLab, where the player already is, were both wrong.  Saved: no
    widget state, and the table's text form, which asks to run the cell."""
    notebook = json.loads((REPO / "notebooks" / "play.ipynb").read_text(encoding="utf-8"))
    assert "widgets" not in notebook["metadata"]
    intro = "".join(notebook["cells"][0]["source"])
    assert not re.search(r"\bseat \d", intro)
    (cell,) = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    (output,) = cell["outputs"]
    assert set(output["data"]) == {"text/plain"}
    table = play(delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    assert "".join(output["data"]["text/plain"]) == repr(table)
