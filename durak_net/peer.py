"""One peer's lobby, sessions and bot seats, as a state machine with no I/O.

:class:`PeerCore` is everything a peer does between its carrier and its person: it
feeds datagrams to the :class:`~durak_net.lobby.Lobby` or to the right
:class:`~durak_net.session.Session`, opens a session when the lobby has agreed one,
seats joiners and bots at a table it hosts, hands datagrams between that table and its
bots in memory, lets a stand-in bot play a seat lost for its grace period, and queues
every event in order.  Like the lobby and the session it reads no clock, opens no
socket and starts no thread (aioquic's ``QuicConnection`` to its asyncio protocol):
the carrier owns those.  Over UDP the carrier is :class:`~durak_net.node.LanNode`; a
WebRTC data channel, or :class:`~durak_net.simlink.SimNet` in the tests, drives the
same object through the same five calls (see :class:`PeerCore`).

What the bots think is work handed out, not done here: a bot's move can take a
second (ISMCTS), and the peer must keep answering the network meanwhile.  The carrier
runs each :class:`Thinking` where it likes (a worker thread; at once, in a test) and
gives the choice back with :meth:`PeerCore.decided`.

Journals are the one thing written here (when a journal folder is given): a record
must be on disk before the datagram that depends on it leaves, which a carrier could
not promise.

>>> import random
>>> rng = random.Random(5)
>>> core = PeerCore("Doc", 0.0, entropy=rng.randbytes)
>>> [addr for _, addr in core.datagrams_to_send(0.0)]  # its first announcement
[('<broadcast>', 0)]
>>> core.next_timer() is not None
True
"""

from __future__ import annotations

import contextlib
import os
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from durak_core import Action, Game, IllegalAction, Rules

from . import events as ev
from .botplay import BotDriver, build_bot
from .crypto import Entropy, random_id
from .i18n import N_, Refusal
from .journal import Journal, read_journal, resumable
from .lobby import BROADCAST, Lobby, LobbyConfig
from .policy import SETTLE
from .seats import LOCAL, LocalSeat, open_bot_seat, restore_bot_seat, seat_view
from .session import JOURNAL_VERSION, Role, Session, SessionConfig, SessionError
from .teams import ANY_TEAM, check_team, seat_for_team
from .wire import KIND_DISCOVERY, TableInfo, WireError, check_header
from .wire import session_id_of as _sid_of

#: Where a datagram comes from or goes to.  The core only compares addresses and gives
#: them back: UDP's are ``(host, port)`` (the lobby answers a peer on the game port it
#: announces); a carrier without ports (``ports=False``) may use any pair of its own,
#: such as ``("rtc", 3)`` for its third data channel, each one peer's own.
#: :data:`BROADCAST` is "every peer" (UDP: on the discovery port); ``(LOCAL, seat)``
#: never leaves the core.
Addr = tuple[str, int]
#: What a carrier that knows the network may tell: our own address as ``peer`` would
#: reach us (the other seats of a table send us their heartbeats there), or None.
OwnAddr = Callable[[Addr], Addr | None]

__all__ = ["BROADCAST", "Addr", "PeerCore", "SessionView", "Thinking", "make_view"]


@dataclass(frozen=True)
class SessionView:
    """What a driver (a bot, a table) needs of a session, copied under the lock.

    ``game`` is our seat's view (other hands hidden); ``waiting_for_cards``: our drawn
    cards are still being opened; ``refused``: actions the sequencer refused in the
    current state (text -> reason), not to be proposed again; ``sas``: the pairing
    words; ``audits``: the verdict of every audited game.
    """

    sid: int
    seat: int
    peer_name: str
    game_no: int
    game: Game | None
    in_game: bool
    pending: dict[int, Action]
    lost: bool
    closed: bool
    waiting_for_cards: bool = False
    refused: dict[str, str] = field(default_factory=dict)
    sas: str = ""
    audits: dict[int, str] = field(default_factory=dict)
    #: Every seat's player's name, and whether play has started (a table fills first).
    names: tuple[str, ...] = ()
    started: bool = True
    #: Seats whose connection is lost, as this seat knows it.
    lost_seats: tuple[int, ...] = ()
    #: Each seat's kind: ``"host"``, ``"player"``, ``"bot"`` or ``"open"``.
    kinds: tuple[str, ...] = ()
    #: The table's id, and the four words every seat compares ("" until every seat's
    #: signing key is known).
    table: int = 0
    table_words: str = ""
    #: The move clock and the grace period of the table (seconds; 0: none).
    clock: int = 0
    grace: int = 0
    #: Per seat: when its move clock runs out (``time.monotonic()`` of this process),
    #: None when the game is not waiting for it or the table has no clock.
    deadlines: tuple[float | None, ...] = ()
    #: Per seat: ``""`` (playing), ``"lost"`` (its connection), ``"left"``, or
    #: ``"bot"`` (a bot plays it while its player is away).
    seat_states: tuple[str, ...] = ()
    #: Per seat: how many of this table's finished games it lost (the match score).
    duraks: tuple[int, ...] = ()
    #: The table's rules (its teams, for the seating before a game exists).
    rules: Rules | None = None
    #: Moves of our seat in the current game that the host's bot played while we were
    #: away (what a player who comes back is told).
    played_for_us: int = 0
    #: The current game as its fair audit rebuilt it (:meth:`durak_core.Game.to_json`),
    #: every hand open; "" before the audit, or when it found a fault.
    full_game: str = ""

    @property
    def seated(self) -> tuple[str, ...]:
        """Each seat's player's name, ``""`` for an open seat (as a table's
        announcement lists them, and :mod:`durak_net.teams` reads them)."""
        return tuple(n if k != "open" else "" for n, k in zip(self.names, self.kinds,
                                                              strict=True))


