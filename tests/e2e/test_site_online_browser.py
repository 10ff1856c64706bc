"""``online()`` in the JupyterLite site: two site pages by codes, then a site page hosting
a table of three that a JupyterLab notebook and a terminal join through a relay's room.

Ann and Ben each play in a notebook of the built site, two pages of one browser cut off
from the network.  Ben comes to the rules tour by the README's link, and his kernel first
computes libsodium's vectors (tests/e2e/sodium_support.py).  Each kernel runs in its page
(no sockets, no ``cryptography``: durak_net's wire format from msgspec's build for
Pyodide, the deal, the pairing and the signatures from libsodium.js), each channel is its
page's own RTCPeerConnection.  First by codes: the test copies Ann's invitation code out
of her page into Ben's cell, and Ben's reply code into Ann's box; Ben's page loses,
duplicates and reorders some datagrams on purpose.  Both pages show the same pairing
words and audit the game fair.

Then, in Ann's page again (one Pyodide start for both games), a table of three through
a relay: Ann re-runs the cell with ``relay=`` a local mosquitto (the one
tests/net/test_net_online.py starts) and ``table=Rules(players=3, deck_size=24)``; her page's MQTT
client (mqtt.js) leaves her invitation in a room.  Cid, in a JupyterLab notebook (a
kernel on this machine, his page's own channel), comes to the room; once he is
connected, Ann's next invitation takes the place of the first, and Dan's terminal
(``durak-lan --online --relay --room``, aiortc) comes to it.  Nobody copies a code.
Every seat audits the game fair, every screen shows the same table words, the room is
empty after, and the site's page reached nothing beyond this machine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("jupyterlite_core", reason="the site needs the [site] extra")
pytest.importorskip("aiortc", reason="the terminal's WebRTC peer needs the online extra")

from browser_support import (
    PATH_CELL,
    LabTabs,
    OfflineContext,
    free_port,
    open_lite_notebook,
    run_cell_source,
    run_notebooks_in_lab,
    write_notebook,
)
from online_support import LOBBY, table_played_fair, terminal_peer
from playwright.sync_api import Page, expect
from sodium_support import check_sodium_vectors, open_tutorial_by_its_readme_link

from durak_net.relay import Room
from tests.net.test_net_online import MOSQUITTO, broker

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: Every seat played by a bot (a whole game without clicks), nothing beyond this machine.
#: The hosts deal 24 cards: what is tested is the pages' connections, deal and audit, not
#: the length of a game (with 36 cards the whole test took a fifth more CPU time).
OPTIONS = "ice_servers=[], bot='greedy', seed={seed}, lang='en'"
#: Ben's page spoils its datagrams both ways on purpose: the protocol copes.
IMPAIR = {"loss": 0.05, "duplicate": 0.05, "reorder": 0.05, "seed": 7}
CODE = re.compile(r"^\w{40,}$")
WORDS = re.compile(r"^\S+ \S+ \S+ \S+$")


def test_two_site_pages_play_by_codes_and_a_site_page_seats_a_notebook_and_a_terminal_by_a_room(
    site_url: str, offline: OfflineContext, offline_page: Page, jupyterlab_server: str,
    lab_root_dir: Path, lab_tabs: LabTabs, tmp_path: Path
) -> None:
    if MOSQUITTO is None:
        pytest.skip("needs Debian's mosquitto (apt-get install mosquitto; .ci/run does)")
    # Ben's page in a window of its own (an offline context too): a second tab of Ann's
    # window would run as a background tab, which Chromium serves too sparingly for
    # JupyterLab to draw its status bar.
    bens = OfflineContext(offline.context.browser, viewport=offline_page.viewport_size)
    try:
        _play(site_url, offline_page, bens.context.new_page(), bens, jupyterlab_server,
              lab_root_dir, lab_tabs, tmp_path)
    finally:
        bens.close()
    assert offline.blocked == bens.blocked == []  # no page reached beyond this machine


def _play(site_url: str, ann: Page, ben: Page, bens: OfflineContext, jupyterlab_server: str,
          lab_root_dir: Path, lab_tabs: LabTabs, tmp_path: Path) -> None:
    ben.set_default_timeout(60_000)
    open_lite_notebook(ann, site_url, "02-engine.ipynb", timeout=240)
    # Ben comes by the README's link to a tutorial, and his kernel deals with libsodium.js
    # as a computer's does with libsodium (tests/e2e/sodium_support.py).
    open_tutorial_by_its_readme_link(ben, site_url)
    check_sodium_vectors(ben, bens)

    # Two site pages, by codes copied by hand.
    run_cell_source(ann, 0, "from durak_core import Rules\n"
                            "from durak_widgets import online\n"
                            f"online(name='Ann', rules=Rules(deck_size=24), "
                            f"{OPTIONS.format(seed=1)})")
    invitation = ann.locator(f"{LOBBY} .durak-online-code textarea")
    expect(invitation).to_have_value(CODE, timeout=180_000)
    run_cell_source(ben, 0, "from durak_widgets import online\n"
                            f"online(name='Ben', code={invitation.input_value()!r}, "
                            f"{OPTIONS.format(seed=2)}, impair={IMPAIR!r})")
    reply = ben.locator(f"{LOBBY} .durak-online-code textarea")
    expect(reply).to_have_value(CODE, timeout=180_000)
    ann.locator(f"{LOBBY} .durak-online-reply textarea").fill(reply.input_value())
    ann.locator(f"{LOBBY} .durak-online-connect").click()
    words = []
    for page in (ann, ben):
        sas = page.locator(f"{LOBBY} .durak-lan-sas b")
        expect(sas).to_have_text(WORDS, timeout=60_000)
        words.append(sas.inner_text())
    assert words[0] == words[1]  # nobody in the middle of the pasted codes
    for page in (ann, ben):
        expect(page.locator(f"{LOBBY} .durak-lan-badge")).to_contain_text(
            "audited: fair", timeout=240_000)
    spoiled = ben.locator(f"{LOBBY} .durak-rtc")
    assert sum(int(spoiled.get_attribute(f"data-{what}") or 0)
               for what in ("lost", "duplicated", "reordered")) > 0
    ben.close()  # (his kernel goes with his page)

    # A table of three hosted in Ann's page, its seats taken through one relay's room.
    with broker(None, "127.0.0.1", tmp_path, (free_port(), free_port())) as url:
        run_cell_source(ann, 0, "from durak_core import Rules\n"
                                "from durak_widgets import online\n"
                                f"online(name='Ann', relay={url!r}, "
                                "table=Rules(players=3, deck_size=24), "
                                f"auto_start=True, {OPTIONS.format(seed=3)})")
        room = ann.locator(f"{LOBBY} .durak-online-room b")
        expect(room).to_have_text(re.compile(r"^\w+-\w+-\w+$"), timeout=60_000)
        name = room.inner_text()
        expect(invitation).to_have_value(CODE, timeout=60_000)
        first = invitation.input_value()
        (cid,) = lab_tabs.take(1)
        relative = "site-online/cid.ipynb"
        write_notebook(lab_root_dir / relative, [
            PATH_CELL, "from durak_widgets import online\n"
            f"online(name='Cid', relay={url!r}, room={name!r}, {OPTIONS.format(seed=4)})"])
        run_notebooks_in_lab([(cid, relative)], jupyterlab_server)
        # Cid is connected: Ann's next invitation, for the last seat, is in the room.
        expect(invitation).not_to_have_value(first, timeout=120_000)
        expect(invitation).to_have_value(CODE, timeout=60_000)
        dan = terminal_peer("--relay", url, "--room", name, "--name", "Dan", "--seed", "5")
        table_played_fair([ann, cid], dan)
        left = Room(url, name)  # Ann's page cleared the room once every seat was taken
        try:
            assert (left.wait("offer", 1.0), left.wait("answer", 1.0)) == (None, None)
        finally:
            left.close()
