"""The table fits one screen, in a real JupyterLab page at two laptop sizes.

The play notebook as shipped (its introduction above the cell, so the table is drawn
below the screen) is run at 1280x800 and at 1024x640, JupyterLab's file browser open.
Once the table is drawn it scrolls itself into view; then the opponents, the talon and
the trump card, the table, the status line, the buttons and the hand must all lie
inside the notebook's visible area without any scrolling by the test at 1280x800, and
after at most one scroll at 1024x640 (what one scroll cannot show at once, a person
would have to scroll back and forth for).  With the hint on, at 1280x800 nothing of
that moves off the screen (the hint stands beside the table).

The deal of seed 0 turns up a 10 as the trump card (10♠): its suit, under the talon
pile, must be what the page shows at the suit's place, not the pile.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import PATH_CELL, REPO_ROOT, TABLE_ROOT, run_notebook_in_lab
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = pytest.mark.browser

ROOT = TABLE_ROOT
#: Seed 0's deal: the person leads, and the trump card is the 10♠.
TABLE_CELL = (
    "from durak_widgets import play\n\n"
    "table = play(opponents=['random'], seed=0, delay=0)\n"
    "table.coach.iterations = 60\n"
    "table"
)
#: What must be on the screen together (a class under .durak-root each).
ESSENTIAL = ("durak-opponents", "durak-talon", "durak-table", "durak-status",
             "durak-actions", "durak-hand")

# The visible part of the notebook: its scrolling box, cut to the viewport.  Then each
# essential element's box, and whether it lies inside.
_BOXES_JS = """
(classes) => {
  const panel = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden)');
  let box = panel.querySelector('.durak-root').parentElement;
  while (box && box !== panel) {
    const overflow = getComputedStyle(box).overflowY;
    if ((overflow === 'auto' || overflow === 'scroll') && box.scrollHeight > box.clientHeight) {
      break;
    }
    box = box.parentElement;
  }
  const area = box.getBoundingClientRect();
  const view = {top: Math.max(area.top, 0), bottom: Math.min(area.bottom, window.innerHeight),
                left: Math.max(area.left, 0), right: Math.min(area.right, window.innerWidth)};
  const out = {view, scrollTop: box.scrollTop, items: {}};
  for (const name of classes) {
    const el = document.querySelector(`.durak-root .${name}`);
    const r = el.getBoundingClientRect();
    out.items[name] = {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                       inside: r.height > 0 && r.top >= view.top - 0.5
                         && r.bottom <= view.bottom + 0.5 && r.left >= view.left - 0.5
                         && r.right <= view.right + 0.5};
  }
  return out;
}
"""

# Where the trump card's suit is drawn, and what the page shows at its centre.
_TRUMP_SUIT_JS = """
() => {
  const suit = document.querySelector('.durak-root .durak-trump-suit');
  const r = suit.getBoundingClientRect();
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {text: suit.textContent, shown: top === suit || suit.contains(top),
          covering: top ? top.className : null};
}
"""


def _play_notebook(lab_root_dir: Path) -> str:
    """notebooks/play.ipynb's introduction, the path cell, then the seeded table."""
    import nbformat

    shipped = json.loads((REPO_ROOT / "notebooks" / "play.ipynb").read_text(encoding="utf-8"))
    intro = "".join(shipped["cells"][0]["source"])
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {
        "name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python",
    }
    notebook.cells = [nbformat.v4.new_markdown_cell(intro), nbformat.v4.new_code_cell(PATH_CELL),
                      nbformat.v4.new_code_cell(TABLE_CELL)]
    relative = "e2e_fit/play_fit.ipynb"
    (lab_root_dir / "e2e_fit").mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, str(lab_root_dir / relative))
    return relative


@pytest.fixture
def sized_page(lab_page: Page) -> Iterator[Page]:
    """The Lab tab; its size is put back afterwards for the tests that share it."""
    before = lab_page.viewport_size
    yield lab_page
    if before is not None:
        lab_page.set_viewport_size(before)


def _boxes(page: Page) -> dict[str, Any]:
    boxes: dict[str, Any] = page.evaluate(_BOXES_JS, list(ESSENTIAL))
    return boxes


def _wait_in_view(page: Page) -> dict[str, Any]:
    """The boxes once the table's own scroll has happened (it waits for the table)."""
    page.wait_for_function(
        """(classes) => classes.every((name) => {
             const el = document.querySelector(`.durak-root .${name}`);
             return el && el.getBoundingClientRect().height > 0; })""",
        arg=list(ESSENTIAL), timeout=30_000,
    )
    # Not all inside within 5 s: the test's assertions say what is off screen.
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            f"(classes) => Object.values(({_BOXES_JS})(classes).items).every((i) => i.inside)",
            arg=list(ESSENTIAL), timeout=5_000, polling=100,
        )
    return _boxes(page)


def _off_screen(boxes: dict[str, Any]) -> dict[str, Any]:
    return {name: item for name, item in boxes["items"].items() if not item["inside"]}


@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)], ids=["1280x800", "1024x640"])
def test_the_table_fits_the_screen_once_drawn(
    jupyterlab_server: str, lab_root_dir: Path, sized_page: Page, artifacts_dir: Path,
    size: tuple[int, int],
) -> None:
    page = sized_page
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    run_notebook_in_lab(page, jupyterlab_server, _play_notebook(lab_root_dir))
    expect(page.locator(f"{ROOT} .durak-status.durak-your-move")).to_contain_text(
        "Your lead", timeout=30_000)
    boxes = _wait_in_view(page)
    page.screenshot(path=str(artifacts_dir / f"table_fit_{width}x{height}.png"))
    view = boxes["view"]
    if width >= 1280:
        assert not _off_screen(boxes), (view, _off_screen(boxes))
    else:
        # At most one scroll: everything fits in the visible height at once.
        top = min(item["top"] for item in boxes["items"].values())
        bottom = max(item["bottom"] for item in boxes["items"].values())
        assert bottom - top <= view["bottom"] - view["top"], (view, boxes["items"])
        assert all(item["left"] >= view["left"] - 0.5 and item["right"] <= view["right"] + 0.5
                   for item in boxes["items"].values()), (view, boxes["items"])

    # Every rank's suit shows: a 10 is the widest rank, and its suit is not under the pile.
    trump = page.evaluate(_TRUMP_SUIT_JS)
    assert trump["text"] == "♠" and trump["shown"], trump

    if width >= 1280:
        page.locator(f"{ROOT} .durak-btn-hint").click()
        expect(page.locator(f"{ROOT} .durak-hint")).to_contain_text("the AI would",
                                                                    timeout=60_000)
        boxes = _boxes(page)
        page.screenshot(path=str(artifacts_dir / f"table_fit_{width}x{height}_hint.png"))
        assert not _off_screen(boxes), (boxes["view"], _off_screen(boxes))
        hint = page.locator(f"{ROOT} .durak-hint").bounding_box()
        assert hint is not None and hint["y"] + hint["height"] <= view["bottom"] + 0.5
