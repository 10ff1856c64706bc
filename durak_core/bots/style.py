"""Does a seat play like the greedy policy?  Moves that prove it does not.

The AI's search lets the greedy policy (:mod:`durak_core.bots.greedy`) answer for
the opponents on part of its iterations (``reply_greedy``): a fair model of a
sensible, predictable player, and far off for a player who searches.
:class:`GreedyCheck` watches the public events one seat sees and counts, for every
other seat, the moves the greedy policy could not have made whatever that seat's
hidden cards were.  Only cards known to be in a hand can show it: the cards a seat
picked up (the whole table saw them) and has not played since.  Each test below is
a rule of the greedy policy; a greedy seat never fails one (the tests hold this
over many games), so a single failure is proof, not a guess.

* a lead of a card dearer than a known card of the hand (greedy leads its
  cheapest card; costs as :func:`durak_core.bots.greedy.card_cost` counts them);
* a defence of an attack card other than the hardest unbeaten one, or with a
  beater dearer than a known beater of that card (greedy beats the hardest card
  first, with its cheapest beater);
* taking when known plain cards beat every unbeaten card, one each (greedy then
  defends: it takes only when it cannot beat them or would spend trumps);
* a throw-in dearer than a known plain card up to a jack of a rank on the table,
  or a pass while holding one (greedy throws in its cheapest such card).

With transfers (``perevodnoy``) the defender's choices are not tested: the greedy
policy's transfers depend on the rank of every card on the table.

>>> from durak_core import Attack, Card, Game, Pass, Rules, Take
>>> from durak_core.bots import seat_events
>>> game = Game.new(Rules(), seed=7)        # hearts are trumps
>>> check = GreedyCheck(players=2, seat=1, trump=int(game.trump_suit))
>>> events = game.apply(Attack(1, Card.parse("9♣"))) + game.apply(Take(0))
>>> events += game.apply(Pass(1))           # seat 0 picks up 9♣: the table saw it
>>> check.observe(seat_events(1, events, game))
>>> Card.parse("9♣") in game.hand(0), check.known(0) == Card.parse("9♣").bit
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import BEATERS, JACK, RANK_MASK, SUIT_MASK, Card
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


def _cost(card: Card, trump: int) -> int:
    """As :func:`durak_core.bots.greedy.card_cost`: the rank, 13 more for a trump."""
    return card.rank + 13 if card.suit == trump else card.rank


class GreedyCheck:
    """Counts each seat's moves that the greedy policy could not have made (see the
    module): ``deviations(seat)``."""

    def __init__(self, players: int, seat: int, trump: int, transfers: bool = False) -> None:
        self.players = players
        self.seat = seat
        self.trump = trump
        self.transfers = transfers
        self._known = [0] * players
        self._deviations = [0] * players
        self._table: list[list[Card | None]] = []  # [attack, defence or None] pairs

    def known(self, seat: int) -> int:
        """The cards (a bitmask) ``seat`` is known to hold: picked up, not played."""
        return self._known[seat]

    def deviations(self, seat: int) -> int:
        """How many of ``seat``'s moves so far the greedy policy could not have made."""
        return self._deviations[seat]

    def strays(self) -> bool:
        """Whether some other seat has played a move the greedy policy would not."""
        return any(n for s, n in enumerate(self._deviations) if s != self.seat)

    def observe(self, events: Sequence[Event]) -> None:
        """Take in events (as this seat saw them), in the order they happened."""
        for event in events:
            if isinstance(event, Attacked):
                p = event.player
                if p != self.seat:
                    if not self._table:
                        self._check_lead(p, event.cards)
                    else:
                        self._check_throw(p, event.cards[0])
                for card in event.cards:
                    self._played(p, card)
                    self._table.append([card, None])
            elif isinstance(event, Defended):
                p = event.player
                if p != self.seat and not self.transfers:
                    self._check_defence(p, event.attack_card, event.card)
                self._played(p, event.card)
                for pair in self._table:
                    if pair[0] is event.attack_card:
                        pair[1] = event.card
            elif isinstance(event, Transferred):
                self._played(event.player, event.card)
                if not event.shown:
                    self._table.append([event.card, None])
            elif isinstance(event, TakeDeclared):
                if event.player != self.seat and not self.transfers:
                    self._check_take(event.player)
            elif isinstance(event, Passed):
                if event.player != self.seat and self._table:
                    self._check_pass(event.player)
            elif isinstance(event, PickedUp):
                for card in event.cards:
                    self._known[event.player] |= card.bit
                self._table = []
            elif isinstance(event, Discarded):
                self._table = []
            elif isinstance(event, Drew):
                for drawn in event.cards:
                    if drawn is not None:  # the trump card under the talon, seen by all
                        self._known[event.player] |= drawn.bit

    # ------------------------------------------------------------ the rules

    def _played(self, seat: int, card: Card) -> None:
        self._known[seat] &= ~card.bit

    def _strayed(self, seat: int) -> None:
        self._deviations[seat] += 1

    def _cheapest(self, mask: int) -> int:
        """The lowest cost among the cards of ``mask`` (a large number for none)."""
        return self._cheapest_card(mask)[0]

    def _cheapest_card(self, mask: int) -> tuple[int, int]:
        """The lowest cost among the cards of ``mask`` and the bit of such a card
        ((a large number, 0) for none)."""
        best = 1 << 10
        card = 0
        trump = self.trump
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            cost = i % 13 + 2 + (13 if i // 13 == trump else 0)
            if cost < best:
                best = cost
                card = low
            mask ^= low
        return best, card

    def _check_lead(self, seat: int, cards: tuple[Card, ...]) -> None:
        """Greedy leads its cheapest card (with the cards of its rank, if plain)."""
        lowest = min(_cost(c, self.trump) for c in cards)
        if self._cheapest(self._known[seat]) < lowest:
            self._strayed(seat)

    def _cheap_of_table(self, seat: int) -> int:
        """The seat's known plain cards up to a jack of a rank on the table."""
        ranks = 0
        for attack, defence in self._table:
            for card in (attack, defence):
                if card is not None and card.rank <= JACK:
                    ranks |= RANK_MASK[card.rank]
        return self._known[seat] & ranks & ~SUIT_MASK[self.trump]

    def _check_throw(self, seat: int, card: Card) -> None:
        """Greedy throws in its cheapest plain card up to a jack of a rank on the table
        (with an empty talon any plain card of such a rank, so a known cheap one is
        still the cheapest choice)."""
        if self._cheapest(self._cheap_of_table(seat)) < _cost(card, self.trump):
            self._strayed(seat)

    def _check_pass(self, seat: int) -> None:
        """Greedy passes only with no plain card up to a jack of a table rank."""
        if self._cheap_of_table(seat):
            self._strayed(seat)

    def _unbeaten(self) -> list[Card]:
        return [a for a, d in self._table if a is not None and d is None]

    def _check_defence(self, seat: int, attack: Card, card: Card) -> None:
        """Greedy beats the hardest unbeaten card first, with its cheapest beater."""
        trump = self.trump

        def hardness(c: Card) -> tuple[bool, int]:
            return (c.suit == trump, c.rank)

        unbeaten = self._unbeaten()
        if unbeaten and max(hardness(c) for c in unbeaten) > hardness(attack):
            self._strayed(seat)
            return
        beaters = self._known[seat] & BEATERS[trump][attack.index]
        if self._cheapest(beaters) < _cost(card, trump):
            self._strayed(seat)

    def _check_take(self, seat: int) -> None:
        """Greedy defends when it can beat every unbeaten card without a trump."""
        unbeaten = self._unbeaten()
        if not unbeaten:
            return
        plain = self._known[seat] & ~SUIT_MASK[self.trump]
        # Hardest first, each with its cheapest plain beater, as greedy plans.
        for attack in sorted(unbeaten, key=lambda c: (c.suit == self.trump, c.rank), reverse=True):
            beaters = plain & BEATERS[self.trump][attack.index]
            if not beaters:
                return  # no plain defence known for this card: taking may be greedy
            plain &= ~self._cheapest_card(beaters)[1]
        self._strayed(seat)
