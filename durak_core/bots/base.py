"""The one interface every computer player speaks, and the simplest bot.

A bot sees only what its seat may know: the seat's observation (see
:meth:`durak_core.Game.observation`) and its legal actions.  It returns one
of those actions.  ``start`` and ``on_events`` are optional hooks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..actions import Action
from ..events import Event
from ..rules import Rules


class Bot:
    """Base class of all bots.  Subclasses override :meth:`choose`.

    The driver (an arena, a notebook, a test) calls :meth:`start` once per
    game, then :meth:`choose` whenever this seat must decide, and
    :meth:`on_events` with what the seat saw happen (other players' draws
    hidden).  Nothing else reaches the bot, so it cannot peek at hidden cards.
    """

    #: Short name for tables and logs.
    name: str = "bot"

    seat: int
    rules: Rules

    def start(self, seat: int, rules: Rules) -> None:
        """A game begins; this bot plays ``seat``."""
        self.seat = seat
        self.rules = rules

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Return one action of ``legal`` (never empty when called)."""
        raise NotImplementedError

    def on_events(self, events: Sequence[Event]) -> None:
        """What happened after any action, as this seat saw it (optional)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomBot(Bot):
    """Uniformly random among the legal actions; seeded for reproducibility."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        return self._rng.choice(list(legal))
