"""What the opponents' play reveals about their hidden cards, and deals that use it.

A uniform determinization deals every unseen card to every hidden place
alike.  But play leaks information: a seat that took rather than beat a low
card probably could not beat it; a seat that passed holds few cards of the
ranks on the table; a seat that led or beat with a card probably had no
cheaper one.  :class:`Inference` turns the public events of a game into a
*weight* per seat and card (1: nothing learnt; lower: the seat's play makes
it unlikely that it holds the card), and :meth:`Inference.deal` deals a
seat's view with those weights: each seat's hidden cards are drawn by
weighted sampling without replacement, the talon gets the rest in random
order.

The evidence is soft, never a hard rule: a person may take a card they could
beat, or keep a card they could throw in.  The weights fade as a seat draws
new cards, which the evidence says nothing about.

>>> from durak_core import Attack, Card, Game, Rules, Take
>>> from durak_core.bots import seat_events
>>> game = Game.new(Rules(), seed=7)        # hearts are trumps
>>> events = game.apply(Attack(1, Card.parse("9♣"))) + game.apply(Take(0))
>>> inference = Inference(players=2, seat=1, trump=int(game.trump_suit))
>>> inference.observe(seat_events(1, events, game))
>>> round(inference.weight(0, Card.parse("10♣")), 2), inference.weight(0, Card.parse("6♠"))
(0.35, 1.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from ..cards import BEATERS, JACK, Card
from ..events import (
    Attacked,
    Defended,
    Discarded,
    Drew,
    Event,
    Passed,
    PickedUp,
    TakeDeclared,
    Transferred,
)
from ..game import Game

#: How much a piece of evidence lowers a card's weight (the weight is multiplied by it).
TOOK_PLAIN = 0.35  #: took: a higher card of the attack card's suit (a cheap beater)
TOOK_TRUMP = 0.75  #: took: a trump that would have beaten it (people keep trumps)
PASSED_PLAIN = 0.3  #: passed: a plain card up to a jack of a rank on the table
PASSED_DEAR = 0.8  #: passed: a trump or a high card of such a rank (often kept on purpose)
CHEAPER = 0.6  #: led or beat with a card: a cheaper card that would have done
#: Weights never go below this: nothing is ruled out.
FLOOR = 0.02
#: Hand size after drawing, for fading the evidence when a seat draws.
HAND = 6


def _cost(index: int, trump: int) -> int:
    """How dear a card is: its rank, plus 13 for a trump (as the greedy bot counts)."""
    return index % 13 + 2 + (13 if index // 13 == trump else 0)


class Inference:
    """Card weights per seat, learnt from the events one seat sees (see the module)."""

    def __init__(self, players: int, seat: int, trump: int) -> None:
        self.players = players
        self.seat = seat
        self.trump = trump
        self._w = [[1.0] * 52 for _ in range(players)]
        self._table: list[list[Card | None]] = []  # [attack, defence or None] pairs

    def weight(self, seat: int, card: Card) -> float:
        """How likely (relative to 1) it is that ``seat`` holds ``card``, if it is hidden."""
        return self._w[seat][card.index]

    def weights(self, seat: int) -> list[float]:
        return list(self._w[seat])

    def weights_table(self) -> list[list[float]]:
        """Every seat's weights (a copy), for :meth:`with_weights` elsewhere."""
        return [list(w) for w in self._w]

    @classmethod
    def with_weights(
        cls, players: int, seat: int, trump: int, table: list[list[float]]
    ) -> Inference:
        """An inference that deals by ``table`` (from :meth:`weights_table`), as the
        one it came from does (what was on the table is not needed to deal)."""
        inference = cls(players, seat, trump)
        inference._w = [list(w) for w in table]
        return inference

    # ------------------------------------------------------------ evidence

    def _lower(self, seat: int, index: int, factor: float) -> None:
        w = self._w[seat]
        w[index] = max(FLOOR, w[index] * factor)

    def observe(self, events: Sequence[Event]) -> None:
        """Learn from events (as this seat saw them), in the order they happened."""
        for event in events:
            if isinstance(event, Attacked):
                if not self._table and len(event.cards) == 1 and event.player != self.seat:
                    self._cheaper_unlikely(event.player, event.cards[0].index, None)
                for card in event.cards:
                    self._table.append([card, None])
            elif isinstance(event, Defended):
                if event.player != self.seat:
                    self._cheaper_unlikely(
                        event.player, event.card.index, event.attack_card.index
                    )
                for pair in self._table:
                    if pair[0] is event.attack_card:
                        pair[1] = event.card
            elif isinstance(event, Transferred):
                if not event.shown:
                    self._table.append([event.card, None])
            elif isinstance(event, TakeDeclared):
                if event.player != self.seat:
                    self._took(event.player)
            elif isinstance(event, Passed):
                if event.player != self.seat and self._table:
                    self._passed(event.player)
            elif isinstance(event, (PickedUp, Discarded)):
                self._table = []
            elif isinstance(event, Drew) and event.player != self.seat:
                keep = max(0.0, 1 - len(event.cards) / HAND)
                w = self._w[event.player]
                for i in range(52):
                    w[i] = 1 - (1 - w[i]) * keep

    def _took(self, seat: int) -> None:
        unbeaten = [pair[0] for pair in self._table if pair[1] is None]
        if not unbeaten:
            return
        # Failing to beat any one of them is reason enough to take: spread the evidence.
        share = 1 / len(unbeaten)
        plain = TOOK_PLAIN**share
        trump = TOOK_TRUMP**share
        beaters = BEATERS[self.trump]
        for attack in unbeaten:
            if attack is None:
                continue
            m = beaters[attack.index]
            while m:
                low = m & -m
                i = low.bit_length() - 1
                self._lower(seat, i, trump if i // 13 == self.trump else plain)
                m ^= low

    def _passed(self, seat: int) -> None:
        ranks = set()
        for attack, defence in self._table:
            if attack is not None:
                ranks.add(attack.rank)
            if defence is not None:
                ranks.add(defence.rank)
        for rank in ranks:
            for suit in range(4):
                i = suit * 13 + rank - 2
                plain = suit != self.trump and rank <= JACK
                self._lower(seat, i, PASSED_PLAIN if plain else PASSED_DEAR)

    def _cheaper_unlikely(self, seat: int, index: int, attack: int | None) -> None:
        """``seat`` led (attack None) or beat ``attack`` with card ``index``: the cards
        that were cheaper and would have done the same are less likely in its hand."""
        trump = self.trump
        cost = _cost(index, trump)
        candidates = range(52) if attack is None else _bits(BEATERS[trump][attack])
        for i in candidates:
            if _cost(i, trump) < cost:
                self._lower(seat, i, CHEAPER)

    # ------------------------------------------------------------ dealing

    def deal(self, view: Game, rng: random.Random) -> Game:
        """A full game consistent with ``view``, hidden cards dealt by the weights.

        Each seat's unknown cards are a weighted sample without replacement
        (exponential keys divided by the weight, smallest first); the talon
        takes the rest in random order.
        """
        # The view deals, compiled (Game.deal_weighted): exactly what this would do:
        #     hands, pool = self.hidden_hands(view, rng)
        #     rng.shuffle(pool)
        #     return view.deal_unseen([c for hand in hands for c in hand] + pool)
        return view.deal_weighted(self._w, rng)

    def hidden_hands(self, view: Game, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
        """The first step of :meth:`deal`: each seat's unknown cards, drawn by the
        weights, and the cards left for the talon (in no particular order).  Cheaper than
        a whole deal for a question about the hands (the coach's reasons ask one)."""
        pool = view.unseen
        hands: list[list[Card]] = []
        for s in range(self.players):
            u = view.unknown_count(s)
            if not u:
                hands.append([])
                continue
            w = self._w[s]
            keyed = sorted(pool, key=lambda c: -math.log(1.0 - rng.random()) / w[c.index])
            hands.append(keyed[:u])
            pool = keyed[u:]
        return hands, pool


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

