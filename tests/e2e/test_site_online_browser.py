"""``online()`` in the JupyterLite site: a page whose kernel is Pyodide plays terminals.

Ann plays in a notebook of the built site, cut off from the network: her kernel runs in
the page (no sockets, no ``cryptography``: durak_net's wire format from msgspec's build
for Pyodide, the deal, the pairing and the signatures from libsodium.js), her channel is
the page's own RTCPeerConnection.  Her friends play in terminals, ``durak-lan --online``
(aiortc).  First by codes: the test carries Ann's invitation code to Ben's ``--code``
and Ben's reply code into Ann's box.  Then, in the same page (one Pyodide start for
both), through a relay: Ann re-runs the cell with ``relay=`` a local mosquitto (the one
tests/net/test_net_online.py starts), her page's MQTT client (mqtt.js) leaves her
invitation in a room, and Cid's terminal comes to it with ``--relay --room``; nobody
copies a code.  Each game is audited fair on both sides, with the same pairing words,
and the room is empty after.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("jupyterlite_core", reason="the site needs the [site] extra")
pytest.importorskip("aiortc", reason="the terminal's WebRTC peer needs the online extra")

from browser_support import (
    OfflineContext,
    free_port,
    open_lite_notebook,
    run_cell_source,
)
from online_support import LOBBY, played_fair, terminal_peer
from playwright.sync_api import Page, expect

from durak_net.relay import Room
from tests.net.test_net_online import MOSQUITTO, broker

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_site_page_plays_terminals_by_codes_and_through_a_local_mosquittos_room(
    site_url: str, offline: OfflineContext, offline_page: Page, tmp_path: Path
) -> None:
    if MOSQUITTO is None:
        pytest.skip("needs Debian's mosquitto (apt-get install mosquitto; .ci/run does)")
    ann = offline_page
    open_lite_notebook(ann, site_url, "02-engine.ipynb", timeout=240)

    # By codes, copied by hand.
    run_cell_source(ann, 0, "from durak_widgets import online\n"
                            "online(name='Ann', ice_servers=[], bot='greedy', seed=1, lang='en')")
    invitation = ann.locator(f"{LOBBY} .durak-online-code textarea")
    expect(invitation).to_have_value(re.compile(r"^\w{40,}$"), timeout=180_000)
    ben = terminal_peer("--code", invitation.input_value(), "--name", "Ben", "--seed", "2")
    assert ben.stdout is not None
    reply = json.loads(ben.stdout.readline())
    assert reply["event"] == "reply", reply
    ann.locator(f"{LOBBY} .durak-online-reply textarea").fill(reply["code"])
    ann.locator(f"{LOBBY} .durak-online-connect").click()
    played_fair(ann, ben)

    # Through a room of a relay: the cell again, with relay= (the table before closes).
    with broker(None, "127.0.0.1", tmp_path, (free_port(), free_port())) as url:
        run_cell_source(ann, 0, "from durak_widgets import online\n"
                                f"online(name='Ann', relay={url!r}, ice_servers=[], "
                                "bot='greedy', seed=3, lang='en')")
        room = ann.locator(f"{LOBBY} .durak-online-room b")
        expect(room).to_have_text(re.compile(r"^\w+-\w+-\w+$"), timeout=60_000)
        name = room.inner_text()  # (the codes and the room make way for the table)
        cid = terminal_peer("--relay", url, "--room", name, "--name", "Cid", "--seed", "4")
        played_fair(ann, cid)
        left = Room(url, name)  # the inviter's page cleared the room once connected
        try:
            assert (left.wait("offer", 1.0), left.wait("answer", 1.0)) == (None, None)
        finally:
            left.close()
    assert offline.blocked == []  # the page reached nothing beyond this machine