def make_view(session: Session) -> SessionView:
    """A :class:`SessionView` of ``session``: copies only, safe to hand to a worker."""
    single = len(session.links) == 1
    audited = session.audits.get(session.game_no)
    seats = range(session.rules.players)
    return SessionView(
        sid=session.sid,
        seat=session.seat,
        peer_name=session.peer_name if single else "",
        game_no=session.game_no,
        game=None if session.game is None else session.game.copy(),
        in_game=session.in_game,
        pending=dict(session.pending),
        lost=session.lost,
        closed=session.closed,
        waiting_for_cards=session.waiting_for_cards,
        refused=dict(session.refused),
        sas=session.sas,
        audits={n: v.text for n, v in session.audits.items()},
        names=tuple(session.names),
        started=session.started,
        lost_seats=tuple(s for s, link in session.links.items() if link.lost),
        kinds=tuple(session.players[s].kind for s in seats),
        table=session.table,
        table_words=session.table_words,
        clock=session.clock,
        grace=session.grace,
        deadlines=tuple(session.deadlines.get(s) for s in seats),
        seat_states=tuple(session.seat_state.get(s, "") for s in seats),
        duraks=tuple(session.duraks[s] for s in seats),
        rules=session.rules,
        played_for_us=sum(1 for e in session.log if e.played_by_bot_for(session.seat)),
        full_game=audited.game if audited is not None else "",
    )


@dataclass(eq=False)
class Thinking:
    """One bot move to choose, handed out by :meth:`PeerCore.work`.

    :meth:`choose` reads only the copied ``view`` and the bot's own driver, so it may
    run on any thread; give its result to :meth:`PeerCore.decided` on the thread that
    drives the core.  A bot's bug does not stop the table: its first legal move (one
    not refused) is played instead and the error kept in :attr:`error`.
    """

    driver: BotDriver
    view: SessionView
    #: The state the bot looked at: a choice for a state that has moved on is dropped.
    state: tuple[Any, ...]
    #: Our bot seat, or None for a stand-in playing seat ``view.seat`` of table ``table``.
    local: LocalSeat | None = None
    table: int = 0
    error: BaseException | None = None

    def choose(self) -> Action | None:
        """The bot's move (None: nothing to play)."""
        try:
            return self.driver.choose(self.view)
        except Exception as exc:
            self.error = exc
            game = self.view.game
            if game is None:
                return None
            legal = [a for a in game.legal_actions(self.view.seat)
                     if str(a) not in self.view.refused]
            return legal[0] if legal else None


