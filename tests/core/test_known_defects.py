"""docs/rules.md, "Mistakes earlier Durak programs made": one regression test each."""

from __future__ import annotations

import random

from durak_core import (
    Action,
    Attack,
    Card,
    Defend,
    Drew,
    Game,
    GameOver,
    Rules,
    Take,
    Transfer,
    Transferred,
)
from durak_core.bots import RandomBot

from .helpers import ALL_RULES, cards, legal_texts, new_game, play, position


def test_seat_zero_can_win() -> None:
    """Seat 0 goes out first and seat 1 is the durak: seat 0 is a winner, not "no winner"."""
    game = position(Rules(), ["9s", "8s 7c"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s", "1 take")
    assert game.is_over
    assert game.finish_order == [0]
    assert game.durak == 1 and 0 not in game.losers


def test_seat_zero_can_be_the_durak() -> None:
    """The other way round: a durak at seat 0 is a result, not a draw."""
    game = position(Rules(), ["8s 7c", "9s"], "6h", attacker=1, defender=0)
    events = play(game, "1 attack 9s", "0 take")
    assert game.durak == 0 and game.durak is not None
    assert game.losers == (0,)
    assert events[-1] == GameOver(0, (0,), (1,), "the last player holding cards")


def test_throw_in_beyond_defender_hand_refused() -> None:
    """Seat 1 holds 2 cards: a third attack card is refused, also after a take."""
    rules = Rules(players=3)
    game = position(rules, ["9s 9d", "10s Jc", "9c 8d"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s", "2 attack 9c")
    assert game.why_illegal(Attack(0, Card.parse("9d"))) == (
        "Player 1 had 2 cards when they began defending, so the bout may hold only 2 attack "
        "cards; the table has 2 already."
    )
    assert legal_texts(game, 0) == set() and legal_texts(game, 2) == set()
    play(game, "1 take")
    assert game.why_illegal(Attack(0, Card.parse("9d"))) is not None
    assert game.table == [] and game.hand_size(1) == 4


def test_cap_of_six_and_five_in_first_bout() -> None:
    """Five attack cards at most before the first discard, six afterwards."""
    game = new_game(
        Rules(players=3),
        ["6s 6c 6d 7c 7d 6h", "7s 8s 8c 8d Kc Kd", "7h 8h 9c 9d 10s 10c"],
        "Ah",
    )
    play(game, "0 attack 6s 6c 6d", "1 defend 6s with 7s", "0 attack 7c", "0 attack 7d")
    assert game.why_illegal(Attack(0, Card.parse("6h"))) is not None
    assert game.why_illegal(Attack(2, Card.parse("7h"))) is not None
    play(game, "1 defend 6c with 8c", "1 defend 6d with 8d", "1 defend 7c with Kc")
    play(game, "1 defend 7d with Kd")
    assert game.discard_size == 10 and game.limit == 6
    # After the first discard: play a six-card bout and see the seventh refused.
    rng = random.Random(0)
    seen_six = False
    for seed in range(30):
        g = Game.new(Rules(players=4, deck_size=52, first_bout_limit=None), seed=seed)
        while not g.is_over:
            assert len(g.table) <= 6
            if len(g.table) == 6:
                seen_six = True
                for p in g.throwers():
                    assert not any(isinstance(a, Attack) for a in g.legal_actions(p))
            g.apply(rng.choice(g.legal_actions()))
    assert seen_six


def test_transfer_removes_card_and_never_to_oneself() -> None:
    rules = Rules(variant="perevodnoy")
    game = new_game(rules, ["6h 7s 8s 9s 10s Js", "7c 6c 8c 9c 10c Jc"], "Ah")
    play(game, "0 attack 7s")
    events = play(game, "1 transfer 7c")
    assert Card.parse("7c") not in game.hand(1) and game.hand_size(1) == 5
    assert Card.parse("7c") in [a for a, _ in game.table]
    assert events == [Transferred(1, Card.parse("7c"), False, 0)]
    assert game.defender == 0 and game.attacker == 1
    # Three seats, seat 2 out: the only opponent is seat 0, never the transferring seat.
    three = position(
        Rules(players=3, variant="perevodnoy"),
        ["7s 9s Ks", "7c 10c Jc", ""],
        "6h",
        attacker=0,
        defender=1,
        out=[2],
    )
    play(three, "0 attack 7s")
    events = play(three, "1 transfer 7c")
    assert three.defender == 0 and events == [Transferred(1, Card.parse("7c"), False, 0)]
    for action in three.legal_actions():
        if isinstance(action, Transfer):
            assert action.player == three.defender
    assert three.why_illegal(Transfer(1, Card.parse("7d"))) is not None


def test_draw_order_attacker_first_defender_last() -> None:
    """Seat 2 attacks seat 0 with seat 1 throwing in: draws go 2, 1, 0, not seat order."""
    game = new_game(
        Rules(players=3),
        ["10s 10c Qs Ks As Ac", "9c 7d 8d 9d 10d Jd", "6h 9s Qd Kd Ad 7s"],
        "Ah",
        talon="Js Jc Qc Kc 8c",
    )
    assert (game.attacker, game.defender) == (2, 0)
    play(game, "2 attack 9s", "1 attack 9c", "0 defend 9s with 10s", "0 defend 9c with 10c")
    events = play(game, "2 pass", "1 pass")
    draws = [e for e in events if isinstance(e, Drew)]
    assert draws == [
        Drew(2, (Card.parse("Js"),)),
        Drew(1, (Card.parse("Jc"),)),
        Drew(0, tuple(cards("Qc Kc"))),
    ]


def test_all_out_at_once_is_a_draw() -> None:
    game = position(Rules(players=3), ["9s", "10s Jc", "9c"], "6h", attacker=0, defender=1)
    play(game, "0 attack 9s", "2 attack 9c", "1 defend 9s with 10s", "1 defend 9c with Jc")
    assert game.is_over
    assert game.durak is None and game.losers == ()
    assert game.end_reason == "everybody went out together"
    assert sorted(game.finish_order) == [0, 1, 2]


def test_lower_trump_cannot_beat_higher_trump() -> None:
    game = new_game(Rules(), ["6h 10h 7s 8s 9s Js", "7h Qh 6c 7c 8c 9c"], "Ah")
    play(game, "0 attack 10h")
    defences = [a for a in game.legal_actions(1) if isinstance(a, Defend)]
    assert defences == [Defend(1, Card.parse("10h"), Card.parse("Qh"))]
    assert game.why_illegal(Defend(1, Card.parse("10h"), Card.parse("7h"))) == (
        "7♥ is a lower trump than 10♥; a trump beats only a lower trump."
    )
    assert game.why_illegal(Defend(1, Card.parse("10h"), Card.parse("9c"))) == (
        "10♥ is a trump; only a higher trump beats it."
    )


def _taker(game: Game, legal: list[Action]) -> Action:
    """A stubborn policy: take whenever possible, else the first legal action."""
    for action in legal:
        if isinstance(action, Take):
            return action
    return legal[0]


def test_bot_games_always_end() -> None:
    """Random bots over a spread of every option, and stubborn takers, always finish."""
    for i, rules in enumerate(ALL_RULES[::29]):
        game = Game.new(rules, seed=i)
        bots = [RandomBot(seed=i * 10 + s) for s in range(rules.players)]
        for seat, bot in enumerate(bots):
            bot.start(seat, rules)
        actions = 0
        while not game.is_over:
            seat = next(p for p in range(rules.players) if game.legal_actions(p))
            choice = bots[seat].choose(game.observation(seat), game.legal_actions(seat))
            game.apply(choice)
            actions += 1
            assert game.bouts <= rules.bout_limit and actions < 20_000
        assert isinstance(game.durak, int | None)
    # Stubborn takers can pass the same cards round for ever (nobody draws, nobody
    # runs out): the bout_limit guard ends such a game as a draw.
    rules = Rules(players=3, bout_limit=200)
    endings = set()
    for seed in range(4):
        game = Game.new(rules, seed=seed)
        while not game.is_over:
            game.apply(_taker(game, game.legal_actions()))
            assert game.bouts <= rules.bout_limit
        endings.add(game.end_reason)
        if game.end_reason == "bout limit reached":
            assert game.durak is None and game.bouts == rules.bout_limit
    assert "bout limit reached" in endings
