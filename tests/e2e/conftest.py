"""Fixtures for end-to-end tests in a real JupyterLab page.

`jupyterlab_server` (session): a JupyterLab serving a temporary copy of notebooks/,
    whose path is `lab_root_dir`; yields the base URL.
`browser_page` (function): a fresh Playwright page in headless Debian Chromium.
    Skips, saying why, when Chromium or the playwright package is missing.
`lab_tabs` (function), `lab_page` (function): tabs that keep JupyterLab loaded from one
    test to the next (browser_support.LabTabs): ``lab_tabs.take(n)`` gives n of them,
    `lab_page` one; after the test their notebooks are closed and kernels shut down.
`site_url` (session): the JupyterLite site (scripts/lite_site.py; built once, reused from
    its cache when nothing changed) served from this machine; yields its base URL.  One
    build and one server for every site test file of the process.
`offline`, `offline_page` (function): the same in a context cut off from everything but
    this machine (`offline.blocked` lists what a page tried to reach beyond it), in the
    browser's language a test may give (see `offline`).

Server log, and on failure a screenshot, land in tests/e2e/artifacts/ (gitignored).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    REPO_ROOT,
    LabTabs,
    OfflineContext,
    acquire_chromium,
    find_chromium,
    lab_tabs_for,
    log_console,
    release_chromium,
    shared_lab,
    stop_sessions,
)

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORT = {"width": 1400, "height": 900}

_reports = pytest.StashKey[dict[str, pytest.TestReport]]()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the item so fixtures can tell whether the test failed."""
    report = yield
    item.stash.setdefault(_reports, {})[report.when] = report
    return report


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def lab_root_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch copy of notebooks/: tests may add notebooks, Lab may write checkpoints.
    One per process, whichever conftest asks (see browser_support.shared_lab)."""

    def make() -> Path:
        root = tmp_path_factory.mktemp("lab-root")
        source = REPO_ROOT / "notebooks"
        if source.is_dir():
            shutil.copytree(
                source,
                root,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns(".ipynb_checkpoints"),
            )
        return root

    return shared_lab.root_dir(make)


@pytest.fixture(scope="session")
def jupyterlab_server(
    lab_root_dir: Path, tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path
) -> Iterator[str]:
    """Base URL (ending in "/") of a running JupyterLab without auth on a free port,
    started once per process (see browser_support.shared_lab)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")  # parallel runs: a log each
    with shared_lab.running(
        lab_root_dir,
        state_dir=tmp_path_factory.mktemp("lab-state"),
        log_path=artifacts_dir / f"jupyterlab-{worker}-{lab_root_dir.name}.log",
    ) as base_url:
        yield base_url


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """Base URL (ending in "/") of the JupyterLite site, built once per process and
    served from a thread of this one (tests/e2e/test_site*_browser.py)."""
    pytest.importorskip("jupyterlite_core", reason="the site needs the [site] extra")
    scripts = str(REPO_ROOT / "scripts")
    if scripts not in sys.path:
        sys.path.insert(0, scripts)
    import lite_site

    try:
        site = lite_site.build()
    except SystemExit as exc:  # npm or a download missing: say so rather than error out
        pytest.fail(f"the site could not be built: {exc}")
    with lite_site.serving(site) as url:
        yield url


@pytest.fixture(scope="session")
def _chromium() -> Iterator[Any]:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("browser tests need the playwright package: pip install -e '.[test]'")
    executable = find_chromium()
    if executable is None:
        pytest.skip(
            "browser tests need Chromium: apt-get install chromium "
            "(or set DURAK_CHROMIUM=/path/to/chrome)"
        )
    browser = acquire_chromium(executable)  # shared with any other conftest's fixture
    try:
        yield browser
    finally:
        release_chromium()


@pytest.fixture
def browser_page(
    _chromium: Any, request: pytest.FixtureRequest, artifacts_dir: Path
) -> Iterator[Any]:
    """A new page in its own browser context; screenshot + console log saved on failure."""
    context = _chromium.new_context(viewport=VIEWPORT)
    yield from _page_in(context, request, artifacts_dir)


@pytest.fixture(scope="session")
def _lab_tabs(_chromium: Any) -> Iterator[LabTabs]:
    tabs = lab_tabs_for(_chromium, VIEWPORT)
    yield tabs
    tabs.close()


@pytest.fixture
def lab_tabs(
    _lab_tabs: LabTabs, jupyterlab_server: str, request: pytest.FixtureRequest,
    artifacts_dir: Path,
) -> Iterator[LabTabs]:
    """Tabs with JupyterLab kept loaded; screenshots + console log saved on failure.
    Every test starts with no notebook open and no kernel running."""
    _lab_tabs.reset()
    stop_sessions(jupyterlab_server)
    try:
        yield _lab_tabs
    finally:
        pages = {f"-tab{number}": page for number, page in enumerate(_lab_tabs.pages)}
        if _save_failure(request, artifacts_dir, pages, _lab_tabs.console):
            _lab_tabs.discard()  # the next test starts from freshly loaded tabs
        else:
            _lab_tabs.reset()
        stop_sessions(jupyterlab_server)


@pytest.fixture
def lab_page(lab_tabs: LabTabs) -> Any:
    """One tab of `lab_tabs`."""
    return lab_tabs.take(1)[0]


@pytest.fixture
def offline(_chromium: Any, request: pytest.FixtureRequest) -> Iterator[OfflineContext]:
    """A browser context that reaches only this machine (see OfflineContext).  A test
    gives the browser's language by parametrizing this fixture indirectly
    (``@pytest.mark.parametrize("offline", ["ru-RU"], indirect=True)``)."""
    locale = getattr(request, "param", None)
    options = {"locale": locale} if locale else {}
    offline = OfflineContext(_chromium, viewport=VIEWPORT, **options)
    yield offline
    offline.close()


@pytest.fixture
def offline_page(
    offline: OfflineContext, request: pytest.FixtureRequest, artifacts_dir: Path
) -> Iterator[Any]:
    """A page of the `offline` context; screenshot + console log saved on failure."""
    yield from _page_in(offline.context, request, artifacts_dir, close=False)


def _page_in(
    context: Any, request: pytest.FixtureRequest, artifacts_dir: Path, close: bool = True
) -> Iterator[Any]:
    page = context.new_page()
    page.set_default_timeout(60_000)
    console: list[str] = []
    log_console(page, console)
    try:
        yield page
    finally:
        _save_failure(request, artifacts_dir, {"": page}, console)
        if close:
            context.close()


def _save_failure(
    request: pytest.FixtureRequest, artifacts_dir: Path, pages: dict[str, Any],
    console: list[str],
) -> bool:
    """If the test failed: a screenshot of each page (``pages``: the suffix of its file
    name, and the page) and the console lines, in artifacts/; whether it failed."""
    reports = request.node.stash.get(_reports, {})
    if not any(report.failed for report in reports.values()):
        return False
    stem = artifacts_dir / f"FAILED-{request.node.name}"
    for suffix, page in pages.items():
        try:
            page.screenshot(path=f"{stem}{suffix}.png", full_page=True)
        except Exception as exc:  # the page may be what broke
            console.append(f"(screenshot{suffix} failed: {exc})")
    Path(f"{stem}.console.txt").write_text("\n".join(console) + "\n", encoding="utf-8")
    return True
