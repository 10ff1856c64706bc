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
(:mod:`durak_net.presence`); the host's word that a seat left stops a game only with
that seat's own signed Bye (:mod:`durak_net.leaving`); and a seat silent for the grace
period ends its game with a verdict (``abandoned``) instead of leaving the others
waiting.

**Parts.** The session is the glue of parts with one job each, each a class in its
own module, tested on its own without a network, and replayed from a journal through
its own methods (:mod:`durak_net.restore`): :mod:`durak_net.gamelog` (``game_log``: every
game's entries) and :mod:`durak_net.proposals` (``proposals``: each seat's proposals, the
one placed in the log, and what a Propose, an Order, a Refused or an Open is answered);
:mod:`durak_net.handover` (``handover``: the move clock of :mod:`durak_net.clock`, each
seat's state, whom a bot plays, when a silent seat's game is abandoned) with
:mod:`durak_net.presence` (``presence``: who is silent since when), acted on by
:mod:`durak_net.absence` (``absence``: a seat lost, handed to a bot, our share of its
seed published on our own hearing, heard again, or its game abandoned), and by
:mod:`durak_net.waits` (``waits``: the move clock's moves, and who is named when a wait
runs too long); and
:mod:`durak_net.outcomes` (``outcomes``: stops, faults, audits, and the checks of a
Fault's signature and evidence) with :mod:`durak_net.endings` (``endings``: a game
stopped on a fault, ours or another seat's, its seeds published, its audit settled);
:mod:`durak_net.seating` (``seating``: who sits where, what a Hello or a Seating
changes); :mod:`durak_net.links` (``linkage``: the links by seat and pairing id;
``beacons``: the heartbeats between seated players);
:mod:`durak_net.dealing` (``dealing``: each game's dealer and signed deal messages, when
the next game is asked for and dealt, the cards a move opens) with
:mod:`durak_net.dealflow` (``deal_flow``: deal messages taken in and passed on, ours
sent, the next game agreed to, each game begun once dealt); :mod:`durak_net.joining`
(``joining``: the table before play: Seatings sent and taken, Hellos, the start);
:mod:`durak_net.resync` (``resync``: where we stand said to a link that starts or
restarts, what a restarted seat is resent on its Sync); :mod:`durak_net.leaving`
(``leaving``: our signed Bye, a seat's Bye passed on as the evidence of Status "left",
that evidence checked); :mod:`durak_net.play` (``play``:
our view of the current game and the log's entries applied to it, the host's ordering
and a seat's side of its proposals); and :mod:`durak_net.timers` (the next timer and which deadline
fires, as pure functions).  The session routes frames to them and does what they decide;
a part that needs something done around it (a frame sent, an event, a journal record, a
game stopped) is passed the session as its effects (:class:`durak_net.play.Effects`,
:class:`durak_net.endings.Effects`, :class:`durak_net.dealflow.Effects`,
:class:`durak_net.joining.Effects`, :class:`durak_net.resync.Effects`,
:class:`durak_net.leaving.Effects`, :class:`durak_net.waits.Effects`,
:class:`durak_net.absence.Effects`), never holds it.
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
    Game,
    IllegalAction,
    Rules,
)

