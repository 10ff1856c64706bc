"""docs/rules.md, "A bout": leading, throwing in, the limit, take, passing, the bout's end."""

from __future__ import annotations

import pytest

from durak_core import (
    Attack,
    Card,
    Defend,
    Discarded,
    Drew,
    Game,
    NewBout,
    Pass,
    Passed,
    PickedUp,
    Rules,
    Take,
    TakeDeclared,
)
from durak_core.rules import ThrowIn

from .helpers import cards, legal_texts, new_game, play, position

# Three players, hearts trump (A♥ under the talon).  Seat 0 holds the lowest trump
# (6♥) and leads against seat 1; seat 2 is the other attacker.
THREE = ["6h 7s 9s Qd Kd Ad", "8s 10s Jc Qc Kc Ac", "8c 9c 10d Jd 7d 6d"]


def three_player_game(open_with_several: bool = True) -> Game:
    rules = Rules(players=3, open_with_several=open_with_several)
    return new_game(rules, THREE, "Ah", talon="Qs Ks As")


# ------------------------------------------------------------------ leading


def test_main_attacker_opens_with_any_card() -> None:
    game = three_player_game(open_with_several=False)
    assert legal_texts(game, 0) == {f"0 attack {c}" for c in game.hand(0)}


def test_open_with_several_leads_cards_of_one_rank_at_once() -> None:
    game = new_game(Rules(), ["6s 6c 6d 7s 7c 6h", "8s 9s 10s Js Qs Ks"], "Ah")
    leads = [a for a in game.legal_actions(0) if isinstance(a, Attack) and a.more]
    assert {frozenset(a.cards) for a in leads} == {
        frozenset(cards(t))
        for t in ("6s 6c", "6s 6d", "6c 6d", "6s 6h", "6c 6h", "6d 6h", "6s 6c 6d",
                  "6s 6c 6h", "6s 6d 6h", "6c 6d 6h", "6s 6c 6d 6h", "7s 7c")
    }  # fmt: skip
    play(game, "0 attack 6s 6c 6d")
    assert [a for a, _ in game.table] == cards("6s 6c 6d")
    assert game.hand_size(0) == 3


def test_open_with_several_off_leads_one_by_one_with_the_same_effect() -> None:
    hands = ["6s 6c 6d 7s 7c 6h", "8s 9s 10s Js Qs Ks"]
    several = new_game(Rules(), hands, "Ah")
    single = new_game(Rules(open_with_several=False), hands, "Ah")
    assert Rules().open_with_several is True
    assert all(not a.more for a in single.legal_actions(0) if isinstance(a, Attack))
    reason = single.why_illegal(Attack(0, Card.parse("6s"), (Card.parse("6c"),)))
    assert reason is not None and "open_with_several is off" in reason
    play(several, "0 attack 6s 6c")
    play(single, "0 attack 6s", "0 attack 6c")
    assert several.table == single.table
    assert several.hand(0) == single.hand(0)
    seen_by_defender = [g.observation(1) for g in (several, single)]
    for obs in seen_by_defender:
        del obs["rules"]
    assert seen_by_defender[0] == seen_by_defender[1]


def test_cards_led_together_share_one_rank() -> None:
    game = new_game(Rules(), ["6s 6c 6d 7s 7c 6h", "8s 9s 10s Js Qs Ks"], "Ah")
    assert game.why_illegal(Attack(0, Card.parse("6s"), (Card.parse("7s"),))) == (
        "Cards led together must all have the same rank."
    )


def test_multi_card_lead_only_as_the_opening() -> None:
    game = new_game(Rules(), ["6s 6c 6d 7s 7c 6h", "8s 9s 10s Js Qs 7d"], "Ah")
    play(game, "0 attack 7s", "1 defend 7s with 8s")
    assert game.why_illegal(Attack(0, Card.parse("7c"), (Card.parse("6h"),))) == (
        "Only the opening lead may be several cards; throw in one card at a time."
    )


# --------------------------------------------------------------- throwing in


def test_throw_in_only_ranks_already_on_the_table() -> None:
    """Attack and defence cards both count: after 7♠ / 8♠, sevens and eights match."""
    game = three_player_game()
    play(game, "0 attack 7s")
    assert legal_texts(game, 2) == {"2 attack 7♦"}
    play(game, "1 defend 7s with 8s")
    assert legal_texts(game, 2) == {"2 attack 7♦", "2 attack 8♣", "2 pass"}
    reason = game.why_illegal(Attack(2, Card.parse("9c")))
    assert reason == "You can only throw in a rank already on the table (7, 8); 9♣ does not match."


