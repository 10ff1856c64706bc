"""GreedyCheck: a greedy seat is never caught; each rule catches what it names; the AI
stops trusting the model of an opponent that strays, and only then."""

from __future__ import annotations

import pytest

from durak_core import Card, Game, Rules
from durak_core.bots import Bot, GreedyBot, IsmctsBot, RandomBot, play_game, seat_events
from durak_core.bots.style import GreedyCheck
from durak_core.events import (
    Attacked,
    Defended,
    Discarded,
    Drew,
    Event,
    Passed,
    PickedUp,
    TakeDeclared,
)

C = Card.parse
HEARTS = C("6♥").suit  # the trump suit of the hand-made sequences below


def caught(events: list[Event], seat: int = 0, transfers: bool = False) -> int:
    """Deviations of ``seat`` that seat 1 sees in ``events`` (two seats, hearts trumps)."""
    check = GreedyCheck(players=2, seat=1, trump=int(HEARTS), transfers=transfers)
    check.observe(events)
    return check.deviations(seat)


def picked(*cards: str) -> list[Event]:
    """Seat 0 takes ``cards`` (led by seat 1): from then on they are known to be its."""
    return [
        Attacked(1, (C(cards[0]),)),
        *(Attacked(1, (C(c),)) for c in cards[1:]),
        TakeDeclared(0),
        PickedUp(0, tuple(C(c) for c in cards)),
    ]


def test_a_lead_dearer_than_a_known_card_is_caught() -> None:
    assert caught([*picked("7♣"), Discarded(()), Attacked(0, (C("9♠"),))]) == 1
    assert caught([*picked("7♣"), Attacked(0, (C("7♣"),))]) == 0
    assert caught([*picked("7♣"), Attacked(0, (C("6♠"),))]) == 0  # cheaper: fine
    # A trump costs more than every plain card.
    assert caught([*picked("7♣"), Attacked(0, (C("6♥"),))]) == 1
    # A pair led: its cheapest card counts.
    assert caught([*picked("8♣"), Attacked(0, (C("7♠"), C("7♦")))]) == 0


def test_a_defence_of_an_easier_card_or_with_a_dearer_beater_is_caught() -> None:
    known = picked("8♠", "Q♠")
    attack = [Attacked(1, (C("7♠"),))]
    assert caught([*known, *attack, Defended(0, C("7♠"), C("8♠"))]) == 0
    assert caught([*known, *attack, Defended(0, C("7♠"), C("Q♠"))]) == 1
    assert caught([*known, *attack, Defended(0, C("7♠"), C("6♥"))]) == 1  # a trump
    # Two unbeaten cards: greedy beats the harder (a trump before any plain card) first.
    both = [Attacked(1, (C("9♦"), C("9♥")))]
    assert caught([*both, Defended(0, C("9♦"), C("10♦"))]) == 1
    assert caught([*both, Defended(0, C("9♥"), C("10♥"))]) == 0
    # Unknown beaters prove nothing.
    assert caught([*attack, Defended(0, C("7♠"), C("A♠"))]) == 0
    # With transfers the defender's moves are not tested.
    assert caught([*known, *attack, Defended(0, C("7♠"), C("Q♠"))], transfers=True) == 0


def test_taking_with_a_known_plain_defence_is_caught() -> None:
    known = picked("8♠", "10♦")
    assert caught([*known, Attacked(1, (C("7♠"),)), TakeDeclared(0)]) == 1
    # One known plain beater for two cards that need one each: taking may be greedy.
    two = [Attacked(1, (C("7♠"), C("7♦")))]
    assert caught([*picked("8♠"), *two, TakeDeclared(0)]) == 0
    assert caught([*known, *two, TakeDeclared(0)]) == 1
    # Only a trump would beat it: greedy may well take.
    assert caught([*picked("6♥"), Attacked(1, (C("7♠"),)), TakeDeclared(0)]) == 0


