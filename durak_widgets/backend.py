"""Table backends: where the game the widgets show actually lives.

The controller (:mod:`durak_widgets.controller`) never touches a :class:`~durak_core.Game`
directly.  It talks to a *table backend* through the small :class:`TableBackend`
protocol: what may seat ``s`` see (``observation``), would this action be legal
(``why_illegal``), play it (``submit``), who is thinking, the score, a new game.
The backend tells the controller about changes by calling the ``changed`` callback
it was given in :meth:`TableBackend.attach`.

:class:`LocalBackend` is the one used by :func:`durak_widgets.play`: a
:class:`~durak_core.Match` of games on this machine, some seats played by people at
the screen, the others by bots thinking on a worker thread.  A network backend (LAN
play) implements the same protocol around a network session; see docs/widgets.md.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from durak_core import Action, Event, Game, GameOver, IllegalAction, Match, Rules
from durak_core.bots import Bot, next_to_act, seat_events

from . import words
from .browser import threads_available
from .handoff import Handoff

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class Forced:
    """An engine event of a move its seat did not choose: the log shows the event with
    ``why`` after it ("Bob takes — timed out").  A network table reports a move its move
    clock played (or a bot played for an absent player) this way."""

    event: Event
    why: str


#: What a backend reports through ``changed``: engine events, a forced move's event, or
#: a plain sentence for the log (a bot's failure, a network notice).
Update = Event | Forced | str
Changed = Callable[[Sequence[Update]], None]


@dataclass(frozen=True)
class SeatNote:
    """What a backend knows of a seat beyond the observation (a network table does).

    Backends that know more than the game implement the optional ``seat_notes()``
    (one note per seat) and ``table_line()`` (a sentence about the table, e.g. its move
    clock); the controller shows them when present and the same table without them
    otherwise.
    """

    #: Who plays the seat, when it is worth saying ("bot, in Alice's kernel").
    kind: str = ""
    #: How the seat is doing: "connection lost", "back", "left", "a bot plays for them".
    state: str = ""
    #: Seconds left on the seat's move clock (None: its clock is not running).
    clock: float | None = None


@dataclass(frozen=True)
class Score:
    """A running score across the games of a match."""

    games: int  #: finished games
    durak_counts: tuple[int, ...]  #: per seat: how often that seat was the durak
    draws: int


@runtime_checkable
class TableBackend(Protocol):
    """What the table widgets need from a game, wherever it is played.

    Threading contract: the controller calls every method on the UI thread while
    holding ``handoff.lock``.  A backend whose state changes on another thread (a bot
    worker, a socket reader) must make that change inside ``handoff.post(fn)`` (which
    runs ``fn`` on the UI thread under the lock) and call ``changed`` from there.
    """

    @property
    def rules(self) -> Rules:
        """The rules of the games at this table."""
        ...

    @property
    def names(self) -> Sequence[str]:
        """A display name per seat."""
        ...

    @property
    def local_seats(self) -> Sequence[int]:
        """Seats played by people at this screen (one, or several for hot-seat)."""
        ...

    def attach(self, handoff: Handoff, changed: Changed) -> None:
        """Called once by the controller, after the first drawing; start playing.

        From now on report every change through ``changed`` (see the class docstring).
        """
        ...

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know now: :meth:`durak_core.Game.observation` data."""
        ...

    def why_illegal(self, action: Action) -> str | None:
        """None if ``action`` may be submitted now, else the sentence saying why not."""
        ...

    def submit(self, action: Action) -> None:
        """Play ``action`` for a local seat; raise :class:`~durak_core.IllegalAction` if refused.

        A network backend may only propose the action here and report it through
        ``changed`` once it is agreed.
        """
        ...

    def thinking(self) -> Sequence[int]:
        """Seats whose move is being computed or awaited right now (for "thinking...")."""
        ...

    def score(self) -> Score | None:
        """The match score, or None if this table keeps none."""
        ...

    def new_game(self) -> None:
        """Deal the next game of the match."""
        ...

    def close(self) -> None:
        """Stop worker threads and sockets; the table is gone."""
        ...

    # Optional, not part of the protocol's check (the controller looks them up):
    #   seat_notes() -> Sequence[SeatNote]   one per seat (see SeatNote)
    #   table_line() -> str                  e.g. "30 s a move"


