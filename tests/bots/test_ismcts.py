"""ISMCTS: legal, reproducible, budgeted, and blind to cards its seat cannot see."""

from __future__ import annotations

import pytest

from durak_core import Card, Game, Rules, new_deck
from durak_core.actions import Pass, Take
from durak_core.bots import GreedyBot, IsmctsBot, RandomBot, make_bot, play_game
from durak_core.bots.ismcts import outcome


def test_same_seed_same_iterations_same_game():
    logs = []
    for _ in range(2):
        bots = [IsmctsBot(seed=4, iterations=20), GreedyBot()]
        logs.append([str(a) for a in play_game(Game.new(Rules(), seed=8), bots).log])
        # Paired rounds (one rollout per candidate, at most width=3) are never cut short.
        assert bots[0].history and all(20 <= n < 23 for n in bots[0].history)
    assert logs[0] == logs[1]


def test_without_pairing_the_iteration_budget_is_exact():
    bot = IsmctsBot(seed=4, iterations=20, paired=0)
    play_game(Game.new(Rules(), seed=8), [bot, GreedyBot()])
    assert bot.history and set(bot.history) == {20}


def test_the_time_budget_reads_the_injected_clock():
    ticks = iter(range(10**9))

    def clock() -> float:
        return next(ticks) / 1024  # exact binary fractions: no rounding at the deadline

    # solver=0: an endgame solve would read the same clock before the search.
    bot = IsmctsBot(seed=1, ms=1000 * 5 / 1024, paired=0, solver=0, clock=clock)
    play_game(Game.new(Rules(), seed=3), [bot, RandomBot(2)])
    # One tick when the deadline is set, one before each iteration after the first:
    # iterations run at ticks 0 (unchecked), 1, 2, 3, 4; tick 5 reaches the deadline.
    assert bot.history and set(bot.history) == {5}


def test_both_budgets_stop_at_whichever_comes_first():
    bot = IsmctsBot(seed=1, ms=10_000, iterations=7, paired=0)
    play_game(Game.new(Rules(), seed=5), [bot, GreedyBot()])
    assert set(bot.history) == {7}


@pytest.mark.parametrize(
    "rules",
    [Rules(players=3), Rules(variant="perevodnoy"), Rules(deck_size=24),
     Rules(players=4, teams=True), Rules(players=3, throw_in="neighbours"),
     Rules(variant="perevodnoy", transfer_by_showing_trump=True, players=3)],
    ids=["3p", "perevodnoy", "24cards", "teams", "neighbours", "show-trump"],
)
def test_plays_legal_moves_under_every_rule_option(rules):
    bots = [IsmctsBot(seed=s, iterations=4, width=3) for s in range(rules.players)]
    game = play_game(Game.new(rules, seed=6), bots)  # an illegal move would raise
    assert game.is_over
    assert all(b.history for b in bots)


def _deck(hand0: list[str], hand1: list[str], trump: str, rest: list[str]) -> list[Card]:
    deck: list[Card] = []
    for a, b in zip(hand0, hand1, strict=True):
        deck += [Card.parse(a), Card.parse(b)]
    return [*deck, Card.parse(trump), *(Card.parse(t) for t in rest)]


def test_the_choice_does_not_depend_on_cards_the_seat_cannot_see():
    """Two deals that look the same from seat 0 (other hand and talon differ) get one answer."""
    mine = ["6h", "9s", "Qc", "Kd", "10s", "7c"]
    trump = "Ah"
    taken = {Card.parse(t) for t in (*mine, trump)}
    others = [str(x) for x in new_deck(36) if x not in taken]
    assert len(others) == 29
    one = Game.new(Rules(), deck=_deck(mine, others[:6], trump, others[6:]))
    two = Game.new(Rules(), deck=_deck(mine, others[-6:], trump, others[:-6]))
    assert one.attacker == two.attacker == 0  # 6♥ is the lowest trump
    assert one.hand(1) != two.hand(1)
    obs = one.observation(0)
    assert obs == two.observation(0)
    choices = []
    for game in (one, two):
        bot = IsmctsBot(seed=11, iterations=60)
        bot.start(0, game.rules)
        choices.append(bot.choose(game.observation(0), game.legal_actions(0)))
    assert choices[0] == choices[1]
    assert choices[0] in one.legal_actions(0)


