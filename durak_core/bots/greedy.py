"""A greedy player: the cheapest card that works, trumps kept, takes when defence is dear.

The policy works on the legal actions alone (plus the trump suit, the talon
size and the table), so it is cheap enough to be the default policy of the
ISMCTS rollouts as well as a bot of its own.

>>> from durak_core import Game, Rules
>>> from durak_core.bots import GreedyBot, RandomBot, play_game
>>> game = play_game(Game.new(Rules(), seed=11), [GreedyBot(), RandomBot(seed=2)])
>>> game.is_over
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action, Attack, Defend, Pass, Take, Transfer
from ..cards import Card
from ..game import Game
from ..playout import shortlist_after
from .base import Bot

#: Added to a trump's rank so every trump costs more than every plain card.
TRUMP_PREMIUM = 13
JACK, QUEEN = 11, 12


def card_cost(card: Card, trump: int) -> int:
    """How dear a card is to give up: its rank, plus a premium for a trump."""
    return card.rank + TRUMP_PREMIUM if card.suit == trump else card.rank


def plan_defence(
    unbeaten: Sequence[Card], defends: Sequence[Defend], trump: int
) -> list[Defend] | None:
    """Beat every unbeaten card cheaply, hardest first; None if some card cannot be beaten.

    Matching the hardest attack cards first keeps a cheap beater from being
    spent on an easy card that another cheap card could have beaten.
    """
    order = sorted(unbeaten, key=lambda c: (c.suit == trump, c.rank), reverse=True)
    used: set[Card] = set()
    plan: list[Defend] = []
    for attack in order:
        best: Defend | None = None
        best_cost = 1 << 30
        for d in defends:
            if d.attack_card is attack and d.card not in used:
                cost = card_cost(d.card, trump)
                if cost < best_cost:
                    best, best_cost = d, cost
        if best is None:
            return None
        used.add(best.card)
        plan.append(best)
    return plan


def too_dear(plan: Sequence[Defend], table_cards: int, trump: int, talon: int) -> bool:
    """Whether taking the table is better than this defence.

    With an empty talon taking almost always loses, so the defence goes on.
    Otherwise a high trump (Q, K, A) spent on a plain card, or two trumps,
    are worth keeping when only a few cards would be picked up.
    """
    if talon == 0:
        return False
    trumps = [d.card for d in plan if d.card.suit == trump and d.attack_card.suit != trump]
    if any(c.rank >= QUEEN for c in trumps) and table_cards <= 3:
        return True
    return len(trumps) >= 2 and table_cards <= 4 and talon >= 6


def greedy_action(
    legal: Sequence[Action],
    trump: int,
    talon: int,
    table: Sequence[tuple[Card, Card | None]],
) -> Action:
    """The greedy choice among ``legal`` (one seat's actions, not empty)."""
    attacks: list[Attack] = []
    defends: list[Defend] = []
    transfers: list[Transfer] = []
    take: Take | None = None
    pass_: Pass | None = None
    for a in legal:
        if isinstance(a, Attack):
            attacks.append(a)
        elif isinstance(a, Defend):
            defends.append(a)
        elif isinstance(a, Transfer):
            transfers.append(a)
        elif isinstance(a, Take):
            take = a
        else:
            pass_ = a
    if defends or transfers or take is not None:
        return _defend(defends, transfers, take, legal, trump, talon, table)
    if attacks:
        if not table:
            return _lead(attacks, trump)
        return _throw_in(attacks, pass_, trump, talon)
    return pass_ if pass_ is not None else legal[0]


def rollout_action(game: Game, actor: int, legal: Sequence[Action], trump: int) -> Action:
    """:func:`greedy_action` for searches on a full game, made cheaper.

    Only the defender needs the table; an attacker asked by
    :func:`durak_core.bots.next_to_act` leads when no Pass is offered and
    throws in (or passes) otherwise, so building the table is skipped.
    """
    if actor == game.defender:
        return greedy_action(legal, trump, game.talon_size, game.table)
    last = legal[-1]
    if isinstance(last, Pass):
        attacks = [a for a in legal if isinstance(a, Attack)]
        if not attacks:
            return last
        return _throw_in(attacks, last, trump, game.talon_size)
    attacks = [a for a in legal if isinstance(a, Attack)]
    if not attacks:
        return last
    return _lead(attacks, trump)


def _defend(
    defends: list[Defend],
    transfers: list[Transfer],
    take: Take | None,
    legal: Sequence[Action],
    trump: int,
    talon: int,
    table: Sequence[tuple[Card, Card | None]],
) -> Action:
    for t in transfers:
        if t.show:  # showing a trump costs nothing
            return t
    unbeaten = [a for a, d in table if d is None]
    plan = plan_defence(unbeaten, defends, trump)
    if transfers:
        cheapest = min(transfers, key=lambda t: card_cost(t.card, trump))
        if cheapest.card.suit != trump or plan is None:
            return cheapest
    if plan is None or not plan:
        return take if take is not None else legal[0]
    table_cards = sum(1 if d is None else 2 for _, d in table)
    if take is not None and too_dear(plan, table_cards, trump, talon):
        return take
    return plan[0]


def _lead(attacks: list[Attack], trump: int) -> Action:
    singles = [a for a in attacks if not a.more]
    best = min(singles or attacks, key=lambda a: card_cost(a.card, trump))
    if best.card.suit != trump:
        rank = best.card.rank
        groups = [
            a
            for a in attacks
            if a.more and a.card.rank == rank and all(c.suit != trump for c in a.cards)
        ]
        if groups:
            return max(groups, key=lambda a: len(a.more))
    return best


def _throw_in(attacks: list[Attack], pass_: Pass | None, trump: int, talon: int) -> Action:
    cheap = [a for a in attacks if a.card.suit != trump and (talon == 0 or a.card.rank <= JACK)]
    if cheap:
        return min(cheap, key=lambda a: card_cost(a.card, trump))
    if pass_ is not None:
        return pass_
    return min(attacks, key=lambda a: card_cost(a.card, trump))


def shortlist(
    legal: Sequence[Action],
    trump: int,
    talon: int,
    table: Sequence[tuple[Card, Card | None]],
    width: int,
) -> list[Action]:
    """At most ``width`` actions worth comparing: the greedy choice, take or pass, then
    the cheapest of the rest.

    A search with a small budget learns more by comparing a few sensible
    moves on many deals than every move on a few; the expensive ones (a
    high trump on a six, leading an ace) rarely beat the cheap ones.
    The rest is ranked by cost: an action's dearest card (:func:`card_cost`), and of
    two attacks as dear the one of more cards first, ties in the order given
    (:func:`durak_core.playout.shortlist_after`, compiled with the engine, does it).
    """
    return shortlist_after(greedy_action(legal, trump, talon, table), legal, trump, width)


def table_of(observation: dict[str, Any]) -> list[tuple[Card, Card | None]]:
    """The table of an observation as cards."""
    return [
        (Card.parse(a), None if d is None else Card.parse(d)) for a, d in observation["table"]
    ]


class GreedyBot(Bot):
    """Plays :func:`greedy_action`; deterministic (the seed is accepted and unused)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        trump = Card.parse(observation["trump_card"]).suit
        return greedy_action(legal, trump, int(observation["talon"]), table_of(observation))
