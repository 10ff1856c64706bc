"""Drive a real JupyterLab in headless Chromium.

Plain functions, no pytest: `conftest.py` turns them into fixtures, and a test (or a
person at a REPL) can call them directly. Selectors are the ones JupyterLab 4 and
ipywidgets 8 put in the DOM themselves (JupyterLab's own Playwright helpers, galata,
use the same ones), so nothing here needs `--LabApp.expose_app_in_browser`.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

#: The repository these tests belong to.
REPO_ROOT = Path(__file__).resolve().parents[2]
#: A notebook's first cell: the lab's kernels run in a scratch directory, and this makes
#: the work tree importable there whether or not the project is pip-installed.
PATH_CELL = f"import sys\nsys.path.insert(0, {str(REPO_ROOT)!r})"

#: Flags for Chromium as root inside a container or CI machine without a display.
CHROMIUM_ARGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
)

#: Settings written into a throw-away user-settings dir so the page is the same on
#: every machine: no "fetch Jupyter news?" toast over the widgets, every cell in the
#: DOM (Lab's default windowing detaches cells scrolled out of view), no kernel prompt.
LAB_USER_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {
        "windowingMode": "none",
        # Without this, running cells before the session has its kernel opens a modal
        # "Select Kernel" dialog (even though the metadata names python3), which then
        # blocks every click.
        "autoStartDefaultKernel": True,
    },
}

# All set by JupyterLab itself: the toolbar's kernel indicator carries the kernel status
# in `data-status`, and each code cell's prompt reads "[ ]:", "[*]:" or "[7]:".
_ACTIVE_PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
_INDICATOR = f"{_ACTIVE_PANEL} .jp-Notebook-ExecutionIndicator"
# Tracebacks and stderr streams both render with this MIME type.
_STDERR_OUTPUT = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"

# Ready to run, when all three hold for a moment:
# - the toolbar's indicator says idle; but it already does while the toolbar still says
#   "No Kernel" (before the session has its kernel), and Run All Cells then opens a
#   "Select Kernel" dialog instead of running, so
# - the toolbar names a kernel, and
# - the status bar reads "<kernel> | Idle": it also reflects the websocket and shows
#   "Connecting" while the toolbar indicator can already read idle.
_KERNEL_READY_JS = """
([panelSelector, indicatorSelector]) => {
  const indicator = document.querySelector(indicatorSelector);
  const name = document.querySelector(`${panelSelector} .jp-KernelName`);
  const kernel = name ? name.textContent.trim() : '';
  const statusTexts = [...document.querySelectorAll('#jp-main-statusbar *')]
    .filter((el) => el.children.length === 0)
    .map((el) => el.textContent.trim());
  return !!indicator && indicator.dataset.status === 'idle'
    && kernel !== '' && kernel !== 'No Kernel'
    && statusTexts.some((text) => /\\|\\s*Idle$/.test(text));
}
"""

# Sets window.__durakRunStarted once any code cell's prompt reads "[*]:", which Lab
# shows from the moment a cell is queued until its reply arrives.  A MutationObserver
# sees that state even when a cell finishes between two polls, and a kernel going busy
# for other reasons (kernel_info, widget comm_info) cannot be mistaken for the run.
_WATCH_RUN_START_JS = """
(panelSelector) => {
  window.__durakRunStarted = false;
  const check = () => {
    for (const prompt of document.querySelectorAll(`${panelSelector} .jp-InputArea-prompt`)) {
      if (prompt.textContent.trim() === '[*]:') { window.__durakRunStarted = true; }
    }
  };
  if (window.__durakRunObserver) { window.__durakRunObserver.disconnect(); }
  window.__durakRunObserver = new MutationObserver(check);
  window.__durakRunObserver.observe(document.body, {
    subtree: true, childList: true, characterData: true,
  });
}
"""

# After the run started: false while any cell is still queued or the kernel is not
# idle; then true if every non-empty code cell has an execution count, else "error"
# ("Run All Cells" stops at the first exception and leaves later cells unexecuted).
_RUN_FINISHED_JS = """
([panelSelector, indicatorSelector]) => {
  const indicator = document.querySelector(indicatorSelector);
  if (!window.__durakRunStarted || !indicator || indicator.dataset.status !== 'idle') {
    return false;
  }
  const prompts = [...document.querySelectorAll(`${panelSelector} .jp-CodeCell`)]
    .filter((cell) => {
      const source = cell.querySelector('.cm-content');
      return !(source && source.textContent.trim() === '');
    })
    .map((cell) => {
      const prompt = cell.querySelector('.jp-InputArea-prompt');
      return prompt ? prompt.textContent.trim() : '';
    });
  if (prompts.some((text) => text === '[*]:')) { return false; }
  if (prompts.every((text) => /^\\[\\d+\\]:$/.test(text))) { return true; }
  return 'error';
}
"""


class LabStartError(RuntimeError):
    """JupyterLab exited or did not answer /api/status in time; carries its log tail."""


def find_chromium() -> str | None:
    """Path of a Chromium/Chrome binary, or None.

    `DURAK_CHROMIUM` wins; then Debian's `/usr/bin/chromium`, then whatever is on PATH,
    then the usual macOS location.  Playwright's own downloaded browsers are not used:
    `playwright install` needs a CDN that CI machines may not reach.
    """
    override = os.environ.get("DURAK_CHROMIUM")
    if override:
        return override if Path(override).is_file() else None
    candidates = [
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        shutil.which("google-chrome"),
        "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
        "/Applications/Chromium.app/Contents/MacOS/Chromium",
    ]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


class _SharedChromium:
    """One Playwright driver and one Chromium per process, shared by reference count.

    Playwright's sync API allows a single running instance per thread: a second
    `sync_playwright()` started while the first is alive fails with "using Playwright
    Sync API inside the asyncio loop".  That happens as soon as two conftest files
    define a session-scoped browser fixture, so every fixture goes through here.
    """

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None
        self._users = 0

    def acquire(self, executable: str) -> Any:
        if self._browser is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            try:
                self._browser = self._playwright.chromium.launch(
                    executable_path=executable, headless=True, args=list(CHROMIUM_ARGS)
                )
            except BaseException:
                self._playwright.stop()
                self._playwright = None
                raise
        self._users += 1
        return self._browser

    def release(self) -> None:
        self._users -= 1
        if self._users == 0 and self._browser is not None:
            try:
                self._browser.close()
            finally:
                self._playwright.stop()
                self._browser = self._playwright = None


_shared_chromium = _SharedChromium()
acquire_chromium = _shared_chromium.acquire
release_chromium = _shared_chromium.release


def _ephemeral_start() -> int:
    """The first port the kernel hands to a socket bound to port 0 (Linux's default 32768)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _free(kind: socket.SocketKind, host: str) -> int:
    """A port free a moment ago, drawn below the kernel's ephemeral range: a socket bound
    to port 0 meanwhile (a kernel's, a browser's, another server's) cannot take it before
    the server binds it.  Each pytest worker draws from the system's randomness, so two
    workers do not walk the same sequence."""
    draw = random.SystemRandom()
    top = min(_ephemeral_start(), 65536)
    for _ in range(200):
        port = draw.randrange(max(1024, top - 12000), top)
        with socket.socket(socket.AF_INET, kind) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range after 200 draws")


def free_port() -> int:
    """A TCP port that was free a moment ago (the server is told not to retry others)."""
    return _free(socket.SOCK_STREAM, "127.0.0.1")


def free_udp_port() -> int:
    """A UDP port free on every address a moment ago (for a LAN lobby's game port)."""
    return _free(socket.SOCK_DGRAM, "0.0.0.0")


def write_user_settings(settings_dir: Path) -> None:
    """Write `LAB_USER_SETTINGS` as JupyterLab user-settings files under `settings_dir`."""
    for relative, values in LAB_USER_SETTINGS.items():
        target = settings_dir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values, indent=2) + "\n", encoding="utf-8")


