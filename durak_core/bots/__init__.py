"""Bots: one interface for every computer player.

A bot sees only what its seat may know: the seat's observation (see
:meth:`durak_core.Game.observation`) and its legal actions.  It returns one
of those actions.  ``start`` and ``on_events`` are optional hooks.

>>> from durak_core import Rules, Game
>>> from durak_core.bots import RandomBot
>>> game = Game.new(Rules(), seed=1)
>>> bot = RandomBot(seed=5)
>>> bot.start(game.attacker, game.rules)
>>> bot.choose(game.observation(game.attacker), game.legal_actions(game.attacker)) in game.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action
from ..events import Event
from ..rules import Rules


class Bot:
    """Base class of all bots.  Subclasses override :meth:`choose`."""

    #: Short name for tables and logs.
    name: str = "bot"

    def start(self, seat: int, rules: Rules) -> None:
        """A game begins; this bot plays ``seat``."""
        self.seat = seat
        self.rules = rules

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        """Return one action of ``legal`` (never empty when called)."""
        raise NotImplementedError

    def on_events(self, events: Sequence[Event]) -> None:
        """What happened after any action (optional)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomBot(Bot):
    """Uniformly random among the legal actions; seeded for reproducibility."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: dict[str, Any], legal: Sequence[Action]) -> Action:
        return self._rng.choice(list(legal))


#: Bot factories by name; ``make_bot("name?key=value")`` passes options as keywords.
REGISTRY: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a built-in bot from a spec such as ``"random"`` or ``"ismcts?ms=100"``.

    >>> make_bot("random", seed=1).name
    'random'
    """
    name, _, query = spec.partition("?")
    factory = REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; built in: {', '.join(sorted(REGISTRY))}")
    options: dict[str, Any] = {}
    for part in filter(None, query.split("&")):
        key, _, value = part.partition("=")
        options[key] = _number(value)
    return factory(seed=seed, **options)


def _number(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
