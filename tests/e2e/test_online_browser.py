"""``online()``: two JupyterLab notebooks (two kernels, two pages) play through pasted codes.

Ann's notebook calls ``online(name="Ann")`` and shows an invitation code; the test
copies it out of her page into a cell of Ben's notebook, ``online(name="Ben",
code=...)``, whose page shows the reply code; that goes into Ann's reply box and
Connect.  Then, over the data channel between the two pages (offline: no ICE servers),
both show the same four pairing words, and the bots playing both seats finish a game
that each side's audit finds fair, though Ben's page loses, duplicates and reorders
some datagrams on purpose.  Then Ann's notebook opened in a second tab (the same
kernel) shows the table as open elsewhere, and her first page keeps the channel; when
her first tab is closed, the second one takes the table over and says the connection
went with the closed tab (no longer that it is open elsewhere).  Only what a person
sees is read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")

from browser_support import (
    PATH_CELL,
    LabTabs,
    open_notebook_in_lab,
    run_cell_source,
    run_notebooks_in_lab,
    write_notebook,
)
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOBBY = ".durak-online"
#: Both seats played by bots (a whole game without clicks), nothing beyond this machine.
OPTIONS = "ice_servers=[], bot='greedy', seed={seed}, lang='en'"
#: Ben's page spoils its datagrams both ways on purpose: the protocol copes.
IMPAIR = {"loss": 0.05, "duplicate": 0.05, "reorder": 0.05, "seed": 7}


def _notebook(root: Path, name: str, cell: str) -> str:
    relative = f"online/{name.lower()}.ipynb"
    write_notebook(root / relative, [PATH_CELL, "from durak_core import Rules\n"
                                                "from durak_widgets import online", cell])
    return relative


def test_two_notebooks_play_a_game_through_pasted_codes_to_a_fair_audit(
    jupyterlab_server: str, lab_root_dir: Path, lab_tabs: LabTabs
) -> None:
    ann, ben, again = lab_tabs.take(3)
    run_notebooks_in_lab(
        [(ann, _notebook(lab_root_dir, "Ann", "lobby = online(name='Ann', "
                         # 24 cards: the codes, the channel and the audit are tested
                         "rules=Rules(deck_size=24), "
                         + OPTIONS.format(seed=1) + ")\nlobby")),
         (ben, _notebook(lab_root_dir, "Ben", "# Ann's code goes here"))],
        jupyterlab_server)
    invitation = ann.locator(f"{LOBBY} .durak-online-code textarea")
    expect(invitation).to_have_value(re.compile(r"^\w{40,}$"), timeout=60_000)
    run_cell_source(ben, 2, f"online(name='Ben', code={invitation.input_value()!r}, "
                    + OPTIONS.format(seed=2) + f", impair={IMPAIR!r})")
    reply = ben.locator(f"{LOBBY} .durak-online-code textarea")
    expect(reply).to_have_value(re.compile(r"^\w{40,}$"), timeout=60_000)
    ann.locator(f"{LOBBY} .durak-online-reply textarea").fill(reply.input_value())
    ann.locator(f"{LOBBY} .durak-online-connect").click()
    words = []
    for page in (ann, ben):
        sas = page.locator(f"{LOBBY} .durak-lan-sas b")
        expect(sas).to_have_text(re.compile(r"^\S+ \S+ \S+ \S+$"), timeout=60_000)
        words.append(sas.inner_text())
    assert words[0] == words[1]  # nobody in the middle of the pasted codes
    for page in (ann, ben):
        page.locator(f"{LOBBY} .durak-lan-same").click()
        expect(page.locator(f"{LOBBY} .durak-lan-badge")).to_contain_text(
            "audited: fair", timeout=240_000)
    spoiled = ben.locator(f"{LOBBY} .durak-rtc")
    for what in ("lost", "duplicated", "reordered"):
        assert int(spoiled.get_attribute(f"data-{what}") or 0) > 0, what
    # Ann's notebook in a second tab (the same kernel): that page shows the table as
    # open elsewhere, and the first page keeps the channel.
    open_notebook_in_lab(again, jupyterlab_server, "online/ann.ipynb")
    run_cell_source(again, 2, "lobby")
    elsewhere = again.locator(f"{LOBBY} .durak-rtc")
    expect(elsewhere).to_have_class(re.compile("durak-rtc-elsewhere"), timeout=60_000)
    expect(elsewhere).to_have_text("This table is open in another tab or window: play there.")
    for page in (ann, ben):
        kept = page.locator(f"{LOBBY} .durak-rtc")
        expect(kept).not_to_have_class(re.compile("durak-rtc-elsewhere"))
        expect(kept).to_have_attribute("data-state", "open")
    # Ann closes her first tab: the connection lived there, so it is gone; the tab
    # left takes the table over and says so, instead of sending her to a closed tab.
    ann.close()
    expect(elsewhere).not_to_have_class(re.compile("durak-rtc-elsewhere"), timeout=90_000)
    expect(elsewhere).to_have_text("The tab that held the connection was closed, and the "
                                   "connection with it: run the cell again for new codes.",
                                   timeout=30_000)