def lab_command(root_dir: Path, port: int, settings_dir: Path, workspaces_dir: Path) -> list[str]:
    """The `jupyter lab` command line: no auth, no browser, one fixed port on localhost."""
    command = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--ServerApp.token=",
        "--ServerApp.password=",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root_dir}",
        "--ServerApp.disable_check_xsrf=True",
        f"--LabApp.user_settings_dir={settings_dir}",
        f"--LabApp.workspaces_dir={workspaces_dir}",
        # window.jupyterapp: a tab that has loaded Lab opens the next test's notebook
        # through Lab's own commands instead of loading the whole app again (LabTabs).
        "--LabApp.expose_app_in_browser=True",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # jupyter_server refuses to start as root otherwise
    return command


def _status_ok(url: str) -> bool:
    # HTTPException: something else answered on the port, not in HTTP; the server, which
    # is told not to retry other ports, then fails to bind it and exits with its log.
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, http.client.HTTPException, ConnectionError, TimeoutError,
            OSError):
        return False


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@contextmanager
def running_lab(
    root_dir: Path, state_dir: Path, log_path: Path, startup_timeout: float = 120.0
) -> Iterator[str]:
    """Run JupyterLab on `root_dir` and yield its base URL (ending in "/").

    `state_dir` holds throw-away user settings, workspaces and Jupyter runtime files so
    the developer's own ~/.jupyter never changes what the test sees.  The server is
    stopped with SIGTERM (it then shuts its kernels down), and killed if it lingers.
    """
    port = free_port()
    settings_dir = state_dir / "user-settings"
    workspaces_dir = state_dir / "workspaces"
    write_user_settings(settings_dir)
    workspaces_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env["JUPYTER_RUNTIME_DIR"] = str(state_dir / "runtime")
    env["JUPYTER_PLATFORM_DIRS"] = "1"  # silences jupyter_core's migration warning
    env.pop("JUPYTER_TOKEN", None)

    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            lab_command(root_dir, port, settings_dir, workspaces_dir),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # own process group: its kernels go down with it
        )
    base_url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + startup_timeout
        while not _status_ok(base_url + "api/status"):
            if proc.poll() is not None:
                raise LabStartError(
                    f"jupyter lab exited with {proc.returncode}; log {log_path}:\n"
                    + _tail(log_path)
                )
            if time.monotonic() > deadline:
                raise LabStartError(
                    f"jupyter lab did not answer {base_url}api/status within "
                    f"{startup_timeout:.0f}s; log {log_path}:\n" + _tail(log_path)
                )
            time.sleep(0.25)
        yield base_url
    finally:
        _stop(proc)


