"""What a screen reader gets from the table: every card named in words, the others'
moves and whose move it is read out by a live region, a refused click's reason too; and
the keys the table answers to, listed by "?" in the table's language."""

from __future__ import annotations

from durak_core import Rules
from durak_widgets import Handoff, TableController, play
from durak_widgets.keys import KEYS

from .widget_helpers import ScriptedBot, deal, sync_table

RULES = Rules()
# Seat 0 holds the lowest trump (6♣) and leads; seat 1 beats the 7♠ with the 9♠.
HANDS = [["6♣", "7♠", "7♥", "Q♦", "A♠", "8♥"], ["8♣", "9♥", "10♥", "J♥", "9♠", "10♠"]]


def test_every_card_button_is_named_in_words(tables: list[TableController]) -> None:
    for lang, queen in (("en", "queen of diamonds"), ("ru", "дама бубен")):
        table = sync_table(RULES, {1: ScriptedBot([])}, first_game=deal(HANDS, "K♣", RULES))
        table.lang = lang
        table.refresh()
        tables.append(table)
        names = [b.tooltip for b in table.view.visible_hand()]
        assert len(names) == 6 and all(names)
        assert queen in names
        trump = [n for n in names if n.endswith(", trump") or n.endswith(", козырь")]
        assert len(trump) == 1 and trump[0].startswith(("six", "шестёрка"))


def test_the_live_region_reads_the_others_moves_and_whose_move_it_is(
    tables: list[TableController],
) -> None:
    bot = ScriptedBot(["1 defend 7♠ with 9♠"])
    table = sync_table(RULES, {1: bot}, first_game=deal(HANDS, "K♣", RULES))
    tables.append(table)
    assert "Your lead" in table.view.keys.announce
    next(b for b in table.view.visible_hand() if b.description == "7♠").click()
    said = table.view.keys.announce
    assert "scripted beats 7♠ with 9♠" in said and "Your move" in said, said
    assert "bout 1" not in said  # the move counter is for the eyes


def test_a_refused_click_is_read_out_with_its_reason(tables: list[TableController]) -> None:
    table = play(opponents=["greedy"], seed=4, delay=0, handoff=Handoff(mode="sync"),
                 lang="ru")
    tables.append(table)
    table.view.buttons["take"].click()  # hidden: nothing to take
    said = table.view.keys.announce
    assert table.notice and table.notice in said, said


def test_the_keys_are_listed_in_the_tables_language(tables: list[TableController]) -> None:
    table = play(opponents=["greedy"], seed=4, delay=0, handoff=Handoff(mode="sync"),
                 lang="ru")
    tables.append(table)
    keys = table.view.keys
    assert keys.help_title == "Клавиши"
    assert any("«Беру»" in line and "Е (T)" in line for line in keys.help_lines)
    assert set(keys.shortcuts) == set(KEYS)
    for classes in keys.shortcuts.values():  # each key clicks a button the table has
        assert any(_has_class(table, cls) for cls in classes)


def _has_class(table: TableController, cls: str) -> bool:
    stack = [table.view.root]
    while stack:
        widget = stack.pop()
        if cls in getattr(widget, "_dom_classes", ()):
            return True
        stack.extend(getattr(widget, "children", ()))
    return False
