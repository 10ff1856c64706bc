"""A LAN peer: the sans-I/O lobby and sessions, driven over UDP by one daemon thread.

This is the thin layer that owns the sockets and the thread, and only shuttles bytes:
the receiving thread reads datagrams, feeds them to the :class:`~durak_net.lobby.Lobby`
or the right :class:`~durak_net.session.Session`, runs their timers, writes journal
records, sends what they produce, and hands their events, in order, to one callback.
It never prints and never touches widgets: in a notebook, the callback is the widgets
controller's thread-safe hand-off point onto the kernel's event loop.

Calls from other threads (``invite``, ``act``...) take the same lock, act at once and
wake the thread so its timers are recomputed.  Errors of the caller (an illegal move,
an unknown peer) are raised to the caller; nothing the network does is ever raised.

>>> node = LanNode("Doc", port=0, broadcast=[])
>>> node.game_port > 0
True
>>> node.close()
"""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import random
import selectors
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from durak_core import Action, Game, IllegalAction, Rules

from . import events as ev
from . import mental
from .botplay import BotDriver, build_bot
from .crypto import Entropy, random_id
from .journal import Journal, read_journal, resumable
from .lobby import BROADCAST, Lobby, LobbyConfig
from .seats import LOCAL, LocalSeat, open_bot_seat, restore_bot_seat, seat_view
from .session import JOURNAL_VERSION, Role, Session, SessionConfig, SessionError
from .teams import ANY_TEAM, check_team, seat_for_team
from .transport import Sender, broadcast_targets, open_discovery_socket, open_game_socket
from .wire import (
    DISCOVERY_PORT,
    KIND_DISCOVERY,
    MAX_DATAGRAM,
    TableInfo,
    WireError,
    check_header,
)
from .wire import session_id_of as _sid_of

Addr = tuple[str, int]
EventHandler = Callable[[Any], None]


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


