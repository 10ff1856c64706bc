"""docs/rules.md, "Drawing": who draws first, and emptying a hand while the talon lasts."""

from __future__ import annotations

from durak_core import Card, Drew, Left, NewBout, PickedUp, Rules

from .helpers import cards, new_game, play

# Five players: the talon is 5 cards plus the trump card A♥, drawn last.  Seat 2 holds
# the lowest trump (6♥) and attacks seat 3; the other attackers, clockwise, are 4, 0, 1.
FIVE = ["9d", "9h", "6h 9s", "10s 10c 10d Qh", "9c"]
TALON = "Js Jc Jd Qs Qc"


def test_draw_order_main_attacker_first_then_clockwise_defender_last() -> None:
    game = new_game(Rules(players=5), FIVE, "Ah", talon=TALON)
    assert (game.attacker, game.defender) == (2, 3)
    play(
        game, "2 attack 9s", "4 attack 9c", "0 attack 9d", "1 attack 9h",
        "3 defend 9s with 10s", "3 defend 9c with 10c", "3 defend 9d with 10d",
        "3 defend 9h with Qh",
    )  # fmt: skip
    events = []
    for seat in (2, 4, 0, 1):
        events += play(game, f"{seat} pass")
    draws = [e for e in events if isinstance(e, Drew)]
    # Each attacker drew one card; the defender needed four but only two were left.
    assert draws == [
        Drew(2, (Card.parse("Js"),)),
        Drew(4, (Card.parse("Jc"),)),
        Drew(0, (Card.parse("Jd"),)),
        Drew(1, (Card.parse("Qs"),)),
        Drew(3, tuple(cards("Qc Ah"))),
    ]
    assert game.talon_size == 0
    assert [game.hand_size(s) for s in range(5)] == [6, 6, 6, 4, 6]
    assert (game.attacker, game.defender) == (3, 4)


def test_draw_order_after_take_defender_last() -> None:
    """The defender who picked up draws nothing (more than 6 cards); attackers draw first."""
    game = new_game(Rules(players=5), FIVE, "Ah", talon=TALON)
    play(game, "2 attack 9s", "4 attack 9c", "3 take", "0 attack 9d")
    events = []
    for seat in (2, 4, 0, 1):
        events += play(game, f"{seat} pass")
    assert [e for e in events if isinstance(e, PickedUp)] == [PickedUp(3, tuple(cards("9s 9c 9d")))]
    assert [e for e in events if isinstance(e, Drew)] == [
        Drew(2, (Card.parse("Js"),)),
        Drew(4, (Card.parse("Jc"),)),
        Drew(0, (Card.parse("Jd"),)),
    ]
    assert game.hand_size(3) == 9 and game.talon_size == 3
    # Taken: the player on the defender's left leads the next bout.
    assert events[-1] == NewBout(4, 0)


def test_player_who_empties_hand_while_talon_lasts_simply_draws() -> None:
    """Both players play out all six cards in a six-card bout; both draw six, nobody is out."""
    rules = Rules(first_bout_limit=None)
    game = new_game(rules, ["6s 6c 6d 6h 8c 8d", "8s 7c 7d 7h 9c 9d"], "Ah")
    play(
        game, "0 attack 6s 6c 6d 6h", "1 defend 6s with 8s", "1 defend 6c with 7c",
        "1 defend 6d with 7d", "1 defend 6h with 7h", "0 attack 8c", "0 attack 8d",
        "1 defend 8c with 9c",
    )  # fmt: skip
    assert game.hand_size(0) == 0 and game.active_players == [0, 1]
    events = play(game, "1 defend 8d with 9d")
    assert not any(isinstance(e, Left) for e in events)
    assert [(e.player, len(e.cards)) for e in events if isinstance(e, Drew)] == [(0, 6), (1, 6)]
    assert game.active_players == [0, 1] and not game.is_over
    assert (game.attacker, game.defender) == (1, 0)
