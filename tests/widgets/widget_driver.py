"""Play a table through its widgets, the way a person does: by clicking buttons.

The driver only clicks what the table shows as possible (highlighted cards, visible
buttons, highlighted target cards).  After every click it checks the table against
the game it comes from: what is highlighted is exactly what is legal, every shown
button is legal, and a completed move changed the game's state.
"""

from __future__ import annotations

import random
from typing import Any

from durak_core import Attack, Card, Defend, Game, Pass, Take, Transfer, display_key
from durak_widgets import TableController
from durak_widgets.i18n import speaking
from durak_widgets.words import card_text

BUTTON_ACTIONS = {"take": Take, "pass": Pass}


def classes(widget: Any) -> tuple[str, ...]:
    return tuple(widget._dom_classes)


def shown(widget: Any) -> bool:
    return widget.layout.display != "none"


def game_of(table: TableController) -> Game:
    game: Game = table.backend.game  # type: ignore[attr-defined]
    return game


def check_table_matches_game(table: TableController) -> None:
    """What the widgets show for the viewer agrees with the engine."""
    game = game_of(table)
    view = table.view
    seat = table.viewer
    if not table.revealed:
        assert not shown(view.hand), "a hidden hand must not be displayed"
        return
    hand = game.hand(seat)

    def label(card: Card | None) -> str | None:
        """The card as the table's language prints it ("Д♣" in Russian for "Q♣")."""
        with speaking(table.lang):
            return None if card is None else card_text(card)

    assert [b.description for b in view.visible_hand()] == [label(c) for c in hand]
    trump = game.trump_suit
    assert hand == sorted(hand, key=lambda c: display_key(c, trump)), "hand must be sorted"
    legal = game.legal_actions(seat)
    playable = {str(c) for a in legal if isinstance(a, Attack) for c in a.cards}
    playable |= {str(a.card) for a in legal if isinstance(a, (Defend, Transfer))}
    playable = {label(Card.parse(text)) for text in playable}
    for button, card in zip(view.visible_hand(), hand, strict=True):
        marks = classes(button)
        assert f"durak-card-{card.code}" in marks
        if button.description in playable:
            assert "durak-playable" in marks or "durak-selected" in marks, button.description
        else:
            assert "durak-dimmed" in marks, button.description
    buttons = view.visible_buttons()
    assert ("take" in buttons) == (Take(seat) in legal)
    assert ("pass" in buttons) == (Pass(seat) in legal)
    assert ("transfer" in buttons) == any(isinstance(a, Transfer) and not a.show for a in legal)
    table_cards = [
        (attack.description, None if defence is None else defence.description)
        for attack, defence in view.visible_pairs()
    ]
    assert table_cards == [(label(a), label(d)) for a, d in game.table]
    assert ("durak-over" in classes(view.status)) == game.is_over
    assert shown(view.banner) == game.is_over


def click_one_move(table: TableController, rng: random.Random) -> None:
    """Make one move for the viewer by clicking, chosen at random among what is shown."""
    view = table.view
    game = game_of(table)
    seat = table.viewer
    if not table.revealed:
        view.reveal.click()
        assert table.revealed
    before = game.state_hash()
    options: list[Any] = [b for b in view.visible_hand() if "durak-playable" in classes(b)]
    # Transfers are made by selecting the card first (below); Transfer alone is ambiguous
    # when several cards could transfer.
    options += [b for name, b in view.visible_buttons().items() if name != "transfer"]
    assert options, f"nothing to click for seat {seat}:\n{game.to_text()}"
    choice = rng.choice(options)
    choice.click()
    if table.selected is not None:
        # A card that may beat several attack cards (or transfer) waits for a target.
        targets: list[Any] = [
            attack for attack, _ in view.visible_pairs() if "durak-target" in classes(attack)
        ]
        if Transfer(seat, table.selected) in game.legal_actions(seat):
            targets.append(view.buttons["transfer"])
        assert targets, "a selected card must have a target or a transfer"
        rng.choice(targets).click()
    assert game_of(table).state_hash() != before, f"clicking {choice.description} did nothing"


def play_to_the_end(table: TableController, rng: random.Random, max_moves: int = 2000) -> int:
    """Click moves until the game is over; returns the number of moves made."""
    moves = 0
    check_table_matches_game(table)
    while not game_of(table).is_over:
        assert moves < max_moves, "the game did not end"
        click_one_move(table, rng)
        check_table_matches_game(table)
        moves += 1
    return moves
