"""The one hand-off point between threads and the widgets.

Everything that changes the table goes through :meth:`Handoff.post`: button clicks
(which JupyterLab 4.4+ with ipykernel 7 may deliver on a subshell thread), bots
answering from their worker thread, and a network backend's socket thread.  Posted
functions run one at a time, in the order posted, on one thread, holding
:attr:`Handoff.lock`; so widget traits are only ever set from that thread and the
game is never read half-changed.

Three modes:

``"kernel"``
    Inside a running IPython kernel: functions run on the kernel's event loop
    (``kernel.io_loop.add_callback``, which is safe to call from any thread).  A
    function posted from the loop's own thread runs after the current callback, so
    a click handler never re-enters the table while it is being changed.  In a
    browser (JupyterLite's Pyodide kernel, which has no ``io_loop`` and no threads)
    the kernel's asyncio loop plays that part (:class:`~durak_widgets.browser.EventLoop`).
``"sync"``
    No kernel (plain Python, pytest): a function runs at once on the posting
    thread, unless another posted function is already running, in which case it
    is queued and runs when that one returns (a trampoline: no recursion, the same
    order as the kernel mode).  Tests are deterministic without any waiting.
``"manual"``
    Functions are only queued; :meth:`Handoff.pump` runs them on the caller's
    thread.  For tests that need real worker threads but want to decide when their
    results land.

>>> h = Handoff(mode="sync")
>>> seen = []
>>> h.post(lambda: seen.append(1))
>>> seen
[1]
>>> m = Handoff(mode="manual")
>>> m.post(lambda: seen.append(2))
>>> seen
[1]
>>> m.pump(), seen
(1, [1, 2])
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Literal

from .browser import browser_loop

Mode = Literal["auto", "kernel", "sync", "manual"]
Task = Callable[[], None]

log = logging.getLogger(__name__)


def kernel_loop() -> Any | None:
    """The running IPython kernel's event loop (an object with ``add_callback``), or None.

    ipykernel's tornado ``io_loop``; in Pyodide's kernel (a browser), its asyncio loop.
    """
    try:
        from IPython.core.getipython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipykernel
        return None
    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    loop = getattr(kernel, "io_loop", None)
    return loop if hasattr(loop, "add_callback") else browser_loop()


class Handoff:
    """Run posted functions one at a time on the UI thread, holding :attr:`lock`.

    mode: ``"auto"`` picks ``"kernel"`` when a kernel loop is running, else ``"sync"``.
    loop: for ``"kernel"`` mode, any object with a thread-safe ``add_callback(fn, *args)``
        (tornado's IOLoop); by default the running kernel's ``io_loop``.
    on_error: called with the exception when a posted function raises, so a bug shows
        up in the UI instead of disappearing into the event loop's log.
    """

    def __init__(
        self,
        mode: Mode = "auto",
        loop: Any | None = None,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        if mode not in ("auto", "kernel", "sync", "manual"):
            raise ValueError(f"mode must be 'auto', 'kernel', 'sync' or 'manual', not {mode!r}")
        if mode in ("auto", "kernel") and loop is None:
            loop = kernel_loop()
            if loop is None and mode == "kernel":
                raise ValueError("mode='kernel' needs a running IPython kernel or an explicit loop")
        if mode == "auto":
            mode = "kernel" if loop is not None else "sync"
        if mode == "kernel" and not hasattr(loop, "add_callback"):
            raise ValueError("the loop must have a thread-safe add_callback(fn, *args) method")
        self.mode: Literal["kernel", "sync", "manual"] = mode
        self._loop = loop if mode == "kernel" else None
        #: Held while a posted function runs; take it to read the table from another thread.
        self.lock = threading.RLock()
        self.on_error = on_error
        self._queue: deque[Task] = deque()
        self._qlock = threading.Lock()
        self._draining = False
        self._closed = False
        self._pending = 0
        self._idle = threading.Condition(self._qlock)  # signalled on every post and run

    # ------------------------------------------------------------------ posting

    def post(self, fn: Task) -> None:
        """Run ``fn`` on the UI thread, after everything posted before it.  Any thread."""
        with self._qlock:
            if self._closed:
                return
            self._pending += 1
            if self.mode == "kernel":
                assert self._loop is not None
                self._loop.add_callback(self._run, fn)
                return
            self._queue.append(fn)
            self._idle.notify_all()  # wake a pump_until() waiting for this post
            if self.mode == "manual" or self._draining:
                return
            self._draining = True
        self._drain(None)

    def post_later(self, delay: float, fn: Task) -> None:
        """Like :meth:`post`, but not before ``delay`` seconds.  Call it on the UI thread.

        For work that must wait without a thread to wait on (a bot's card landing after
        the visible pause, in a browser): with a loop that has ``call_later`` (tornado's
        and asyncio's do), a timer on the loop posts ``fn``; in ``"sync"`` and
        ``"manual"`` mode, and with a loop without timers, it is posted at once.
        """
        call_later = getattr(self._loop, "call_later", None)
        if delay <= 0 or self.mode != "kernel" or call_later is None:
            self.post(fn)
            return
        with self._qlock:
            if self._closed:
                return
            self._pending += 1  # not idle while the timer runs
        call_later(delay, self._post_timed, fn)

    def _post_timed(self, fn: Task) -> None:
        with self._qlock:
            self._pending -= 1
        self.post(fn)

    def pump(self, limit: int | None = None) -> int:
        """Run queued functions on this thread (``"manual"`` mode); returns how many ran."""
        if self.mode == "kernel":
            raise RuntimeError(
                "pump() is for 'manual' and 'sync' mode; the kernel loop runs itself"
            )
        with self._qlock:
            if self._draining:
                return 0  # already draining further up this thread's stack
            self._draining = True
        return self._drain(limit)

    def pump_until(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        """Pump until ``condition()`` holds; raise TimeoutError after ``timeout`` seconds.

        Waits for posts from other threads without spinning: the thread posting wakes
        the waiter.  For ``"manual"`` mode tests with real worker threads.
        """
        deadline = time.monotonic() + timeout
        while True:
            self.pump()
            if condition():
                return
            with self._qlock:
                if not self._queue:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise TimeoutError(f"condition not met within {timeout}s")
                    self._idle.wait(min(left, 0.05))

    def idle(self) -> bool:
        """Whether nothing posted is waiting or running."""
        with self._qlock:
            return self._pending == 0

    def close(self) -> None:
        """Drop whatever is queued and ignore later posts (the table was closed)."""
        with self._qlock:
            self._closed = True
            self._pending -= len(self._queue)
            self._queue.clear()

    # ---------------------------------------------------------------- running

    def _drain(self, limit: int | None) -> int:
        ran = 0
        while limit is None or ran < limit:
            with self._qlock:
                if not self._queue:
                    self._draining = False
                    return ran
                fn = self._queue.popleft()
            self._run(fn)
            ran += 1
        with self._qlock:
            self._draining = False
        return ran

    def _run(self, fn: Task) -> None:
        try:
            with self.lock:
                fn()
        except Exception as exc:
            log.exception("durak table: a posted update failed")
            if self.on_error is not None:
                try:
                    self.on_error(exc)
                except Exception:  # pragma: no cover - never let the reporter kill the loop
                    log.exception("durak table: reporting an error failed")
        finally:
            with self._qlock:
                self._pending -= 1
                self._idle.notify_all()

    def __repr__(self) -> str:
        return f"<Handoff {self.mode}>"
