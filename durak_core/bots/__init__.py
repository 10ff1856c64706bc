"""Bots: one interface for every computer player.

A bot sees only what its seat may know: the seat's observation (see
:meth:`durak_core.Game.observation`) and its legal actions.  It returns one
of those actions.  ``start`` and ``on_events`` are optional hooks.

Built in: ``random`` (:class:`RandomBot`), ``greedy`` (:class:`GreedyBot`),
``ismcts`` (:class:`IsmctsBot`, the AI), ``ismcts-v1`` (:class:`IsmctsV1Bot`,
the ISMCTS of before the endgame solver, kept as a yardstick) and ``ismcts-v2``
(:class:`IsmctsV2Bot`, the AI as it was when issue 36 began, frozen as the next bar).
:func:`play_game` plays in-process bots against each other in the fixed order of
:func:`next_to_act`.

>>> from durak_core import Rules, Game
>>> from durak_core.bots import RandomBot
>>> game = Game.new(Rules(), seed=1)
>>> bot = RandomBot(seed=5)
>>> bot.start(game.attacker, game.rules)
>>> seat = game.attacker
>>> bot.choose(game.observation(seat), game.legal_actions(seat)) in game.legal_actions(seat)
True
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot, RandomBot
from .driver import greedy_decisions, next_to_act, play_game, seat_events
from .greedy import GreedyBot, greedy_action
from .ismcts import IsmctsBot, IsmctsV1Bot, IsmctsV2Bot, MoveEstimate
from .ismcts_config import IsmctsConfig
from .options import check_options, parse_options

__all__ = [
    "REGISTRY", "Bot", "GreedyBot", "IsmctsBot", "IsmctsConfig", "IsmctsV1Bot", "IsmctsV2Bot",
    "MoveEstimate", "RandomBot", "check_options", "greedy_action", "greedy_decisions",
    "make_bot", "next_to_act", "parse_options", "play_game", "seat_events",
]

#: Bot factories by name; ``make_bot("name?key=value")`` passes options as keywords.
REGISTRY: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "ismcts": IsmctsBot,
    "ismcts-v1": IsmctsV1Bot,
    "ismcts-v2": IsmctsV2Bot,
}


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a built-in bot from a spec such as ``"random"`` or ``"ismcts?ms=100"``.

    Options are ``key=value`` pairs joined by ``&``; numbers are converted, and each
    option is checked against the bot's constructor (:func:`check_options`), so a
    mistake names the option and what it wants.

    >>> make_bot("random", seed=1).name
    'random'
    >>> make_bot("ismcts?iterations=200&c=0.5", seed=1).iterations
    200
    >>> make_bot("ismcts?speed=3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: bot 'ismcts' has no option 'speed' (its options: ms, iterations, ...)
    >>> make_bot("ismcts?ms=abc")
    Traceback (most recent call last):
    ...
    ValueError: option ms of bot 'ismcts' wants a number, not 'abc'
    """
    name, _, query = spec.partition("?")
    factory = REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; built in: {', '.join(sorted(REGISTRY))}")
    options = parse_options(filter(None, query.split("&")), bot=name)
    check_options(factory, options, name)
    try:
        return factory(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bad options for bot {name!r}: {exc}") from None
