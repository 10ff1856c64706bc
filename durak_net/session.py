"""One table's game session, from one seat, as a state machine with no I/O.

Like h11 or aioquic: bytes and a clock go in, bytes and events come out; no sockets,
no threads, no clock reads.  The driver (:class:`~durak_net.node.LanNode` over UDP, or
the in-memory link of the tests) calls

* :meth:`Session.receive` with each datagram, its source address and ``now``;
* :meth:`Session.timer` when :meth:`Session.next_timer` says so;
* :meth:`Session.datagrams_to_send` after either, and sends what it returns;
* :meth:`Session.journal_records` before sending, and appends them to the journal
  (write-ahead: nothing leaves that a restarted kernel would not remember);
* :meth:`Session.events` to collect what happened.

The application calls :meth:`Session.act` for its seat's moves and
:meth:`Session.start_next_game` for a rematch.

**A table** has 2 to 6 seats.  The host (seat 0) orders every action into one log
(the *sequencer*) and is the hub: every other seat has one :class:`~durak_net.link.Link`
with it, and the host passes on what the others need (deal messages, entries).  A game
between two notebooks is a table of two.  Messages a seat authors for the others (its
deal messages, its proposals) are signed with its own key
(:mod:`durak_net.identity`), so the host cannot speak for another seat.

**Hidden hands.** Each seat holds only its own view of the game (``self.game`` is a
:meth:`~durak_core.Game.view`): the deck is dealt by mental poker
(:class:`~durak_net.dealer.MentalDealer`), a card reaches a hand when every other seat
publishes its key for it, and leaves a hidden hand only with its holder's key, which
proves it was dealt there.  Log entries carry the hash of the *public* state, which
every view shares.  When a game ends (or stops on a fault), every seat publishes its
seed and each audits the whole game (:mod:`durak_net.audit`).

Every entry is validated by every seat: an illegal or forged entry, a different hash,
a card not proven, a proposal that shows the host told seats different logs: the game
stops and is audited, never silently diverges.

**No trusted party.** What changes what a seat believes is checked by that seat: a
Fault must carry its finder's signature; a refusal must be of a proposal the table
moved past; a "timed out" entry of our seat must come when our own clock
(:mod:`durak_net.clock`) has run out; our share of a seat's seed is published only when
we ourselves have not heard that seat's signed heartbeats for the grace period
(:mod:`durak_net.presence`); and a seat silent for the grace period ends its game with
a verdict (``abandoned``) instead of leaving the others waiting.

**Parts.** The session is the glue of parts with one job each, each a class in its
own module, tested on its own without a network, and replayed from a journal through
its own methods (:mod:`durak_net.restore`): :mod:`durak_net.gamelog` (``game_log``: every
game's entries) and :mod:`durak_net.proposals` (``proposals``: each seat's proposals, the
one placed in the log, and what a Propose, an Order, a Refused or an Open is answered);
:mod:`durak_net.handover` (``handover``: the move clock of :mod:`durak_net.clock`, each
seat's state, whom a bot plays, when a silent seat's game is abandoned) with
:mod:`durak_net.presence` (``presence``: who is silent since when); and
:mod:`durak_net.outcomes` (``outcomes``: stops, faults, audits, and the checks of a
Fault's signature and evidence); :mod:`durak_net.seating` (``seating``: who sits where,
what a Hello or a Seating changes); :mod:`durak_net.links` (``linkage``: the links by
seat and pairing id; ``beacons``: the heartbeats between seated players);
:mod:`durak_net.dealing` (``dealing``: each game's dealer and signed deal messages, when
the next game is asked for and dealt, the cards a move opens); :mod:`durak_net.resync`
(``resync``: what a restarted seat is resent); and :mod:`durak_net.timers` (the next
timer and which deadline fires, as pure functions).  The session routes frames to them,
applies the log's entries, and does what they decide.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from durak_core import (
    Action,
    Attack,
    Card,
    Game,
    IllegalAction,
    Pass,
    Rules,
    Take,
    parse_action,
)
from durak_core.events import Drew

from . import entry_sig
from . import events as ev
from .audit import Stop, Verdict, audit
from .clock import CLOCK_ALLOWANCE, MoveClock
from .crypto import Entropy
from .dealer import DealFault, MentalDealer, Reveal
from .dealing import DealerFactory, Dealing, action_cards, mental_dealer
from .gamelog import GameLog, LogEntry, log_hash
from .handover import HandOver
from .handover import due as seat_due
from .i18n import N_, Said
from .identity import Identity
from .link import Addr, Link
from .links import Beacons, Links
from .notes import Note, Rule, Seat, Theirs
from .outcomes import HOST, Outcomes, fault_signed, fitted_detail
from .outcomes import deal_signed as deal_signed  # (for scripts/lan_vectors.py)
from .presence import Presence, abandon_after
from .proposals import (
    OPEN_WITHIN,
    Finding,
    OwnProposal,
    Proposals,
    Slot,
    evidence,
    opened_as_committed,
    order_signed,
    proposal_commit,
    proposal_signed,
    refused_signed,
    salt_for,
)
from .reliable import RtoConfig
from .restore import JOURNAL_VERSION, replay_journal
from .resync import Resync, catch_up
from .seating import Player, SeatingChart, addr_signed, addr_text, parse_addr
from .seating import table_words as table_words  # (for scripts/lan_vectors.py)
from .timers import (
    Deadlines,
    abandoned,
    audits_due,
    clock_stall_seen,
    game_to_abandon,
    open_due,
    owed_clocks,
    stall_bound,
    stall_due,
)
from .wire import (
    Beacon,
    Bye,
    Deal,
    Entry,
    Fault,
    Frame,
    Hello,
    Open,
    Order,
    Propose,
    Refused,
    Seating,
    Status,
    Sync,
    WireError,
    beacon_sid,
    decode_beacon,
    session_id_of,
)


class Role(str, Enum):
    """Who orders the log: the host (sequencer, seat 0) or a seated player (follower)."""

    SEQUENCER = "sequencer"
    FOLLOWER = "follower"


class SessionError(Said, RuntimeError):
    """Local misuse of a session (acting in a closed session, a rematch mid-game...).

    Remote misbehaviour is never raised: it becomes an event.  A screen shows it in its
    reader's language (:func:`durak_net.i18n.said`); ``str()`` is its English.
    """


@dataclass(frozen=True)
class SessionConfig:
    """Timing and behaviour knobs; the defaults suit a LAN and a person at the table."""

    #: Send a packet at least this often (seconds) so the peer knows we are alive.
    heartbeat: float = 1.0
    #: Declare a peer lost after this long without a valid packet.
    lost_after: float = 3.0
    #: Retransmission timing of the reliable streams.
    rto: RtoConfig = field(default_factory=RtoConfig)
    #: Propose our seat's pass by ourselves when it is our only legal action
    #: (durak_core requires that explicit pass; nobody should have to click it).
    auto_pass: bool = True
    #: After saying goodbye, keep acknowledging for this long.
    linger: float = 5.0
    #: Give up waiting for the goodbye to be acknowledged after this long.
    close_timeout: float = 2.0
    #: A seat that is connected but has not published its seed this long after the
    #: game ended refuses the audit.
    audit_timeout: float = 30.0
    #: Host: a seat that stays connected and has not opened the proposal we placed this
    #: long after its Order stops the game (Fault ``unopened``, naming it).
    open_timeout: float = OPEN_WITHIN


class Session:
    """One seat's side of a table (see the module docstring).

    The two-seat constructor: ``role`` says which side of an invitation we are (the
    inviter hosts, seat 0); ``sid``, ``key``, ``peer_addr`` are the pairing's.  Tables of
    more seats are made with :meth:`host_table` and joined with ``table`` and ``seat``.
    """

    def __init__(
        self,
        sid: int,
        role: Role | str,
        key: bytes,
        rules: Rules,
        peer_addr: Addr,
        now: float,
        *,
        entropy: Entropy = os.urandom,
        dealer_factory: DealerFactory = mental_dealer,
        config: SessionConfig | None = None,
        peer_name: str = "",
        name: str = "",
        sas: str = "",
        table: int | None = None,
        seat: int | None = None,
        identity: Identity | None = None,
        own_addr: Addr | None = None,
        _restoring: bool = False,
    ) -> None:
        if len(key) != 32:
            raise ValueError("the session key has 32 bytes")
        self.role = Role(role)
        host = self.role is Role.SEQUENCER
        if seat is None:
            seat = HOST if host else 1
        if not 0 <= seat < rules.players or (seat == HOST) != host:
            raise ValueError(f"seat {seat} of a {rules.players}-seat table, as "
                             f"{self.role.value}")
        if rules.players > 2 and table is None and not host:
            raise ValueError("a table of more than two seats is joined with its table id")
        self._setup(table if table is not None else sid, rules, seat, now, entropy=entropy,
                    dealer_factory=dealer_factory, config=config, name=name,
                    identity=identity, restoring=_restoring, own_addr=own_addr)
        if host:
            self.seating.seat(1, peer_name, "player")
            self._open_link(sid, key, 1, peer_addr, now, peer_name, sas)
            if not _restoring and rules.players == 2:
                self._seating(now, start=True)
        else:
            self.seating.seat(HOST, peer_name, "host")
            self._open_link(sid, key, HOST, peer_addr, now, peer_name, sas)

    @classmethod
    def host_table(cls, table: int, rules: Rules, now: float, *, name: str = "",
                   entropy: Entropy = os.urandom, dealer_factory: DealerFactory = mental_dealer,
                   config: SessionConfig | None = None, clock: int = 0, grace: int = 60,
                   identity: Identity | None = None) -> Session:
        """A table we host, with no player seated yet (see :meth:`seat_player`)."""
        session = cls.__new__(cls)
        session.role = Role.SEQUENCER
        session._setup(table, rules, HOST, now, entropy=entropy, dealer_factory=dealer_factory,
                       config=config, name=name, identity=identity, restoring=False)
        session.clock, session.grace = clock, grace
        return session

    def _setup(self, table: int, rules: Rules, seat: int, now: float, *, entropy: Entropy,
               dealer_factory: DealerFactory, config: SessionConfig | None, name: str,
               identity: Identity | None, restoring: bool, own_addr: Addr | None = None
               ) -> None:
        self.sid = table
        self.table = table
        self.seat = seat
        self.rules = rules
        self.name = name
        self.config = config or SessionConfig()
        self.identity = identity or Identity.generate(entropy)
        #: The hand-over part: the move clock, each seat's state, the seats bots play.
        self.handover = HandOver(rules.players, seat == HOST)
        self.clock = 0
        self.grace = 60
        #: Where the other seats reach us directly (a seated player's heartbeats).
        self.own_addr = addr_text(own_addr)
        own_sig = (self.identity.sign(*addr_signed(table, seat, self.own_addr))
                   if self.own_addr else b"")
        #: The seating part: who sits where (each seat's name, key, kind, address).
        self.seating = SeatingChart(table, rules.players, seat, Player(
            seat, name, self.identity.public, "host" if seat == HOST else "player",
            self.own_addr, own_sig))
        #: The presence part: who is silent since when, whom we hear directly.
        self.presence = Presence(heard_since=now)
        #: The links part: the stream to each other seat (the host) or to the host (a
        #: seated player), by seat and by pairing id; and our heartbeats to the others.
        self.linkage = Links(seat)
        self.beacons = Beacons(table, seat, rules.players, now)
        self.epoch = 1
        self.started = False
        self.closed = False
        self._closing_since: float | None = None
        self._linger_until: float | None = None
        self.close_reason = ""
        #: The resync part: the seats whose link restarted, owed a catch-up on their Sync.
        self.resync = Resync()
        #: Host: a player left after play began; the table ends after the audit.
        self._ending = ""
        #: How often each seat was the durak in this table's finished games.
        self.duraks: Counter[int] = Counter()
        # games
        self.game_no = 0
        #: Our seat's view of the current game (never the full game).
        self.game: Game | None = None
        #: The game log part: every game's entries, as we applied them.
        self.game_log = GameLog()
        #: The deal part: every game's dealer and deal messages, the cards a move opens.
        self.dealing = Dealing(table, seat, rules.players, rules.deck_size, self.identity,
                               entropy, dealer_factory)
        #: The outcomes part: stops, faults, audits due and verdicts, by game.
        self.outcomes = Outcomes()
        #: The proposals part: ours on their way (a seated player), each seat's and the
        #: one placed in the log (the host).
        self.proposals = Proposals()
        # Actions the host refused, and the state (game, log length) they were refused in.
        self._refused: dict[str, str] = {}
        self._refused_state: tuple[int, int] = (0, -1)
        self._last_events: list[Any] = []
        self._finished_reported = 0
        self._replaying = restoring
        self._events: list[Any] = []
        self._journal: list[dict[str, Any]] = []
        if not restoring:
            self._record(
                t="session", version=JOURNAL_VERSION, table=table, seat=seat,
                role=self.role.value, rules=rules.to_dict(), name=name,
                identity=self.identity.private.hex(), addr=self.own_addr,
            )
            self._record(t="epoch", epoch=self.epoch)

    # ================================================================ seating

    def _open_link(self, sid: int, key: bytes, seat: int, addr: Addr, now: float,
                   name: str, sas: str, kind: str = "player") -> Link:
        link = self.linkage.open(sid, key, seat, addr, now, rto=self.config.rto, epoch=self.epoch,
                                 name=name, sas=sas)
        self._record(t="link", sid=sid, key=key.hex(), seat=seat, addr=list(addr), name=name,
                     sas=sas, kind=kind)
        if not self._replaying:
            link.push(Sync(0, self.game_no, len(self.log)), now)
            if self.seat != HOST:
                link.push(self._hello(), now)
        return link

    def _hello(self) -> Hello:
        return self.seating.hello(self.name)

    def seat_player(self, sid: int, key: bytes, addr: Addr, seat: int, name: str, now: float,
                    sas: str = "", kind: str = "player") -> None:
        """Host: a player paired for ``seat`` (its key arrives in its Hello); ``kind``
        ``"bot"`` for a bot the host runs (every seat sees it labelled so)."""
        if self.seat != HOST:
            raise SessionError(N_("only the host seats players"))
        if self.started:
            raise SessionError(N_("the game has started"))
        if seat in self.links or not 0 < seat < self.rules.players:
            raise SessionError(N_("seat {seat} is not free"), seat=seat)
        self.seating.seat(seat, name, kind)
        self._open_link(sid, key, seat, addr, now, name, sas, kind)
        self._seating(now)

    def free_seats(self) -> list[int]:
        """Seats nobody holds yet (host)."""
        return self.seating.free()

    @property
    def players(self) -> dict[int, Player]:
        """Who sits at each seat, as we know it (the seating part's)."""
        return self.seating.players

    def start(self, now: float) -> None:
        """Host: the table is full; deal game 1 (every seat learns it from the Seating)."""
        if self.seat != HOST:
            raise SessionError(N_("only the host starts the table"))
        if self.started:
            return
        missing = self.seating.missing()
        if missing:
            raise SessionError(N_("every seat must be taken (and have said hello) first: "
                                  "{count} not yet"), count=len(missing))
        self._seating(now, start=True)

    def _seating(self, now: float, start: bool = False) -> None:
        """Host: tell every seat who sits where (and, with ``start``, begin)."""
        if start and not self.started and self.seating.missing():
            # A two-seat game starts once the other's Hello is in.
            self.seating.start_when_ready = True
            start = False
        seats = self.seating.infos()
        frame = Seating(0, self.table, seats, self.clock, self.grace, start or self.started)
        for link in self.links.values():
            self._push_to(link, frame, now)
        if start and not self.started:
            self._record(t="start")
            self._begin_play(now)

    def _begin_play(self, now: float) -> None:
        self.started = True
        self.start_next_game(now)

    def _on_hello(self, link: Link, frame: Hello, now: float) -> None:
        wrong = self.seating.take_hello(frame, link.peer_seat, self.seat == HOST)
        if wrong is not None:
            self._violation(wrong, now)
            return
        player = self.players[frame.seat]
        self._record(t="hello", seat=frame.seat, name=frame.name, key=frame.sign_key.hex(),
                     addr=player.addr, addr_sig=player.addr_sig.hex())
        if self.seating.ready():
            self._seating(now, start=True)
        else:
            self._seating(now)
        self._emit(ev.SeatTaken(self.sid, frame.seat, frame.name, now))

    def _on_seating(self, frame: Seating, now: float) -> None:
        if self.seat == HOST:
            self._violation(Note.of("seating_from_player"), now)
            return
        wrong = self.seating.take_seating(frame)
        if wrong is not None:
            self._violation(wrong, now)
            return
        self.clock, self.grace = frame.clock, frame.grace
        self._record(t="seating", seats=self.seating.seating_record(frame), clock=frame.clock,
                     grace=frame.grace, start=frame.start)
        self._emit(ev.TableChanged(self.sid, tuple((i.seat, i.name, i.kind) for i in frame.seats),
                                   frame.start, now))
        if frame.start and not self.started:
            self._begin_play(now)

    # ================================================================ public API

    @property
    def move_clock(self) -> MoveClock:
        """Every seat's deadline, as we keep it (the hand-over part's clock)."""
        return self.handover.clock

    @property
    def seat_state(self) -> dict[int, str]:
        """Seats that are not simply playing: ``"lost"`` (its connection), ``"left"``,
        ``"bot"`` (the hand-over part's)."""
        return self.handover.seat_state

    @property
    def bots(self) -> set[int]:
        """Seats a bot plays while their player is away (the host runs the bot)."""
        return self.handover.bots

    @property
    def clock(self) -> int:
        """Seconds a seat has for a move at this table (0: no clock)."""
        return self.move_clock.seconds

    @clock.setter
    def clock(self, seconds: int) -> None:
        self.move_clock.seconds = seconds

    @property
    def deadlines(self) -> dict[int, float]:
        """When each seat's move clock runs out (``now`` of this seat's driver)."""
        return self.move_clock.deadlines

    @property
    def audits(self) -> dict[int, Verdict]:
        """Audit verdicts by game."""
        return self.outcomes.audits

    @property
    def pending(self) -> dict[int, Action]:
        """Our proposals on their way (pid -> move); the host: its own move held while a
        seat's placed move is opened (pid 0)."""
        return self.proposals.pending

    @property
    def logs(self) -> dict[int, list[LogEntry]]:
        """Every game's log, by game number (the game log part's)."""
        return self.game_log.logs

    @property
    def log(self) -> list[LogEntry]:
        """The current game's log."""
        return self.game_log.of(self.game_no)

    @property
    def in_game(self) -> bool:
        """Is a game dealt and not over (nor stopped)?"""
        return (
            self.game is not None and not self.game.is_over
            and not self.outcomes.stopped(self.game_no)
        )

    @property
    def closing(self) -> bool:
        """Is the session closed, or saying goodbye (no new game can start)?"""
        return self.closed or self._closing_since is not None

    @property
    def dealers(self) -> dict[int, MentalDealer]:
        """Every game's dealer, by game number (the deal part's)."""
        return self.dealing.dealers

    @property
    def dealer(self) -> MentalDealer | None:
        """The current game's dealer (our keys and what we know of the cards)."""
        return self.dealers.get(self.game_no)

    @property
    def refused(self) -> dict[str, str]:
        """The actions the host refused in the current state: text -> reason.  Empty
        once the table has moved on (another entry, another game): a move refused in a
        race may be legal, or the only move, now."""
        if self._refused_state != (self.game_no, len(self.log)):
            return {}
        return self._refused

    def note_refusal(self, action: Action, reason: str, made_on: tuple[int, int]) -> None:
        """The host refused ``action``, which we proposed on the log ``made_on`` (game,
        log length); also when replaying.  It is held against the move only while that
        is the state: a proposal made on an older log was refused for that log (say as
        stale: a seat back from its journal proposes on the view it left, before the
        entries of the host's bot that played for it), and the same move may be legal
        now, even the only one."""
        state = (self.game_no, len(self.log))
        if made_on != state:
            return
        if self._refused_state != state:
            self._refused_state = state
            self._refused = {}
        self._refused[str(action)] = reason

    @property
    def waiting_for_cards(self) -> bool:
        """Have we drawn cards whose keys have not all arrived yet?"""
        dealer = self.dealer
        return self.in_game and dealer is not None and dealer.waiting_for_cards

    @property
    def table_words(self) -> str:
        """Four words everybody at the table compares: a hash of the table id and every
        seat's signing key ("" until every seat's key is known).  A host that showed
        seats different keys (to speak for one of them) makes them differ.  At a table of
        two they hash the pairing words too (a man in the middle makes both differ)."""
        if self.rules.players == 2:  # bound to the words of our one pairing
            return self.seating.words(self.linkage.sas(1 - self.seat))
        return self.seating.words()

    @property
    def names(self) -> list[str]:
        """Each seat's player's name."""
        return self.seating.names()

    # --- the two-seat view of the one link (what the tests and the old API read) ---

    @property
    def links(self) -> dict[int, Link]:
        """The stream to each other seat (the host) or to the host (a seated player)."""
        return self.linkage.by_seat

    @property
    def _drops(self) -> Counter[str]:
        """Datagrams we dropped ourselves, by reason (the links part's counter)."""
        return self.linkage.drops

    @property
    def link(self) -> Link:
        """The only link (a seated player's to the host, a two-seat host's to the other)."""
        if len(self.links) != 1:
            raise SessionError(f"this session has {len(self.links)} links")
        return next(iter(self.links.values()))

    @property
    def peer_seat(self) -> int:
        return self.link.peer_seat

    @property
    def peer_name(self) -> str:
        return self.players[self.peer_seat].name

    @property
    def sas(self) -> str:
        """The pairing words of our (only) link."""
        return self.linkage.sas(self.peer_seat) if len(self.links) == 1 else ""

    @property
    def channel(self) -> Any:
        return self.link.channel

    @property
    def peer_addr(self) -> Addr:
        return self.link.peer_addr

    @peer_addr.setter
    def peer_addr(self, addr: Addr) -> None:
        self.link.peer_addr = addr

    @property
    def peer_epoch(self) -> int:
        return self.link.peer_epoch

    @property
    def lost(self) -> bool:
        """Is any link lost (for a seated player: the host)?"""
        return self.linkage.lost

    @property
    def _last_recv(self) -> float:
        return self.link.last_recv

    @property
    def rendezvous_tag(self) -> bytes:
        return self.link.rendezvous

    @property
    def rendezvous_tags(self) -> list[bytes]:
        """The tags of the links that look for their peer (resumed, or lost)."""
        return self.linkage.rendezvous_tags()

    @property
    def drops(self) -> Counter[str]:
        """Datagrams dropped, by reason, over every link; never raised."""
        return self.linkage.total_drops()

    @property
    def stats(self) -> Counter[str]:
        return self.linkage.total_stats()

    def sids(self) -> list[int]:
        """The pairing ids our links' datagrams carry (the node routes by them), and at a
        table of three or more, a seated player's: the table's heartbeat id."""
        out = self.linkage.sids()
        if self._beacons:
            out.append(beacon_sid(self.table))
        return out

    @property
    def _beacons(self) -> bool:
        """Do we send and take heartbeats between seated players (a seated player at a
        table of three or more)?"""
        return self.beacons.on

    # ================================================================ commands

    def act(self, action: Action, now: float) -> None:
        """Play ``action`` for our seat.

        Raises :class:`~durak_core.IllegalAction` (with the reason) if it is not legal
        in our view of the game, if our drawn cards are still being opened, if the host
        refused this very action in this state, or while our previous proposal is on
        its way; :class:`SessionError` if the session is closed.  The host applies a
        legal action at once; a seated player proposes it, and learns the outcome from
        an :class:`~durak_net.events.ActionApplied` or
        :class:`~durak_net.events.ActionRefused` event.
        """
        if self.closed or self._closing_since is not None:
            raise SessionError(N_("the session is closed"))
        if self.game is None or not self.in_game:
            raise IllegalAction("no game in progress", action)
        if getattr(action, "player", None) != self.seat:
            raise IllegalAction(f"you play seat {self.seat}", action)
        if self.waiting_for_cards:
            raise IllegalAction("your drawn cards are still being dealt; a moment", action)
        reason = self.game.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason, action)
        if self.seat != HOST:
            self._check_proposal_allowed(action)
        elif self.proposals.slot is not None:
            # A seat's move is placed and being opened: ours follows it (or, if that
            # move makes ours illegal, is refused like a proposal overtaken).
            if self.pending:
                raise IllegalAction("your previous move is still on its way", action)
            self.pending[0] = action
            self.proposals.held.append((self.seat, action))
            return
        dealer = self.dealer
        assert dealer is not None
        # The host's move is in the log at once; a proposal opens its cards only when
        # it comes back as an entry (a refused proposal opens nothing).
        commit = self.seat == HOST
        reveals = [r for r in (dealer.reveal(c, commit) for c in action_cards(action))
                   if r is not None]
        pairs = [(r.position, r.key) for r in reveals]
        if self.seat == HOST:
            self._append(action, 0, pairs, now)
        else:
            self._propose(action, pairs, now)

    def start_next_game(self, now: float, game: int | None = None) -> int:
        """Agree to deal the next game (a rematch); returns its number.

        The game starts when every seat agrees (the others get a
        :class:`~durak_net.events.NextGameRequested` event). ``game`` names the game
        agreed to, e.g. the one of a ``NextGameRequested`` event: agreeing to a game
        that has already been dealt meanwhile does nothing and returns its number.
        """
        if self.closed or self._closing_since is not None:
            raise SessionError(N_("the session is closed"))
        if not self.started:
            raise SessionError(N_("the table has not started"))
        if game is not None and game <= self.game_no:
            return game
        if (self.game is not None and not self.game.is_over
                and not self.outcomes.stopped(self.game_no)):
            raise SessionError(N_("the current game is not over"))
        number = self.game_no + 1
        dealer = self._dealer(number)
        if not dealer.began:
            self._record(t="begin", game=number)
            self._deal_out(number, dealer.begin(), now)
            self._maybe_deal(number, now)
        return number

    def close(self, now: float, reason: str = "") -> None:
        """Say goodbye; the session ends when every link acknowledges (or after a
        timeout).  A game in progress is left: our seed is published first, so the
        others can still audit the cards played so far."""
        if self.closed or self._closing_since is not None:
            return
        number = self.game_no
        dealer = self.dealer
        if dealer is not None and dealer.locked is not None and number not in self.outcomes.audits:
            if self.in_game:
                self.outcomes.broken.add(number)
                self._set_stop(number, Stop(self.seat, len(self.log), "left the game", False))
            self._publish_seed(number, now)
        self.close_reason = reason
        self._closing_since = now
        self._broadcast(Bye(0, reason[:200]), now)
        self._record(t="bye", reason=reason[:200])

    def finished(self, now: float) -> bool:
        """Closed and past lingering: the driver may forget this session."""
        return self.closed and (self._linger_until is None or now >= self._linger_until)

    def events(self) -> list[Any]:
        """Events since the last call (see :mod:`durak_net.events`)."""
        out, self._events = self._events, []
        return out

    def journal_records(self) -> list[dict[str, Any]]:
        """Journal records since the last call; append them before sending datagrams."""
        out, self._journal = self._journal, []
        return out

    # ============================================================ datagram I/O

    def receive(self, data: bytes, addr: Addr, now: float) -> None:
        """Take in one datagram.  Anything not authentic and well-formed is dropped and
        counted in :attr:`drops`; nothing is ever raised."""
        try:
            sid = session_id_of(data)
            link = self.linkage.route(sid)
            if link is None and self._beacons and sid == beacon_sid(self.table):
                self._on_beacon(decode_beacon(data), now)
                return
            if link is None:
                raise WireError("unknown_session", "another session's datagram")
            packet = link.open(data)
        except WireError as exc:
            self._drops[exc.counter] += 1
            return
        arrival = link.accept(packet, addr, now)
        if (arrival.restarted or arrival.back) and self.seat != HOST:
            self.move_clock.away(now)
        if arrival.restarted or arrival.back:
            self.proposals.wait_again(link.peer_seat, now)
        if arrival.restarted:
            self._peer_restarted(link, now)
        if not arrival.accepted:
            return
        if arrival.back:
            self._emit(ev.PeerBack(self.sid, now, seat=link.peer_seat))
            self.presence.back(link.peer_seat)
            if self.handover.back(link.peer_seat):  # the seat is its player's again
                self._record(t="back", seat=link.peer_seat)
                dealer = self.dealer
                if dealer is not None and link.peer_seat in dealer.adopted:
                    # Told at once: its hand was opened to every seat while it was away.
                    self._push_to(link, Status(0, link.peer_seat, "opened",
                                               str(self.game_no)), now)
            if self.seat == HOST:
                self._broadcast(Status(0, link.peer_seat, "back"), now, but=link.peer_seat)
        for frame in link.frames(packet):
            try:
                self._handle(link, frame, now)
            except Exception as exc:  # a bug must not kill the receiving thread
                self._drops["internal_error"] += 1
                note = Note.of("internal", error=repr(exc))
                self._emit(ev.ProtocolViolation(self.sid, note.english(()), now, note))
        self._check_closed(now)

    def timer(self, now: float) -> None:
        """Let time pass: detect a silent seat, give up a goodbye nobody acknowledges,
        and name a connected seat that withholds its seed from the audit."""
        if not self.closed:
            for seat, silent in self.linkage.silent(now, self.config.lost_after):
                self._emit(ev.PeerLost(self.sid, silent, now, seat=seat))
                self.handover.lost(seat)
                self.presence.lost(seat, now - silent)
                if self.seat == HOST:
                    self._broadcast(Status(0, seat, "lost"), now, but=seat)
            if (self.seat == HOST and self.deadlines and self.in_game
                    and self.proposals.slot is None):
                for seat in self.move_clock.expired(now):
                    if self.in_game:
                        self._clock_ran_out(seat, now)
            opened_by = self._open_due()
            if opened_by is not None and now >= opened_by:
                self._unopened(now)
            handover = self._handover_due()
            if handover is not None and now >= handover[1]:
                self._hand_over(handover[0], now)
            self._check_abandoned(now)
            stall = self._stall_due()
            if stall is not None and now >= stall[0]:
                self._stalled(stall, now)
            if self.presence.share_wait:
                self._release_shares(now)
        waiting = self.lost or self.handover.waiting_on_silence()
        due, overdue = audits_due(self.outcomes.audit_due, now, waiting=waiting,
                                  timeout=self.config.audit_timeout)
        if waiting:  # a lost seat is waited for (it may resume)
            self.outcomes.audit_due.update(due)
        for number in overdue:
            self._conclude(number, now, refused=True)
        self._check_closed(now)

    def next_timer(self) -> float | None:
        """When :meth:`timer` (or :meth:`datagrams_to_send`) next has work to do."""
        if self.closed:
            return None  # lingering is the driver's business (see finished())
        return self._deadlines().next()

    def _deadlines(self) -> Deadlines:
        """Every deadline we wait for (see :mod:`durak_net.timers`)."""
        config = self.config
        audit_due = self.outcomes.audit_due  # (asked whether a seat is lost only if any)
        waiting = bool(audit_due) and (self.lost or self.handover.waiting_on_silence())
        clock = self.seat == HOST and self.in_game and self.proposals.slot is None
        share_wait = self.presence.share_wait
        return Deadlines(
            links=self.linkage.next_timer(config.heartbeat, config.lost_after),
            audits=() if waiting else tuple(audit_due.values()),
            closing=None if self._closing_since is None else (
                self._closing_since + config.close_timeout),
            clock=self.move_clock.next_deadline() if clock else None,
            handover=self._handover_due(), opened_by=self._open_due(),
            abandon=self._abandon_times(),
            beacon=self.beacons.due(bool(self.players[self.seat].addr), self.closing),
            releases=tuple([self._release_time(s) for s in share_wait]) if share_wait else (),
            stall=stall[0] if (stall := self._stall_due()) is not None else None)

    def datagrams_to_send(self, now: float) -> list[tuple[bytes, Addr]]:
        """The datagrams to send now: new frames, retransmissions, acks, heartbeats."""
        out = self.linkage.datagrams_to_send(now, self.config.heartbeat, quiet=self.closed)
        if self.beacons.due(bool(self.players[self.seat].addr), self.closing) is not None \
                and not self._replaying:
            out += self.beacons.send(now, self.config.heartbeat, self.identity, self.players)
        return out

    def _on_beacon(self, beacon: Beacon, now: float) -> None:
        """Another seated player's heartbeat, straight from it: it is there."""
        if not self.beacons.check(beacon, self._keys()):
            self._drops["bad_beacon"] += 1
            return
        self.presence.heard_from(beacon.seat, now)

    def _release_shares(self, now: float) -> None:
        """Publish our share of each seat the host handed to a bot once we ourselves have
        not heard it for the grace period: a host that says a seat is lost while it is
        still there (to open its hand) gets no share from us."""
        for seat, game in list(self.presence.share_wait.items()):
            if game != self.game_no or not self.in_game or seat not in self.seat_state:
                del self.presence.share_wait[seat]
                continue
            if now >= self._release_time(seat):
                del self.presence.share_wait[seat]
                self._publish_share(seat, now)

    def _release_time(self, seat: int) -> float:
        """When we may publish our share of ``seat``: the grace period after we last
        heard it ourselves (or could have); never, for a seat that gave us no address."""
        return self.presence.release_time(seat, self.grace, bool(self.players[seat].addr))

    # ================================================================ frames

    def _handle(self, link: Link, frame: Frame, now: float) -> None:
        if isinstance(frame, Entry):
            self._on_entry(link, frame, now)
        elif isinstance(frame, Propose):
            self._on_propose(link, frame, now)
        elif isinstance(frame, Order):
            self._on_order(link, frame, now)
        elif isinstance(frame, Open):
            self._on_open(link, frame, now)
        elif isinstance(frame, Deal):
            self._on_deal(link, frame, now)
        elif isinstance(frame, Refused):
            self._on_refused(link, frame, now)
        elif isinstance(frame, Hello):
            self._on_hello(link, frame, now)
        elif isinstance(frame, Seating):
            if link.peer_seat == HOST:
                self._on_seating(frame, now)
        elif isinstance(frame, Sync):
            self._on_sync(link, frame, now)
        elif isinstance(frame, Fault):
            self._on_fault(link, frame, now)
        elif isinstance(frame, Status):
            if self.seat != HOST and link.peer_seat == HOST:
                self._on_status(frame, now)
        elif isinstance(frame, Bye) and not self.closed:
            self._on_bye(link, frame, now)

    def _on_bye(self, link: Link, frame: Bye, now: float) -> None:
        seat = link.peer_seat
        number = self.game_no
        if self.seat == HOST and len(self.links) > 1 and not self.started:
            # Before play a player may just get up: its seat opens again.
            self._record(t="left", seat=seat, reason=frame.reason[:200])
            self.open_seat_again(seat)
            self._broadcast(Status(0, seat, "left", frame.reason[:200]), now)
            self._seating(now)
            self._emit(ev.SeatStatus(self.sid, seat, "left", frame.reason, now))
            return
        if self.seat == HOST and len(self.links) > 1:
            self._seat_left(seat, frame.reason, now)
            return
        self._record(t="bye", reason=frame.reason, by_peer=True, seat=seat)
        if self.in_game:  # a seat left mid-game: audit what was played
            self.outcomes.broken.add(number)
            self._set_stop(number, Stop(seat, len(self.log), "left the game", False))
        self.closed = True
        self._linger_until = now + self.config.linger
        self.close_reason = frame.reason
        dealer = self.dealers.get(number)
        if dealer is not None and dealer.locked is not None and (
            self._audit_under_way(number)
        ):
            self._publish_seed(number, now)
            silent = sorted((self.presence.reported_lost.get(s, now), s)
                            for s in self.handover.silent(dealer.seeds))
            if silent and not dealer.seeds_in and number not in self.outcomes.audits:
                # The host gave up on a seat it reported lost: that seat is the one
                # that went silent, not one that refused the audit.
                self._abandon(number, silent[0][1], silent[0][0], now)
            self._conclude(number, now, refused=not dealer.seeds_in)
        self._emit(ev.SessionClosed(self.sid, frame.reason, True, now))

    def open_seat_again(self, seat: int) -> None:
        """Host: the player of ``seat`` got up before play (its Bye, or the journal's
        ``left`` record): its link is gone and the seat is open again."""
        self.linkage.remove(seat)
        self.seating.open_again(seat)

    def _seat_left(self, seat: int, reason: str, now: float) -> None:
        """Host: a seated player said goodbye after play began.  The game in progress
        stops and is audited by everyone (the player published its seed before its Bye,
        and we passed it on); then the table ends."""
        name = self.players[seat].name or f"seat {seat}"
        self._record(t="gone", seat=seat, reason=reason[:200])
        self.handover.reported(seat, "left")
        self._broadcast(Status(0, seat, "left", reason[:200]), now, but=seat)
        self._emit(ev.SeatStatus(self.sid, seat, "left", reason, now))
        self._ending = f"{name} left the table"
        number = self.game_no
        if self.in_game:
            self.outcomes.broken.add(number)
            self._set_stop(number, Stop(seat, len(self.log), "left the game", False))
            self._publish_seed(number, now)  # the audit ends the table (see _conclude)
            return
        if self._audit_under_way(number):
            return  # the audit under way ends the table
        self.close(now, self._ending)

    def _audit_under_way(self, number: int) -> bool:
        """Is game ``number`` waiting for its audit (our seed out, or stopped)?"""
        out = self.outcomes
        return number in out.audit_due or (number in out.stops and number not in out.audits)

    def _on_status(self, frame: Status, now: float) -> None:
        """A seated player: the host reports a seat lost, back, or gone, or that our
        move clock ran out while we must lead."""
        if frame.state == "timeout":
            if frame.seat == self.seat and frame.detail == f"{self.game_no}:{len(self.log)}":
                if self._clock_early(now) is not None:
                    # Our own clock has not run out: nothing is led for us.  (A nudge is
                    # no entry: ignoring it costs the table nothing.)
                    self._drops["early_clock"] += 1
                    return
                self._emit(ev.SeatStatus(self.sid, frame.seat, "timeout", "", now))
                if self.due(self.seat) == "lead":
                    self._lead_cheapest(now, forced="timeout")
            return
        if frame.state == "opened":
            if frame.seat == self.seat:
                self._emit(ev.SeatStatus(self.sid, frame.seat, "opened", frame.detail, now))
            return
        if frame.state in ("lost", "left", "bot", "back"):
            self.handover.reported(frame.seat, frame.state)
            self.presence.reported(frame.seat, frame.state, now)
        # A "bot" status carries the game number (for the share below), not words.
        detail = "" if frame.state == "bot" else frame.detail
        self._emit(ev.SeatStatus(self.sid, frame.seat, frame.state, detail, now))
        if frame.state == "bot" and frame.seat != self.seat and frame.detail == str(
                self.game_no) and self.in_game:
            # Open its hand, as every seat does, once we ourselves have not heard it for
            # the grace period either (the host's word alone is no evidence).
            self.presence.share_wait[frame.seat] = self.game_no
            self._release_shares(now)
        if frame.state == "left" and self.started and frame.seat != self.seat and self.in_game:
            # The game cannot go on without it: stop it, and publish our seed for the
            # audit of what was played (the host ends the table afterwards).
            number = self.game_no
            self.outcomes.broken.add(number)
            self._set_stop(number, Stop(frame.seat, len(self.log), "left the game", False))
            self._publish_seed(number, now)

    # --------------------------------------------------------------- dealing

    def _dealer(self, number: int, seed: bytes | None = None) -> MentalDealer:
        dealer = self.dealers.get(number)
        if dealer is None:
            previous = None
            if self.rules.match and self.game is not None and self.game.is_over:
                previous = self.game.durak
            dealer = self.dealing.make(number, previous, self._keys(), seed)
            self._record(t="dealer", game=number, seed=dealer.seed.hex(), previous=previous)
        return dealer

    def _deal_out(self, number: int, messages: list[bytes], now: float) -> None:
        for frame in self.dealing.sign(number, messages):
            self._broadcast(frame, now)

    def _on_deal(self, link: Link, frame: Deal, now: float) -> None:
        number = frame.game
        author = frame.seat
        # The host checks the signature of what it will pass on (it came over the
        # author's own link, so a bad one is the author's); a seated player keeps it and
        # checks it only if the audit blames its author (see _conclude).
        wrong = self.dealing.check(frame, link_seat=link.peer_seat, game_no=self.game_no,
                                   keys=self._keys())
        if wrong is not None:
            self._violation(wrong, now)
            return
        if self.dealing.stale(number, self.game_no):
            return
        self.dealing.keep(frame)
        if self.seat == HOST:
            self._broadcast(frame, now, but=author)  # pass it on to every other seat
        dealer = self._dealer(number)
        self._record(t="dealmsg", game=number, seat=author, data=frame.data.hex(),
                     sig=frame.sig.hex())
        try:
            replies = dealer.receive(frame.data, author)
        except DealFault as fault:
            self._fault(number, fault, now)
            return
        self._deal_out(number, replies, now)
        self._after_deal_message(number, now)

    def replay_deal(self, frame: Deal, now: float) -> None:
        """A journal's deal message (``dealmsg``), taken in again as it was received."""
        number = frame.game
        self.dealing.keep(frame)
        self._deal_out(number, self.dealers[number].receive(frame.data, frame.seat), now)
        self._after_deal_message(number, now)

    def _after_deal_message(self, number: int, now: float) -> None:
        if number == self.game_no and self.game is not None and self.in_game:
            self._take_new_cards(now)
            self._after_change(now)
        self._maybe_request(now)
        self._maybe_deal(number, now)
        self._maybe_audit(number, now)

    def _take_new_cards(self, now: float) -> None:
        """Reveal our drawn cards to our view once their keys are in."""
        dealer = self.dealer
        if dealer is None or self.game is None:
            return
        try:
            fresh = dealer.new_cards()
        except DealFault as fault:
            self._fault(self.game_no, fault, now)
            return
        if fresh:
            self.game.reveal(self.seat, fresh)
            self._emit(ev.CardsRevealed(self.sid, self.game_no, self.seat, tuple(fresh), now))
        self._reveal_open_hands(now)

    def _reveal_open_hands(self, now: float) -> None:
        """The hands of seats whose seed was rebuilt (handed to a bot) are open to every
        seat: show their cards in our view as they become known."""
        if self.game is None:
            return
        try:
            for seat, fresh in self.dealing.open_hands(self.game_no, self.game):
                self._emit(ev.CardsRevealed(self.sid, self.game_no, seat, tuple(fresh), now))
        except DealFault as fault:
            self._fault(self.game_no, fault, now)

    def _maybe_request(self, now: float) -> None:
        """Tell the application once that another seat wants the next game."""
        number = self.dealing.request(self.game_no, self.in_game)
        if number is not None:
            self._emit(ev.NextGameRequested(self.sid, number, now))

    def _maybe_deal(self, number: int, now: float) -> None:
        # A session that is ending deals no new game.
        ending = self._closing_since is not None or (self.closed and not self._replaying)
        try:
            dealer = self.dealing.ready(number, self.game_no, ending=ending,
                                        stopped=number in self.outcomes.broken)
        except DealFault as fault:
            self._fault(number, fault, now)
            return
        if dealer is None:
            return
        self.game_no = number
        self.game = dealer.deal(self.rules)
        self.game_log.begin(number)
        self._emit(ev.GameStarted(self.sid, number, self.seat, self.game.public_hash(), now,
                                  shown=dealer.shown_trump))
        self._restart_clock(now)
        self._after_change(now)

    # ------------------------------------------------------------ sequencing

    def _append(self, action: Action, pid: int, reveals: list[tuple[int, bytes]],
                now: float, proposal: Propose | None = None, forced: str = "",
                salt: bytes = b"") -> None:
        """Host: apply a checked action (its reveals checked too) and log it."""
        assert self.game is not None
        index = len(self.log)
        digest, keys = self._apply(action)
        seen, seen_hash, sig = (proposal.seen, proposal.seen_hash, proposal.sig) if (
            proposal is not None) else (0, b"", b"")
        entry = self.game_log.signed(self.game_no, LogEntry(
            str(action), bytes.fromhex(digest), pid, tuple(reveals), seen, seen_hash, sig,
            forced, salt), self.identity, self.table)
        self.game_log.add(self.game_no, entry)
        if pid:
            self.proposals.applied(action.player, pid)
        self._record(**entry.record(self.game_no, index))
        self._broadcast(entry.frame(self.game_no, index), now)
        voided, self.proposals.voided = self.proposals.voided, []
        for seat, frame in voided:
            link = self.links.get(seat)
            if link is None:
                continue
            self._refuse(link, frame.pid, f"placed at entry {index}, which a bot played for "
                         "this seat while it was away", now)
        self._deal_out(self.game_no, keys, now)  # our keys for the cards others drew
        self._after_apply(action, index, digest, now, forced)

    def _apply(self, action: Action) -> tuple[str, list[bytes]]:
        """Apply an action to our view: the public hash after it, and the dealer messages
        with our keys for the cards another seat drew (to send after the entry)."""
        assert self.game is not None
        self._last_events = self.game.apply(action)
        dealer = self.dealer
        assert dealer is not None
        keys: list[bytes] = []
        for e in self._last_events:
            if isinstance(e, Drew):
                keys += dealer.drawn(e.player, len(e.cards))
        return self.game.public_hash(), keys

    def _after_apply(self, action: Action, index: int, digest: str, now: float,
                     forced: str = "") -> None:
        self._emit(
            ev.ActionApplied(self.sid, self.game_no, index, action, tuple(self._last_events),
                             action.player == self.seat, digest, now, forced)
        )
        self._take_new_cards(now)
        self._restart_clock(now)
        self._after_change(now)

    # ------------------------------------------------------------- the clock

    def due(self, seat: int) -> str | None:
        """What the game waits for from ``seat``, if anything: ``"take"``, ``"pass"``,
        ``"lead"`` (see :func:`durak_net.handover.due`); None when nothing depends on it
        now.  Public information only: every seat agrees."""
        return seat_due(self.game, seat) if self.in_game else None

    def _restart_clock(self, now: float) -> None:
        """After every entry (and a new deal): each seat the game waits for has the
        table's ``clock`` seconds."""
        self.handover.restart_clock(now, self.game, self.in_game)

    def _stall_clocks(self) -> dict[int, float]:
        """The move clocks by which the host owes us an entry (see
        :func:`~durak_net.timers.owed_clocks`)."""
        return owed_clocks(self.move_clock.deadlines, me=self.seat, host=HOST,
                           away=self.seat_state, due=self.due)

    def _stall_due(self) -> tuple[float, str, int] | None:
        """A seated player whose host it still hears: when the host has kept it waiting
        too long (:func:`~durak_net.timers.stall_due`), while a game is in play here."""
        if (self.seat == HOST or self.closed or not self.in_game or self.lost
                or self._replaying or self.game_no in self.outcomes.stops
                or self.waiting_for_cards):  # (the deal's keys: the dealer's to judge)
            return None
        return stall_due(self.proposals.unordered(self.game_no), self._stall_clocks(),
                         bound=stall_bound(self.grace), allowance=CLOCK_ALLOWANCE,
                         judged_from=self.move_clock.away_until)

    def _stalled(self, stall: tuple[float, str, int], now: float) -> None:
        """The host, still heard, kept us waiting past the bound: stop the game naming
        it (every honest seat then names the host or nobody: section 7 of the spec)."""
        _, code, which = stall
        bound = round(stall_bound(self.grace))
        note = (Note.of("stalled", seconds=bound) if code == "stalled"
                else Note.of("stalled_clock", seat=Seat(which), seconds=bound))
        self._stop(self.game_no, HOST, code, note, now)

    def _stall_seen(self, frame: Fault, now: float) -> bool:
        """Another seat's ``stalled_clock`` against the host, where our log is as long
        as the finder's: does our own clock bear it out (a third seat can check it)?"""
        return (frame.code == "stalled_clock" and frame.seat == HOST
                and self.seat not in (HOST, frame.by) and frame.game == self.game_no
                and frame.index == len(self.log) and clock_stall_seen(
                    self._stall_clocks(), now, bound=stall_bound(self.grace),
                    judged_from=self.move_clock.away_until))

    def _clock_ran_out(self, seat: int, now: float) -> None:
        """Host: ``seat`` did not move in time.  Take and pass need no card: the host
        plays them (a forced entry, "timeout").  A lead needs a card only the seat can
        open: the host tells the seat its time is up, and its peer leads its cheapest
        card (a seat whose peer is gone waits for the grace period)."""
        self.move_clock.stop(seat)
        due = self.due(seat)
        game = self.game
        if due is None or game is None:
            return
        if due == "take":
            self._append(Take(seat), 0, [], now, forced="timeout")
        elif due == "pass":
            self._append(Pass(seat), 0, [], now, forced="timeout")
        elif seat == self.seat:
            self._lead_cheapest(now, forced="timeout")
        else:
            state = (self.game_no, len(self.log))
            self.handover.nudge(seat, state)
            link = self.links.get(seat)
            if link is not None:
                self._push_to(link, Status(0, seat, "timeout", f"{state[0]}:{state[1]}"), now)

    # ------------------------------------------------------ lost seats to bots

    def _open_due(self) -> float | None:
        """Host: when the proposal we placed is overdue, if its seat is connected (a
        lost seat is waited for as such: hand-over or abandon)."""
        slot = self.proposals.slot
        if slot is None or self.seat != HOST:
            return None
        link = self.links.get(slot.seat)
        return open_due(self.proposals.open_due(self.config.open_timeout), placed_game=slot.game,
                        game_no=self.game_no, in_game=self.in_game,
                        seat_lost=link is None or link.lost)

    def _unopened(self, now: float) -> None:
        """Host: a connected seat did not open the proposal we placed: it stalls the
        table.  The game stops on a Fault naming it, which carries its signed Propose
        and our signed Order (the others see the place was the log it made it on; that
        it never opened, only we can see: theirs is a verdict of ``disputed``)."""
        slot = self.proposals.slot
        assert slot is not None
        waited = round(now - slot.since)
        self._stop(self.game_no, slot.seat, "unopened", Note.of(
            "never_opened", index=slot.index, seconds=waited), now,
            proof=evidence(slot.frame, self._order(slot)))

    def _handover_due(self) -> tuple[int, float] | None:
        """Host: the lost seat whose grace period ends first, and when (None: none can
        be handed over)."""
        if not self.presence.lost_since:  # nobody is lost (the common case, asked at every timer)
            return None
        return self.handover.handover_due(self.presence, grace=self.grace,
                                          in_game=self.in_game,
                                          can_hand_over=self._can_hand_over)

    def _can_hand_over(self, seat: int) -> bool:
        """Host: could a bot take lost ``seat`` over now (its seed can be rebuilt, and the
        others can check for themselves that it is gone: it gave them an address to
        hear it at)?"""
        dealer = self.dealer
        return (self.seat == HOST and bool(self.grace) and self.rules.players >= 3
                and self.in_game and dealer is not None and dealer.done
                and seat not in self.bots and dealer.can_rebuild(seat)
                and seat not in dealer.bad_escrows and bool(self.players[seat].addr))

    # ------------------------------------------------------ abandoned games

    def _abandon_times(self) -> dict[int, tuple[float, float]]:
        """When each silent seat's game is abandoned, by seat: ``(when, silent since)``
        (see :meth:`HandOver.abandon_times`); none once we are closing."""
        presence = self.presence
        if not presence.lost_since and not presence.reported_lost:
            return {}
        if self.closed or self._closing_since is not None:
            return {}
        dealer = self.dealer
        return self.handover.abandon_times(
            presence, grace=self.grace, audit_timeout=self.config.audit_timeout,
            in_game=self.in_game, adopted=dealer.adopted if dealer is not None else (),
            can_hand_over=self._can_hand_over)

    def _check_abandoned(self, now: float) -> None:
        """A seat silent for the whole grace period: its game (in play, or waiting for
        its seed for the audit) ends with a verdict, and the table ends."""
        found = abandoned(self._abandon_times(), now)
        if found is None:
            return
        since, seat = found
        out = self.outcomes
        number = game_to_abandon(
            self.dealers, game_no=self.game_no, in_game=self.in_game,
            over=self.game is not None and self.game.is_over, audited=out.audits,
            audit_due=out.audit_due, stopped=out.stops,
            began={n: d.began for n, d in self.dealers.items()})
        if number is not None:
            self._abandon(number, seat, since, now)

    def _abandon(self, number: int, seat: int, since: float, now: float) -> None:
        """Settle game ``number`` without ``seat``, silent since ``since``: the fault we
        saw ourselves if we stopped the game on evidence, else ``abandoned``."""
        names = self.names
        names[self.seat] = self.name or "you"
        who = names[seat]
        silent = now - since
        self._record(t="abandon", game=number, seat=seat, silent=round(silent, 3))
        if number not in self.outcomes.stops:
            self.outcomes.broken.add(number)
            self._set_stop(number, Stop(seat, len(self.logs.get(number, [])),
                                        "went silent", False))
        self._publish_seed(number, now)  # for a seat that is back before we are gone
        if number in self.outcomes.audits:
            return  # (its seed was in after all)
        heard = self.presence.heard.get(seat, float("-inf")) if seat not in self.links else None
        verdict = self.outcomes.abandon_verdict(number, seat, silent, names, me=self.seat,
                                                heard_ago=None if heard is None else now - heard,
                                                wait=abandon_after(self.grace))
        self._ending = f"{who} went silent"
        self._settle(number, verdict, now, silent=(seat, since))

    def _hand_over(self, seat: int, now: float) -> None:
        """Host: ``seat`` has been lost for the grace period: a bot plays it from now on
        (every seat publishes its share of the seat's seed, so its hand opens to all),
        until its player is back."""
        self.handover.hand_over(seat)
        self._record(t="handover", seat=seat)
        slot = self.proposals.void(seat)
        if slot is not None:
            # Its placed move never came: the place is void, and the proposal is refused
            # after the next entry (so as one the table moved past).
            self.proposals.voided.append((seat, slot.frame))
        self._broadcast(Status(0, seat, "bot", str(self.game_no)), now, but=seat)
        self._emit(ev.SeatStatus(self.sid, seat, "bot", "", now))
        self._publish_share(seat, now)
        if self.proposals.slot is None:
            self._drain(now)

    def _publish_share(self, seat: int, now: float) -> None:
        dealer = self.dealer
        if dealer is None:
            return
        self._record(t="share", game=self.game_no, seat=seat)
        self._deal_out(self.game_no, dealer.share(seat), now)
        self._reveal_open_hands(now)
        self._after_change(now)

    def play_for(self, seat: int, action: Action, now: float) -> None:
        """Host: the bot that plays lost seat ``seat`` makes its move (the node's bot
        calls this).  Raises :class:`~durak_core.IllegalAction` as :meth:`act` does."""
        if self.seat != HOST or seat not in self.bots:
            raise SessionError(f"seat {seat} is not played by a bot of ours")
        game, dealer = self.game, self.dealer
        if game is None or dealer is None or not self.in_game:
            raise IllegalAction("no game in progress", action)
        if getattr(action, "player", None) != seat:
            raise IllegalAction(f"the bot plays seat {seat}", action)
        if seat not in dealer.adopted or game.unknown_count(seat):
            raise IllegalAction(f"seat {seat}'s cards are still being opened", action)
        reason = game.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason, action)
        if self.proposals.slot is not None:  # after the move being opened (one per seat)
            if all(s != seat for s, _ in self.proposals.held):
                self.proposals.held.append((seat, action))
            return
        hidden = set(dealer.hand_of(seat))
        known = self._open_to_all(seat)
        reveals: list[tuple[int, bytes]] = []
        for card in action_cards(action):
            if card not in hidden and card not in known:
                raise IllegalAction(f"seat {seat} does not hold {card}", action)
        for card in action_cards(action):
            if card in hidden:
                reveal = dealer.reveal_for(seat, card)
                if reveal is None:  # pragma: no cover (hand_of just opened it)
                    raise IllegalAction(f"{card} cannot be opened", action)
                dealer.commit_reveal(seat, card, reveal)
                reveals.append((reveal.position, reveal.key))
        self._append(action, 0, reveals, now, forced="bot")

    def _lead_cheapest(self, now: float, forced: str = "") -> None:
        """Our seat leads its cheapest card (non-trumps first, then by rank)."""
        game = self.game
        if game is None or self.waiting_for_cards:
            return
        trump = game.trump_suit
        leads = [a for a in game.legal_actions(self.seat)
                 if isinstance(a, Attack) and not a.more]
        if not leads:
            return
        action = min(leads, key=lambda a: (a.card.suit == trump, a.card.rank, a.card.index))
        if self.seat == HOST:
            dealer = self.dealer
            assert dealer is not None
            reveals = [(r.position, r.key) for r in (dealer.reveal(action.card),)
                       if r is not None]
            self._append(action, 0, reveals, now, forced=forced)
        elif not self.pending:
            self.act(action, now)
            if forced == "timeout" and self.pending:  # (our screen marks it so)
                self.proposals.timeout_pids.add(max(self.pending))

    def _clock_early(self, now: float) -> float | None:
        """A seated player told its time is up: how long its own clock still runs, if
        more than the allowance (see :meth:`MoveClock.early`)."""
        return None if self._replaying else self.move_clock.early(self.seat, now)

    def _check_reveals(self, seat: int, action: Action, reveals: list[tuple[int, bytes]],
                       now: float, commit: bool = True, proof: list[bytes] | None = None
                       ) -> bool:
        """Check the cards another seat opens with ``action``; a fault stops the game
        (its Fault carrying ``proof``).  ``commit=False``: only check (a proposal, which
        may yet be refused)."""
        fault = self._reveal_fault(seat, action, reveals, commit)
        if fault is not None:
            self._fault(self.game_no, fault, now, proof)
            return False
        return True

    def _reveal_fault(self, seat: int, action: Action, reveals: list[tuple[int, bytes]],
                      commit: bool) -> DealFault | None:
        """What is wrong with the cards ``seat`` opens with ``action`` (None: nothing)."""
        assert self.game is not None and self.dealer is not None
        return self.dealing.reveal_fault(self.dealer, self.game, seat, action, reveals, commit)

    def _opening_fault(self, seat: int, frame: Open) -> bool:
        """Is seat ``seat``'s opening ``frame`` (proven its own: see
        :func:`~durak_net.proposals.opened_as_committed`) at fault on our own log: an
        unreadable move, another seat's, a card not proven, or a move the rules refuse?"""
        if self.game is None or not self.in_game:
            return False
        try:
            action = parse_action(frame.action)
        except ValueError:
            return True
        if action.player != seat:
            return True
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        if self._reveal_fault(seat, action, reveals, commit=False) is not None:
            return True
        return self.game.why_illegal(action) is not None

    def _check_own_bot_move(self, action: Action, reveals: list[tuple[int, bytes]],
                            index: int, now: float) -> bool:
        """A bot played our seat while we were away: its cards must be ours, opened with
        our own keys (the others rebuilt our seed)."""
        dealer = self.dealer
        assert dealer is not None and self.game is not None
        pending = list(reveals)
        for card in action_cards(action):
            if dealer.hidden_position(card) is None:
                continue  # open to all already (picked up, shown)
            if not pending or not dealer.check_own_reveal(card, Reveal(*pending.pop(0))):
                self._stop(self.game_no, HOST, "forged", Note.of(
                    "bot_cards_not_ours", index=index, move=action), now)
                return False
        if pending:
            self._stop(self.game_no, HOST, "forged", Note.of("bot_opens_more", index=index),
                       now)
            return False
        for card in action_cards(action):
            dealer.reveal(card)
        return True

    def _open_to_all(self, seat: int) -> set[Card]:
        """The cards of ``seat``'s hand every seat knows without a reveal (picked up
        from the table, shown, the open trump): what our view knows of that hand, but
        for the cards of an open hand (a seat handed to a bot) that were never opened."""
        assert self.game is not None and self.dealer is not None
        return self.dealing.open_to_all(self.dealer, self.game, seat)

    def _refuse(self, link: Link, pid: int, reason: str, now: float,
                game: int | None = None) -> None:
        """Refuse a proposal (before it is opened), saying at which log length (of the
        proposal's ``game``)."""
        seat = link.peer_seat
        at = len(self.logs.get(self.game_no if game is None else game, []))
        self.proposals.refused(seat, pid, reason, at)
        self._record(t="refused", seat=seat, pid=pid, reason=reason[:200], at=at)
        self._push_to(link, self._refusal(seat, pid, reason, at,
                                          self.game_no if game is None else game), now)
        self._emit(ev.PeerActionRefused(self.sid, "", reason, now, seat=seat, pid=pid))

    def _refusal(self, seat: int, pid: int, reason: str, at: int, game: int) -> Refused:
        """Host: a Refused, signed (the proposer may show it to every seat)."""
        sig = self.identity.sign(*refused_signed(self.table, game, seat, pid, at))
        return Refused(0, pid, reason[:200], at, sig)

    def _on_propose(self, link: Link, frame: Propose, now: float) -> None:
        """A seat's commitment to a move: placed at the next index of our log if it was
        made on our log, else refused (unopened: we see no card of a proposal we refuse);
        the proposals part decides (:meth:`Proposals.answer`)."""
        seat = link.peer_seat
        if self.seat != HOST:
            self._violation(Note.of("proposal_from_host"), now)
            return
        answer = self.proposals.answer(seat, frame, table=self.table,
                                       key=self.players[seat].sign_key, game=self.game_no,
                                       in_game=self.in_game, log=self.game_log, now=now)
        kind = answer.kind
        if kind == "reused":
            self._push_to(link, Refused(0, frame.pid, answer.reason), now)
        elif kind == "order" and answer.slot is not None:
            self._push_to(link, self._order(answer.slot), now)
        elif kind == "refused":
            self._push_to(link, self._refusal(seat, frame.pid, answer.reason, answer.at,
                                              answer.game), now)
        elif kind == "refuse":
            self._refuse(link, frame.pid, answer.reason, now, answer.game)
        elif kind == "forked":
            self._check_seen(seat, frame.seen, frame.seen_hash, now)
        elif kind == "place" and answer.slot is not None:
            self._record(t="proposal", seat=seat, pid=frame.pid, game=frame.game,
                         commit=frame.commit.hex(), seen=frame.seen,
                         seen_hash=frame.seen_hash.hex(), sig=frame.sig.hex())
            self._push_to(link, self._order(answer.slot), now)

    def _order(self, slot: Slot) -> Order:
        """Host: our signed word that ``slot``'s proposal is entry ``slot.index``."""
        frame = slot.frame
        sig = self.identity.sign(*order_signed(self.table, slot.game, slot.seat, frame.pid,
                                               frame.commit, slot.index))
        return Order(0, frame.pid, slot.game, slot.index, sig)

    def _on_open(self, link: Link, frame: Open, now: float) -> None:
        """Host: the proposer opens its placed proposal.  What it opens must be what it
        committed to, its cards proven, and the move legal on the log it was made on
        (ours, up to its place): anything else is the proposer's fault, not a refusal."""
        seat = link.peer_seat
        slot = self.proposals.slot
        if self.seat != HOST:
            self._violation(Note.of("host_sent_opening"), now)
            return
        if slot is None or (slot.seat, slot.frame.pid) != (seat, frame.pid):
            self._drops["stale_open"] += 1  # (a copy, after a restart)
            return
        self.proposals.slot = None
        if slot.game != self.game_no or not self.in_game or slot.index != len(self.log):
            self._drain(now)
            return
        assert self.game is not None
        # What a seat opened as it committed to is its own word (only it knows the
        # salt): a fault in it carries its Propose and the Open, and every seat checks
        # it on its own log.
        proof = evidence(slot.frame, frame)
        opened = self.proposals.opening(slot, frame)
        if isinstance(opened, Finding):
            self._stop(self.game_no, opened.culprit, opened.code, opened.note, now,
                       proof=proof)
            return
        action = opened
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        if not self._check_reveals(seat, action, reveals, now, commit=False, proof=proof):
            return
        reason = self.game.why_illegal(action)
        if reason is not None:
            self._stop(self.game_no, seat, "illegal", Note.of(
                "committed_illegal", move=action, reason=Rule(reason)), now, proof=proof)
            return
        self._commit_reveals(seat, action, reveals)
        nudged = self.handover.was_nudged(seat, (self.game_no, len(self.log)))
        self._append(action, frame.pid, reveals, now, proposal=slot.frame,
                     forced="timeout" if nudged else "", salt=frame.salt)
        self._drain(now)

    def _drain(self, now: float) -> None:
        """Host: the placed move is in (or void): the moves held meanwhile follow it, in
        the order they came, each if it is still legal; then the proposals that came
        meanwhile (overtaken now, so refused unopened, or placed next)."""
        held, self.proposals.held = self.proposals.held, []
        for seat, action in held:
            if seat == self.seat:
                self.pending.pop(0, None)
            if self.proposals.slot is not None:
                if seat == self.seat:
                    self.pending[0] = action
                self.proposals.held.append((seat, action))
                continue
            try:
                if seat == self.seat:
                    self.act(action, now)
                elif seat in self.bots:
                    self.play_for(seat, action, now)
            except (IllegalAction, SessionError) as exc:
                if seat == self.seat:
                    reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
                    self._emit(ev.ActionRefused(self.sid, action, str(reason), now, False))
        queued, self.proposals.queued = self.proposals.queued, []
        for seat, frame in queued:
            link = self.links.get(seat)
            if link is not None:
                self._on_propose(link, frame, now)

    def _commit_reveals(self, seat: int, action: Action, reveals: list[tuple[int, bytes]]
                        ) -> None:
        """A checked proposal is logged: its cards are open from now on."""
        assert self.game is not None and self.dealer is not None
        self.dealing.commit_reveals(self.dealer, self.game, seat, action, reveals)

    def _check_seen(self, seat: int, seen: int, seen_hash: bytes, now: float) -> bool:
        """A proposal names the log it was made on: it must be a prefix of ours.  (A host
        that shows seats different logs is caught when any of them proposes.)"""
        if self.game_log.forks(self.game_no, seen, seen_hash):
            culprit = seat if self.seat == HOST else HOST
            self._stop(self.game_no, culprit, "forked", Note.of(
                "proposed_forked", index=max(seen - 1, 0)) if culprit == seat else Note.of(
                "forked", seat=Seat(seat), index=max(seen - 1, 0)), now)
            return False
        return True

    def _check_proposal_allowed(self, action: Action) -> None:
        """The proposal rate limit: only one proposal is on its way at a time (so at most
        one per round trip), and an action the host refused is not proposed again
        until the state changes (so at most one per legal move and state)."""
        if self.pending:
            raise IllegalAction("your previous move is still on its way", action)
        reason = self.refused.get(str(action))
        if reason is not None:
            raise IllegalAction(f"{self.players[HOST].name or 'the host'} refused this move: "
                                f"{reason}", action)

    def _propose(self, action: Action, reveals: list[tuple[int, bytes]], now: float,
                 automatic: bool = False) -> None:
        """Send the host a commitment to ``action`` as proposal ``pid`` (its cards open
        only once the host has placed it: :meth:`_on_order`); ``automatic``: our seat's
        automatic pass, which no player chose (journaled, so a refusal after a restart
        is still known as one)."""
        pid = self.proposals.new_pid()
        seen, seen_hash = self.game_log.head(self.game_no)
        text = str(action)
        salt = salt_for(self.identity.private, self.table, self.game_no, pid)
        commit = proposal_commit(salt, text, reveals)
        sig = self.identity.sign(*proposal_signed(self.table, self.game_no, self.seat, pid,
                                                   commit, seen, seen_hash))
        frame = Propose(0, pid, self.game_no, commit, seen, seen_hash, sig)
        self.proposals.sent(OwnProposal(action, list(reveals), salt, frame, automatic))
        self.proposals.sent_at[pid] = now
        extra: dict[str, Any] = {"auto": True} if automatic else {}
        self._record(t="propose", pid=pid, game=self.game_no, action=text,
                     reveals=[[p, k.hex()] for p, k in reveals], seen=seen,
                     seen_hash=seen_hash.hex(), sig=sig.hex(), salt=salt.hex(), **extra)
        self._push_to(self.links[HOST], frame, now)

    def _on_order(self, link: Link, frame: Order, now: float) -> None:
        """The host placed our proposal: open it, if the place is the log we made it on
        (entry ``seen``, and no entry of ours beyond it) and the host signed it.  The
        signed place is our evidence: a host that refuses the move now, or puts another
        entry there, is named (``bad_refusal``, ``bad_order``)."""
        if link.peer_seat != HOST:
            return
        kind, own, finding = self.proposals.check_order(
            frame, table=self.table, seat=self.seat, host_key=self.players[HOST].sign_key,
            game=self.game_no, in_game=self.in_game, log_len=len(self.log))
        if finding is not None:
            self._finding(finding, now)
            return
        if own is None or kind == "ignore":
            return
        if kind == "open":
            self._record(t="order", pid=frame.pid, index=frame.index, sig=frame.sig.hex())
        self._push_to(link, own.opening, now)

    def _on_refused(self, link: Link, frame: Refused, now: float) -> None:
        """The host did not log our proposal.  It may refuse only a proposal the table
        has moved past (:meth:`Proposals.check_refusal`); a refusal of a move we made on
        the host's own log (legal in our view, signed by us) is a fault of the host."""
        if link.peer_seat != HOST or frame.pid not in self.pending:
            return
        proposal = self.proposals.frames.get(frame.pid)
        finding = self.proposals.check_refusal(
            frame, table=self.table, seat=self.seat, host_key=self.players[HOST].sign_key,
            game=self.game_no, in_game=self.in_game and not self._replaying,
            log_len=len(self.log))
        if finding is not None:
            self._finding(finding, now)
            return
        automatic = frame.pid in self.proposals.automatic
        action = self.proposals.done(frame.pid)
        assert action is not None  # (it was pending)
        self._record(t="refused", seat=self.seat, pid=frame.pid, reason=frame.reason)
        if proposal is not None:  # (always: a proposal is pending with its frame)
            self.note_refusal(action, frame.reason, (proposal.game, proposal.seen))
        self._emit(ev.ActionRefused(self.sid, action, frame.reason, now, automatic))
        self._after_change(now)

    def _finding(self, finding: Finding, now: float) -> None:
        """A part found a message wrong: drop it (not authentic), or stop the game on
        the finding, with its evidence."""
        if finding.code == "violation":
            self._violation(finding.note, now)
        else:
            self._stop(self.game_no, finding.culprit, finding.code, finding.note, now,
                       proof=list(finding.proof) or None)

    def _on_entry(self, link: Link, frame: Entry, now: float) -> None:
        if self.seat == HOST or link.peer_seat != HOST:
            self._violation(Note.of("entry_from_player"), now)
            return
        if frame.game in self.outcomes.broken:
            self._drops["after_stop"] += 1
            return
        if frame.game != self.game_no or self.game is None:
            self._desync(frame.game, frame.index, Note.of(
                "desync_game", game=frame.game, current=self.game_no), now)
            return
        log = self.log
        signed, proof = self.game_log.check(frame, table=self.table,
                                            host_key=self.players[HOST].sign_key)
        if signed == "unsigned":
            self._drops["unsigned_entry"] += 1
            return
        if signed == "fork":  # two things the host signed that make no one log
            self._stop(frame.game, HOST, "forked", Note.of("forked_signed", index=frame.index),
                       now, proof=proof)
            return
        if frame.index < len(log):
            return  # resent after a restart: already applied
        if frame.index > len(log):
            self._desync(frame.game, frame.index, Note.of(
                "desync_gap", index=frame.index, count=len(log)), now)
            return
        try:
            action = parse_action(frame.action)
        except ValueError as exc:
            self._desync(frame.game, frame.index, Note.of("desync_unreadable",
                                                          reason=str(exc)), now)
            return
        reveals = [(p, bytes(k)) for p, k in frame.reveals]
        actor = action.player
        if not 0 <= actor < self.rules.players:
            self._stop(frame.game, HOST, "illegal", Note.of("entry_for_nobody",
                                                            index=frame.index), now)
            return
        dealer = self.dealer
        assert dealer is not None
        kind, finding = self.proposals.check_entry(frame, action, me=self.seat, host=HOST,
                                                   adopted=dealer.adopted, clock=self.clock)
        if finding is not None:
            if finding.code == "desync":
                self._desync(frame.game, frame.index, finding.note, now)
            else:
                self._stop(frame.game, finding.culprit, finding.code, finding.note, now,
                           proof=list(finding.proof) or None)
            return
        own_forced = ""
        if actor == self.seat and kind == "timeout":
            # Our clock ran out (a proposal of ours on its way will be refused) -- by our
            # own clock, started when we saw the entry that put us on move.
            early = self._clock_early(now)
            if early is not None:
                self._stop(frame.game, HOST, "early_clock", Note.of(
                    "early_clock", index=frame.index, move=action, seconds=early), now,
                    proof=[entry_sig.encode(frame)])  # (the host's signed word)
                return
        elif actor == self.seat and kind == "bot":
            if not self._check_own_bot_move(action, reveals, frame.index, now):
                return
        elif kind == "own":
            # Whether our own move was the clock's is ours to say (a lead made because
            # our time was up), not the host's: the host marks a lead "timeout" if it
            # arrives after it told us our time was up, which a move we chose may.
            own_forced = "timeout" if frame.pid in self.proposals.timeout_pids else ""
            self.proposals.done(frame.pid)
            for card in action_cards(action):  # our proposal is logged: its cards open
                dealer.reveal(card)
        else:
            # Another seat's proposal is kept with its signature, and checked if the
            # audit blames that seat (see _conclude).  That it names our log (its
            # ``seen_hash`` is the entry's ``prev``, which is our link) the host's
            # signature already proved (GameLog.check: else a proven fork, not a claim).
            if not self._check_reveals(actor, action, reveals, now):
                return
        reason = self.game.why_illegal(action)
        if reason is not None:
            self._stop(frame.game, HOST, "illegal", Note.of(
                "illegal_entry", index=frame.index, move=action, reason=Rule(reason)), now)
            return
        digest, keys = self._apply(action)
        self._deal_out(frame.game, keys, now)
        entry = LogEntry.of_frame(frame)  # (with the host's signature: our evidence)
        self.game_log.add(frame.game, entry)
        self._record(**entry.record(frame.game, frame.index))
        if digest != frame.hash.hex():
            self._emit(
                ev.ActionApplied(self.sid, frame.game, frame.index, action,
                                 tuple(self._last_events), actor == self.seat, digest, now)
            )
            self._desync(frame.game, frame.index, Note.of(
                "desync_hash", index=frame.index, mine=digest[:12],
                theirs=frame.hash.hex()[:12]), now)
            return
        self._after_apply(action, frame.index, digest, now,
                          own_forced if actor == self.seat and frame.pid else frame.forced)

    def _after_change(self, now: float) -> None:
        """Game over (publish our seed for the audit), or our seat's automatic pass."""
        game = self.game
        if game is None or self.game_no in self.outcomes.broken:
            return
        if game.is_over:
            if self._finished_reported != self.game_no:
                self._finished_reported = self.game_no
                if game.durak is not None:
                    self.duraks[game.durak] += 1
                self._emit(ev.GameFinished(
                    self.sid, self.game_no, game.durak, tuple(game.losers), len(self.log),
                    game.public_hash(), log_hash(self.log), now))
                self._publish_seed(self.game_no, now)
            self._maybe_request(now)
            return
        if self._replaying or not self.config.auto_pass:
            return
        if self._closing_since is not None or self.closed or self.waiting_for_cards:
            return
        if self.seat == HOST:
            adopted = self.dealer.adopted if self.dealer is not None else set()
            for action in game.automatic_actions():
                if action.player in self.bots and action.player in adopted and self.in_game:
                    self.play_for(action.player, action, now)
                    return
        automatic = [a for a in game.automatic_actions() if a.player == self.seat]
        if not automatic:
            return
        if self.seat == HOST:
            if self.proposals.slot is None:  # (else after the placed move: _on_open)
                self._append(automatic[0], 0, [], now)
        elif not self.pending:
            self._propose(automatic[0], [], now, automatic=True)

    # -------------------------------------------------------- stops and audits

    def _fault(self, number: int, fault: DealFault, now: float,
               proof: list[bytes] | None = None) -> None:
        """The dealer caught a seat breaking the deal: stop the game and audit it.

        A seated player names a third seat only for messages that seat signed: what it
        knows of them came through the host, which may have altered them (then the
        host is named)."""
        culprit = fault.seat
        if self.seat != HOST and culprit not in (HOST, self.seat) and self._forged_for(
                number, culprit):
            self._stop(number, HOST, "forged", Note.of("relayed_unsigned", seat=Seat(culprit)),
                       now)
            return
        self._stop(number, fault.seat, fault.code, fault.note, now, proof=proof)

    def _stop(self, number: int, culprit: int, code: str, said: Note | str, now: float,
              stopper: int | None = None, at: int | None = None,
              frame: Fault | None = None, proof: list[bytes] | None = None) -> None:
        """Stop game ``number`` (the evidence names ``culprit``, ``said``: what it did);
        every seat then publishes its seed and the audit decides.  ``at``: the log
        length the stopping seat had, ``frame``: its signed Fault (another seat's fault,
        passed on as is, its detail in its own words); ``proof``: the signed messages
        our own Fault carries as evidence."""
        if number in self.outcomes.stops or number in self.outcomes.audits:
            return
        note = said if isinstance(said, Note) else Note.plain_text(said)
        detail = frame.detail if frame is not None else note.english(self.names)
        by = self.seat if stopper is None else stopper
        self.outcomes.broken.add(number)
        if self.proposals.slot is not None and self.proposals.slot.game == number:
            self.proposals.slot = None  # (nothing more is appended to this game)
        index = len(self.logs.get(number, [])) if at is None else at
        self._set_stop(number, Stop(by, index, detail[:200], True, culprit, code[:24], note))
        if frame is None:
            detail = fitted_detail(number, index, culprit, code[:24], detail, by, proof or [])
            sig = self.identity.sign(*fault_signed(self.table, number, index, culprit,
                                                   code[:24], detail, by, proof or []))
            fault = Fault(0, number, index, culprit, code[:24], detail, by, sig,
                          proof or [])
        else:
            fault = frame
        self.outcomes.faults[number] = fault
        if by == self.seat:
            self._broadcast(fault, now)
        elif self.seat == HOST:
            self._broadcast(fault, now, but=by)  # pass a seat's fault on to the others
        line = (Note.of("stopped_by", by=Seat(by), culprit=Seat(culprit), detail=note)
                if by != self.seat else Note.of("found_desync", culprit=Seat(culprit),
                                                 detail=note) if code == "desync"
                else Note.of("found", culprit=Seat(culprit), detail=note))
        self._emit(ev.GameStopped(self.sid, number, culprit, detail, by != self.seat, now,
                                  line))
        self._publish_seed(number, now)
        parts = self.proposals
        if self.seat == HOST and (parts.held or parts.queued) and parts.slot is None:
            self._drain(now)

    def _set_stop(self, number: int, stop: Stop) -> None:
        self.outcomes.stops[number] = stop
        self._record(t="stop", game=number, seat=stop.seat, index=stop.index,
                     reason=stop.reason, claim=stop.claim, culprit=stop.culprit, code=stop.code,
                     note=stop.note.to_json() if stop.note is not None else None)

    def _on_fault(self, link: Link, frame: Fault, now: float) -> None:
        """Another seat's Fault: it stops the game only if signed by the seat it names
        as its finder.  One that is not came from the seat that sent it to us (the host
        passes the others' faults on): it is that seat's fault."""
        number = frame.game
        if number not in self.dealers:
            self._violation(Note.of("fault_undealt", game=number), now)
            return
        if number in self.outcomes.stops or number in self.outcomes.audits:
            return  # (the same fault again, or one after the game stopped: nothing new)
        sender = link.peer_seat
        by = frame.by
        why = self.outcomes.fault_sender_blamed(frame, table=self.table, me=self.seat,
                                                sender=sender, keys=self._keys())
        if why is not None:
            self._stop(number, sender, "forged", why, now)
            return
        if (proven := self.outcomes.signed_proof(frame, table=self.table, keys=self._keys(),
                                                 log=self.game_log)) is not None:
            if proven:
                fork = self.outcomes.fork_shown(frame, table=self.table,
                                                host_key=self.players[HOST].sign_key)
                self.outcomes.replay_proven(number, fork)
                self._record(t="proven", game=number, fork=fork)
            elif self.seat not in (HOST, by):  # evidence that does not back the claim
                self._stop(number, by, "forged", Note.of("fault_unproven",
                                                         seat=Seat(frame.seat)), now)
                return
            # (the host passes a made-up claim on as it is, for every seat to check; its
            # own audit finds it false)
        if frame.code == "desync":
            self._emit(ev.DesyncDetected(self.sid, number, frame.index, frame.detail, True,
                                         now, Note.of("desync_peer", by=Seat(by),
                                                      detail=Theirs(frame.detail))))
        if frame.evidence and by == HOST and frame.seat not in (HOST, self.seat):
            # The host's fault of a seat's opening, with its evidence: checked on our
            # own log.  Evidence that is the seat's and does not show a fault is made
            # up: the host's.
            opened = opened_as_committed(list(frame.evidence), table=self.table,
                                         game=number, seat=frame.seat,
                                         seat_key=self.players[frame.seat].sign_key)
            if opened is not None and number == self.game_no and self.game_log.head(
                    number) == (opened[0].seen, opened[0].seen_hash):
                if not self._opening_fault(frame.seat, opened[1]):
                    self._stop(number, sender, "forged", Note.of(
                        "fault_unproven", seat=Seat(frame.seat)), now)
                    return
                self.outcomes.proven.add(number)
                self._record(t="proven", game=number)
        if self.outcomes.proves(frame, table=self.table, keys=self._keys(),
                                log=self.logs.get(number, [])) or self._stall_seen(frame, now):
            self.outcomes.proven.add(number)
            self._record(t="proven", game=number)
        self._stop(number, frame.seat, frame.code, Note.did_theirs(by, frame.code,
                                                                   frame.detail),
                   now, stopper=by, at=frame.index, frame=frame)

    def _keys(self) -> list[bytes]:
        """Every seat's signing key, in seat order (b"": not known yet)."""
        return self.seating.keys()

    def _publish_seed(self, number: int, now: float) -> None:
        dealer = self.dealers.get(number)
        if dealer is None:
            return
        messages = dealer.publish_seed()
        if messages:
            self._record(t="publish", game=number)
            self._deal_out(number, messages, now)
            self.outcomes.audit_due.setdefault(number, now + self.config.audit_timeout)
        self._maybe_audit(number, now)

    def _maybe_audit(self, number: int, now: float) -> None:
        dealer = self.dealers.get(number)
        if dealer is None or number in self.outcomes.audits or not dealer.seeds_in:
            return
        game_over = number == self.game_no and self.game is not None and self.game.is_over
        if not game_over and number not in self.outcomes.stops:
            return
        self._conclude(number, now)

    def _conclude(self, number: int, now: float, refused: bool = False) -> None:
        """Audit game ``number`` (or name the seat that did not publish its seed)."""
        if number in self.outcomes.audits:
            return
        dealer = self.dealers[number]
        log = self.logs.get(number, [])
        names = self.names
        names[self.seat] = self.name or "you"
        if refused and not dealer.seeds_in:
            missing = next(s for s in range(dealer.n) if s not in dealer.seeds)
            verdict = Verdict.of(False, "refused", Note.of("no_keys", seat=Seat(missing)),
                                 names, missing)
        else:
            verdict = audit(dealer, self.rules, [(e.action, e.hash) for e in log], names,
                            self.outcomes.stops.get(number))
            verdict = self.outcomes.judge(number, verdict, names, me=self.seat, log=log,
                                          forged=lambda seat: self._forged_for(number, seat),
                                          table=self.table, host_key=self.players[HOST].sign_key)
        self._settle(number, verdict, now)

    def _settle(self, number: int, verdict: Verdict, now: float,
                silent: tuple[int, float] | None = None) -> None:
        """Game ``number``'s verdict: kept, journalled, reported (and a table that is
        ending ends)."""
        log = self.logs.get(number, [])
        self.outcomes.settled(number, verdict)
        self._record(t="audit", game=number, fair=verdict.fair, code=verdict.code,
                     detail=verdict.detail, culprit=verdict.culprit,
                     state_hash=verdict.state_hash, full=verdict.game,
                     note=verdict.note.to_json() if verdict.note is not None else None)
        self._emit(ev.GameAudited(self.sid, number, verdict.fair, verdict.text, verdict.code,
                                  verdict.culprit, verdict.state_hash, log_hash(log), now,
                                  verdict.game, silent[1] if silent is not None else None,
                                  verdict.note))
        if self._ending and not self._replaying:
            self.close(now, self._ending)

    def _forged_for(self, number: int, seat: int) -> bool:
        """Did the host pass on, as ``seat``'s, a deal message or a proposal of game
        ``number`` that ``seat`` did not sign?"""
        return self.dealing.forged_for(number, seat, self.players[seat].sign_key,
                                       self.logs.get(number, []))

    # ---------------------------------------------------------------- resync

    def _peer_restarted(self, link: Link, now: float) -> None:
        """A seat came back from its journal: both streams of that link restart and each
        side sends what the other may lack (on the other's Sync)."""
        self._push_to(link, Sync(0, self.game_no, len(self.log)), now)
        if self.seat != HOST:
            self._push_to(link, self._hello(), now)
        self.resync.restarted(link.peer_seat)

    def _on_sync(self, link: Link, frame: Sync, now: float) -> None:
        """A Sync from a seat whose link restarted: resend what it may lack (see
        :func:`durak_net.resync.catch_up`)."""
        if not self.resync.take(link.peer_seat):
            return
        seating = Seating(0, self.table, self.seating.infos(), self.clock, self.grace,
                          self.started) if self.seat == HOST else None
        frames, desync = catch_up(frame, me=self.seat, peer=link.peer_seat, seating=seating,
                                  dealing=self.dealing, game_log=self.game_log,
                                  faults=self.outcomes.faults, proposals=self.proposals)
        for out in frames:
            self._push_to(link, out, now)
        if desync is not None:
            self._desync(desync[0], desync[1], Note.of("desync_unsent"), now)

    # --------------------------------------------------------------- helpers

    def _desync(self, game: int, index: int, note: Note, now: float) -> None:
        """Our states disagree: reported to every seat, and the game is stopped for the
        audit (which finds who made them disagree)."""
        if game in self.outcomes.broken:
            return
        detail = note.english(self.names)
        self._emit(ev.DesyncDetected(self.sid, game, index, detail, False, now, note))
        culprit = HOST if self.seat != HOST else next(iter(self.links), HOST)
        if game in self.dealers:  # (with the host's signed entry it is about, if any)
            self._stop(game, culprit, "desync", note, now,
                       proof=self.game_log.evidence_of(game, index) or None)
        else:
            self.outcomes.broken.add(game)
            sig = self.identity.sign(*fault_signed(self.table, game, index, culprit, "desync",
                                                   detail[:200], self.seat))
            self._broadcast(Fault(0, game, index, culprit, "desync", detail[:200], self.seat,
                                  sig), now)

    def _violation(self, note: Note, now: float) -> None:
        self._drops["violation"] += 1
        self._emit(ev.ProtocolViolation(self.sid, note.english(self.names), now, note))

    def _check_closed(self, now: float) -> None:
        if self._closing_since is None or self.closed:
            return
        if self.linkage.in_flight() == 0 or now >= self._closing_since + self.config.close_timeout:
            self.closed = True
            self._linger_until = now + self.config.linger
            self._emit(ev.SessionClosed(self.sid, self.close_reason, False, now))

    def _push_to(self, link: Link, frame: Frame, now: float) -> None:
        if not self._replaying:
            link.push(frame, now)

    def _broadcast(self, frame: Frame, now: float, but: int | None = None) -> None:
        """To every link (a seated player has one: the host's), except seat ``but``."""
        if self._replaying:
            return
        for seat, link in self.links.items():
            if seat != but:
                link.push(frame, now)

    def _emit(self, event: Any) -> None:
        if not self._replaying:
            self._events.append(event)

    def _record(self, **record: Any) -> None:
        if not self._replaying:
            self._journal.append(record)

    # ================================================================= restore

    def resumed(self, now: float) -> None:
        """The journal is replayed (``epoch`` is the new one): start the new epoch.  Every
        link restarts its streams and says where we stand; the clocks restart; a table
        that was ending ends."""
        self._linger_until = now if self.closed else None
        self._replaying = False
        self._record(t="epoch", epoch=self.epoch)
        for link in self.links.values():
            link.epoch = self.epoch
            link.channel.reset()
            link.push(Sync(0, self.game_no, len(self.log)), now)
            if self.seat != HOST:
                link.push(self._hello(), now)
            self.resync.restarted(link.peer_seat)
        if self.seat == HOST and not self.started and self.rules.players == 2:
            self.seating.start_when_ready = True
        outcomes = self.outcomes
        for number in list(outcomes.audit_due):  # (the clock of the new epoch)
            outcomes.audit_due[number] = now + self.config.audit_timeout
        self._restart_clock(now)  # every seat the game waits for gets a fresh clock
        slot = self.proposals.slot
        if slot is not None:  # its seat opens it again when it hears our new epoch
            self.proposals.wait_again(slot.seat, now)
        if self._ending and not self.closed and not outcomes.audit_due:
            self.close(now, self._ending)  # a player had left and the audit was done
        if self.game is not None:
            dealer = self.dealer
            self._emit(ev.GameStarted(
                self.sid, self.game_no, self.seat, self.game.public_hash(), now,
                resumed=True, shown=dealer.shown_trump if dealer is not None else None))

    @classmethod
    def restore(
        cls,
        records: list[dict[str, Any]],
        now: float,
        *,
        entropy: Entropy = os.urandom,
        dealer_factory: DealerFactory = mental_dealer,
        config: SessionConfig | None = None,
    ) -> Session:
        """Rebuild a session from its journal records (a restarted kernel resumes).

        The records are replayed through the same code that made them (nothing is sent
        or reported meanwhile); then a new epoch starts, and when a peer hears it both
        streams of that link restart and each side resends what the other may lack.
        Raises ``ValueError`` if the journal is not a session journal of this version or
        does not replay.
        """
        return replay_journal(cls, records, now, entropy=entropy,
                              dealer_factory=dealer_factory, config=config)

    # ---------------------------------------------- the journal's records, replayed
    # (durak_net.restore reads the records and calls these; each goes through the code
    # that handled the record the first time, with sending and reporting off.)

    @classmethod
    def from_header(cls, head: dict[str, Any], now: float, *, entropy: Entropy,
                    dealer_factory: DealerFactory, config: SessionConfig | None) -> Session:
        """A session to replay a journal into, made from its header record."""
        session = cls.__new__(cls)
        session.role = Role(head["role"])
        session._setup(int(head["table"]), Rules.from_dict(head["rules"]), int(head["seat"]),
                       now, entropy=entropy, dealer_factory=dealer_factory, config=config,
                       name=str(head.get("name", "")),
                       identity=Identity.from_private(bytes.fromhex(head["identity"])),
                       restoring=True, own_addr=parse_addr(str(head.get("addr", ""))))
        return session

    def replay_link(self, rec: dict[str, Any], now: float) -> None:
        """A ``link`` record: the pairing with a seat (the host's, for a seated player)."""
        seat = int(rec["seat"])
        what = str(rec.get("kind", "player"))
        name = str(rec.get("name", ""))
        self.seating.seat(seat if self.seat == HOST else HOST, name,
                          what if self.seat == HOST else "host")
        self._open_link(int(rec["sid"]), bytes.fromhex(rec["key"]), seat,
                        (str(rec["addr"][0]), int(rec["addr"][1])), now, name,
                        str(rec.get("sas", "")), what)

    def replay_hello(self, rec: dict[str, Any]) -> None:
        """A ``hello`` record (host): a seat's name, signing key and address."""
        self.seating.replay_hello(rec)

    def replay_seating(self, rec: dict[str, Any]) -> None:
        """A ``seating`` record (a seated player): who sits where, the clock, the grace."""
        self.seating.replay_seating(rec)
        self.clock, self.grace = int(rec["clock"]), int(rec["grace"])
        if rec.get("start"):
            self.started = True

    def replay_dealer(self, number: int, previous: int | None, seed: bytes) -> None:
        """A ``dealer`` record: game ``number``'s dealer, from its seed."""
        if number in self.dealers:
            raise ValueError(f"game {number} has two dealers")
        self.dealing.make(number, previous, self._keys(), seed)

    def replay_begin(self, number: int, now: float) -> None:
        """A ``begin`` record: we agreed to deal game ``number``."""
        self._deal_out(number, self.dealers[number].begin(), now)
        self._maybe_deal(number, now)

    def replay_share(self, number: int, seat: int, now: float) -> None:
        """A ``share`` record: we published our share of ``seat``'s seed (a bot plays it)."""
        self._deal_out(number, self.dealers[number].share(seat), now)
        self._reveal_open_hands(now)

    def replay_publish(self, number: int, now: float) -> None:
        """A ``publish`` record: we published our seed of game ``number``."""
        self._deal_out(number, self.dealers[number].publish_seed(), now)
        self.outcomes.replay_publish(number, now)

    def replay_ending(self, seat: int, what: str) -> None:
        """An ``abandon`` (``what``: "went silent") or ``gone`` ("left the table")
        record: the table ends once the game's audit is done."""
        self._ending = f"{self.players[seat].name or f'seat {seat}'} {what}"

    def replay_entry(self, rec: dict[str, Any], now: float) -> None:
        """An ``entry`` record: applied again, every card it opens checked again and its
        hash compared (``ValueError`` if it does not replay)."""
        number = int(rec["game"])
        if number != self.game_no or self.game is None:
            raise ValueError(f"an entry of game {number} while at game {self.game_no}")
        index = int(rec["index"])
        if index != len(self.log):
            raise ValueError(f"game {number} entry {len(self.log)} is missing")
        action = parse_action(rec["action"])
        reveals = [(int(p), bytes.fromhex(k)) for p, k in rec.get("reveals", [])]
        pid = int(rec.get("pid", 0))
        dealer = self.dealer
        assert dealer is not None
        if action.player == self.seat:
            for card in action_cards(action):
                dealer.reveal(card)
            if self.seat != HOST and pid:
                self.proposals.done(pid)
        elif not self._check_reveals(action.player, action, reveals, now):
            raise ValueError(f"game {number} entry {index} opens a card that does not check")
        if self.seat == HOST and pid:
            self.proposals.applied(action.player, pid)
        digest, keys = self._apply(action)
        self._deal_out(number, keys, now)
        if digest != rec["hash"]:
            raise ValueError(f"game {number} entry {index} does not replay")
        self.game_log.replay(rec)
        self._take_new_cards(now)
        self._after_change(now)
