"""The Hint toggle in a real JupyterLab page: off at first, on it shows the AI's move and
each move's chance, and the move it names is one the page offers; off again it hides.

Reads only what a person sees (CSS classes and texts of the page).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import PATH_CELL, run_notebook_in_lab, write_notebook
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

# A small budget keeps the hint quick; seeded, so the page is the same on every run.
TABLE_CELL = (
    "from durak_widgets import play\n\n"
    "table = play(opponents=['greedy'], seed=3, delay=0)\n"
    "table.coach.iterations = 80\n"
    "table"
)
ROOT = ".durak-root"


def test_the_hint_toggle_shows_the_ais_move_off_the_ui_path(
    jupyterlab_server: str, lab_root_dir: Path, lab_page: Page, artifacts_dir: Path
) -> None:
    page = lab_page
    write_notebook(lab_root_dir / "e2e_coach" / "hint.ipynb", [PATH_CELL, TABLE_CELL])
    run_notebook_in_lab(page, jupyterlab_server, "e2e_coach/hint.ipynb")
    expect(page.locator(f"{ROOT} .durak-status.durak-your-move")).to_be_visible(timeout=30_000)

    toggle = page.locator(f"{ROOT} .durak-btn-hint")
    hint = page.locator(f"{ROOT} .durak-hint")
    expect(toggle).to_be_visible()
    expect(hint).to_be_hidden()  # off by default

    toggle.click()
    expect(hint).to_contain_text("the AI would", timeout=60_000)
    rows = page.locator(f"{ROOT} .durak-hint tr")
    assert rows.count() >= 2
    for i in range(rows.count()):
        assert re.search(r"\d+%", rows.nth(i).inner_text()), rows.nth(i).inner_text()
    best = page.locator(f"{ROOT} .durak-hint tr.durak-hint-best").inner_text()
    move = re.sub(r"\s+\d+%.*$", "", best.strip())
    # The suggested move is one the page offers, in the page's words: its card is
    # highlighted ("lead 7♠", "throw in 7♠", "beat 7♠ with 9♠", "transfer with 7♦"), or a
    # button of the page carries its word ("take": Take, "say “Beaten”": Beaten, "pass").
    words = move.split()
    card = words[-1] if re.search(r"[♠♣♦♥]$", move) else ""
    if card:
        playable = page.locator(f"{ROOT} .durak-hand button.durak-playable:visible")
        assert card in [playable.nth(i).inner_text() for i in range(playable.count())], move
    else:
        label = words[-1].strip("“”").lower()
        buttons = page.locator(f"{ROOT} .durak-actions button:visible")
        labels = [buttons.nth(i).inner_text().strip().lower() for i in range(buttons.count())]
        assert label in labels, (move, labels)
    page.locator(ROOT).screenshot(path=str(artifacts_dir / "coach_hint.png"))

    toggle.click()
    expect(hint).to_be_hidden(timeout=15_000)
