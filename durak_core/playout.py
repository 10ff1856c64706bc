"""The greedy policy on the engine's own state, compiled: fast playouts for searches.

:mod:`durak_core.bots.greedy` chooses among action objects, which is clear but
costs most of a search's time (each playout asks it about a hundred times).
:func:`greedy_choice` makes exactly the same choice from the bitmasks of a full
game, and :func:`playout` plays a game to its end with it, asking the seats in
the order of :func:`durak_core.bots.driver.next_to_act`.  This module is
compiled with the engine (see ``durak_core/_engine.py``); ``tests/core`` checks
that it plays move for move like the greedy bot's rollout policy.

>>> from durak_core import Game, Rules
>>> game = Game.new(Rules(), seed=4)
>>> playout(game)
>>> game.is_over
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from .actions import Action, Attack, Defend, Pass, Take, Transfer
from .cards import ALL_CARDS, BEATERS, RANK_MASK, SUIT_MASK, popcount
from .endgame import DRAW, WIN, EndgameSolver, seats_left
from .game import _ATTACK, _PASS, _TAKE, _TRANSFER, Game, _defence

_QUEEN: Final = 12
_JACK: Final = 11
_TRANSFER_T: Final = Transfer
_ATTACK_T: Final = Attack


def _cost(index: int, trump: int) -> int:
    """How dear a card is to give up: its rank, plus 13 for a trump."""
    rank = index % 13 + 2
    return rank + 13 if index // 13 == trump else rank


def _cheapest(mask: int, trump: int) -> int:
    """The index of the cheapest card of ``mask`` (lowest rank, then suit), or -1."""
    if not mask:
        return -1
    trumps = SUIT_MASK[trump]
    plain = mask & ~trumps
    if plain:
        for rank in range(2, 15):
            m = plain & RANK_MASK[rank]
            if m:
                low = m & -m
                return low.bit_length() - 1
    m = mask & trumps
    low = m & -m
    return low.bit_length() - 1


def next_seat(game: Game) -> int:
    """:func:`durak_core.bots.driver.next_to_act` on the engine's state; -1 when nobody."""
    if game._over:
        return -1
    d = game._defender
    if game._legal(d):
        return d
    passed = game._passed
    for s in game._throwers():
        if not passed >> s & 1 and game._legal(s):
            return s
    return -1


def greedy_choice(game: Game, actor: int) -> Action:
    """The greedy bot's choice for ``actor`` (a full game; ``actor`` has legal actions
    and is the seat :func:`next_seat` names)."""
    legal = game._legal(actor)
    if len(legal) == 1:
        return legal[0]
    trump = game._trump
    hand = game._hand[actor]
    if actor == game._defender:
        return _defend(game, actor, legal, hand, trump)
    if game._att:
        # Throw in the cheapest plain card up to a jack (any plain card once the talon is
        # empty), else pass.
        fits = hand & game._rankmask
        plain = fits & ~SUIT_MASK[trump]
        if game._tpos < len(game._talon):
            cheap = 0
            for rank in range(2, _JACK + 1):
                cheap |= plain & RANK_MASK[rank]
        else:
            cheap = plain
        if cheap:
            return _ATTACK[actor][_cheapest(cheap, trump)]
        last = legal[-1]
        if last is _PASS[actor]:
            return last
        return _ATTACK[actor][_cheapest(fits, trump)]
    # The lead: the cheapest card; a plain one goes with its plain twins if it can.
    best = _cheapest(hand, trump)
    if best // 13 != trump and game._several:
        rank = best % 13 + 2
        twins = hand & RANK_MASK[rank] & ~SUIT_MASK[trump]
        if twins & (twins - 1) and game._limit() > 1:
            return _lead_group(legal, trump)
    return _ATTACK[actor][best]


def _lead_group(legal: list[Action], trump: int) -> Action:
    """The first of the largest plain multi-card leads of the cheapest rank (as
    :func:`durak_core.bots.greedy._lead` picks it; rare, so read off the actions)."""
    best = -1
    rank = -1
    for a in legal:
        if type(a) is _ATTACK_T:
            attack = a
            if not attack.more:
                cost = _cost(attack.card.index, trump)
                if best < 0 or cost < best:
                    best = cost
                    rank = attack.card.rank
    chosen: Action | None = None
    size = 0
    for a in legal:
        if type(a) is _ATTACK_T:
            attack = a
            more = attack.more
            if more and attack.card.rank == rank and len(more) > size:
                plain = attack.card.suit != trump
                for c in more:
                    if c.suit == trump:
                        plain = False
                if plain:
                    chosen = a
                    size = len(more)
    assert chosen is not None
    return chosen


