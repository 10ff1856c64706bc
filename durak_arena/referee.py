"""Bot specs, the seats that host bots, and the referee of one game.

The referee holds the full :class:`durak_core.Game`; each seat only ever
receives its own observation, its legal actions and its own view of the
events.  Seats are asked in the order of
:func:`durak_core.bots.next_to_act`; forced moves are made for them.  A bot
that times out, crashes, answers garbage or plays an illegal action
forfeits the game: it is the durak, everybody else is safe, and the reason
is recorded with what the bot wrote to stderr during the game.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from durak_core import Action, Event, Game, Rules, event_to_dict, parse_action
from durak_core.bots import Bot, make_bot, next_to_act, seat_events

from .process import BotFailure, ProcessBot

KINDS = ("builtin", "py", "cmd")


@dataclass(frozen=True)
class BotSpec:
    """A bot as named on the command line: ``builtin:NAME?k=v``, ``py:FILE.py:CLASS?k=v``
    or ``cmd:COMMAND LINE``.  ``builtin:NAME#LABEL`` enters a built-in bot twice.

    ``py`` paths are made absolute when parsed, so workers in other
    directories (or on other machines with the same layout) find them.
    """

    text: str
    kind: str
    target: str
    cwd: str

    @classmethod
    def parse(cls, text: str, cwd: str | None = None) -> BotSpec:
        """Read a spec; raises ValueError with an example for anything else.

        >>> BotSpec.parse("builtin:ismcts?ms=100").target
        'ismcts?ms=100'
        >>> BotSpec.parse("greedy")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: bot 'greedy': write builtin:NAME, py:FILE.py:CLASS or cmd:COMMAND ...
        """
        cwd = cwd or os.getcwd()
        kind, sep, rest = text.partition(":")
        if not sep or kind not in KINDS or not rest.strip():
            raise ValueError(
                f"bot {text!r}: write builtin:NAME, py:FILE.py:CLASS or cmd:COMMAND "
                "(e.g. builtin:greedy)"
            )
        if kind == "builtin":
            rest = rest.partition("#")[0]  # "builtin:random#2": a second entry of one bot
            make_bot(rest, seed=0)  # fails now, with the reason, if the name or options are bad
            return cls(text, kind, rest, cwd)
        if kind == "py":
            target, _, query = rest.partition("?")
            where, sep2, name = target.rpartition(":")
            if not sep2 or not where.endswith(".py") or not name:
                raise ValueError(f"bot {text!r}: write py:FILE.py:CLASS, e.g. py:mybot.py:MyBot")
            path = Path(cwd, where).resolve()
            if not path.is_file():
                raise ValueError(f"bot {text!r}: no such file {str(path)!r}")
            full = f"{path}:{name}" + (f"?{query}" if query else "")
            return cls(text, kind, full, cwd)
        try:
            argv = shlex.split(rest)
        except ValueError as exc:
            raise ValueError(f"bot {text!r}: {exc}") from None
        if not argv:
            raise ValueError(f"bot {text!r}: the command is empty")
        return cls(text, kind, rest, cwd)

    def argv(self) -> list[str]:
        """The command line of a subprocess bot."""
        if self.kind == "cmd":
            return shlex.split(self.target)
        if self.kind == "py":
            target, _, query = self.target.partition("?")
            options = [p for p in query.split("&") if p]
            return [sys.executable, "-m", "durak_arena.botrunner", target, *options]
        raise ValueError(f"{self.text} runs in-process, not as a command")


def bot_env() -> dict[str, str]:
    """The environment of bot programs: durak_arena importable even when not installed."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    parts = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    if root not in parts:
        env["PYTHONPATH"] = os.pathsep.join([root, *parts])
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


# -------------------------------------------------------------------- seats


class Seat:
    """Hosts one bot for a series of games; subclasses differ in where the bot runs."""

    def __init__(self, spec: BotSpec) -> None:
        self.spec = spec

    def begin(self, game_id: str, seat: int, rules: Rules, seed: int) -> None:
        raise NotImplementedError

    def act(
        self, observation: dict[str, Any], legal: list[Action], events: list[Event], limit: float
    ) -> Action:
        raise NotImplementedError

    def finish(
        self, observation: dict[str, Any], events: list[Event], result: dict[str, Any]
    ) -> None:
        raise NotImplementedError

    def failed(self) -> None:
        """The bot forfeited: start afresh next game."""

    def stderr_mark(self) -> int:
        return 0

    def stderr_since(self, mark: int) -> str:
        return ""

    def close(self) -> None:
        """Release the bot (stop its program)."""


