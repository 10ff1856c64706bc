"""The AI's parts: the endgame solver at the root, inference-weighted deals, the compiled
playouts, and analyse() for the coach; always legal, never reading hidden cards."""

from __future__ import annotations

import random

import pytest

from durak_core import Attack, Card, Game, Rules, Take, new_deck
from durak_core.bots import GreedyBot, IsmctsBot, next_to_act, play_game, seat_events
from durak_core.bots.inference import Inference
from durak_core.endgame import WIN, EndgameSolver, applies


def endgame(seed: int) -> Game:
    """Greedy play on deal ``seed`` until the talon is empty."""
    game = Game.new(Rules(), seed=seed)
    greedy = GreedyBot()
    while not applies(game):
        seat = next_to_act(game)
        assert seat is not None
        game.apply(greedy.choose(game.observation(seat), game.legal_actions(seat)))
    return game


def test_a_won_endgame_is_played_by_the_solver_without_a_search() -> None:
    for seed in range(3, 30):
        game = endgame(seed)
        seat = next_to_act(game)
        assert seat is not None
        if len(game.legal_actions(seat)) < 2:
            continue
        solution = EndgameSolver(game.rules, int(game.trump_suit)).solve(game, seat)
        if solution.value != WIN:
            continue
        bot = IsmctsBot(seed=1, iterations=50, endgame_nodes=500_000)
        bot.start(seat, game.rules)
        action = bot.choose(game.observation(seat), game.legal_actions(seat))
        assert bot.solved == 1 and bot.history == []
        after = game.copy()
        after.apply(action)
        assert EndgameSolver(game.rules, int(game.trump_suit)).solve(after, seat).value == WIN
        return
    pytest.fail("no won endgame with a choice among the deals tried")


def test_the_compiled_playouts_change_the_speed_not_the_moves() -> None:
    logs = []
    for compiled in (1, 0):
        bots = [IsmctsBot(seed=3, iterations=30, compiled=compiled), GreedyBot()]
        logs.append([str(a) for a in play_game(Game.new(Rules(), seed=12), bots).log])
    assert logs[0] == logs[1]


@pytest.mark.parametrize(
    "rules",
    [Rules(players=3), Rules(variant="perevodnoy", transfer_by_showing_trump=True),
     Rules(players=4, teams=True), Rules(deck_size=24)],
    ids=["3p", "perevodnoy", "teams", "24cards"],
)
def test_the_default_ai_plays_legal_moves_under_other_rules(rules: Rules) -> None:
    bots = [IsmctsBot(seed=s, iterations=8, width=3) for s in range(rules.players)]
    assert play_game(Game.new(rules, seed=2), bots).is_over  # an illegal move would raise


def _twins() -> tuple[Game, Game]:
    """Two deals that look the same from seat 0 (seat 1's hand and the talon differ)."""
    mine = ["6h", "9s", "Qc", "Kd", "10s", "7c"]
    trump = "Ah"
    taken = {Card.parse(t) for t in (*mine, trump)}
    others = [str(x) for x in new_deck(36) if x not in taken]

    def deal(hand1: list[str], rest: list[str]) -> Game:
        order: list[Card] = []
        for a, b in zip(mine, hand1, strict=True):
            order += [Card.parse(a), Card.parse(b)]
        return Game.new(Rules(), deck=[*order, Card.parse(trump), *(Card.parse(t) for t in rest)])

    return deal(others[:6], others[6:]), deal(others[-6:], others[:-6])


def test_analyse_rates_every_legal_move_and_does_not_depend_on_hidden_cards() -> None:
    one, two = _twins()
    assert one.observation(0) == two.observation(0) and one.hand(1) != two.hand(1)
    results = []
    for game in (one, two):
        bot = IsmctsBot(seed=5, iterations=60)
        bot.start(0, game.rules)
        results.append(bot.analyse(game.observation(0)))
    assert results[0] == results[1]
    estimates = results[0]
    assert {e.action for e in estimates} == set(one.legal_actions(0))
    assert all(0 <= e.safe <= 1 and 0 <= e.score <= 1 and e.samples > 0 for e in estimates)
    assert [e.score for e in estimates] == sorted((e.score for e in estimates), reverse=True)


def test_an_endgame_analysis_is_exact() -> None:
    game = endgame(5)
    seat = next_to_act(game)
    assert seat is not None
    bot = IsmctsBot(seed=1, iterations=20)
    bot.start(seat, game.rules)
    estimates = bot.analyse(game.observation(seat))
    assert estimates and all(e.exact and e.safe in (0.0, 1.0) for e in estimates)
    assert len(estimates) == len(game.legal_actions(seat))


def test_inference_deals_stay_consistent_with_the_view_and_follow_the_evidence() -> None:
    game = Game.new(Rules(), seed=7)  # hearts are trumps; seat 1 leads
    events = game.apply(Attack(1, Card.parse("9♣"))) + game.apply(Take(0))
    inference = Inference(players=2, seat=1, trump=int(game.trump_suit))
    inference.observe(seat_events(1, events, game))
    view = game.view(1)
    rng = random.Random(1)
    held = 0
    for _ in range(400):
        deal = inference.deal(view, rng)
        assert deal.public_hash() == view.public_hash()
        held += Card.parse("10♣") in deal.hand(0) or Card.parse("J♣") in deal.hand(0)
    uniform = 0
    for _ in range(400):
        deal = view.determinize(rng)
        uniform += Card.parse("10♣") in deal.hand(0) or Card.parse("J♣") in deal.hand(0)
    # A seat that took 9♣ rather than beat it seldom holds a higher club.
    assert held < 0.6 * uniform


def test_after_events_the_choice_still_does_not_depend_on_hidden_cards() -> None:
    """Seat 1 takes a card, both draw, seat 0 (the AI, reading the events) decides
    again: two deals that differ in one card of seat 1 get the same answer."""
    one, _ = _twins()
    deck = list(one.deck or ())
    # Swap a card of seat 1's hand (deck position 1) with the talon's last hidden card.
    deck[1], deck[-2] = deck[-2], deck[1]
    two = Game.new(Rules(), deck=deck)
    assert one.hand(1) != two.hand(1)
    choices = []
    observations = []
    for game in (one.copy(), two):
        bot = IsmctsBot(seed=2, iterations=60)
        bot.start(0, game.rules)
        for action in (Attack(0, Card.parse("9♠")), Take(1)):
            bot.on_events(seat_events(0, game.apply(action), game))
        while next_to_act(game) == 0 and game.table:
            (only,) = game.legal_actions(0)  # no other nine: the pass is forced
            bot.on_events(seat_events(0, game.apply(only), game))
        assert game.talon_size == 23 and not game.table
        observations.append(game.observation(0))
        choices.append(bot.choose(game.observation(0), game.legal_actions(0)))
        assert bot._inference is not None  # the events were read
    assert observations[0] == observations[1]
    assert choices[0] == choices[1]
