"""The coach on the table: the Hint toggle and the Review button."""

from __future__ import annotations

import html
import random
import re
import threading
from typing import Any

import pytest

from durak_core import Drew, Rules
from durak_core.bots import GreedyBot
from durak_core.bots import coach as coach_module
from durak_widgets import Handoff, TableController
from durak_widgets.words import Moment, say_action

from .widget_driver import classes, click_one_move, game_of, play_to_the_end, shown
from .widget_helpers import GatedBot, deal, sync_table

RULES = Rules()
# Seat 0 holds the lowest trump (6♣) and leads.
HANDS = [["6♣", "7♠", "7♥", "Q♦", "A♠", "8♥"], ["8♣", "9♥", "10♥", "J♥", "9♠", "10♠"]]


def hint_text(table: TableController) -> str:
    """The hint as a person reads it (tags dropped)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", table.view.hint.value))


def small_budget(table: TableController) -> TableController:
    table.coach.iterations = 60
    return table


def test_the_hint_is_off_by_default_and_shows_the_ai_move_and_every_chance(
    tables: list[TableController],
) -> None:
    table = small_budget(sync_table(RULES, {1: GreedyBot()}, first_game=deal(HANDS, "K♣", RULES)))
    tables.append(table)
    view = table.view
    assert view.hint_toggle.value is False
    assert "durak-btn-hint" in classes(view.hint_toggle)
    assert not shown(view.hint)

    view.hint_toggle.value = True  # what a click in the page does
    assert shown(view.hint)
    text = hint_text(table)
    legal = game_of(table).legal_actions(0)
    assert "the AI would" in text and "Chance of not being the durak" in text
    rows = view.hint.value.count("<tr")
    assert rows == min(len(legal), 8) + (1 if len(legal) > 8 else 0)
    best = " ".join(text.split("the AI would")[1].split(".")[0].split())
    moment = Moment.of(game_of(table).observation(0))
    assert best in {say_action(a, moment) for a in legal}  # in the table's words
    assert table.coach.started == 1

    view.hint_toggle.value = False
    assert not shown(view.hint)


def test_the_hint_follows_the_game_and_never_sees_the_other_hand(
    tables: list[TableController],
) -> None:
    table = small_budget(sync_table(RULES, {1: GreedyBot()}, seed=4))
    tables.append(table)
    table.view.hint_toggle.value = True
    asked = table.coach.started
    rng = random.Random(2)
    for _ in range(6):  # a few moves by clicks
        click_one_move(table, rng)
    assert table.coach.started > asked  # a new hint for each new position
    history = table.backend.seat_history(0)  # type: ignore[attr-defined]
    drawn = [e for e in history if isinstance(e, Drew) and e.player == 1]
    assert drawn and all(c is None or c is game_of(table).trump_card
                         for e in drawn for c in e.cards)


def test_the_hint_is_computed_off_the_ui_thread_and_a_stale_one_is_dropped(
    tables: list[TableController], monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    # Each hint waits until the test lets it go: a quick search could otherwise answer
    # within the same pump of the hand-off queue (the first one before the test has seen
    # "thinking", the second one before the late answer below is tried).
    releases = [threading.Event(), threading.Event()]
    release, release_second = releases

    def recording_hint(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        releases[min(len(threads), 2) - 1].wait(30)
        return coach_module.hint(*args, **kwargs)

    monkeypatch.setattr("durak_widgets.coach.hint", recording_hint)
    bot = GatedBot(["1 take"])
    table = sync_table(
        RULES, {1: bot}, first_game=deal(HANDS, "K♣", RULES), handoff=Handoff(mode="manual"),
        threads=True,
    )
    small_budget(table)
    tables.append(table)
    handoff = table.handoff
    handoff.pump()
    table.view.hint_toggle.value = True
    handoff.pump()  # the toggle's click runs: the hint is asked for, on a worker thread
    assert "thinking" in hint_text(table)
    release.set()
    handoff.pump_until(lambda: "the AI would" in hint_text(table), timeout=30)
    assert len(threads) == 1 and threads[0].startswith("durak-coach-hint")
    assert threads[0] != threading.current_thread().name

    # A hint about a position that is gone is not shown.
    key_before = table.coach._hint_key
    seven = next(b for b in table.view.visible_hand() if b.description == "7♠")
    seven.click()
    handoff.pump()
    assert table.coach._hint_key != key_before
    table.coach._hint_arrived(key_before, [], None)  # a late answer for the old position
    assert table.coach._hint is None
    assert "thinking" in hint_text(table)
    release_second.set()
    bot.gate.set()


def test_the_review_button_shows_the_chart_of_the_finished_game(
    tables: list[TableController],
) -> None:
    table = small_budget(sync_table(RULES, {1: GreedyBot()}, seed=3))
    tables.append(table)
    view = table.view
    assert not shown(view.review_button)
    play_to_the_end(table, random.Random(5))
    assert game_of(table).is_over
    assert shown(view.review_button) and view.review_button.description == "Review"
    view.review_button.click()
    assert shown(view.review)
    assert "<svg" in view.review.value and "Review of your game" in html.unescape(
        view.review.value
    )
    assert view.review_button.description == "Hide review"
    # The panel is what review(table) shows in a cell: the moves in the table's words,
    # each read at its own moment of the game (a throw-in is no lead).
    shown_review = table.coach._review
    assert shown_review is not None and shown_review.moments
    assert view.review.value == shown_review._repr_html_()
    assert not re.search(r"\b\d+ (attack|defend|take|pass)\b", html.unescape(view.review.value))
    view.review_button.click()
    assert not shown(view.review)
