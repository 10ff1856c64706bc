"""play()'s arguments, the local backend's guards, and failures shown, not raised."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import pytest

from durak_core import Action, Attack, Card, Game, IllegalAction, Pass, Rules, Take
from durak_core.bots import Bot, RandomBot
from durak_widgets import Handoff, LocalBackend, TableBackend, TableController, play, waiting_on
from durak_widgets.play import default_bot

from .widget_driver import game_of
from .widget_helpers import ScriptedBot, deal, sync_table


def sync_play(**kwargs: Any) -> TableController:
    kwargs.setdefault("delay", 0)
    return play(handoff=Handoff(mode="sync"), **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"opponents": ["nonsense"]}, ValueError, "unknown bot 'nonsense'"),
        ({"opponents": "random"}, TypeError, "must be a list"),
        ({"opponents": [42]}, TypeError, "bot name or a Bot"),
        ({"opponents": ["random"], "rules": Rules(players=3)}, ValueError, "3 players"),
        ({"opponents": ["random"] * 6}, ValueError, "2 to 6"),
        ({"hot_seat": 0}, ValueError, "hot_seat"),
        ({"hot_seat": 7}, ValueError, "hot_seat"),
        ({"hot_seat": 3, "rules": Rules(players=2)}, ValueError, "3 people"),
        ({"rules": {"players": 2}}, TypeError, "durak_core.Rules"),
        ({"delay": -1}, ValueError, "delay"),
        ({"names": ["a"]}, ValueError, "one name per seat"),
    ],
)
def test_bad_arguments_get_a_clear_error(
    kwargs: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        sync_play(**kwargs)


def test_defaults_one_person_against_the_preferred_bot(tables: list[TableController]) -> None:
    table = sync_play(seed=1)
    tables.append(table)
    assert table.backend.rules == Rules(players=2)
    assert table.backend.local_seats == (0,)
    assert table.backend.names == ("You", default_bot())
    assert isinstance(table.backend, TableBackend)


def test_rules_fill_the_other_seats_with_bots_and_names_are_unique(
    tables: list[TableController],
) -> None:
    table = sync_play(rules=Rules(players=3), opponents=None, seed=2)
    tables.append(table)
    bot = default_bot()
    assert table.backend.names == ("You", bot, f"{bot} 2")
    assert len(table.view.opponent_boxes) == 2


def test_bot_instances_and_names_are_accepted(tables: list[TableController]) -> None:
    table = sync_play(opponents=[RandomBot(seed=3)], names=["Ann", "Rob"], seed=3)
    tables.append(table)
    assert table.backend.names == ("Ann", "Rob")
    assert "Rob" in table.view.opponent_boxes[0].value


def test_hot_seat_with_a_bot(tables: list[TableController]) -> None:
    table = sync_play(hot_seat=2, opponents=["random"], seed=4)
    tables.append(table)
    assert table.backend.local_seats == (0, 1)
    assert table.backend.names == ("Player 1", "Player 2", "random")


def test_backend_refuses_moves_for_seats_not_at_the_screen() -> None:
    rules = Rules()
    backend = LocalBackend(rules, {1: RandomBot(1)}, ["You", "random"], seed=1)
    assert backend.why_illegal(Take(1)) == "random is a bot: its moves are not made at this screen."
    before = backend.game.state_hash()
    with pytest.raises(IllegalAction, match="not played at this screen"):
        backend.submit(Pass(1))
    assert backend.game.state_hash() == before


def test_backend_checks_its_arguments() -> None:
    rules = Rules()
    with pytest.raises(ValueError, match="not a seat"):
        LocalBackend(rules, {2: RandomBot()}, ["a", "b"])
    with pytest.raises(TypeError, match=r"not a durak_core\.bots\.Bot"):
        LocalBackend(rules, {1: "random"}, ["a", "b"])  # type: ignore[dict-item]
    with pytest.raises(ValueError, match="other rules"):
        LocalBackend(rules, {}, ["a", "b"], first_game=Game.new(Rules(players=3), seed=1))


class BrokenBot(Bot):
    """Raises on every decision."""

    name = "broken"

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise RuntimeError("out of ideas")


class CheatingBot(Bot):
    """Answers with a move that is never legal for it."""

    name = "cheater"

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        return Take(0)


HANDS = [["9♥", "J♦", "Q♣", "6♥", "A♠", "8♠"], ["6♣", "7♥", "7♦", "8♦", "9♠", "10♠"]]


@pytest.mark.parametrize(
    ("bot", "line"),
    [
        (BrokenBot(), "broken failed (RuntimeError: out of ideas); it plays its first option"),
        (CheatingBot(), "cheater chose an illegal move (0 take:"),
    ],
)
def test_a_failing_bot_is_logged_and_the_game_goes_on(
    bot: Bot, line: str, tables: list[TableController]
) -> None:
    rules = Rules()
    first_option = deal(HANDS, "K♣", rules).legal_actions(1)[0]
    table = sync_table(rules, {1: bot}, first_game=deal(HANDS, "K♣", rules))
    tables.append(table)
    game = game_of(table)
    assert line in html.unescape(table.view.log.value)
    assert game.log[0] == first_option


class ExplodingBackend(LocalBackend):
    """A backend with a bug in submit: the table must say so, not swallow it."""

    def submit(self, action: Action) -> None:
        raise RuntimeError("disk on fire")


def test_an_internal_error_is_shown_in_the_status_line() -> None:
    rules = Rules()
    game = deal(HANDS, "K♣", rules)
    backend = ExplodingBackend(
        rules, {1: ScriptedBot(["1 attack 7♦"])}, ["You", "b"], first_game=game
    )
    table = TableController(backend, Handoff(mode="sync"))
    try:
        next(b for b in table.view.visible_hand() if b.description == "J♦").click()
        status = html.unescape(table.view.status.value)
        assert "Internal error: RuntimeError: disk on fire" in status
    finally:
        table.close()


def test_waiting_on_follows_the_bots_order() -> None:
    from durak_core.bots import next_to_act

    rules = Rules(players=3)
    game = Game.new(rules, seed=8)
    bots = [RandomBot(s) for s in range(3)]
    for _ in range(200):
        if game.is_over:
            break
        seat = next_to_act(game)
        assert seat is not None
        expected = [s for s in waiting_on(game.observation(0)) if game.legal_actions(s)]
        assert expected[0] == seat
        legal = game.legal_actions(seat)
        game.apply(bots[seat].choose(game.observation(seat), legal))
        for action in game.automatic_actions():
            if game.why_illegal(action) is None:
                game.apply(action)
    assert game.bouts > 0


def test_a_click_on_a_card_of_the_other_rank_names_the_ranks(tables: list[TableController]) -> None:
    rules = Rules()
    game = deal(
        [["6♣", "7♠", "7♥", "Q♦", "A♠", "8♥"], ["8♣", "9♥", "10♥", "J♥", "9♠", "10♠"]],
        "K♣",
        rules,
    )
    table = sync_table(rules, {1: ScriptedBot(["1 defend 7♠ with 9♠", "1 take"])}, first_game=game)
    tables.append(table)
    game = game_of(table)
    next(b for b in table.view.visible_hand() if b.description == "7♠").click()
    assert game.table == [(Card.parse("7♠"), Card.parse("9♠"))]
    before = game.state_hash()
    next(b for b in table.view.visible_hand() if b.description == "Q♦").click()
    reason = game.why_illegal(Attack(0, Card.parse("Q♦")))
    assert reason and reason in html.unescape(table.view.status.value)
    assert game.state_hash() == before
