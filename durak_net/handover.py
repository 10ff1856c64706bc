"""Who plays each seat, and how long the table waits for it: one part of a seat's
session, with the move clock (:mod:`durak_net.clock`) and the silences
(:mod:`durak_net.presence`) it decides from.

A seat is played by its player, or, while its player is away at a table of three or
more, by the host's bot once the seat has been lost for the table's grace period (every
seat then publishes its share of the seat's seed, so its hand opens to all: section 7
of the protocol).  What the game waits for from a seat (take, pass, lead) is public,
so every seat agrees whose clock runs.  A seat silent for longer than the table waits
ends its game with a verdict (``abandoned``), never a hang.  This part keeps the seats'
states (lost, left, played by a bot), the leads the host nudged, and answers: whose
clock runs, which lost seat goes to a bot and when, and when a silent seat's game is
abandoned.  No I/O, no clock reads: ``now``, the game and the silences come in.

>>> from durak_net.presence import Presence
>>> part = HandOver(table_seats=3, host=True)
>>> presence = Presence()
>>> presence.lost(2, 100.0)
>>> part.handover_due(presence, grace=20, in_game=True, can_hand_over=lambda s: True)
(2, 120.0)
>>> part.hand_over(2)
>>> sorted(part.bots), part.seat_state
([2], {2: 'bot'})
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from durak_core import Game, Pass, Take

from .clock import CLOCK_ALLOWANCE, MoveClock
from .outcomes import HOST
from .presence import Presence, abandon_after
from .timers import idle_due, idle_holders


def due(game: Game | None, seat: int) -> str | None:
    """What ``game`` waits for from ``seat``, if anything: ``"take"`` (it defends
    against a card it has not beaten), ``"pass"`` (it may throw in, and the bout ends
    only when it passes), ``"lead"`` (it attacks an empty table); None when nothing
    depends on it now (or no game is in play).  Public information only: every seat
    agrees."""
    if game is None or game.is_over or seat not in game.active_players:
        return None
    if game.why_illegal(Take(seat)) is None:
        return "take"
    if game.why_illegal(Pass(seat)) is None:
        return "pass"
    if seat == game.attacker and not game.table:
        return "lead"
    return None


class HandOver:
    """The seats' states and the move clock of one seat's session at a table of
    ``table_seats`` seats (``host``: we are the host, which hands seats to bots)."""

    def __init__(self, table_seats: int, host: bool) -> None:
        self.table_seats = table_seats
        self.host = host
        #: The move clock: every seat's deadline, as we keep it.
        self.clock = MoveClock()
        #: How long each seat that holds the game up may think before it is named
        #: ``idle`` (:func:`~durak_net.timers.idle_bound`; its ``seconds`` are set with
        #: the table's grace and clock).
        self.idle = MoveClock()
        #: Seats that are not simply playing: ``"lost"`` (its connection), ``"left"``,
        #: ``"bot"``.
        self.seat_state: dict[int, str] = {}
        #: Seats a bot plays while their player is away (the host runs the bot).
        self.bots: set[int] = set()
        #: Host: seats told their time was up for a lead, and in which state
        #: ``(game, log length)``.
        self.nudged: dict[int, tuple[int, int]] = {}

    # ------------------------------------------------------------------ the clock

    def restart_clock(self, now: float, game: Game | None, in_game: bool) -> None:
        """After every entry (and a new deal): each seat the game waits for has the
        table's clock.  The host's deadlines are the ones that count; a seated player
        keeps its own to show, and to judge a "timed out" entry of its own seat by."""
        dues = {s: what for s in range(self.table_seats)
                if (what := due(game, s)) is not None} if in_game else {}
        self.clock.restart(now, dues)
        self.idle.restart(now, idle_holders(dues))

    def idle_judged(self, seat: int, *, me: int, heard: Mapping[int, float]) -> bool:
        """Can seat ``me`` judge ``seat`` idle: not itself, not away (lost, left, a
        bot's), and heard directly while the table waited for it (``heard``: when each
        seated player's heartbeat last came; the host hears every seat over its links,
        a seated player the host over its own)?  On the host's word alone no seat is
        named."""
        if seat == me or seat in self.seat_state:
            return False
        if HOST in (me, seat):
            return True
        since = self.idle.deadlines.get(seat, 0.0) - self.idle.seconds
        return heard.get(seat, float("-inf")) >= since

    def idle_due(self, *, me: int, heard: Mapping[int, float]) -> tuple[float, int] | None:
        """The first seat we can judge that has kept the table waiting past the idle
        bound, and when (:func:`~durak_net.timers.idle_due`)."""
        return idle_due(self.idle.deadlines,
                        judged=lambda s: self.idle_judged(s, me=me, heard=heard))

    def idle_seen(self, seat: int, now: float, *, me: int, heard: Mapping[int, float]
                  ) -> bool:
        """Told that ``seat`` was idle: does our own bound bear it out (it ran out here,
        less :data:`~durak_net.clock.CLOCK_ALLOWANCE` for the entry's way to us), and
        could we judge it ourselves?"""
        deadline = self.idle.deadlines.get(seat)
        return (deadline is not None and now + CLOCK_ALLOWANCE >= deadline
                and self.idle_judged(seat, me=me, heard=heard))

    def nudge(self, seat: int, state: tuple[int, int]) -> None:
        """Host: ``seat`` was told its time for a lead was up in ``state``."""
        self.nudged[seat] = state

    def was_nudged(self, seat: int, state: tuple[int, int]) -> bool:
        """Host: a lead of ``seat`` opened now: was it told its time was up in this very
        state (its entry is marked "timeout")?  Asked once per lead."""
        return self.nudged.pop(seat, None) == state

    # ------------------------------------------------------------------ the seats

    def lost(self, seat: int) -> None:
        self.seat_state[seat] = "lost"

    def reported(self, seat: int, state: str) -> None:
        """The host says ``seat`` is ``state`` (lost, left, bot, back)."""
        if state == "back":
            self.seat_state.pop(seat, None)
        else:
            self.seat_state[seat] = state

    def back(self, seat: int) -> bool:
        """``seat`` is heard again: it is its player's again.  Was a bot playing it?"""
        self.seat_state.pop(seat, None)
        if seat not in self.bots:
            return False
        self.bots.discard(seat)
        return True

    def hand_over(self, seat: int) -> None:
        """Host: a bot plays ``seat`` from now on (also a journal's ``handover``)."""
        self.bots.add(seat)
        self.seat_state[seat] = "bot"

    replay_handover = hand_over

    def replay_back(self, seat: int) -> None:
        """A journal's ``back``: ``seat`` is its player's again."""
        self.back(seat)

    def waiting_on_silence(self) -> bool:
        """Is a seat lost, or played by a bot (its player may yet come back)?"""
        if not self.seat_state:  # (the common case: asked whenever the session's timer is)
            return False
        return any(v in ("lost", "bot") for v in self.seat_state.values())

    def silent(self, seeds: Iterable[int]) -> list[int]:
        """The seats lost or played by a bot that have not published their seed."""
        given = set(seeds)
        return [s for s, v in self.seat_state.items() if v in ("lost", "bot")
                and s not in given]

    def handover_due(self, presence: Presence, *, grace: int, in_game: bool,
                     can_hand_over: Callable[[int], bool]) -> tuple[int, float] | None:
        """Host: the lost seat whose grace period ends first, and when (None: none can
        be handed over: no grace, a table of two, no game, or ``can_hand_over`` says its
        seed cannot be rebuilt or the others could not check it is gone)."""
        if not presence.lost_since:  # nobody is lost (the common case, asked at every timer)
            return None
        if not self.host or not grace or self.table_seats < 3 or not in_game:
            return None
        waiting = [(since + grace, seat) for seat, since in presence.lost_since.items()
                   if seat not in self.bots and can_hand_over(seat)]
        if not waiting:
            return None
        when, seat = min(waiting)
        return seat, when

    def abandon_times(self, presence: Presence, *, grace: int, audit_timeout: float,
                      in_game: bool, adopted: Iterable[int],
                      can_hand_over: Callable[[int], bool]) -> dict[int, tuple[float, float]]:
        """When each silent seat's game is abandoned, by seat: ``(when, silent since)``.

        A seat at the other end of one of our links is waited for the grace period from
        the moment we last heard it.  A seat the host reports lost (a seated player
        hears the others only through the host) is waited for longer, the audit timeout
        more: the host, which does hear it, hands it to a bot or abandons the game
        first.  A seat whose hand is open (``adopted``: a bot plays it) is not waited
        for; one the host can hand over is handed over instead, and one it may yet hand
        over (its escrow still on its way, or the others' shares: each publishes only
        once it too has not heard the seat for the grace period) is given the audit
        timeout more."""
        if not presence.lost_since and not presence.reported_lost:
            return {}
        wait = abandon_after(grace)
        opened = set(adopted)
        out: dict[int, tuple[float, float]] = {}
        handing = self.host and self.table_seats >= 3 and bool(grace)
        for seat, since in presence.lost_since.items():
            if seat in opened or (seat not in self.bots and can_hand_over(seat)):
                continue
            extra = audit_timeout if handing and in_game else 0.0
            out[seat] = (since + wait + extra, since)
        for seat, since in presence.reported_lost.items():
            if self.seat_state.get(seat) == "lost" and seat not in out:
                out[seat] = (since + wait + audit_timeout, since)
        return out
