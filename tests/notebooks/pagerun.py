"""Run a notebook's code cells with a web page's limits; print which cells failed.

    python tests/notebooks/pagerun.py NOTEBOOK.ipynb   # or -: the notebook on stdin

The JupyterLite site runs the notebooks in Pyodide, which has no processes, no threads,
no sockets, and only the packages the site serves (lite/requirements.txt: no
matplotlib, no numpy, and no durak_net, whose cryptography has no Pyodide build).  This
runner takes those away from an ordinary Python (the engine may stay compiled: speed is
not a limit), runs every code cell in order in one IPython shell, as a kernel would,
and prints one JSON line: ``{"failed": {cell number: "error"}}`` (numbers count every
cell of the notebook, markdown included).  A cell that tried to use what a page has not
counts as failed even if it caught the error (the arena makes a bot that cannot start
forfeit its games: the cell "runs", and its results mean nothing).  A cell that fails
because an earlier one did fails here too, as it would in the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.abc
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
from typing import Any, NoReturn

#: Packages the site does not serve (lite/requirements.txt), which a notebook might import.
NOT_SERVED = ("durak_net", "matplotlib", "numpy", "cryptography", "pysodium", "nacl",
              "msgspec", "spake2", "psutil", "scipy", "pandas")


class _NotServed(importlib.abc.MetaPathFinder):
    """Refuses the packages a page cannot import."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name.split(".")[0] in NOT_SERVED:
            ATTEMPTED.append(f"the package {name}")
            raise ModuleNotFoundError(f"No module named {name!r} (not in the site)", name=name)


#: What the cell being run tried to use that a page has not (a cell that catches the
#: error, as the arena does when a bot program cannot start, still cannot run there).
ATTEMPTED: list[str] = []


def _refuse(what: str) -> Any:
    def refused(*args: Any, **kwargs: Any) -> NoReturn:
        ATTEMPTED.append(what)
        raise OSError(f"a web page has no {what}")

    return refused


def limit() -> None:
    """Take away what a page does not have, and say we are in one (durak_widgets then
    leaves durak_net alone, as in Pyodide, whose platform is Emscripten)."""
    sys.platform = "emscripten"
    # Pyodide's asyncio loop is the browser's; an ordinary one needs a socket pair, made
    # here, before sockets go.
    asyncio.set_event_loop(asyncio.new_event_loop())
    for name in list(sys.modules):
        if name.split(".")[0] in NOT_SERVED:
            del sys.modules[name]
    sys.meta_path.insert(0, _NotServed())
    subprocess.Popen.__init__ = _refuse("processes")  # type: ignore[method-assign]
    os.fork = _refuse("processes")
    os.posix_spawn = _refuse("processes")
    threading.Thread.start = _refuse("threads")  # type: ignore[method-assign]
    socket.socket.__init__ = _refuse("sockets")  # type: ignore[method-assign]


def main(path: str) -> int:
    from IPython.core.interactiveshell import InteractiveShell

    if path == "-":
        cells = json.load(sys.stdin)["cells"]
    else:
        with open(path, encoding="utf-8") as file:
            cells = json.load(file)["cells"]
    shell = InteractiveShell.instance()
    os.chdir(tempfile.mkdtemp(prefix="durak-page-"))  # files a cell writes land here
    limit()
    failed: dict[int, str] = {}
    for number, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            result = shell.run_cell("".join(cell["source"]), silent=True)
        if not result.success:
            error = result.error_in_exec or result.error_before_exec
            failed[number] = f"{type(error).__name__}: {error}"
        elif ATTEMPTED:
            failed[number] = f"ran, but could not use: {', '.join(sorted(set(ATTEMPTED)))}"
        ATTEMPTED.clear()
    print(json.dumps({"failed": failed}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