class PeerCore:
    """A peer without I/O: datagrams and a clock in; datagrams, events and bot work out.

    The carrier (a UDP thread, a WebRTC data channel, a simulated network) calls, on
    the one thread that drives the core (or under one lock):

    * ``receive(data, addr, now, direct=True)`` for every datagram, ``addr`` being
      whatever the carrier uses to send back (see :data:`Addr`); ``direct=False`` for
      a broadcast that came on the shared discovery port (only lobby messages are
      taken from there).  Malformed datagrams are dropped and counted
      (:meth:`drop_counts`), never raised.
    * ``timer(now)`` once ``now`` reaches ``next_timer()`` (None: nothing is timed;
      any input may move it, so read it again after each batch);
    * ``datagrams_to_send(now)`` after each batch of inputs, timers and commands: it
      settles what they caused (opens agreed sessions, writes journals, hands datagrams
      between a table we host and its bots, applies bot decisions) and returns
      ``(data, addr)`` pairs, lobby messages first.  ``addr`` == :data:`BROADCAST`
      means every peer on the discovery port.
    * ``events()``: the :data:`~durak_net.events.NetEvent` values queued so far, in
      order (after ``datagrams_to_send``, which queues the sessions' events);
    * ``work()``: :class:`Thinking` items for the bots; run ``item.choose()`` anywhere
      and call ``decided(item, action, now)`` on the driving thread (then
      ``datagrams_to_send`` again).

    The commands (:meth:`invite`, :meth:`act`, :meth:`host_table`...) take ``now`` and
    raise the caller's mistakes (``ValueError``, ``IllegalAction``, ``SessionError``);
    they too are followed by ``datagrams_to_send``.  ``now`` is the carrier's
    monotonic clock, the same for every call.  This is the
    :class:`~durak_net.simlink.Endpoint` interface, so a test puts cores on a
    :class:`~durak_net.simlink.SimNet` as they are.

    ``ports``: the carrier's addresses are UDP's ``(host, port)``; False for a carrier
    whose addresses are its channels (see :data:`Addr`).  ``own_addr``: how the carrier
    reaches a peer from here, for the heartbeats between the seats of a table (None
    without it).  ``journal_dir``: where each session's journal is written (and
    :meth:`resume` reads it back); None for none.
    """

    def __init__(
        self,
        name: str,
        now: float,
        *,
        rules: Rules | None = None,
        game_port: int = 0,
        session_config: SessionConfig | None = None,
        lobby_config: LobbyConfig | None = None,
        journal_dir: Path | str | None = None,
        entropy: Entropy = os.urandom,
        own_addr: OwnAddr | None = None,
        ports: bool = True,
    ) -> None:
        self.rules = rules or Rules()
        # A carrier without ports announces 1: the wire wants a port, its peers ignore it.
        self.lobby = Lobby(name, game_port if ports else 1, self.rules, now,
                           entropy=entropy, config=lobby_config,
                           ports=ports)  # validates the name and rules
        self.session_config = session_config or SessionConfig()
        self.journal_dir = Path(journal_dir) if journal_dir is not None else None
        self._entropy = entropy
        self._own_addr: OwnAddr = own_addr or (lambda peer: None)
        #: Datagrams dropped here (before the lobby or a session saw them), by reason.
        self.drops: Counter[str] = Counter()
        #: Errors that must not stop the peer (a bot's bug, a full disk), kept for the
        #: person to see.
        self.errors: list[BaseException] = []
        #: Sessions by table id (a game of two is a table of two).
        self.sessions: dict[int, Session] = {}
        self._routes: dict[int, Session] = {}  # a link's pairing id -> its session
        self._journals: dict[int, Journal] = {}
        #: Seats of our tables offered to joiners, not yet paired: table -> seat -> invite.
        self._offers: dict[int, dict[int, int]] = {}
        #: Tables we host (announced while they take players).
        self._hosted: set[int] = set()
        #: Bots at our tables, by the pairing id of their link.
        self._local: dict[int, LocalSeat] = {}
        self._local_journals: dict[int, Journal] = {}
        self._bot_rng = random.Random(int.from_bytes(entropy(8), "big"))
        self._rules = self.lobby.rules  # what we invite with when we host no table
        #: The bot that plays a lost seat of a table we host after its grace period.
        self.stand_in = "greedy"
        self._stand_ins: dict[tuple[int, int], tuple[BotDriver, tuple[Any, ...]]] = {}
        self._decided: list[tuple[Thinking, Action | None]] = []
        self._work: list[Thinking] = []
        self._out: list[tuple[bytes, Addr]] = []
        self._events: list[ev.NetEvent] = []
        #: Names watched for (:meth:`watch`) and how long each must have been seen.
        self._watched: dict[str, float] = {}

    # ================================================================ info

    @property
    def name(self) -> str:
        return self.lobby.name

    @property
    def node_id(self) -> int:
        return self.lobby.node

    def peers(self) -> list[ev.PeerInfo]:
        """Peers currently seen."""
        return [p.info for p in self.lobby.peers.values()]

    def find_peer(self, name: str, now: float, settled: float = 0.0) -> ev.PeerInfo | None:
        """The peer seen with this display name, or this ``HOST:PORT``, or whose node id
        (in hex, as the lobby shows it when two peers share a name) starts with ``name``
        (at least 4 digits).

        ``ValueError`` when two peers announce the name: someone may be pretending to
        be the other, so the message lists both by id and address; pick one and compare
        the pairing words.  ``settled``: None until the one peer of that name has been
        seen for this many seconds (a second one announcing it would be seen by then).
        """
        text = name.strip()
        known = list(self.lobby.peers.values())
        named = [p for p in known if p.info.name == name]
        if not named and ":" in text:
            named = [p for p in known if f"{p.info.addr[0]}:{p.info.addr[1]}" == text]
        digits = text.lower().removeprefix("#").removeprefix("0x")
        if not named and len(digits) >= 4 and all(c in "0123456789abcdef" for c in digits):
            named = [p for p in known if f"{p.info.node:016x}".startswith(digits)]
            if len(named) > 1:
                raise Refusal(N_("{count} peers have an id starting {digits}: type more of "
                                 "it"), count=len(named), digits=digits)
        if len(named) > 1:
            where = ", ".join(f"id {p.info.node:016x} at {p.info.addr[0]}:{p.info.addr[1]}"
                              for p in named)
            raise Refusal(N_("{count} players announce the name {name} ({where}): invite "
                             "one by its id and compare the pairing words"),
                          count=len(named), name=repr(named[0].info.name), where=where)
        if not named or now < named[0].first_seen + settled:
            return None
        return named[0].info

    def view(self, sid: int) -> SessionView | None:
        """A snapshot of session ``sid`` (copies only)."""
        session = self.sessions.get(sid)
        return None if session is None else make_view(session)

    def game(self, sid: int) -> Game | None:
        """A copy of session ``sid``'s current game."""
        session = self.sessions.get(sid)
        return None if session is None or session.game is None else session.game.copy()

    def drop_counts(self) -> Counter[str]:
        """Datagrams dropped so far, by reason, over the lobby and all sessions."""
        total = Counter(self.drops)
        total.update(self.lobby.drops)
        for session in self.sessions.values():
            total.update(session.drops)
        return total

    def all_closed(self) -> bool:
        """Has every session said goodbye (or been told it)?"""
        return all(s.closed for s in self.sessions.values())

    # ================================================================ commands

    def watch(self, name: str, now: float, settle: float = SETTLE) -> None:
        """Say (:class:`~durak_net.events.NameSettled`) whom ``name`` means, once one
        peer has announced it for ``settle`` seconds, or as soon as a second peer
        announces it too (then both, so the person can pick one).  Once per call."""
        self._watched[name] = settle

    def invite(self, peer: int | str, now: float, rules: Rules | None = None,
               pin: str | None = None) -> int:
        """Invite a peer by node id, display name or ``HOST:PORT``; returns the
        invitation id.  With ``pin``, the invitee must type the same PIN to accept."""
        if isinstance(peer, str):
            info = self.find_peer(peer, now)
            if info is None:
                raise Refusal(N_("nobody called {name} is on the LAN"), name=repr(peer))
            peer = info.node
        return self.lobby.invite(peer, now, rules, pin)

    def accept(self, invite: int, now: float, pin: str | None = None) -> None:
        """Accept an invitation (with the PIN the inviter read out, if it asked for one)."""
        self.lobby.accept(invite, now, pin)

    def decline(self, invite: int, now: float, reason: str = "declined") -> None:
        self.lobby.decline(invite, now, reason)

    def cancel(self, invite: int, now: float) -> None:
        self.lobby.cancel(invite, now)

    def act(self, sid: int, action: Action, now: float) -> None:
        """Play ``action`` in session ``sid`` (raises IllegalAction with the reason)."""
        self._session(sid).act(action, now)

    def start_next_game(self, sid: int, now: float, game: int | None = None) -> int:
        """Agree to a rematch in session ``sid``; returns the game number (``game``, from
        a ``NextGameRequested`` event, makes agreeing idempotent)."""
        return self._session(sid).start_next_game(now, game)

    def leave(self, sid: int, now: float, reason: str = "left the game") -> None:
        """Say goodbye in session ``sid`` (the journal marks it finished)."""
        self._session(sid).close(now, reason)

    def leave_all(self, now: float, reason: str = "left") -> None:
        """Say goodbye in every session (a peer that quits)."""
        for session in self.sessions.values():
            session.close(now, reason)

    def host_table(self, rules: Rules, now: float, clock: int = 0, grace: int = 60,
                   bots: Sequence[str] = ()) -> int:
        """Host a table of ``rules.players`` seats (we sit at seat 0); returns its id.

        It is announced with its rules and open seats until play starts; players who
        ask to join are seated in the free seats (:class:`~durak_net.events.SeatTaken`),
        :meth:`add_bot` fills one with a bot, :meth:`start_table` deals.  ``clock``:
        seconds each seat has for a move (0: no clock); ``grace``: seconds a lost seat
        is waited for before a bot may take it over.  ``bots``: specs of bots seated at
        seats 1, 2... before anyone can see the table, so a player who asks at once
        never takes the seat a bot was meant for."""
        if not 2 <= rules.players <= 6:
            raise Refusal(N_("a table has 2 to 6 seats, not {count}"), count=rules.players)
        if not 0 <= clock <= 3600 or not 0 <= grace <= 3600:
            raise Refusal(N_("the clock and the grace period are 0 to 3600 seconds"))
        if len(bots) > rules.players - 1:
            raise Refusal(N_("{count} bots do not fit the {free} free seats"),
                          count=len(bots), free=rules.players - 1)
        for spec in bots:
            build_bot(spec)  # an unknown bot: ValueError, and no table is hosted
        if any(t in self.sessions and not self.sessions[t].started for t in self._hosted):
            raise Refusal(N_("we already host a table that has not started"))
        table = random_id(self._entropy)
        session = Session.host_table(table, rules, now, name=self.name,
                                     entropy=self._entropy, config=self.session_config,
                                     clock=clock, grace=grace)
        journal = (Journal.create(self.journal_dir, table, 0)
                   if self.journal_dir is not None else None)
        self._hosted.add(table)
        self._add_session(session, journal)
        for spec in bots:
            self._seat_bot(table, spec, None, now)
        self._update_announcement()
        return table

    def join(self, peer: int | str, now: float, team: int = ANY_TEAM) -> int:
        """Ask the peer (node id, name or ``HOST:PORT``) for a seat at the table it
        hosts; returns the table id.  The host's offer is accepted by itself:
        :class:`~durak_net.events.SessionAgreed` follows with our seat, or
        :class:`~durak_net.events.InviteClosed` with the reason there is none.

        team: at a table of teams, the team to sit in (the host gives its lowest free
        seat: :func:`~durak_net.teams.seat_for_team`); a team the announced rules do not
        have is refused here (``ValueError`` saying which teams there are)."""
        info = self._peer_info(peer, now)
        if info.table is None:
            raise Refusal(N_("{name} hosts no table"), name=info.name)
        table = int(info.table["table"])
        if team != ANY_TEAM:
            try:
                rules = Rules.from_dict(dict(info.rules))
            except (TypeError, ValueError):
                raise Refusal(N_("{name}'s table plays rules this version does not know"),
                              name=info.name) from None
            check_team(rules, team)
        self.lobby.join(info.node, table, now, team)
        return table

    def add_bot(self, table: int, now: float, spec: str = "greedy",
                seat: int | None = None) -> int:
        """Seat a bot of ours (``random``, ``greedy``, ``ismcts``...) at a free seat of
        a table we host (the lowest, or ``seat``); returns the seat.  It plays in this
        process, labelled "bot" at every seat."""
        return self._seat_bot(table, spec, seat, now)

    def start_table(self, table: int, now: float) -> None:
        """Deal the first game at a table we host (every seat must be taken)."""
        self._session(table).start(now)
        self._update_announcement()

    def resumable(self) -> list[tuple[Path, dict[str, Any]]]:
        """Unfinished sessions in the journal folder (path, header), newest first."""
        if self.journal_dir is None:
            return []
        return [(p, h) for p, h in resumable(self.journal_dir, self.name)
                if h.get("version") == JOURNAL_VERSION
                and int(h["table"]) not in self.sessions]

    def resume(self, path: Path | str, now: float) -> int:
        """Resume the session journaled in ``path``; returns its id."""
        records = read_journal(Path(path))
        session = Session.restore(records, now, entropy=self._entropy,
                                  config=self.session_config)
        if session.sid in self.sessions:
            raise ValueError(f"session {session.sid:x} is already running")
        bots = []
        for seat, player in session.players.items():
            if session.seat == 0 and player.kind == "bot":
                bot_path = Path(path).with_name(f"{session.table:x}-seat{seat}.jsonl")
                bots.append((bot_path, restore_bot_seat(
                    read_journal(bot_path), now, entropy=self._entropy,
                    config=self.session_config)))
        self._add_session(session, Journal(Path(path)))
        if session.seat == 0:
            self._hosted.add(session.table)
        for bot_path, local in bots:
            self._local[local.session.sids()[0]] = local
            self._local_journals[local.session.sids()[0]] = Journal(bot_path)
        return session.sid

    def close(self) -> None:
        """Close the journals (the carrier has stopped; idempotent)."""
        for journal in [*self._journals.values(), *self._local_journals.values()]:
            journal.close()

    # ================================================================ the carrier's calls

    def receive(self, data: bytes, addr: Addr, now: float, direct: bool = True) -> None:
        """One datagram from ``addr`` (see the class docstring)."""
        try:
            kind = check_header(data)
        except WireError as exc:
            self.drops[exc.counter] += 1
            return
        if kind == KIND_DISCOVERY:
            self.lobby.receive(data, addr, now, direct=direct)
            # A Paired opens our side of a session at once: the peer's first session
            # datagram may be the next one received.
            self._take_lobby_events(now)
            return
        if not direct:
            self.drops["session_on_discovery_port"] += 1
            return
        try:
            sid = _sid_of(data)
        except WireError as exc:
            self.drops[exc.counter] += 1
            return
        session = self._routes.get(sid)
        if session is None:
            self.drops["unknown_session"] += 1
            return
        session.receive(data, addr, now)

    def timer(self, now: float) -> None:
        """Run what is due at ``now`` (the lobby's, every session's and bot seat's)."""
        self._check_watched(now)
        due = self.lobby.next_timer()
        if due is not None and now >= due:
            self.lobby.timer(now)
        for session in self._all_sessions():
            due = session.next_timer()
            if due is not None and now >= due:
                session.timer(now)

    def next_timer(self) -> float | None:
        """When :meth:`timer` has something to do next (None: nothing is timed)."""
        times = [t for t in (self.lobby.next_timer(), *self._watch_timers()) if t is not None]
        for session in self._all_sessions():
            t = session.next_timer()
            if t is not None:
                times.append(t)
        return min(times, default=None)

    def datagrams_to_send(self, now: float) -> list[tuple[bytes, Addr]]:
        """Settle what the inputs caused and take the datagrams to send.

        The lobby's datagrams come first: an invitee's Paired must reach the inviter
        before the first datagram of the session it opens (the inviter creates its side
        of the session on the Paired, and would drop a session datagram before it).
        Datagrams between a table we host and its bots are handed across in memory
        until none is left.
        """
        self._take_lobby_events(now)
        self._check_watched(now)
        self._out.extend(self.lobby.datagrams_to_send(now))
        self._settle_sessions(now)
        self._think(now)
        self._update_announcement()
        out, self._out = self._out, []
        return out

    def events(self) -> list[ev.NetEvent]:
        """The events queued so far, in order (taken: each is given once)."""
        out, self._events = self._events, []
        return out

    def work(self) -> list[Thinking]:
        """The bots' moves to choose (taken: each is given once)."""
        out, self._work = self._work, []
        return out

    def decided(self, item: Thinking, action: Action | None, now: float) -> None:
        """A bot chose ``action`` for ``item`` (played at the next
        :meth:`datagrams_to_send`, if its table has not moved on meanwhile)."""
        if item.error is not None:
            self.errors.append(item.error)
            item.error = None
        self._decided.append((item, action))

    # ================================================================ internals

    def _named(self, name: str) -> list[Any]:
        return [p for p in self.lobby.peers.values() if p.info.name == name]

    def _watch_timers(self) -> list[float]:
        """When each watched name that one peer announces settles."""
        out = []
        for name, settle in self._watched.items():
            named = self._named(name)
            if len(named) == 1:
                out.append(named[0].first_seen + settle)
        return out

    def _check_watched(self, now: float) -> None:
        for name, settle in list(self._watched.items()):
            named = self._named(name)
            if len(named) > 1 or (named and now >= named[0].first_seen + settle):
                del self._watched[name]
                self._events.append(ev.NameSettled(name, tuple(p.info for p in named), now))

    def _all_sessions(self) -> list[Session]:
        return [*self.sessions.values(), *(b.session for b in self._local.values())]

    def _session(self, sid: int) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise Refusal(N_("no session {sid}"), sid=f"{sid:x}")
        return session

    def _peer_info(self, peer: int | str, now: float) -> ev.PeerInfo:
        if isinstance(peer, str):
            info = self.find_peer(peer, now)
            if info is None:
                raise Refusal(N_("nobody called {name} is on the LAN"), name=repr(peer))
            return info
        known = self.lobby.peers.get(peer)
        if known is None:
            raise Refusal(N_("no peer {peer} on the LAN (it may have left)"),
                          peer=f"{peer:x}")
        return known.info

    def _seat_bot(self, table: int, spec: str, seat: int | None, now: float) -> int:
        host = self._session(table)
        if host.seat != 0:
            raise Refusal(N_("only the host adds bots"))
        free = [s for s in host.free_seats() if s not in self._offers.get(table, {})]
        if seat is None:
            if not free:
                raise Refusal(N_("no free seat"))
            seat = free[0]
        elif seat not in free:
            raise Refusal(N_("seat {seat} is not free"), seat=seat)
        local = open_bot_seat(host, seat, spec, now, entropy=self._entropy,
                              config=self.session_config,
                              seed=self._bot_rng.getrandbits(32))
        self._add_local(local, host)
        return seat

    def _add_local(self, local: LocalSeat, host: Session) -> None:
        """A bot seat of ours: journaled like any seat, its link carried in memory."""
        session = local.session
        self._local[session.sids()[0]] = local
        if self.journal_dir is not None:
            journal = Journal.create(self.journal_dir, session.table, session.seat)
            self._local_journals[session.sids()[0]] = journal
        for sid in host.sids():
            self._routes[sid] = host

    def _add_session(self, session: Session, journal: Journal | None) -> None:
        self.sessions[session.sid] = session
        for sid in session.sids():
            self._routes[sid] = session
        if journal is not None:
            self._journals[session.sid] = journal
        self._update_announcement()

    def _update_announcement(self) -> None:
        """Announce busy, and the rendezvous tags of sessions that look for their peer
        (resumed, or lost): only that peer recognises a tag."""
        self.lobby.busy = bool(self.sessions)
        self.lobby.tags = [link.rendezvous for s in self.sessions.values() if not s.closed
                           for link in s.links.values() if link.peer_addr[0] != LOCAL
                           and (link.lost or link.peer_epoch == 0)][:8]
        hosted = [self.sessions[t] for t in sorted(self._hosted)
                  if t in self.sessions and not self.sessions[t].closed]
        if hosted:
            table = hosted[0]
            offered = self._offers.get(table.sid, {})
            self.lobby.table = TableInfo(
                table.sid, [p.name if p.kind != "open" else "" for _, p in
                            sorted(table.players.items())], table.clock, table.grace,
                table.started, not table.started and bool(set(table.free_seats()) - set(offered)))
            self.lobby.rules = table.rules
        else:
            self.lobby.table = None
            self.lobby.rules = self._rules

    def _take_lobby_events(self, now: float) -> None:
        """Act on the lobby's events (a session agreed is opened here)."""
        for event in self.lobby.events():
            self._on_lobby_event(event, now)

    def _on_lobby_event(self, event: Any, now: float) -> None:
        if isinstance(event, ev.SessionAgreed):
            role = Role.SEQUENCER if event.inviter else Role.FOLLOWER
            hosted = self.sessions.get(event.table) if event.table and event.inviter else None
            if hosted is not None:  # a player paired for a seat of our table
                self._offers.get(event.table, {}).pop(event.seat, None)
                try:
                    hosted.seat_player(event.sid, event.key, event.peer.addr, event.seat,
                                       event.peer.name, now, event.sas)
                except SessionError as exc:
                    self.errors.append(exc)
                else:
                    self._routes[event.sid] = hosted
            else:
                session = Session(event.sid, role, event.key, event.rules, event.peer.addr,
                                  now, entropy=self._entropy, config=self.session_config,
                                  peer_name=event.peer.name, name=self.name, sas=event.sas,
                                  table=event.table or None,
                                  seat=None if event.inviter else event.seat,
                                  own_addr=self._own_addr(event.peer.addr))
                journal = (Journal.create(self.journal_dir, session.table, session.seat)
                           if self.journal_dir is not None else None)
                self._add_session(session, journal)
            event = replace(event, key=b"")  # the key stays inside the protocol
        elif isinstance(event, ev.JoinRequested):
            self._offer_seat(event, now)
        elif isinstance(event, ev.InviteClosed):
            for offers in self._offers.values():
                for seat, invite in list(offers.items()):
                    if invite == event.invite:
                        del offers[seat]  # the offered seat is free again
            closing = self._routes.get(event.invite)
            if closing is not None and closing.sid == event.invite:
                closing.close(now, event.reason)
        elif isinstance(event, ev.PeerSeen):
            for tag in event.peer.tags:  # a resumed peer looks for its sessions
                for session in self.sessions.values():
                    for link in session.links.values():
                        if link.rendezvous == tag and (link.lost or link.peer_epoch == 0):
                            link.peer_addr = event.peer.addr
        self._events.append(event)

    def _offer_seat(self, event: ev.JoinRequested, now: float) -> None:
        """Host: give a joiner a free seat (of the team it asked for) by inviting it."""
        table = self.sessions.get(event.table)
        if table is None or table.started:
            self.lobby.refuse_join(event.peer.node, event.table, now, "the game has started")
            return
        offers = self._offers.setdefault(event.table, {})
        seat = seat_for_team(table.rules, (s for s in table.free_seats() if s not in offers),
                             event.team)
        if seat is None:
            wished = event.team != ANY_TEAM and table.rules.teams
            self.lobby.refuse_join(event.peer.node, event.table, now,
                                   "no free seat" + (" in that team" if wished else ""))
            return
        offers[seat] = self.lobby.invite(event.peer.node, now, table.rules, table=event.table,
                                         seat=seat)

    def _write_journal(self, journal: Journal | None, records: list[dict[str, Any]]) -> None:
        if journal is None or not records:
            return
        try:
            journal.write(records)
        except OSError as exc:  # a full disk must not stop the game
            self.drops["journal_error"] += 1
            self.errors.append(exc)

    def _settle_sessions(self, now: float) -> None:
        """Journal, send and collect the events of every session and bot seat, handing
        the datagrams between a table we host and its bots across until none is left."""
        for _ in range(64):
            loopback = self._flush_sessions(now)
            if not loopback:
                return
            for data, addr, bot in loopback:
                self._deliver_local(data, addr, bot, now)

    def _flush_sessions(self, now: float) -> list[tuple[bytes, Addr, LocalSeat | None]]:
        """One round of :meth:`_settle_sessions`; returns the datagrams meant for this
        peer (host <-> its bots)."""
        loopback: list[tuple[bytes, Addr, LocalSeat | None]] = []
        for sid, session in list(self.sessions.items()):
            self._write_journal(self._journals.get(sid), session.journal_records())
            for data, addr in session.datagrams_to_send(now):
                if addr[0] == LOCAL:
                    loopback.append((data, addr, None))
                else:
                    self._out.append((data, addr))
            self._events.extend(session.events())
            if session.finished(now):
                del self.sessions[sid]
                self._hosted.discard(sid)
                self._routes = {r: s for r, s in self._routes.items() if s is not session}
                closing = self._journals.pop(sid, None)
                if closing is not None:
                    closing.close()
        for sid, local in list(self._local.items()):
            bot = local.session
            self._write_journal(self._local_journals.get(sid), bot.journal_records())
            loopback += [(data, addr, local) for data, addr in bot.datagrams_to_send(now)]
            for event in bot.events():
                if isinstance(event, ev.NextGameRequested) and not bot.closing:
                    with contextlib.suppress(SessionError):
                        bot.start_next_game(now, event.game)  # a bot always plays again
            if bot.finished(now):
                del self._local[sid]
                closing = self._local_journals.pop(sid, None)
                if closing is not None:
                    closing.close()
        return loopback

    def _deliver_local(self, data: bytes, addr: Addr, bot: LocalSeat | None,
                       now: float) -> None:
        """A datagram between a table we host and one of its bots, handed across."""
        try:
            sid = _sid_of(data)
        except WireError:  # pragma: no cover (our own datagrams)
            return
        if bot is not None:  # the bot to its host
            host = self._routes.get(sid)
            if host is not None:
                host.receive(data, (LOCAL, bot.seat), now)
        else:
            local = self._local.get(sid)
            if local is not None:
                local.session.receive(data, (LOCAL, 0), now)

    def _think(self, now: float) -> None:
        """Play the bots' decisions that came back, and hand out work for the bots whose
        table changed."""
        decided, self._decided = self._decided, []
        moved = False
        for item, action in decided:
            local = item.local
            if local is not None:
                local.thinking = False
                if action is None or local.state() != item.state or local.session.closing:
                    continue
                with contextlib.suppress(IllegalAction, SessionError):
                    local.session.act(action, now)
                    moved = True
            else:
                seat = item.view.seat
                session = self.sessions.get(item.table)
                if (action is None or session is None or seat not in session.bots
                        or self._stand_in_state(session, seat) != item.state):
                    continue
                with contextlib.suppress(IllegalAction, SessionError):
                    session.play_for(seat, action, now)
                    moved = True
        self._hand_out_stand_ins()
        if moved or decided:
            self._settle_sessions(now)  # the moves' datagrams to the host
        for local in self._local.values():
            state = local.state()
            if local.thinking or state == local.seen or not local.session.in_game:
                continue
            local.seen = state
            local.thinking = True
            self._work.append(Thinking(local.driver, make_view(local.session), state, local))

    def _hand_out_stand_ins(self) -> None:
        """Tables we host: a bot plays each seat lost for its grace period (the session
        opened its hand) until the player is back."""
        for table in self._hosted:
            session = self.sessions.get(table)
            if session is None:
                continue
            dealer = session.dealer
            for seat in sorted(session.bots):
                if dealer is None or seat not in dealer.adopted:
                    continue  # its hand is still being opened
                state = self._stand_in_state(session, seat)
                driver, seen = self._stand_ins.get((table, seat), (None, ()))
                if driver is None:
                    driver = BotDriver(build_bot(self.stand_in,
                                                 seed=self._bot_rng.getrandbits(32)))
                if state == seen or not session.in_game:
                    self._stand_ins[(table, seat)] = (driver, seen)
                    continue
                self._stand_ins[(table, seat)] = (driver, state)
                assert session.game is not None
                view = replace(make_view(session), seat=seat, pending={}, refused={},
                               game=seat_view(session.game, seat),
                               waiting_for_cards=session.game.unknown_count(seat) > 0)
                self._work.append(Thinking(driver, view, state, None, table))

    @staticmethod
    def _stand_in_state(session: Session, seat: int) -> tuple[Any, ...]:
        unknown = session.game.unknown_count(seat) if session.game is not None else 0
        return (session.game_no, len(session.log), seat in session.bots, unknown)