class _SharedLab:
    """One JupyterLab server per process, shared by reference count, like the browser.

    tests/net loads tests/e2e/conftest.py a second time under another name to reuse its
    fixtures; pytest then sees two session fixtures and would start two servers (and copy
    notebooks/ twice).  Both go through here, so the second one gets the first's server
    and its root directory.
    """

    def __init__(self) -> None:
        self.root: Path | None = None
        self.url: str | None = None
        self._context: Any = None
        self._users = 0

    def root_dir(self, make: Any) -> Path:
        """The shared root directory; ``make()`` creates it the first time."""
        if self.root is None:
            self.root = Path(make())
        return self.root

    @contextmanager
    def running(self, root_dir: Path, state_dir: Path, log_path: Path) -> Iterator[str]:
        if self._users == 0:
            context = running_lab(root_dir, state_dir, log_path)
            self.url = context.__enter__()
            self._context = context
        elif root_dir != self.root:
            raise RuntimeError(f"the shared JupyterLab serves {self.root}, not {root_dir}")
        self._users += 1
        try:
            assert self.url is not None
            yield self.url
        finally:
            self._users -= 1
            if self._users == 0:
                context, self._context, self.url = self._context, None, None
                context.__exit__(None, None, None)


shared_lab = _SharedLab()

_APP_JS = "() => window.jupyterapp !== undefined && window.jupyterapp.started !== undefined"
# Every document in Lab's main area is closed without asking (a notebook that ran is
# "modified"), after its kernel has been shut down: nothing of one test stays running
# into the next (a LAN lobby's kernel would keep answering on the network).
_CLEAR_JS = """async () => {
  const app = window.jupyterapp;
  await app.started;
  for (const widget of Array.from(app.shell.widgets('main'))) {
    if (widget.sessionContext) { await widget.sessionContext.shutdown(); }
    if (widget.context) { widget.context.model.dirty = false; }
    widget.dispose();
  }
}"""
_OPEN_JS = """async (path) => {
  await window.jupyterapp.commands.execute('docmanager:open', {path});
}"""


def _lab_loaded(page: Any, base_url: str) -> bool:
    """Whether ``page`` shows the JupyterLab at ``base_url``, started."""
    if not page.url.startswith(f"{base_url}lab"):
        return False
    return bool(page.evaluate(_APP_JS))


