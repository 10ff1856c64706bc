"""What the LAN layer tells the application: plain frozen values, safe to pass between threads.

The protocol objects (:class:`~durak_net.session.Session`, :class:`~durak_net.lobby.Lobby`)
queue these, :class:`~durak_net.peer.PeerCore` gathers them and
:class:`~durak_net.node.LanNode` hands them, in order, to one callback
(the notebook controller's hand-off point, or a queue in the terminal peer).  Remote
misbehaviour arrives as an event (:class:`ProtocolViolation`, :class:`DesyncDetected`),
never as an exception.  Every event carries ``at``: the protocol clock when it happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from durak_core import Action, Card, Event, Rules

from .notes import Note

#: How a move its seat did not choose is marked on every screen (terminal, notebook),
#: by :attr:`ActionApplied.forced`.
FORCED_WORDS = {"timeout": "timed out", "bot": "played by a bot for the absent player"}
#: What a player back at its seat is told when its hand was opened to the table (a
#: bot played for it while it was away): :class:`SeatStatus` ``"opened"``.
OPENED_WORDS = ("While you were away your hand was opened to the table, and a bot "
                "played for you.")
#: The same, for a move of our own seat (we are back, and see what was done for us).
FORCED_FOR_US = {"timeout": "timed out", "bot": "played for you by a bot while you were away"}


# ------------------------------------------------------------------ lobby


@dataclass(frozen=True)
class PeerInfo:
    """A peer seen on the LAN (from its announcements)."""

    node: int
    name: str
    addr: tuple[str, int]
    rules: dict[str, Any]
    busy: bool = False
    #: Rendezvous tags of sessions the peer is resuming (only their partner knows them).
    tags: tuple[bytes, ...] = ()
    #: Another peer on the LAN announces the same name: compare the pairing words.
    same_name: bool = False
    #: The peer runs an older durak whose protocol this one cannot speak.
    incompatible: str = ""
    #: The table the peer hosts: ``table`` (id), ``seats`` (names, "" for open),
    #: ``clock``, ``grace``, ``started``, ``open``; None if it hosts none.
    table: dict[str, Any] | None = None

    @property
    def open_seats(self) -> int:
        """Free seats at the table the peer hosts (0 when none, or play started)."""
        t = self.table
        if t is None or t["started"] or not t["open"]:
            return 0
        return sum(1 for name in t["seats"] if not name)

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
class NameSettled:
    """A name we watch for (``lan(invite=NAME)``) has been announced long enough to
    tell whom it means: one peer (``peers`` holds it: invite it), or several (someone
    may be pretending to be the other: ask the person which, by id or address)."""

    name: str
    peers: tuple[PeerInfo, ...]
    at: float


@dataclass(frozen=True)
class InviteReceived:
    """Someone invites us: show Accept / Decline (answer with the invite id)."""

    invite: int
    peer: PeerInfo
    rules: Rules
    at: float
    #: The inviter asked for a PIN: accept with the PIN they read out.
    pin: bool = False
    #: The table and seat offered (0: a game of two).
    table: int = 0
    seat: int = 1


@dataclass(frozen=True)
class JoinRequested:
    """Host: ``peer`` asks for a seat at our table ``table`` (``team`` wanted, -1 any)."""

    table: int
    peer: PeerInfo
    team: int
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
    """An invitation was accepted and paired: both sides now start a session with this key.

    ``sas`` is the short authentication string (four words) both people compare: the
    same words on both screens mean nobody is in the middle.  ``pin`` says the pairing
    also proved that both typed the same PIN.
    """

    sid: int
    inviter: bool
    peer: PeerInfo
    key: bytes = field(repr=False)
    rules: Rules
    at: float
    sas: str = ""
    pin: bool = False
    #: The table and our seat at it, for a seat taken by a join (0: a game of two).
    table: int = 0
    seat: int = 1


# ------------------------------------------------------------------ session


@dataclass(frozen=True)
class GameStarted:
    """Game ``game`` of the session is dealt (or, ``resumed``, restored from the journal
    with its log replayed); we play ``seat``.  ``state_hash`` is the hash of the public
    state (what every seat may know); ``shown`` is the seat that showed the lowest
    trump, and the card (None when nobody holds a trump or a match set the attack)."""

    sid: int
    game: int
    seat: int
    state_hash: str
    at: float
    resumed: bool = False
    shown: tuple[int, Card] | None = None


@dataclass(frozen=True)
class ActionApplied:
    """Log entry ``index`` was applied here (``by_me``: our seat's action).  ``forced``
    says why the seat did not choose it itself: ``"timeout"`` (its move clock ran out)
    or ``"bot"`` (a bot plays the seat while its player is away); ``""`` otherwise."""

    sid: int
    game: int
    index: int
    action: Action
    events: tuple[Event, ...]
    by_me: bool
    state_hash: str
    at: float
    forced: str = ""


@dataclass(frozen=True)
class CardsRevealed:
    """Cards we drew were opened for us (the other seats' keys arrived)."""

    sid: int
    game: int
    seat: int
    cards: tuple[Card, ...]
    at: float


@dataclass(frozen=True)
class ActionRefused:
    """Our proposed action was refused by the sequencing peer: the table had moved on
    before it arrived (another seat's move got there first; the only refusal an honest
    host makes, the session checks it).  ``reason``: the rules engine's, about the
    host's state then, with seat numbers.

    ``automatic``: the action was our seat's automatic pass, which the session proposed
    by itself (the player made no move) and proposes again once it is the seat's only
    move; nothing to tell a player.
    """

    sid: int
    action: Action
    reason: str
    at: float
    automatic: bool = False


@dataclass(frozen=True)
class PeerActionRefused:
    """Host: a seat's proposal was refused, not applied (the table had moved past the
    log it was made on).  A proposal is refused before it is opened, so ``action`` is
    empty: the host never learns what was proposed; ``seat`` and ``pid`` say whose."""

    sid: int
    action: str
    reason: str
    at: float
    seat: int = -1
    pid: int = 0


@dataclass(frozen=True)
class GameFinished:
    """Game ``game`` is over; both peers report the same hashes (``state_hash`` of the
    public state).  The audit follows (:class:`GameAudited`)."""

    sid: int
    game: int
    durak: int | None
    losers: tuple[int, ...]
    actions: int
    state_hash: str
    log_hash: str
    at: float


@dataclass(frozen=True)
class GameStopped:
    """Game ``game`` was stopped before its end because a seat broke the deal or the
    rules (``culprit`` is whom the evidence names so far; the audit decides).
    ``by_peer``: the peer stopped it and told us.  ``detail`` is the finding in English
    (as the Fault says it); ``note`` the whole line for a person, to say with
    :meth:`~durak_net.notes.Note.say` (who stopped it, whom it names, and what)."""

    sid: int
    game: int
    culprit: int
    detail: str
    by_peer: bool
    at: float
    note: Note | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class GameAudited:
    """Every seat published its keys and game ``game`` was checked from them.

    ``verdict`` is ``"audited: fair"`` or the fault and whose it is; ``fair``,
    ``culprit`` (a seat or None) and ``code`` say the same for programs.
    ``state_hash`` is the hash of the full game the audit rebuilt (equal on both
    sides), ``log_hash`` the hash of its action log.  ``full_game``: when fair, that
    game as :meth:`durak_core.Game.to_json` text (rules, deck order, log; every card is
    public after the audit), for a review or a save file; "" otherwise.

    ``code`` ``"abandoned"``: a seat (``culprit``) went silent and was not heard for the
    grace period, so the game could not be audited; ``silent_since`` says since when
    (``now`` of this seat's driver, like ``at``).
    """

    sid: int
    game: int
    fair: bool
    verdict: str
    code: str
    culprit: int | None
    state_hash: str
    log_hash: str
    at: float
    full_game: str = field(default="", repr=False)
    silent_since: float | None = None
    #: The verdict as a note, for a person (``verdict`` is its English); None for a
    #: verdict restored from an older journal.
    note: Note | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class NextGameRequested:
    """The peer is ready for game ``game``; call ``start_next_game`` to agree."""

    sid: int
    game: int
    at: float


@dataclass(frozen=True)
class PeerLost:
    """Nothing heard from a peer for a while: "connection lost, waiting..." (``seat``:
    the seat whose link went silent; a seated player's only link is the host's)."""

    sid: int
    silent_for: float
    at: float
    seat: int = -1


@dataclass(frozen=True)
class PeerBack:
    """A lost peer is heard again; the game goes on from where it stopped."""

    sid: int
    at: float
    seat: int = -1


@dataclass(frozen=True)
class SeatTaken:
    """Host: a player sat down at ``seat`` (its hello arrived)."""

    sid: int
    seat: int
    name: str
    at: float


@dataclass(frozen=True)
class TableChanged:
    """A seated player: the host says who sits where (``seats``: seat, name, kind) and
    whether play has started."""

    sid: int
    seats: tuple[tuple[int, str, str], ...]
    started: bool
    at: float


@dataclass(frozen=True)
class SeatStatus:
    """The host says another seat's connection is ``"lost"`` or ``"back"``, that its
    player ``"left"`` (``detail``: why), or that a bot of the host's plays it while its
    player is away (``"bot"``); or, to a seat, that its move clock ran out while it had
    to lead (``"timeout"``)."""

    sid: int
    seat: int
    state: str
    detail: str
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
    #: ``detail`` as a note, for a person.
    note: Note | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class ProtocolViolation:
    """The (authenticated) peer broke the protocol: a forged entry, a bad reveal...
    (``detail`` in English, ``note`` for a person)."""

    sid: int
    detail: str
    at: float
    note: Note | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class SessionClosed:
    """The session ended (``by_peer``: the peer said goodbye)."""

    sid: int
    reason: str
    by_peer: bool
    at: float


#: Every event the LAN layer gives (:meth:`durak_net.peer.PeerCore.events`): a table
#: keyed by kind, like the terminal's (:data:`durak_net.cli.HANDLERS`), is checked
#: against ``typing.get_args(NetEvent)`` so a new kind is not forgotten.
NetEvent = (
    PeerSeen
    | PeerGone
    | NameSettled
    | InviteReceived
    | InviteClosed
    | JoinRequested
    | SessionAgreed
    | GameStarted
    | CardsRevealed
    | ActionApplied
    | ActionRefused
    | PeerActionRefused
    | GameFinished
    | GameStopped
    | GameAudited
    | NextGameRequested
    | PeerLost
    | PeerBack
    | SeatTaken
    | TableChanged
    | SeatStatus
    | DesyncDetected
    | ProtocolViolation
    | SessionClosed
)