def test_a_pass_or_a_dear_throw_in_with_a_known_cheap_card_is_caught() -> None:
    known = picked("9♣")  # seat 0 holds 9♣, a plain card up to a jack
    nines = [*known, Attacked(0, (C("9♦"),)), Defended(1, C("9♦"), C("J♦"))]
    assert caught([*nines, Passed(0)]) == 1
    assert caught([*nines, Attacked(0, (C("J♠"),))]) == 1
    assert caught([*nines, Attacked(0, (C("9♣"),))]) == 0
    sixes = [*known, Attacked(0, (C("6♦"),)), Defended(1, C("6♦"), C("7♦"))]
    assert caught([*sixes, Passed(0)]) == 0  # no 6 or 7 known
    # A trump of a table rank is no cheap throw-in: passing while holding it is greedy.
    trump = [*picked("9♥"), Attacked(0, (C("6♦"),)), Defended(1, C("6♦"), C("9♦"))]
    assert caught([*trump, Passed(0)]) == 0


def test_known_cards_are_forgotten_once_played() -> None:
    check = GreedyCheck(players=2, seat=1, trump=int(HEARTS))
    check.observe([*picked("7♣", "8♣"), Attacked(0, (C("7♣"),))])
    assert check.known(0) == C("8♣").bit
    check.observe([Drew(0, (None, C("K♥")))])  # the trump card under the talon is seen
    assert check.known(0) == C("8♣").bit | C("K♥").bit


RULES = {
    "two": Rules(),
    "three": Rules(players=3),
    "four-52": Rules(players=4, deck_size=52),
    "perevodnoy": Rules(variant="perevodnoy"),
    "one-at-a-time": Rules(open_with_several=False, first_bout_limit=6),
}


def watched(rules: Rules, bots: list[Bot], seed: int) -> list[GreedyCheck]:
    """Play one game; every seat's GreedyCheck of the others, fed its own events."""
    game = Game.new(rules, seed=seed)
    transfers = rules.variant == "perevodnoy"
    checks = [
        GreedyCheck(rules.players, s, int(game.trump_suit), transfers)
        for s in range(rules.players)
    ]

    def on_action(action: object, events: list[Event]) -> None:
        for s, check in enumerate(checks):
            check.observe(seat_events(s, events, game))

    play_game(game, bots, on_action=on_action)
    return checks


@pytest.mark.parametrize("rules", RULES.values(), ids=RULES.keys())
def test_a_greedy_seat_is_never_caught_and_a_random_one_is(rules: Rules) -> None:
    """The checks are proofs: over many games no greedy seat fails one."""
    n = rules.players
    for seed in range(40):
        checks = watched(rules, [GreedyBot() for _ in range(n)], seed)
        assert not any(check.strays() for check in checks), seed
    caught_random = 0
    for seed in range(10):
        checks = watched(rules, [RandomBot(seed=seed)] + [GreedyBot() for _ in range(n - 1)], seed)
        assert not any(checks[0].deviations(s) for s in range(1, n))
        caught_random += sum(check.deviations(0) for check in checks[1:]) > 0
    assert caught_random >= 8


def test_the_ai_keeps_the_model_for_a_greedy_opponent_and_drops_it_for_a_stray() -> None:
    for seed in range(2):
        logs = []
        for adapt in (0, 1):
            game = play_game(
                Game.new(Rules(), seed=seed),
                [IsmctsBot(seed=seed, iterations=60, adapt=adapt), GreedyBot()],
            )
            logs.append(game.log)
        assert logs[0] == logs[1]  # a greedy opponent never strays: the same game
    bot = IsmctsBot(seed=1, iterations=30, adapt=1)
    play_game(Game.new(Rules(), seed=1), [bot, GreedyBot()])
    assert bot._reply_greedy() == 0.5
    play_game(Game.new(Rules(), seed=1), [bot, RandomBot(seed=1)])
    assert bot._reply_greedy() == 0.0
    assert bot._walk.reply_greedy == 0.0
