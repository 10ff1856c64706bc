"""A LAN peer: a :class:`~durak_net.peer.PeerCore` driven over UDP by one daemon thread.

This is the thin layer that owns the sockets and the thread, and only moves bytes and
timers: the receiving thread reads datagrams and hands them to the core, runs its
timers, sends what it produces (broadcasts to every broadcast address on the discovery
port), runs the bots' thinking on a worker thread, and hands the core's events, in
order, to one callback.  What a peer *does* (the lobby, sessions, tables, bot seats)
is all in the core, which a WebRTC carrier or a simulated network drives the same way.
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
import selectors
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from durak_core import Action, Rules

from . import events as ev
from . import mental
from .commands import CoreCommands, EventPump
from .crypto import Entropy
from .i18n import N_, Refusal
from .lobby import BROADCAST, Lobby, LobbyConfig
from .options import LanOptions
from .peer import PeerCore, SessionView, Thinking, make_view
from .session import Session, SessionConfig
from .transport import Sender, broadcast_targets, open_discovery_socket, open_game_socket
from .wire import DISCOVERY_PORT, MAX_DATAGRAM

T = TypeVar("T")

__all__ = ["LanNode", "SessionView", "parse_hostport"]

Addr = tuple[str, int]
EventHandler = Callable[[ev.NetEvent], None]


def parse_hostport(text: str) -> Addr:
    """``"10.0.0.5:40123"`` -> ``("10.0.0.5", 40123)``, with a clear error otherwise."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise Refusal(N_("expected HOST:PORT (e.g. 10.0.0.5:40123), not {text}"),
                      text=repr(text))
    try:
        address = socket.gethostbyname(host)
    except OSError as exc:
        raise Refusal(N_("unknown host {host}: {reason}"), host=repr(host),
                      reason=str(exc)) from None
    return address, int(port)



