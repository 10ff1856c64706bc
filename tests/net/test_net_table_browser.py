"""Three JupyterLab tabs (three kernels) at one LAN table of three, with hidden hands.

Ann's notebook hosts the table (``lan(table=Rules(players=3, deck_size=24))``); in Ben's
and Cid's tabs the lobby lists her table and each clicks Join; Ann's seating shows both
and she clicks Start.  All three tabs then show the same table words and their own table,
and a card clicked in the leading player's tab appears on the other two tables by itself.
Only what a person sees (CSS classes and texts) is read; every wait is for a text or
an element to appear.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import PATH_CELL, LabTabs, free_udp_port, run_notebooks_in_lab, write_notebook
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOBBY = ".durak-lan"
TABLE = f"{LOBBY} .durak-root"


def _notebook(root: Path, name: str, port: int, host: bool = False) -> str:
    relative = f"lan_table/{name.lower()}.ipynb"
    table = ", table=Rules(players=3, deck_size=24)" if host else ""
    cell = ("from durak_core import Rules\nfrom durak_widgets import lan\n\n"
            f"lan(name={name!r}, port={port}, journal_dir=None{table})")
    write_notebook(root / relative, [PATH_CELL, cell])
    return relative


def _join(page: Page) -> None:
    """Click Join on Ann's table in this tab's lobby."""
    row = page.locator(f"{LOBBY} .durak-lan-peers .widget-hbox", has_text="Ann's table")
    expect(row).to_contain_text("seats taken", timeout=30_000)
    join = row.locator(".durak-lan-join")
    expect(join).to_be_enabled()
    join.click()


def test_three_tabs_sit_at_one_table_and_a_clicked_move_appears_in_the_other_two(
    jupyterlab_server: str, lab_root_dir: Path, lab_tabs: LabTabs
) -> None:
    port = free_udp_port()
    ann, ben, cid = pages = lab_tabs.take(3)
    # The three kernels start together; Ann's notebook runs first (she hosts).
    run_notebooks_in_lab([(ann, _notebook(lab_root_dir, "Ann", port, True)),
                          (ben, _notebook(lab_root_dir, "Ben", port)),
                          (cid, _notebook(lab_root_dir, "Cid", port))], jupyterlab_server)
    seating = ann.locator(f"{LOBBY} .durak-lan-seating")
    expect(seating).to_contain_text("an open seat")
    expect(ann.locator(f"{LOBBY} .durak-lan-start")).to_be_disabled()
    # Ben's lobby lists Ann's table with its rules in words and free seats: Join.
    expect(ben.locator(f"{LOBBY} .durak-lan-peers")).to_contain_text(
        "Ann's table of 3 · podkidnoy, 24 cards, everyone throws in", timeout=30_000)
    _join(ben)
    expect(seating).to_contain_text("Ben")
    _join(cid)
    expect(seating).to_contain_text("Cid")
    # Every seat is taken: the host starts; the joiners cannot.
    start = ann.locator(f"{LOBBY} .durak-lan-start")
    expect(start).to_be_enabled(timeout=30_000)
    expect(ben.locator(f"{LOBBY} .durak-lan-seating")).to_contain_text(
        "Waiting for Ann to start")
    expect(ben.locator(f"{LOBBY} .durak-lan-start")).to_be_hidden()
    start.click()
    for page in pages:
        expect(page.locator(f"{TABLE} .durak-status")).to_contain_text(
            re.compile(r"Your lead|Waiting for"), timeout=60_000)
        expect(page.locator(f"{LOBBY} .durak-lan-badge")).to_contain_text(
            "hidden hands · verified")
    # The same table words on all three screens, with what to do with them.
    words = []
    for page in pages:
        line = page.locator(f"{LOBBY} .durak-lan-table-words")
        expect(line).to_contain_text("every screen at this table must show the same")
        found = re.search(r"<b>(.*?)</b>", line.inner_html())
        assert found is not None
        words.append(found.group(1))
    assert words[0] == words[1] == words[2] and len(words[0].split()) == 4
    # Each tab shows the two others around the table, with their card counts.
    for page in pages:
        expect(page.locator(f"{TABLE} .durak-opponent:visible")).to_have_count(2)
    statuses = [p.locator(f"{TABLE} .durak-status").inner_text() for p in pages]
    leaders = [p for p, s in zip(pages, statuses, strict=True) if "Your lead" in s]
    assert len(leaders) == 1, statuses
    leader = leaders[0]
    others = [p for p in pages if p is not leader]
    card = leader.locator(f"{TABLE} .durak-hand button.durak-playable:visible").first
    text = card.inner_text().strip()
    card.click()
    for page in others:
        pair = page.locator(f"{TABLE} .durak-pair:visible button.durak-card").first
        expect(pair).to_have_text(text, timeout=15_000)
        expect(page.locator(f"{TABLE} .durak-log")).to_contain_text(text)
    # The defender sees its move; the third seat may throw in or waits.
    expect(leader.locator(f"{TABLE} .durak-status")).to_contain_text("Waiting for")
