"""Helper processes that run one function call each, for root-parallel search.

A plain pool: :meth:`HelperPool.send` hands each helper a module-level function and
its argument, :meth:`HelperPool.collect` gathers the results.  It knows nothing of
the search; :class:`durak_core.bots.IsmctsBot` with ``workers=N`` uses N - 1 helpers
to search the position it searches itself and adds up their root statistics (see
``durak_core.bots.ismcts.run_task``).

Helpers are started once per process and size (``spawn``: safe in a notebook kernel
with threads) and reused by every caller of that size; they end with the process.
A helper that dies, hangs or raises is never the caller's problem: ``collect``
returns None in its place and marks the pool broken (the next :func:`pool` call
starts new helpers), and the caller carries on without it.

Each helper takes a core that the arena's ``--jobs`` or another search could have
had, so the bot uses them only when asked.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any

#: Seconds a helper may take beyond the think time before it counts as hung.
GRACE = 10.0
#: Seconds an iteration-budget search may take in a helper before it counts as hung.
ITERATION_WAIT = 120.0

#: A helper's job: a module-level function (pickled by name) and its one argument.
Job = Callable[[Any], Any]


def _helper_main(conn: Connection) -> None:
    """A helper's loop: a function and its task in, ``(True, result)`` out, or
    ``(False, the error as text)`` when the function raised."""
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        try:
            job, task = message
            reply: tuple[bool, Any] = (True, job(task))
        except Exception as exc:  # reported to the caller, which carries on without us
            reply = (False, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(reply)
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

    def send(self, job: Job, tasks: Sequence[Any]) -> int:
        """Hand out ``job(task)`` for each of ``tasks`` (at most one a helper); how many
        went out.  ``job`` must be importable by name in a new process."""
        if self.broken:
            return 0
        sent = 0
        for conn, task in zip(self._conns, tasks, strict=False):
            try:
                conn.send((job, task))
            except Exception as exc:
                self._break(f"a helper could not take its task: {type(exc).__name__}: {exc}")
                break
            sent += 1
        return sent

    def collect(self, sent: int, timeout: float) -> list[Any]:
        """The results of the first ``sent`` helpers; None where one failed, died or
        took more than ``timeout`` seconds (the pool is then broken)."""
        out: list[Any] = []
        end = time.monotonic() + timeout
        for conn in self._conns[:sent]:
            result: Any = None
            if not self.broken:
                try:
                    if conn.poll(max(0.0, end - time.monotonic())):
                        ok, result = conn.recv()
                        if not ok:
                            self._break(f"a helper failed: {result}")
                            result = None
                    else:
                        self._break(f"a helper took more than {timeout:g} s")
                except (EOFError, OSError) as exc:
                    self._break(f"a helper died: {type(exc).__name__}")
            out.append(result)
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
