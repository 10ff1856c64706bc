"""Names and reasons from the network are shown safely: control and format characters
removed (no escape code reaches a terminal, no newline forges a line), lengths capped,
HTML escaped in the notebook's lobby."""

from __future__ import annotations

import random

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net.lobby import Lobby
from durak_net.text import plain, printable
from durak_net.wire import Cancel
from durak_widgets import lan
from durak_widgets.handoff import Handoff

from .crafted import Crafter

HOSTILE = "Eve\x1b[2J\nPROBLEM:\u202e x"


@pytest.mark.parametrize(("raw", "shown"), [
    ("Eve\x1b[2J\x1b[H", "Eve [2J [H"),
    ("Eve\nPROBLEM: desync", "Eve PROBLEM: desync"),
    ("\u202eboB\u200b", "boB"),
    ("a\tb\r\nc\x00d\x9b", "a b c d"),
    ("x" * 250, "x" * 199 + "…"),
    ("Алиса 🂡", "Алиса 🂡"),
])
def test_plain_removes_controls_and_caps_the_length(raw: str, shown: str) -> None:
    assert plain(raw) == shown


def test_printable_keeps_the_lines_and_nothing_else_that_steers_a_terminal() -> None:
    assert printable("trump 7s  talon 9\nyou:\x1b[31m 6h\x07") == "trump 7s  talon 9\nyou:[31m 6h"


def test_the_lobby_cleans_names_and_reasons_as_they_arrive() -> None:
    me = Lobby("Ann", 40000, Rules(players=2), 0.0, entropy=random.Random(1).randbytes)
    eve = Crafter(5)
    me.receive(eve.announce(HOSTILE), ("10.77.0.5", 40100), 0.1)
    me.receive(Crafter(6).announce("\x1b\x1b\x1b"), ("10.77.0.6", 40100), 0.1)
    assert me.peers[eve.node].info.name == "Eve [2J PROBLEM: x"
    assert {p.info.name for p in me.peers.values()} == {"Eve [2J PROBLEM: x", "(no name)"}
    # Eve hosts a table; we ask for a seat, and her (signed, so genuine) refusal carries
    # a hostile reason: it reaches our events cleaned.
    me.peers[eve.node].info = ev.PeerInfo(eve.node, "Eve", ("10.77.0.5", 40100), {},
                                          table={"table": 9, "seats": ("Eve", ""),
                                                 "started": False, "open": True})
    me.join(eve.node, 9, 0.2)
    me.receive(eve.datagram(Cancel(eve.node, eve.key, me.node, 9, "no\nPROBLEM: \x1b[2J" * 11)),
               ("10.77.0.5", 40100), 0.3)
    (closed,) = [e for e in me.events() if isinstance(e, ev.InviteClosed)]
    assert "\n" not in closed.reason and "\x1b" not in closed.reason
    assert len(closed.reason) <= 200 and closed.reason.startswith("no PROBLEM: [2Jno")


def test_the_notebook_lobby_escapes_names_in_its_labels() -> None:
    lobby = lan("Ann", handoff=Handoff(mode="manual"), port=0, journal_dir=None)
    try:
        peer = ev.PeerInfo(7, "<img src=x onerror=alert(1)>\x1b[2J", ("10.0.0.5", 40123), {},
                           same_name=True)
        lobby._on_event(ev.PeerSeen(peer, 0.0))
        lobby._on_event(ev.InviteReceived(3, peer, Rules(), 0.0))
        label = lobby._peer_rows[7][1].value
        assert "&lt;img src=x onerror=alert(1)&gt; [2J (10.0.0.5:40123)" in label
        assert "<img" not in label and "\x1b" not in label
        assert "another player uses this name" in label
        shown = lobby.invite_box.children[0].children[0].value
        assert "&lt;img" in shown and "<img" not in shown and "\x1b" not in shown
    finally:
        lobby.close()
