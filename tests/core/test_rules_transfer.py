"""docs/rules.md, "Transfer (perevodnoy)" and the show-trump option."""

from __future__ import annotations

import pytest

from durak_core import Card, Game, Rules, Take, Transfer, Transferred

from .helpers import legal_texts, new_game, play, position

PEREVODNOY = Rules(players=3, variant="perevodnoy")
SHOWING = Rules(players=3, variant="perevodnoy", transfer_by_showing_trump=True)
# Hearts trump.  Seat 0 (6♥) attacks seat 1; seat 1 holds 7♣ and the trump 7♥, seat 2 7♦.
HANDS = ["6h 7s 8s 9s 10s Js", "7c 7h 6c 8c 9c 10c", "7d Qs Ks Qd Kd Ad"]


def transfer_game(rules: Rules = PEREVODNOY) -> Game:
    game = new_game(rules, HANDS, "Ah")
    assert (game.attacker, game.defender) == (0, 1)
    return game


def test_podkidnoy_is_the_default_and_has_no_transfer() -> None:
    assert Rules().variant == "podkidnoy"
    game = new_game(Rules(players=3), HANDS, "Ah")
    play(game, "0 attack 7s")
    assert not any(isinstance(a, Transfer) for a in game.legal_actions(1))
    assert game.why_illegal(Transfer(1, Card.parse("7c"))) == (
        "Transfers belong to perevodnoy; this game is podkidnoy."
    )


def test_transfer_adds_a_card_of_the_attack_rank_and_moves_the_defence_left() -> None:
    game = transfer_game()
    play(game, "0 attack 7s")
    assert {"1 transfer 7♣", "1 transfer 7♥"} <= legal_texts(game, 1)
    events = play(game, "1 transfer 7c")
    assert events == [Transferred(1, Card.parse("7c"), False, 2)]
    assert [a for a, _ in game.table] == [Card.parse("7s"), Card.parse("7c")]
    assert Card.parse("7c") not in game.hand(1) and game.hand_size(1) == 5
    # The old defender joins the attackers, as the main attacker.
    assert (game.attacker, game.defender) == (1, 2)
    assert game.throwers() == [1, 0]
    assert "1 attack 7♥" in legal_texts(game, 1)


def test_transfer_needs_a_card_of_the_attack_rank() -> None:
    game = transfer_game()
    play(game, "0 attack 7s")
    assert game.why_illegal(Transfer(1, Card.parse("8c"))) == (
        "Transfer with a card of rank 7; 8♣ does not match."
    )


def test_transfer_only_before_beating_any_card() -> None:
    hands = ["6h 7s 7d 9s 10s Js", "7c 8s 6c 8c 9c 10c", "7h Qs Ks Qd Kd Ad"]
    game = new_game(PEREVODNOY, hands, "Ah")
    play(game, "0 attack 7s 7d", "1 defend 7s with 8s")
    assert not any(isinstance(a, Transfer) for a in game.legal_actions(1))
    assert game.why_illegal(Transfer(1, Card.parse("7c"))) == (
        "You can transfer only before beating any card of the bout."
    )


def test_transfer_needs_new_defender_to_hold_the_attack_cards() -> None:
    """Seat 2 holds 1 card: a transfer making 2 attack cards is refused; 1 card is fine."""
    game = position(PEREVODNOY, ["7s 7d 9s", "7c 10c Jc Qc", "Kd"], "6h", attacker=0, defender=1)
    play(game, "0 attack 7s")
    assert "1 transfer 7♣" not in legal_texts(game, 1)
    assert game.why_illegal(Transfer(1, Card.parse("7c"))) == (
        "Player 2 holds only 1 card, fewer than the 2 attack cards a transfer would give them."
    )
    game = position(PEREVODNOY, ["7s 7d 9s", "7c 10c Jc Qc", "Kd Ks"], "6h", attacker=0, defender=1)
    play(game, "0 attack 7s")
    assert "1 transfer 7♣" in legal_texts(game, 1)
    play(game, "1 transfer 7c")
    assert game.defender == 2 and game.limit == 2


