"""A JupyterLab notebook comes to a relay's room: ``online(relay=..., room=...)``.

Ben invites from a terminal, ``durak-lan --online --relay URL`` (aiortc), which leaves
his invitation in a new room of a local mosquitto (started here, with a WebSocket
listener) and prints the room's words.  Ann types those words into her notebook cell,
``online(name='Ann', relay=URL, room=WORDS)``: her page's MQTT client (mqtt.js, the code
the site shares) finds the invitation, her page's RTCPeerConnection answers it, the
reply goes back through the room, and nobody copies a code.  One seeded bot game each
side, audited fair with the same pairing words; the room is empty after.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("aiortc", reason="the terminal's WebRTC peer needs the online extra")

from browser_support import PATH_CELL, LabTabs, free_port, run_notebooks_in_lab, write_notebook
from online_support import LOBBY, played_fair, terminal_peer
from playwright.sync_api import expect

from durak_net.relay import Room
from tests.net.test_net_online import MOSQUITTO, broker

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_notebook_joins_a_terminals_room_on_a_local_mosquitto_and_plays_fair(
    jupyterlab_server: str, lab_root_dir: Path, lab_tabs: LabTabs, tmp_path: Path
) -> None:
    if MOSQUITTO is None:
        pytest.skip("needs Debian's mosquitto (apt-get install mosquitto; .ci/run does)")
    (ann,) = lab_tabs.take(1)
    with broker(None, "127.0.0.1", tmp_path, (free_port(), free_port())) as url:
        ben = terminal_peer("--relay", url, "--name", "Ben", "--seed", "2",
                            "--rules", "deck_size=24")  # the room, not a long game
        try:
            assert ben.stdout is not None
            first = json.loads(ben.stdout.readline())
            assert first["event"] == "room", first
            # Typed as a person might: capitals, spaces for dashes.
            typed = first["room"].upper().replace("-", " ")
            relative = "online-relay/ann.ipynb"
            write_notebook(lab_root_dir / relative, [
                PATH_CELL, "from durak_widgets import online\n"
                f"online(name='Ann', relay={url!r}, room={typed!r}, ice_servers=[], "
                "bot='greedy', seed=1, lang='en')"])
            run_notebooks_in_lab([(ann, relative)], jupyterlab_server)
            expect(ann.locator(f"{LOBBY} .durak-lan-sas b")).to_have_text(
                re.compile(r"^\S+ \S+ \S+ \S+$"), timeout=90_000)
        except BaseException:
            if ben.poll() is None:
                ben.kill()
                ben.wait(timeout=30)
            raise
        played_fair(ann, ben)
        left = Room(url, first["room"])  # the inviter cleared the room once connected
        try:
            assert (left.wait("offer", 1.0), left.wait("answer", 1.0)) == (None, None)
        finally:
            left.close()
