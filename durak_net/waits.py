"""What the table waits for, and who is named when a wait runs too long: a part of the
session.

One job: the game's waits.  After every entry each seat the game waits for gets the
table's move clock (the host moves for a seat whose clock runs out: a take or a pass it
plays itself, a lead it asks the seat for), and each seat that holds the game up gets
the idle bound.  A seated player that still hears its host names it ``stalled`` when it
neither places nor refuses our proposal within the stall bound, or ``stalled_clock``
when it writes no entry a move clock owes; every seat names a seat ``idle`` (the host
included) that keeps the table waiting past the idle bound while it is heard.  Another
seat's such claim is checked on our own clocks.  The bounds are
:mod:`durak_net.timers`'; the clocks and the seats' states are the hand-over part's
(:class:`~durak_net.handover.HandOver`); section 7 of the protocol says the rules.

It holds no session: what it needs done (a game stopped, a move logged, a lead made,
a frame sent) it asks of an :class:`Effects` passed to each call, and the session's
state it cannot see (closed, lost, replaying) comes in as ``judging``
(tests/net/test_net_waits_part.py fakes both).
"""

from __future__ import annotations

from typing import Protocol

from durak_core import Action, Pass, Take

from .clock import CLOCK_ALLOWANCE, MoveClock
from .gamelog import GameLog
from .handover import HandOver
from .handover import due as seat_due
from .notes import Note, Seat
from .outcomes import HOST, Outcomes
from .play import Play
from .presence import Presence
from .proposals import Proposals
from .timers import (
    clock_stall_seen,
    idle_bound,
    owed_clocks,
    stall_bound,
    stall_due,
    unheard_margin,
)
from .wire import Fault, Frame, Status


class Effects(Protocol):
    """What the waits part asks of the session around it."""

    def stop(self, number: int, culprit: int, code: str, note: Note, now: float, /, *,
             proof: list[bytes] | None = None) -> None:
        """Stop game ``number`` on a finding against ``culprit`` (and audit it)."""

    def append(self, action: Action, now: float, /, *, forced: str) -> None:
        """Host: log ``action`` as a move the host makes for its seat (``forced``)."""

    def lead_cheapest(self, now: float, /, *, forced: str) -> None:
        """Our seat leads its cheapest card."""

    def push(self, seat: int, frame: Frame, now: float, /) -> None:
        """Send ``frame`` to ``seat`` (if we have a link to it)."""