def clear_lab(page: Any) -> None:
    """Close every document of the Lab in ``page``, its kernels shut down."""
    page.evaluate(_CLEAR_JS)


def stop_sessions(base_url: str) -> int:
    """Shut down every notebook session of the server (REST API); returns how many.
    After a test's tabs are cleared (or closed, when it failed) nothing of it runs on."""
    with urllib.request.urlopen(f"{base_url}api/sessions", timeout=10) as response:
        sessions = json.load(response)
    for session in sessions:
        request = urllib.request.Request(f"{base_url}api/sessions/{session['id']}",
                                         method="DELETE")
        with suppress(urllib.error.HTTPError):  # it may have gone meanwhile
            urllib.request.urlopen(request, timeout=30).close()
    return len(sessions)


class LabTabs:
    """Browser tabs that keep JupyterLab loaded from one test to the next.

    Loading Lab costs a tab seconds of CPU; opening a notebook in a Lab that is loaded
    costs a third of that.  A test asks for ``take(n)`` tabs (a context of their own,
    kept for the whole process); :func:`run_notebooks_in_lab` loads Lab into a fresh
    tab and, in a tab that has it, closes the previous test's notebooks and opens the
    new one.  ``reset()`` after each test closes every document and shuts its kernel
    down; a tab that cannot be reset (it crashed, or went elsewhere) is closed and
    replaced by a fresh one next time.  (The ``lab_tabs`` fixture then shuts down any
    session still on the server: :func:`stop_sessions`.)
    """

    def __init__(self, browser: Any, viewport: dict[str, int]) -> None:
        self._browser = browser
        self._viewport = viewport
        self._context: Any = None
        self.pages: list[Any] = []
        #: What the tabs logged since the last reset (saved when a test fails).
        self.console: list[str] = []
        self._made = 0

    def take(self, n: int) -> list[Any]:
        if self._context is None:
            self._context = self._browser.new_context(viewport=self._viewport)
        while len(self.pages) < n:
            page = self._context.new_page()
            page.set_default_timeout(60_000)
            self._made += 1
            log_console(page, self.console, f"[tab {self._made}] ")
            self.pages.append(page)
        # The first tab in front: a tab a previous test left behind another (a lobby's
        # second tab) runs its page as a background tab, and Chromium then serves it so
        # sparingly that a whole game by clicking took 74 s instead of 7.
        self.pages[0].bring_to_front()
        return self.pages[:n]

    def reset(self) -> None:
        self.console.clear()
        for page in list(self.pages):
            try:
                if page.url.startswith("http") and page.evaluate(_APP_JS):
                    clear_lab(page)
                    continue
                if page.url == "about:blank":
                    continue
            except Exception:
                pass
            self.pages.remove(page)
            with suppress(Exception):
                page.close()

    def discard(self) -> None:
        """Close every tab (after a failed test: whatever state it left is gone)."""
        for page in self.pages:
            with suppress(Exception):
                page.close()
        self.pages = []

    def close(self) -> None:
        if self._context is not None:
            with suppress(Exception):
                self._context.close()
        self._context, self.pages = None, []


def log_console(page: Any, lines: list[str], prefix: str = "") -> None:
    """Append what ``page`` logs (console messages, uncaught errors) to ``lines``."""
    page.on("console", lambda message: lines.append(f"{prefix}[{message.type}] {message.text}"))
    page.on("pageerror", lambda error: lines.append(f"{prefix}[pageerror] {error}"))


_lab_tabs: dict[int, LabTabs] = {}


def lab_tabs_for(browser: Any, viewport: dict[str, int]) -> LabTabs:
    """The :class:`LabTabs` of ``browser``: one per process, whichever conftest asks
    (tests/net loads tests/e2e/conftest.py a second time, as for :data:`shared_lab`)."""
    if id(browser) not in _lab_tabs:
        _lab_tabs[id(browser)] = LabTabs(browser, viewport)
    return _lab_tabs[id(browser)]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=20)
    # Whatever is left in the server's own process group (kernels that outlived it).
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def write_notebook(path: Path, code_cells: Sequence[str]) -> Path:
    """Write a notebook of the given code cells, for the stock `python3` kernel."""
    import nbformat  # installed with jupyterlab; imported late so this module loads anywhere

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in code_cells]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(path))
    return path


