"""The JupyterLite site in a real browser with the network cut off: Python runs in the
page (Pyodide); the play notebook starts its table by itself, saying what it waits for,
and that alone leaves nothing a reload would ask "Leave site?" about; in a Russian browser
that table speaks Russian, and a whole seeded game against the random bot is played by
clicking.

The site is built by scripts/lite_site.py (reused from its cache when nothing changed;
the test command builds it in a step of its own first).  It is served from a local
static server; every request that would leave this machine is aborted and fails the
test.  Screenshots land in tests/e2e/artifacts/; the mid-game one is copied to
docs/img/site.png when that is missing or DURAK_UPDATE_SCREENSHOT=1.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("jupyterlite_core", reason="the site needs the [site] extra")

from browser_support import (
    REPO_ROOT,
    TABLE_ROOT,
    TABLE_STATUS,
    OfflineContext,
    play_game_by_clicking,
    run_cell_source,
)
from playwright.sync_api import Page, expect

sys.path.insert(0, str(REPO_ROOT / "scripts"))
import lite_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

README_IMAGE = REPO_ROOT / "docs" / "img" / "site.png"
# In English whatever the browser's language (the README's picture is taken from it).
SEEDED_GAME = ("from durak_widgets import play\n"
               "play(opponents=['random'], seed=3, delay=0, lang='en')")
LAN_CALL = "from durak_widgets import lan\nlan(name='Alice')"


#: Whether anything would make the browser ask "Leave site?" on a reload: JupyterLab's
#: beforeunload handler asks exactly when its status says an open document is dirty (or
#: the file browser is still uploading, which this site never does).
_WOULD_ASK_ON_RELOAD_JS = "() => window.jupyterapp.status.isDirty"


@pytest.mark.parametrize("offline", ["ru-RU"], indirect=True)
def test_the_play_notebook_starts_a_table_in_the_browsers_language_and_plays_offline(
    site_url: str, offline: OfflineContext, offline_page: Page, artifacts_dir: Path
) -> None:
    """One page of the play notebook, from its first note to a whole game: what the
    notebook does by itself, then a seeded game by clicking, then LAN play refused.
    (One page, where this was two tests that each started Python in the page: its
    start is the site's largest cost to the test command.)"""
    page = offline_page
    failed: list[str] = []
    offline.context.on(
        "response", lambda r: failed.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    page.goto(f"{site_url}{lite_site.PLAY_PATH}")
    # The table starts by itself, and a note under its cell says so while Python starts...
    note = page.locator(".durak-site-starting")
    expect(note).to_contain_text("Starting Python", timeout=60_000)
    expect(note).to_be_in_viewport()
    expect(note.locator("progress")).to_have_count(1)
    expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=120_000)
    expect(note).to_have_count(0)
    # ...and the code cell is the selected one, so Run runs the table again (not the text
    # above it).  (Lab selects the code cell for a moment while it lays the notebook
    # out, then the first cell: only a check once it has settled means anything.)
    active = page.locator(".jp-Notebook .jp-Cell.jp-mod-active")
    expect(active).to_have_class(re.compile(r"\bjp-CodeCell\b"))
    assert page.locator(f"{TABLE_ROOT} .durak-hand button.durak-card").count() > 0
    # The table the play notebook starts by itself speaks the browser's language
    # (``play()`` with no ``lang`` reads ``navigator.language`` in Pyodide's worker).
    expect(page.locator(f"{TABLE_ROOT} .durak-btn-hint")).to_have_text("Подсказка")
    expect(page.locator(TABLE_STATUS)).to_contain_text("Ваш", timeout=30_000)
    # Nothing was edited, only run: a reload would not ask "Leave site?" (asked of the
    # page rather than by reloading it, which would start Python in it a second time).
    assert page.evaluate(_WOULD_ASK_ON_RELOAD_JS) is False
    # Every request so far was answered, the page icon included (no 404 for
    # /favicon.ico).
    assert failed == [], failed

    run_cell_source(page, 0, SEEDED_GAME)
    expect(page.locator(f"{TABLE_ROOT} .durak-btn-hint")).to_have_text("Hint", timeout=120_000)
    # The control: an edited cell is what a reload would ask about.
    page.wait_for_function(_WOULD_ASK_ON_RELOAD_JS, timeout=30_000)
    expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=120_000)
    # The keys' widget (an anywidget, its lab extension in the site) is drawn too.
    expect(page.locator(f"{TABLE_ROOT} .durak-live[role='status']")).to_have_count(1)
    pairs = page.locator(f"{TABLE_ROOT} .durak-pair:visible")
    shot = {"taken": False}

    def on_turn(page: Page) -> None:
        if not shot["taken"] and pairs.count() >= 2:
            path = artifacts_dir / "site_midgame.png"
            page.screenshot(path=str(path))
            if not README_IMAGE.exists() or os.environ.get("DURAK_UPDATE_SCREENSHOT") == "1":
                shutil.copyfile(path, README_IMAGE)
            shot["taken"] = True

    clicks = play_game_by_clicking(page, timeout=240, on_turn=on_turn)
    banner = page.locator(f"{TABLE_ROOT} .durak-banner")
    expect(banner).to_contain_text(re.compile(r"durak|draw"))
    expect(page.locator(TABLE_STATUS)).to_contain_text("Game over")
    expect(page.locator(f"{TABLE_ROOT} .durak-score")).to_contain_text("games 1")
    assert clicks >= 5
    page.screenshot(path=str(artifacts_dir / "site_game_over.png"))

    # LAN play cannot work in a page: lan() says so (here in a new cell below the table).
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    run_cell_source(page, 1, LAN_CALL)
    error = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    expect(error.last).to_contain_text("LAN play needs a local Python", timeout=60_000)

    # Everything came from the local server: nothing else was even attempted.
    assert offline.blocked == [], f"the site tried to reach: {offline.blocked}"
    fetched = {url.split("?")[0].rsplit("/", 1)[-1] for _, url in offline.requests}
    assert "pyodide.asm.wasm" in fetched
    assert any(re.fullmatch(r"durak-[^-]+-py3-none-any\.whl", name) for name in fetched)


def test_the_table_alone_starts_by_itself_with_no_notebook_and_plays_a_game(
    site_url: str, offline: OfflineContext, offline_page: Page
) -> None:
    """The site's page of the table alone (JupyterLite's REPL app, lite_site.TABLE_PATH):
    no notebook around it, its code hidden, the same note while Python starts, and a
    game played to its end by clicking."""
    page = offline_page
    page.goto(f"{site_url}{lite_site.TABLE_PATH}")
    note = page.locator(".durak-site-starting")
    expect(note).to_contain_text("Starting Python", timeout=60_000)
    expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=120_000)
    expect(note).to_have_count(0)
    assert page.locator(".jp-Notebook").count() == 0
    assert page.locator(".jp-CodeConsole").count() == 1
    expect(page.get_by_text("import play")).to_be_hidden()  # the table's code is not shown
    clicks = play_game_by_clicking(page, timeout=300)
    expect(page.locator(f"{TABLE_ROOT} .durak-banner")).to_contain_text(re.compile(r"durak|draw"))
    expect(page.locator(TABLE_STATUS)).to_contain_text("Game over")
    assert clicks >= 5
    assert offline.blocked == [], f"the site tried to reach: {offline.blocked}"

