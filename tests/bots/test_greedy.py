"""The greedy bot: cheapest card that works, trumps kept, takes when defence is too dear."""

from __future__ import annotations

import random

import pytest

from durak_core import Attack, Card, Defend, Game, Pass, Rules, Suit, Take, Transfer
from durak_core.bots import GreedyBot, RandomBot, greedy_action, play_game
from durak_core.bots.greedy import card_cost, plan_defence, shortlist
from durak_core.playout import greedy_choice, shortlist_after

HEARTS = int(Suit.HEARTS)  # trump in these tests


def c(text: str) -> Card:
    return Card.parse(text)


def test_every_trump_costs_more_than_every_plain_card():
    assert card_cost(c("6h"), HEARTS) > card_cost(c("As"), HEARTS)
    assert card_cost(c("7h"), HEARTS) > card_cost(c("6h"), HEARTS)


def test_defends_with_the_cheapest_card_that_beats():
    legal = [Defend(0, c("7s"), c("As")), Defend(0, c("7s"), c("9s")),
             Defend(0, c("7s"), c("6h")), Take(0)]
    assert greedy_action(legal, HEARTS, 20, [(c("7s"), None)]) == Defend(0, c("7s"), c("9s"))


def test_a_low_trump_is_spent_when_nothing_else_beats():
    legal = [Defend(0, c("10s"), c("6h")), Take(0)]
    assert greedy_action(legal, HEARTS, 20, [(c("10s"), None)]) == legal[0]


def test_takes_rather_than_spend_a_high_trump_on_a_plain_card_early():
    legal = [Defend(0, c("10s"), c("Qh")), Take(0)]
    assert greedy_action(legal, HEARTS, 20, [(c("10s"), None)]) == Take(0)


def test_with_the_talon_empty_it_beats_whatever_it_costs():
    legal = [Defend(0, c("10s"), c("Qh")), Take(0)]
    assert greedy_action(legal, HEARTS, 0, [(c("10s"), None)]) == legal[0]


def test_takes_when_some_attack_card_cannot_be_beaten():
    table = [(c("7s"), None), (c("7c"), None)]
    legal = [Defend(0, c("7s"), c("8s")), Take(0)]
    assert greedy_action(legal, HEARTS, 10, table) == Take(0)


def test_plan_beats_the_hardest_card_first_and_fails_if_one_is_left():
    # The hand holds 9s (beats 7s only) and Js (beats both): the 10s is planned first and
    # gets the Js, the 9s is left for the 7s.
    table = [c("7s"), c("10s")]
    defends = [Defend(0, c("7s"), c("9s")), Defend(0, c("7s"), c("Js")),
               Defend(0, c("10s"), c("Js"))]
    plan = plan_defence(table, defends, HEARTS)
    assert plan == [Defend(0, c("10s"), c("Js")), Defend(0, c("7s"), c("9s"))]
    assert plan_defence([c("7s"), c("10s")], defends[:1], HEARTS) is None


def test_leads_the_lowest_plain_card():
    legal = [Attack(0, c("6h")), Attack(0, c("Kc")), Attack(0, c("7s"))]
    assert greedy_action(legal, HEARTS, 20, []) == Attack(0, c("7s"))


def test_leads_every_plain_card_of_its_lowest_rank_at_once():
    legal = [Attack(0, c("7s")), Attack(0, c("7c")), Attack(0, c("9d")),
             Attack(0, c("7s"), (c("7c"),))]
    assert greedy_action(legal, HEARTS, 20, []) == Attack(0, c("7c"), (c("7s"),))


def test_throws_in_cheap_plain_cards_but_keeps_trumps():
    table = [(c("8s"), c("9s"))]
    assert greedy_action([Attack(0, c("8d")), Attack(0, c("8h")), Pass(0)], HEARTS, 10,
                         table) == Attack(0, c("8d"))
    assert greedy_action([Attack(0, c("8h")), Pass(0)], HEARTS, 10, table) == Pass(0)


