"""The terminal's WebRTC carrier: a :class:`~durak_net.peer.PeerCore` over aiortc data
channels (docs/lan-protocol.md, section 14).

This is the one module that owns the WebRTC side's I/O: an asyncio loop on one daemon
thread, the ``RTCPeerConnection`` objects, their data channels, the timers and the
bots' worker.  Each open data channel is one peer at an opaque address
``("rtc", n)``; a datagram is one binary message.  The core is driven on the loop's
thread (datagrams and timers) and under one lock from the caller's (commands), as
:class:`~durak_net.node.LanNode` drives it over UDP, and :class:`RtcNode` offers the
same commands, so ``durak-lan`` plays the same way over either.

The codes a person copies are made here from the descriptions aiortc writes
(:mod:`durak_net.online_code` packs and expands them): :meth:`RtcNode.invitation`
makes a connection and its offer, :meth:`RtcNode.reply` answers a code,
:meth:`RtcNode.complete` takes the reply back.

aiortc (with PyAV) is the ``online`` extra: importing this module without it raises
:class:`OnlineMissing`, which says how to install it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import queue
import random
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from durak_core import Action, Rules

from . import mental
from .commands import CoreCommands, EventPump
from .crypto import Entropy
from .i18n import _
from .lobby import BROADCAST, LobbyConfig
from .online_code import DEFAULT_TTL, pack_description, unpack_description
from .peer import PeerCore, Thinking
from .session import SessionConfig
from .wire import MAX_DATAGRAM


class OnlineMissing(ImportError):
    """aiortc is not installed (it is the ``online`` extra)."""


try:
    from aiortc import (
        RTCConfiguration,
        RTCDataChannel,
        RTCIceServer,
        RTCPeerConnection,
        RTCSessionDescription,
    )
except ImportError as exc:  # pragma: no cover (the test extra installs it)
    raise OnlineMissing(_("playing online from a terminal needs aiortc: "
                          "pip install 'durak[online]'")) from exc

__all__ = ["CHANNEL_LABEL", "DEFAULT_ICE_SERVERS", "OnlineMissing", "RtcError", "RtcNode"]

Addr = tuple[str, int]
EventHandler = Callable[[Any], None]
T = TypeVar("T")

#: The data channel's label (section 14): a channel with another label is ignored.
CHANNEL_LABEL = "durak"
#: The ICE servers used unless told otherwise: one public STUN server, so that a peer
#: behind a NAT learns its public address (what play across the internet needs; a peer
#: offline finds no route to it and goes on with its host candidates).
DEFAULT_ICE_SERVERS: tuple[str, ...] = ("stun:stun.l.google.com:19302",)
#: How long gathering candidates and writing a description may take (seconds).
DESCRIBE_TIMEOUT = 30.0


class RtcError(RuntimeError):
    """A WebRTC step failed (no route, a description the stack refused): one line."""


class RtcNode(CoreCommands, EventPump):
    """One peer whose every other peer is at the end of a WebRTC data channel.

    name, rules, journal_dir, session_config, lobby_config, entropy: as
    :class:`~durak_net.node.LanNode`'s.  on_event: called with every event, in order;
    without it, events go to :attr:`events`.  ice_servers: STUN/TURN URLs
    (``stun:host:port``, ``turn:user:password@host:port``); by default
    :data:`DEFAULT_ICE_SERVERS`; ``()`` for none (host candidates only: one network,
    offline).  loss: share of
    outgoing datagrams dropped on purpose (demos and tests).
    """

    def __init__(
        self,
        name: str,
        *,
        on_event: EventHandler | None = None,
        rules: Rules | None = None,
        ice_servers: Sequence[str] = DEFAULT_ICE_SERVERS,
        loss: float = 0.0,
        loss_seed: int | None = None,
        journal_dir: Path | str | None = None,
        session_config: SessionConfig | None = None,
        lobby_config: LobbyConfig | None = None,
        entropy: Entropy = os.urandom,
    ) -> None:
        mental.warm_up()
        if not 0.0 <= loss < 1.0:
            raise ValueError(f"loss must be in [0, 1), not {loss!r}")
        self._ice = [_ice_server(url) for url in ice_servers]
        #: The peer itself, without I/O.
        self.core = PeerCore(name, time.monotonic(), rules=rules,
                             session_config=session_config, lobby_config=lobby_config,
                             journal_dir=journal_dir, entropy=entropy, ports=False)
        self.events: queue.Queue[Any] = queue.Queue()
        self._on_event = on_event or self.events.put
        self._lock = threading.RLock()
        self._deliver_lock = threading.Lock()
        self._outbox: list[Any] = []
        self._loss = loss
        self._rng = random.Random(loss_seed)
        #: Datagrams sent, dropped on purpose, refused by a closed channel.
        self.stats: Counter[str] = Counter()
        self.handler_errors: list[BaseException] = self.core.errors
        self._bot_worker: ThreadPoolExecutor | None = None
        self._connections: dict[Addr, RTCPeerConnection] = {}
        self._channels: dict[Addr, RTCDataChannel] = {}
        self._opened: dict[Addr, threading.Event] = {}
        self._failed: dict[Addr, str] = {}
        self._count = 0
        self._stopping = False
        self._settled = threading.Condition(self._lock)
        self._timer: asyncio.TimerHandle | None = None
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever,
                                        name=f"durak-rtc {name}", daemon=True)
        self._thread.start()

    # ================================================================ codes

    def invitation(self, *, ttl: float = DEFAULT_TTL) -> tuple[Addr, str]:
        """A new connection with its data channel, and its offer as an invitation code;
        the channel opens once :meth:`complete` is given the reply."""
        addr, sdp = self._wait(self._offer())
        return addr, pack_description(sdp, "offer", now=time.time(), ttl=ttl)

    def reply(self, code: str, *, ttl: float = DEFAULT_TTL) -> tuple[Addr, str]:
        """Answer an invitation code: a new connection and its reply code.
        :class:`~durak_net.online_code.CodeError` for a code that cannot be used (a
        reply code where an invitation was wanted among them)."""
        kind, sdp = unpack_description(code, now=time.time())
        if kind != "offer":
            raise RtcError(_("this is a reply code: give it to the player who sent the "
                             "invitation (durak-lan --online waits for it)"))
        addr, answer = self._wait(self._answer(sdp))
        return addr, pack_description(answer, "answer", now=time.time(), ttl=ttl)

    def complete(self, addr: Addr, code: str) -> None:
        """Give the connection at ``addr`` (from :meth:`invitation`) its reply code."""
        kind, sdp = unpack_description(code, now=time.time())
        if kind != "answer":
            raise RtcError(_("this is an invitation code, not the reply to ours: paste the "
                             "code the other player's terminal printed after taking ours"))
        self._wait(self._complete(addr, sdp))

    def wait_open(self, addr: Addr, timeout: float) -> bool:
        """Wait until the channel at ``addr`` is open (False: not within ``timeout``,
        or the connection failed: :meth:`failure` says why)."""
        opened = self._opened.get(addr)
        if opened is None:
            raise ValueError(f"no connection at {addr}")
        return opened.wait(timeout) and addr not in self._failed

    def failure(self, addr: Addr) -> str | None:
        """Why the connection at ``addr`` failed, if it did."""
        return self._failed.get(addr)

    @property
    def open_channels(self) -> list[Addr]:
        return [a for a, c in self._channels.items() if c.readyState == "open"]

    # ================================================================ info

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def close(self, leave: bool = False, timeout: float = 2.0) -> None:
        """Close every connection and stop the thread (idempotent).  leave: say goodbye
        in every session first, and wait up to ``timeout`` for the acknowledgements."""
        with self._lock:
            stopping, self._stopping = self._stopping, True
            if not stopping and leave and self.core.sessions:
                now = time.monotonic()
                self.core.leave_all(now)
                self._flush(now)
                deadline = now + timeout
                while not self.core.all_closed() and time.monotonic() < deadline:
                    self._settled.wait(deadline - time.monotonic())
        self._pump()
        if stopping or not self._thread.is_alive():
            return
        with contextlib.suppress(Exception):
            self._wait(self._close_all(), timeout=5.0)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5.0)
        if not self._thread.is_alive():
            self._loop.close()
        with self._lock:
            self.core.close()
        if self._bot_worker is not None:
            self._bot_worker.shutdown(wait=False, cancel_futures=True)
        self._pump()

    def __enter__(self) -> RtcNode:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ================================================================ the byte mover

    def _query(self, fn: Callable[[], T]) -> T:
        with self._lock:
            return fn()

    def _command(self, act: Callable[[float], T]) -> T:
        with self._lock:
            now = time.monotonic()
            result = act(now)
            self._flush(now)
        self._pump()
        return result

    def _wait(self, coro: Coroutine[Any, Any, T], timeout: float = DESCRIBE_TIMEOUT) -> T:
        """Run ``coro`` on the loop and wait for its result (from another thread)."""
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout)

    def _flush(self, now: float) -> None:
        """Send what the core has to send, queue its events, start its bots' work,
        and set the timer (under the lock, after every input)."""
        out = [(data, addr) for data, addr in self.core.datagrams_to_send(now)
               if addr != BROADCAST]  # no broadcast here: each channel is announced to
        if out:
            self._post(self._send_all, out)
        self._outbox.extend(self.core.events())
        for item in self.core.work():
            if self._bot_worker is None:
                self._bot_worker = ThreadPoolExecutor(1, thread_name_prefix="durak-bot")
            future = self._bot_worker.submit(item.choose)
            future.add_done_callback(functools.partial(self._decided, item))
        self._post(self._schedule)
        self._settled.notify_all()

    def _post(self, callback: Callable[..., object], *args: Any) -> None:
        """Run ``callback(*args)`` on the loop, in order (nothing once it is closed)."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: we are closing
            self._loop.call_soon_threadsafe(callback, *args)

    def _send_all(self, out: list[tuple[bytes, Addr]]) -> None:
        """On the loop: one message per datagram, on the channel of its address."""
        for data, addr in out:
            channel = self._channels.get(addr)
            if channel is None or channel.readyState != "open":
                self.stats["no_channel"] += 1
                continue
            if self._loss and self._rng.random() < self._loss:
                self.stats["dropped_on_purpose"] += 1
                continue
            try:
                channel.send(data)
                self.stats["sent"] += 1
            except Exception:  # a channel closing meanwhile: the protocol resends
                self.stats["send_error"] += 1

    def _schedule(self) -> None:
        """On the loop: call :meth:`_on_timer` when the core's next timer is due."""
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            due = self.core.next_timer()
        delay = 1.0 if due is None else min(max(due - time.monotonic(), 0.0), 1.0)
        self._timer = self._loop.call_later(delay, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        with self._lock:
            if self._stopping and not self.core.sessions:
                return
            now = time.monotonic()
            self.core.timer(now)
            self._flush(now)
        self._pump()

    def _on_message(self, addr: Addr, message: bytes | str) -> None:
        """On the loop: a message on the channel at ``addr`` is a datagram."""
        with self._lock:
            if not isinstance(message, bytes) or len(message) > MAX_DATAGRAM:
                self.core.drops["foreign" if not isinstance(message, bytes)
                                else "oversized"] += 1
                return
            now = time.monotonic()
            self.core.receive(message, addr, now)
            self._flush(now)
        self._pump()

    def _on_open(self, addr: Addr, channel: RTCDataChannel) -> None:
        """On the loop: a channel opened: the peer behind it is announced to (as a
        ``connect`` peer), and its datagrams are taken."""
        self._channels[addr] = channel
        channel.on("message", functools.partial(self._on_message, addr))
        with self._lock:
            self.core.lobby.connect(addr)
            self._flush(time.monotonic())
        self._opened[addr].set()
        self._pump()

    def _decided(self, item: Thinking, future: Future[Action | None]) -> None:
        with contextlib.suppress(Exception):  # cancelled at close
            action = future.result()
            with self._lock:
                now = time.monotonic()
                self.core.decided(item, action, now)
                self._flush(now)
            self._pump()

    # ================================================================ on the loop

    def _connection(self) -> tuple[Addr, RTCPeerConnection]:
        self._count += 1
        addr = ("rtc", self._count)
        pc = RTCPeerConnection(RTCConfiguration(iceServers=list(self._ice)))
        self._connections[addr] = pc
        self._opened[addr] = threading.Event()

        @pc.on("connectionstatechange")
        def _state() -> None:
            if pc.connectionState == "failed" and addr not in self._channels:
                self._failed[addr] = _("no route to the other player (ICE failed)")
                self._opened[addr].set()

        return addr, pc

    def _watch(self, addr: Addr, channel: RTCDataChannel) -> None:
        if channel.readyState == "open":
            self._on_open(addr, channel)
        else:
            channel.on("open", lambda: self._on_open(addr, channel))

    async def _offer(self) -> tuple[Addr, str]:
        addr, pc = self._connection()
        channel = pc.createDataChannel(CHANNEL_LABEL, ordered=False, maxRetransmits=0)
        self._watch(addr, channel)
        await pc.setLocalDescription(await pc.createOffer())
        return addr, pc.localDescription.sdp

    async def _answer(self, sdp: str) -> tuple[Addr, str]:
        addr, pc = self._connection()

        @pc.on("datachannel")
        def _channel(channel: RTCDataChannel) -> None:
            if channel.label == CHANNEL_LABEL and addr not in self._channels:
                self._watch(addr, channel)

        try:
            await pc.setRemoteDescription(RTCSessionDescription(sdp, "offer"))
            await pc.setLocalDescription(await pc.createAnswer())
        except ValueError as exc:
            raise RtcError(_("the invitation could not be used: {reason}").format(
                reason=exc)) from None
        return addr, pc.localDescription.sdp

    async def _complete(self, addr: Addr, sdp: str) -> None:
        pc = self._connections.get(addr)
        if pc is None:
            raise ValueError(f"no connection at {addr}")
        try:
            await pc.setRemoteDescription(RTCSessionDescription(sdp, "answer"))
        except ValueError as exc:
            raise RtcError(_("the reply could not be used: {reason}").format(
                reason=exc)) from None

    async def _close_all(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        for pc in list(self._connections.values()):
            with contextlib.suppress(Exception):
                await pc.close()
        # What aiortc still has running (a connection that never opened) ends here, so
        # the loop closes with nothing pending.
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in others:
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)


def _ice_server(url: str) -> RTCIceServer:
    """``stun:host:port`` or ``turn:user:password@host:port`` (ValueError otherwise)."""
    scheme, sep, rest = url.partition(":")
    if not sep or scheme not in ("stun", "turn", "turns") or not rest:
        raise ValueError(_("an ICE server is stun:HOST:PORT or turn:USER:PASSWORD@HOST:PORT, "
                           "not {url}").format(url=repr(url)))
    if scheme == "stun":
        return RTCIceServer(urls=url)
    credentials, at, where = rest.rpartition("@")
    user, _colon, password = credentials.partition(":")
    if not at or not user:
        raise ValueError(_("a TURN server needs a user and password: "
                           "turn:USER:PASSWORD@HOST:PORT, not {url}").format(url=repr(url)))
    return RTCIceServer(urls=f"{scheme}:{where}", username=user, credential=password)
