"""A reliable, ordered stream of frames over datagrams that may be lost, doubled or reordered.

Sans-I/O like the rest of the protocol: the session hands frames in with
:meth:`ReliableChannel.push`, asks which are due with :meth:`due`, feeds acknowledgements
back with :meth:`on_ack` and received frames with :meth:`receive`, and passes ``now``
to each.  Nothing here reads a clock or touches a socket.

Why these choices:

* every frame carries a sequence number; the receiver acknowledges at once (the
  session sends a bare ack when it has nothing to piggyback it on), cumulatively plus
  a short list of frames received beyond a gap (``sack``), so one lost ack costs
  nothing once the next arrives;
* the retransmission timeout adapts to the measured round trip (RFC 6298: smoothed
  RTT plus four deviations, Karn's rule: no samples from resent frames) with a floor
  of a few milliseconds, because a LAN round trip is well under one and a fixed
  200 ms timeout would make every lost datagram a visible stall;
* each resend of a frame doubles its own timeout, up to ``max_rto`` (one second), so
  a silent peer is probed once a second for as long as it takes to come back;
* frames received ahead of a gap are held (up to ``window``) and released in order
  when the gap fills; duplicates are counted and dropped.

>>> from durak_net.wire import Sync
>>> a, b = ReliableChannel(), ReliableChannel()
>>> first = a.push(Sync(0, 1, 0), now=0.0)
>>> second = a.push(Sync(0, 1, 1), now=0.0)
>>> [f.seq for f in a.due(0.0)]
[1, 2]
>>> b.receive(second), [f.log_len for f in b.receive(first)]
([], [0, 1])
>>> a.on_ack(*b.ack_state(), now=0.001); a.in_flight
0
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Generic, TypeVar

import msgspec

from .wire import Frame

F = TypeVar("F", bound=Frame)

#: Clock granularity term of RFC 6298 (seconds).
_GRANULARITY = 0.001


@dataclass
class _Outgoing:
    frame: Frame
    next_send: float
    last_sent: float = 0.0
    tries: int = 0


@dataclass(frozen=True)
class RtoConfig:
    """Retransmission timing.  Defaults suit a LAN; tests may stretch them."""

    initial: float = 0.05
    minimum: float = 0.004
    maximum: float = 1.0


class ReliableChannel(Generic[F]):
    """Both directions of one reliable stream (see the module docstring)."""

    def __init__(self, config: RtoConfig | None = None, window: int = 256, flight: int = 64):
        self.config = config or RtoConfig()
        self.window = window
        self.flight = flight
        self.stats: Counter[str] = Counter()
        self.srtt: float | None = None
        self.rttvar = 0.0
        self.rto = self.config.initial
        self.reset()

    def reset(self) -> None:
        """Forget both directions (the peer restarted: a new stream begins at 1).

        The RTT estimate is kept: the path did not change.
        """
        self._next_seq = 1
        self._unacked: dict[int, _Outgoing] = {}
        self._earliest: float | None = None  # the soonest next_send within the flight
        self._expected = 1
        self._held: dict[int, Frame] = {}
        self.ack_due = False

    def _recompute(self) -> None:
        earliest: float | None = None
        for count, item in enumerate(self._unacked.values()):
            if count >= self.flight:
                break
            if earliest is None or item.next_send < earliest:
                earliest = item.next_send
        self._earliest = earliest

    # ---------------------------------------------------------------- sending

    def push(self, frame: F, now: float) -> F:
        """Number ``frame`` (its ``seq`` is replaced) and queue it; it is due at once."""
        numbered = msgspec.structs.replace(frame, seq=self._next_seq)
        self._unacked[self._next_seq] = _Outgoing(numbered, next_send=now)
        self._next_seq += 1
        if len(self._unacked) <= self.flight and (self._earliest is None or now < self._earliest):
            self._earliest = now
        return numbered

    @property
    def in_flight(self) -> int:
        """Frames sent or queued and not yet acknowledged."""
        return len(self._unacked)

    def due(self, now: float) -> list[Frame]:
        """Frames to send now (first sends and retransmissions), in sequence order."""
        out: list[Frame] = []
        if self._earliest is None or self._earliest > now:
            return out  # nothing is due (the common case, asked after every input)
        for count, item in enumerate(self._unacked.values()):
            if count >= self.flight:
                break
            if item.next_send <= now:
                if item.tries:
                    self.stats["retransmitted"] += 1
                item.tries += 1
                item.last_sent = now
                backoff = self.rto * (2 ** min(item.tries - 1, 16))
                item.next_send = now + min(self.config.maximum, backoff)
                out.append(item.frame)
        self._recompute()
        return out

    def next_timer(self) -> float | None:
        """When the earliest unacknowledged frame is due again."""
        return self._earliest

    def on_ack(self, ack: int, sack: list[int], now: float) -> None:
        """The peer holds every frame up to ``ack`` and those in ``sack``."""
        if not self._unacked:
            return
        acked = [seq for seq in self._unacked if seq <= ack]
        acked += [seq for seq in sack if seq > ack and seq in self._unacked]
        sample: float | None = None
        for seq in acked:
            item = self._unacked.pop(seq)
            if item.tries == 1:  # Karn: a resent frame's ack is ambiguous
                rtt = now - item.last_sent
                sample = rtt if sample is None else min(sample, rtt)
        if acked:
            self._recompute()
        if sample is not None:
            self._update_rto(max(sample, 0.0))

    def _update_rto(self, rtt: float) -> None:
        if self.srtt is None:
            self.srtt, self.rttvar = rtt, rtt / 2
        else:
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - rtt)
            self.srtt = 0.875 * self.srtt + 0.125 * rtt
        rto = self.srtt + max(_GRANULARITY, 4 * self.rttvar)
        self.rto = min(self.config.maximum, max(self.config.minimum, rto))

    # -------------------------------------------------------------- receiving

    def receive(self, frame: F) -> list[F]:
        """Take in one received frame; return the frames now deliverable, in order."""
        self.ack_due = True
        seq = frame.seq
        if seq < self._expected or seq in self._held:
            self.stats["duplicate"] += 1
            return []
        if seq >= self._expected + self.window:
            self.stats["beyond_window"] += 1
            return []
        self._held[seq] = frame
        out: list[F] = []
        while self._expected in self._held:
            out.append(self._held.pop(self._expected))  # type: ignore[arg-type]
            self._expected += 1
        if self._held:
            self.stats["held_out_of_order"] += 1
        return out

    def ack_state(self) -> tuple[int, list[int]]:
        """(cumulative ack, up to 32 sequence numbers held beyond the gap)."""
        return self._expected - 1, sorted(self._held)[:32]
