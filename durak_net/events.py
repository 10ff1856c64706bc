"""What the LAN layer tells the application: plain frozen values, safe to pass between threads.

The protocol objects (:class:`~durak_net.session.Session`, :class:`~durak_net.lobby.Lobby`)
queue these; :class:`~durak_net.node.LanNode` hands them, in order, to one callback
(the notebook controller's hand-off point, or a queue in the terminal peer).  Remote
misbehaviour arrives as an event (:class:`ProtocolViolation`, :class:`DesyncDetected`),
never as an exception.  Every event carries ``at``: the protocol clock when it happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from durak_core import Action, Event, Rules

# ------------------------------------------------------------------ lobby


@dataclass(frozen=True)
class PeerInfo:
    """A peer seen on the LAN (from its announcements)."""

    node: int
    name: str
    addr: tuple[str, int]
    rules: dict[str, Any]
    busy: bool = False
    #: Sessions the peer is playing or resuming (lets a moved peer be found again).
    sessions: tuple[int, ...] = ()

    @property
    def label(self) -> str:
        """How the lobby shows it: ``Bob (10.0.0.5:40123)``."""
        return f"{self.name} ({self.addr[0]}:{self.addr[1]})"


@dataclass(frozen=True)
class PeerSeen:
    """A new peer, or a known one whose name, address, rules or busy flag changed."""

    peer: PeerInfo
    at: float


@dataclass(frozen=True)
class PeerGone:
    """No announcement from this peer for a while (5 s by default): forgotten."""

    peer: PeerInfo
    at: float


@dataclass(frozen=True)
class InviteReceived:
    """Someone invites us: show Accept / Decline (answer with the invite id)."""

    invite: int
    peer: PeerInfo
    rules: Rules
    at: float


@dataclass(frozen=True)
class InviteClosed:
    """An invitation ended without a game: declined, cancelled or unanswered.

    ``outgoing`` tells whether it was ours; ``reason`` says what happened.
    """

    invite: int
    peer: PeerInfo
    outgoing: bool
    reason: str
    at: float


@dataclass(frozen=True)
class SessionAgreed:
    """An invitation was accepted: both sides now start a session with this key."""

    sid: int
    inviter: bool
    peer: PeerInfo
    key: bytes = field(repr=False)
    rules: Rules
    at: float


# ------------------------------------------------------------------ session


@dataclass(frozen=True)
class GameStarted:
    """Game ``game`` of the session is dealt (or, ``resumed``, restored from the journal
    with its log replayed); we play ``seat``."""

    sid: int
    game: int
    seat: int
    state_hash: str
    at: float
    resumed: bool = False


@dataclass(frozen=True)
class ActionApplied:
    """Log entry ``index`` was applied here (``by_me``: our seat's action)."""

    sid: int
    game: int
    index: int
    action: Action
    events: tuple[Event, ...]
    by_me: bool
    state_hash: str
    at: float


@dataclass(frozen=True)
class ActionRefused:
    """Our proposed action was refused by the sequencing peer (the state had moved on)."""

    sid: int
    action: Action
    reason: str
    at: float


@dataclass(frozen=True)
class PeerActionRefused:
    """The peer proposed an action the rules do not allow now; it was refused, not applied."""

    sid: int
    action: str
    reason: str
    at: float


@dataclass(frozen=True)
class GameFinished:
    """Game ``game`` is over; both peers should report the same hashes."""

    sid: int
    game: int
    durak: int | None
    losers: tuple[int, ...]
    actions: int
    state_hash: str
    log_hash: str
    at: float


@dataclass(frozen=True)
class NextGameRequested:
    """The peer is ready for game ``game``; call ``start_next_game`` to agree."""

    sid: int
    game: int
    at: float


@dataclass(frozen=True)
class PeerLost:
    """Nothing heard from the peer for a while: "connection lost, waiting..."."""

    sid: int
    silent_for: float
    at: float


@dataclass(frozen=True)
class PeerBack:
    """The peer is heard again; the game goes on from where it stopped."""

    sid: int
    at: float


@dataclass(frozen=True)
class DesyncDetected:
    """The two peers disagree about the game after entry ``index``; never silent."""

    sid: int
    game: int
    index: int
    detail: str
    reported_by_peer: bool
    at: float


@dataclass(frozen=True)
class ProtocolViolation:
    """The (authenticated) peer broke the protocol: a forged entry, a bad reveal..."""

    sid: int
    detail: str
    at: float


@dataclass(frozen=True)
class SessionClosed:
    """The session ended (``by_peer``: the peer said goodbye)."""

    sid: int
    reason: str
    by_peer: bool
    at: float


NetEvent = (
    PeerSeen
    | PeerGone
    | InviteReceived
    | InviteClosed
    | SessionAgreed
    | GameStarted
    | ActionApplied
    | ActionRefused
    | PeerActionRefused
    | GameFinished
    | NextGameRequested
    | PeerLost
    | PeerBack
    | DesyncDetected
    | ProtocolViolation
    | SessionClosed
)
