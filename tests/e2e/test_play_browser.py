"""Play Durak in a real JupyterLab page: the shipped notebook renders the table, and a
whole seeded game against the random bot is played by clicking cards and buttons.

Reads only what a person sees (CSS classes and texts of the page), never the kernel's
state.  Screenshots land in tests/e2e/artifacts/; the mid-game one is also copied to
docs/img/table.png for the README when that file is missing or when
DURAK_UPDATE_SCREENSHOT=1 is set (so a test run does not rewrite a committed image).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import (
    PATH_CELL,
    REPO_ROOT,
    TABLE_ROOT,
    TABLE_STATUS,
    play_game_by_clicking,
    run_notebook_in_lab,
    write_notebook,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

README_IMAGE = REPO_ROOT / "docs" / "img" / "table.png"
SEEDED_GAME = "from durak_widgets import play\n\nplay(opponents=['random'], seed=3, delay=0)"

ROOT = TABLE_ROOT
STATUS = TABLE_STATUS


def _shipped_notebook_with_path(lab_root_dir: Path) -> str:
    """notebooks/play.ipynb as shipped, with the work tree put on the kernel's path."""
    source = json.loads((REPO_ROOT / "notebooks" / "play.ipynb").read_text(encoding="utf-8"))
    code_cells = ["".join(c["source"]) for c in source["cells"] if c["cell_type"] == "code"]
    assert code_cells == ["from durak_widgets import play\n\nplay()"], code_cells
    relative = "e2e_play/play_shipped.ipynb"
    write_notebook(lab_root_dir / relative, [PATH_CELL, *code_cells])
    return relative


def test_shipped_notebook_shows_the_table(
    jupyterlab_server: str, lab_root_dir: Path, lab_page: Page, artifacts_dir: Path
) -> None:
    page = lab_page
    run_notebook_in_lab(page, jupyterlab_server, _shipped_notebook_with_path(lab_root_dir))

    root = page.locator(ROOT)
    expect(root).to_be_visible(timeout=30_000)
    # The hand pool: 18 slots made once; the six dealt cards are shown, the rest hidden.
    expect(page.locator(f"{ROOT} .durak-hand button.widget-button")).to_have_count(
        18, timeout=15_000
    )
    # The game is unseeded and the bot may lead: wait until it is the person's turn
    # (the bot is idle then).  Nobody has drawn yet, so the bot holds six cards less
    # those it has laid on the table.
    expect(page.locator(f"{STATUS}.durak-your-move")).to_contain_text(
        re.compile(r"Your (lead|move)"), timeout=30_000
    )
    expect(page.locator(f"{ROOT} .durak-hand button.durak-card:visible")).to_have_count(6)
    on_table = page.locator(f"{ROOT} .durak-table button.durak-attack:visible").count()
    expect(page.locator(f"{ROOT} .durak-opponent .durak-count").first).to_have_text(
        str(6 - on_table)
    )
    page.screenshot(path=str(artifacts_dir / "play_shipped.png"), full_page=True)


def test_whole_game_against_the_random_bot_by_clicking(
    jupyterlab_server: str, lab_root_dir: Path, lab_page: Page, artifacts_dir: Path
) -> None:
    page = lab_page
    write_notebook(lab_root_dir / "e2e_play" / "seeded.ipynb", [PATH_CELL, SEEDED_GAME])
    run_notebook_in_lab(page, jupyterlab_server, "e2e_play/seeded.ipynb")
    expect(page.locator(STATUS)).to_be_visible(timeout=30_000)

    hand = page.locator(f"{ROOT} .durak-hand button.durak-card:visible")
    banner = page.locator(f"{ROOT} .durak-banner")
    pairs = page.locator(f"{ROOT} .durak-pair:visible")
    seen = {"table": False, "shot": False}

    def on_turn(page: Page) -> None:
        if pairs.count():
            seen["table"] = True
        if not seen["shot"] and pairs.count() >= 2 and hand.count() >= 3:
            root_shot = artifacts_dir / "play_midgame.png"
            page.locator(ROOT).screenshot(path=str(root_shot))
            if not README_IMAGE.exists() or os.environ.get("DURAK_UPDATE_SCREENSHOT") == "1":
                README_IMAGE.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(root_shot, README_IMAGE)
            seen["shot"] = True

    clicks = play_game_by_clicking(page, timeout=90, on_turn=on_turn)
    table_seen = seen["table"]

    expect(banner).to_be_visible()
    expect(banner).to_contain_text(re.compile(r"durak|draw"))
    expect(page.locator(f"{ROOT} .durak-btn-new")).to_be_visible()
    expect(page.locator(STATUS)).to_contain_text("Game over")
    expect(page.locator(f"{ROOT} .durak-score")).to_contain_text("games 1")
    assert table_seen, "cards never appeared on the table"
    assert clicks >= 5, f"a whole game takes more than {clicks} clicks"
    assert page.locator(f"{ROOT} .durak-log li").count() > 0
    page.screenshot(path=str(artifacts_dir / "play_game_over.png"), full_page=True)

    # The match goes on: New game hides the banner and deals again.
    page.locator(f"{ROOT} .durak-btn-new").click()
    expect(banner).to_be_hidden(timeout=15_000)
    expect(hand).to_have_count(6, timeout=15_000)