class InProcessSeat(Seat):
    """A built-in bot, made afresh for each game with the game's bot seed."""

    def __init__(self, spec: BotSpec) -> None:
        super().__init__(spec)
        self.bot: Bot | None = None
        self._log = ""

    def begin(self, game_id: str, seat: int, rules: Rules, seed: int) -> None:
        self._log = ""
        try:
            self.bot = make_bot(self.spec.target, seed=seed)
            self.bot.start(seat, rules)
        except Exception as exc:
            self._log = traceback.format_exc()
            raise BotFailure("crash", f"{type(exc).__name__}: {exc}") from None

    def act(
        self, observation: dict[str, Any], legal: list[Action], events: list[Event], limit: float
    ) -> Action:
        bot = self.bot
        assert bot is not None
        start = time.perf_counter()
        try:
            if events:
                bot.on_events(events)
            action = bot.choose(observation, legal)
        except Exception as exc:
            self._log = traceback.format_exc()
            raise BotFailure("crash", f"{type(exc).__name__}: {exc}") from None
        elapsed = time.perf_counter() - start
        if elapsed > limit:
            raise BotFailure("timeout", f"took {elapsed:.3f} s, the limit is {limit:g} s")
        if action not in legal:
            raise BotFailure("illegal", f"{action!s} is not among the legal actions")
        return action

    def finish(
        self, observation: dict[str, Any], events: list[Event], result: dict[str, Any]
    ) -> None:
        if self.bot is not None and events:
            try:
                self.bot.on_events(events)
            except Exception:
                self._log = traceback.format_exc()

    def stderr_since(self, mark: int) -> str:
        return self._log


class ProcessSeat(Seat):
    """A bot program (``py:`` or ``cmd:``) speaking the protocol over stdin/stdout."""

    def __init__(self, spec: BotSpec) -> None:
        super().__init__(spec)
        self.process = ProcessBot(spec.argv(), cwd=spec.cwd, env=bot_env())
        self._game = ""

    def begin(self, game_id: str, seat: int, rules: Rules, seed: int) -> None:
        self._game = game_id
        self.process.ensure_started()
        self.process.send(
            {
                "type": "start",
                "game": game_id,
                "seat": seat,
                "players": rules.players,
                "rules": rules.to_dict(),
                "seed": seed,
            }
        )

    def act(
        self, observation: dict[str, Any], legal: list[Action], events: list[Event], limit: float
    ) -> Action:
        texts = [str(a) for a in legal]
        reply = self.process.request(
            {
                "type": "act",
                "game": self._game,
                "events": [event_to_dict(e) for e in events],
                "observation": observation,
                "legal": texts,
                "time_limit": limit,
            },
            limit,
        )
        if reply.get("type") != "action" or not isinstance(reply.get("action"), str):
            raise BotFailure("garbage", f"expected an action message, got {_short(reply)}")
        try:
            action = parse_action(reply["action"])
        except ValueError as exc:
            raise BotFailure("garbage", str(exc)) from None
        if action not in legal:
            raise BotFailure(
                "illegal", f"{reply['action']!r} is not legal; legal were: {', '.join(texts)}"
            )
        return action

    def finish(
        self, observation: dict[str, Any], events: list[Event], result: dict[str, Any]
    ) -> None:
        if not self.process.running:
            return
        try:
            self.process.send(
                {
                    "type": "end",
                    "game": self._game,
                    "events": [event_to_dict(e) for e in events],
                    "observation": observation,
                    "result": result,
                }
            )
        except BotFailure:
            self.process.kill()

    def failed(self) -> None:
        self.process.kill()

    def stderr_mark(self) -> int:
        return self.process.stderr_mark()

    def stderr_since(self, mark: int) -> str:
        return self.process.stderr_since(mark)

    def close(self) -> None:
        self.process.close()