def test_a_single_legal_action_is_returned_without_search():
    game = Game.new(Rules(), seed=1)
    bot = IsmctsBot(seed=1, iterations=10)
    legal = game.legal_actions(game.attacker)[:1]
    assert bot.choose(game.observation(game.attacker), legal) == legal[0]
    assert bot.history == []


def test_outcome_rewards_safe_seats_and_splits_a_draw():
    game = play_game(Game.new(Rules(players=3), seed=2), [GreedyBot() for _ in range(3)])
    rewards = outcome(game)
    if game.losers:
        assert [r == 0.0 for r in rewards] == [s in game.losers for s in range(3)]
    else:
        assert rewards == [0.5, 0.5, 0.5]


def test_make_bot_passes_options_and_refuses_bad_ones():
    spec = "ismcts?iterations=20&c=0.5&epsilon=0.1&width=3&paired=0&depth=2&model=1"
    bot = make_bot(spec, seed=3)
    assert isinstance(bot, IsmctsBot)
    config = bot.config
    assert (bot.iterations, config.c, config.epsilon, bot.ms) == (20, 0.5, 0.1, None)
    assert (config.width, config.paired, config.depth, config.model) == (3, False, 2, True)
    assert make_bot("ismcts").ms == 100  # neither budget: 100 ms
    for bad in ("ismcts?iterations=0", "ismcts?ms=0", "ismcts?epsilon=2", "ismcts?width=-1",
                "ismcts?depth=-2", "ismcts?depth", "ismcts?bogus=1", "nosuchbot"):
        with pytest.raises(ValueError):
            make_bot(bad)


def _grow(bot: IsmctsBot, rounds: int = 12, deal: int | None = None, vary: bool = False):
    """Run paired rounds by hand on one position and return the root of the tree.

    deal: every round on the one determinization this seed draws (otherwise a new deal
    each round); vary: each round's rollouts with randomness of their own."""
    import random

    from durak_core.tree import Lazy, Node

    game = Game.new(Rules(), seed=9)
    seat = game.attacker
    view = Game.from_observation(game.observation(seat))
    legal = game.legal_actions(seat)[:3]
    root = Node()
    rng = random.Random(0 if deal is None else deal)
    fixed = None if deal is None else view.determinize(rng)
    for round_ in range(rounds):
        dealt = fixed if fixed is not None else view.determinize(rng)
        for action in legal:
            bot._iterate(root, dealt.copy(), seat, legal, action, Lazy(round_ if vary else 1))
    return root


def test_depth_one_is_flat_monte_carlo_and_no_limit_grows_a_tree():
    flat = _grow(IsmctsBot(seed=1, iterations=1, depth=1))
    assert flat.children and all(not child.children for child in flat.children.values())
    assert all(child.visits == 12 for child in flat.children.values())
    deep = _grow(IsmctsBot(seed=1, iterations=1))
    assert any(child.children for child in deep.children.values())


def test_the_opponent_model_keeps_opponent_moves_out_of_the_tree():
    """With model=1 (and replies=0) the defender's replies are played by the greedy
    policy, not searched: the tree under each root action holds the bot's own next
    decisions only."""
    root = _grow(IsmctsBot(seed=1, iterations=1, model=1, replies=0), rounds=30)
    seat = Game.new(Rules(), seed=9).attacker

    def players(node):
        for action, child in node.children.items():
            yield action.player
            yield from players(child)

    assert set(players(root)) == {seat}
    searched = _grow(IsmctsBot(seed=1, iterations=1, model=0), rounds=30)
    assert len(set(players(searched))) == 2


def test_replies_searches_the_opponents_first_reply_only():
    """replies=1 under the model: the defender's answer to the root action is in the
    tree, its later decisions are the greedy policy's (one opponent level on any line)."""
    root = _grow(IsmctsBot(seed=1, iterations=1, model=1, replies=1), rounds=40)
    seat = Game.new(Rules(), seed=9).attacker

    def opponent_levels(node, above=0):
        for action, child in node.children.items():
            here = above + (action.player != seat)
            yield here
            yield from opponent_levels(child, here)

    levels = list(opponent_levels(root))
    assert max(levels) == 1
    none = _grow(IsmctsBot(seed=1, iterations=1, model=1, replies=0), rounds=40)
    assert max(opponent_levels(none)) == 0


