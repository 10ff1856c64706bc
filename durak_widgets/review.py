"""``review()``: the AI's review of a game, as a chart and a list in the notebook.

The work is :func:`durak_core.bots.coach.review` (it replays the game's log and
asks the AI about each decision of one seat, with only what that seat saw);
this module draws the result: the estimated chance of not being the durak after
each of the seat's moves, the moves where it dropped most below the AI's
preferred move marked, and those moves listed with what the AI preferred.  The
chart is plain SVG, so it needs no plotting library and shows the same in the
notebook, in the table's Review panel and in a browser.

>>> from durak_core import Game, Rules
>>> from durak_core.bots import GreedyBot, play_game
>>> game = play_game(Game.new(Rules(), seed=3), [GreedyBot(), GreedyBot()])
>>> report = review(game, seat=0, iterations=40, seed=1)
>>> "<svg" in report._repr_html_(), report.report.outcome
(True, 'safe')
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from durak_core import Game
from durak_core.bots.coach import ITERATIONS, Decision, GameReview
from durak_core.bots.coach import review as review_game

from . import words
from .words import Moment, say_action

#: Chart size in pixels (the SVG scales to the width of the output).
WIDTH, HEIGHT = 640, 230
_LEFT, _RIGHT, _TOP, _BOTTOM = 44, 14, 14, 36


class Review:
    """A reviewed game that displays itself: the chart, then the biggest drops.

    report: the :class:`~durak_core.bots.coach.GameReview` with every number.
    names: a display name per seat (for the title).
    game: the reviewed game, whose replay tells each move's words (a lead or a
        throw-in, "Beaten" or "Pass"); without it an attack reads as a lead.
    """

    def __init__(
        self, report: GameReview, names: Sequence[str] | None = None, game: Game | None = None
    ) -> None:
        self.report = report
        self.names = list(names) if names is not None else None
        self.moments = moments(game, report) if game is not None else {}

    @property
    def drops(self) -> list[Decision]:
        """The marked decisions: where the chance fell most below the AI's choice."""
        return self.report.biggest_drops()

    def _repr_html_(self) -> str:
        return review_html(self.report, self.names, self.moments)

    def __repr__(self) -> str:
        return review_text(self.report, self.names, self.moments)


def review(
    source: Any,
    seat: int | None = None,
    *,
    iterations: int | None = ITERATIONS,
    ms: float | None = None,
    seed: int | None = 0,
    names: Sequence[str] | None = None,
) -> Review:
    """Review one seat's decisions in a game and show the result.

    source: a :class:`~durak_core.Game` (full, with its deck and log), the JSON
        text of a saved game (:meth:`Game.to_json`), the path of such a file,
        a table from :func:`durak_widgets.play` (its current game), or a LAN lobby
        from :func:`durak_widgets.lan` (its current game, once audited).
    seat: the seat to review; default: the table's person, else seat 0.
    iterations / ms: the AI's budget per decision; ``seed``: makes it reproducible.
    """
    game, seat, names = _resolve(source, seat, names)
    report = review_game(game, seat, iterations=iterations, ms=ms, seed=seed)
    return Review(report, names, game)


def moments(game: Game, report: GameReview) -> dict[int, Moment]:
    """The table at each reviewed decision (by move number), from a replay of the log."""
    wanted = {d.number for d in report.decisions}
    replay = Game.new(game.rules, deck=game.deck, previous_durak=game._prev_durak)
    out: dict[int, Moment] = {}
    for number, action in enumerate(game.log, 1):
        if number in wanted:
            out[number] = Moment.of(replay.observation(action.player))
        replay.apply(action)
    return out


def _resolve(
    source: Any, seat: int | None, names: Sequence[str] | None
) -> tuple[Game, int, Sequence[str] | None]:
    if isinstance(source, Game):
        game = source
    elif isinstance(source, Path) or (
        isinstance(source, str) and not source.lstrip().startswith("{")
    ):
        game = Game.from_json(Path(source).read_text(encoding="utf-8"))
    elif isinstance(source, str):
        try:
            game = Game.from_json(source)
        except (json.JSONDecodeError, KeyError) as exc:
            raise ValueError(f"not a saved durak game: {exc}") from None
    elif hasattr(source, "backend") and hasattr(source.backend, "game"):
        backend = source.backend  # a table from play(), or a LAN lobby (lan())
        if hasattr(backend, "review_game"):
            game = backend.review_game
            if game is None:
                raise ValueError(
                    "this LAN game cannot be reviewed yet: its cards are opened by the "
                    "audit at the end of the game (and only a fair game is reviewed)"
                )
        else:
            game = backend.game
        if seat is None:
            seat = getattr(source, "viewer", None)
            if seat is None:
                seat = backend.local_seats[0]
        if names is None:
            names = list(backend.names)
    else:
        raise TypeError(
            "review() takes a Game, a saved game (JSON text or a path), a table from play() "
            "or a LAN lobby from lan()"
        )
    if seat is None:
        seat = 0
    return game, seat, names


# ---------------------------------------------------------------- drawing


def _x(i: int, count: int) -> float:
    span = WIDTH - _LEFT - _RIGHT
    return _LEFT + (span * i / (count - 1) if count > 1 else span / 2)


def _y(chance: float) -> float:
    return _TOP + (HEIGHT - _TOP - _BOTTOM) * (1 - chance)


