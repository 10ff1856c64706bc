"""What each opponent's box at a table must say, worked out from the engine's game.

One oracle for every table the tests look at (a local table in tests/widgets, a LAN
table in tests/net): the role a seat's box shows (attacks, defends, takes, throws in,
passed, out, durak) and whether it is marked as barred from throwing in.  It is
written from the rules (docs/rules.md), not from the controller's code, so the two
check each other.
"""

from __future__ import annotations

import html

from durak_core import Game
from durak_widgets.view import TableView

ROLE_TAG = '<span class="durak-role">'


def box_of(view: TableView, seat: int) -> str:
    """The opponent box of ``seat`` on a table's view (its HTML, unescaped)."""
    for box in view.opponent_boxes:
        if f"durak-seat-{seat}" in box._dom_classes:
            return html.unescape(box.value)
    raise AssertionError(f"no box for seat {seat}")


def role_of(box: str) -> str:
    """The role a seat's box shows ("" when none)."""
    start = box.find(ROLE_TAG)
    if start < 0:
        return ""
    return box[start + len(ROLE_TAG):box.index("</span>", start)]


def expected_role(game: Game, seat: int) -> str:
    """The role the rules give ``seat`` now."""
    active = seat in game.active_players
    if game.is_over:
        return "durak" if seat in game.losers else "" if active else "out"
    if not active:
        return "out"
    if seat == game.defender:
        return "takes" if game.taking else "defends"
    if seat == game.attacker:
        return "attacks"
    if seat in game.passed:
        return "passed"
    if game.table and seat in game.throwers():
        return "throws in"
    return ""


def barred(game: Game, seat: int) -> bool:
    """Whether ``seat`` is shown as one that may not throw in (an active seat that is
    neither the defender nor among the throw-in rule's throwers, while play goes on)."""
    return (not game.is_over and seat in game.active_players and seat != game.defender
            and seat not in game.throwers())


def check_roles(view: TableView, game: Game, seats: list[int] | range) -> None:
    """Every box of ``seats`` shows the role and throw-in right the rules give it."""
    for seat in seats:
        box = box_of(view, seat)
        assert role_of(box) == expected_role(game, seat), (seat, box)
        assert ("may not throw in" in box) == barred(game, seat), (seat, box)
