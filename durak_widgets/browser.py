"""What changes when the table runs inside a web page (JupyterLite, Python in Pyodide).

Pyodide is CPython compiled to WebAssembly, running in the browser's kernel worker.  It
has no threads and no UDP sockets, so two things work differently there:

- Bots cannot think on a worker thread.  The table then asks a bot in a later turn of
  the kernel's event loop (after the page has been told the bot is "thinking"), and lands
  its card after the usual delay with a timer on that loop: no thread, and the kernel is
  busy only for the bot's own think time.  :class:`EventLoop` is that loop, for
  :class:`~durak_widgets.handoff.Handoff`.
- LAN play cannot work at all: :func:`lan` says so.  Online play can (``online()``: its
  WebRTC channel lives in the page, durak_widgets/channel.py); the network package then
  takes msgspec's build for Pyodide, and libsodium.js for what ``cryptography`` does on a
  computer (durak_net/primitives.py).

The compiled engine does not exist there either; ``durak_core`` runs its pure-Python
build without a word (the site's wheel has no compiled modules).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import Any

#: True inside Pyodide (JupyterLite's Python kernel), whose platform is Emscripten.
IN_BROWSER = sys.platform == "emscripten"

#: What :func:`lan` says in a browser.
LAN_NEEDS_LOCAL_PYTHON = (
    "LAN play needs a local Python: this notebook runs inside a web page (JupyterLite), "
    "and a web page cannot send or receive UDP datagrams, which finding and playing "
    "another notebook on the LAN needs. Install durak on your computer (bash "
    "scripts/play.sh) and call lan() there; play() against bots and hot-seat games work "
    "here."
)


def threads_available() -> bool:
    """Whether a bot may think on a thread of its own (not in Pyodide)."""
    return not IN_BROWSER


class EventLoop:
    """An asyncio loop seen as the kernel loop :class:`~durak_widgets.handoff.Handoff` wants.

    ``add_callback(fn, *args)`` runs ``fn`` in a later turn of the loop and
    ``call_later(delay, fn, *args)`` after ``delay`` seconds.  In Pyodide the loop is the
    browser's own (setTimeout underneath), and there is only one thread, so neither needs
    to be thread-safe.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def add_callback(self, fn: Callable[..., Any], *args: Any) -> None:
        self.loop.call_soon(fn, *args)

    def call_later(self, delay: float, fn: Callable[..., Any], *args: Any) -> None:
        self.loop.call_later(delay, fn, *args)


def browser_loop() -> EventLoop | None:
    """The event loop of Pyodide's kernel, when running in one; else None."""
    if not IN_BROWSER:
        return None
    try:
        from IPython.core.getipython import get_ipython
    except ImportError:  # pragma: no cover - the Pyodide kernel is IPython
        return None
    if get_ipython() is None:
        return None
    return EventLoop(asyncio.get_event_loop())


def lan(*args: Any, **kwargs: Any) -> Any:
    """In a browser: raise, saying that LAN play needs a local Python (no UDP in a page).

    >>> lan(name="Alice")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    RuntimeError: LAN play needs a local Python: ...
    """
    raise RuntimeError(LAN_NEEDS_LOCAL_PYTHON)