def test_transfer_respects_the_first_bout_limit() -> None:
    rules = Rules(players=3, variant="perevodnoy", first_bout_limit=2)
    game = new_game(rules, HANDS, "Ah")
    play(game, "0 attack 7s", "1 transfer 7c")
    assert game.why_illegal(Transfer(2, Card.parse("7d"))) == (
        "A transfer would make 3 attack cards; the limit is 2."
    )


def test_transfer_chain_returns_to_the_first_attacker() -> None:
    game = transfer_game()
    play(game, "0 attack 7s", "1 transfer 7c", "2 transfer 7d")
    assert (game.attacker, game.defender) == (2, 0)
    assert game.throwers() == [2, 1]
    assert game.hand_size(2) == 5 and len(game.table) == 3


def test_two_player_transfer_goes_back_to_the_attacker() -> None:
    rules = Rules(variant="perevodnoy")
    game = new_game(rules, ["6h 7s 8s 9s 10s Js", "7c 6c 8c 9c 10c Jc"], "Ah")
    play(game, "0 attack 7s")
    events = play(game, "1 transfer 7c")
    assert events == [Transferred(1, Card.parse("7c"), False, 0)]
    assert (game.attacker, game.defender) == (1, 0)
    assert "0 defend 7♣ with 6♥" in legal_texts(game, 0)
    assert game.why_illegal(Take(1)) == "Only the defender, player 0, can take."


def test_transfer_by_showing_trump_keeps_the_card_and_reveals_it() -> None:
    game = transfer_game(SHOWING)
    assert Rules().transfer_by_showing_trump is False
    play(game, "0 attack 7s")
    assert "1 show 7♥" in legal_texts(game, 1)
    assert "1 show 7♣" not in legal_texts(game, 1)
    events = play(game, "1 show 7h")
    assert events == [Transferred(1, Card.parse("7h"), True, 2)]
    assert Card.parse("7h") in game.hand(1) and game.hand_size(1) == 6
    assert game.known_cards(1) == [Card.parse("7h")]
    assert [a for a, _ in game.table] == [Card.parse("7s")]
    assert (game.attacker, game.defender) == (1, 2)


def test_transfer_by_showing_trump_once_per_card_per_bout() -> None:
    """Shown 7♥ comes back to seat 1 in the same bout: it may be played, not shown again."""
    rules = Rules(variant="perevodnoy", transfer_by_showing_trump=True)
    game = new_game(rules, ["6h 7s 7d 9s 10s Js", "7c 7h 6c 8c 9c 10c"], "Ah")
    play(game, "0 attack 7s", "1 show 7h", "0 transfer 7d")
    assert game.defender == 1
    assert "1 show 7♥" not in legal_texts(game, 1)
    assert game.why_illegal(Transfer(1, Card.parse("7h"), show=True)) == (
        "7♥ has already been shown this bout; play a card to transfer again."
    )
    assert {"1 transfer 7♥", "1 transfer 7♣"} <= legal_texts(game, 1)


def test_showing_needs_the_option_and_a_trump() -> None:
    game = transfer_game()
    play(game, "0 attack 7s")
    assert game.why_illegal(Transfer(1, Card.parse("7h"), show=True)) == (
        "Transferring by showing a trump needs transfer_by_showing_trump=True."
    )
    game = transfer_game(SHOWING)
    play(game, "0 attack 7s")
    assert game.why_illegal(Transfer(1, Card.parse("7c"), show=True)) == (
        "Only the trump of rank 7 can be shown; 7♣ is no trump."
    )


def test_show_option_needs_perevodnoy() -> None:
    with pytest.raises(ValueError, match="transfer_by_showing_trump needs variant='perevodnoy'"):
        Rules(transfer_by_showing_trump=True)


def test_only_the_defender_transfers() -> None:
    game = transfer_game()
    play(game, "0 attack 7s")
    assert game.why_illegal(Transfer(2, Card.parse("7d"))) == (
        "Only the defender, player 1, can transfer."
    )
    play(game, "1 defend 7s with 7h")
    assert game.why_illegal(Transfer(1, Card.parse("7c"))) == (
        "You can transfer only before beating any card of the bout."
    )
