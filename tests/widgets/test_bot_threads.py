"""Bots think on a worker thread; their answers come back through the hand-off."""

from __future__ import annotations

import html
import threading
import time

from durak_core import Attack, Card, Rules
from durak_core.bots import Bot
from durak_widgets import Handoff, TableController

from .widget_driver import classes, game_of
from .widget_helpers import GatedBot, ScriptedBot, deal, sync_table

RULES = Rules()
# Seat 0 holds the lowest trump (6♣) and leads; it also has two sevens to throw in.
HANDS = [["6♣", "7♠", "7♥", "Q♦", "A♠", "8♥"], ["8♣", "9♥", "10♥", "J♥", "9♠", "10♠"]]


def threaded_table(bot: Bot, delay: float = 0.0) -> TableController:
    game = deal(HANDS, trump="K♣", rules=RULES)
    return sync_table(
        RULES,
        {1: bot},
        first_game=game,
        handoff=Handoff(mode="manual"),
        threads=True,
        delay=delay,
    )


def hand_button(table: TableController, text: str):  # type: ignore[no-untyped-def]
    return next(b for b in table.view.visible_hand() if b.description == text)


def test_bot_thinks_off_the_ui_thread_and_the_ui_stays_responsive(
    tables: list[TableController],
) -> None:
    bot = GatedBot(["1 take"])
    table = threaded_table(bot)
    tables.append(table)
    handoff = table.handoff
    game = game_of(table)
    handoff.pump()  # the opening: seat 0 leads, no bot to ask

    hand_button(table, "7♠").click()
    assert game.log == []  # a click only posts; nothing happens until the loop runs it
    handoff.pump()
    assert game.log == [Attack(0, Card.parse("7♠"))]
    assert bot.entered.wait(10)  # the bot is inside choose(), on its worker thread
    handoff.pump()
    assert table.backend.thinking() == (1,)
    assert "durak-thinking" in classes(table.view.status)
    assert "thinking" in html.unescape(table.view.status.value)
    assert "durak-thinking" in classes(table.view.opponent_boxes[0])

    # While the bot is stuck thinking, clicks are still answered at once.
    hand_button(table, "Q♦").click()
    handoff.pump()
    assert "You can only throw in a rank already on the table" in html.unescape(
        table.view.status.value
    )

    bot.gate.set()
    handoff.pump_until(lambda: not table.backend.thinking() and game.taking, timeout=10)
    assert bot.threads and all(name.startswith("durak-bot") for name in bot.threads)
    assert threading.current_thread().name not in bot.threads
    assert "durak-thinking" not in classes(table.view.status)


def test_an_answer_about_a_state_that_is_gone_is_dropped_and_the_bot_asked_again(
    tables: list[TableController],
) -> None:
    bot = GatedBot(["1 take"])
    table = threaded_table(bot)
    tables.append(table)
    handoff = table.handoff
    game = game_of(table)
    handoff.pump()
    hand_button(table, "7♠").click()
    handoff.pump()
    assert bot.entered.wait(10)

    # Seat 0 throws in its other seven while the bot is still deciding about one card.
    hand_button(table, "7♥").click()
    handoff.pump()
    assert [str(a) for a, _ in game.table] == ["7♠", "7♥"]

    bot.gate.set()
    handoff.pump_until(
        lambda: not table.backend.thinking() and any(a.player == 1 for a in game.log),
        timeout=10,
    )
    assert table.backend.asked[1] == 2
    assert [len(seen["table"]) for seen in bot.seen] == [1, 2]
    assert sum(1 for a in game.log if a.player == 1) == 1  # one move, about the new state
    assert sorted(str(c) for c in game.known_cards(1)) == ["7♠", "7♥"]  # it took both


def test_bot_moves_wait_for_the_visible_delay(tables: list[TableController]) -> None:
    bot = ScriptedBot(["1 take"])
    table = threaded_table(bot, delay=0.2)
    tables.append(table)
    handoff = table.handoff
    game = game_of(table)
    handoff.pump()
    hand_button(table, "7♠").click()
    started = time.monotonic()
    handoff.pump_until(lambda: game.taking, timeout=10)
    assert time.monotonic() - started >= 0.2


def test_closing_the_table_stops_a_waiting_bot(tables: list[TableController]) -> None:
    bot = ScriptedBot(["1 take"])
    table = threaded_table(bot, delay=30)
    handoff = table.handoff
    game = game_of(table)
    handoff.pump()
    hand_button(table, "7♠").click()
    handoff.pump()
    assert table.backend.thinking() == (1,)
    prefix = table.backend.thread_name_prefix  # type: ignore[attr-defined]
    assert any(t.name.startswith(prefix) for t in threading.enumerate())
    table.close()
    deadline = time.monotonic() + 5
    while any(t.name.startswith(prefix) for t in threading.enumerate()):
        assert time.monotonic() < deadline, "the bot's worker thread outlived the table"
        time.sleep(0.01)
    assert not game.taking  # its move was never played
