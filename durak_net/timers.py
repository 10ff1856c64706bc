"""When a seat's session next has work to do, and which of its deadlines fire: pure
functions of the session's state and ``now``, one part of a seat's session.

A session never reads a clock: its driver asks :meth:`Session.next_timer
<durak_net.session.Session.next_timer>` when to call :meth:`Session.timer
<durak_net.session.Session.timer>`, which is the earliest of the deadlines gathered in
a :class:`Deadlines` (a link's heartbeat or silence, an audit's seeds, a goodbye nobody
acknowledges, a move clock, a placed proposal not opened, a lost seat's hand-over, a
silent seat's abandoned game, our heartbeat to the other seats, a share held back, a
host that keeps us waiting while it still answers).
What fires at ``now`` is decided here too: which audits are overdue (a lost seat is
waited for: it may resume), whether the placed proposal is overdue, and which game a
silent seat's silence ends.

>>> Deadlines(links=(12.0, 11.5), closing=14.0, beacon=None).next()
11.5
>>> Deadlines().next() is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
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
    #: A seated player: when the host, still heard, has kept us waiting too long
    #: (:func:`stall_due`).
    stall: float | None = None
    #: When a seat on move, still heard, has kept the table waiting too long
    #: (:func:`idle_due`).
    idle: float | None = None
    #: A seated player: when a seat on move that it cannot hear itself has kept the
    #: table waiting past the idle bound and :func:`unheard_margin` more.
    unheard: float | None = None

    def next(self) -> float | None:
        """The earliest of them all: when the session next has work to do.  (Asked after
        every datagram: the kinds that are usually empty cost a test, not a list.)"""
        times = [*self.links, *self.audits, *self.releases]
        for t in (self.closing, self.clock, self.opened_by, self.beacon, self.stall,
                  self.idle, self.unheard):
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


#: The least time (seconds) a host we still hear may keep a seated player waiting (a
#: proposal neither ordered nor refused; a seat whose move clock ran out and no entry)
#: before the seat stops the game naming it ``stalled``.  An honest host delays a
#: proposal, or the clock's move, only while another seat's placed proposal waits to be
#: opened (:data:`~durak_net.proposals.OPEN_WITHIN`, 15 s, then that seat is named): twice
#: that leaves room for a loaded machine and a lossy link's retransmissions.
STALL_MIN = 30.0


def stall_bound(grace: int) -> float:
    """How long a host we still hear may keep us waiting: the table's grace period (how
    long the table already agreed a seat may be silent before its game ends; default
    60 s), and never less than :data:`STALL_MIN`.

    >>> stall_bound(60), stall_bound(0)
    (60.0, 30.0)
    """
    return max(float(grace), STALL_MIN)


def owed_clocks(deadlines: Mapping[int, float], *, me: int, host: int,
                away: Collection[int], due: Callable[[int], str | None]) -> dict[int, float]:
    """A seated player (seat ``me``): the move clocks by which the host owes an entry
    itself: our own seat's, the host's, and any seat's take or pass (``due``: the host
    plays those when the time is up); not another seat's lead (only that seat can open
    its card) nor a seat ``away`` (lost, left or played by a bot: waited for as such).

    >>> owed_clocks({0: 5.0, 1: 6.0, 2: 7.0, 3: 8.0}, me=1, host=0, away={3},
    ...             due=lambda s: "lead")
    {0: 5.0, 1: 6.0}
    """
    return {s: at for s, at in deadlines.items()
            if s not in away and (s in (host, me) or due(s) in ("take", "pass"))}


def stall_due(sent: Mapping[int, float], clocks: Mapping[int, float], *, bound: float,
              allowance: float, judged_from: float = 0.0) -> tuple[float, str, int] | None:
    """A seated player: the first way the host may stall it, and when that is due:
    ``(when, "stalled", pid)`` for our proposal ``pid`` sent at ``sent[pid]`` and
    neither ordered nor refused ``bound`` seconds later, or ``(when, "stalled_clock",
    seat)`` for a seat whose move clock here runs out at ``clocks[seat]`` and whose
    entry has not come ``allowance`` (the host's clock starts a little earlier than
    ours) plus ``bound`` seconds after that.  ``judged_from``: before then our own clock
    proves nothing (we were away).  None: nothing is waited for.

    >>> stall_due({3: 100.0}, {1: 90.0}, bound=30.0, allowance=2.0)
    (122.0, 'stalled_clock', 1)
    >>> stall_due({3: 100.0}, {}, bound=30.0, allowance=2.0)
    (130.0, 'stalled', 3)
    """
    due = [(at + bound, "stalled", pid) for pid, at in sent.items()]
    due += [(max(at + allowance, judged_from) + bound, "stalled_clock", seat)
            for seat, at in clocks.items()]
    return min(due) if due else None


def clock_stall_seen(clocks: Mapping[int, float], now: float, *, bound: float,
                     judged_from: float = 0.0) -> bool:
    """A third seat, told by another that the host let a seat's clock run out and wrote
    no entry (``stalled_clock``) while our log is as long as the finder's: does our own
    clock bear it out?  Some seat's time ran out here ``bound`` seconds ago or more
    (the allowance left out: it covers the entry reaching us later than the finder).
    An honest host writes its entry within :data:`STALL_MIN` of its own clock, so this
    never holds against it, whatever a lying finder says.

    >>> clocks = {1: 100.0}
    >>> clock_stall_seen(clocks, 130.0, bound=30.0), clock_stall_seen(clocks, 129.0, bound=30.0)
    (True, False)
    """
    return now >= judged_from + bound and any(now >= at + bound for at in clocks.values())


#: The least time (seconds) a seat may keep the table waiting for a move it must make,
#: while it is still heard, before every seat stops the game naming it ``idle``.
IDLE_MIN = 300


def idle_bound(grace: int, clock: int) -> int:
    """How long a seat on move may think: ten grace periods (the table's grace is how
    long a seat may go silent; thinking is given ten times as long), never less than
    :data:`IDLE_MIN`, and with a move clock that clock on top (the host moves for a seat
    whose clock runs out; a lead it cannot make for it).  Always longer than the
    stall bound (:func:`stall_bound`), so that a seat whose proposal the host holds
    back names the host first.

    >>> idle_bound(60, 0), idle_bound(0, 0), idle_bound(60, 30)
    (600, 300, 630)
    """
    return max(10 * grace, IDLE_MIN) + clock


#: The least time a seated player waits past the idle bound for the host's word on a
#: seat it cannot hear itself (see :func:`unheard_margin`).
UNHEARD_MIN = 30.0


def unheard_margin(grace: int) -> float:
    """How long past the idle bound a seated player waits on a seat it cannot hear
    itself (no address: as over channels) before it ends the game naming nobody: the
    grace period, at least :data:`UNHEARD_MIN`, so that the Fault of a seat that can
    judge that seat (the host hears every seat), sent at the bound, comes first.

    >>> unheard_margin(60), unheard_margin(0)
    (60.0, 30.0)
    """
    return max(float(grace), UNHEARD_MIN)


def idle_holders(dues: Mapping[int, str]) -> list[int]:
    """Of the seats the game waits for (seat -> what: ``"take"``, ``"pass"``,
    ``"lead"``), those that hold it up: a defender facing a card it has not beaten
    (the attackers may wait to see what it does before they pass); else every seat
    still due.

    >>> idle_holders({1: "take", 2: "pass"}), idle_holders({2: "pass", 0: "pass"})
    ([1], [0, 2])
    """
    takers = sorted(s for s, what in dues.items() if what == "take")
    return takers or sorted(dues)


def idle_due(deadlines: Mapping[int, float], *, judged: Callable[[int], bool],
             judged_from: float = 0.0) -> tuple[float, int] | None:
    """The first seat that keeps the table waiting past its bound, and when: ``(when,
    seat)`` for the earliest deadline (``deadlines``: seat -> when its bound runs out
    here) of a seat we can judge (``judged``: not us, not away, heard by us directly
    while we waited); ``judged_from``: before then our own clock proves nothing (we
    were away).

    >>> idle_due({1: 700.0, 2: 650.0}, judged=lambda s: s == 1)
    (700.0, 1)
    >>> idle_due({1: 700.0}, judged=lambda s: True, judged_from=900.0)
    (900.0, 1)
    """
    due = [(max(at, judged_from), seat) for seat, at in deadlines.items() if judged(seat)]
    return min(due) if due else None
