"""A particle filter over the opponent's whole hidden hand (two seats).

:mod:`durak_core.bots.inference` lowers cards one at a time: each piece of evidence
multiplies some cards' weights, whatever else the seat holds.  But evidence is about
hands: "took rather than beat the 9♣" says that *no* card of the hand beat it cheaply,
"led the 8♦" that no card of the hand was cheaper.  Here each *particle* is a whole
candidate for the opponent's unknown cards, and its weight is how likely the
opponent's observed play was with that hand, under a model of its policy: the greedy
bot's (:mod:`durak_core.bots.greedy`) with soft choices, each option's chance falling
off with how dear its card is (``SOFT``), and a share of every choice (``NOISE``) left
to anything.  The particles start uniform, follow the game (the opponent's unknown
cards change as it plays, picks up and draws), are reweighted at each of its
decisions, and are resampled when a few carry most of the weight.

It runs on the events one seat sees (as :class:`~durak_core.bots.inference.Inference`
does), synced with that seat's view at each of its decisions, and deals full games by
drawing a particle (:meth:`HandFilter.deal`).  Cheap: bit masks, a few operations per
particle and opponent decision.

>>> from durak_core import Game, Rules
>>> from durak_core.bots import GreedyBot, play_game, seat_events
>>> game = Game.new(Rules(), seed=3)
>>> hands = HandFilter(seat=1, trump=int(game.trump_suit), particles=100, seed=1)
>>> events = []
>>> for _ in range(6):
...     seat = 0 if game.legal_actions(0) else 1
...     action = GreedyBot().choose(game.observation(seat), game.legal_actions(seat))
...     events += seat_events(1, game.apply(action), game)
>>> hands.observe(events)
>>> hands.sync(game.view(1))
>>> chances = hands.chances()
>>> round(sum(chances.values())) == game.view(1).unknown_count(0)
True
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import BEATERS, RANK_MASK, SUIT_MASK, Card, deck_mask, mask_of, popcount
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

#: How sharply the modelled opponent prefers cheap cards: an option one rank dearer
#: is ``exp(-SOFT)`` times as likely (the greedy bot: always the cheapest).
SOFT = 1.0
#: The share of each decision the model leaves to chance (any hand could have made it).
NOISE = 0.2
#: The chance the model gives to taking when the hand could beat the table cheaply,
#: and when beating would cost high trumps (the greedy bot then takes).
TAKE_CHEAP = 0.2
TAKE_DEAR = 0.7
#: The chance the model gives to passing when the hand holds a cheap card to throw in.
PASS_CHEAP = 0.15
#: Resample when the effective number of particles falls below this share of them.
RESAMPLE = 0.5


@dataclass(frozen=True)
class PolicyModel:
    """How the filter models the opponent's choices (the module's constants above say
    what each number means)."""

    soft: float = SOFT
    noise: float = NOISE
    take_cheap: float = TAKE_CHEAP
    take_dear: float = TAKE_DEAR
    pass_cheap: float = PASS_CHEAP


#: A loose greedy-like player: the default, for an opponent that may search.
LOOSE = PolicyModel()
#: The greedy bot itself, all but exactly: its cheapest card (one rank dearer is
#: ``exp(-8)`` times as likely), almost no noise, a take or a pass only when its rules
#: say so.  For an opponent that has made only greedy moves so far.
GREEDY = PolicyModel(soft=8.0, noise=0.003, take_cheap=0.02, take_dear=0.9, pass_cheap=0.01)
#: Added to a trump's rank, as the greedy bot counts a card's cost.
TRUMP_PREMIUM = 13
JACK = 11


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class HandFilter:
    """Weighted candidates for the opponent's unknown cards, learnt from its play.

    seat: the seat whose events and views these are (the opponent is the other seat).
    trump: the trump suit.  particles: how many candidate hands.  seed: for the
    random fills and resampling (the filter is deterministic for a seed).  model: the
    opponent's policy as the likelihood sees it.
    """

    def __init__(self, seat: int, trump: int, particles: int = 200, seed: int | None = None,
                 model: PolicyModel = LOOSE) -> None:
        if particles < 1:
            raise ValueError(f"particles must be a positive number, not {particles!r}")
        self.seat = seat
        self.opponent = 1 - seat
        self.trump = trump
        self.size = particles
        self._rng = random.Random(seed)
        self.model = model
        cost = [i % 13 + 2 + (TRUMP_PREMIUM if i // 13 == trump else 0) for i in range(52)]
        self._cost = cost
        #: exp(-soft * cost): how likely the model is to give up each card.
        self._ease = [math.exp(-model.soft * c) for c in cost]
        self._pending: list[Event] = []
        self._started = False
        self._cum: list[float] = []  # cumulative weights at the last sync, for deal
        #: The candidates: masks of the opponent's unknown cards, and their log weights.
        self.hands: list[int] = []
        self.logw: list[float] = []
        # What the seat knows, kept up from the events between its views.
        self._unseen = 0  # cards whose place is hidden: the opponent's unknown ones and the talon's
        self._unknown = 0  # how many of the opponent's cards are unknown
        self._known = 0  # the opponent's cards the seat has seen it take or draw
        self._mine = 0  # how many cards the seat holds
        self._talon = 0
        self._table: list[list[int]] = []  # [attack, defence or -1] card indices
        self._discarded = False
        self._dstart = 0  # the defender's hand at the start of the bout
        self._cap0 = 6
        #: Tracking errors found at a sync (the view disagreed; fixed from the view).
        self.drift = 0
        #: How many times the particles were resampled.
        self.resamples = 0

    # ------------------------------------------------------------ input

    def observe(self, events: Sequence[Event]) -> None:
        """Take in events as this seat saw them (weighed at the next :meth:`sync`)."""
        self._pending.extend(events)

    def sync(self, view: Game) -> None:
        """Weigh the events seen since the last sync, then agree with ``view`` (this
        seat's view now): the particles are fitted to its unseen cards."""
        pending, self._pending = self._pending, []
        if not self._started:
            self._start(view, pending)
        for event in pending:
            self._event(event)
        self._fit(view)
        self._cum = list(itertools.accumulate(self.weights()))

    def _start(self, view: Game, pending: Sequence[Event]) -> None:
        """The state at the deal, rebuilt from ``view`` by undoing ``pending``."""
        self._started = True
        mine = mask_of(view.hand(self.seat))
        for event in reversed(pending):
            if isinstance(event, Drew) and event.player == self.seat:
                mine &= ~mask_of(c for c in event.cards if c is not None)
            elif isinstance(event, PickedUp) and event.player == self.seat:
                mine &= ~mask_of(event.cards)
            elif isinstance(event, Attacked) and event.player == self.seat:
                mine |= mask_of(event.cards)
            elif (isinstance(event, Defended) and event.player == self.seat) or (
                isinstance(event, Transferred) and event.player == self.seat and not event.shown
            ):
                mine |= event.card.bit
        rules = view.rules
        deck = deck_mask(rules.deck_size)
        dealt = popcount(mine)
        self._unseen = deck & ~mine & ~view.trump_card.bit
        self._unknown = dealt
        self._mine = dealt
        self._talon = rules.deck_size - 2 * dealt
        self._cap0 = rules.limit_cap(True)
        pool = _bits(self._unseen)
        rng = self._rng
        self.hands = [mask_of_indices(rng.sample(pool, dealt)) for _ in range(self.size)]
        self.logw = [0.0] * self.size

    # ------------------------------------------------------------ following the game

    def _event(self, event: Event) -> None:
        opp = self.opponent
        if isinstance(event, Attacked):
            if event.player == opp:
                first = event.cards[0].index
                if not self._table:
                    self._dstart = self._mine
                    self._weigh(self._lead, first)
                else:
                    self._weigh(self._throw, first)
                for card in event.cards:
                    self._reveal(card.index)
            else:
                if not self._table:
                    self._dstart = self._unknown + popcount(self._known)
                self._mine -= len(event.cards)
            for card in event.cards:
                self._table.append([card.index, -1])
        elif isinstance(event, Defended):
            if event.player == opp:
                self._weigh(self._defend, event.card.index, event.attack_card.index)
                self._reveal(event.card.index)
            else:
                self._mine -= 1
            for pair in self._table:
                if pair[0] == event.attack_card.index:
                    pair[1] = event.card.index
        elif isinstance(event, Transferred):
            if event.player == opp:
                if event.shown:
                    if not self._known & event.card.bit:
                        self._reveal(event.card.index)
                        self._known |= event.card.bit
                else:
                    self._reveal(event.card.index)
            elif not event.shown:
                self._mine -= 1
            if not event.shown:
                self._table.append([event.card.index, -1])
        elif isinstance(event, TakeDeclared):
            if event.player == opp:
                self._weigh(self._take)
        elif isinstance(event, Passed):
            if event.player == opp and self._table and self._can_throw():
                self._weigh(self._pass)
        elif isinstance(event, PickedUp):
            if event.player == opp:
                self._known |= mask_of(event.cards)
            else:
                self._mine += len(event.cards)
            self._table = []
        elif isinstance(event, Discarded):
            self._table = []
            self._discarded = True
        elif isinstance(event, Drew):
            self._talon -= len(event.cards)
            if event.player == opp:
                for drawn in event.cards:
                    if drawn is None:
                        self._draw_hidden()
                    else:  # the trump card, drawn in the open
                        self._known |= drawn.bit
            else:
                self._mine += len(event.cards)
                for drawn in event.cards:
                    if drawn is not None:
                        self._exclude(drawn.index)

    def _can_throw(self) -> bool:
        """Whether the attacker could still have thrown in (the bout's card limit)."""
        cap = 6 if self._discarded else self._cap0
        return len(self._table) < min(cap, self._dstart)

    def _reveal(self, index: int) -> None:
        """The opponent showed card ``index``: out of its unknown cards, if it was one."""
        bit = 1 << index
        if self._known & bit:
            self._known &= ~bit
            return
        if not self._unseen & bit:
            return
        self._unseen &= ~bit
        self._unknown -= 1
        rng = self._rng
        hands = self.hands
        for k, hand in enumerate(hands):
            if hand & bit:
                hands[k] = hand & ~bit
            else:  # the slot that held it, in this candidate another card
                hands[k] = hand & ~(1 << rng.choice(_bits(hand))) if hand else hand

    def _exclude(self, index: int) -> None:
        """Card ``index`` turned up elsewhere (the seat drew it): no candidate holds it."""
        bit = 1 << index
        self._unseen &= ~bit
        rng = self._rng
        hands = self.hands
        for k, hand in enumerate(hands):
            if hand & bit:
                pool = _bits(self._unseen & ~hand)
                hands[k] = (hand & ~bit) | (1 << rng.choice(pool) if pool else 0)

    def _draw_hidden(self) -> None:
        """The opponent drew a card the seat did not see: a random one for each candidate."""
        self._unknown += 1
        rng = self._rng
        hands = self.hands
        for k, hand in enumerate(hands):
            pool = _bits(self._unseen & ~hand)
            if pool:
                hands[k] = hand | 1 << rng.choice(pool)

    def _fit(self, view: Game) -> None:
        """Agree with ``view``: the same unseen cards, and candidates of the right size."""
        unseen = mask_of(view.unseen)
        unknown = view.unknown_count(self.opponent)
        known = mask_of(view.known_cards(self.opponent))
        mine = len(view.hand(self.seat))
        if (unseen, unknown, known, mine, view.talon_size) != (
            self._unseen, self._unknown, self._known, self._mine, self._talon
        ):
            self.drift += 1
            self._unseen, self._unknown, self._known = unseen, unknown, known
            self._mine, self._talon = mine, view.talon_size
        rng = self._rng
        hands = self.hands
        for k, hand in enumerate(hands):
            hand &= unseen
            have = popcount(hand)
            if have > unknown:
                hand = mask_of_indices(rng.sample(_bits(hand), unknown))
            elif have < unknown:
                hand |= mask_of_indices(rng.sample(_bits(unseen & ~hand), unknown - have))
            hands[k] = hand

    # ------------------------------------------------------------ the policy model

    def _weigh(self, likelihood: object, *args: int) -> None:
        """Multiply each candidate's weight by the model's chance of the observed choice."""
        known = self._known
        logw = self.logw
        noise = self.model.noise
        fn = likelihood  # a bound method: (hand mask, *args) -> chance
        for k, hand in enumerate(self.hands):
            chance = fn(hand | known, *args)  # type: ignore[operator]
            logw[k] += math.log((1 - noise) * chance + noise)
        self._maybe_resample()

    def _softmin(self, options: int, chosen: int) -> float:
        """The chance of giving up card ``chosen`` among ``options`` (a mask holding it)."""
        ease = self._ease
        total = 0.0
        for i in _bits(options | 1 << chosen):
            total += ease[i]
        return ease[chosen] / total

    def _lead(self, hand: int, card: int) -> float:
        return self._softmin(hand, card)

    def _throw(self, hand: int, card: int) -> float:
        return self._softmin(hand & self._table_ranks(), card)

    def _defend(self, hand: int, card: int, attack: int) -> float:
        return self._softmin(hand & BEATERS[self.trump][attack], card)

    def _take(self, hand: int) -> float:
        """Took: certain when some unbeaten card cannot be beaten (or only by a high
        trump, which the greedy bot keeps), unlikely when every one beats cheaply."""
        beaters = BEATERS[self.trump]
        trumps = SUIT_MASK[self.trump]
        dear = False
        for attack, defence in self._table:
            if defence >= 0:
                continue
            options = hand & beaters[attack]
            if not options:
                return 1.0
            plain = options & ~trumps
            if not plain and attack // 13 != self.trump:
                cheapest = min(_bits(options))
                if cheapest % 13 + 2 >= 12 and self._talon:  # Q, K, A of trumps
                    dear = True
        return self.model.take_dear if dear else self.model.take_cheap

    def _pass(self, hand: int) -> float:
        """Passed with the table's ranks to throw: unlikely when a cheap plain one was in
        hand (the greedy bot throws those in)."""
        cheap = hand & self._table_ranks() & ~SUIT_MASK[self.trump]
        if self._talon:
            cheap &= _UP_TO_JACK
        return self.model.pass_cheap if cheap else 1.0

    def _table_ranks(self) -> int:
        ranks = 0
        for attack, defence in self._table:
            ranks |= RANK_MASK[attack % 13 + 2]
            if defence >= 0:
                ranks |= RANK_MASK[defence % 13 + 2]
        return ranks

    def _maybe_resample(self) -> None:
        logw = self.logw
        top = max(logw)
        weights = [math.exp(w - top) for w in logw]
        total = sum(weights)
        ess = total * total / sum(w * w for w in weights)
        if ess >= RESAMPLE * self.size:
            return
        # Systematic resampling: one random offset, evenly spaced pointers.
        n = self.size
        step = total / n
        u = self._rng.random() * step
        out = []
        acc = weights[0]
        k = 0
        for _ in range(n):
            while acc < u and k < n - 1:
                k += 1
                acc += weights[k]
            out.append(self.hands[k])
            u += step
        self.hands = out
        self.logw = [0.0] * n
        self.resamples += 1

    # ------------------------------------------------------------ output

    def weights(self) -> list[float]:
        """The particles' normalised weights."""
        top = max(self.logw)
        weights = [math.exp(w - top) for w in self.logw]
        total = sum(weights)
        return [w / total for w in weights]

    def chances(self) -> dict[int, float]:
        """For each unseen card (by index), the chance the opponent holds it."""
        out = dict.fromkeys(_bits(self._unseen), 0.0)
        for hand, w in zip(self.hands, self.weights(), strict=True):
            for i in _bits(hand):
                out[i] += w
        return out

    def weights_table(self, players: int = 2) -> list[list[float]]:
        """Card weights that deal about as the particles do (the chance of each card as
        odds), for :meth:`durak_core.bots.inference.Inference.with_weights` elsewhere."""
        table = [[1.0] * 52 for _ in range(players)]
        for i, p in self.chances().items():
            p = min(0.98, max(0.02, p))
            table[self.opponent][i] = p / (1 - p)
        return table

    def deal(self, view: Game, rng: random.Random) -> Game:
        """A full game consistent with ``view`` (the view of the last :meth:`sync`): the
        opponent's unknown cards from a particle drawn by weight, the talon the rest in
        random order."""
        hand = self.hands[bisect.bisect(self._cum, rng.random() * self._cum[-1])]
        theirs = [Card.from_index(i) for i in _bits(hand)]
        talon = [c for c in view.unseen if not hand & c.bit]
        rng.shuffle(talon)
        return view.deal_unseen(theirs + talon)


def mask_of_indices(indices: Sequence[int]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


_UP_TO_JACK = sum(RANK_MASK[r] for r in range(2, JACK + 1))
