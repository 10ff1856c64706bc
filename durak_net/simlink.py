"""An in-memory network with simulated time, for testing protocol objects without sockets.

Endpoints are sans-I/O objects (a :class:`~durak_net.session.Session`, a
:class:`~durak_net.lobby.Lobby`...) registered under an address.  Every datagram they
emit may be lost, duplicated, delayed by a random amount (which reorders them), all
drawn from one seeded generator, so a failing run replays exactly.  Time jumps from
one event to the next: nothing sleeps, and minutes of protocol time take
milliseconds.

>>> import random
>>> net = SimNet(random.Random(1), loss=0.3, duplicate=0.1)
>>> net.now
0.0
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Protocol

Addr = tuple[str, int]


class Endpoint(Protocol):
    """The sans-I/O interface the simulated network drives."""

    def receive(self, data: bytes, addr: Addr, now: float) -> None: ...

    def timer(self, now: float) -> None: ...

    def next_timer(self) -> float | None: ...

    def datagrams_to_send(self, now: float) -> list[tuple[bytes, Addr]]: ...


class SimNet:
    """Endpoints joined by a lossy, duplicating, reordering link (see the module doc).

    ``delay`` is the range of one-way delays in seconds; ``broadcast`` names the
    address that reaches every other endpoint (for discovery).
    """

    def __init__(
        self,
        rng: random.Random,
        *,
        loss: float = 0.0,
        duplicate: float = 0.0,
        delay: tuple[float, float] = (0.0002, 0.002),
        broadcast: Addr = ("<broadcast>", 0),
    ) -> None:
        self.rng = rng
        self.loss = loss
        self.duplicate = duplicate
        self.delay = delay
        self.broadcast = broadcast
        self.now = 0.0
        self.endpoints: dict[Addr, Endpoint] = {}
        self._queue: list[tuple[float, int, Addr, bytes, Addr]] = []
        self._order = itertools.count()
        self.stats: Counter[str] = Counter()
        #: Called after every step with the current time (bots act here).
        self.hooks: list[Callable[[float], float | None]] = []
        #: Datagrams are passed through this before sending (tests inject or tamper here).
        self.tap: Callable[[bytes, Addr, Addr], bytes | None] | None = None
        #: Hooks that call :meth:`touch` for every endpoint they act on.  While every
        #: hook is one, :meth:`run` flushes only the endpoints a hook touched and keeps
        #: the timers of the endpoints nothing touched (see :meth:`run`).
        self.touching: set[Callable[[float], float | None]] = set()
        #: The endpoints that may have changed since the hooks last ran in :meth:`run`:
        #: those the last step delivered to or ran the timer of, and those a hook
        #: touched.  None (anything may have changed) in the first round (the caller
        #: may have done anything) and while a hook is not one of :attr:`touching`.
        #: A hook may look at only these.
        self.touched: set[Addr] | None = None
        self._acted: set[Addr] = set()  # touched by the hooks since the last step
        # Within run(), each endpoint's next_timer() as last read; those in _stale
        # have changed since (None: read every endpoint's, as outside run()).
        self._timers: dict[Addr, float | None] | None = None
        self._stale: set[Addr] = set()

    def add(self, addr: Addr, endpoint: Endpoint) -> None:
        self.endpoints[addr] = endpoint
        self.touch(addr)

    def remove(self, addr: Addr) -> None:
        self.endpoints.pop(addr, None)
        if self._timers is not None:
            self._timers.pop(addr, None)

    def touch(self, addr: Addr) -> None:
        """A hook (one of :attr:`touching`) acted on the endpoint at ``addr``: it may
        have something to send, its timers may have moved."""
        self._acted.add(addr)
        self._stale.add(addr)

    def send(self, data: bytes, src: Addr, dst: Addr) -> None:
        """Put one datagram on the wire (subject to loss, duplication and delay)."""
        if self.tap is not None:
            tapped = self.tap(data, src, dst)
            if tapped is None:
                return
            data = tapped
        targets = (
            [a for a in self.endpoints if a != src] if dst == self.broadcast else [dst]
        )
        for target in targets:
            self.stats["sent"] += 1
            if self.rng.random() < self.loss:
                self.stats["lost"] += 1
                continue
            copies = 2 if self.rng.random() < self.duplicate else 1
            self.stats["duplicated"] += copies - 1
            for _ in range(copies):
                at = self.now + self.rng.uniform(*self.delay)
                heapq.heappush(self._queue, (at, next(self._order), target, data, src))

    def flush(self, only: set[Addr] | None = None) -> None:
        """Collect and send every endpoint's pending datagrams (``only``: those at
        these addresses)."""
        for addr, endpoint in list(self.endpoints.items()):
            if only is None or addr in only:
                for data, dst in endpoint.datagrams_to_send(self.now):
                    self.send(data, addr, dst)

    def step(self, extra: float | None = None) -> bool:
        """Advance to the next event and process it; False when nothing is left to do.

        Each endpoint's timer is read before the deliveries and again only for the
        endpoints that received something (nothing else changes an endpoint's timers
        within a step), and only the endpoints that received or had a timer due are
        asked for datagrams: an endpoint whose timer lies in the future has nothing to
        send (:meth:`run` flushes the endpoints its hooks acted on).  Within
        :meth:`run`, while every hook reports what it touches, a timer is read again
        only for an endpoint that received, ran its timer, sent or was touched since
        it was last read: nothing else changes it.  The same events in the same order
        as asking every endpoint every time, at a fraction of the cost on a table of
        six.
        """
        endpoints = self.endpoints
        timers = self._timers
        if timers is None:
            timers = {addr: endpoint.next_timer() for addr, endpoint in endpoints.items()}
        else:
            for addr in self._stale:
                endpoint = endpoints.get(addr)
                if endpoint is not None:
                    timers[addr] = endpoint.next_timer()
            self._stale.clear()
        queue = self._queue
        t = queue[0][0] if queue else None
        for due in timers.values():
            if due is not None and (t is None or due < t):
                t = due
        if extra is not None:
            t = extra if t is None else min(t, extra)
        if t is None:
            return False
        self.now = now = max(self.now, t)
        received: set[Addr] = set()
        while queue and queue[0][0] <= now:
            _, _, target, data, src = heapq.heappop(queue)
            endpoint = endpoints.get(target)
            if endpoint is None:
                self.stats["unreachable"] += 1
                continue
            self.stats["delivered"] += 1
            endpoint.receive(data, src, now)
            received.add(target)
        busy = []
        for addr, endpoint in endpoints.items():
            if addr in received:
                due = endpoint.next_timer()
                busy.append((addr, endpoint))
            else:
                due = timers[addr]
            if due is not None and due <= now:
                endpoint.timer(now)
                if addr not in received:
                    busy.append((addr, endpoint))
        for addr, endpoint in busy:
            for data, dst in endpoint.datagrams_to_send(now):
                self.send(data, addr, dst)
        touched = {addr for addr, _ in busy}
        self.touched = touched | self._acted
        self._acted = set()
        self._stale |= touched
        return True

    def run(self, until: Callable[[], bool], limit: float, max_steps: int = 1_000_000) -> bool:
        """Step until ``until()`` holds (True) or simulated time passes ``limit`` (False).

        Hooks run after every step; one may return a time at which it wants to run
        again (a bot's thinking time), which bounds the next jump.  Then every endpoint
        is asked for datagrams, or, while every hook is one of :attr:`touching`, only
        those the hooks touched (after the first round: the caller may have acted on
        any endpoint before calling); the others sent what they had when they were
        last busy, and their timers stand.
        """
        self._acted = set()
        self._timers = None
        first = True
        try:
            for _ in range(max_steps):
                partial = not first and self.touching.issuperset(self.hooks)
                first = False
                if not partial:
                    self.touched = None
                wake: float | None = None
                for hook in self.hooks:
                    t = hook(self.now)
                    if t is not None and (wake is None or t < wake):
                        wake = t
                if partial:
                    if self._acted:
                        self.flush(self._acted)
                    if self._timers is None:
                        self._timers = {addr: endpoint.next_timer()
                                        for addr, endpoint in self.endpoints.items()}
                        self._stale = set()
                else:
                    self.flush()
                    self._timers = None
                if until():
                    return True
                if self.now > limit or not self.step(wake):
                    return until()
            return until()
        finally:
            self._timers = None
