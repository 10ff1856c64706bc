"""The move clock, one part of a seat's session: when each seat's time for a move runs
out, as this seat keeps it.

Every seat keeps every seat's clock, started when *it* applies the entry that puts a
seat on move.  The host's clock is the one that acts (it plays take or pass for a seat
whose time ran out, or tells it to lead); a seated player's own clock is what it checks
a "timed out" entry of its own seat against (section 7 of the protocol).  The host
starts its clock when it logs the entry, a seat when the entry reaches it, so a seat's
deadline is later than the host's by the entry's delay on the way:
:data:`CLOCK_ALLOWANCE` covers it.  A seat that was away (its link lost, its kernel
restarted) saw entries late and cannot tell when its clock started: for a while it
judges nothing.  No I/O, no clock reads: ``now`` comes in.

>>> clock = MoveClock(seconds=30)
>>> clock.restart(100.0, [1])
>>> clock.early(1, 110.0)  # 20 s left: a timeout now would be 18 s too early
20.0
>>> clock.early(1, 128.5) is None  # within the allowance
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

#: How much earlier than a seat's own move clock the host's "timed out" may arrive
#: (seconds): the entry's delay on the way.  A timeout earlier than this is a fault of
#: the host.
CLOCK_ALLOWANCE = 2.0


@dataclass
class MoveClock:
    """Every seat's deadline (``now`` of this seat's driver), for a table whose clock
    gives ``seconds`` per move (0: no clock)."""

    #: Seconds a seat has for a move (the table's ``clock``; 0: none).
    seconds: int = 0
    #: When each seat the game waits for runs out of time.
    deadlines: dict[int, float] = field(default_factory=dict)
    #: Until then our own clock is not judged (we were away and saw entries late).
    away_until: float = 0.0

    def restart(self, now: float, waiting_for: Iterable[int]) -> None:
        """After every entry (and a new deal): each seat the game waits for gets the
        full time."""
        self.deadlines = {s: now + self.seconds for s in waiting_for} if self.seconds else {}

    def expired(self, now: float) -> list[int]:
        """The seats whose time has run out, in seat order."""
        return sorted(s for s, deadline in self.deadlines.items() if now >= deadline)

    def next_deadline(self) -> float | None:
        """When the next seat's time runs out (None: no clock runs)."""
        return min(self.deadlines.values()) if self.deadlines else None

    def stop(self, seat: int) -> None:
        """``seat``'s time ran out and was acted on: its clock stops until the next entry."""
        self.deadlines.pop(seat, None)

    def away(self, now: float) -> None:
        """We were away (our link came back, or our kernel restarted): for the next
        move's time, our own clock proves nothing."""
        self.away_until = now + self.seconds + CLOCK_ALLOWANCE

    def early(self, seat: int, now: float) -> float | None:
        """Told at ``now`` that ``seat``'s time is up: how long its clock here still runs
        (seconds), when that is more than :data:`CLOCK_ALLOWANCE`; None when the
        timeout is in time, or cannot be judged (we were away, or keep no clock for
        that seat)."""
        if now < self.away_until:
            return None
        deadline = self.deadlines.get(seat)
        if deadline is None:
            return None
        left = deadline - now
        return left if left > CLOCK_ALLOWANCE else None
