"""A peer whose network is its pages' data channels, driven on the kernel's event loop.

:class:`OnlineNode` is to a WebRTC data channel what :class:`~durak_net.node.LanNode`
is to UDP: the thin layer that drives the sans-I/O :class:`~durak_net.peer.PeerCore`
(lobby, sessions, bots) and only shuttles bytes, here through
:class:`~durak_widgets.channel.ChannelCarrier`.  It has no thread of its own: every
datagram, timer and command runs on the table's :class:`~durak_widgets.handoff.Handoff`
(the kernel's event loop), so it works where threads do not (JupyterLite), and the
widgets it feeds are only ever touched from that loop.  A bot's move is thought on a
worker thread where there are threads, in a later turn of the loop where there are not.

Each channel is one peer at an opaque address (``("rtc", n)``), announced to
directly once the channel is open (the lobby's ``connect``); the lobby's broadcasts,
for finding peers on a LAN, go nowhere.  Its commands are LanNode's, so the LAN
lobby and table (:class:`~durak_widgets.lan.LanLobby`,
:class:`~durak_widgets.lan_table.LanBackend`) run over it unchanged.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from durak_core import Action, Rules
from durak_net import mental
from durak_net.commands import CoreCommands
from durak_net.lobby import BROADCAST
from durak_net.peer import PeerCore, Thinking
from durak_net.reliable import RtoConfig
from durak_net.session import SessionConfig

from .browser import threads_available
from .channel import ChannelCarrier, PageChannel
from .handoff import Handoff

T = TypeVar("T")

#: How the reliable streams time their resends over a page's channel.  A datagram
#: crosses the kernel's comm and the Jupyter server twice a round trip, and a busy
#: server holds messages in its queue for a second or more: with the LAN's timing
#: (first 50 ms, at most 1 s) a loaded machine resent four packets in ten for nothing,
#: each resend more work for that same server.  RFC 6298's first timeout (1 s), a
#: floor of half a second and a ceiling of 3 s; the timeout still follows the round
#: trip measured.
CHANNEL_RTO = RtoConfig(initial=1.0, minimum=0.5, maximum=3.0)

Addr = tuple[str, int]


class OnlineNode(CoreCommands):
    """A :class:`PeerCore` over page channels, on the hand-off's loop (module doc).

    name: shown to the other players.
    on_event: called with every event, in order, on the hand-off's thread.
    handoff: where everything runs (the table's).
    clock: the monotonic clock the core's deadlines are on (tests move a fake one on, to
        see a silent peer settled without waiting a minute).
    """

    def __init__(self, name: str, *, on_event: Callable[[Any], None], handoff: Handoff,
                 rules: Rules | None = None, journal_dir: Path | str | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        mental.warm_up()  # SodiumMissing (with how to install libsodium) if it is not there
        self.handoff = handoff
        self.clock = clock
        self._on_event = on_event
        self.core = PeerCore(name, clock(), rules=rules, journal_dir=journal_dir,
                             session_config=SessionConfig(rto=CHANNEL_RTO),
                             entropy=os.urandom, ports=False)
        self.carriers: dict[Addr, ChannelCarrier] = {}
        #: Datagrams the carriers could not send, by reason.
        self.drops: Counter[str] = Counter()
        #: What the game port and discovery are to a LAN lobby: none here.
        self.game_port = 0
        self.discovery_error: str | None = None
        self._timer_at: float | None = None
        self._worker: ThreadPoolExecutor | None = None
        self._closed = False

    # ------------------------------------------------------------ channels

    def add_channel(self, channel: PageChannel) -> ChannelCarrier:
        """Carry the core's datagrams over ``channel`` (one peer); returns its carrier."""
        carrier = ChannelCarrier(channel, self.handoff, self._arrived, self._flush)
        self.carriers[carrier.address] = carrier
        return carrier

    def channel_open(self, carrier: ChannelCarrier) -> None:
        """The channel opened: introduce ourselves to the peer behind it at once."""
        self.core.lobby.connect(carrier.address)
        self._flush()

    # ------------------------------------------------------------ LanNode's commands

    def drop_counts(self) -> Counter[str]:
        total = self.core.drop_counts()
        total.update(self.drops)
        return total

    def close(self, leave: bool = False, timeout: float = 2.0) -> None:
        """Stop (idempotent); ``leave``: say goodbye in every session first (sent at
        once: the acknowledgements are not waited for, the loop must not block)."""
        if self._closed:
            return
        if leave:
            with contextlib.suppress(Exception):
                self.core.leave_all(self.clock())
                self._flush()
        self._closed = True
        self.core.close()
        for carrier in self.carriers.values():
            carrier.channel.close_channel()
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------ driving the core

    def _query(self, fn: Callable[[], T]) -> T:
        return fn()  # (everything runs on the kernel's loop: nothing to lock)

    def _command(self, fn: Callable[[float], T]) -> T:
        result = fn(self.clock())
        self._flush()
        return result

    def _arrived(self, data: bytes, addr: Addr) -> None:
        """A datagram from a channel (on the hand-off's thread; the carrier flushes
        once after a burst)."""
        if self._closed:
            return
        self.core.receive(data, addr, self.clock())

    def _flush(self) -> None:
        """Send what the core has, hand out its bots' work, deliver its events, and
        set the timer for its next deadline."""
        if self._closed:
            return
        now = self.clock()
        outgoing: dict[Addr, list[bytes]] = {}
        for data, addr in self.core.datagrams_to_send(now):
            if addr == BROADCAST:
                continue  # LAN discovery; a channel's peer is announced to directly
            if addr not in self.carriers:
                self.drops["no_channel"] += 1
            else:
                outgoing.setdefault(addr, []).append(data)
        for addr, datagrams in outgoing.items():  # in order, one comm message a channel
            sent = self.carriers[addr].send_many(datagrams)
            self.drops["channel_not_open"] += len(datagrams) - sent
        for item in self.core.work():
            self._think(item)
        for event in self.core.events():
            try:
                self._on_event(event)
            except Exception as exc:  # the handler's bug must not stop the peer
                self.core.errors.append(exc)
        self._arm(self.core.next_timer())

    def _arm(self, due: float | None) -> None:
        """One timer on the loop for the core's next deadline (an earlier one wins)."""
        if due is None or (self._timer_at is not None and self._timer_at <= due):
            return
        self._timer_at = due
        delay = max(0.0, due - self.clock())
        if self.handoff.timers:
            self.handoff.post_later(delay, self._tick)
        else:  # no loop with timers (plain Python, tests): a timer thread posts the tick
            timer = threading.Timer(delay, lambda: self.handoff.post(self._tick))
            timer.daemon = True
            timer.start()

    def _tick(self) -> None:
        if self._closed:
            return
        now = self.clock()
        if self._timer_at is not None and now + 0.001 < self._timer_at:
            return  # a later timer of ours was superseded by an earlier one
        self._timer_at = None
        self.core.timer(now)
        self._flush()

    def _think(self, item: Thinking) -> None:
        """A bot's move: on a worker thread (its choice comes back through the
        hand-off), or in a later turn of the loop where there are no threads."""
        if not threads_available():
            self.handoff.post(lambda: self._decided(item, item.choose()))
            return
        if self._worker is None:
            self._worker = ThreadPoolExecutor(1, thread_name_prefix="durak-online-bot")

        def done(future: Future[Action | None]) -> None:
            self.handoff.post(lambda: self._decided(item, future.result()))

        self._worker.submit(item.choose).add_done_callback(done)

    def _decided(self, item: Thinking, action: Action | None) -> None:
        if self._closed:
            return
        self.core.decided(item, action, self.clock())
        self._flush()