def test_reply_width_searches_only_the_replies_of_the_greedy_shortlist():
    """replies=2 with reply_width=2, on one deal: every searched opponent decision in
    the tree holds at most two replies, the greedy shortlist's (the greedy choice
    first, then take or pass or the cheapest other); without the limit some holds
    more.  (Over many deals a node collects the shortlists of different hands.)"""
    seat = Game.new(Rules(), seed=9).attacker

    def grow(bot):
        return _grow(bot, rounds=40, deal=3)

    def opponent_nodes(node, line):
        for action, child in node.children.items():
            replies = [a for a in child.children if a.player != seat]
            if replies:
                yield (*line, action), replies
            yield from opponent_nodes(child, (*line, action))

    narrow = dict(opponent_nodes(grow(IsmctsBot(seed=1, iterations=1, replies=2,
                                                reply_width=2, reply_greedy=0)), ()))
    wide = dict(opponent_nodes(grow(IsmctsBot(seed=1, iterations=1, replies=2, reply_width=0,
                                              reply_greedy=0)), ()))
    assert narrow and max(len(r) for r in narrow.values()) <= 2
    assert max(len(r) for r in wide.values()) > 2
    both = [line for line in narrow if line in wide and len(wide[line]) > 2]
    assert both
    for line in both:
        # The greedy choice is expanded first in either tree; take or pass, when the
        # opponent may, is the shortlist's second.
        assert narrow[line][0] == wide[line][0]
        if any(isinstance(a, (Take, Pass)) for a in wide[line]):
            assert isinstance(narrow[line][1], (Take, Pass))


def test_reply_greedy_plays_the_model_reply_on_that_share_of_the_iterations():
    """replies=1, on one deal: with reply_greedy=1 the defender's searched decision
    always takes the greedy reply (one reply under each root action); with 0.5 the
    greedy reply gets a larger share of the visits than by search alone, and other
    replies are still searched."""
    seat = Game.new(Rules(), seed=9).attacker

    def grow(bot):
        return _grow(bot, rounds=60, deal=3, vary=True)

    def greedy_share(root):
        """Visits of the first (greedy) reply over all replies' visits, per root action."""
        shares = []
        for child in root.children.values():
            replies = [r for a, r in child.children.items() if a.player != seat]
            if replies:
                shares.append(replies[0].visits / sum(r.visits for r in replies))
        return shares

    always = grow(IsmctsBot(seed=1, iterations=1, replies=1, reply_width=0, reply_greedy=1))
    for child in always.children.values():
        replies = [r for a, r in child.children.items() if a.player != seat]
        assert len(replies) == 1 and replies[0].visits == child.visits
    half = greedy_share(grow(IsmctsBot(seed=1, iterations=1, replies=1, reply_width=0,
                                       reply_greedy=0.5)))
    searched = greedy_share(grow(IsmctsBot(seed=1, iterations=1, replies=1, reply_width=0,
                                           reply_greedy=0)))
    assert sum(half) / len(half) > sum(searched) / len(searched)
    assert min(half) < 1


def test_widen_expands_the_bots_own_decisions_only_as_their_visits_grow():
    """widen=k, on one deal: below the root, a node of the bot's own decision holds at
    most 1 + int(k * sqrt(visits)) of the bot's actions (the greedy one first); without
    it some such node tries more than that."""
    import math

    seat = Game.new(Rules(), seed=9).attacker

    def own_nodes(node):
        for child in node.children.values():
            mine = [a for a in child.children if a.player == seat]
            if mine:
                yield child.visits, len(mine)
            yield from own_nodes(child)

    def grow(bot):
        return _grow(bot, rounds=80, deal=3, vary=True)

    narrow = list(own_nodes(grow(IsmctsBot(seed=1, iterations=1, widen=0.5))))
    assert narrow and all(n <= 1 + int(0.5 * math.sqrt(v)) for v, n in narrow)
    assert any(n > 1 for _, n in narrow)
    wide = list(own_nodes(grow(IsmctsBot(seed=1, iterations=1))))
    assert any(n > 1 + int(0.5 * math.sqrt(v)) for v, n in wide)