def make_seat(spec: BotSpec) -> Seat:
    return InProcessSeat(spec) if spec.kind == "builtin" else ProcessSeat(spec)


def _short(value: object, most: int = 200) -> str:
    text = repr(value)
    return text if len(text) <= most else text[: most - 3] + "..."


# -------------------------------------------------------------------- a game


@dataclass
class GameRecord:
    """The result of one refereed game (picklable, JSON-able via :meth:`to_dict`)."""

    game: str
    deal: int
    seed: int
    bots: list[str]
    durak: int | None
    losers: list[int]
    actions: int
    bouts: int
    forfeit: dict[str, Any] | None = None
    think: list[float] = field(default_factory=list)  #: seconds of thinking per seat
    decisions: list[int] = field(default_factory=list)  #: decisions asked per seat
    log: list[str] = field(default_factory=list)  #: the actions in text: with the seed, a replay

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _result(game: Game, seat: int, losers: Sequence[int], forfeit: dict[str, Any] | None) -> dict:
    if not losers:
        outcome = "draw"
    else:
        outcome = "loss" if seat in losers else "win"
    return {
        "durak": losers[0] if losers else None,
        "losers": list(losers),
        "outcome": outcome,
        "forfeit": None if forfeit is None else {k: forfeit[k] for k in ("seat", "kind", "reason")},
        "reason": game.end_reason if forfeit is None else f"player {forfeit['seat']} forfeited",
    }


def referee_game(
    rules: Rules,
    deal: int,
    deal_seed: int,
    seats: Sequence[Seat],
    bot_seeds: Sequence[int],
    move_time: float,
    game_id: str,
) -> GameRecord:
    """Play one game between ``seats`` (seat i hosts ``seats[i]``) and record it."""
    n = rules.players
    if len(seats) != n or len(bot_seeds) != n:
        raise ValueError(f"a {n}-player game needs {n} seats and {n} bot seeds")
    game = Game.new(rules, seed=deal_seed)
    names = [s.spec.text for s in seats]
    pending: list[list[Event]] = [[] for _ in range(n)]
    think = [0.0] * n
    decisions = [0] * n
    marks = [s.stderr_mark() for s in seats]
    forfeit: dict[str, Any] | None = None

    def fail(seat: int, exc: BotFailure) -> dict[str, Any]:
        seats[seat].failed()
        return {
            "seat": seat,
            "bot": names[seat],
            "kind": exc.kind,
            "reason": exc.reason,
            "stderr": seats[seat].stderr_since(marks[seat]),
        }

    begun = 0
    for seat, host in enumerate(seats):
        try:
            host.begin(game_id, seat, rules, bot_seeds[seat])
        except BotFailure as exc:
            forfeit = fail(seat, exc)
            break
        begun += 1
    while forfeit is None:
        seat_to_act = next_to_act(game)
        if seat_to_act is None:
            if not game.is_over:
                raise RuntimeError(f"{game_id}: nobody can act but the game is not over")
            break
        legal = game.legal_actions(seat_to_act)
        if len(legal) == 1:
            action = legal[0]
        else:
            start = time.perf_counter()
            try:
                action = seats[seat_to_act].act(
                    game.observation(seat_to_act), legal, pending[seat_to_act], move_time
                )
            except BotFailure as exc:
                forfeit = fail(seat_to_act, exc)
                break
            think[seat_to_act] += time.perf_counter() - start
            decisions[seat_to_act] += 1
            pending[seat_to_act] = []
        events = game.apply(action)
        for s in range(n):
            pending[s].extend(seat_events(s, events, game))
    if forfeit is not None:
        losers: list[int] = [forfeit["seat"]]
    else:
        losers = list(game.losers)
    for seat, host in enumerate(seats[:begun]):
        if forfeit is not None and forfeit["seat"] == seat:
            continue
        host.finish(game.observation(seat), pending[seat], _result(game, seat, losers, forfeit))
    return GameRecord(
        game=game_id,
        deal=deal,
        seed=deal_seed,
        bots=names,
        durak=losers[0] if losers else None,
        losers=losers,
        actions=len(game.log),
        bouts=game.bouts,
        forfeit=forfeit,
        think=think,
        decisions=decisions,
        log=[str(a) for a in game.log],
    )
