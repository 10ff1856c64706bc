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
:class:`KeepTrumps`
    The move plays no trump (a shown trump stays in the hand), the compared move
    plays ``trump`` (its lowest trump); ``higher_out`` are the trumps above it that
    are still out: neither in the seat's hand, nor on the table, nor discarded
    (they are in other hands or the talon).

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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from ..actions import Action, Attack, Defend, Transfer
from ..cards import Card
from ..events import Attacked, Defended, Discarded, Event, PickedUp, TakeDeclared, Transferred
from ..game import Game
from .inference import Inference
from .ismcts import MoveEstimate

#: :class:`NoHigher` is given while the inference weighs every unseen higher card of
#: the suit below this (1: nothing learnt; a take lowers a cheap beater to 0.35, and
#: the weights fade back towards 1 as the opponent draws).
NO_HIGHER = 0.5

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


Reason = Solved | NoHigher | KeepTrumps


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
    if against is not None:
        rivals = [against]
    else:
        rivals = [e.action for e in estimates if e.action != move]
    keep = _keep_trumps(view, seat, move, rivals)
    if keep is not None:
        out.append(keep)
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


def trumps_out(view: Game, seat: int, above: Card) -> tuple[Card, ...]:
    """Trumps higher than ``above`` that are still out as ``seat`` sees ``view``: not in
    its hand, on the table or in the discard pile."""
    gone = set(view.hand(seat)) | set(view.discarded)
    for attack, defence in view.table:
        gone.add(attack)
        if defence is not None:
            gone.add(defence)
    ranks = range(above.rank + 1, 15)
    return tuple(
        c for c in (Card(r, int(view.trump_suit)) for r in ranks)
        if c not in gone and _in_deck(c, view)
    )


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