def test_other_attackers_throw_in_only_after_the_first_card() -> None:
    game = three_player_game()
    assert game.legal_actions(2) == []
    assert game.why_illegal(Attack(2, Card.parse("7d"))) == (
        "Player 0 leads this bout; the others may throw in after the first card."
    )
    play(game, "0 attack 7s")
    assert game.why_illegal(Attack(2, Card.parse("7d"))) is None


def four_player_game(throw_in: ThrowIn) -> Game:
    return new_game(
        Rules(players=4, throw_in=throw_in),
        ["6h 7s 8d 9d 10d Jd", "8s 9s 6c 8c 9c 10c", "7c 7d Qs Ks Qd Kd", "As Jc Qc Kc Ac Ad"],
        "Ah",
    )


def test_throw_in_all_lets_every_non_defender_throw_in() -> None:
    game = four_player_game("all")
    assert Rules().throw_in == "all"
    play(game, "0 attack 7s")
    assert game.throwers() == [0, 2, 3]
    assert legal_texts(game, 2) == {"2 attack 7♣", "2 attack 7♦"}
    play(game, "1 defend 7s with 8s")
    assert "3 pass" in legal_texts(game, 3)


def test_throw_in_neighbours_only_main_attacker_and_defenders_left() -> None:
    game = four_player_game("neighbours")
    play(game, "0 attack 7s")
    assert game.throwers() == [0, 2]
    assert legal_texts(game, 2) == {"2 attack 7♣", "2 attack 7♦"}
    play(game, "1 defend 7s with 8s")
    assert game.legal_actions(3) == []
    assert game.why_illegal(Pass(3)) == (
        "Only the main attacker and the player on the defender's left (players 0 and 2) "
        "may throw in (throw_in='neighbours')."
    )
    # Seat 3 is not waited for: once 0 and 2 pass, the bout is over.
    events = play(game, "0 pass", "2 pass")
    assert any(isinstance(e, Discarded) for e in events)


# ------------------------------------------------------------------ limits

LIMIT_HANDS = ["6s 6c 6d 7c 7d 6h", "7s 8s 8c 8d Kc Kd", "7h 8h 9c 9d 10s 10c"]


def test_first_bout_limit_is_five() -> None:
    game = new_game(Rules(players=3), LIMIT_HANDS, "Ah")
    assert Rules().first_bout_limit == 5 and game.limit == 5
    play(game, "0 attack 6s 6c 6d", "1 defend 6s with 7s", "0 attack 7c", "0 attack 7d")
    assert len(game.table) == 5
    assert game.why_illegal(Attack(0, Card.parse("6h"))) == (
        "At most 5 attack cards may be played before the first discard; the table has 5 already."
    )
    assert not any(isinstance(a, Attack) for a in game.legal_actions(0) + game.legal_actions(2))


def test_first_bout_limit_none_allows_six_and_never_seven() -> None:
    game = new_game(Rules(players=3, first_bout_limit=None), LIMIT_HANDS, "Ah")
    assert game.limit == 6
    play(game, "0 attack 6s 6c 6d", "1 defend 6s with 7s", "0 attack 7c", "0 attack 7d")
    play(game, "0 attack 6h")
    assert len(game.table) == 6
    assert game.why_illegal(Attack(2, Card.parse("7h"))) == (
        "At most 6 attack cards may be played in a bout; the table has 6 already."
    )


def test_limit_is_six_after_the_first_discard() -> None:
    game = new_game(Rules(), ["6s 7s 8s 9s 10s 6h", "Js Qs Ks As 7c 8c"], "Ah")
    assert game.limit == 5
    events = play(game, "0 attack 6s", "1 defend 6s with Js", "0 pass")
    assert any(isinstance(e, Discarded) for e in events)
    assert game.discard_size == 2
    assert (game.attacker, game.limit) == (1, 6)


@pytest.mark.parametrize("first_bout_limit", [1, 3])
def test_first_bout_limit_is_an_option(first_bout_limit: int) -> None:
    game = new_game(Rules(players=3, first_bout_limit=first_bout_limit), LIMIT_HANDS, "Ah")
    assert game.limit == first_bout_limit
    leads = [a for a in game.legal_actions(0) if isinstance(a, Attack)]
    assert max(len(a.cards) for a in leads) == first_bout_limit


def test_limit_is_the_defenders_hand_when_the_bout_began() -> None:
    """Seat 1 defends with 2 cards: the bout holds at most 2 attack cards, even after a beat."""
    game = position(Rules(), ["9s 9c 9d 6s", "10s Js"], "6h", attacker=0, defender=1)
    assert game.limit == 2
    leads = [a for a in game.legal_actions(0) if isinstance(a, Attack)]
    assert max(len(a.cards) for a in leads) == 2
    assert game.why_illegal(Attack(0, Card.parse("9s"), tuple(cards("9c 9d")))) == (
        "Player 1 had 2 cards when they began defending, so the bout may hold only 2 attack "
        "cards; the table has 0 already."
    )
    play(game, "0 attack 9s", "1 defend 9s with 10s")
    assert game.hand_size(1) == 1 and game.limit == 2
    play(game, "0 attack 9c")
    assert game.why_illegal(Attack(0, Card.parse("9d"))) is not None
    assert game.legal_actions(0) == []


