"""The lobby's automatic answers, one policy for the terminal peer and the notebook."""

from __future__ import annotations

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net.policy import BUSY, Decision, LobbyPolicy

BOB = ev.PeerInfo(7, "Bob", ("10.0.0.5", 40123), {})


@pytest.mark.parametrize(("policy", "pin", "playing", "decision"), [
    (LobbyPolicy(), False, False, Decision("ask")),
    (LobbyPolicy(), False, True, Decision("decline", reason=BUSY)),
    (LobbyPolicy(auto_accept=True), False, False, Decision("accept")),
    (LobbyPolicy(auto_accept=True), True, False, Decision("ask")),  # a person types it
    (LobbyPolicy(auto_accept=True, pin="4821"), True, False, Decision("accept", pin="4821")),
    (LobbyPolicy(auto_accept=True, pin="4821"), False, False, Decision("accept")),
    (LobbyPolicy(auto_accept=True, pin="4821"), True, True, Decision("decline", reason=BUSY)),
])
def test_an_invitation_is_declined_while_playing_accepted_when_told_else_asked(
    policy: LobbyPolicy, pin: bool, playing: bool, decision: Decision
) -> None:
    invite = ev.InviteReceived(1, BOB, Rules(), 0.0, pin=pin)
    assert policy.answer(invite, playing) == decision


@pytest.mark.parametrize(("reason", "again"), [
    ("no answer", True), ("Bob left", True), ("declined", False), (BUSY, False),
    ("pairing failed: the PIN does not match, or someone is in the middle", False),
])
def test_an_invitation_is_tried_again_only_when_nobody_answered(reason: str,
                                                               again: bool) -> None:
    closed = ev.InviteClosed(1, BOB, True, reason, 0.0)
    assert LobbyPolicy.invite_again(closed) is again
