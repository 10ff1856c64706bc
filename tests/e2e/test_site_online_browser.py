"""``online()`` in the JupyterLite site: a page whose kernel is Pyodide plays a terminal.

Ann plays in a notebook of the built site, cut off from the network: her kernel runs in
the page (no sockets, no ``cryptography``: durak_net's wire format from msgspec's build
for Pyodide, the deal, the pairing and the signatures from libsodium.js), her channel is
the page's own RTCPeerConnection.  Ben plays in a terminal, ``durak-lan --online``
(aiortc).  The test carries Ann's invitation code to Ben's ``--code`` and Ben's reply
code into Ann's box; their bots play a game that both audit fair, and both show the same
pairing words.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="browser tests need the playwright package")
pytest.importorskip("jupyterlite_core", reason="the site needs the [site] extra")
pytest.importorskip("aiortc", reason="the terminal's WebRTC peer needs the online extra")

from browser_support import (
    REPO_ROOT,
    OfflineContext,
    free_port,
    open_lite_notebook,
    run_cell_source,
)
from playwright.sync_api import Page, expect

from durak_net.relay import Room
from tests.net.test_net_online import MOSQUITTO, broker

sys.path.insert(0, str(REPO_ROOT / "scripts"))
import lite_site

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LOBBY = ".durak-online"


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    try:
        site = lite_site.build()
    except SystemExit as exc:  # npm or a download missing: say so rather than error out
        pytest.fail(f"the site could not be built: {exc}")
    with lite_site.serving(site) as url:
        yield url


def test_a_site_page_and_an_aiortc_terminal_play_a_game_through_codes(
    site_url: str, offline: OfflineContext, offline_page: Page
) -> None:
    ann = offline_page
    open_lite_notebook(ann, site_url, "02-engine.ipynb", timeout=240)
    run_cell_source(ann, 0, "from durak_widgets import online\n"
                            "online(name='Ann', ice_servers=[], bot='greedy', seed=1, lang='en')")
    invitation = ann.locator(f"{LOBBY} .durak-online-code textarea")
    expect(invitation).to_have_value(re.compile(r"^\w{40,}$"), timeout=180_000)
    ben = subprocess.Popen(
        [sys.executable, "-m", "durak_net", "--online", "--code", invitation.input_value(),
         "--name", "Ben", "--bot", "greedy", "--seed", "2", "--games", "1", "--json",
         "--lang", "en"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env=_env())
    try:
        assert ben.stdout is not None
        reply = json.loads(ben.stdout.readline())
        assert reply["event"] == "reply", reply
        ann.locator(f"{LOBBY} .durak-online-reply textarea").fill(reply["code"])
        ann.locator(f"{LOBBY} .durak-online-connect").click()
        expect(ann.locator(f"{LOBBY} .durak-lan-sas b")).to_have_text(
            re.compile(r"^\S+ \S+ \S+ \S+$"), timeout=60_000)
        expect(ann.locator(f"{LOBBY} .durak-lan-badge")).to_contain_text(
            "audited: fair", timeout=240_000)
        out, err = ben.communicate(timeout=120)
    finally:
        if ben.poll() is None:
            ben.kill()
            ben.wait(timeout=30)
    games = [record for record in map(json.loads, filter(str.strip, out.splitlines()))
             if "audit" in record]
    assert ben.returncode == 0, err
    assert [g["audit"] for g in games] == ["fair"], games
    words = ann.locator(f"{LOBBY} .durak-lan-sas b").inner_text()
    assert words in err  # the terminal printed the same pairing words
    assert offline.blocked == []  # the page reached nothing beyond this machine


def test_a_site_page_names_a_room_on_a_local_mosquitto_and_a_terminal_comes_to_it(
    site_url: str, offline: OfflineContext, offline_page: Page, tmp_path: Path
) -> None:
    """``online(relay=...)``: the page's own MQTT client (mqtt.js) leaves Ann's invitation
    in a room of a local mosquitto over WebSocket and takes Ben's reply from it; Ben's
    terminal comes to the room with ``--relay --room``.  No code is copied by hand; the
    game ends fair with the same words on both sides, and the room is empty after."""
    if MOSQUITTO is None:
        pytest.skip("needs Debian's mosquitto (apt-get install mosquitto; .ci/run does)")
    ann = offline_page
    with broker(None, "127.0.0.1", tmp_path, (free_port(), free_port())) as url:
        open_lite_notebook(ann, site_url, "02-engine.ipynb", timeout=240)
        run_cell_source(ann, 0, "from durak_widgets import online\n"
                                f"online(name='Ann', relay={url!r}, ice_servers=[], "
                                "bot='greedy', seed=1, lang='en')")
        room = ann.locator(f"{LOBBY} .durak-online-room b")
        expect(room).to_have_text(re.compile(r"^\w+-\w+-\w+$"), timeout=180_000)
        name = room.inner_text()  # (the codes and the room make way for the table)
        # The invitation is in the room once the page shows its code.
        expect(ann.locator(f"{LOBBY} .durak-online-code textarea")).to_have_value(
            re.compile(r"^\w{40,}$"), timeout=60_000)
        ben = subprocess.Popen(
            [sys.executable, "-m", "durak_net", "--online", "--relay", url, "--room",
             name, "--name", "Ben", "--bot", "greedy", "--seed", "2",
             "--games", "1", "--json", "--lang", "en", "--timeout", "120"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
            text=True, env=_env())
        try:
            expect(ann.locator(f"{LOBBY} .durak-lan-badge")).to_contain_text(
                "audited: fair", timeout=240_000)
            out, err = ben.communicate(timeout=120)
        finally:
            if ben.poll() is None:
                ben.kill()
                ben.wait(timeout=30)
        games = [record for record in map(json.loads, filter(str.strip, out.splitlines()))
                 if "audit" in record]
        assert ben.returncode == 0, err
        assert [g["audit"] for g in games] == ["fair"], games
        assert ann.locator(f"{LOBBY} .durak-lan-sas b").inner_text() in err
        # The inviter's page cleared the room once the channel was open.
        left = Room(url, name)
        try:
            assert (left.wait("offer", 1.0), left.wait("answer", 1.0)) == (None, None)
        finally:
            left.close()
    assert offline.blocked == []