class Waits:
    """The waits of seat ``seat``'s session (see the module docstring).  The other
    arguments are the sibling parts it reads."""

    def __init__(self, seat: int, *, handover: HandOver, presence: Presence,
                 proposals: Proposals, play: Play, game_log: GameLog,
                 outcomes: Outcomes) -> None:
        self.seat = seat
        self.handover = handover
        self.presence = presence
        self.proposals = proposals
        self.play = play
        self.game_log = game_log
        self.outcomes = outcomes

    @property
    def clock(self) -> MoveClock:
        return self.handover.clock

    def due(self, seat: int, in_game: bool) -> str | None:
        """What the game waits for from ``seat``, if anything: ``"take"``, ``"pass"``,
        ``"lead"`` (see :func:`durak_net.handover.due`); None when nothing depends on it
        now.  Public information only: every seat agrees."""
        return seat_due(self.play.game, seat) if in_game else None

    def restart(self, now: float, *, grace: int, in_game: bool) -> None:
        """After every entry (and a new deal): each seat the game waits for has the
        table's clock, and each that holds it up the idle bound."""
        self.handover.idle.seconds = idle_bound(grace, self.clock.seconds)
        self.handover.restart_clock(now, self.play.game, in_game)

    def _log_length(self) -> int:
        return len(self.game_log.of(self.play.game_no))

    # ------------------------------------------------------------ a host that stalls

    def stall_clocks(self, in_game: bool) -> dict[int, float]:
        """The move clocks by which the host owes us an entry (see
        :func:`~durak_net.timers.owed_clocks`)."""
        return owed_clocks(self.clock.deadlines, me=self.seat, host=HOST,
                           away=self.handover.seat_state,
                           due=lambda s: self.due(s, in_game))

    def stall_due(self, *, grace: int, judging: bool) -> tuple[float, str, int] | None:
        """A seated player whose host it still hears (``judging``: a game is in play
        here, not stopped, and nothing else is waited for): when the host has kept it
        waiting too long (:func:`~durak_net.timers.stall_due`)."""
        if self.seat == HOST or not judging:
            return None
        return stall_due(self.proposals.unordered(self.play.game_no),
                         self.stall_clocks(True), bound=stall_bound(grace),
                         allowance=CLOCK_ALLOWANCE, judged_from=self.clock.away_until)

    def stalled(self, fx: Effects, stall: tuple[float, str, int], now: float, *,
                grace: int) -> None:
        """The host, still heard, kept us waiting past the bound: stop the game naming
        it (every honest seat then names the host or nobody)."""
        _, code, which = stall
        bound = round(stall_bound(grace))
        note = (Note.of("stalled", seconds=bound) if code == "stalled"
                else Note.of("stalled_clock", seat=Seat(which), seconds=bound))
        fx.stop(self.play.game_no, HOST, code, note, now)

    # ------------------------------------------------------------ a seat that idles

    def idle_due(self, *, judging: bool) -> tuple[float, int] | None:
        """When a seat that holds the game up, still heard, has thought longer than the
        idle bound (``judging`` as for :meth:`stall_due`, and no placed proposal
        waits to be opened)."""
        if not judging or self.proposals.slot is not None:
            return None
        return self.handover.idle_due(me=self.seat, heard=self.presence.heard)

    def unheard_due(self, *, grace: int, judging: bool) -> tuple[float, int] | None:
        """A seated player (``judging`` as for :meth:`idle_due`): when a seat the game
        waits for, that we cannot hear ourselves (it gave no address, as over channels),
        has kept the table waiting past the idle bound and
        :func:`~durak_net.timers.unheard_margin` more, and which.  The host hears it
        and names it ``idle`` at the bound; a host that says nothing meanwhile (it may
        keep that Fault, or the seat's moves, from us) would keep us waiting for ever.
        None: no such seat."""
        if self.seat == HOST or not judging:
            return None
        handover, heard = self.handover, self.presence.heard
        extra = unheard_margin(grace)
        due = [(at + extra, seat) for seat, at in handover.idle.deadlines.items()
               if seat not in (self.seat, HOST) and seat not in handover.seat_state
               and not handover.idle_judged(seat, me=self.seat, heard=heard)]
        return min(due) if due else None

    def idle(self, fx: Effects, seat: int, now: float) -> None:
        """``seat`` kept the table waiting past the idle bound while it was heard: stop
        the game naming it."""
        fx.stop(self.play.game_no, seat, "idle", Note.of(
            "idle", seat=Seat(seat), seconds=int(self.handover.idle.seconds)), now)

    # ------------------------------------------------------------ claims of others

    def seen(self, frame: Fault, now: float, *, grace: int) -> bool:
        """Another seat's ``stalled_clock`` against the host, or ``idle`` against a
        seat, where our log is as long as the finder's: does our own clock bear it out
        (and, for ``idle``, did we hear that seat ourselves)?"""
        if frame.game != self.play.game_no or frame.index != self._log_length():
            return False
        if frame.code == "idle":
            return frame.seat not in (self.seat, frame.by) and self.handover.idle_seen(
                frame.seat, now, me=self.seat, heard=self.presence.heard)
        return (frame.code == "stalled_clock" and frame.seat == HOST
                and self.seat not in (HOST, frame.by) and clock_stall_seen(
                    self.stall_clocks(True), now, bound=stall_bound(grace),
                    judged_from=self.clock.away_until))

    # ------------------------------------------------------------ the host's clock

    def clock_ran_out(self, fx: Effects, seat: int, now: float, *, in_game: bool) -> None:
        """Host: ``seat`` did not move in time.  Take and pass need no card: the host
        plays them (a forced entry, "timeout").  A lead needs a card only the seat can
        open: the host tells the seat its time is up, and its peer leads its cheapest
        card (a seat whose peer is gone waits for the grace period)."""
        self.clock.stop(seat)
        due = self.due(seat, in_game)
        if due is None or self.play.game is None:
            return
        if due == "take":
            fx.append(Take(seat), now, forced="timeout")
        elif due == "pass":
            fx.append(Pass(seat), now, forced="timeout")
        elif seat == self.seat:
            fx.lead_cheapest(now, forced="timeout")
        else:
            state = (self.play.game_no, self._log_length())
            self.handover.nudge(seat, state)
            fx.push(seat, Status(0, seat, "timeout", f"{state[0]}:{state[1]}"), now)
