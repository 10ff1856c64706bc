"""Tables of more than two seats: each opponent's role, the throw-in rule, and what a
backend knows of a seat beyond the game (a move clock, a lost connection), as the
widgets show them.  The two-seat table looks as it always did."""

from __future__ import annotations

import html
import random
from collections.abc import Sequence
from typing import Any

import pytest

from durak_core import Game, Rules
from durak_core.bots import RandomBot
from durak_widgets import Handoff, LocalBackend, TableController, play
from durak_widgets.backend import Changed, Forced, SeatNote
from durak_widgets.controller import describe
from durak_widgets.view import SeatModel, TableView, _seat_html

from .seat_oracle import box_of as seat_box
from .seat_oracle import check_roles, role_of
from .widget_driver import click_one_move, game_of, play_to_the_end, shown


def box_of(table: TableController, seat: int) -> str:
    """The opponent box of ``seat`` (its HTML, unescaped)."""
    return seat_box(table.view, seat)


def check_seats(table: TableController) -> None:
    """Every opponent's role and throw-in right agree with the engine's game, and the
    line above them states the throw-in rule in force."""
    game: Game = game_of(table)
    check_roles(table.view, game, range(1, game.players))
    line = html.unescape(table.view.table_line.value)
    names = table.backend.names
    if game.is_over:
        assert "Throw-in" not in line
    elif game.rules.throw_in == "neighbours":
        who = " and ".join("you" if s == 0 else names[s] for s in game.throwers())
        assert f"only {'you' if game.defender == 0 else names[game.defender]}'s neighbours" \
            in line and who in line
    else:
        assert "Throw-in: everyone but the defender" in line