def run_notebook_in_lab(page: Any, base_url: str, path: str, timeout: float = 180.0) -> None:
    """Open `path` (relative to the server's root) in a fresh Lab workspace, click
    Run > Run All Cells, and wait.

    Returns once every non-empty code cell has an execution count and the kernel is
    idle again.  Raises AssertionError with the cells' error text if a cell failed, and
    with a description of the page (prompts, kernel status, open dialogs) on timeout.
    `page` is a Playwright sync `Page`.
    """
    run_notebooks_in_lab([(page, path)], base_url, timeout)


def run_notebooks_in_lab(
    tabs: Sequence[tuple[Any, str]], base_url: str, timeout: float = 180.0
) -> None:
    """:func:`run_notebook_in_lab` for several (page, path) tabs, in the order given.

    Every tab is opened first, so the pages load and their kernels start at the same
    time (a cold kernel takes seconds, and one tab need not wait for another's); then
    each tab runs all its cells in turn, each finishing before the next one starts.
    """
    deadline = time.monotonic() + timeout
    for page, path in tabs:
        quoted = urllib.parse.quote(path)
        if not _status_ok(f"{base_url}api/contents/{quoted}?content=0"):
            raise FileNotFoundError(f"{path} is not under the server's root_dir")
        if _lab_loaded(page, base_url):
            # A tab of LabTabs that already shows this Lab: close what it shows (and
            # shut its kernels down), then open the notebook with Lab's command, a
            # fraction of the CPU time of loading the app again.
            clear_lab(page)
            page.evaluate(_OPEN_JS, path)
            continue
        # A workspace of its own: Lab would otherwise restore every notebook opened
        # before in the "default" workspace, and their panels would answer the
        # selectors below.
        workspace = f"run-{uuid.uuid4().hex[:12]}"
        page.goto(f"{base_url}lab/workspaces/{workspace}/tree/{quoted}",
                  timeout=_ms_left(deadline))
    for page, path in tabs:
        _run_all_cells(page, path, deadline, timeout)


def open_notebook_in_lab(page: Any, base_url: str, path: str, timeout: float = 180.0) -> None:
    """Open `path` in a fresh Lab workspace of `page` and wait until its kernel is ready,
    running nothing: a notebook whose kernel already runs (open in another tab) joins
    that kernel, as a second browser window on the same notebook does."""
    deadline = time.monotonic() + timeout
    workspace = f"open-{uuid.uuid4().hex[:12]}"
    page.goto(f"{base_url}lab/workspaces/{workspace}/tree/{urllib.parse.quote(path)}",
              timeout=_ms_left(deadline))
    page.locator("#jupyterlab-splash").wait_for(state="detached", timeout=_ms_left(deadline))
    page.locator(_ACTIVE_PANEL).locator(".jp-Notebook").wait_for(
        state="visible", timeout=_ms_left(deadline))
    if not _poll_steady(page, _KERNEL_READY_JS, [_ACTIVE_PANEL, _INDICATOR], deadline, hold=1.0):
        raise AssertionError(f"{path}: kernel never became ready\n{_describe(page)}")


def _run_all_cells(page: Any, path: str, deadline: float, timeout: float) -> None:
    """Wait for the opened notebook and its kernel, then Run All Cells and wait."""
    page.locator("#jupyterlab-splash").wait_for(state="detached", timeout=_ms_left(deadline))
    panel = page.locator(_ACTIVE_PANEL)
    panel.locator(".jp-Notebook").wait_for(state="visible", timeout=_ms_left(deadline))
    # The kernel starts after the page has loaded; a cold ipykernel takes a few seconds.
    # Lab can report "idle" and then reconnect, so the state has to hold for a moment.
    if not _poll_steady(page, _KERNEL_READY_JS, [_ACTIVE_PANEL, _INDICATOR], deadline, hold=1.0):
        raise AssertionError(f"{path}: kernel never became ready\n{_describe(page)}")

    page.evaluate(_WATCH_RUN_START_JS, _ACTIVE_PANEL)
    started = False
    while not started:
        # Menu commands act on Lab's *current* widget: focus the notebook first.  If the
        # click still lands before Lab has caught up (a disabled menu item, a menu that
        # is rebuilt under the pointer), nothing ran, so clicking again is safe.
        _accept_kernel_dialog(page)
        panel.locator(".jp-InputArea-prompt").first.click()
        _click_menu(page, "Run", "Run All Cells", deadline)
        retry_at = min(deadline, time.monotonic() + 15)
        started = bool(_poll(page, "() => window.__durakRunStarted", None, retry_at))
        if not started and time.monotonic() > deadline:
            raise AssertionError(f"{path}: Run All Cells never started\n{_describe(page)}")

    outcome = _poll(page, _RUN_FINISHED_JS, [_ACTIVE_PANEL, _INDICATOR], deadline)
    if outcome is None:
        raise AssertionError(f"{path}: still running after {timeout:.0f}s\n{_describe(page)}")
    if outcome is not True:
        errors = page.locator(f"{_ACTIVE_PANEL} {_STDERR_OUTPUT}").all_inner_texts()
        raise AssertionError(
            f"{path}: Run All Cells stopped before the last cell:\n" + "\n---\n".join(errors)
        )