def test_halving_spends_the_budget_on_the_two_best_root_actions():
    """Five root actions, 300 rollouts in three phases: all five on the first 100,
    the best three on the next, the best two on the last; the choice is one of those."""
    game = Game.new(Rules(), seed=9)
    seat = game.attacker
    legal = game.legal_actions(seat)
    assert len(legal) > 5

    bot = IsmctsBot(seed=1, iterations=300, halving=1, width=5)
    bot.start(seat, game.rules)
    choice = bot.choose(game.observation(seat), legal)
    root = bot.last_root
    assert root is not None
    visits = sorted((child.visits for child in root.children.values()), reverse=True)
    # 20 rounds of five (100), 34 of three (202), 49 of two (300).
    assert visits == [20 + 34 + 49, 20 + 34 + 49, 20 + 34, 20, 20]
    assert bot.history == [300]
    assert root.children[choice].visits == visits[0]
    # The coach wants an estimate of every move: no halving there.
    estimates = bot.analyse(game.observation(seat), legal[:5])
    assert len({e.samples for e in estimates}) == 1


def test_cpu_time_budget_reads_the_process_clock():
    import time

    assert IsmctsBot(ms=50, cpu=1)._clock is time.process_time
    assert IsmctsBot(ms=50)._clock is time.perf_counter
    for bad in ("ismcts?cpu=2", "ismcts?halving=2", "ismcts?replies=-1",
                "ismcts?reply_width=-2", "ismcts?reply_greedy=1.5", "ismcts?tail=-1",
                "ismcts?tail_nodes=0", "ismcts?throw=2", "ismcts?widen=-1"):
        with pytest.raises(ValueError, match=bad.split("?")[1].split("=")[0]):
            make_bot(bad)


def test_refined_rollouts_play_legal_reproducible_games():
    """``tail`` and ``throw`` (the rollouts' endgame refinements): legal moves, the same
    game from the same seed, and rollouts that reach the solver near the end."""
    logs = []
    for _ in range(2):
        bot = IsmctsBot(seed=2, iterations=60, tail=8, throw=1, solver=0)
        game = play_game(Game.new(Rules(), seed=4), [bot, GreedyBot()])
        logs.append([str(a) for a in game.log])
        # solver=0: the bot never solves its own position, so the solver ran in rollouts.
        assert bot._endgame is not None and bot._endgame.nodes
    assert logs[0] == logs[1]
    for rules in (Rules(players=3), Rules(variant="perevodnoy")):
        bots = [IsmctsBot(seed=s, iterations=10, tail=6, throw=1) for s in range(rules.players)]
        assert play_game(Game.new(rules, seed=6), bots).is_over


def test_the_last_search_root_holds_the_compared_actions_and_every_rollout():
    from durak_core.bots.ismcts import tree_size

    game = Game.new(Rules(), seed=2)
    seat = game.attacker
    legal = game.legal_actions(seat)
    bot = IsmctsBot(seed=1, iterations=60, width=3)
    assert bot.last_root is None
    bot.start(seat, game.rules)
    choice = bot.choose(game.observation(seat), legal)
    root = bot.last_root
    assert root is not None
    assert choice in root.children and len(root.children) == 3 < len(legal)
    # Paired: every compared action got every deal, and the visits add up to the rollouts.
    assert {child.visits for child in root.children.values()} == {bot.history[-1] // 3}
    assert sum(child.visits for child in root.children.values()) == bot.history[-1]
    nodes, depth = tree_size(root)
    assert nodes >= len(root.children) and depth >= 1
    # One forced action: no search, and no stale root from the last one.
    bot.choose(game.observation(seat), legal[:1])
    assert bot.last_root is None


def test_tree_size_counts_nodes_and_the_longest_line():
    from durak_core.bots.ismcts import tree_size
    from durak_core.tree import Node

    root, a, b, c = Node(), Node(), Node(), Node()
    root.children = {Take(1): a, Pass(0): b}
    a.children = {Pass(0): c}
    assert tree_size(root) == (3, 2)
    assert tree_size(c) == (0, 0)