def test_keeps_high_cards_while_the_talon_lasts_and_sheds_them_after():
    table = [(c("Qs"), c("Ks"))]
    legal = [Attack(0, c("Qd")), Pass(0)]
    assert greedy_action(legal, HEARTS, 10, table) == Pass(0)
    assert greedy_action(legal, HEARTS, 0, table) == Attack(0, c("Qd"))


def test_transfers_with_a_plain_card_in_perevodnoy():
    legal = [Defend(0, c("7s"), c("9s")), Transfer(0, c("7d")), Transfer(0, c("7h")), Take(0)]
    assert greedy_action(legal, HEARTS, 20, [(c("7s"), None)]) == Transfer(0, c("7d"))


def test_showing_a_trump_to_transfer_is_free_and_preferred():
    legal = [Defend(0, c("7s"), c("9s")), Transfer(0, c("7h"), show=True), Take(0)]
    assert greedy_action(legal, HEARTS, 20, [(c("7s"), None)]) == legal[1]


@pytest.mark.parametrize("seed", range(5))
def test_the_bot_reads_its_observation_like_the_policy(seed):
    game = Game.new(Rules(), seed=seed)
    bot = GreedyBot()
    seat = game.attacker
    bot.start(seat, game.rules)
    legal = game.legal_actions(seat)
    expected = greedy_action(legal, int(game.trump_suit), game.talon_size, game.table)
    assert bot.choose(game.observation(seat), legal) == expected


def test_the_shortlist_keeps_greedy_take_and_the_cheapest_moves():
    table = [(c("7s"), None)]
    legal = [Defend(0, c("7s"), c("As")), Defend(0, c("7s"), c("Ah")), Defend(0, c("7s"), c("8s")),
             Defend(0, c("7s"), c("Qs")), Defend(0, c("7s"), c("6h")), Take(0)]
    short = shortlist(legal, HEARTS, 20, table, 4)
    assert short == [Defend(0, c("7s"), c("8s")), Take(0), Defend(0, c("7s"), c("Qs")),
                     Defend(0, c("7s"), c("As"))]
    assert shortlist(legal, HEARTS, 20, table, 1) == [greedy_action(legal, HEARTS, 20, table)]
    assert sorted(map(str, shortlist(legal, HEARTS, 20, table, 10))) == sorted(map(str, legal))


def _action_cost(action, trump):
    """The shortlist's order, written plainly: an action's dearest card, then the more
    cards an attack leads the sooner."""
    if isinstance(action, Attack):
        return (max(card_cost(c, trump) for c in action.cards), -len(action.more))
    if isinstance(action, (Defend, Transfer)):
        return (card_cost(action.card, trump), 0)
    return (0, 0)


def test_the_shortlist_is_greedy_take_or_pass_then_the_rest_by_cost_at_every_width():
    """Against a plain sort, on the positions of seeded games of 2-4 seats (the search
    builds it from the compiled policy's choice: ``shortlist_after``)."""
    checked = 0
    for seed in range(12):
        game = Game.new(Rules(players=2 + seed % 3), seed=seed)
        rng = random.Random(seed)
        trump = int(game.trump_suit)

        def check(action, events, game=game, trump=trump):
            nonlocal checked
            for seat in range(game.players):
                legal = game.legal_actions(seat)
                if len(legal) < 2:
                    continue
                first = greedy_action(legal, trump, game.talon_size, game.table)
                assert greedy_choice(game, seat) == first
                top = [first] + [a for a in legal if isinstance(a, (Take, Pass)) and a != first]
                rest = sorted((a for a in legal if a not in top),
                              key=lambda a: _action_cost(a, trump))
                for width in range(1, len(legal) + 2):
                    expected = (top + rest)[:width]
                    assert shortlist(legal, trump, game.talon_size, game.table, width) == expected
                    assert shortlist_after(first, legal, trump, width) == expected
                checked += 1

        play_game(game, [RandomBot(seed=rng.randrange(1 << 30)) for _ in range(game.players)],
                  on_action=check)
    assert checked > 300
