"""When a seat's session next has work to do, and which of its deadlines fire: pure
functions of the session's state and ``now``, one part of a seat's session.

A session never reads a clock: its driver asks :meth:`Session.next_timer
<durak_net.session.Session.next_timer>` when to call :meth:`Session.timer
<durak_net.session.Session.timer>`, which is the earliest of the deadlines gathered in
a :class:`Deadlines` (a link's heartbeat or silence, an audit's seeds, a goodbye nobody
acknowledges, a move clock, a placed proposal not opened, a lost seat's hand-over, a
silent seat's abandoned game, our heartbeat to the other seats, a share held back).
What fires at ``now`` is decided here too: which audits are overdue (a lost seat is
waited for: it may resume), whether the placed proposal is overdue, and which game a
silent seat's silence ends.

>>> Deadlines(links=(12.0, 11.5), closing=14.0, beacon=None).next()
11.5
>>> Deadlines().next() is None
True
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field


@dataclass(slots=True)
class Deadlines:
    """Every deadline a session waits for (None or empty: none of that kind).

    Made afresh each time a driver asks when to wake a session (after every datagram),
    so not frozen: a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, which made making one three times as slow; nothing keeps
    one or changes it."""

    #: Each link's next heartbeat, retransmission or silence check.
    links: tuple[float, ...] = ()
    #: When each game's audit gives up on a seed (only while no seat is lost).
    audits: tuple[float, ...] = ()
    #: When a goodbye nobody acknowledges is given up.
    closing: float | None = None
    #: Host: when the first move clock runs out.
    clock: float | None = None
    #: Host: the lost seat handed to a bot first, and when.
    handover: tuple[int, float] | None = None
    #: Host: when the proposal we placed is overdue.
    opened_by: float | None = None
    #: When each silent seat's game is abandoned: seat -> (when, silent since).
    abandon: Mapping[int, tuple[float, float]] = field(default_factory=dict)
    #: A seated player: our next heartbeat to the other seated players.
    beacon: float | None = None
    #: When each share we hold back may be released.
    releases: tuple[float, ...] = ()

    def next(self) -> float | None:
        """The earliest of them all: when the session next has work to do.  (Asked after
        every datagram: the kinds that are usually empty cost a test, not a list.)"""
        times = [*self.links, *self.audits, *self.releases]
        for t in (self.closing, self.clock, self.opened_by, self.beacon):
            if t is not None:
                times.append(t)
        if self.handover is not None:
            times.append(self.handover[1])
        if self.abandon:
            times += [when for when, _ in self.abandon.values()]
        return min(times) if times else None


def audits_due(audit_due: Mapping[int, float], now: float, *, waiting: bool,
               timeout: float) -> tuple[dict[int, float], list[int]]:
    """The audits that wait for seeds: their new deadlines, and the games whose audit is
    overdue at ``now`` (a seat that has not published its seed refused it).  While a
    seat is ``waiting`` for (lost, or played by a bot: it may resume), no audit is
    overdue, and each deadline moves to ``timeout`` after ``now`` at the earliest."""
    due = dict(audit_due)
    overdue: list[int] = []
    for number, when in audit_due.items():
        if waiting:
            due[number] = max(when, now + timeout)
        elif now >= when:
            overdue.append(number)
    return due, overdue


def open_due(overdue_at: float | None, *, placed_game: int, game_no: int, in_game: bool,
             seat_lost: bool) -> float | None:
    """Host: when the proposal we placed (in game ``placed_game``; overdue at
    ``overdue_at``) is overdue, if the game is ours and in play and its seat connected:
    a lost seat is waited for as such (hand-over or abandon)."""
    if not in_game or placed_game != game_no or seat_lost:
        return None
    return overdue_at


def abandoned(abandon: Mapping[int, tuple[float, float]], now: float
              ) -> tuple[float, int] | None:
    """The silent seat whose game is abandoned at ``now``: ``(silent since, seat)``, the
    one silent longest (None: none yet)."""
    due = [(since, seat) for seat, (when, since) in abandon.items() if now >= when]
    return min(due) if due else None


def game_to_abandon(dealt: Collection[int], *, game_no: int, in_game: bool, over: bool,
                    audited: Collection[int], audit_due: Collection[int],
                    stopped: Collection[int], began: Mapping[int, bool]) -> int | None:
    """Which game a silent seat's silence ends: the one in play, or being dealt (the
    latest with a dealer: ``dealt``); None when there is nothing to settle: it is
    audited already, or only the silent seat asked for another game (``began``: did we
    agree to it)."""
    number = max(dealt, default=0)
    if number not in dealt or number in audited:
        return None
    if number == game_no and not in_game and number not in audit_due \
            and number not in stopped and not over:
        return None  # (no such state: a dealt game is in play, over, or stopped)
    if number > game_no and not began.get(number, False) and number not in stopped:
        return None  # only the silent seat asked for another game: nothing to settle
    return number