from . import events as ev
from .absence import Absence
from .audit import Stop, Verdict
from .clock import MoveClock
from .crypto import Entropy
from .dealer import DealFault, MentalDealer
from .dealflow import DealFlow
from .dealing import DealerFactory, Dealing, action_cards, mental_dealer
from .endings import Endings
from .gamelog import GameLog, LogEntry, log_hash
from .handover import HandOver
from .i18n import N_, Said
from .identity import Identity
from .joining import Joining
from .leaving import Leaving
from .link import Addr, Link
from .links import Beacons, Links
from .notes import Note
from .outcomes import HOST, Outcomes, fault_signed
from .outcomes import deal_signed as deal_signed  # (for scripts/lan_vectors.py)
from .play import Play
from .presence import Presence
from .proposals import (
    OPEN_WITHIN,
    Proposals,
    evidence,
)
from .reliable import RtoConfig
from .restore import JOURNAL_VERSION, replay_journal
from .resync import Resync
from .seating import Player, SeatingChart, addr_signed, addr_text, parse_addr
from .seating import table_words as table_words  # (for scripts/lan_vectors.py)
from .timers import (
    Deadlines,
    audits_due,
    open_due,
)
from .waits import Waits
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
                self.joining.tell(self, now, start=True)
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
        #: Where the other seats reach us directly (a seated player's heartbeats).
        self.own_addr = addr_text(own_addr)
        own_sig = (self.identity.sign(*addr_signed(table, seat, self.own_addr))
                   if self.own_addr else b"")
        #: The seating part: who sits where (each seat's name, key, kind, address).
        self.seating = SeatingChart(table, rules.players, seat, Player(
            seat, name, self.identity.public, "host" if seat == HOST else "player",
            self.own_addr, own_sig))
        #: The joining part: the Seatings, the Hellos, the table started (with the move
        #: clock's seconds and the grace period a Seating carries).
        self.joining = Joining(table, seat, rules.players, seating=self.seating,
                               clock=self.handover.clock)
        #: The presence part: who is silent since when, whom we hear directly.
        self.presence = Presence(heard_since=now)
        #: The links part: the stream to each other seat (the host) or to the host (a
        #: seated player), by seat and by pairing id; and our heartbeats to the others.
        self.linkage = Links(seat)
        self.beacons = Beacons(table, seat, rules.players, now)
        self.epoch = 1
        self.closed = False
        self._closing_since: float | None = None
        self._linger_until: float | None = None
        self.close_reason = ""
        #: Host: a player left after play began; the table ends after the audit.
        self._ending = ""
        #: How often each seat was the durak in this table's finished games.
        self.duraks: Counter[int] = Counter()
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
        #: The play part: our view of the current game, the log's entries applied to it,
        #: the host's ordering of proposals and a seat's side of them.
        self.play = Play(table, seat, rules.players, self.identity, self.game_log,
                         self.proposals, self.dealing)
        #: The deal-flow part: deal messages in and out, the next game agreed to and
        #: asked for, each game begun once it is dealt.
        self.deal_flow = DealFlow(table, seat, rules, dealing=self.dealing, play=self.play,
                                  outcomes=self.outcomes, seating=self.seating)
        #: The endings part: a game stopped on a fault, its seeds published, its audit and
        #: verdict (the outcomes part keeps them).
        self.endings = Endings(table, seat, name, rules, self.identity,
                               audit_timeout=self.config.audit_timeout, outcomes=self.outcomes,
                               dealing=self.dealing, game_log=self.game_log,
                               proposals=self.proposals, play=self.play, seating=self.seating)
        #: The waits part: the move clock's moves, and who is named when a wait runs too
        #: long (a host that stalls, a seat that idles).
        self.waits = Waits(seat, handover=self.handover, presence=self.presence,
                           proposals=self.proposals, play=self.play, game_log=self.game_log,
                           outcomes=self.outcomes)
        #: The leaving part: our signed Bye, a seat's Bye taken (host), the host's
        #: Status "left" checked against the seat's own signature (a seated player).
        self.leaving = Leaving(table, seat, self.identity, seating=self.seating,
                               game_log=self.game_log, outcomes=self.outcomes,
                               handover=self.handover, presence=self.presence)
        #: The absence part: a seat lost, handed to a bot, its hand opened, heard again,
        #: or its game abandoned.
        self.absence = Absence(table, seat, name, audit_timeout=self.config.audit_timeout,
                               handover=self.handover, presence=self.presence,
                               seating=self.seating, play=self.play, dealing=self.dealing,
                               game_log=self.game_log, outcomes=self.outcomes,
                               proposals=self.proposals)
        #: The resync part: where we stand said to a link that (re)starts, and the seats
        #: whose link restarted caught up on their Sync.
        self.resync = Resync(seat, name, seating=self.seating, joining=self.joining,
                             play=self.play, game_log=self.game_log, dealing=self.dealing,
                             outcomes=self.outcomes, proposals=self.proposals)
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
        self.resync.greet(self, seat, now)
        return link

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
        self.joining.tell(self, now)

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
        self.joining.tell(self, now, start=True)

    def _seating(self, now: float) -> None:
        """Host: tell every seat who sits where (see :meth:`Joining.tell`)."""
        self.joining.tell(self, now)

    # ================================================================ public API

    @property
    def started(self) -> bool:
        """Has play begun (the table started; the joining part's)?"""
        return self.joining.started

    @property
    def grace(self) -> int:
        """Seconds a seat may be silent before the others act on it (the joining
        part's: a Seating carries it)."""
        return self.joining.grace

    @grace.setter
    def grace(self, seconds: int) -> None:
        self.joining.grace = seconds

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
    def game(self) -> Game | None:
        """Our seat's view of the current game (never the full game; the play part's)."""
        return self.play.game

    @property
    def game_no(self) -> int:
        """The current game's number (0: none dealt yet)."""
        return self.play.game_no

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
        race may be legal, or the only move, now (the play part's)."""
        return self.play.refused

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
            self.play.check_proposal_allowed(action, self.players[HOST].name)
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
            self.play.propose(self, action, pairs, now)

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
        self.deal_flow.agree(self, number, now)
        return number

    def close(self, now: float, reason: str = "") -> None:
        """Say goodbye; the session ends when every link acknowledges (or after a
        timeout).  A game in progress is left: our seed is published first, so the
        others can still audit the cards played so far."""
        if self.closed or self._closing_since is not None:
            return
        number = self.game_no
        playing = self.in_game
        # (signed once play has begun: the evidence of the host's Status "left")
        bye = self.leaving.goodbye(reason, started=self.started, game_no=number,
                                   in_game=playing)
        dealer = self.dealer
        if dealer is not None and dealer.locked is not None and number not in self.outcomes.audits:
            if playing:
                self.outcomes.broken.add(number)
                self._set_stop(number, Stop(self.seat, len(self.log), "left the game", False))
            self._publish_seed(number, now)
        self.close_reason = reason
        self._closing_since = now
        self._broadcast(bye, now)
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
            self.resync.peer_restarted(self, link.peer_seat, now)
        if not arrival.accepted:
            return
        if arrival.back:  # the seat is its player's again (see Absence.back)
            self.absence.back(self, link.peer_seat, now)
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
                self.absence.lost(self, seat, silent, now)
            if (self.seat == HOST and self.deadlines and self.in_game
                    and self.proposals.slot is None):
                for seat in self.move_clock.expired(now):
                    if self.in_game:
                        self._clock_ran_out(seat, now)
            opened_by = self._open_due()
            if opened_by is not None and now >= opened_by:
                self._unopened(now)
            handover = self.absence.handover_due(self)
            if handover is not None and now >= handover[1]:
                self.absence.hand_over(self, handover[0], now)
            self.absence.check_abandoned(self, now)
            stall = self._stall_due()
            if stall is not None and now >= stall[0]:
                self._stalled(stall, now)
            idle = self._idle_due()  # (asked again: a stall just found stops the game)
            if idle is not None and now >= idle[0]:
                self._idle(idle[1], now)
            unheard = self._unheard_due()  # (and again: an idle seat stops it too)
            if unheard is not None and now >= unheard[0]:
                self.absence.unheard(self, unheard[1], now)
            if self.presence.share_wait:
                self.absence.release_shares(self, now)
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
        judging = self._judging()  # (asked once, for the stall and the idle bound both)
        return Deadlines(
            links=self.linkage.next_timer(config.heartbeat, config.lost_after),
            audits=() if waiting else tuple(audit_due.values()),
            closing=None if self._closing_since is None else (
                self._closing_since + config.close_timeout),
            clock=self.move_clock.next_deadline() if clock else None,
            handover=self.absence.handover_due(self), opened_by=self._open_due(),
            abandon=self.absence.abandon_times(self),
            beacon=self.beacons.due(bool(self.players[self.seat].addr), self.closing),
            releases=self.absence.release_times(self) if self.presence.share_wait else (),
            stall=stall[0] if (stall := self._stall_due(judging)) is not None else None,
            idle=idle[0] if (idle := self._idle_due(judging)) is not None else None,
            unheard=un[0] if (un := self._unheard_due(judging)) is not None else None)

    def datagrams_to_send(self, now: float) -> list[tuple[bytes, Addr]]:
        """The datagrams to send now: new frames, retransmissions, acks, heartbeats."""
        out = self.linkage.datagrams_to_send(now, self.config.heartbeat, quiet=self.closed)
        if self.beacons.due(bool(self.players[self.seat].addr), self.closing) is not None \
                and not self._replaying:
            out += self.beacons.send(now, self.config.heartbeat, self.identity, self.players,
                                     self._own_fault(), self.dealing.own_seed(self.game_no))
        return out

    def _own_fault(self) -> Fault | None:
        """The Fault by which we stopped the game in play, if we did: our heartbeats carry
        it to every seat we reach directly (a host that keeps it from them does not keep
        them waiting: section 7 of the protocol)."""
        fault = self.outcomes.faults.get(self.game_no)
        return fault if fault is not None and fault.by == self.seat else None

    def _on_beacon(self, beacon: Beacon, now: float) -> None:
        """Another seated player's heartbeat, straight from it: it is there."""
        if not self.beacons.check(beacon, self._keys()):
            self._drops["bad_beacon"] += 1
            return
        self.presence.heard_from(beacon.seat, now)
        fault = beacon.fault
        if fault is not None and not self.closed and fault.game == self.game_no and (
                fault.game not in self.outcomes.stops):
            if fault.by != beacon.seat:  # (a seat's heartbeat carries its own Fault only)
                self._drops["bad_beacon"] += 1
                return
            # Straight from its finder: checked as if the host had passed it on.
            self.endings.on_fault(self, beacon.seat, fault, now, in_game=self.in_game)
        seed = beacon.seed
        if seed is None or self.closed:
            return
        heard = self.dealing.seed_heard(seed, seat=beacon.seat, game_no=self.game_no,
                                        keys=self._keys())
        if heard is False:
            self._drops["bad_beacon"] += 1
        elif heard:
            self.dealing.keep(seed)
            self.deal_flow.take(self, seed, now)

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
            self.deal_flow.on_deal(self, link.peer_seat, frame, now)
        elif isinstance(frame, Refused):
            self._on_refused(link, frame, now)
        elif isinstance(frame, Hello):
            self.joining.on_hello(self, link.peer_seat, frame, now)
        elif isinstance(frame, Seating):
            if link.peer_seat == HOST:
                self.joining.on_seating(self, frame, now)
        elif isinstance(frame, Sync):
            self.resync.on_sync(self, link.peer_seat, frame, now)
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
        if self.seat == HOST and len(self.links) > 1:  # (see durak_net.leaving)
            if not self.leaving.on_bye(self, seat, frame, now, started=self.started,
                                       in_game=self.in_game, game_no=number):
                self._drops["bye_unsigned"] += 1  # not its own Bye of the game in play
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
            # The host gave up on a seat it reported lost: that seat is the one that
            # went silent, not one that refused the audit.
            self.absence.host_gave_up(self, number, now)
            self._conclude(number, now, refused=not dealer.seeds_in)
        self._emit(ev.SessionClosed(self.sid, frame.reason, True, now))

    def open_seat_again(self, seat: int) -> None:
        """Host: the player of ``seat`` got up before play (its Bye, or the journal's
        ``left`` record): its link is gone and the seat is open again."""
        self.linkage.remove(seat)
        self.seating.open_again(seat)

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
        if frame.state == "left":  # (see durak_net.leaving)
            self.leaving.on_status(self, frame, now, started=self.started,
                                   in_game=self.in_game, game_no=self.game_no)
            return
        self.absence.on_status(self, frame, now)  # lost, back, a bot's (durak_net.absence)

    # --------------------------------------------------------------- dealing

    # (The deal-flow part's, durak_net.dealflow: the session passes it itself as effects.)

    def _deal_out(self, number: int, messages: list[bytes], now: float) -> None:
        """Sign and send our deal messages of game ``number``."""
        for frame in self.dealing.sign(number, messages):
            self._broadcast(frame, now)

    # ------------------------------------------------------------ sequencing

    def _append(self, action: Action, pid: int, reveals: list[tuple[int, bytes]],
                now: float, proposal: Propose | None = None, forced: str = "",
                salt: bytes = b"") -> None:
        """Host: apply a checked action (its reveals checked too) and log it (see
        :meth:`Play.append`)."""
        self.play.append(self, action, pid, reveals, now, proposal, forced, salt)

    # ------------------------------------------------------------- the clock

    def due(self, seat: int) -> str | None:
        """What the game waits for from ``seat``, if anything (see :meth:`Waits.due`)."""
        return self.waits.due(seat, self.in_game)

    def _restart_clock(self, now: float) -> None:
        """After every entry (and a new deal): each seat the game waits for has the
        table's ``clock`` seconds, and each that holds it up the idle bound."""
        self.waits.restart(now, grace=self.grace, in_game=self.in_game)

    def _judging(self) -> bool:
        """May we judge a wait now: a game in play here, not stopped, our host heard,
        and nothing else waited for (a deal's keys: the dealer's to judge)?"""
        return not (self.closed or not self.in_game or self.lost or self._replaying
                    or self.game_no in self.outcomes.stops or self.waiting_for_cards)

    def _idle_due(self, judging: bool | None = None) -> tuple[float, int] | None:
        """When a seat that holds the game up has idled too long (see
        :meth:`Waits.idle_due`; ``judging``: :meth:`_judging`, if the caller has it)."""
        return self.waits.idle_due(judging=self._judging() if judging is None else judging)

    def _idle(self, seat: int, now: float) -> None:
        self.waits.idle(self, seat, now)

    def _unheard_due(self, judging: bool | None = None) -> tuple[float, int] | None:
        """When a seat we cannot hear ourselves has held the game up too long (see
        :meth:`Waits.unheard_due`)."""
        return self.waits.unheard_due(
            grace=self.grace, judging=self._judging() if judging is None else judging)

    def _stall_due(self, judging: bool | None = None) -> tuple[float, str, int] | None:
        """When our host, still heard, has kept us waiting too long (see
        :meth:`Waits.stall_due`; ``judging`` as for :meth:`_idle_due`)."""
        return self.waits.stall_due(grace=self.grace,
                                    judging=self._judging() if judging is None else judging)

    def _stalled(self, stall: tuple[float, str, int], now: float) -> None:
        self.waits.stalled(self, stall, now, grace=self.grace)

    def _stall_seen(self, frame: Fault, now: float) -> bool:
        """Another seat's ``stalled_clock`` or ``idle``: does our own clock bear it out
        (see :meth:`Waits.seen`)?"""
        return self.waits.seen(frame, now, grace=self.grace)

    def _clock_ran_out(self, seat: int, now: float) -> None:
        """Host: ``seat`` did not move in time (see :meth:`Waits.clock_ran_out`)."""
        self.waits.clock_ran_out(self, seat, now, in_game=self.in_game)

    def append(self, action: Action, now: float, *, forced: str) -> None:
        """Host: log ``action``, a move we make for its seat (the clock's)."""
        self._append(action, 0, [], now, forced=forced)

    # ------------------------------------------- a placed move overdue, a bot's move

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
            proof=evidence(slot.frame, self.play.order(slot)))

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
        known = self.play.open_to_all(seat)
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

    def _refuse(self, link: Link, pid: int, reason: str, now: float,
                game: int | None = None) -> None:
        """Host: refuse a proposal (before it is opened; see :meth:`Play.refuse`)."""
        self.play.refuse(self, link.peer_seat, pid, reason, now, game)

    def _on_propose(self, link: Link, frame: Propose, now: float) -> None:
        """Host: a seat's commitment to a move (see :meth:`Play.on_propose`)."""
        if self.seat != HOST:
            self._violation(Note.of("proposal_from_host"), now)
            return
        seat = link.peer_seat
        self.play.on_propose(self, seat, frame, now, key=self.players[seat].sign_key,
                             in_game=self.in_game)

    def _on_open(self, link: Link, frame: Open, now: float) -> None:
        """Host: the proposer opens its placed proposal (see :meth:`Play.on_open`); then
        the moves held meanwhile follow."""
        seat = link.peer_seat
        slot = self.proposals.slot
        if self.seat != HOST:
            self._violation(Note.of("host_sent_opening"), now)
            return
        if slot is None or (slot.seat, slot.frame.pid) != (seat, frame.pid):
            self._drops["stale_open"] += 1  # (a copy, after a restart)
            return
        if self.play.on_open(self, seat, frame, now, in_game=self.in_game,
                             was_nudged=self.handover.was_nudged):
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

    def _on_order(self, link: Link, frame: Order, now: float) -> None:
        """The host placed our proposal: open it (see :meth:`Play.on_order`)."""
        if link.peer_seat != HOST:
            return
        self.play.on_order(self, frame, now, host_key=self.players[HOST].sign_key,
                           in_game=self.in_game)

    def _on_refused(self, link: Link, frame: Refused, now: float) -> None:
        """The host did not log our proposal (see :meth:`Play.on_refused`)."""
        if link.peer_seat != HOST:
            return
        if self.play.on_refused(self, frame, now, host_key=self.players[HOST].sign_key,
                                in_game=self.in_game and not self._replaying):
            self._after_change(now)

    def _on_entry(self, link: Link, frame: Entry, now: float) -> None:
        """A seated player: the host's entry (see :meth:`Play.on_entry`)."""
        if self.seat == HOST or link.peer_seat != HOST:
            self._violation(Note.of("entry_from_player"), now)
            return
        if frame.game in self.outcomes.broken:
            self._drops["after_stop"] += 1
            return
        dropped = self.play.on_entry(self, frame, now, host_key=self.players[HOST].sign_key,
                                     clock=self.clock, clock_early=self._clock_early)
        if dropped:
            self._drops[dropped] += 1

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
            self.deal_flow.maybe_request(self, now)
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
            self.play.propose(self, automatic[0], [], now, automatic=True)

    # -------------------------------------------------------- stops and audits

    # (The endings part's, durak_net.endings: these pass it the session as its effects.)

    def _fault(self, number: int, fault: DealFault, now: float,
               proof: list[bytes] | None = None) -> None:
        """The dealer caught a seat breaking the deal (see :meth:`Endings.fault`)."""
        self.endings.fault(self, number, fault, now, proof)

    def _stop(self, number: int, culprit: int, code: str, said: Note | str, now: float,
              stopper: int | None = None, at: int | None = None,
              frame: Fault | None = None, proof: list[bytes] | None = None) -> None:
        """Stop game ``number`` on a finding against ``culprit`` (see
        :meth:`Endings.stop`)."""
        self.endings.stop(self, number, culprit, code, said, now, stopper, at, frame, proof)

    def _set_stop(self, number: int, stop: Stop) -> None:
        self.endings.set_stop(self, number, stop)

    def _on_fault(self, link: Link, frame: Fault, now: float) -> None:
        """Another seat's Fault (see :meth:`Endings.on_fault`)."""
        self.endings.on_fault(self, link.peer_seat, frame, now, in_game=self.in_game)

    def _keys(self) -> list[bytes]:
        """Every seat's signing key, in seat order (b"": not known yet)."""
        return self.seating.keys()

    def _publish_seed(self, number: int, now: float) -> None:
        self.endings.publish_seed(self, number, now)

    def _conclude(self, number: int, now: float, refused: bool = False) -> None:
        """Audit game ``number`` (or name the seat that did not publish its seed: one
        we heard directly while we waited, see :meth:`Endings.conclude`)."""
        wait = self.config.audit_timeout
        self.endings.conclude(self, number, now, refused, heard=lambda seat: (
            now - self.presence.heard.get(seat, float("-inf")) <= wait))

    def _settle(self, number: int, verdict: Verdict, now: float,
                silent: tuple[int, float] | None = None) -> None:
        self.endings.settle(self, number, verdict, now, silent)

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

    # ============================================= effects (what the parts ask)
    # The parts hold no session: what they need done around them they ask of the one
    # passed to their calls (durak_net.play.Effects).  Sending, reporting, recording and
    # stopping stay here, switched off while a journal replays.

    def linked(self, seat: int) -> bool:
        """Have we a link to ``seat``?"""
        return seat in self.links

    def push(self, seat: int, frame: Frame, now: float) -> None:
        """Send ``frame`` to ``seat`` (nothing if we have no link to it)."""
        link = self.links.get(seat)
        if link is not None:
            self._push_to(link, frame, now)

    def settled(self, now: float) -> None:
        """A game's verdict is in: a table that was ending (a player left, or went
        silent) ends."""
        if self._ending and not self._replaying:
            self.close(now, self._ending)

    def entry_applied(self, now: float) -> None:
        """An entry is applied: our drawn cards, the move clocks, the next automatic
        move."""
        self.play.take_new_cards(self, now)
        self._restart_clock(now)
        self._after_change(now)

    def dealing_stopped(self) -> bool:
        """Is the session ending (saying goodbye, or closed outside a replay)?  It deals
        no new game then."""
        return self._closing_since is not None or (self.closed and not self._replaying)

    def cards_in(self, now: float) -> None:
        """A deal message of the game in play is in: our drawn cards, the next automatic
        move."""
        self.play.take_new_cards(self, now)
        self._after_change(now)

    def game_begun(self, now: float) -> None:
        """A game is dealt and begun: the move clocks start, the first automatic move."""
        self._restart_clock(now)
        self._after_change(now)

    def audit_if_ready(self, number: int, now: float) -> None:
        """Game ``number`` is over or stopped and its seeds may all be in: audit it."""
        self.endings.maybe_audit(self, number, now)

    def end_table(self, reason: str) -> None:
        """Host: the table ends once the game's audit is in (``reason``: why)."""
        self._ending = reason

    def play_begins(self, now: float) -> None:
        """The table started: agree to deal its first game."""
        self.start_next_game(now)

    def reveal_open_hands(self, now: float) -> None:
        """Show in our view the cards of the hands open to every seat (see
        :meth:`Play.reveal_open_hands`)."""
        self.play.reveal_open_hands(self, now)

    broadcast = _broadcast
    emit = _emit
    record = _record
    deal_out = _deal_out
    stop = _stop
    fault = _fault
    desync = _desync
    violation = _violation
    drain = _drain
    stall_seen = _stall_seen
    set_stop = _set_stop
    settle = _settle
    after_change = _after_change
    publish_seed = _publish_seed
    seating_changed = _seating
    audit_under_way = _audit_under_way
    lead_cheapest = _lead_cheapest

    # ================================================================= restore

    def resumed(self, now: float) -> None:
        """The journal is replayed (``epoch`` is the new one): start the new epoch.  Every
        link restarts its streams and says where we stand; the clocks restart; a table
        that was ending ends."""
        self._linger_until = now if self.closed else None
        self._replaying = False
        self._record(t="epoch", epoch=self.epoch)
        for seat in self.linkage.restart(self.epoch):
            self.resync.peer_restarted(self, seat, now)
        self.joining.resumed()
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