def chart_svg(report: GameReview, moments: dict[int, Moment] | None = None) -> str:
    """The chance after each of the seat's moves as an SVG line chart, drops marked."""
    moments = moments or {}
    decisions = report.decisions
    count = len(decisions)
    parts = [
        f'<svg class="durak-review-chart" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" style="max-width:{WIDTH}px" '
        f'role="img" aria-label="{html.escape(words.REVIEW_CHART_LABEL)}">',
        f'<rect x="{_LEFT}" y="{_TOP}" width="{WIDTH - _LEFT - _RIGHT}" '
        f'height="{HEIGHT - _TOP - _BOTTOM}" fill="#f8f8f4" stroke="#bbb"/>',
    ]
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = _y(level)
        parts.append(
            f'<line x1="{_LEFT}" y1="{y:.1f}" x2="{WIDTH - _RIGHT}" y2="{y:.1f}" '
            'stroke="#ddd" stroke-width="1"/>'
            f'<text x="{_LEFT - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end" '
            f'fill="#555">{int(level * 100)}%</text>'
        )
    parts.append(
        f'<text x="{(WIDTH + _LEFT - _RIGHT) / 2:.1f}" y="{HEIGHT - 6}" font-size="11" '
        'text-anchor="middle" fill="#555">'
        f"{html.escape(words.REVIEW_AXIS)}</text>"
    )
    if count:
        points = " ".join(
            f"{_x(i, count):.1f},{_y(d.chance):.1f}" for i, d in enumerate(decisions)
        )
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="#2a6f97" stroke-width="2"/>'
        )
        marked = {d.number for d in report.biggest_drops()}
        for i, d in enumerate(decisions):
            x, y = _x(i, count), _y(d.chance)
            played = say_action(d.played, moments.get(d.number, _NO_MOMENT))
            title = html.escape(words.review_point(d.number, played, d.chance))
            if d.number in marked:
                yb = _y(d.best.safe)
                parts.append(
                    f'<line x1="{x:.1f}" y1="{yb:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                    'stroke="#c0392b" stroke-width="2" stroke-dasharray="4 3"/>'
                    f'<circle cx="{x:.1f}" cy="{yb:.1f}" r="3.5" fill="none" stroke="#c0392b"/>'
                    f'<circle class="durak-review-drop" cx="{x:.1f}" cy="{y:.1f}" r="5" '
                    f'fill="#c0392b"><title>{title}</title></circle>'
                    f'<text x="{x:.1f}" y="{min(y + 17, HEIGHT - _BOTTOM - 3):.1f}" '
                    f'font-size="11" text-anchor="middle" fill="#c0392b">{d.number}</text>'
                )
            else:
                parts.append(
                    f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#2a6f97">'
                    f"<title>{title}</title></circle>"
                )
    parts.append("</svg>")
    return "".join(parts)


def _who(report: GameReview, names: Sequence[str] | None) -> str:
    """The reviewed seat's name; "you" for the person at the screen (play() names them
    "You"); "you" too without names: the review is read by the one it reviews."""
    who = names[report.seat] if names is not None else "you"
    return "you" if words.is_you(who) else who


def _title(report: GameReview, names: Sequence[str] | None) -> str:
    return words.review_title(_who(report, names), report.outcome, len(report.decisions))


_NO_MOMENT = Moment(True, None, False)


def _drop_line(d: Decision, who: str, moments: dict[int, Moment]) -> str:
    moment = moments.get(d.number, _NO_MOMENT)
    line = words.review_drop(
        d.number, words.whose(who), say_action(d.played, moment), d.chance,
        say_action(d.best.action, moment), d.best.safe,
    )
    if d.reasons:
        return words.review_why(line, words.say_reason(d.reasons[0]))
    return line


def review_html(
    report: GameReview,
    names: Sequence[str] | None = None,
    moments: dict[int, Moment] | None = None,
) -> str:
    """The review as HTML: a title, the chart, the biggest drops.  ``moments``: the
    table at each decision (:func:`moments`), for the moves' words."""
    esc = html.escape
    moments = moments or {}
    who = _who(report, names)
    drops = report.biggest_drops()
    if drops:
        items = "".join(f"<li>{esc(_drop_line(d, who, moments))}</li>" for d in drops)
        listing = f"<p>{esc(words.REVIEW_DROPS)}</p><ol>{items}</ol>"
    elif report.decisions:
        listing = f"<p>{esc(words.REVIEW_NO_DROP)}</p>"
    else:
        listing = f"<p>{esc(words.REVIEW_NO_DECISIONS)}</p>"
    return (
        f'<div class="durak-review"><p><b>{esc(_title(report, names))}</b></p>'
        f"{chart_svg(report, moments)}{listing}</div>"
    )


def review_text(
    report: GameReview,
    names: Sequence[str] | None = None,
    moments: dict[int, Moment] | None = None,
) -> str:
    """The review in a few lines of text."""
    moments = moments or {}
    who = _who(report, names)
    lines = [_title(report, names)]
    if report.decisions:
        chances = " ".join(f"{100 * d.chance:.0f}" for d in report.decisions)
        lines.append(f"{words.REVIEW_CHANCES}: {chances}")
    for d in report.biggest_drops():
        lines.append("  " + _drop_line(d, who, moments))
    return "\n".join(lines)