@pytest.mark.parametrize("throw_in", ["all", "neighbours"])
@pytest.mark.parametrize("players", [3, 5])
def test_roles_and_throw_in_rights_follow_the_game_at_every_move(
    players: int, throw_in: str, tables: list[TableController]
) -> None:
    rules = Rules(players=players, throw_in=throw_in)
    table = play(opponents=["random"] * (players - 1), rules=rules, seed=players,
                 delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    rng = random.Random(players)
    seen: set[str] = set()
    barred = False
    check_seats(table)
    while not game_of(table).is_over:
        click_one_move(table, rng)
        check_seats(table)
        seen.update(role_of(box.value) for box in table.view.opponent_boxes)
        barred |= any("may not throw in" in b.value for b in table.view.opponent_boxes)
    assert {"attacks", "defends"} <= seen
    # Under "all" nobody is ever barred; under "neighbours" at three seats the defender's
    # two neighbours are everybody else, at five seats someone sits the bout out.
    assert barred == (throw_in == "neighbours" and players > 3)


def test_the_neighbours_rule_names_who_may_throw_in_and_bars_the_others(
    tables: list[TableController],
) -> None:
    rules = Rules(players=4, throw_in="neighbours")
    table = play(opponents=["random"] * 3, rules=rules, seed=3, delay=0,
                 handoff=Handoff(mode="sync"), names=["You", "Ann", "Bob", "Cid"])
    tables.append(table)
    game = game_of(table)
    assert game.players == 4 and not game.is_over
    barred = [s for s in range(1, 4) if s != game.defender and s not in game.throwers()]
    assert barred, "at four seats under 'neighbours' someone sits out of the bout"
    for seat in barred:
        assert "may not throw in" in box_of(table, seat)
    line = html.unescape(table.view.table_line.value)
    assert "neighbours" in line
    check_seats(table)


def test_the_durak_is_named_at_the_end_of_a_table_of_three(
    tables: list[TableController],
) -> None:
    table = play(opponents=["random"] * 2, rules=Rules(players=3), seed=8, delay=0,
                 handoff=Handoff(mode="sync"))
    tables.append(table)
    play_to_the_end(table, random.Random(8))
    game = game_of(table)
    check_seats(table)
    if game.durak is not None and game.durak != 0:
        assert role_of(box_of(table, game.durak)) == "durak"
    elif game.durak == 0:
        assert "the durak" in table.view.me.value


def test_a_table_of_two_looks_as_it_always_did(tables: list[TableController]) -> None:
    table = play(opponents=["random"], seed=2, delay=0, handoff=Handoff(mode="sync"))
    tables.append(table)
    rng = random.Random(2)
    while not game_of(table).is_over:
        assert not shown(table.view.table_line) and table.view.table_line.value == ""
        text = table.view.opponent_boxes[0].value
        for mark in ("may not throw in", "durak-clock", "durak-seat-state", "durak-seat-kind",
                     "throws in"):
            assert mark not in text
        click_one_move(table, rng)
    assert role_of(table.view.opponent_boxes[0].value) in ("", "out")
    # The seat box of a table of two is exactly what it was before tables of N.
    assert _seat_html(SeatModel(seat=1, name="Rob", count=2, role="attacks")) == (
        '<div class="durak-seat-name">Rob<span class="durak-role">attacks</span></div>'
        '<div class="durak-backs"><span class="durak-back"></span><span class="durak-back">'
        '</span><span class="durak-count">2</span></div>')


class NotedBackend(LocalBackend):
    """A local table that also knows things about its seats, as a network table does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notes: list[SeatNote] = [SeatNote()] * self.rules.players
        self.line = ""
        self.changed: Changed | None = None

    def attach(self, handoff: Handoff, changed: Changed) -> None:
        self.changed = changed
        super().attach(handoff, changed)

    def seat_notes(self) -> Sequence[SeatNote]:
        return self.notes

    def table_line(self) -> str:
        return self.line


def test_seat_notes_show_the_clock_a_lost_seat_and_a_bot(tables: list[TableController]) -> None:
    rules = Rules(players=3)
    backend = NotedBackend(rules, {1: RandomBot(1), 2: RandomBot(2)}, ["You", "Ann", "Bob"],
                           seed=1)
    table = TableController(backend, Handoff(mode="sync"))
    tables.append(table)
    backend.notes = [SeatNote(clock=12.2), SeatNote(kind="bot, in Cat's kernel", clock=3.5),
                     SeatNote(state="connection lost")]
    backend.line = "move clock 30 s"
    assert backend.changed is not None
    backend.changed([])
    ann, bob = box_of(table, 1), box_of(table, 2)
    assert "⏱ 4 s" in ann and "durak-clock-low" in ann and "bot, in Cat's kernel" in ann
    assert "connection lost" in bob and "durak-clock" not in bob
    assert "durak-away" in table.view.opponent_boxes[1]._dom_classes
    assert "⏱ 13 s" in table.view.me.value and "durak-clock-low" not in table.view.me.value
    assert "move clock 30 s" in table.view.table_line.value
    backend.notes = [SeatNote(clock=90.0), SeatNote(), SeatNote(state="back")]
    backend.changed([])
    assert "⏱ 1:30" in table.view.me.value and "durak-clock" not in box_of(table, 1)
    assert "durak-away" not in table.view.opponent_boxes[1]._dom_classes


def test_a_forced_move_is_logged_with_why_and_counts_as_a_move(
    tables: list[TableController],
) -> None:
    rules = Rules(players=3)
    # Nobody plays seats 1 and 2 here: the test makes a move for seat 0 by hand.
    backend = NotedBackend(rules, {1: RandomBot(1), 2: RandomBot(2)}, ["You", "Ann", "Bob"],
                           seed=1, first_game=Game.new(rules, seed=2))
    table = TableController(backend, Handoff(mode="sync"))
    tables.append(table)
    game = game_of(table)
    assert game.attacker == 0
    action = game.legal_actions(0)[0]
    events = game.apply(action)
    assert backend.changed is not None
    moves = table.moves
    backend.changed([Forced(events[0], "timed out"), *events[1:]])
    assert table.moves == moves + 1
    line = describe(events[0], backend.names, 0)
    assert f"{line} — timed out" in html.unescape(table.view.log.value)
    assert describe(Forced(events[0], "timed out"), backend.names, 0) == f"{line} — timed out"


def test_a_view_renders_seat_models_with_every_note() -> None:
    view = TableView(players=3)
    text = _seat_html(SeatModel(seat=2, name="Bo", count=1, kind="bot", state="left",
                                clock="5 s", clock_low=True, may_throw=False))
    assert ('<div class="durak-seat-kind">bot</div>' in text
            and '<div class="durak-seat-state">left</div>' in text
            and "may not throw in" in text and "durak-clock durak-clock-low" in text)
    view.close()