def _ms_left(deadline: float) -> float:
    return max(1.0, (deadline - time.monotonic()) * 1000)


def _poll_steady(page: Any, js: str, arg: Any, deadline: float, hold: float) -> bool:
    """True once `js` has returned true in every poll for `hold` seconds."""
    since: float | None = None
    while time.monotonic() <= deadline:
        _accept_kernel_dialog(page)
        if page.evaluate(js, arg) is True:
            since = time.monotonic() if since is None else since
            if time.monotonic() - since >= hold:
                return True
        else:
            since = None
        page.wait_for_timeout(100)
    return False


def _poll(page: Any, js: str, arg: Any, deadline: float, interval_ms: int = 100) -> Any:
    """Evaluate `js` until it returns something other than false/null; None on deadline.

    Accepts a "Select Kernel" dialog whenever one shows up, as a user would.
    """
    while True:
        _accept_kernel_dialog(page)
        value = page.evaluate(js, arg)
        if value is not False and value is not None:
            return value
        if time.monotonic() > deadline:
            return None
        page.wait_for_timeout(interval_ms)


_DESCRIBE_JS = """
([panelSelector, indicatorSelector]) => ({
  prompts: [...document.querySelectorAll(`${panelSelector} .jp-InputArea-prompt`)]
    .map((p) => p.textContent.trim()),
  kernel: document.querySelector(indicatorSelector)?.dataset.status ?? '(no indicator)',
  dialogs: [...document.querySelectorAll('.jp-Dialog')].map((d) => d.innerText),
  runStarted: window.__durakRunStarted ?? null,
})
"""


def _describe(page: Any) -> str:
    state = page.evaluate(_DESCRIBE_JS, [_ACTIVE_PANEL, _INDICATOR])
    return json.dumps(state, indent=2)


def _accept_kernel_dialog(page: Any) -> bool:
    """Click the default button of an open "Select Kernel" dialog (python3 preselected)."""
    dialog = page.locator(".jp-Dialog").filter(has_text="Select Kernel")
    if dialog.count() == 0:
        return False
    dialog.locator("button.jp-mod-accept").first.click()
    dialog.wait_for(state="detached")
    return True


def _click_menu(page: Any, menu: str, item: str, deadline: float) -> None:
    """Click `menu` in Lab's main menu bar, then the enabled `item` in the menu that opens.

    Lumino renders an item whose command is not enabled yet with .lm-mod-disabled and
    ignores clicks on it; then the menu is closed and opened again.
    """
    while True:
        page.locator(".lm-MenuBar-itemLabel").filter(has_text=_exactly(menu)).click()
        opened = page.locator(".lm-Menu.lm-MenuBar-menu")
        opened.wait_for(state="visible", timeout=_ms_left(deadline))
        entry = opened.locator("li.lm-Menu-item").filter(
            has=page.locator(".lm-Menu-itemLabel").filter(has_text=_exactly(item))
        )
        classes = entry.get_attribute("class", timeout=_ms_left(deadline)) or ""
        if "lm-mod-disabled" not in classes:
            entry.click()
            return
        page.keyboard.press("Escape")
        if time.monotonic() > deadline:
            raise AssertionError(f"menu item {menu} > {item} stayed disabled")
        page.wait_for_timeout(250)


