"""Play Durak in JupyterLab with the keyboard alone: Tab into the table, the arrow keys
to a card, Enter to play it, B for Beaten/Pass, T for Take; "?" lists the keys.  The
mouse never touches the table (the notebook is run from Lab's menu, as in the other
browser tests).  Reads only what a person sees (classes, texts, the focus)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import (
    PATH_CELL,
    TABLE_ROOT,
    TABLE_STATUS,
    move_marker,
    run_notebook_in_lab,
    wait_settled,
    write_notebook,
)
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

ROOT = TABLE_ROOT
#: The seeded game, in Russian: the keys are the same in any language and layout.
GAME = "from durak_widgets import play\n\nplay(opponents=['random'], seed=3, delay=0, lang='ru')"


def focus_in(page: Page, selector: str) -> bool:
    """Whether the focused element matches ``selector``."""
    return bool(page.evaluate(
        "(s) => !!document.activeElement && document.activeElement.matches(s)", selector))


def tab_into_table(page: Page) -> int:
    """Press Tab until a button of the table has the focus; returns the presses."""
    for presses in range(1, 200):
        page.keyboard.press("Tab")
        if focus_in(page, f"{ROOT} button"):
            return presses
    raise AssertionError("Tab never reached the table")


def arrow_to(page: Page, row: str, target: str) -> None:
    """Up/Down to the row ``row``, then Right to a button matching ``target``."""
    for _ in range(6):
        if focus_in(page, f"{ROOT} {row} button"):
            break
        page.keyboard.press("ArrowDown")
    else:
        raise AssertionError(f"ArrowDown never reached {row}")
    for _ in range(40):
        if focus_in(page, f"{ROOT} {row} {target}"):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"ArrowRight never reached {target} in {row}")


def play_by_keyboard(page: Page, timeout: float = 120.0) -> dict[str, int]:
    """The game to its end from the keyboard: B when Beaten/Pass is offered, else the
    first playable card (and the first marked card to beat), else T."""
    keys = {"Enter": 0, "b": 0, "t": 0}
    playable = page.locator(f"{ROOT} .durak-hand button.durak-playable:visible")
    marker = ""
    deadline = time.monotonic() + timeout
    while True:
        wait_settled(page, marker)
        marker = move_marker(page)
        if page.locator(f"{ROOT} .durak-banner").is_visible():
            return keys
        assert time.monotonic() < deadline, "the game did not end in time"
        page.locator(
            f"{ROOT} .durak-hand button.durak-playable:visible, "
            f"{ROOT} .durak-btn-pass:visible, {ROOT} .durak-btn-take:visible"
        ).first.wait_for(state="visible", timeout=15_000)
        assert focus_in(page, f"{ROOT} *"), "the focus left the table"
        if page.locator(f"{ROOT} .durak-btn-pass:visible").count():
            page.keyboard.press("b")
            keys["b"] += 1
        elif playable.count():
            arrow_to(page, ".durak-hand", "button.durak-playable")
            page.keyboard.press("Enter")
            keys["Enter"] += 1
            page.wait_for_function(
                """(old) => {
                  const m = document.querySelector('.durak-root .durak-status .durak-move');
                  return (m && m.textContent !== old)
                    || document.querySelector('.durak-root .durak-hand button.durak-selected');
                }""", arg=marker, timeout=15_000)
            if page.locator(f"{ROOT} .durak-hand button.durak-selected").count():
                arrow_to(page, ".durak-table", "button.durak-target")
                page.keyboard.press("Enter")
                keys["Enter"] += 1
        else:
            assert page.locator(f"{ROOT} .durak-btn-take:visible").count(), (
                page.locator(TABLE_STATUS).inner_text())
            page.keyboard.press("t")
            keys["t"] += 1


def test_a_whole_game_with_the_keyboard_only(
    jupyterlab_server: str, lab_root_dir: Path, lab_page: Page, artifacts_dir: Path
) -> None:
    page = lab_page
    write_notebook(lab_root_dir / "e2e_keys" / "keys.ipynb", [PATH_CELL, GAME])
    run_notebook_in_lab(page, jupyterlab_server, "e2e_keys/keys.ipynb")
    expect(page.locator(TABLE_STATUS)).to_be_visible(timeout=30_000)
    cells_before = page.locator(".jp-Cell").count()

    tab_into_table(page)
    ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "solid", "the focused button shows no focus ring"

    page.keyboard.press("?")
    help_panel = page.locator(f"{ROOT} .durak-keys-help")
    expect(help_panel).to_be_visible()
    expect(help_panel).to_contain_text("Клавиши")
    page.screenshot(path=str(artifacts_dir / "keys_help.png"), full_page=True)
    page.keyboard.press("Escape")
    expect(help_panel).to_be_hidden()

    keys = play_by_keyboard(page)
    expect(page.locator(f"{ROOT} .durak-banner")).to_be_visible()
    expect(page.locator(TABLE_STATUS)).to_contain_text("Игра окончена")
    assert keys["Enter"] >= 3, keys
    # B, T and the other letters went to the table, not to JupyterLab (B would have
    # inserted a cell below).
    assert page.locator(".jp-Cell").count() == cells_before
    live = page.locator(f"{ROOT} .durak-live[aria-live='polite']")
    expect(live).to_contain_text(re.compile("дурак|Ничья"))

    # N deals the next game from the keyboard too.
    page.keyboard.press("n")
    expect(page.locator(f"{ROOT} .durak-banner")).to_be_hidden(timeout=15_000)
    page.screenshot(path=str(artifacts_dir / "keys_game.png"), full_page=True)

    # Escape leaves the table for the notebook, whose own keys work again: B adds a cell.
    page.keyboard.press("Escape")
    assert not focus_in(page, f"{ROOT} *")
    page.keyboard.press("b")
    expect(page.locator(".jp-Cell")).to_have_count(cells_before + 1)


def _accessible_names(page: Any) -> list[str]:
    return list(page.evaluate(
        "() => Array.from(document.querySelectorAll('.durak-root .durak-hand button.durak-card'))"
        ".filter((b) => b.offsetWidth).map((b) => b.getAttribute('aria-label') || '')"))
