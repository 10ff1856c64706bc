"""Events: what happened when an action was applied.

:meth:`durak_core.Game.apply` returns a list of these.  They are frozen
values with a short English ``str`` for logs and a JSON-able ``to_dict``.
A :class:`Drew` event seen from one seat holds ``None`` for cards that seat
cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import Card


def _cards(cards: tuple[Card | None, ...]) -> str:
    return " ".join("?" if c is None else str(c) for c in cards)


# Each event spells out its __init__ (init=False): in the compiled engine a written
# __init__ is compiled too, while the one dataclass would generate runs as plain
# Python and made an event about ten times dearer to create.


@dataclass(frozen=True, slots=True, init=False)
class Attacked:
    """Attack cards were led or thrown in."""

    player: int
    cards: tuple[Card, ...]

    def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"player {self.player} attacks with {_cards(self.cards)}"


@dataclass(frozen=True, slots=True, init=False)
class Defended:
    """An attack card was beaten."""

    player: int
    attack_card: Card
    card: Card

    def __init__(self, player: int, attack_card: Card, card: Card) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "attack_card", attack_card)
        object.__setattr__(self, "card", card)

    def __str__(self) -> str:
        return f"player {self.player} beats {self.attack_card} with {self.card}"


@dataclass(frozen=True, slots=True, init=False)
class Transferred:
    """Perevodnoy: the defence moved on to ``defender``."""

    player: int
    card: Card
    shown: bool
    defender: int

    def __init__(self, player: int, card: Card, shown: bool, defender: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "shown", shown)
        object.__setattr__(self, "defender", defender)

    def __str__(self) -> str:
        how = "showing" if self.shown else "adding"
        return f"player {self.player} transfers to player {self.defender} by {how} {self.card}"


@dataclass(frozen=True, slots=True, init=False)
class TakeDeclared:
    """The defender will pick up the table (attackers may still throw in)."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)

    def __str__(self) -> str:
        return f"player {self.player} takes"


@dataclass(frozen=True, slots=True, init=False)
class Passed:
    """A player is done throwing in for now."""

    player: int

    def __init__(self, player: int) -> None:
        object.__setattr__(self, "player", player)

    def __str__(self) -> str:
        return f"player {self.player} passes"


@dataclass(frozen=True, slots=True, init=False)
class PickedUp:
    """The defender picked up every card on the table (in the open)."""

    player: int
    cards: tuple[Card, ...]

    def __init__(self, player: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"player {self.player} picks up {_cards(self.cards)}"


@dataclass(frozen=True, slots=True, init=False)
class Discarded:
    """The bout was beaten off: the table went to the discard pile."""

    cards: tuple[Card, ...]

    def __init__(self, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        return f"beaten: {_cards(self.cards)} discarded"


@dataclass(frozen=True, slots=True, init=False)
class Drew:
    """A player drew from the talon; ``None`` stands for a card not seen."""

    player: int
    cards: tuple[Card | None, ...]

    def __init__(self, player: int, cards: tuple[Card | None, ...]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "cards", cards)

    def __str__(self) -> str:
        n = len(self.cards)
        return f"player {self.player} draws {n} card{'s' if n != 1 else ''}"


@dataclass(frozen=True, slots=True, init=False)
class Left:
    """A player ran out of cards with the talon empty: they are out, safe."""

    player: int
    place: int

    def __init__(self, player: int, place: int) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "place", place)

    def __str__(self) -> str:
        return f"player {self.player} is out (place {self.place})"


@dataclass(frozen=True, slots=True, init=False)
class NewBout:
    """A new bout begins."""

    attacker: int
    defender: int

    def __init__(self, attacker: int, defender: int) -> None:
        object.__setattr__(self, "attacker", attacker)
        object.__setattr__(self, "defender", defender)

    def __str__(self) -> str:
        return f"player {self.attacker} attacks player {self.defender}"


@dataclass(frozen=True, slots=True, init=False)
class GameOver:
    """The game ended.  ``durak`` is None for a draw."""

    durak: int | None
    losers: tuple[int, ...]
    finish_order: tuple[int, ...]
    reason: str

    def __init__(
        self,
        durak: int | None,
        losers: tuple[int, ...],
        finish_order: tuple[int, ...],
        reason: str,
    ) -> None:
        object.__setattr__(self, "durak", durak)
        object.__setattr__(self, "losers", losers)
        object.__setattr__(self, "finish_order", finish_order)
        object.__setattr__(self, "reason", reason)

    def __str__(self) -> str:
        if self.durak is None:
            return f"game over: a draw ({self.reason})"
        if len(self.losers) > 1:
            return f"game over: team {', '.join(map(str, self.losers))} lose"
        return f"game over: player {self.durak} is the durak"


Event = (
    Attacked | Defended | Transferred | TakeDeclared | Passed | PickedUp | Discarded | Drew
    | Left | NewBout | GameOver
)


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-able dict with a ``type`` key and cards as text (``None`` for hidden).

    >>> event_to_dict(Defended(1, Card.parse("7s"), Card.parse("9s")))
    {'type': 'defended', 'player': 1, 'attack_card': '7♠', 'card': '9♠'}
    """
    out: dict[str, Any] = {"type": type(event).__name__.lower()}
    for name in event.__match_args__:  # the fields, in order (also when compiled)
        value = getattr(event, name)
        if isinstance(value, Card):
            value = str(value)
        elif isinstance(value, tuple):
            value = [str(v) if isinstance(v, Card) else v for v in value]
        out[name] = value
    return out


_EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__.lower(): cls
    for cls in (
        Attacked, Defended, Transferred, TakeDeclared, Passed, PickedUp, Discarded, Drew,
        Left, NewBout, GameOver,
    )
}


def event_from_dict(data: dict[str, Any]) -> Event:
    """The inverse of :func:`event_to_dict` (cards from text, ``None`` stays hidden).

    Raises ValueError naming what is wrong with ``data``.

    >>> e = Drew(1, (Card.parse("7h"), None))
    >>> event_from_dict(event_to_dict(e)) == e
    True
    """
    kind = _EVENT_TYPES.get(str(data.get("type")))
    if kind is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    values: list[Any] = []
    for name in kind.__match_args__:
        if name not in data:
            raise ValueError(f"event {data['type']!r} lacks {name!r}")
        values.append(_event_value(name, data[name]))
    event: Event = kind(*values)
    return event


def _seat(name: str, value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, not {value!r}")
    return value


def _event_value(name: str, value: Any) -> Any:
    if name in ("card", "attack_card"):
        return Card.parse(value)
    if name == "cards":
        if not isinstance(value, list | tuple):
            raise ValueError(f"cards must be a list, not {value!r}")
        return tuple(None if v is None else Card.parse(v) for v in value)
    if name in ("losers", "finish_order"):
        if not isinstance(value, list | tuple):
            raise ValueError(f"{name} must be a list, not {value!r}")
        return tuple(_seat(name, v) for v in value)
    if name == "durak" and value is None:
        return None
    if name == "shown":
        if not isinstance(value, bool):
            raise ValueError(f"shown must be true or false, not {value!r}")
        return value
    if name == "reason":
        if not isinstance(value, str):
            raise ValueError(f"reason must be text, not {value!r}")
        return value
    return _seat(name, value)  # player, defender, place, attacker, durak