def _exactly(text: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


# ---------------------------------------------------------------- the card table
# The same table in every front end (JupyterLab, the JupyterLite site, a Voila app): the
# helpers below read only what a person sees (the classes and texts the views set).

TABLE_ROOT = ".durak-root"
TABLE_STATUS = f"{TABLE_ROOT} .durak-status"

# True when the table waits for the person (or the game is over) and the move marker in
# the status line differs from `old`.  The status is the last widget a refresh updates,
# so when it has changed the rest of the table has too.
_SETTLED_JS = """
(old) => {
  const status = document.querySelector('.durak-root .durak-status');
  if (!status) { return false; }
  const marker = status.querySelector('.durak-move');
  const now = marker ? marker.textContent : '';
  if (status.classList.contains('durak-over')) { return true; }
  return now !== old && status.classList.contains('durak-your-move')
    && !status.classList.contains('durak-thinking');
}
"""


def move_marker(page: Any) -> str:
    """The "bout N · move M" text of the status line ("" before the first drawing)."""
    marker = page.locator(f"{TABLE_STATUS} .durak-move")
    return str(marker.inner_text()) if marker.count() else ""


def wait_settled(page: Any, old: str, timeout_ms: float = 20_000) -> None:
    """Wait until it is the person's move again (the marker moved on from `old`) or over."""
    page.wait_for_function(_SETTLED_JS, arg=old, timeout=timeout_ms, polling=50)


def play_game_by_clicking(
    page: Any, timeout: float = 90.0, on_turn: Callable[[Any], None] | None = None
) -> int:
    """Play the table's game to its end as a simple person would; returns the clicks.

    End a bout when allowed (Beaten/Pass), else play the first playable card (beating
    with it if defending: when it fits several attack cards, beat the first the page
    marks), else Take.  `on_turn(page)` runs at each of the person's turns before the
    click (screenshots).  Raises AssertionError when the game does not end in time or
    the page offers nothing to click.
    """
    root = TABLE_ROOT
    playable = page.locator(f"{root} .durak-hand button.durak-playable:visible")
    pass_button = page.locator(f"{root} .durak-btn-pass:visible")
    take_button = page.locator(f"{root} .durak-btn-take:visible")
    banner = page.locator(f"{root} .durak-banner")
    selected = page.locator(f"{root} .durak-hand button.durak-selected")
    marker = ""
    clicks = 0
    deadline = time.monotonic() + timeout
    while True:
        wait_settled(page, marker)
        marker = move_marker(page)
        if banner.is_visible():
            return clicks
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not end within {timeout:.0f} s")
        # The status line can be drawn before the hand's buttons (each widget view renders
        # on its own): wait for something to click before deciding what to click.
        page.locator(
            f"{root} .durak-hand button.durak-playable:visible, "
            f"{root} .durak-btn-pass:visible, {root} .durak-btn-take:visible"
        ).first.wait_for(state="visible", timeout=15_000)
        if on_turn is not None:
            on_turn(page)
        if pass_button.count():
            pass_button.first.click()
        elif playable.count():
            playable.first.click()
            page.wait_for_function(
                """(old) => {
                  const m = document.querySelector('.durak-root .durak-status .durak-move');
                  return (m && m.textContent !== old)
                    || document.querySelector('.durak-root .durak-hand button.durak-selected');
                }""",
                arg=marker,
                timeout=15_000,
            )
            if selected.count():
                page.locator(f"{root} .durak-pair button.durak-target").first.click()
        elif take_button.count():
            take_button.first.click()
        else:
            status = page.locator(TABLE_STATUS).inner_text()
            raise AssertionError(f"nothing to click; status: {status}")
        clicks += 1


# ---------------------------------------------------------------- offline pages

#: Hosts a page may reach in an offline test: this machine's own servers only.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
_LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")


class OfflineContext:
    """A browser context cut off from everything but this machine.

    Every request (the page's, its workers' and its service worker's) goes through
    `route`: one for a local server continues, any other is aborted and recorded in
    `blocked`.  As a second wall, the context's proxy is a dead local port for all hosts
    but the local ones, so even a request the route did not see cannot leave.
    """

    def __init__(self, browser: Any, **options: Any) -> None:
        self.blocked: list[str] = []
        self.requests: list[tuple[float, str]] = []
        self.context = browser.new_context(
            proxy={"server": "http://127.0.0.1:9", "bypass": ",".join(LOCAL_HOSTS)},
            **options,
        )
        self.context.route("**/*", self._route)
        self.context.on(
            "request", lambda request: self.requests.append((time.monotonic(), request.url))
        )

    def _route(self, route: Any) -> None:
        url = route.request.url
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme in ("data", "blob") or parsed.hostname in _LOCAL_NAMES:
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort("internetdisconnected")

    def close(self) -> None:
        self.context.close()


# ---------------------------------------------------------------- the JupyterLite site

def open_lite_notebook(page: Any, base_url: str, path: str, timeout: float = 180.0) -> None:
    """Open `path` of a JupyterLite site in its JupyterLab and wait for a ready kernel.

    Pyodide starts in the page's kernel worker: the interpreter, then the kernel's own
    packages, which takes a while on a cold cache.  Ready means what it means for Lab's
    kernels: the toolbar names the kernel and the status bar reads "| Idle".
    """
    deadline = time.monotonic() + timeout
    page.goto(f"{base_url}lab/index.html?path={urllib.parse.quote(path)}",
              timeout=_ms_left(deadline))
    panel = page.locator(_ACTIVE_PANEL)
    panel.locator(".jp-Notebook").wait_for(state="visible", timeout=_ms_left(deadline))
    if not _poll_steady(page, _KERNEL_READY_JS, [_ACTIVE_PANEL, _INDICATOR], deadline, hold=1.0):
        raise AssertionError(f"{path}: the Pyodide kernel never became ready\n{_describe(page)}")


def run_cell_source(page: Any, index: int, source: str) -> None:
    """Replace the source of code cell `index` of the open notebook and run it (Shift+Enter)."""
    cell = page.locator(f"{_ACTIVE_PANEL} .jp-CodeCell").nth(index)
    cell.locator(".cm-content").click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(source)
    page.keyboard.press("Shift+Enter")


#: Runs code in the kernel of the site's open notebook (the site exposes its JupyterLab
#: as ``window.jupyterapp``) and gives what it printed, or the error, as text.
_EXECUTE_JS = """
async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const out = [];
  let error = null;
  const future = kernel.requestExecute({code, store_history: false});
  future.onIOPub = (msg) => {
    const kind = msg.header.msg_type;
    if (kind === 'stream') {
      out.push(msg.content.text);
    } else if (kind === 'error') {
      error = msg.content.ename + ': ' + msg.content.evalue + '\\n'
        + msg.content.traceback.join('\\n');
    }
  };
  await future.done;
  return {out: out.join(''), error};
}
"""


def run_in_site_kernel(page: Any, code: str, timeout: float = 120.0) -> str:
    """Run ``code`` in the kernel of the site's open notebook (no cell, no typing: the
    kernel's own execute request) and give its printed output; AssertionError with the
    traceback if it raises.  Top-level ``await`` works, as in a cell."""
    page.set_default_timeout(timeout * 1000)
    result = page.evaluate(_EXECUTE_JS, code)
    if result["error"] is not None:
        raise AssertionError(f"the site's kernel raised {result['error']}")
    return str(result["out"])


# ---------------------------------------------------------------- Voila


def voila_command(notebook: Path, port: int) -> list[str]:
    """`voila` serving one notebook as an app on 127.0.0.1:`port`, no browser (or, given
    a folder, each of its notebooks at ``/voila/render/<name>``)."""
    return [
        sys.executable, "-m", "voila", str(notebook), "--no-browser",
        f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
    ]


@contextmanager
def running_server(
    command: Sequence[str], url: str, log_path: Path, cwd: Path | None = None,
    startup_timeout: float = 120.0, env: dict[str, str] | None = None,
) -> Iterator[str]:
    """Run a web server `command` until `url` answers 200; yield `url`; stop it after.

    Its log goes to `log_path`; it runs in its own process group (kernels go down with it).
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            list(command), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            cwd=cwd, env=env, start_new_session=True,
        )
    try:
        deadline = time.monotonic() + startup_timeout
        while not _status_ok(url):
            if proc.poll() is not None:
                raise LabStartError(
                    f"{command[:3]} exited with {proc.returncode}; log {log_path}:\n"
                    + _tail(log_path)
                )
            if time.monotonic() > deadline:
                raise LabStartError(f"{url} did not answer within {startup_timeout:.0f}s; "
                                    f"log {log_path}:\n" + _tail(log_path))
            time.sleep(0.25)
        yield url
    finally:
        _stop(proc)