def waiting_on(obs: dict[str, Any]) -> list[int]:
    """The seats expected to act next, from public information only, in play order.

    Durak is not strictly turn-based (attackers may throw in while the defender
    thinks), so this is a convention for the screen: the leader when the table is
    empty; the defender while a card is unbeaten and they have not declared take;
    otherwise the attackers who have not passed, clockwise from the main attacker.
    It is :func:`durak_core.bots.next_to_act` (the order the bots are asked in)
    computed from an observation, which is all a network table has.

    >>> waiting_on(Game.new(Rules(), seed=7).observation(0))
    [1]
    """
    if obs["over"]:
        return []
    attacker, defender = obs["attacker"], obs["defender"]
    table = obs["table"]
    if not table:
        return [attacker]
    if not obs["taking"] and any(d is None for _, d in table):
        return [defender]
    active = set(obs["active"])
    passed = set(obs["passed"])
    n = len(obs["hands"])
    order = ((attacker + k) % n for k in range(n))
    return [s for s in order if s != defender and s in active and s not in passed]


@dataclass
class _Think:
    """One request to a bot: which seat, for which state of which game."""

    seat: int
    version: int
    legal: list[Action]


class LocalBackend:
    """A match played on this machine: people at the screen and bots.

    rules: the rules of every game of the match.
    bots: seat -> Bot for every seat not played at the screen.
    names: a display name per seat.
    seed: seeds the match's deals (None: fresh randomness).
    delay: the least time, in seconds, between a bot being asked and its card landing,
        so people can follow the play; 0 in tests.
    threads: think on a worker thread (True) or inline on the UI thread (False).
        None: threads unless the hand-off is in ``"sync"`` mode, which is for tests
        and scripts and wants every move done when a click returns.  Where there are
        no threads (a browser, see :mod:`durak_widgets.browser`), None means: think in
        a later turn of the kernel's event loop and land the card with a timer on it.
    first_game: play this game first instead of dealing one (for tests and puzzles).
    """

    def __init__(
        self,
        rules: Rules,
        bots: Mapping[int, Bot],
        names: Sequence[str],
        seed: int | None = None,
        delay: float = 0.0,
        threads: bool | None = None,
        first_game: Game | None = None,
    ) -> None:
        n = rules.players
        if len(names) != n:
            raise ValueError(f"one name per seat expected: {n} seats, {len(names)} names")
        for seat, bot in bots.items():
            if not 0 <= seat < n:
                raise ValueError(f"bot seat {seat} is not a seat of a {n}-player table")
            if not isinstance(bot, Bot):
                raise TypeError(f"seat {seat}: {bot!r} is not a durak_core.bots.Bot")
        if delay < 0:
            raise ValueError(f"delay must be >= 0 seconds, not {delay!r}")
        if threads and not threads_available():
            raise ValueError("threads=True: this Python has no threads (a browser)")
        if first_game is not None and first_game.rules != rules:
            raise ValueError("first_game was dealt with other rules than the table's")
        self._rules = rules
        self._bots = dict(bots)
        self._names = tuple(names)
        self._local = tuple(s for s in range(n) if s not in self._bots)
        self.delay = delay
        self._threads_wanted = threads
        self.match = Match(rules, seed=seed)
        self._game = first_game if first_game is not None else self.match.new_game()
        self._version = 0
        self._recorded = False
        self._history: list[Event] = []  # this game's events, for seat_history
        # Per bot: things to tell it before its next choice ("start", or events).
        self._inbox: dict[int, list[tuple[str, Any]]] = {s: [("start", None)] for s in self._bots}
        self._busy: _Think | None = None
        self._handoff: Handoff | None = None
        self._changed: Changed | None = None
        self._threads = False
        self._deferred = False
        self._thinks = 0
        self._stop = threading.Event()
        self._closed = False
        #: The bots' worker threads are named after this (one at a time per table).
        self.thread_name_prefix = f"durak-bot-{id(self):x}"
        #: How many times each seat's bot was asked to choose (tests read this).
        self.asked: dict[int, int] = dict.fromkeys(self._bots, 0)

    # ------------------------------------------------------------ protocol

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def names(self) -> Sequence[str]:
        return self._names

    @property
    def local_seats(self) -> Sequence[int]:
        return self._local

    @property
    def game(self) -> Game:
        """The current game (the full state; the widgets only ever see observations)."""
        return self._game

    @property
    def bots(self) -> Mapping[int, Bot]:
        return dict(self._bots)

    def attach(self, handoff: Handoff, changed: Changed) -> None:
        if self._handoff is not None:
            raise RuntimeError("this backend is already attached to a table")
        self._handoff = handoff
        self._changed = changed
        threads = self._threads_wanted
        if threads is None:
            threads = handoff.mode != "sync" and threads_available()
            # No threads but an event loop (a browser): think in a later turn of it.
            self._deferred = not threads and handoff.mode == "kernel"
        self._threads = threads
        # Run the opening (a bot may lead) through the hand-off like everything else.
        handoff.post(self._settle_and_schedule)

    def observation(self, seat: int) -> dict[str, Any]:
        return self._game.observation(seat)

    def why_illegal(self, action: Action) -> str | None:
        player = getattr(action, "player", None)
        if isinstance(player, int) and player in self._bots:
            return words.not_at_this_screen(self._names[player])
        return self._game.why_illegal(action)

    def submit(self, action: Action) -> None:
        player = getattr(action, "player", None)
        if not isinstance(player, int) or player not in self._local:
            raise IllegalAction(f"Seat {player!r} is not played at this screen.", action)
        events = self._game.apply(action)  # raises IllegalAction, changing nothing
        self._after(list(events))

    def thinking(self) -> Sequence[int]:
        return () if self._busy is None else (self._busy.seat,)

    def score(self) -> Score | None:
        m = self.match
        return Score(m.games_played, tuple(m.score), m.draws)

    def seat_history(self, seat: int) -> list[Event]:
        """The events of the current game as ``seat`` saw them (other seats' draws
        hidden): what the coach reads the opponents' play from."""
        return seat_events(seat, self._history, self._game)

    def new_game(self) -> None:
        """Deal the next game; an unfinished game is abandoned and not counted."""
        self._game = self.match.new_game()
        self._history = []
        self._recorded = False
        self._version += 1
        for seat in self._bots:
            self._inbox[seat] = [("start", None)]
        self._settle_and_schedule()

    def close(self) -> None:
        self._closed = True
        self._stop.set()

    # ------------------------------------------------------------ the play

    def _after(self, events: list[Update]) -> None:
        """The game changed: automatic passes, bookkeeping, tell the UI, ask the next bot."""
        self._version += 1
        self._settle_and_schedule(events)

    def _settle_and_schedule(self, events: list[Update] | None = None) -> None:
        events = list(events or [])
        game = self._game
        # Passes nobody needs to decide (the only legal action is Pass), for people and
        # bots alike; each may end the bout and make others automatic, hence the loop.
        while not game.is_over:
            automatic = game.automatic_actions()
            if not automatic:
                break
            for action in automatic:
                if game.why_illegal(action) is None:
                    events.extend(game.apply(action))
        if any(isinstance(e, GameOver) for e in events) and not self._recorded:
            self.match.record(game)
            self._recorded = True
        engine_events = [e for e in events if not isinstance(e, (str, Forced))]
        self._history.extend(engine_events)
        if engine_events:
            for seat in self._bots:
                self._inbox[seat].append(("events", seat_events(seat, engine_events, game)))
        self._schedule()
        if self._changed is not None:
            self._changed(events)

    def _next_bot(self) -> int | None:
        """The bot to ask now: the seat :func:`durak_core.bots.next_to_act` names (the order
        the arena uses too), if that seat is a bot."""
        game = self._game
        if game.is_over:
            return None
        seat = next_to_act(game)
        if seat is not None:
            return seat if seat in self._bots else None
        # Nobody is due (should not happen): let a bot move rather than stall, unless a
        # person can.
        if any(game.legal_actions(s) for s in self._local):
            return None
        for seat in self._bots:
            if game.legal_actions(seat):
                return seat
        return None

    def _schedule(self) -> None:
        """Ask the next bot, unless one is still thinking (its answer reschedules)."""
        if self._closed or self._busy is not None or self._handoff is None:
            return
        seat = self._next_bot()
        if seat is None:
            return
        game = self._game
        think = _Think(seat, self._version, game.legal_actions(seat))
        self._busy = think
        self.asked[seat] += 1
        inbox, self._inbox[seat] = self._inbox[seat], []
        observation = game.observation(seat)
        args = (self._bots[seat], seat, observation, think, inbox)
        if self._threads:
            # One short-lived daemon thread per decision (never two at once: see _busy), so
            # an abandoned table leaves no idle worker behind and a slow bot never holds
            # up the kernel's shutdown.
            self._thinks += 1
            name = f"{self.thread_name_prefix}-{self._thinks}"
            threading.Thread(target=self._think, args=args, name=name, daemon=True).start()
        elif self._deferred:
            # After this turn of the loop, whose refresh tells the page "thinking...".
            self._handoff.post(lambda: self._think(*args))
        else:
            self._think(*args)

    def _think(
        self,
        bot: Bot,
        seat: int,
        observation: dict[str, Any],
        think: _Think,
        inbox: list[tuple[str, Any]],
    ) -> None:
        """Runs on the bot's worker thread (or inline, or in a later turn of the loop):
        only the bot and copies are touched."""
        started = time.monotonic()
        action: Action | None = None
        error: BaseException | None = None
        try:
            for kind, payload in inbox:
                if kind == "start":
                    bot.start(seat, self._rules)
                else:
                    bot.on_events(payload)
            # A forced move (a single option) is not worth asking about.
            action = (
                think.legal[0]
                if len(think.legal) == 1
                else bot.choose(observation, list(think.legal))
            )
        except Exception as exc:  # a broken bot must not take the table down
            log.exception("bot at seat %d failed", seat)
            error = exc
        if self._threads:
            # The visible pause, so a person sees each card land; close() cuts it short.
            remaining = self.delay - (time.monotonic() - started)
            if remaining > 0 and self._stop.wait(remaining):
                return
        assert self._handoff is not None
        if self._deferred:
            # The same visible pause, from a timer on the loop instead of a waiting thread.
            if self._closed:
                return
            remaining = max(0.0, self.delay - (time.monotonic() - started))
            self._handoff.post_later(remaining, lambda: self._answer(think, action, error))
            return
        self._handoff.post(lambda: self._answer(think, action, error))

    def _answer(self, think: _Think, action: Action | None, error: BaseException | None) -> None:
        """A bot's answer arrives on the UI thread; apply it if the game did not move on."""
        self._busy = None
        if self._closed:
            return
        if think.version != self._version:
            # Someone moved while the bot thought (a throw-in, a new game): its answer is
            # about a state that is gone.  Ask again about the current one.
            self._schedule()
            if self._changed is not None:
                self._changed([])
            return
        notes: list[Update] = []
        name = self._names[think.seat]
        if error is not None:
            notes.append(
                f"{name} failed ({type(error).__name__}: {error}); it plays its first option"
            )
            action = think.legal[0]
        assert action is not None
        reason = self._game.why_illegal(action)
        if reason is not None:
            notes.append(
                f"{name} chose an illegal move ({action}: {reason}); it plays its first option"
            )
            action = think.legal[0]
        events = self._game.apply(action)
        self._after([*notes, *events])

    def __repr__(self) -> str:
        bots = ", ".join(f"{s}: {b.name}" for s, b in sorted(self._bots.items()))
        return f"<LocalBackend {self._rules.players} seats, bots {{{bots}}}, {self._game!r}>"
