"""The coach: what the AI thinks of a seat's moves, and a review of a finished game.

:func:`hint` asks the AI (:class:`~durak_core.bots.IsmctsBot`) about one
position: its suggested move and, for every legal move, the estimated chance
of not being the durak.  :func:`review` replays a game from its log and asks
the same question at each decision of one seat, with only what that seat
could see at the time (its observation and its view of the events; never the
other hands), so a saved game or a LAN game's log is reviewed the same way.
With an iteration budget (the default) the results depend only on the game
and the seed.

>>> from durak_core import Game, Rules
>>> from durak_core.bots import GreedyBot, play_game
>>> game = play_game(Game.new(Rules(), seed=3), [GreedyBot(), GreedyBot()])
>>> report = review(game, seat=0, iterations=40, seed=1)
>>> len(report.decisions) > 5, all(0 <= d.chance <= 1 for d in report.decisions)
(True, True)
>>> review(game, seat=0, iterations=40, seed=1) == report   # the same with the same seed
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action, parse_action
from ..events import Event
from ..game import Game
from .driver import seat_events
from .ismcts import IsmctsBot, MoveEstimate
from .reasons import Reason, explain

#: Rollouts per decision for hints and reviews when no budget is given.
ITERATIONS = 400


def coach_bot(
    seed: int | None = 0, iterations: int | None = ITERATIONS, ms: float | None = None
) -> IsmctsBot:
    """The AI as the coach uses it: the default :class:`IsmctsBot` with this budget."""
    return IsmctsBot(seed=seed, iterations=iterations, ms=ms)


def shown_order(estimates: Sequence[MoveEstimate]) -> list[MoveEstimate]:
    """``estimates`` as the coach shows them: the highest chance of not being the durak
    first (then the search's score, then the deals tried), so no move is listed above
    one that shows a higher chance.

    The search ranks by its score (:attr:`MoveEstimate.score`: a draw counts half)
    and the coach shows the chance (:attr:`MoveEstimate.safe`: a draw counts as safe);
    the two orders can differ, and a list in the search's order would show a lower
    chance above a higher one.  :func:`search_choice` is the search's own first.

    >>> from durak_core import parse_action
    >>> win = MoveEstimate(parse_action("0 attack 9c"), 0.60, 0.60, 40)
    >>> draws = MoveEstimate(parse_action("0 attack 6h"), 0.575, 0.65, 40)
    >>> shown_order([win, draws]) == [draws, win]
    True
    >>> search_choice([win, draws]) == win
    True
    """
    return sorted(estimates, key=lambda e: (-e.safe, -e.score, -e.samples))


def search_choice(estimates: Sequence[MoveEstimate]) -> MoveEstimate:
    """The move the search itself ranks first: the best score (then the most deals)."""
    return max(estimates, key=lambda e: (e.score, e.samples))


def hint(
    observation: dict[str, Any],
    events: Sequence[Event] = (),
    *,
    iterations: int | None = ITERATIONS,
    ms: float | None = None,
    seed: int | None = 0,
) -> list[MoveEstimate]:
    """Every legal move of the observing seat with the AI's estimate, the highest
    chance of not being the durak first (:func:`shown_order`).

    events: what the seat saw happen in this game so far (its view, as
        :func:`~durak_core.bots.seat_events` gives it): the AI reads the
        opponents' play from them.  Without them it deals hidden cards
        uniformly.
    """
    legal = [parse_action(a) for a in observation["legal"]]
    if not legal:
        return []
    bot = coach_bot(seed, iterations, ms)
    bot.start(int(observation["seat"]), Game.from_observation(observation).rules)
    bot.on_events(events)
    return shown_order(bot.analyse(observation, legal))


def hint_reasons(
    observation: dict[str, Any], events: Sequence[Event], estimates: Sequence[MoveEstimate]
) -> list[Reason]:
    """Why the AI suggests its move (:func:`~durak_core.bots.reasons.explain`), strongest
    first: from the same observation, events and estimates as :func:`hint`."""
    if not estimates:
        return []
    view = Game.from_observation(observation)
    return explain(view, int(observation["seat"]), events, estimates)


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: what it played and what the AI thought.

    number: the move's number in the game (1 for the first action of the game).
    estimates: every legal move with its estimate, the highest chance of not being
        the durak first (:func:`shown_order`).
    reasons: why the AI's move is better than the move played, strongest first
        (:func:`~durak_core.bots.reasons.explain`); empty when the seat played the
        AI's move or no reason applies.
    """

    number: int
    played: Action
    estimates: tuple[MoveEstimate, ...]
    reasons: tuple[Reason, ...] = ()

    @property
    def best(self) -> MoveEstimate:
        """The move the AI preferred: the highest chance shown (:func:`shown_order`)."""
        return self.estimates[0]

    @property
    def chosen(self) -> MoveEstimate:
        """The estimate of the move played."""
        return next(e for e in self.estimates if e.action == self.played)

    @property
    def chance(self) -> float:
        """The estimated chance of not being the durak after the move played."""
        return self.chosen.safe

    @property
    def drop(self) -> float:
        """How much the chance fell short of the AI's preferred move (0 if it did not)."""
        return max(0.0, self.best.safe - self.chosen.safe)


@dataclass(frozen=True)
class GameReview:
    """A reviewed game: one :class:`Decision` per decision of ``seat``."""

    seat: int
    decisions: tuple[Decision, ...]
    losers: tuple[int, ...]
    iterations: int | None
    seed: int | None

    @property
    def outcome(self) -> str:
        """"safe", "durak" or "draw" for the reviewed seat."""
        if not self.losers:
            return "draw"
        return "durak" if self.seat in self.losers else "safe"

    def biggest_drops(self, count: int = 3, least: float = 0.05) -> list[Decision]:
        """The decisions where the chance fell most below the AI's preferred move
        (at most ``count``, each by at least ``least``), in game order."""
        worst = sorted(self.decisions, key=lambda d: -d.drop)[:count]
        return sorted((d for d in worst if d.drop >= least), key=lambda d: d.number)


def review(
    game: Game,
    seat: int,
    *,
    iterations: int | None = ITERATIONS,
    ms: float | None = None,
    seed: int | None = 0,
) -> GameReview:
    """Review ``seat``'s decisions in ``game`` (a finished or unfinished full game,
    e.g. from :meth:`Game.from_json`) by replaying its log.

    At each action of ``seat`` that had an alternative, the AI analyses the
    observation the seat had then, with the events it had seen, on a budget
    of ``iterations`` rollouts (or ``ms`` milliseconds, which is not
    reproducible).  ``seed`` makes the result reproducible: decision ``k`` is
    searched with its own generator seeded from ``seed`` and ``k``.
    """
    if game.deck is None:
        raise ValueError("review needs a full game (rules, deck and log), not a seat's view")
    if not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat!r} in a {game.players}-player game")
    replay = Game.new(game.rules, deck=game.deck, previous_durak=game._prev_durak)
    seen: list[Event] = []
    decisions: list[Decision] = []
    for number, action in enumerate(game.log, 1):
        legal = replay.legal_actions(seat)
        if action.player == seat and len(legal) > 1:
            bot = coach_bot(None if seed is None else seed * 100_003 + number, iterations, ms)
            bot.start(seat, game.rules)
            bot.on_events(seen)
            observation = replay.observation(seat)
            estimates = shown_order(bot.analyse(observation, legal))
            why: list[Reason] = []
            if estimates and estimates[0].action != action:
                why = explain(Game.from_observation(observation), seat, seen, estimates,
                              estimates[0].action, action)
            decisions.append(Decision(number, action, tuple(estimates), tuple(why)))
        events = replay.apply(action)
        seen.extend(seat_events(seat, events, replay))
    return GameReview(seat, tuple(decisions), tuple(replay.losers), iterations, seed)
