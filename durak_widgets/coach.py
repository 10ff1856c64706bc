"""The table's coach: the Hint toggle and the Review of a finished game.

Both ask the AI (:mod:`durak_core.bots.coach`), which takes from a few hundred
milliseconds to seconds, so neither runs on the UI's path: a request starts a
short-lived worker thread (one at a time for each of them), and the answer comes
back through the table's hand-off point like a bot's move.  An answer about a
position that is gone (someone moved meanwhile) is dropped; the next refresh asks
about the new one.  Where there are no threads (a browser), the work runs in a later
turn of the kernel's event loop, after the page was told the AI is thinking.

A review needs the whole game (every hand, to replay it): a local table's game, or a
LAN game once its fair audit rebuilt it (``backend.review_game``); the AI still sees
only the reviewed seat's view at each decision.

The coach sees what the person at the screen sees: their observation and their
view of the game's events (other seats' draws hidden), never the other hands.  A
review replays the game's log the same way, one decision of the seat at a time.
"""

from __future__ import annotations

import html
import json
import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from durak_core import Event
from durak_core.bots import MoveEstimate
from durak_core.bots.coach import ITERATIONS, hint, hint_reasons, search_choice
from durak_core.bots.coach import review as review_of
from durak_core.bots.reasons import Reason

from . import words
from .browser import threads_available
from .handoff import Handoff
from .review import Review, review_html
from .words import Moment, say_action

log = logging.getLogger(__name__)

#: How many moves the hint lists (the rest are summed up in one line).
HINT_ROWS = 8


def position_key(observation: dict[str, Any]) -> str:
    """A key that changes whenever the position (or whose it is) changes."""
    return json.dumps(observation, sort_keys=True, ensure_ascii=False)


def hint_table(
    estimates: Sequence[MoveEstimate], moment: Moment, reasons: Sequence[Reason] = ()
) -> str:
    """The hint as HTML: the AI's move (with the top of ``reasons``, why), then each move
    with its chance, in the table's words (:func:`~durak_widgets.words.say_action`;
    ``moment``: the position's table).

    ``estimates`` come highest chance first (:func:`durak_core.bots.coach.hint`), and the
    move suggested is the first, so no move listed below it shows a higher chance.  When
    the search's own score (a draw counts half) ranks another move first, a line says
    so and why, rather than suggest one move and show another as likelier."""
    esc = html.escape
    if not estimates:
        return words.HINT_NOTHING
    best = estimates[0]
    rows = []
    for e in estimates[:HINT_ROWS]:
        mark = ' class="durak-hint-best"' if e is best else ""
        how = words.CERTAIN if e.exact else ""
        rows.append(
            f"<tr{mark}><td>{esc(say_action(e.action, moment))}</td>"
            f"<td>{100 * e.safe:.0f}%{esc(how)}</td></tr>"
        )
    more = len(estimates) - HINT_ROWS
    if more > 0:
        rows.append(f"<tr><td>{esc(words.more_moves(more))}</td><td></td></tr>")
    why = f" {words.hint_why(esc(words.say_reason(reasons[0])))}" if reasons else ""
    searched = search_choice(estimates)
    if searched is not best and searched.score > best.score:
        why += f" {words.hint_search_prefers(esc(say_action(searched.action, moment)))}"
    return (
        f"{words.hint_best(esc(say_action(best.action, moment)))}{why} "
        f"{esc(words.HINT_CHANCES)}"
        f"<table>{''.join(rows)}</table>"
    )


