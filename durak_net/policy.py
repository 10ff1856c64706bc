"""What a peer does by itself in the lobby, written once for the terminal peer
(:mod:`durak_net.cli`) and the notebook lobby (:mod:`durak_widgets.lan`): whether an
invitation is declined as busy, accepted at once or shown to the person, and whether
an invitation of ours that ended is tried again.

Sans-I/O like the rest of the protocol: events in, a decision out; the caller acts on
it through its node.

>>> from durak_core import Rules
>>> from durak_net import events as ev
>>> bob = ev.PeerInfo(7, "Bob", ("10.0.0.5", 40123), {})
>>> invite = ev.InviteReceived(1, bob, Rules(), 0.0, pin=True)
>>> LobbyPolicy(auto_accept=True).answer(invite, playing=False).kind  # no PIN to give
'ask'
>>> LobbyPolicy(auto_accept=True, pin="4821").answer(invite, playing=False)
Decision(kind='accept', pin='4821', reason='')
>>> LobbyPolicy().answer(invite, playing=True)
Decision(kind='decline', pin=None, reason='already playing')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from . import events as ev

#: The reason an invitation is declined while we play (the inviter sees it).
BUSY = "already playing"
#: Inviting or joining by name waits until the peer of that name has been seen this
#: long (seconds: two announcements and a lost one), so that a second peer announcing
#: the same name is seen, and the person asked which, before anyone is invited.
SETTLE = 2.5


@dataclass(frozen=True)
class Decision:
    """``accept`` (with ``pin`` when the invitation asks for one), ``decline`` (with
    ``reason``) or ``ask`` the person."""

    kind: Literal["accept", "decline", "ask"]
    pin: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class LobbyPolicy:
    """The lobby's automatic answers (see the module docstring)."""

    #: Accept invitations at once (bots, demos, tests).
    auto_accept: bool = False
    #: The PIN to accept with when an invitation asks for one (None: a person types it,
    #: so such an invitation is shown even with ``auto_accept``).
    pin: str | None = None

    def answer(self, invite: ev.InviteReceived, playing: bool) -> Decision:
        """What to do with an invitation: while we play, decline it as :data:`BUSY`;
        with ``auto_accept``, accept it (unless it asks for a PIN we were not given);
        otherwise show it to the person."""
        if playing:
            return Decision("decline", reason=BUSY)
        if self.auto_accept and (not invite.pin or self.pin):
            return Decision("accept", pin=self.pin if invite.pin else None)
        return Decision("ask")

    @staticmethod
    def invite_again(closed: ev.InviteClosed) -> bool:
        """Our invitation ended without a game: call again later?  Only when nobody
        answered or the peer left; not after a decline (do not pester them) nor a
        failed pairing."""
        return closed.reason == "no answer" or closed.reason.endswith(" left")