def parse_hostport(text: str) -> Addr:
    """``"10.0.0.5:40123"`` -> ``("10.0.0.5", 40123)``, with a clear error otherwise."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"expected HOST:PORT (e.g. 10.0.0.5:40123), not {text!r}")
    try:
        address = socket.gethostbyname(host)
    except OSError as exc:
        raise ValueError(f"unknown host {host!r}: {exc}") from None
    return address, int(port)


class LanNode:
    """One peer on the LAN (see the module docstring).

    name: shown to the other players.
    on_event: called with every event, in order, from whichever thread produced it
        (the receiving thread, or the caller of ``act``...).  Without it, events go
        to :attr:`events` (a :class:`queue.Queue`).
    port: the shared discovery port (37020); 0 disables discovery (use ``connect``).
    game_port: this peer's own port (0: ephemeral).
    connect: peers' ``HOST:PORT`` (their game ports) to announce ourselves to directly.
    loss: share of outgoing datagrams dropped on purpose (demos and tests).
    journal_dir: where session journals go (None: no journal, no resume).
    broadcast: override the broadcast targets (tests; [] for none).
    """

    def __init__(
        self,
        name: str,
        *,
        on_event: EventHandler | None = None,
        rules: Rules | None = None,
        port: int = DISCOVERY_PORT,
        game_port: int = 0,
        host: str = "0.0.0.0",
        connect: Iterable[str | Addr] = (),
        loss: float = 0.0,
        loss_seed: int | None = None,
        journal_dir: Path | str | None = None,
        broadcast: list[str] | None = None,
        session_config: SessionConfig | None = None,
        lobby_config: LobbyConfig | None = None,
        entropy: Entropy = os.urandom,
    ) -> None:
        # Everything that can be refused is checked before a socket is opened.
        mental.warm_up()  # SodiumMissing (with how to install libsodium) if it is not there
        targets = [parse_hostport(t) if isinstance(t, str) else t for t in connect]
        if not 0.0 <= loss < 1.0:
            raise ValueError(f"loss must be in [0, 1), not {loss!r}")
        self.rules = rules or Rules()
        self.lobby = Lobby(name, 0, self.rules, time.monotonic(), entropy=entropy,
                           config=lobby_config)  # validates the name and rules
        self.events: queue.Queue[Any] = queue.Queue()
        self._on_event = on_event or self.events.put
        self.port = port
        self.session_config = session_config or SessionConfig()
        self.journal_dir = Path(journal_dir) if journal_dir is not None else None
        self._entropy = entropy
        self._lock = threading.RLock()
        self._deliver_lock = threading.Lock()
        self._outbox: list[Any] = []
        self.drops: Counter[str] = Counter()
        #: Exceptions raised by the event handler (counted, never propagated).
        self.handler_errors: list[BaseException] = []
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
        self._bot_worker: ThreadPoolExecutor | None = None
        self._bot_moves: list[tuple[LocalSeat, tuple[Any, ...], Action | None]] = []
        self._bot_rng = random.Random(int.from_bytes(entropy(8), "big"))
        self._local_journals: dict[int, Journal] = {}
        self._rules = self.lobby.rules  # what we invite with when we host no table
        #: The bot that plays a lost seat of a table we host after its grace period.
        self.stand_in = "greedy"
        self._stand_ins: dict[tuple[int, int], tuple[BotDriver, tuple[Any, ...]]] = {}
        self._stand_in_moves: list[tuple[int, int, tuple[Any, ...], Action | None]] = []
        self._targets = broadcast_targets() if broadcast is None else list(broadcast)
        self._game = open_game_socket(game_port, host)
        self._game_port = int(self._game.getsockname()[1])
        self.lobby.game_port = self._game_port
        self._discovery: socket.socket | None = None
        self.discovery_error: str | None = None
        if port:
            try:
                self._discovery = open_discovery_socket(port, host)
            except OSError as exc:  # still playable through `connect`
                self.discovery_error = f"cannot listen on UDP port {port}: {exc}"
        self.sender = Sender(self._game, loss, loss_seed)
        for target in targets:
            self.lobby.connect(target)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._stopping = False
        self._leave_deadline: float | None = None
        self._thread = threading.Thread(target=self._run, name=f"durak-lan {name}", daemon=True)
        self._thread.start()

    # ================================================================ info

    @property
    def name(self) -> str:
        return self.lobby.name

    @property
    def node_id(self) -> int:
        return self.lobby.node

    @property
    def game_port(self) -> int:
        """This peer's own UDP port (other peers send everything but broadcasts here)."""
        return self._game_port

    @property
    def alive(self) -> bool:
        """Is the receiving thread running?"""
        return self._thread.is_alive()

    def peers(self) -> list[ev.PeerInfo]:
        """Peers currently seen on the LAN."""
        with self._lock:
            return [p.info for p in self.lobby.peers.values()]

    def find_peer(self, name: str, settled: float = 0.0) -> ev.PeerInfo | None:
        """The peer seen with this display name, or this ``HOST:PORT``, or whose node id
        (in hex, as the lobby shows it when two peers share a name) starts with ``name``
        (at least 4 digits).

        ``ValueError`` when two peers announce the name: someone may be pretending to
        be the other, so the message lists both by id and address; pick one and compare
        the pairing words.  ``settled``: None until the one peer of that name has been
        seen for this many seconds (a second one announcing it would be seen by then).
        """
        text = name.strip()
        with self._lock:
            now = time.monotonic()
            known = list(self.lobby.peers.values())
            named = [p for p in known if p.info.name == name]
            if not named and ":" in text:
                named = [p for p in known if f"{p.info.addr[0]}:{p.info.addr[1]}" == text]
            digits = text.lower().removeprefix("#").removeprefix("0x")
            if not named and len(digits) >= 4 and all(c in "0123456789abcdef" for c in digits):
                named = [p for p in known if f"{p.info.node:016x}".startswith(digits)]
                if len(named) > 1:
                    raise ValueError(f"{len(named)} peers have an id starting {digits}: "
                                     "type more of it")
        if len(named) > 1:
            where = ", ".join(f"id {p.info.node:016x} at {p.info.addr[0]}:{p.info.addr[1]}"
                              for p in named)
            raise ValueError(f"{len(named)} players announce the name {named[0].info.name!r}"
                             f" ({where}): invite one by its id and compare the pairing "
                             "words")
        if not named or now < named[0].first_seen + settled:
            return None
        return named[0].info

    def view(self, sid: int) -> SessionView | None:
        """A snapshot of session ``sid`` (a copy: safe to read from any thread)."""
        with self._lock:
            session = self.sessions.get(sid)
            return None if session is None else self._make_view(session)

    @staticmethod
    def _make_view(session: Session) -> SessionView:
        single = len(session.links) == 1
        audited = session.audits.get(session.game_no)
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
            kinds=tuple(session.players[s].kind for s in range(session.rules.players)),
            table=session.table,
            table_words=session.table_words,
            clock=session.clock,
            grace=session.grace,
            deadlines=tuple(session.deadlines.get(s) for s in range(session.rules.players)),
            seat_states=tuple(session.seat_state.get(s, "") for s in range(session.rules.players)),
            duraks=tuple(session.duraks[s] for s in range(session.rules.players)),
            rules=session.rules,
            played_for_us=sum(1 for e in session.log if e.played_by_bot_for(session.seat)),
            full_game=audited.game if audited is not None else "",
        )

    def game(self, sid: int) -> Game | None:
        """A copy of session ``sid``'s current game (safe to read from any thread)."""
        with self._lock:
            session = self.sessions.get(sid)
            return None if session is None or session.game is None else session.game.copy()

    def drop_counts(self) -> Counter[str]:
        """Datagrams dropped so far, by reason, over the lobby and all sessions."""
        with self._lock:
            total = Counter(self.drops)
            total.update(self.lobby.drops)
            for session in self.sessions.values():
                total.update(session.drops)
            return total

    # ================================================================ commands

    def invite(self, peer: int | str, rules: Rules | None = None,
               pin: str | None = None) -> int:
        """Invite a peer by node id, display name or ``HOST:PORT``; returns the
        invitation id.  With ``pin``, the invitee must type the same PIN to accept."""
        with self._lock:
            if isinstance(peer, str):
                info = self.find_peer(peer)
                if info is None:
                    raise ValueError(f"nobody called {peer!r} is on the LAN")
                peer = info.node
            invite = self.lobby.invite(peer, time.monotonic(), rules, pin)
        self._after_command()
        return invite

    def accept(self, invite: int, pin: str | None = None) -> None:
        """Accept an invitation (with the PIN the inviter read out, if it asked for one)."""
        with self._lock:
            self.lobby.accept(invite, time.monotonic(), pin)
        self._after_command()

    def decline(self, invite: int, reason: str = "declined") -> None:
        with self._lock:
            self.lobby.decline(invite, time.monotonic(), reason)
        self._after_command()

    def cancel(self, invite: int) -> None:
        with self._lock:
            self.lobby.cancel(invite, time.monotonic())
        self._after_command()

    def act(self, sid: int, action: Action) -> None:
        """Play ``action`` in session ``sid`` (raises IllegalAction with the reason)."""
        with self._lock:
            self._session(sid).act(action, time.monotonic())
        self._after_command()

    def start_next_game(self, sid: int, game: int | None = None) -> int:
        """Agree to a rematch in session ``sid``; returns the game number.

        Pass ``game`` (from a ``NextGameRequested`` event) to make agreeing
        idempotent: a game already dealt meanwhile is not an error.
        """
        with self._lock:
            number = self._session(sid).start_next_game(time.monotonic(), game)
        self._after_command()
        return number

    def leave(self, sid: int, reason: str = "left the game") -> None:
        """Say goodbye in session ``sid`` (the journal marks it finished)."""
        with self._lock:
            self._session(sid).close(time.monotonic(), reason)
        self._after_command()

    # ------------------------------------------------------------ tables

    def host_table(self, rules: Rules, clock: int = 0, grace: int = 60,
                   bots: Sequence[str] = ()) -> int:
        """Host a table of ``rules.players`` seats (we sit at seat 0); returns its id.

        It is announced on the LAN with its rules and open seats until play starts;
        players who ask to join are seated in the free seats (:class:`~durak_net.events.
        SeatTaken`), :meth:`add_bot` fills one with a bot, :meth:`start_table` deals.
        ``clock``: seconds each seat has for a move (0: no clock); ``grace``: seconds a
        lost seat is waited for before a bot may take it over.  ``bots``: specs of bots
        seated at seats 1, 2... before anyone on the LAN can see the table, so a player
        who asks at once never takes the seat a bot was meant for."""
        if not 2 <= rules.players <= 6:
            raise ValueError(f"a table has 2 to 6 seats, not {rules.players}")
        if not 0 <= clock <= 3600 or not 0 <= grace <= 3600:
            raise ValueError("the clock and the grace period are 0 to 3600 seconds")
        if len(bots) > rules.players - 1:
            raise ValueError(f"{len(bots)} bots do not fit the {rules.players - 1} free "
                             "seats")
        for spec in bots:
            build_bot(spec)  # an unknown bot: ValueError, and no table is hosted
        with self._lock:
            if any(t in self.sessions and not self.sessions[t].started for t in self._hosted):
                raise ValueError("we already host a table that has not started")
            now = time.monotonic()
            table = random_id(self._entropy)
            session = Session.host_table(table, rules, now, name=self.name,
                                         entropy=self._entropy, config=self.session_config,
                                         clock=clock, grace=grace)
            journal = (Journal.create(self.journal_dir, table, 0)
                       if self.journal_dir is not None else None)
            self._hosted.add(table)
            self._add_session(session, journal)
            for spec in bots:
                self._seat_bot(table, spec, None)
            self._update_announcement()
        self._after_command()
        return table

    def join(self, peer: int | str, team: int = ANY_TEAM) -> int:
        """Ask the peer (node id, name or ``HOST:PORT``) for a seat at the table it
        hosts; returns the table id.  The host's offer is accepted by itself:
        :class:`~durak_net.events.SessionAgreed` follows with our seat, or
        :class:`~durak_net.events.InviteClosed` with the reason there is none.

        team: at a table of teams, the team to sit in (the host gives its lowest free
        seat: :func:`~durak_net.teams.seat_for_team`); a team the announced rules do not
        have is refused here (``ValueError`` saying which teams there are)."""
        with self._lock:
            info = self._peer_info(peer)
            if info.table is None:
                raise ValueError(f"{info.name} hosts no table")
            table = int(info.table["table"])
            if team != ANY_TEAM:
                try:
                    rules = Rules.from_dict(dict(info.rules))
                except (TypeError, ValueError):
                    raise ValueError(f"{info.name}'s table plays rules this version does "
                                     "not know") from None
                check_team(rules, team)
            self.lobby.join(info.node, table, time.monotonic(), team)
        self._after_command()
        return table

    def add_bot(self, table: int, spec: str = "greedy", seat: int | None = None) -> int:
        """Seat a bot of ours (``random``, ``greedy``, ``ismcts``...) at a free seat of
        a table we host (the lowest, or ``seat``); returns the seat.  It plays in this
        process, labelled "bot" at every seat."""
        with self._lock:
            seat = self._seat_bot(table, spec, seat)
        self._after_command()
        return seat

    def _seat_bot(self, table: int, spec: str, seat: int | None) -> int:
        """:meth:`add_bot`'s work, under the lock."""
        host = self._session(table)
        if host.seat != 0:
            raise ValueError("only the host adds bots")
        free = [s for s in host.free_seats() if s not in self._offers.get(table, {})]
        if seat is None:
            if not free:
                raise ValueError("no free seat")
            seat = free[0]
        elif seat not in free:
            raise ValueError(f"seat {seat} is not free")
        local = open_bot_seat(host, seat, spec, time.monotonic(), entropy=self._entropy,
                              config=self.session_config,
                              seed=self._bot_rng.getrandbits(32))
        self._add_local(local, host)
        return seat

    def start_table(self, table: int) -> None:
        """Deal the first game at a table we host (every seat must be taken)."""
        with self._lock:
            self._session(table).start(time.monotonic())
            self._update_announcement()
        self._after_command()

    def _peer_info(self, peer: int | str) -> ev.PeerInfo:
        if isinstance(peer, str):
            info = self.find_peer(peer)
            if info is None:
                raise ValueError(f"nobody called {peer!r} is on the LAN")
            return info
        known = self.lobby.peers.get(peer)
        if known is None:
            raise ValueError(f"no peer {peer:x} on the LAN (it may have left)")
        return known.info

    def _add_local(self, local: LocalSeat, host: Session) -> None:
        """A bot seat of ours: journaled like any seat, its link carried in memory."""
        session = local.session
        self._local[session.sids()[0]] = local
        if self.journal_dir is not None:
            journal = Journal.create(self.journal_dir, session.table, session.seat)
            self._local_journals[session.sids()[0]] = journal
        for sid in host.sids():
            self._routes[sid] = host

    def resumable(self) -> list[tuple[Path, dict[str, Any]]]:
        """Unfinished sessions in the journal folder (path, header), newest first."""
        if self.journal_dir is None:
            return []
        with self._lock:
            return [(p, h) for p, h in resumable(self.journal_dir, self.name)
                    if h.get("version") == JOURNAL_VERSION
                    and int(h["table"]) not in self.sessions]

    def resume(self, path: Path | str) -> int:
        """Resume the session journaled in ``path``; returns its id."""
        records = read_journal(Path(path))
        with self._lock:
            session = Session.restore(records, time.monotonic(), entropy=self._entropy,
                                      config=self.session_config)
            if session.sid in self.sessions:
                raise ValueError(f"session {session.sid:x} is already running")
            bots = []
            for seat, player in session.players.items():
                if session.seat == 0 and player.kind == "bot":
                    bot_path = Path(path).with_name(f"{session.table:x}-seat{seat}.jsonl")
                    bots.append((bot_path, restore_bot_seat(
                        read_journal(bot_path), time.monotonic(), entropy=self._entropy,
                        config=self.session_config)))
            self._add_session(session, Journal(Path(path)))
            if session.seat == 0:
                self._hosted.add(session.table)
            for bot_path, local in bots:
                self._local[local.session.sids()[0]] = local
                self._local_journals[local.session.sids()[0]] = Journal(bot_path)
        self._after_command()
        return session.sid

    def close(self, leave: bool = False, timeout: float = 2.0) -> None:
        """Stop the thread and free the sockets (idempotent).

        leave: say goodbye in every session first (waits up to ``timeout`` for the
        acknowledgements); otherwise the peers see the connection lost and the game
        can be resumed from the journal.
        """
        with self._lock:
            if self._stopping:
                pass
            elif leave and self.sessions:
                now = time.monotonic()
                for session in self.sessions.values():
                    session.close(now, "left")
                self._leave_deadline = now + timeout
            self._stopping = True
        self._wake()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout + 1.0)
        with self._lock:
            for sock in (self._game, self._discovery, self._wake_r, self._wake_w):
                if sock is not None:
                    sock.close()
            for journal in [*self._journals.values(), *self._local_journals.values()]:
                journal.close()
        if self._bot_worker is not None:
            self._bot_worker.shutdown(wait=False, cancel_futures=True)
        self._pump()

    def __enter__(self) -> LanNode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ================================================================ internals

    def _session(self, sid: int) -> Session:
        session = self.sessions.get(sid)
        if session is None:
            raise ValueError(f"no session {sid:x}")
        return session

    def _after_command(self) -> None:
        with self._lock:
            if not self._stopping:
                self._flush(time.monotonic())
        self._wake()
        self._pump()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            self._wake_w.send(b"!")

    def _own_addr(self, peer: Addr) -> Addr | None:
        """Our game address as the way to ``peer`` leaves this machine: where the other
        seats of a table send us their heartbeats (None if there is no route)."""
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(peer)
                return (str(probe.getsockname()[0]), self._game_port)
        except OSError:
            return None

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
                    self.handler_errors.append(exc)
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
        self._outbox.append(event)

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

    def _take_lobby_events(self, now: float) -> None:
        """Act on the lobby's events (a session agreed is opened here)."""
        for event in self.lobby.events():
            self._on_lobby_event(event, now)

    def _flush(self, now: float) -> None:
        """Collect events, write journals, send datagrams: after every input.

        The lobby's datagrams go out first: an invitee's Paired must reach the inviter
        before the first datagram of the session it opens (the inviter creates its side
        of the session on the Paired, and would drop a session datagram before it).
        Datagrams between a table we host and its bots are handed across in memory
        until none is left.
        """
        self._take_lobby_events(now)
        for data, addr in self.lobby.datagrams_to_send(now):
            if addr == BROADCAST:
                if self._discovery is not None or self.port:
                    for target in self._targets:
                        self.sender.send(data, (target, self.port))
            else:
                self.sender.send(data, addr)
        for _ in range(64):
            loopback = self._flush_sessions(now)
            if not loopback:
                break
            for data, addr, bot in loopback:
                self._deliver_local(data, addr, bot, now)
        self._think(now)
        self._update_announcement()

    def _write_journal(self, journal: Journal | None, records: list[dict[str, Any]]) -> None:
        if journal is None or not records:
            return
        try:
            journal.write(records)
        except OSError as exc:  # a full disk must not stop the game
            self.drops["journal_error"] += 1
            self.handler_errors.append(exc)

    def _flush_sessions(self, now: float) -> list[tuple[bytes, Addr, LocalSeat | None]]:
        """Journal, send and collect events of every session and bot seat; returns the
        datagrams meant for this process (host <-> its bots)."""
        loopback: list[tuple[bytes, Addr, LocalSeat | None]] = []
        for sid, session in list(self.sessions.items()):
            self._write_journal(self._journals.get(sid), session.journal_records())
            for data, addr in session.datagrams_to_send(now):
                if addr[0] == LOCAL:
                    loopback.append((data, addr, None))
                else:
                    self.sender.send(data, addr)
            self._outbox.extend(session.events())
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
        """Apply the bots' decisions that came back, and give the bots whose table
        changed something to think about (on the worker, never on this thread)."""
        moves, self._bot_moves = self._bot_moves, []
        for local, state, action in moves:
            local.thinking = False
            if action is None or local.state() != state or local.session.closing:
                continue
            with contextlib.suppress(IllegalAction, SessionError):
                local.session.act(action, now)
        if self._think_for_lost_seats(now) or moves:
            for _ in range(64):  # the moves' datagrams to the host
                loopback = self._flush_sessions(now)
                if not loopback:
                    break
                for data, addr, bot in loopback:
                    self._deliver_local(data, addr, bot, now)
        for local in self._local.values():
            state = local.state()
            if local.thinking or state == local.seen or not local.session.in_game:
                continue
            local.seen = state
            local.thinking = True
            view = self._make_view(local.session)
            if self._bot_worker is None:
                self._bot_worker = ThreadPoolExecutor(1, thread_name_prefix="durak-bot")
            future = self._bot_worker.submit(self._bot_choose, local, view)
            future.add_done_callback(functools.partial(self._bot_decided, local, state))

    def _think_for_lost_seats(self, now: float) -> bool:
        """Tables we host: a bot plays each seat lost for its grace period (the session
        opened its hand) until the player is back.  True if a move was made."""
        moves, self._stand_in_moves = self._stand_in_moves, []
        moved = False
        for table, seat, state, action in moves:
            session = self.sessions.get(table)
            if (action is None or session is None or seat not in session.bots
                    or self._stand_in_state(session, seat) != state):
                continue
            with contextlib.suppress(IllegalAction, SessionError):
                session.play_for(seat, action, now)
                moved = True
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
                view = replace(self._make_view(session), seat=seat, pending={}, refused={},
                               game=seat_view(session.game, seat),
                               waiting_for_cards=session.game.unknown_count(seat) > 0)
                if self._bot_worker is None:
                    self._bot_worker = ThreadPoolExecutor(1, thread_name_prefix="durak-bot")
                future = self._bot_worker.submit(self._stand_in_choose, driver, view)
                future.add_done_callback(
                    functools.partial(self._stand_in_decided, table, seat, state))
        return moved

    @staticmethod
    def _stand_in_state(session: Session, seat: int) -> tuple[Any, ...]:
        unknown = session.game.unknown_count(seat) if session.game is not None else 0
        return (session.game_no, len(session.log), seat in session.bots, unknown)

    def _stand_in_choose(self, driver: BotDriver, view: SessionView) -> Action | None:
        try:
            return driver.choose(view)
        except Exception as exc:  # the stand-in's bug: its first legal move
            self.handler_errors.append(exc)
            legal = view.game.legal_actions(view.seat) if view.game is not None else []
            return legal[0] if legal else None

    def _stand_in_decided(self, table: int, seat: int, state: tuple[Any, ...],
                          future: Future[Action | None]) -> None:
        with self._lock:
            self._stand_in_moves.append((table, seat, state, future.result()))
        self._wake()

    def _bot_choose(self, local: LocalSeat, view: SessionView) -> Action | None:
        """On the worker: the bot's move; a bot that fails plays its first legal move
        (the error is kept in :attr:`handler_errors`), so the table goes on."""
        try:
            return local.driver.choose(view)
        except Exception as exc:
            self.handler_errors.append(exc)
            game = view.game
            if game is None:
                return None
            legal = [a for a in game.legal_actions(view.seat) if str(a) not in view.refused]
            return legal[0] if legal else None

    def _bot_decided(self, local: LocalSeat, state: tuple[Any, ...],
                     future: Future[Action | None]) -> None:
        """On the worker: hand the bot's choice to the node's thread."""
        with self._lock:
            self._bot_moves.append((local, state, future.result()))
        self._wake()

    def _next_deadline(self) -> float:
        times = [t for t in (self.lobby.next_timer(),) if t is not None]
        for session in [*self.sessions.values(), *(b.session for b in self._local.values())]:
            t = session.next_timer()
            if t is not None:
                times.append(t)
        if self._leave_deadline is not None:
            times.append(self._leave_deadline)
        return min(times, default=time.monotonic() + 1.0)

    def _dispatch(self, data: bytes, addr: Addr, now: float, direct: bool) -> None:
        try:
            kind = check_header(data)
        except WireError as exc:
            self.drops[exc.counter] += 1
            return
        if kind == KIND_DISCOVERY:
            self.lobby.receive(data, addr, now, direct=direct)
            # A Paired opens our side of a session at once: the peer's first session
            # datagram may be next in the socket's queue.
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

    def _service(self, now: float) -> None:
        due = self.lobby.next_timer()
        if due is not None and now >= due:
            self.lobby.timer(now)
        for session in [*self.sessions.values(), *(b.session for b in self._local.values())]:
            due = session.next_timer()
            if due is not None and now >= due:
                session.timer(now)
        self._flush(now)

    def _read(self, sock: socket.socket, now: float, direct: bool) -> None:
        for _ in range(256):  # bounded, so timers still run under a flood
            try:
                data, addr = sock.recvfrom(MAX_DATAGRAM + 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self.drops["receive_error"] += 1
                return
            self._dispatch(data, (addr[0], addr[1]), now, direct)

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._game, selectors.EVENT_READ, True)
        if self._discovery is not None:
            selector.register(self._discovery, selectors.EVENT_READ, False)
        selector.register(self._wake_r, selectors.EVENT_READ, None)
        try:
            while True:
                with self._lock:
                    if self._stopping and (
                        self._leave_deadline is None
                        or time.monotonic() >= self._leave_deadline
                        or all(s.closed for s in self.sessions.values())
                    ):
                        break
                    timeout = self._next_deadline() - time.monotonic()
                ready = selector.select(min(max(timeout, 0.0), 1.0))
                now = time.monotonic()
                with self._lock:
                    for key, _ in ready:
                        if key.data is None:
                            with contextlib.suppress(OSError):
                                self._wake_r.recv(4096)
                        else:
                            self._read(key.fileobj, now, key.data)  # type: ignore[arg-type]
                    self._service(now)
                self._pump()
        except Exception as exc:  # never print from this thread: keep it for the caller
            self.handler_errors.append(exc)
        finally:
            selector.close()

    def _pump(self) -> None:
        """Deliver queued events in order, one thread at a time, outside the lock."""
        while True:
            with self._lock:
                if not self._outbox:
                    return
            if not self._deliver_lock.acquire(blocking=False):
                return  # another thread is delivering; it will take ours too
            try:
                while True:
                    with self._lock:
                        if not self._outbox:
                            break
                        event = self._outbox.pop(0)
                    try:
                        self._on_event(event)
                    except Exception as exc:  # the handler's bug must not kill the thread
                        self.handler_errors.append(exc)
            finally:
                self._deliver_lock.release()