def _defend(game: Game, p: int, legal: list[Action], hand: int, trump: int) -> Action:
    """:func:`durak_core.bots.greedy._defend` on masks."""
    transfers = 0  # cards that may transfer (not shown)
    if game._perev:
        for action in legal:
            if type(action) is _TRANSFER_T:
                transfer = action
                if transfer.show:
                    return action  # showing a trump costs nothing
                transfers |= transfer.card.bit
    # Beat every unbeaten card cheaply, the hardest first (trumps, then high ranks;
    # the table's order among equals).
    att = game._att
    defs = game._def
    # The unbeaten cards, hardest first: a stable sort by (trump, rank), descending, by
    # insertion (a table holds a few; sorted() with a key costs more than the search).
    order: list[int] = []
    keys: list[int] = []
    for i in range(len(att)):
        if defs[i] is None:
            index = att[i].index
            key = (16 if index // 13 == trump else 0) + index % 13
            j = len(keys)
            while j > 0 and keys[j - 1] < key:
                j -= 1
            order.insert(j, index)
            keys.insert(j, key)
    unbeaten_count = len(order)
    beaters = BEATERS[trump]
    used = 0
    plan_attack = -1
    plan_card = -1
    ok = True
    trumps_used = 0
    high_trump = False
    for a in order:
        c = _cheapest(hand & beaters[a] & ~used, trump)
        if c < 0:
            ok = False
            break
        used |= 1 << c
        if plan_attack < 0:
            plan_attack = a
            plan_card = c
        if c // 13 == trump and a // 13 != trump:
            trumps_used += 1
            if c % 13 + 2 >= _QUEEN:
                high_trump = True
    if transfers:
        cheapest = _cheapest(transfers, trump)
        if cheapest // 13 != trump or not ok:
            return _TRANSFER[p][cheapest]
    if not ok or plan_attack < 0:
        return _TAKE[p]
    talon = len(game._talon) - game._tpos
    if talon:
        table_cards = 2 * len(att) - unbeaten_count
        if (high_trump and table_cards <= 3) or (
            trumps_used >= 2 and table_cards <= 4 and talon >= 6
        ):
            return _TAKE[p]
    return _defence(p, ALL_CARDS[plan_attack], ALL_CARDS[plan_card])[0]


def playout(game: Game) -> None:
    """Play ``game`` (a full game, not a seat's view) to its end with the greedy policy."""
    if game._viewer is not None:
        raise ValueError("playout needs a full game; determinize a seat's view first")
    while True:
        actor = next_seat(game)
        if actor < 0:
            break
        game._apply(greedy_choice(game, actor), actor)


def outcome(game: Game) -> list[float]:
    """Reward of every seat in a finished game: 1 safe, 0 for the losers, 0.5 each in a draw."""
    if not game.losers:
        return [0.5] * game.players
    losers = game.losers
    return [0.0 if s in losers else 1.0 for s in range(game.players)]


def solved_rewards(
    solver: EndgameSolver, game: Game, seats: list[int], nodes: int
) -> list[float] | None:
    """Every seat's reward (as :func:`outcome` gives them) if ``solver`` settles the
    endgame of ``game`` between ``seats`` (:func:`durak_core.endgame.seats_left`) within
    ``nodes`` positions; None if it cannot."""
    solution = solver.solve(game, seats[0], nodes)
    if not solution.exact:
        return None
    if solution.value == DRAW:
        return [0.5] * game._n
    rewards = [1.0] * game._n
    rewards[seats[1] if solution.value == WIN else seats[0]] = 0.0
    return rewards


def unbeatable_throw(game: Game, actor: int) -> Action | None:
    """With the talon empty and two seats left, the throw-in the defender cannot beat.

    In a full game (a determinization) the attacker sees the defender's hand: the
    cheapest card of the table's ranks that nothing in it beats, while the defender
    is still defending; None when there is none (or this does not apply) and the
    greedy policy should choose.  A card the defender cannot beat makes it take, the
    attacker's best result of a bout.
    """
    if game._tpos < len(game._talon) or not game._att or game._taking:
        return None
    d = game._defender
    if actor == d or popcount(game._active) != 2:
        return None
    fits = game._hand[actor] & game._rankmask
    if not fits:
        return None
    trump = game._trump
    beaters = BEATERS[trump]
    defender = game._hand[d]
    unbeatable = 0
    m = fits
    while m:
        low = m & -m
        m ^= low
        if not defender & beaters[low.bit_length() - 1]:
            unbeatable |= low
    if not unbeatable:
        return None
    action = _ATTACK[actor][_cheapest(unbeatable, trump)]
    return action if action in game._legal(actor) else None


def finish(
    game: Game,
    solver: EndgameSolver | None = None,
    cards: int = 0,
    nodes: int = 2000,
    throw: bool = False,
) -> list[float]:
    """Play ``game`` (a full game) to its end and return every seat's reward
    (:func:`outcome`): the greedy policy, with two refinements for the rollouts of a
    search, both once the talon is empty and two seats are left.

    throw: the attacker first throws in a card the defender cannot beat
        (:func:`unbeatable_throw`).
    solver, cards: once the two seats hold at most ``cards`` cards together, the
        solver settles the rest exactly if it can within ``nodes`` positions (its
        transposition table, kept between calls, makes later solves of one search
        cheap); if it cannot, the greedy policy plays on.
    """
    if game._viewer is not None:
        raise ValueError("finish needs a full game; determinize a seat's view first")
    solve = solver is not None and cards > 0
    while True:
        if solve and game._tpos >= len(game._talon) and not game._over:
            total = 0
            for h in game._hand:
                total += popcount(h)
            if total <= cards:
                seats = seats_left(game)
                if seats:
                    assert solver is not None
                    solve = False  # one attempt per rollout
                    rewards = solved_rewards(solver, game, seats, nodes)
                    if rewards is not None:
                        return rewards
        actor = next_seat(game)
        if actor < 0:
            break
        action: Action | None = unbeatable_throw(game, actor) if throw else None
        if action is None:
            action = greedy_choice(game, actor)
        game._apply(action, actor)
    return outcome(game)


def shortlist_after(
    first: Action, legal: Sequence[Action], trump: int, width: int, shared: bool = False
) -> list[Action]:
    """At most ``width`` of ``legal`` worth comparing, when the greedy choice ``first`` is
    known: ``first``, take or pass, then the cheapest of the rest, ties in the order
    given (see :func:`durak_core.bots.greedy.shortlist`, which is this after choosing
    ``first``; an action costs its dearest card, and of two attacks as dear the one of
    more cards comes first).

    ``shared``: ``legal`` and ``first`` are a game's own legal actions, one shared object
    per value (as a search meets them below its root), so actions are compared by
    identity, which calls no Python ``__eq__``; the same list either way."""
    keep = max(width, 1)
    chosen: list[Action] = [first]
    for a in legal:
        if isinstance(a, (Take, Pass)) and (a is not first if shared else a != first):
            chosen.append(a)
    more = keep - len(chosen)
    if more <= 0:
        return chosen[:keep]
    # (cost, position): a stable sort by cost; an attack's cost is its dearest card's,
    # less a little for each card it leads beyond the first (at most five).
    ranked: list[tuple[int, int]] = []
    rest: list[Action] = []
    for a in legal:
        if among(chosen, a, shared):
            continue
        if isinstance(a, Attack):
            cost = _cost(a.card.index, trump)
            for c in a.more:
                cost = max(cost, _cost(c.index, trump))
            key = cost * 8 - len(a.more)
        elif isinstance(a, (Defend, Transfer)):
            key = _cost(a.card.index, trump) * 8
        else:
            key = 0
        ranked.append((key, len(rest)))
        rest.append(a)
    ranked.sort()
    for _, i in ranked[:more]:
        chosen.append(rest[i])
    return chosen


def among(actions: list[Action], action: Action, shared: bool) -> bool:
    """``action in actions``; by identity when ``shared``: every action is a game's own,
    one shared object per value (see :func:`shortlist_after`), and then no Python
    ``__eq__`` is called."""
    if not shared:
        return action in actions
    for a in actions:  # noqa: SIM110 (compiled, a loop; any() would make a generator)
        if a is action:
            return True
    return False


# ---------------------------------------------------------------- a learnt value

#: The cards a hand is counted by for the value model: plain cards of ranks up to 8,
#: 9-10, J-Q and K-A, then trumps up to 9, 10-Q and K-A (a 52-card deck's low ranks
#: fall in the first group of each).
_PLAIN_BINS: Final = ((2, 8), (9, 10), (11, 12), (13, 14))
_TRUMP_BINS: Final = ((2, 9), (10, 12), (13, 14))
_BIN_NAMES: Final = ("plain_low", "plain_9_10", "plain_jq", "plain_ka",
                     "trump_low", "trump_10_q", "trump_ka")


def _bin_masks(trump: int) -> list[int]:
    """The masks of the seven groups of cards (see ``_PLAIN_BINS``) for a trump suit."""
    trumps = SUIT_MASK[trump]
    masks: list[int] = []
    for low, high in _PLAIN_BINS:
        m = 0
        for rank in range(low, high + 1):
            m |= RANK_MASK[rank]
        masks.append(m & ~trumps)
    for low, high in _TRUMP_BINS:
        m = 0
        for rank in range(low, high + 1):
            m |= RANK_MASK[rank]
        masks.append(m & trumps)
    return masks


_BINS: Final[list[list[int]]] = [_bin_masks(t) for t in range(4)]


def _names() -> tuple[str, ...]:
    base = ["talon", "attacking", "attacking_talon", "my_extra", "their_extra"]
    base += ["my_" + n for n in _BIN_NAMES] + ["their_" + n for n in _BIN_NAMES]
    base += ["my_" + n + "_talon" for n in _BIN_NAMES]
    base += ["their_" + n + "_talon" for n in _BIN_NAMES]
    return ("bias", *base)


#: The names of :func:`value_features`, in order (the model file names them too).
VALUE_FEATURES: Final[tuple[str, ...]] = _names()


def between_bouts(game: Game) -> bool:
    """Whether ``game`` is where the value model scores: two seats, the table empty,
    the talon still holding cards, the game not over."""
    return (game._n == 2 and not game._att and not game._over
            and game._tpos < len(game._talon))


def value_features(game: Game, seat: int) -> list[float]:
    """What the value model reads of a full game of two seats between bouts, from
    ``seat``'s side: the talon's share of a 24-card talon, whether ``seat`` attacks
    next (+1, else -1, and that times the talon share), the cards each hand holds
    beyond six, and how many cards of each of seven groups (plain low to high,
    trumps low to high) each hand holds, alone and times the talon share (a trump
    is worth more while cards are still drawn).  Names: :data:`VALUE_FEATURES`.
    """
    other = 1 - seat
    talon = (len(game._talon) - game._tpos) / 24.0
    attacking = 1.0 if game._attacker == seat else -1.0
    mine = game._hand[seat]
    theirs = game._hand[other]
    bins = _BINS[game._trump]
    my_counts: list[float] = []
    their_counts: list[float] = []
    for m in bins:
        my_counts.append(float(popcount(mine & m)))
        their_counts.append(float(popcount(theirs & m)))
    out: list[float] = [1.0, talon, attacking, attacking * talon,
                        float(max(popcount(mine) - 6, 0)), float(max(popcount(theirs) - 6, 0))]
    out.extend(my_counts)
    out.extend(their_counts)
    for x in my_counts:
        out.append(x * talon)
    for x in their_counts:
        out.append(x * talon)
    return out


def value_of(game: Game, seat: int, weights: list[float]) -> float:
    """The model's chance that ``seat`` is not the durak: the logistic of the weighted
    sum of :func:`value_features`."""
    features = value_features(game, seat)
    z = 0.0
    for i in range(len(features)):
        z += weights[i] * features[i]
    if z < -30.0:
        return 0.0
    if z > 30.0:
        return 1.0
    return 1.0 / (1.0 + math.exp(-z))


def cut_finish(game: Game, seat: int, weights: list[float], bouts: int) -> list[float]:
    """Play ``game`` (a full game) on with the greedy policy, as :func:`playout`, but
    once ``bouts`` bouts have ended (or more, at the first empty table after that)
    while the talon still holds cards and two seats play, stop and score the position
    with the value model: every seat's reward, ``seat``'s the model's chance
    (:func:`value_of`) and the other's the rest.  A game that ends first, or whose
    talon runs out first, is played to its end and scored as :func:`outcome` does."""
    if game._viewer is not None:
        raise ValueError("cut_finish needs a full game; determinize a seat's view first")
    stop = game._bouts + bouts
    while True:
        if game._bouts >= stop and between_bouts(game):
            v = value_of(game, seat, weights)
            rewards = [1.0 - v] * game._n
            rewards[seat] = v
            return rewards
        actor = next_seat(game)
        if actor < 0:
            break
        game._apply(greedy_choice(game, actor), actor)
    return outcome(game)


def blend_finish(
    game: Game, seat: int, weights: list[float], share: float
) -> tuple[list[float], list[float]]:
    """Play ``game`` (a full game) to its end with the greedy policy, as :func:`playout`,
    noting the value model's score at the first empty table after a bout has ended
    (two seats, the talon still holding cards): the rewards ``share`` of that score and
    ``1 - share`` of the result, and the result itself (:func:`outcome`).

    The value model beside a full rollout rather than in its place (``cutoff``): the
    result says how this deal's talon order played out, the score what positions like
    the one reached give on average over the talon orders, so the blend is a less noisy
    reward at the cost of one evaluation.  A game whose talon runs out (or that ends)
    before a bout has ended is scored by its result alone."""
    if game._viewer is not None:
        raise ValueError("blend_finish needs a full game; determinize a seat's view first")
    stop = game._bouts + 1
    v = -1.0
    while True:
        if v < 0.0 and game._bouts >= stop and between_bouts(game):
            v = value_of(game, seat, weights)
        actor = next_seat(game)
        if actor < 0:
            break
        game._apply(greedy_choice(game, actor), actor)
    result = outcome(game)
    if v < 0.0:
        return result, result
    rewards = [0.0] * game._n
    for s in range(game._n):
        scored = v if s == seat else 1.0 - v
        rewards[s] = share * scored + (1.0 - share) * result[s]
    return rewards, result
