"""Why the AI prefers a move: reasons drawn from what the AI itself used.

The coach's numbers ("take 84%, defend with 10♣ 71%") tell a player *what* the AI
thinks; a reason tells *why*.  :func:`explain` looks at the position as the seat saw
it, the AI's estimates and its reading of the opponents' play, and returns records
(no sentences: :mod:`durak_widgets.words` puts them into the player's words), the
strongest first.  Each kind states the exact condition under which it is given, so a
test can check it against the game:

:class:`Solved`
    The endgame solver settled every move (the estimates are ``exact``): the value
    of the move (``"win"``, ``"draw"`` or ``"loss"``), and of the move it is
    compared with (given only when the two differ).  Given only then, and then
    alone: the solver's word is final.
:class:`NoHigher`
    The move leads or throws in ``lead``, a plain (not trump) card, to ``opponent``
    (the defender), who earlier declared "take" while ``taken`` (same suit, not
    higher than ``lead``) lay unbeaten on the table; the inference
    (:class:`~durak_core.bots.inference.Inference`, the AI's card weights) still
    gives every unseen card of that suit above ``taken`` a weight below
    :data:`NO_HIGHER`, at least one such card is unseen, and the seat knows of no
    card of that suit above ``taken`` in the opponent's hand.  The compared move
    plays no card of that suit.
:class:`CannotBeat`
    The move leads or throws in ``card`` to ``opponent`` (the defender), and in at
    most :data:`CANNOT_BEAT` of :data:`DEALS` deals made as the AI makes them (the
    inference's weights, a generator seeded from the position) the opponent holds a
    card that beats it (``chance``; of a lead of several cards, the one hardest to
    beat).  The compared move, if an attack too, plays no card as hard to beat (its
    chance is at least 0.2 higher).
:class:`KeepTrumps`
    The move plays no trump (a shown trump stays in the hand), the compared move
    plays ``trump`` (its lowest trump); ``higher_out`` are the trumps above it that
    are still out: neither in the seat's hand, nor on the table, nor discarded
    (they are in other hands or the talon).
:class:`BeatCheaply`
    The move beats ``attack`` with ``card``, a plain card, where the compared move
    takes; taking would put the ``taken`` cards on the table into the seat's hand.
:class:`KeepHigh`
    Both moves lead or throw in plain cards only; the compared move's highest card
    ``card`` is high (a jack or above) and outranks every card of the move;
    ``beaters_out`` are the cards still out (as for :class:`KeepTrumps`) that beat it.

>>> from durak_core import Game, Rules, parse_action
>>> from durak_core.bots import MoveEstimate
>>> game = Game.new(Rules(), seed=7)           # hearts are trumps
>>> [str(c) for c in game.hand(1)]
['J♠', '10♦', 'J♦', 'Q♦', '9♣', '6♥']
>>> low, trump = parse_action("1 attack 9c"), parse_action("1 attack 6h")
>>> estimates = [MoveEstimate(low, 0.6, 0.6, 40), MoveEstimate(trump, 0.4, 0.4, 40)]
>>> reason = explain(game.view(1), 1, (), estimates)[0]
>>> reason.kind, str(reason.trump), len(reason.higher_out)
('keep_trumps', '6♥', 8)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from ..actions import Action, Attack, Defend, Take, Transfer
from ..cards import BEATERS, Card
from ..events import Attacked, Defended, Discarded, Event, PickedUp, TakeDeclared, Transferred
from ..game import Game
from .inference import Inference
from .ismcts import MoveEstimate

#: :class:`NoHigher` is given while the inference weighs every unseen higher card of
#: the suit below this (1: nothing learnt; a take lowers a cheap beater to 0.35, and
#: the weights fade back towards 1 as the opponent draws).
NO_HIGHER = 0.5

#: :class:`CannotBeat` is given when the opponent holds a beater in at most this share
#: of the deals, and :data:`DEALS` deals are made to count it.
CANNOT_BEAT = 0.35
DEALS = 64
#: :class:`KeepHigh` speaks of cards from this rank up (a jack).
HIGH = 11

Outcome = Literal["win", "draw", "loss"]


@dataclass(frozen=True)
class Solved:
    """The talon is empty and the solver settled the game: ``value`` of the move,
    ``against`` of the compared move (None: compared with every other move, the
    hint's case; ``every`` then says whether all moves have the same value)."""

    kind: ClassVar[str] = "solved"
    value: Outcome
    against: Outcome | None
    every: bool


@dataclass(frozen=True)
class NoHigher:
    """``opponent`` took rather than beat ``taken``: it probably holds no card of
    that suit above it, so ``lead`` (the move's card) is likely not beaten in suit."""

    kind: ClassVar[str] = "no_higher"
    opponent: int
    taken: Card
    lead: Card
    #: The highest inference weight among the unseen cards of the suit above ``taken``.
    weight: float
    #: A game of two seats (the opponent is the only one).
    heads_up: bool


@dataclass(frozen=True)
class KeepTrumps:
    """The compared move spends ``trump``; ``higher_out`` trumps above it are still out."""

    kind: ClassVar[str] = "keep_trumps"
    trump: Card
    higher_out: tuple[Card, ...]


@dataclass(frozen=True)
class CannotBeat:
    """In the AI's deals ``opponent`` holds a card that beats ``card`` only ``chance``
    of the time."""

    kind: ClassVar[str] = "cannot_beat"
    opponent: int
    card: Card
    chance: float
    heads_up: bool
    #: The seat knows every card of the opponent (``chance`` is then 0).
    certain: bool = False


@dataclass(frozen=True)
class BeatCheaply:
    """Beating ``attack`` costs ``card``, no trump; taking would cost ``taken`` cards."""

    kind: ClassVar[str] = "beat_cheaply"
    attack: Card
    card: Card
    taken: int


@dataclass(frozen=True)
class KeepHigh:
    """The compared move spends the high ``card``; only ``beaters_out`` beat it."""

    kind: ClassVar[str] = "keep_high"
    card: Card
    beaters_out: tuple[Card, ...]


Reason = Solved | NoHigher | CannotBeat | KeepTrumps | BeatCheaply | KeepHigh


def played_cards(action: Action) -> tuple[Card, ...]:
    """The cards ``action`` puts on the table (a shown trump is not played)."""
    if isinstance(action, Attack):
        return action.cards
    if isinstance(action, Defend):
        return (action.card,)
    if isinstance(action, Transfer) and not action.show:
        return (action.card,)
    return ()


def _outcome(estimate: MoveEstimate) -> Outcome:
    return "win" if estimate.score > 0.75 else "loss" if estimate.score < 0.25 else "draw"


def explain(
    view: Game,
    seat: int,
    events: Sequence[Event],
    estimates: Sequence[MoveEstimate],
    move: Action | None = None,
    against: Action | None = None,
    inference: Inference | None = None,
) -> list[Reason]:
    """Reasons to play ``move`` rather than ``against``, strongest first (may be empty).

    view: the position as ``seat`` sees it (:meth:`Game.view`, or
        :meth:`Game.from_observation`); events: what the seat saw happen so far (as
        :func:`~durak_core.bots.seat_events` gives it), the opponents' play the AI
        reads; estimates: the AI's (:meth:`IsmctsBot.analyse`).
    move: default the AI's choice (the first estimate); against: the move it is
        compared with (a review: the move played); None: every other move.
    inference: the AI's reading of ``events``, if at hand; else made from them.
    """
    if not estimates:
        return []
    by_action = {e.action: e for e in estimates}
    if move is None:
        move = estimates[0].action
    mine = by_action.get(move)
    other = None if against is None else by_action.get(against)
    if mine is not None and mine.exact and all(e.exact for e in estimates):
        # The solver's word is final: no other reason beside it.
        if against is None:
            every = len({_outcome(e) for e in estimates}) == 1
            return [Solved(_outcome(mine), None, every)]
        if other is None or _outcome(other) == _outcome(mine):
            return []  # nothing to choose between them
        return [Solved(_outcome(mine), _outcome(other), False)]
    out: list[Reason] = []
    if inference is None:
        inference = Inference(view.players, seat, int(view.trump_suit))
        inference.observe(events)
    no_higher = _no_higher(view, seat, events, move, against, inference)
    if no_higher is not None:
        out.append(no_higher)
    else:
        cannot = _cannot_beat(view, seat, events, move, against, inference)
        if cannot is not None:
            out.append(cannot)
    if against is not None:
        rivals = [against]
    else:
        rivals = [e.action for e in estimates if e.action != move]
    for reason in (_keep_trumps(view, seat, move, rivals), _beat_cheaply(view, move, rivals),
                   _keep_high(view, seat, move, rivals)):
        if reason is not None:
            out.append(reason)
    return out


def _keep_trumps(
    view: Game, seat: int, move: Action, rivals: Sequence[Action]
) -> KeepTrumps | None:
    """KeepTrumps against the first of ``rivals`` (best first) that spends a trump."""
    trump = int(view.trump_suit)
    if any(c.suit == trump for c in played_cards(move)):
        return None
    for rival in rivals:
        spent = [c for c in played_cards(rival) if c.suit == trump]
        if spent:
            low = min(spent, key=lambda c: c.rank)
            return KeepTrumps(low, trumps_out(view, seat, low))
    return None


def cards_out(view: Game, seat: int) -> set[Card]:
    """The cards still out as ``seat`` sees ``view``: in the deck, and not in its hand,
    on the table or in the discard pile (so in other hands or the talon)."""
    gone = set(view.hand(seat)) | set(view.discarded)
    for attack, defence in view.table:
        gone.add(attack)
        if defence is not None:
            gone.add(defence)
    return {c for c in (Card.from_index(i) for i in range(52))
            if c not in gone and _in_deck(c, view)}


def trumps_out(view: Game, seat: int, above: Card) -> tuple[Card, ...]:
    """Trumps higher than ``above`` that are still out (:func:`cards_out`)."""
    out = cards_out(view, seat)
    return tuple(sorted((c for c in out if c.suit == view.trump_suit and c.rank > above.rank),
                        key=lambda c: c.rank))


def beaters_out(view: Game, seat: int, card: Card) -> tuple[Card, ...]:
    """The cards still out (:func:`cards_out`) that beat ``card``."""
    beaters = BEATERS[int(view.trump_suit)][card.index]
    return tuple(sorted((c for c in cards_out(view, seat) if beaters & c.bit),
                        key=lambda c: c.index))


def beat_chance(
    view: Game, opponent: int, cards: Sequence[Card], inference: Inference, deals: int = DEALS
) -> list[float]:
    """For each of ``cards``, the share of ``deals`` deals made by ``inference`` (as the
    AI deals) in which ``opponent`` holds a card that beats it.  The generator is seeded
    from the position, so the same position gives the same chances."""
    trump = int(view.trump_suit)
    known = 0
    for c in view.hand(opponent):
        known |= c.bit
    seed = hash((tuple(c.index for c in view.unseen), known, tuple(c.index for c in cards)))
    rng = random.Random(seed)
    masks = [BEATERS[trump][c.index] for c in cards]
    if view.unknown_count(opponent) == 0:
        return [1.0 if m & known else 0.0 for m in masks]
    hits = [0] * len(cards)
    for _ in range(deals):
        hand = known
        for c in inference.hidden_hands(view, rng)[0][opponent]:
            hand |= c.bit
        for i, m in enumerate(masks):
            if m & hand:
                hits[i] += 1
    return [h / deals for h in hits]


def _cannot_beat(
    view: Game,
    seat: int,
    events: Sequence[Event],
    move: Action,
    against: Action | None,
    inference: Inference,
) -> CannotBeat | None:
    if not isinstance(move, Attack) or move.player != seat:
        return None
    opponent = view.defender
    if opponent == seat:
        return None
    rival = list(against.cards) if isinstance(against, Attack) else []
    chances = beat_chance(view, opponent, [*move.cards, *rival], inference)
    mine = list(zip(chances[: len(move.cards)], move.cards, strict=True))
    chance, card = min(mine, key=lambda x: (x[0], x[1].index))
    if chance > CANNOT_BEAT:
        return None
    if rival and min(chances[len(move.cards):]) < chance + 0.2:
        return None
    return CannotBeat(opponent, card, chance, view.players == 2,
                      view.unknown_count(opponent) == 0)


def _beat_cheaply(view: Game, move: Action, rivals: Sequence[Action]) -> BeatCheaply | None:
    if not isinstance(move, Defend) or move.card.suit == view.trump_suit:
        return None
    if not any(isinstance(r, Take) for r in rivals):
        return None
    taken = sum(1 + (d is not None) for _, d in view.table)
    return BeatCheaply(move.attack_card, move.card, taken)


def _keep_high(
    view: Game, seat: int, move: Action, rivals: Sequence[Action]
) -> KeepHigh | None:
    trump = view.trump_suit
    if not isinstance(move, Attack) or any(c.suit == trump for c in move.cards):
        return None
    top = max(c.rank for c in move.cards)
    for rival in rivals:
        if not isinstance(rival, Attack) or any(c.suit == trump for c in rival.cards):
            continue
        high = max(rival.cards, key=lambda c: (c.rank, c.index))
        if high.rank > top and high.rank >= HIGH:
            return KeepHigh(high, beaters_out(view, seat, high))
    return None


def _in_deck(card: Card, view: Game) -> bool:
    return card.rank >= 15 - view.rules.deck_size // 4


def takes(events: Sequence[Event], player: int) -> list[Card]:
    """The cards that lay unbeaten when ``player`` declared "take", in ``events``."""
    table: list[list[Card | None]] = []
    out: list[Card] = []
    for event in events:
        if isinstance(event, Attacked):
            table.extend([c, None] for c in event.cards)
        elif isinstance(event, Transferred):
            if not event.shown:
                table.append([event.card, None])
        elif isinstance(event, Defended):
            for pair in table:
                if pair[0] is event.attack_card:
                    pair[1] = event.card
        elif isinstance(event, TakeDeclared):
            if event.player == player:
                out.extend(pair[0] for pair in table if pair[0] is not None and pair[1] is None)
        elif isinstance(event, (PickedUp, Discarded)):
            table = []
    return out


def _no_higher(
    view: Game,
    seat: int,
    events: Sequence[Event],
    move: Action,
    against: Action | None,
    inference: Inference,
) -> NoHigher | None:
    if not isinstance(move, Attack) or move.player != seat:
        return None
    opponent = view.defender
    if opponent == seat:
        return None
    trump = int(view.trump_suit)
    unseen = set(view.unseen)
    known = view.hand(opponent)
    rival_suits = set() if against is None else {c.suit for c in played_cards(against)}
    best: NoHigher | None = None
    for taken in takes(events, opponent):
        suit = taken.suit
        if suit == trump or suit in rival_suits:
            continue
        leads = [c for c in move.cards if c.suit == suit and c.rank >= taken.rank]
        if not leads:
            continue
        if any(c.suit == suit and c.rank > taken.rank for c in known):
            continue
        higher = [c for c in unseen if c.suit == suit and c.rank > taken.rank]
        if not higher:
            continue
        weight = max(inference.weight(opponent, c) for c in higher)
        if weight >= NO_HIGHER:
            continue
        if best is None or taken.rank < best.taken.rank:
            best = NoHigher(opponent, taken, max(leads, key=lambda c: c.rank), weight,
                            view.players == 2)
    return best
