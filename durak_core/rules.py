"""The options of a game of Durak (docs/rules.md says what each one means), validated.

A bad value is a :class:`ValueError` naming the option and what it accepts; an
unknown option is Python's own :class:`TypeError` for an unexpected keyword
(:meth:`Rules.from_dict` turns that into a ValueError too).

>>> r = Rules(players=4, deck_size=52, variant="perevodnoy", throw_in="neighbours")
>>> r.players, r.variant, r.limit_cap(first_bout=True)
(4, 'perevodnoy', 5)
>>> Rules(players=5, deck_size=24)
Traceback (most recent call last):
...
ValueError: 5 players need 30 cards for the deal, but a 24-card deck has 24
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any, Literal

Variant = Literal["podkidnoy", "perevodnoy"]
ThrowIn = Literal["all", "neighbours"]

HAND_SIZE = 6
MAX_ATTACK_CARDS = 6


def _whole(value: object) -> bool:
    """An int that is not a bool (True would otherwise pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Rules:
    """Every rule option, with the defaults of docs/rules.md.

    players: 2 to 6.
    deck_size: 24 (9 to A), 36 (6 to A) or 52 (2 to A); must deal 6 cards to everyone.
    variant: ``"podkidnoy"`` (throw-in) or ``"perevodnoy"`` (transfer).
    throw_in: who may throw in: ``"all"`` attackers or only the ``"neighbours"``
        of the defender (the main attacker and the player on the defender's left).
    first_bout_limit: the attack-card limit before the first discard of the
        game (5 by default); ``None`` means the usual 6 from the start.
    open_with_several: the main attacker may lead several cards of one rank at once.
    transfer_by_showing_trump: in perevodnoy, transfer by showing (not playing)
        the trump of the attack rank, once per card per bout.
    teams: 4 or 6 players, partners sit opposite; a team loses together.
    match: games form a series: the next game's first attack is made against
        the previous durak by the player on their right (see :class:`Match`).
    bout_limit: a guard against endless take cycles between bots: a game that
        reaches this many bouts ends as a draw.  Real games end in well under
        100 bouts; the default is never reached in play.
    """

    players: int = 2
    deck_size: int = 36
    variant: Variant = "podkidnoy"
    throw_in: ThrowIn = "all"
    first_bout_limit: int | None = 5
    open_with_several: bool = True
    transfer_by_showing_trump: bool = False
    teams: bool = False
    match: bool = False
    bout_limit: int = 1000

    def __post_init__(self) -> None:
        for name in ("open_with_several", "transfer_by_showing_trump", "teams", "match"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")
        if not _whole(self.players) or not 2 <= self.players <= 6:
            raise ValueError(f"players must be 2 to 6, not {self.players!r}")
        if not _whole(self.deck_size) or self.deck_size not in (24, 36, 52):
            raise ValueError(f"deck_size must be 24, 36 or 52, not {self.deck_size!r}")
        if self.players * HAND_SIZE > self.deck_size:
            raise ValueError(
                f"{self.players} players need {self.players * HAND_SIZE} cards for the deal, "
                f"but a {self.deck_size}-card deck has {self.deck_size}"
            )
        if self.variant not in ("podkidnoy", "perevodnoy"):
            raise ValueError(f"variant must be 'podkidnoy' or 'perevodnoy', not {self.variant!r}")
        if self.throw_in not in ("all", "neighbours"):
            raise ValueError(f"throw_in must be 'all' or 'neighbours', not {self.throw_in!r}")
        if self.first_bout_limit is not None and (
            not _whole(self.first_bout_limit)
            or not 1 <= self.first_bout_limit <= MAX_ATTACK_CARDS
        ):
            raise ValueError(
                f"first_bout_limit must be None or 1 to 6, not {self.first_bout_limit!r}"
            )
        if self.transfer_by_showing_trump and self.variant != "perevodnoy":
            raise ValueError("transfer_by_showing_trump needs variant='perevodnoy'")
        if self.teams and self.players not in (4, 6):
            raise ValueError(f"teams need 4 or 6 players, not {self.players}")
        if not _whole(self.bout_limit) or self.bout_limit < 1:
            raise ValueError(f"bout_limit must be a positive number, not {self.bout_limit!r}")

    def limit_cap(self, first_bout: bool) -> int:
        """The attack-card cap of a bout, before the defender's hand is considered."""
        if first_bout and self.first_bout_limit is not None:
            return self.first_bout_limit
        return MAX_ATTACK_CARDS

    def team_of(self, seat: int) -> int:
        """The team of a seat (partners sit opposite); every seat is its own team without teams."""
        if self.teams:
            return seat % (self.players // 2)
        return seat

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict; :meth:`from_dict` reads it back."""
        # Not dataclasses.asdict: its deep copy made this ~30x slower, and state_hash()
        # and observation() call it on every move.  Every field is a plain value.
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @cached_property
    def hash_items(self) -> tuple[tuple[str, Any], ...]:
        """The options as (name, value) pairs sorted by name, the part of every state hash
        that a game's rules make.

        Made once per Rules (the options never change): :meth:`Game.public_hash` runs on
        every move of a network game, and building this from :meth:`to_dict` each time
        was a fifth of its work.  (cached_property writes the instance's ``__dict__``
        directly, which a frozen dataclass allows; equality and hashing still see only
        the fields.)

        >>> Rules(players=3).hash_items[:3]
        (('bout_limit', 1000), ('deck_size', 36), ('first_bout_limit', 5))
        """
        return tuple(sorted(self.to_dict().items()))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a dict, refusing unknown keys.

        >>> Rules.from_dict(Rules(players=3).to_dict()) == Rules(players=3)
        True
        """
        if not isinstance(data, dict):
            raise ValueError(f"rule options must be a dict, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = {str(key) for key in data} - known
        if unknown:
            names = ", ".join(k if k.isidentifier() else repr(k) for k in sorted(unknown))
            raise ValueError(
                f"unknown rule option(s): {names} (the options are {', '.join(_FIELD_NAMES)})"
            )
        return cls(**data)


#: Field names in declaration order (the order of to_dict()).
_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Rules))
