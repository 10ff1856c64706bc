"""What the browser tests of ``online()`` against a terminal share: the terminal peer
(``durak-lan --online``, aiortc, a greedy bot for one game) and the checks that a page's
game and the terminal's both ended audited fair, with the same pairing words (a game of
two) or the same table words on every screen (a table of more seats)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

from browser_support import REPO_ROOT
from playwright.sync_api import expect

#: The lobby of ``online()`` in a page.
LOBBY = ".durak-online"


def terminal_peer(*args: str) -> subprocess.Popen[str]:
    """``durak-lan --online`` with a greedy bot for one game, JSON lines on stdout (its
    codes, its room, the game's record) and the human words on stderr."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.Popen(
        [sys.executable, "-m", "durak_net", "--online", "--bot", "greedy", "--games", "1",
         "--json", "--lang", "en", "--timeout", "120", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env=env)


def _all_fair(pages: list[Any], peer: subprocess.Popen[str]) -> str:
    """Every page's game and the terminal's one game end audited fair; the terminal's
    stderr.  The terminal is killed on the way out if it has not ended."""
    try:
        for page in pages:
            expect(page.locator(f"{LOBBY} .durak-lan-badge")).to_contain_text(
                "audited: fair", timeout=240_000)
        out, err = peer.communicate(timeout=120)
    finally:
        if peer.poll() is None:
            peer.kill()
            peer.wait(timeout=30)
    games = [record for record in map(json.loads, filter(str.strip, out.splitlines()))
             if "audit" in record]
    assert peer.returncode == 0, err
    assert [g["audit"] for g in games] == ["fair"], games
    return err


def played_fair(page: Any, peer: subprocess.Popen[str]) -> None:
    """The page's game ends audited fair; so does the terminal's, with the same words.
    The terminal is killed on the way out if it has not ended."""
    err = _all_fair([page], peer)
    words = page.locator(f"{LOBBY} .durak-lan-sas b").inner_text()
    assert re.fullmatch(r"\S+ \S+ \S+ \S+", words) and words in err  # the same words


def table_played_fair(pages: list[Any], peer: subprocess.Popen[str]) -> str:
    """At a table of more seats: every page's game and the terminal's end audited fair,
    and every screen shows the same table words (the terminal prints them); those words.
    The terminal is killed on the way out if it has not ended."""
    err = _all_fair(pages, peer)
    words = {page.locator(f"{LOBBY} .durak-lan-table-words b").text_content() for page in pages}
    assert len(words) == 1, words  # every page at the table shows the same words
    (said,) = words
    assert said is not None and re.fullmatch(r"\S+( \S+)+", said) and f"table words: {said} " in err
    return said
