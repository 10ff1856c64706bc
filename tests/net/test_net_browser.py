"""Two JupyterLab tabs (two kernels) on one machine, playing with hidden hands.

Each tab runs ``lan()``; in one, the other player appears and is invited with a click;
in the other, the invitation is accepted with a click; both tabs then show the same
pairing words, the "hidden hands · verified" badge and the table, and a card clicked
in the leading player's tab appears on the other tab's table by itself.  Only what a
person sees (CSS classes and texts) is read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import PATH_CELL, LabTabs, free_udp_port, run_notebooks_in_lab, write_notebook
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOBBY = ".durak-lan"
TABLE = f"{LOBBY} .durak-root"


def _notebook(root: Path, name: str, port: int) -> str:
    relative = f"lan_net/{name.lower()}.ipynb"
    cell = f"from durak_widgets import lan\n\nlan(name={name!r}, port={port}, journal_dir=None)"
    write_notebook(root / relative, [PATH_CELL, cell])
    return relative


def test_two_tabs_find_each_other_and_a_clicked_move_appears_in_the_other(
    jupyterlab_server: str, lab_root_dir: Path, lab_tabs: LabTabs
) -> None:
    port = free_udp_port()
    ann, ben = lab_tabs.take(2)
    run_notebooks_in_lab([(ann, _notebook(lab_root_dir, "Ann", port)),
                          (ben, _notebook(lab_root_dir, "Ben", port))], jupyterlab_server)
    # Ben's lobby lists Ann (heard by broadcast): invite her.
    invite = ben.locator(f"{LOBBY} .durak-lan-peers .durak-lan-invite")
    expect(ben.locator(f"{LOBBY} .durak-lan-peers")).to_contain_text("Ann", timeout=30_000)
    invite.first.click()
    # Ann's lobby shows the invitation: accept it.
    expect(ann.locator(f"{LOBBY} .durak-lan-invites")).to_contain_text("Ben")
    ann.locator(f"{LOBBY} .durak-lan-accept").first.click()
    for page in (ann, ben):
        expect(page.locator(f"{TABLE} .durak-status")).to_contain_text(
            re.compile(r"Your lead|Waiting for"), timeout=30_000
        )
        expect(page.locator(f"{LOBBY} .durak-lan-badge")).to_contain_text(
            "hidden hands · verified"
        )
    # Both screens show the same pairing words (nobody is in the middle).
    words = [
        re.search(r"<b>(.*?)</b>", p.locator(f"{LOBBY} .durak-lan-sas").inner_html())
        for p in (ann, ben)
    ]
    assert words[0] and words[1] and words[0].group(1) == words[1].group(1)
    assert len(words[0].group(1).split()) == 4
    ann.locator(f"{LOBBY} .durak-lan-same").click()
    expect(ann.locator(f"{LOBBY} .durak-lan-sas")).to_contain_text("✓")
    leader, other = (
        (ann, ben)
        if "Your lead" in ann.locator(f"{TABLE} .durak-status").inner_text()
        else (ben, ann)
    )
    expect(leader.locator(f"{TABLE} .durak-status")).to_contain_text("Your lead")
    card = leader.locator(f"{TABLE} .durak-hand button.durak-playable:visible").first
    text = card.inner_text().strip()
    card.click()
    pair = other.locator(f"{TABLE} .durak-pair:visible button.durak-card").first
    expect(pair).to_have_text(text, timeout=15_000)
    expect(other.locator(f"{TABLE} .durak-status")).to_contain_text(
        re.compile(r"Your move|Waiting for")
    )