class LanNode(CoreCommands, EventPump):
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
        #: The peer itself, without I/O: everything but the bytes and the thread.
        self.core = PeerCore(name, time.monotonic(), rules=rules,
                             session_config=session_config, lobby_config=lobby_config,
                             journal_dir=journal_dir, entropy=entropy,
                             own_addr=self._own_addr)  # validates the name and rules
        self.events: queue.Queue[Any] = queue.Queue()
        self._on_event = on_event or self.events.put
        self.port = port
        self._lock = threading.RLock()
        self._deliver_lock = threading.Lock()
        self._outbox: list[ev.NetEvent] = []
        #: Exceptions raised by the event handler, a bot or the disk (counted, never
        #: propagated).
        self.handler_errors: list[BaseException] = self.core.errors
        self._bot_worker: ThreadPoolExecutor | None = None
        self._targets = broadcast_targets() if broadcast is None else list(broadcast)
        self._game = open_game_socket(game_port, host)
        self._game_port = int(self._game.getsockname()[1])
        self.core.lobby.game_port = self._game_port
        self._discovery: socket.socket | None = None
        self.discovery_error: str | None = None
        if port:
            try:
                self._discovery = open_discovery_socket(port, host)
            except OSError as exc:  # still playable through `connect`
                self.discovery_error = f"cannot listen on UDP port {port}: {exc}"
        self.sender = Sender(self._game, loss, loss_seed)
        for target in targets:
            self.core.lobby.connect(target)
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._stopping = False
        self._leave_deadline: float | None = None
        self._thread = threading.Thread(target=self._run, name=f"durak-lan {name}", daemon=True)
        self._thread.start()

    @classmethod
    def from_options(cls, options: LanOptions, *, on_event: EventHandler | None = None,
                     **kwargs: Any) -> LanNode:
        """A node started with ``options`` (checked by the front end that built them);
        ``kwargs``: the rest of :class:`LanNode`'s arguments (tests)."""
        return cls(options.name, on_event=on_event, rules=options.rules, port=options.port,
                   game_port=options.game_port, connect=options.connect, loss=options.loss,
                   loss_seed=options.seed, journal_dir=options.journal_dir, **kwargs)

    # ================================================================ info

    @property
    def lobby(self) -> Lobby:
        return self.core.lobby

    @property
    def rules(self) -> Rules:
        return self.core.rules

    @property
    def sessions(self) -> dict[int, Session]:
        """Sessions by table id (read under :attr:`_lock`, or in tests)."""
        return self.core.sessions

    @property
    def session_config(self) -> SessionConfig:
        return self.core.session_config

    @property
    def journal_dir(self) -> Path | None:
        return self.core.journal_dir

    @property
    def drops(self) -> Counter[str]:
        return self.core.drops

    @property
    def stand_in(self) -> str:
        """The bot that plays a lost seat of a table we host after its grace period."""
        return self.core.stand_in

    @stand_in.setter
    def stand_in(self, spec: str) -> None:
        self.core.stand_in = spec

    @property
    def game_port(self) -> int:
        """This peer's own UDP port (other peers send everything but broadcasts here)."""
        return self._game_port

    @property
    def alive(self) -> bool:
        """Is the receiving thread running?"""
        return self._thread.is_alive()

    #: A session's snapshot (kept here for the callers that knew it here).
    _make_view = staticmethod(make_view)

    def close(self, leave: bool = False, timeout: float = 2.0) -> None:
        """Stop the thread and free the sockets (idempotent).

        leave: say goodbye in every session first (waits up to ``timeout`` for the
        acknowledgements); otherwise the peers see the connection lost and the game
        can be resumed from the journal.
        """
        with self._lock:
            if self._stopping:
                pass
            elif leave and self.core.sessions:
                now = time.monotonic()
                self.core.leave_all(now)
                self._leave_deadline = now + timeout
            self._stopping = True
        self._wake()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout + 1.0)
        with self._lock:
            for sock in (self._game, self._discovery, self._wake_r, self._wake_w):
                if sock is not None:
                    sock.close()
            self.core.close()
        if self._bot_worker is not None:
            self._bot_worker.shutdown(wait=False, cancel_futures=True)
        self._pump()

    def __enter__(self) -> LanNode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ================================================================ the byte mover

    def _command(self, fn: Callable[[float], T]) -> T:
        """The core's command now, under the lock; then what it caused is sent and the
        thread woken (:class:`~durak_net.commands.CoreCommands`)."""
        with self._lock:
            result = fn(time.monotonic())
        self._after_command()
        return result

    def _query(self, fn: Callable[[], T]) -> T:
        with self._lock:
            return fn()

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

    def _flush(self, now: float) -> None:
        """Send what the core has to send, queue its events, start its bots' work
        (under the lock, after every input)."""
        core = self.core
        for data, addr in core.datagrams_to_send(now):
            if addr == BROADCAST:
                if self._discovery is not None or self.port:
                    for target in self._targets:
                        self.sender.send(data, (target, self.port))
            else:
                self.sender.send(data, addr)
        self._outbox.extend(core.events())
        for item in core.work():
            if self._bot_worker is None:
                self._bot_worker = ThreadPoolExecutor(1, thread_name_prefix="durak-bot")
            future = self._bot_worker.submit(item.choose)
            future.add_done_callback(functools.partial(self._decided, item))

    def _decided(self, item: Thinking, future: Future[Action | None]) -> None:
        """On the worker: hand the bot's choice to the core, and wake the thread."""
        with contextlib.suppress(Exception):  # cancelled at close
            action = future.result()
            with self._lock:
                self.core.decided(item, action, time.monotonic())
            self._wake()

    def _read(self, sock: socket.socket, now: float, direct: bool) -> None:
        for _ in range(256):  # bounded, so timers still run under a flood
            try:
                data, addr = sock.recvfrom(MAX_DATAGRAM + 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                self.core.drops["receive_error"] += 1
                return
            self.core.receive(data, (addr[0], addr[1]), now, direct)

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
                        or self.core.all_closed()
                    ):
                        break
                    times = [t for t in (self.core.next_timer(), self._leave_deadline)
                             if t is not None]
                    timeout = min(times, default=time.monotonic() + 1.0) - time.monotonic()
                ready = selector.select(min(max(timeout, 0.0), 1.0))
                now = time.monotonic()
                with self._lock:
                    for key, _ in ready:
                        if key.data is None:
                            with contextlib.suppress(OSError):
                                self._wake_r.recv(4096)
                        else:
                            self._read(key.fileobj, now, key.data)  # type: ignore[arg-type]
                    self.core.timer(now)
                    self._flush(now)
                self._pump()
        except Exception as exc:  # never print from this thread: keep it for the caller
            self.handler_errors.append(exc)
        finally:
            selector.close()
