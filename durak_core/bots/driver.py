"""Who is asked next, what each seat may see, and a loop that plays bots.

Durak lets several seats act at one moment (an attacker may throw in while
the defender thinks).  A driver of bots needs one fixed order instead, or the
result would depend on which program answers faster.  :func:`next_to_act`
is that order, shared by the arena, the search inside ISMCTS and anyone who
drives bots in a notebook:

1. While an attack card lies unbeaten and the defender has not declared
   take, the defender acts (beat, transfer or take).
2. Otherwise the seats that may throw in are asked in turn, clockwise from
   the main attacker, skipping those who passed since the table last
   changed and those with nothing legal: each throws in or passes.  An
   empty table means the main attacker leads.

A seat with a single legal action (a forced take, a pass with no card that
matches) has nothing to decide; :func:`play_game` applies it without asking.

>>> from durak_core import Game, Rules
>>> from durak_core.bots import RandomBot
>>> game = Game.new(Rules(), seed=3)
>>> next_to_act(game) == game.attacker
True
>>> play_game(game, [RandomBot(1), RandomBot(2)]).is_over
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..actions import Action
from ..events import Drew, Event
from ..game import Game
from ..rules import Rules
from .base import Bot
from .greedy import GreedyBot


def next_to_act(game: Game) -> int | None:
    """The seat that decides next under the fixed order above; None when the game is over."""
    if game.is_over:
        return None
    # The defender has legal actions exactly while an attack card lies unbeaten
    # and they have not declared take (take is then always among them).
    defender = game.defender
    if game.legal_actions(defender):
        return defender
    passed = game.passed
    for seat in game.throwers():
        if seat not in passed and game.legal_actions(seat):
            return seat
    return None


def seat_events(seat: int, events: Sequence[Event], game: Game) -> list[Event]:
    """``events`` as ``seat`` saw them: cards other seats drew are hidden (None).

    The trump card is the exception: it lies face up under the talon, so
    everybody sees who draws it.
    """
    trump = game.trump_card
    out: list[Event] = []
    for event in events:
        if isinstance(event, Drew) and event.player != seat:
            hidden = tuple(c if c is trump else None for c in event.cards)
            if hidden != event.cards:
                event = Drew(event.player, hidden)
        out.append(event)
    return out


def play_game(
    game: Game,
    bots: Sequence[Bot],
    *,
    start: bool = True,
    on_action: Callable[[Action, list[Event]], None] | None = None,
) -> Game:
    """Play ``game`` to the end with one in-process bot per seat; returns the game.

    Each bot gets its seat's observation and legal actions only, and its
    seat's view of the events.  An illegal choice raises
    :class:`durak_core.IllegalAction` (the arena turns that into a forfeit).
    """
    if len(bots) != game.players:
        raise ValueError(f"{game.players} seats need {game.players} bots, got {len(bots)}")
    if start:
        for index, bot in enumerate(bots):
            bot.start(index, game.rules)
    while True:
        seat = next_to_act(game)
        if seat is None:
            if not game.is_over:
                raise RuntimeError(f"no seat can act, yet the game is not over: {game!r}")
            break
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            action = bots[seat].choose(game.observation(seat), legal)
        events = game.apply(action)
        if on_action is not None:
            on_action(action, events)
        for s, bot in enumerate(bots):
            bot.on_events(seat_events(s, events, game))
    return game


def greedy_decisions(
    rules: Rules, seeds: Iterable[int], every: int, *, while_talon: bool = False
) -> list[tuple[dict[str, Any], list[Action]]]:
    """Fixed positions for a search to decide: every ``every``-th decision with a choice
    (counted across the games) in one game of greedy bots per seed of ``seeds``, each as
    the deciding seat's observation and legal actions; with ``while_talon`` only while
    the talon holds cards.  The benchmarks time searches on them and the tests pin the
    searches' trees on them.

    >>> from durak_core import Rules
    >>> points = greedy_decisions(Rules(), range(2), 3, while_talon=True)
    >>> all(len(legal) > 1 for _, legal in points), len(points) > 2
    (True, True)
    """
    out = []
    count = 0
    for seed in seeds:
        game, greedy = Game.new(rules, seed=seed), GreedyBot()
        while not game.is_over and not (while_talon and game.talon_size == 0):
            seat = next_to_act(game)
            assert seat is not None
            legal = game.legal_actions(seat)
            if len(legal) > 1:
                if count % every == 0:
                    out.append((game.observation(seat), legal))
                count += 1
            game.apply(greedy.choose(game.observation(seat), legal))
    return out