class TableCoach:
    """Hints and reviews for one table (used by :class:`~durak_widgets.TableController`).

    backend: the table's backend; a hint uses ``backend.seat_history(seat)`` when the
        backend has it (the events the seat saw, for the AI's reading of the
        opponents), a review needs the full game with its log: ``backend.review_game``
        when the backend has that property (a LAN table: None until the audit), else
        ``backend.game``.
    handoff: the table's hand-off point; answers are posted through it.
    refresh: redraws the table (called on the UI thread when an answer arrived).
    threads: compute on worker threads (True) or inline (False); None: threads
        unless the hand-off is in ``"sync"`` mode or there are no threads (a browser,
        where a ``"kernel"`` hand-off runs the work in a later turn of its loop).

    ``iterations``, ``ms`` and ``seed`` set the AI's budget: by default
    ``ITERATIONS`` rollouts and seed 0, so a position always gets the same hint.
    """

    def __init__(
        self,
        backend: Any,
        handoff: Handoff,
        refresh: Callable[[], None],
        threads: bool | None = None,
    ) -> None:
        self.backend = backend
        self.handoff = handoff
        self._refresh = refresh
        if threads and not threads_available():
            raise ValueError("threads=True: this Python has no threads (a browser)")
        if threads is None:
            threads = handoff.mode != "sync" and threads_available()
        self.threads = threads
        # No threads but an event loop (a browser): think in a later turn of it.
        self._deferred = not threads and handoff.mode == "kernel"
        self.iterations: int | None = ITERATIONS
        self.ms: float | None = None
        self.seed: int | None = 0
        self.hint_on = False
        self._hint_key: str | None = None  # the position the hint is (being) computed for
        self._hint: list[MoveEstimate] | None = None
        self._hint_reasons: list[Reason] = []
        self._hint_error: str | None = None
        self._review: Review | None = None
        self._review_for: Any = None  # the game the review is (being) computed for
        self._review_error: str | None = None
        self.review_shown = False
        self._closed = False
        #: Worker threads started, for tests (named durak-coach-...).
        self.started = 0

    # ------------------------------------------------------------ hints

    def set_hint(self, on: bool) -> None:
        self.hint_on = bool(on)

    def hint_html(self, observation: dict[str, Any], revealed: bool) -> str:
        """What the hint line shows now (UI thread, lock held); "" when the toggle is off."""
        if not self.hint_on:
            return ""
        if not revealed:
            return words.HINT_SHOW_CARDS
        if observation["over"]:
            return ""  # the banner and the Review button take over
        if not observation["legal"]:
            return words.HINT_NOTHING_NOW
        if self._hint_key == position_key(observation):
            if self._hint_error:
                return words.hint_failed(html.escape(self._hint_error))
            if self._hint is not None:
                return hint_table(self._hint, Moment.of(observation), self._hint_reasons)
        return words.HINT_THINKING

    def request_hint(self, seat: int, observation: dict[str, Any], revealed: bool) -> None:
        """Start computing the hint for this position unless it is known or under way."""
        if not self.hint_on or not revealed or observation["over"] or not observation["legal"]:
            return
        key = position_key(observation)
        if key == self._hint_key:
            return
        self._hint_key = key
        self._hint = None
        self._hint_reasons = []
        self._hint_error = None
        history = getattr(self.backend, "seat_history", None)
        events: list[Event] = list(history(seat)) if history is not None else []
        self._start("hint", self._think_hint, key, observation, events)

    def _think_hint(self, key: str, observation: dict[str, Any], events: list[Event]) -> None:
        result: list[MoveEstimate] | None = None
        reasons: list[Reason] = []
        error: str | None = None
        try:
            result = hint(
                observation, events, iterations=self.iterations, ms=self.ms, seed=self.seed
            )
            reasons = hint_reasons(observation, events, result)
        except Exception as exc:
            log.exception("the coach's hint failed")
            error = f"{type(exc).__name__}: {exc}"
        self.handoff.post(lambda: self._hint_arrived(key, result, error, reasons))

    def _hint_arrived(
        self,
        key: str,
        result: list[MoveEstimate] | None,
        error: str | None,
        reasons: Sequence[Reason] = (),
    ) -> None:
        if self._closed or key != self._hint_key:
            return  # about a position that is gone
        self._hint = result
        self._hint_reasons = list(reasons)
        self._hint_error = error
        self._refresh()

    # ------------------------------------------------------------ reviews

    def _full_game(self) -> Any:
        """The game a review replays (see the class docstring), or None."""
        if hasattr(self.backend, "review_game"):
            return self.backend.review_game
        return getattr(self.backend, "game", None)

    def review_label(self, over: bool) -> str:
        """The banner button's text; "" hides it (no game over, or nothing to replay yet:
        a LAN game is reviewable once its audit rebuilt the whole game)."""
        if not over or self._full_game() is None:
            return ""
        if self._review_for is not None and self._review is None and not self._review_error:
            return words.REVIEWING
        return words.HIDE_REVIEW if self.review_shown else words.REVIEW

    def review_html(self) -> str:
        if not self.review_shown:
            return ""
        if self._review_error:
            return f"<p>{html.escape(words.review_failed(self._review_error))}</p>"
        if self._review is None:
            return f"<p>{html.escape(words.REVIEW_BUSY)}</p>"
        return review_html(self._review.report, self._review.names, self._review.moments)

    def toggle_review(self, seat: int, names: Sequence[str]) -> str | None:
        """Show (computing it first) or hide the review of the finished game; returns a
        notice when there is nothing to review."""
        game = self._full_game()
        if game is None:
            if hasattr(self.backend, "review_game"):
                return words.REVIEW_NOT_YET_LAN
            return words.REVIEW_NO_LOG
        if not game.is_over:
            return words.REVIEW_NOT_OVER
        if self.review_shown:
            self.review_shown = False
            return None
        self.review_shown = True
        if self._review_for is not game:
            self._review_for = game
            self._review = None
            self._review_error = None
            self._start("review", self._think_review, game, seat, list(names))
        return None

    def _think_review(self, game: Any, seat: int, names: list[str]) -> None:
        report: Review | None = None
        error: str | None = None
        try:
            result = review_of(
                game, seat, iterations=self.iterations, ms=self.ms, seed=self.seed
            )
            report = Review(result, names, game)
        except Exception as exc:
            log.exception("the coach's review failed")
            error = f"{type(exc).__name__}: {exc}"
        self.handoff.post(lambda: self._review_arrived(game, report, error))

    def _review_arrived(self, game: Any, report: Review | None, error: str | None) -> None:
        if self._closed or game is not self._review_for:
            return
        self._review = report
        self._review_error = error
        self._refresh()

    def new_game(self) -> None:
        """A new game was dealt: forget the review and the hint."""
        self.review_shown = False
        self._review = None
        self._review_for = None
        self._review_error = None
        self._hint_key = None
        self._hint = None
        self._hint_reasons = []

    # ------------------------------------------------------------ threads

    def _start(self, kind: str, target: Callable[..., None], *args: Any) -> None:
        if self._closed:
            return
        self.started += 1
        if self.threads:
            name = f"durak-coach-{kind}-{self.started}"
            threading.Thread(target=target, args=args, name=name, daemon=True).start()
        elif self._deferred:
            # After this turn of the loop, whose refresh shows "thinking…".
            self.handoff.post(lambda: None if self._closed else target(*args))
        else:
            target(*args)

    def close(self) -> None:
        self._closed = True
