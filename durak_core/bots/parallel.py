"""Root-parallel search: one decision's ISMCTS shared out among helper processes.

With ``workers=N`` (:class:`durak_core.bots.IsmctsBot`) the bot's own process
runs one search and N - 1 helper processes run independent searches of the same
position, each with its own seed: on a time budget each uses the whole think time,
on an iteration budget each runs its share.  The root statistics (visits, reward,
not-the-durak count of every root action) are then added up, which is as good as
one search of all their deals at the root (the paired root compares every action
on the same deals in every process), with shallower trees below it.

The helpers get only what the bot itself knows: the seat's observation (the same
data the bot was given), the root actions as text, and the inference's card
weights.  They are started once per process and size (``spawn``: safe in a
notebook kernel with threads) and reused by every bot of that size; they end with
the process.  A helper that dies, hangs or fails is never the bot's problem:
:meth:`HelperPool.collect` returns the results it got and marks the pool broken,
and the bot searches on in-process (see ``IsmctsBot._search``).

It is an option, off by default: each helper takes a core the arena's ``--jobs``
or another bot's search could have had.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

#: The most processes one search may use (``workers``).
MAX_WORKERS = 16
#: Seconds a helper may take beyond the think time before it counts as hung.
GRACE = 10.0
#: Seconds an iteration-budget search may take in a helper before it counts as hung.
ITERATION_WAIT = 120.0

#: One root action's statistics: visits, summed reward, visits not the durak.
Stats = tuple[int, float, int]


@dataclass(frozen=True)
class Task:
    """One helper's search: what the bot knows, and its own seed and budget."""

    options: dict[str, Any]  # the bot's options (``workers`` left out)
    seed: int
    seat: int
    observation: dict[str, Any]
    actions: list[str]  # the root actions, as text
    weights: list[list[float]] | None  # the inference's card weights, or None
    iterations: int | None
    ms: float | None
    halve: bool = False  # sequential halving at the root (a choice, not an analysis)


def run_task(task: Task) -> list[Stats]:
    """The search of one task: the statistics of each root action, in ``task.actions`` order.

    Runs in a helper (and in tests, in-process).
    """
    from ..actions import parse_action
    from ..game import Game
    from .inference import Inference
    from .ismcts import IsmctsBot

    bot = IsmctsBot(seed=task.seed, iterations=task.iterations, ms=task.ms, **task.options)
    view = Game.from_observation(task.observation)
    if task.weights is not None:
        bot._inference = Inference.with_weights(
            view.players, task.seat, int(view.trump_suit), task.weights
        )
    bot._halve = task.halve
    legal = [parse_action(a) for a in task.actions]
    deadline = None if task.ms is None else bot._clock() + task.ms / 1000
    root = bot._search(view, task.seat, legal, deadline)
    out: list[Stats] = []
    for action in legal:
        child = root.children.get(action)
        out.append((0, 0.0, 0) if child is None else (child.visits, child.reward, child.safe))
    return out


def _helper_main(conn: Connection) -> None:
    """A helper's loop: a task in, its statistics (or the error, as text) out."""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            result: Any = run_task(task)
        except Exception as exc:  # reported to the bot, which searches on without us
            result = f"{type(exc).__name__}: {exc}"
        try:
            conn.send(result)
        except (BrokenPipeError, OSError):
            return


class HelperPool:
    """``size`` helper processes, each with a pipe to this process."""

    def __init__(self, size: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.size = size
        self.broken = False
        #: Why the pool broke (for tests and for the curious).
        self.reason = ""
        self._procs: list[Any] = []
        self._conns: list[Connection] = []
        try:
            for _ in range(size):
                mine, theirs = context.Pipe()
                proc = context.Process(target=_helper_main, args=(theirs,), daemon=True)
                proc.start()
                theirs.close()  # so that a helper's death reads as EOF here
                self._procs.append(proc)
                self._conns.append(mine)
        except Exception as exc:  # e.g. inside a daemonic process, or no processes left
            self._break(f"could not start helpers: {type(exc).__name__}: {exc}")

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self._procs]

    def send(self, tasks: list[Task]) -> int:
        """Hand out ``tasks`` (at most one a helper); how many went out."""
        if self.broken:
            return 0
        sent = 0
        for conn, task in zip(self._conns, tasks, strict=False):
            try:
                conn.send(task)
            except Exception as exc:
                self._break(f"a helper could not take its task: {type(exc).__name__}: {exc}")
                break
            sent += 1
        return sent

    def collect(self, sent: int, timeout: float) -> list[list[Stats] | None]:
        """The results of the first ``sent`` helpers; None where one failed, died or
        took more than ``timeout`` seconds (the pool is then broken)."""
        out: list[list[Stats] | None] = []
        end = time.monotonic() + timeout
        for conn in self._conns[:sent]:
            result: Any = None
            if not self.broken:
                try:
                    if conn.poll(max(0.0, end - time.monotonic())):
                        result = conn.recv()
                    else:
                        self._break(f"a helper took more than {timeout:g} s")
                except (EOFError, OSError) as exc:
                    self._break(f"a helper died: {type(exc).__name__}")
                if isinstance(result, str):
                    self._break(f"a helper failed: {result}")
                    result = None
            out.append(result if isinstance(result, list) else None)
        return out

    def _break(self, reason: str) -> None:
        """Stop using this pool: end the helpers (a late answer must not be read as
        the next decision's)."""
        if not self.broken:
            self.broken = True
            self.reason = reason
        self.close()

    def close(self) -> None:
        for conn in self._conns:
            with contextlib.suppress(Exception):  # a dead helper cannot be told to stop
                conn.send(None)
            conn.close()
        for proc in self._procs:
            proc.join(0.5)
            if proc.is_alive():
                proc.terminate()
                proc.join(1.0)
        self._procs = []
        self._conns = []
        self.broken = True


_POOLS: dict[int, HelperPool] = {}


def pool(size: int) -> HelperPool:
    """The shared pool of ``size`` helpers in this process (a new one if the last broke)."""
    current = _POOLS.get(size)
    if current is None or current.broken:
        current = _POOLS[size] = HelperPool(size)
    return current


@atexit.register
def _close_all() -> None:
    for p in _POOLS.values():
        p.close()
    _POOLS.clear()