# -------------------------------------------------------------- defending


def test_defender_beats_attack_cards_in_any_order() -> None:
    game = new_game(Rules(), ["6s 6c 6d 7s 7c 6h", "8s 9s 10s Js 7d 8d"], "Ah")
    play(game, "0 attack 6s 6d")
    play(game, "1 defend 6d with 7d", "1 defend 6s with 8s")
    assert game.table == [
        (Card.parse("6s"), Card.parse("8s")),
        (Card.parse("6d"), Card.parse("7d")),
    ]


def test_defence_must_name_an_unbeaten_attack_card() -> None:
    game = new_game(Rules(), ["6s 6c 6d 7s 7c 6h", "8s 9s 10s Js 7d 8d"], "Ah")
    play(game, "0 attack 6s")
    assert game.why_illegal(Defend(1, Card.parse("6c"), Card.parse("9s"))) == (
        "6♣ is not an attack card on the table."
    )
    play(game, "1 defend 6s with 8s")
    assert game.why_illegal(Defend(1, Card.parse("6s"), Card.parse("9s"))) == (
        "6♠ is already beaten by 8♠."
    )


def test_take_then_throw_ins_then_pick_up_and_skipped_turn() -> None:
    """Seat 1 takes; seats 2 and 0 still throw in; seat 1 picks all up; seat 2 attacks next."""
    game = three_player_game()
    play(game, "0 attack 7s", "1 defend 7s with 8s", "2 attack 8c")
    events = play(game, "1 take")
    assert events == [TakeDeclared(1)] and game.taking
    assert game.legal_actions(1) == []
    assert game.why_illegal(Defend(1, Card.parse("8c"), Card.parse("Jc"))) == (
        "You have declared take: you will pick up the table and beat no more cards."
    )
    assert game.why_illegal(Take(1)) == "You have already declared take."
    play(game, "2 attack 7d")  # throwing in goes on after take
    assert legal_texts(game, 0) == {"0 pass"}
    events = play(game, "0 pass")
    assert not any(isinstance(e, PickedUp) for e in events)
    events = play(game, "2 pass")
    picked = [e for e in events if isinstance(e, PickedUp)]
    assert picked == [PickedUp(1, tuple(cards("7s 8s 8c 7d")))]
    assert set(cards("7s 8s 8c 7d")) <= set(game.hand(1))
    assert set(game.known_cards(1)) == set(cards("7s 8s 8c 7d"))
    assert game.hand_size(1) == 9
    # The defender's turn is skipped: the player on their left attacks next.
    assert (game.attacker, game.defender) == (2, 0)
    assert [e for e in events if isinstance(e, NewBout)] == [NewBout(2, 0)]


def test_take_needs_an_unbeaten_attack_card() -> None:
    game = three_player_game()
    assert game.why_illegal(Take(1)) == "There is nothing on the table to take yet."
    play(game, "0 attack 7s", "1 defend 7s with 8s")
    assert game.why_illegal(Take(1)) == "Every attack card is beaten; there is nothing to take."


def test_throw_ins_after_take_respect_the_limit() -> None:
    game = new_game(Rules(players=3), LIMIT_HANDS, "Ah")
    play(game, "0 attack 6s 6c 6d", "1 defend 6s with 7s", "1 take", "0 attack 7c")
    assert game.why_illegal(Attack(2, Card.parse("9c"))) is not None
    events = play(game, "0 attack 7d")
    # The limit is reached: the defender picks up at once, nobody needs to pass.
    assert [e for e in events if isinstance(e, PickedUp)] == [
        PickedUp(1, tuple(cards("6s 7s 6c 6d 7c 7d")))
    ]
    assert game.table == [] and game.hand_size(1) == 11
    assert (game.attacker, game.defender) == (2, 0)


# ------------------------------------------------------------ bout's end


def test_bout_ends_when_all_beaten_and_every_thrower_passed() -> None:
    game = three_player_game()
    play(game, "0 attack 7s", "1 defend 7s with 8s", "0 pass")
    assert game.table and game.passed == [0]
    events = play(game, "2 pass")
    assert events == [
        Passed(2),
        Discarded(tuple(cards("7s 8s"))),
        Drew(0, (Card.parse("Qs"),)),  # the main attacker first ...
        Drew(1, (Card.parse("Ks"),)),  # ... the defender last; seat 2 needs none
        NewBout(1, 2),
    ]
    assert game.discarded == cards("7s 8s")
    assert game.table == [] and game.passed == []
    # Beaten off: the defender attacks next.
    assert (game.attacker, game.defender) == (1, 2)


