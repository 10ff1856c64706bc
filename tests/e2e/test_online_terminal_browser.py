"""A JupyterLab notebook's ``online()`` against a terminal's ``durak-lan --online`` (aiortc).

Ann plays in a notebook page; Ben in a terminal, his WebRTC stack aiortc.  The test
carries Ann's invitation code (read from her page) to Ben's ``--code`` and Ben's reply
code (his JSON line) into Ann's box, then Connect: the page and the terminal open a data
channel on this machine (no ICE server) and their bots play a game that both audit fair.
The same session protocol on both sides, one carried by a page, the other by aiortc.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("aiortc", reason="the terminal's WebRTC peer needs the online extra")

from browser_support import (
    PATH_CELL,
    LabTabs,
    run_notebooks_in_lab,
    write_notebook,
)
from online_support import LOBBY, played_fair, terminal_peer
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_notebook_page_and_an_aiortc_terminal_play_a_game_through_codes(
    jupyterlab_server: str, lab_root_dir: Path, lab_tabs: LabTabs
) -> None:
    (ann,) = lab_tabs.take(1)
    relative = "online-terminal/ann.ipynb"
    write_notebook(lab_root_dir / relative, [
        PATH_CELL, "from durak_core import Rules\nfrom durak_widgets import online\n"
        "online(name='Ann', rules=Rules(deck_size=24), ice_servers=[], bot='greedy', "
        "seed=1, lang='en')"])  # 24 cards: the connection and the audit are tested
    run_notebooks_in_lab([(ann, relative)], jupyterlab_server)
    invitation = ann.locator(f"{LOBBY} .durak-online-code textarea")
    expect(invitation).to_have_value(re.compile(r"^\w{40,}$"), timeout=60_000)
    ben = terminal_peer("--code", invitation.input_value(), "--name", "Ben", "--seed", "2")
    try:
        assert ben.stdout is not None
        reply = json.loads(ben.stdout.readline())
        assert reply["event"] == "reply", reply
        ann.locator(f"{LOBBY} .durak-online-reply textarea").fill(reply["code"])
        ann.locator(f"{LOBBY} .durak-online-connect").click()
        expect(ann.locator(f"{LOBBY} .durak-lan-sas b")).to_have_text(
            re.compile(r"^\S+ \S+ \S+ \S+$"), timeout=60_000)
        played_fair(ann, ben)  # both audited fair, the terminal printed the same words
    finally:
        if ben.poll() is None:
            ben.kill()
            ben.wait(timeout=30)
