"""Joining a table before play, a part of the session: the host's Seatings, a seat's
Hello taken by the host, the host's Seating taken by a seated player, and the table
started once every seat is in.

One job: the phase before the first deal (section 7 of docs/lan-protocol.md).  The
host tells every seat who sits where (a Seating, with the table's move clock and grace
period) each time that changes, and starts the table when asked to and every seat has
said hello (a table of two starts on the other seat's Hello).  A seated player takes
the host's Seating (the clock and the grace period with it) and begins play when it
says so.  Who sits where and what a Hello or a Seating may change are the seating
part's decisions (:class:`~durak_net.seating.SeatingChart`); this part sends, records
and starts.

It holds no session.  What it needs done around it (a frame sent, an event, a journal
record, the first game agreed to) it asks of an :class:`Effects` passed to each call,
which the session implements and a test fakes (tests/net/test_net_joining_part.py).
A journal's ``seating`` and ``start`` records replay through
:meth:`Joining.replay_seating` and :meth:`Joining.replay_start`.
"""

from __future__ import annotations

from typing import Any, Protocol

from . import events as ev
from .clock import MoveClock
from .notes import Note
from .outcomes import HOST
from .seating import SeatingChart
from .wire import Frame, Hello, Seating


class Effects(Protocol):
    """What the joining part asks of the session around it (the session implements it;
    while a journal replays, it sends, reports and records nothing)."""

    def broadcast(self, frame: Frame, now: float, /, but: int | None = None) -> None:
        """Send ``frame`` to every seat we have a link to, but seat ``but``."""

    def emit(self, event: Any, /) -> None:
        """An event for the application."""

    def record(self, **record: Any) -> None:
        """A journal record."""

    def violation(self, note: Note, now: float, /) -> None:
        """A message that breaks the protocol, dropped and reported."""

    def play_begins(self, now: float, /) -> None:
        """The table started: agree to deal its first game."""


class Joining:
    """The table before play, as seat ``seat`` of table ``table`` (of ``players``
    seats) sees it (see the module docstring).  ``seating`` is the sibling part that
    knows who sits where; ``clock`` the move clock whose seconds a Seating carries."""

    def __init__(self, table: int, seat: int, players: int, *, seating: SeatingChart,
                 clock: MoveClock) -> None:
        self.table = table
        self.seat = seat
        self.players = players
        self.seating = seating
        self.clock = clock
        #: Has play begun (the table started)?
        self.started = False
        #: Seconds a seat stays silent before the others act on it (hand-over, abandon).
        self.grace = 60

    def frame(self, start: bool = False) -> Seating:
        """The host's Seating: who sits where, the move clock, the grace period, and
        whether play has begun (or begins: ``start``)."""
        return Seating(0, self.table, self.seating.infos(), self.clock.seconds, self.grace,
                       start or self.started)

    # ------------------------------------------------------------------ the host

    def tell(self, fx: Effects, now: float, start: bool = False) -> None:
        """Host: tell every seat who sits where (and, with ``start``, begin; a table
        still missing a Hello begins once it is in)."""
        if start and not self.started and self.seating.missing():
            # A two-seat game starts once the other's Hello is in.
            self.seating.start_when_ready = True
            start = False
        fx.broadcast(self.frame(start), now)
        if start and not self.started:
            fx.record(t="start")
            self._begin(fx, now)

    def on_hello(self, fx: Effects, link_seat: int, frame: Hello, now: float) -> None:
        """Host: a seat's Hello over ``link_seat``'s link: its name, key and address
        taken, every seat told, and the table started if it waited for this one."""
        wrong = self.seating.take_hello(frame, link_seat, self.seat == HOST)
        if wrong is not None:
            fx.violation(wrong, now)
            return
        player = self.seating.players[frame.seat]
        fx.record(t="hello", seat=frame.seat, name=frame.name, key=frame.sign_key.hex(),
                  addr=player.addr, addr_sig=player.addr_sig.hex())
        self.tell(fx, now, start=self.seating.ready())
        fx.emit(ev.SeatTaken(self.table, frame.seat, frame.name, now))

    # ------------------------------------------------------------------ a seated player

    def on_seating(self, fx: Effects, frame: Seating, now: float) -> None:
        """A seated player: the host's Seating (a violation from anybody else's seat:
        only the host sends one); play begins when it says so."""
        if self.seat == HOST:
            fx.violation(Note.of("seating_from_player"), now)
            return
        wrong = self.seating.take_seating(frame)
        if wrong is not None:
            fx.violation(wrong, now)
            return
        self.clock.seconds, self.grace = frame.clock, frame.grace
        fx.record(t="seating", seats=self.seating.seating_record(frame), clock=frame.clock,
                  grace=frame.grace, start=frame.start)
        fx.emit(ev.TableChanged(self.table, tuple((i.seat, i.name, i.kind)
                                                  for i in frame.seats), frame.start, now))
        if frame.start and not self.started:
            self._begin(fx, now)

    def _begin(self, fx: Effects, now: float) -> None:
        self.started = True
        fx.play_begins(now)

    # ------------------------------------------------------------------ replay

    def replay_seating(self, rec: dict[str, Any]) -> None:
        """A ``seating`` record (a seated player): who sits where, the clock, the grace,
        and whether play had begun."""
        self.seating.replay_seating(rec)
        self.clock.seconds, self.grace = int(rec["clock"]), int(rec["grace"])
        if rec.get("start"):
            self.started = True

    def replay_start(self) -> None:
        """A ``start`` record (the host): the table had started."""
        self.started = True

    def resumed(self) -> None:
        """The journal is replayed: a two-seat table we host that had not started yet
        starts on the other seat's (next) Hello."""
        if self.seat == HOST and not self.started and self.players == 2:
            self.seating.start_when_ready = True
