"""docs/rules.md, "The end of the game": going out, the durak, the draw, teams, the bout limit."""

from __future__ import annotations

import pytest

from durak_core import Attack, Discarded, GameOver, Left, NewBout, Pass, Rules

from .helpers import legal_texts, play, position

THREE = Rules(players=3)


def test_players_go_out_when_talon_is_empty() -> None:
    """Seat 2 throws in its last card: it is out at once, safe, and plays no more."""
    game = position(THREE, ["9s Kd", "10s Jc Jd", "9c"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s")
    events = play(game, "2 attack 9c")
    assert events[-1] == Left(2, 1)
    assert game.finish_order == [2] and game.active_players == [0, 1]
    assert game.legal_actions(2) == []
    assert game.why_illegal(Pass(2)) == "Player 2 is out of the game and plays no more."
    play(game, "1 defend 9s with 10s", "1 take")
    events = play(game, "0 pass")  # seat 0 holds no nine or ten
    assert not game.is_over
    # Out seats are skipped: seat 1 took, seat 2 (on its left) is out, so seat 0 leads.
    assert events[-1] == NewBout(0, 1)


def test_defender_emptying_hand_goes_out_at_bout_end() -> None:
    game = position(THREE, ["9s 9d Kd", "10s Jd", "8c Qd"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s 9d", "1 defend 9s with 10s")
    assert game.active_players == [0, 1, 2]
    events = play(game, "1 defend 9d with Jd")  # the limit (2) is reached: the bout ends
    assert [e for e in events if isinstance(e, Left)] == [Left(1, 1)]
    # Seat 1 beat off the bout but is out: the next active seat clockwise attacks.
    assert events[-1] == NewBout(2, 0)


def test_main_attacker_leaves_mid_bout_next_attacker_throws_in() -> None:
    game = position(THREE, ["9s", "10s Jc Jd", "9c Kd"], "6h", attacker=0, defender=1)
    events = play(game, "0 attack 9s")
    assert events[-1] == Left(0, 1)
    assert game.attacker == 2  # the next attacker clockwise goes on
    assert legal_texts(game, 2) == {"2 attack 9♣"}
    play(game, "2 attack 9c", "1 defend 9s with 10s", "1 defend 9c with Jc")
    assert not game.is_over
    events = play(game, "2 pass")
    assert any(isinstance(e, Discarded) for e in events)
    assert events[-1] == NewBout(1, 2)


def test_last_player_holding_cards_is_the_durak() -> None:
    game = position(Rules(), ["9s", "8s 7c"], "6h", attacker=0, defender=1)
    events = play(game, "0 attack 9s")
    assert events[-1] == Left(0, 1)
    assert game.observation(1)["over"] is False  # decided at the bout's end
    events = play(game, "1 take")
    assert events[-1] == GameOver(1, (1,), (0,), "the last player holding cards")
    assert game.is_over and game.durak == 1 and game.losers == (1,)
    assert game.legal_actions() == []
    assert game.why_illegal(Attack(1, game.hand(1)[0])) == "The game is over."


def test_draw_when_all_run_out_in_the_same_bout() -> None:
    """The defender beats the last card with their last card; the attacker has none left."""
    game = position(Rules(), ["9s", "10s"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s")
    events = play(game, "1 defend 9s with 10s")
    assert events[-2:] == [Left(1, 2), GameOver(None, (), (0, 1), "everybody went out together")]
    assert game.is_over and game.durak is None and game.losers == ()


def test_draw_with_three_players_out_together() -> None:
    """Two attackers go out mid-bout; the defender beats both cards with their last two."""
    game = position(THREE, ["9s", "10s Jc", "9c"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s", "2 attack 9c")
    assert game.active_players == [1] and not game.is_over
    play(game, "1 defend 9s with 10s")
    assert not game.is_over
    events = play(game, "1 defend 9c with Jc")
    assert events[-1] == GameOver(None, (), (0, 2, 1), "everybody went out together")
    assert game.durak is None


def test_no_draw_when_one_player_keeps_a_card() -> None:
    game = position(Rules(), ["9s", "10s Jd"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s", "1 defend 9s with 10s")
    assert game.is_over and game.durak == 1 and game.finish_order == [0]


def test_teams_partners_sit_opposite_and_never_attack_each_other() -> None:
    rules = Rules(players=4, teams=True)
    assert [rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    game = position(rules, ["9s 9d", "10s Jc", "9c Qd", "9h Ac"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s")
    # Seat 2 (partner of the attacker) throws in; seat 3 (the defender's partner) never.
    assert game.throwers() == [0, 2]
    assert legal_texts(game, 3) == set()
    assert game.why_illegal(Attack(3, game.hand(3)[0])) == (
        "Player 1 is your partner; you may not attack them."
    )


def test_teams_defender_is_the_next_opponent() -> None:
    """With seat 1 out, seat 0's next opponent clockwise is seat 3, not partner seat 2."""
    rules = Rules(players=4, teams=True)
    game = position(rules, ["10s Kd", "", "9c Qd", "9s Jc"], "6h", attacker=3, defender=0, out=[1])
    assert game.throwers() == [3]  # seat 2 is the defender's partner
    play(game, "3 attack 9s", "0 defend 9s with 10s")
    events = play(game, "3 pass")
    assert events[-1] == NewBout(0, 3)


def test_teams_a_team_loses_when_last_holding_cards() -> None:
    rules = Rules(players=4, teams=True)
    game = position(rules, ["", "9s", "8s", "10s Jd"], "6h", attacker=2, defender=3, out=[0])
    play(game, "2 attack 8s")
    events = play(game, "3 defend 8s with 10s")
    assert events[-1] == GameOver(1, (1, 3), (0, 2), "one team still holds cards")
    assert game.losers == (1, 3)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_teams_need_four_or_six_players(players: int) -> None:
    with pytest.raises(ValueError, match=f"teams need 4 or 6 players, not {players}"):
        Rules(players=players, deck_size=52, teams=True)


def test_bout_limit_ends_endless_games_as_a_draw() -> None:
    game = position(Rules(bout_limit=2), ["9s 7d 8d", "10s Jd Qd"], "6h", attacker=0, defender=1)
    assert game.bouts == 1
    events = play(game, "0 attack 9s", "1 take", "0 pass")
    assert events[-1] == GameOver(None, (), (), "bout limit reached")
    assert game.is_over and game.durak is None
