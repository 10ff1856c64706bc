"""Actions: small frozen values, one kind per move, each naming its player.

Every action has a text form that round-trips through :func:`parse_action`::

    0 attack 7♠            the main attacker leads, or anyone throws in
    0 attack 7♠ 7♥         lead several cards of one rank at once (opening only)
    1 defend 7♠ with 9♠    beat an attack card
    1 transfer 7♦          perevodnoy: transfer by playing a card of the rank
    1 show 7♥              perevodnoy: transfer by showing the trump of the rank
    1 take                 the defender will pick up the table
    0 pass                 done throwing in ("beaten" for the main attacker)

Input is forgiving (ASCII suits, any case, extra spaces); output is canonical.

>>> a = parse_action("1 defend 7s with 9S")
>>> a
Defend(player=1, attack_card=Card('7♠'), card=Card('9♠'))
>>> str(a)
'1 defend 7♠ with 9♠'
>>> parse_action(str(Attack(0, Card.parse("7h"), (Card.parse("7c"),))))
Attack(player=0, card=Card('7♣'), more=(Card('7♥'),))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from .cards import Card


def _refuse(action: object, card: object) -> NoReturn:
    """Refuse something other than a Card where an action names one, saying how to make one.

    Text is the usual mistake (``Attack(0, "7s")``): the answer names
    ``Card.parse`` (and ``parse_action`` for a whole action in text).

    >>> Attack(0, "7s")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    TypeError: Attack wants a Card, not the text '7s': write Card.parse('7s') (or parse_action(...
    """
    kind = type(action).__name__
    if isinstance(card, str):
        example = f"{getattr(action, 'player', 0)} {kind.lower()} {card}"
        if kind == "Defend":
            example = "1 defend 7s with 9s"
        raise TypeError(
            f"{kind} wants a Card, not the text {card!r}: write Card.parse({card!r}) "
            f"(or parse_action({example!r}) for a whole action)"
        )
    raise TypeError(f"{kind} wants a Card, not {card!r} (make one with Card.parse)")


@dataclass(frozen=True, slots=True)
class Attack:
    """Lead a card (or several of one rank, when opening) or throw one in.

    The cards of a multi-card lead are kept in a canonical order, so two
    spellings of the same lead are the same action.
    """

    player: int
    card: Card
    more: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        # Type checks written out (no call) on the common path: the engine makes its
        # shared actions through here too.
        if type(self.card) is not Card:
            _refuse(self, self.card)
        if type(self.more) is not tuple:
            raise TypeError(f"Attack's more wants a tuple of Cards, not {self.more!r}")
        if self.more:
            for c in self.more:
                if type(c) is not Card:
                    _refuse(self, c)
            cards = (self.card, *self.more)
            if len(set(cards)) != len(cards):
                raise ValueError("a card cannot be led twice in one attack")
            ordered = sorted(cards, key=lambda c: c.index)
            object.__setattr__(self, "card", ordered[0])
            object.__setattr__(self, "more", tuple(ordered[1:]))

    @property
    def cards(self) -> tuple[Card, ...]:
        return (self.card, *self.more)

    def __str__(self) -> str:
        return f"{self.player} attack " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Defend:
    """Beat ``attack_card`` on the table with ``card`` from the hand."""

    player: int
    attack_card: Card
    card: Card

    def __post_init__(self) -> None:
        if type(self.attack_card) is not Card:
            _refuse(self, self.attack_card)
        if type(self.card) is not Card:
            _refuse(self, self.card)

    def __str__(self) -> str:
        return f"{self.player} defend {self.attack_card} with {self.card}"


@dataclass(frozen=True, slots=True)
class Transfer:
    """Perevodnoy: add a card of the attack rank and pass the defence on.

    With ``show=True`` the trump of that rank is only shown, not played
    (option ``transfer_by_showing_trump``).
    """

    player: int
    card: Card
    show: bool = False

    def __post_init__(self) -> None:
        if type(self.card) is not Card:
            _refuse(self, self.card)

    def __str__(self) -> str:
        return f"{self.player} {'show' if self.show else 'transfer'} {self.card}"


@dataclass(frozen=True, slots=True)
class Take:
    """The defender gives up: they will pick up every card on the table."""

    player: int

    def __str__(self) -> str:
        return f"{self.player} take"


@dataclass(frozen=True, slots=True)
class Pass:
    """Done throwing in, until the table changes (the main attacker's "beaten")."""

    player: int

    def __str__(self) -> str:
        return f"{self.player} pass"


Action = Attack | Defend | Transfer | Take | Pass
ACTION_TYPES = (Attack, Defend, Transfer, Take, Pass)


def parse_action(text: str) -> Action:
    """Read an action from its text form (see the module docstring).

    >>> parse_action("2 TAKE")
    Take(player=2)
    >>> parse_action("0 attack")
    Traceback (most recent call last):
    ...
    ValueError: not an action: '0 attack' (attack needs a card, e.g. '0 attack 7♠')
    """
    words = text.split()
    if len(words) < 2 or not (words[0].isascii() and words[0].isdigit()):
        raise ValueError(
            f"not an action: {text!r} (write the seat, then a verb: attack, defend, "
            "transfer, show, take or pass)"
        )
    player = int(words[0])
    verb = words[1].lower()
    args = words[2:]
    try:
        if verb == "attack":
            if not args:
                raise ValueError("attack needs a card, e.g. '0 attack 7♠'")
            cards = [Card.parse(a) for a in args]
            return Attack(player, cards[0], tuple(cards[1:]))
        if verb == "defend":
            if len(args) != 3 or args[1].lower() != "with":
                raise ValueError("write e.g. '1 defend 7♠ with 9♠'")
            return Defend(player, Card.parse(args[0]), Card.parse(args[2]))
        if verb in ("transfer", "show"):
            if len(args) != 1:
                raise ValueError(f"{verb} needs one card, e.g. '1 {verb} 7♦'")
            return Transfer(player, Card.parse(args[0]), show=verb == "show")
        if verb in ("take", "pass"):
            if args:
                raise ValueError(f"{verb} takes no cards")
            return Take(player) if verb == "take" else Pass(player)
    except ValueError as exc:
        raise ValueError(f"not an action: {text!r} ({exc})") from None
    raise ValueError(f"not an action: {text!r} (unknown verb {words[1]!r})")
