"""Repository-wide pytest set-up.

Being at the repository root, this file also puts the root on sys.path, so the tests
and the doctests import the packages from the work tree even when not installed.

Doctests: `pytest tests durak_core` runs the tests *and* the doctest examples of every
module under durak_core/.  That is what `--doctest-modules` would do, except that the
flag applies to every path on the command line and would also import each helper
script under tests/ (bots that read stdin, fixtures that take argv) as a module.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from _pytest.doctest import DoctestModule

import durak_core
from durak_core import _engine

DOCTEST_PACKAGES = (Path(__file__).resolve().parent / "durak_core",)

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # hypothesis is in the [test] extra; without it only its tests fail
    pass
else:
    # CI machines are slow and shared: no per-example deadline, and print the blob that
    # reproduces a failure.  CI runs and scripts/test.sh are derandomized, so a red run is
    # the same on a re-run; a plain pytest run uses the default profile, which explores new
    # examples each time and keeps its deadline.
    settings.register_profile(
        "ci",
        deadline=None,
        print_blob=True,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    settings.load_profile(
        os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
    )


def _netns_unavailable() -> str | None:
    """Why network-namespace tests cannot run here, or None if they can."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux-only"
    if os.geteuid() != 0:
        return "network-namespace tests need root (ip netns add)"
    if shutil.which("ip") is None:
        return "network-namespace tests need the `ip` tool (apt-get install iproute2)"
    return None


#: Test files that drive JupyterLab in Chromium: tests/e2e/ and any *browser*.py.
_BROWSER_FILE = re.compile(r"^tests/e2e/|browser[^/]*\.py$")
#: Browser test files that start servers of their own (the Voila app, the static
#: JupyterLite site) and never ask for the shared JupyterLab (`jupyterlab_server`,
#: `lab_page`, `lab_tabs`: tests/e2e/test_work_units.py checks both ways).  They
#: are the second browser unit, on a worker of its own, beside the JupyterLab unit.
_BROWSER_WITHOUT_LAB = re.compile(r"^tests/e2e/test_(voila|site)(_[a-z]+)?_browser\.py$")
#: The units of work of the browser test files (see pytest_xdist_make_scheduler).
BROWSER_UNITS = ("browser tests: JupyterLab", "browser tests: apps and site")
#: Tests whose cases go to whichever worker is free, one by one, instead of staying with
#: their file: the 100 table games (20 cases of 1-4 s, some 30 worker-seconds), and the
#: documents' commands and examples (some 170 cases, each a process of its own, some 40
#: CPU-seconds and, on a loaded machine, well over a minute as one file), and each
#: notebook run with a page's limits (a process each, the AI tutorial's some 12 s), any
#: of which would otherwise keep one worker busy after the others are done.
_ONE_BY_ONE = re.compile(r"^tests/net/test_net_tables\.py::test_whole_games_"
                         r"|^tests/docs/test_docs\.py::test_(readme_commands_run|python_examples_run)"
                         r"|^tests/notebooks/test_notebooks\.py::test_exactly_the_marked_cells")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The longest work first (browser tests, then those marked slow or waits), so that
    # parallel workers (scripts/test.sh) do not end with one of them still busy and the other
    # idle.  Stable: within each kind, and within a file, the order stays as written.
    items.sort(key=lambda item: 0 if "browser" in item.keywords
               else 1 if "slow" in item.keywords or "waits" in item.keywords else 2)
    reason = _netns_unavailable()
    if reason is None:
        return
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "netns" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """Run a test that is not a browser test with no event loop marked as running.

    Playwright's sync API (the browser tests' session-wide Chromium) runs its asyncio
    loop in a greenlet of the main thread, and from its start to its stop the thread
    counts that loop as running: ``asyncio.run()`` then refuses to start.  A worker
    whose browser unit is done goes on with other files (scripts/test.sh), so such a
    test would fail or pass by where it was scheduled.  While it runs, Playwright's
    greenlet is never switched to, so setting its loop aside is safe.
    """
    loop = asyncio._get_running_loop()
    if loop is None or "browser" in item.keywords:
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio._set_running_loop(loop)


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook; without xdist it is never called
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` (scripts/test.sh), with the browser test files in two units.

    A file's tests stay on one worker as with plain loadfile (module fixtures are made
    once; the cases matched by ``_ONE_BY_ONE`` are units of their own).  The browser
    files make two units (:func:`work_unit`), each on a worker of its own from the start,
    where one Chromium serves the unit's files: the files that open notebooks in
    JupyterLab share one JupyterLab; the others (the Voila app, the static site) start
    their own servers and no JupyterLab.  One browser worker alone was the long pole of
    the run: it mostly waits for pages, kernels and servers, and two halves of its work
    overlap.  (pytest-xdist's own ``xdist_group`` marks no longer group anything with
    pytest 9.2: pytest-xdist issue 1386.)
    """
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class BrowserFilesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return BrowserFilesTogether(config, log)


def work_unit(nodeid: str) -> str:
    """The unit of work (pytest-xdist's scope) of the test ``nodeid``: its file, one of
    :data:`BROWSER_UNITS`, or (``_ONE_BY_ONE``) the test itself."""
    if _ONE_BY_ONE.search(nodeid):
        return nodeid
    path = nodeid.split("::", 1)[0]
    if not _BROWSER_FILE.search(path):
        return path
    return BROWSER_UNITS[1] if _BROWSER_WITHOUT_LAB.search(path) else BROWSER_UNITS[0]


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Collect doctests from modules under DOCTEST_PACKAGES (see the module docstring)."""
    if file_path.suffix != ".py" or file_path.name == "__main__.py":
        return None
    if parent.config.option.doctestmodules:
        return None  # pytest's own doctest plugin collects them
    if not any(package in file_path.parents for package in DOCTEST_PACKAGES):
        return None
    if file_path.stem in _engine.ENGINE and durak_core.COMPILED:
        # The compiled module stands in for this file; its doctests run on the pure
        # build (scripts/test.sh runs tests/core and durak_core with DURAK_PURE=1).
        return None
    module: pytest.Collector = DoctestModule.from_parent(parent, path=file_path)
    return module
