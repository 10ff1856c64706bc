"""The play notebook as a Voila app: the table only, no code, the same widgets.

`bash scripts/play.sh --app` is started for real (on a free port) and must show the
shipped notebook's table without any code (neither its code cell nor the examples in
its text); a seeded notebook served by the
same `voila` command is then played against the random bot by clicking, to the end.
Screenshots land in tests/e2e/artifacts/; the app's one is copied to docs/img/voila.png
when that is missing or DURAK_UPDATE_SCREENSHOT=1.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
# Looked up, not imported: importing voila takes seconds, in every pytest worker that
# collects this file, and the tests only start its command.
if importlib.util.find_spec("voila") is None:
    pytest.skip("the Voila app needs the [app] extra", allow_module_level=True)

from browser_support import (
    PATH_CELL,
    REPO_ROOT,
    TABLE_ROOT,
    TABLE_STATUS,
    free_port,
    play_game_by_clicking,
    running_server,
    voila_command,
    write_notebook,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

README_IMAGE = REPO_ROOT / "docs" / "img" / "voila.png"
SEEDED_GAME = "from durak_widgets import play\n\nplay(opponents=['random'], seed=3, delay=0)"


@pytest.fixture(scope="module")
def app_url(artifacts_dir: Path) -> Iterator[str]:
    """`bash scripts/play.sh --app` on a free port: the shipped play notebook."""
    port = free_port()
    command = ["bash", str(REPO_ROOT / "scripts" / "play.sh"), "--app", "--no-browser",
               f"--port={port}", "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"]
    with running_server(command, f"http://127.0.0.1:{port}/",
                        artifacts_dir / "voila-play-sh.log") as url:
        yield url


@pytest.fixture(scope="module")
def seeded_app_url(tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path) -> Iterator[str]:
    """A Voila app of a seeded game against the random bot."""
    notebook = write_notebook(tmp_path_factory.mktemp("voila") / "seeded.ipynb",
                              [PATH_CELL, SEEDED_GAME])
    port = free_port()
    with running_server(voila_command(notebook, port), f"http://127.0.0.1:{port}/",
                        artifacts_dir / "voila-seeded.log", cwd=notebook.parent) as url:
        yield url


def test_play_sh_app_shows_the_table_and_no_code(
    app_url: str, browser_page: Page, artifacts_dir: Path
) -> None:
    page = browser_page
    page.goto(app_url)
    expect(page.locator(f"{TABLE_STATUS}.durak-your-move")).to_contain_text(
        re.compile(r"Your (lead|move)"), timeout=90_000
    )
    expect(page.locator(f"{TABLE_ROOT} .durak-hand button.durak-card:visible")).to_have_count(6)
    # An app, not a notebook: no code cell, no source text of the notebook.
    expect(page.locator(".cm-content, .jp-InputPrompt, pre")).to_have_count(0)
    text = page.locator("body").inner_text()
    assert "import" not in text and "play(" not in text, text
    expect(page.get_by_role("heading", level=1)).to_have_accessible_name("Durak")
    path = artifacts_dir / "voila_app.png"
    page.screenshot(path=str(path), full_page=True)
    if not README_IMAGE.exists() or os.environ.get("DURAK_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(path, README_IMAGE)


def test_voila_app_plays_a_whole_game_by_clicking(
    seeded_app_url: str, browser_page: Page, artifacts_dir: Path
) -> None:
    page = browser_page
    page.goto(seeded_app_url)
    expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=90_000)
    clicks = play_game_by_clicking(page, timeout=120)
    expect(page.locator(f"{TABLE_ROOT} .durak-banner")).to_contain_text(re.compile(r"durak|draw"))
    expect(page.locator(TABLE_STATUS)).to_contain_text("Game over")
    expect(page.locator(f"{TABLE_ROOT} .durak-score")).to_contain_text("games 1")
    assert clicks >= 5
    page.screenshot(path=str(artifacts_dir / "voila_game_over.png"), full_page=True)