def test_main_attacker_cannot_pass_before_leading_or_while_cards_are_unbeaten() -> None:
    game = three_player_game()
    assert game.why_illegal(Pass(0)) == "You lead this bout: play a card first."
    play(game, "0 attack 7s")
    assert game.why_illegal(Pass(0)) == (
        "Wait for player 1 to beat the cards or take them; pass once the table is beaten."
    )
    assert (
        game.why_illegal(Pass(1)) == "The defender cannot pass: beat the attack cards or take them."
    )


def test_thrower_without_a_matching_rank_counts_as_passed() -> None:
    """Seat 0 holds no 7 or 8: Pass is its only action and is listed as automatic."""
    game = three_player_game()
    play(game, "0 attack 7s", "1 defend 7s with 8s")
    assert game.legal_actions(0) == [Pass(0)]
    assert game.automatic_actions() == [Pass(0)]
    for action in game.automatic_actions():
        game.apply(action)
    assert game.passed == [0] and game.table


def test_limit_reached_counts_as_passed() -> None:
    """With the limit reached, beating the last card ends the bout: nobody passes."""
    game = new_game(Rules(players=3), LIMIT_HANDS, "Ah")
    play(game, "0 attack 6s 6c 6d", "1 defend 6s with 7s", "0 attack 7c", "0 attack 7d")
    assert len(game.table) == game.limit == 5
    play(game, "1 defend 6c with 8c", "1 defend 6d with 8d", "1 defend 7c with Kc")
    # Seat 2 holds 9♣ 10♣ 9♠ 10♠ ... but no more cards may come: no pass is offered.
    assert game.legal_actions(0) == [] and game.legal_actions(2) == []
    assert game.why_illegal(Pass(2)) == (
        "Wait for player 1 to beat the cards or take them; pass once the table is beaten."
    )
    events = play(game, "1 defend 7d with Kd")
    assert any(isinstance(e, Discarded) for e in events)
    assert game.passed == [] and game.table == []
    assert (game.attacker, game.defender) == (1, 2)


def test_pass_is_undone_when_the_table_changes() -> None:
    game = three_player_game()
    play(game, "0 attack 7s", "1 defend 7s with 8s", "0 pass")
    assert game.passed == [0]
    play(game, "2 attack 8c")
    assert game.passed == []
    play(game, "1 defend 8c with Qc")
    assert legal_texts(game, 0) == {"0 attack Q♦", "0 pass"}
    play(game, "0 pass")
    assert game.why_illegal(Pass(0)) == (
        "You have already passed; you may throw in again when the table changes."
    )


def test_throwing_in_stays_legal_after_a_pass() -> None:
    game = three_player_game()
    play(game, "0 attack 7s", "1 defend 7s with 8s", "2 attack 8c", "1 defend 8c with Qc")
    play(game, "0 pass")
    assert legal_texts(game, 0) == {"0 attack Q♦"}
    play(game, "0 attack Qd")
    assert game.passed == [] and game.table[-1] == (Card.parse("Qd"), None)


def test_take_undoes_passes() -> None:
    game = three_player_game()
    play(game, "0 attack 7s", "1 defend 7s with 8s", "0 pass", "2 attack 8c")
    play(game, "1 take")
    assert game.passed == []
    assert legal_texts(game, 0) == {"0 pass"}


# ------------------------------------------------------------- simultaneity


def test_every_seat_may_be_asked_what_it_may_do_at_any_moment() -> None:
    """legal_actions() answers for all seats at once, in seat order."""
    game = three_player_game()
    play(game, "0 attack 7s")
    everyone = game.legal_actions()
    assert everyone == game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(2)
    assert {a.player for a in everyone} == {1, 2}


def test_racing_actions_first_applied_wins_and_the_other_is_rechecked() -> None:
    """Seat 2's pass and seat 0's throw-in race: the throw-in lands first, the pass is refused."""
    game = three_player_game()
    play(game, "0 attack 7s", "1 defend 7s with 8s", "2 attack 8c", "1 defend 8c with Qc")
    assert (
        game.why_illegal(Pass(2)) is None and game.why_illegal(Attack(0, Card.parse("Qd"))) is None
    )
    play(game, "0 attack Qd")
    assert game.why_illegal(Pass(2)) == (
        "Wait for player 1 to beat the cards or take them; pass once the table is beaten."
    )
    # A take racing a throw-in: the take lands first and the throw-in is still legal.
    play(game, "1 take")
    assert game.why_illegal(Attack(2, Card.parse("7d"))) is None
    play(game, "2 attack 7d")
