"""A seat that goes silent, a part of the session: lost, handed to a bot, its hand
opened, heard again, or its game abandoned.

One job: what a seat's table does about a player who is not there (section 7 of the
protocol: lost seats, and a lost seat that goes to a bot).  A link's seat silent for
``lost_after`` is lost (the host tells every seat); at a table of three or more the host
hands it to its bot once the grace period has passed on its own hearing, and says so
(Status ``"bot"``); each seat then publishes its share of that seat's seed, opening its
hand to all, but only once it *itself* has not heard the seat's signed heartbeats for
the grace period (a host that says a seat is lost while it is still there, to open its
hand, gets no share).  A seat heard again is its player's again (its hand, if opened,
stays open, and it is told so).  A seat silent for longer than the table waits ends its
game with a verdict (``abandoned``, naming it where our own ears say so) and the table;
one we cannot hear ourselves that holds the game up past the idle bound and a margin
(:meth:`~durak_net.waits.Waits.unheard_due`) ends it naming nobody.

Why a part of its own, not more of :mod:`durak_net.handover`: the hand-over part
*decides* (each seat's state, whose clock runs, which lost seat goes to a bot and when,
when a silent seat's game is abandoned) with no effects at all, and the waits and
leaving parts read those states too; this part *acts* on those decisions (frames sent,
events, journal records, shares and seeds published, verdicts settled).  Acting would
be a second job there.

It holds no session: what it needs done around it (a frame sent, an event, a journal
record, a game stopped and settled, our seed or our share published, the table ended)
it asks of an :class:`Effects` passed to each call, and the session's state it cannot
see (a game in play, the session closing, the table's grace period) it reads from that
too (tests/net/test_net_absence_part.py fakes it with a recorder).  A journal's
``share``, ``handover``, ``back`` and ``abandon`` records replay through its
``replay_*`` methods (:mod:`durak_net.restore`).
"""

from __future__ import annotations

from typing import Any, Protocol

from . import events as ev
from .audit import Stop, Verdict
from .dealer import MentalDealer
from .dealing import Dealing
from .gamelog import GameLog
from .handover import HandOver
from .notes import Note, Seat
from .outcomes import HOST, Outcomes
from .play import Play
from .presence import Presence, abandon_after
from .proposals import Proposals
from .seating import SeatingChart
from .timers import abandoned, game_to_abandon
from .wire import Frame, Status


class Effects(Protocol):
    """What the absence part asks of the session around it (the session implements it;
    while a journal replays, it sends, reports and records nothing)."""

    @property
    def in_game(self) -> bool:
        """Is a game dealt and not over (nor stopped)?"""

    @property
    def closing(self) -> bool:
        """Is the session closed, or saying goodbye?"""

    @property
    def grace(self) -> int:
        """Seconds a seat may be silent before the others act on it."""

    def linked(self, seat: int, /) -> bool:
        """Have we a link to ``seat``?"""

    def push(self, seat: int, frame: Frame, now: float, /) -> None:
        """Send ``frame`` to ``seat`` (if we have a link to it)."""

    def broadcast(self, frame: Frame, now: float, /, but: int | None = None) -> None:
        """Send ``frame`` to every seat we have a link to, but seat ``but``."""

    def emit(self, event: Any, /) -> None:
        """An event for the application."""

    def record(self, **record: Any) -> None:
        """A journal record."""

    def deal_out(self, number: int, messages: list[bytes], now: float, /) -> None:
        """Sign and send our deal messages of game ``number``."""

    def set_stop(self, number: int, stop: Stop, /) -> None:
        """Game ``number`` stopped (kept and journalled)."""

    def publish_seed(self, number: int, now: float, /) -> None:
        """Publish our seed of game ``number`` for its audit."""

    def settle(self, number: int, verdict: Verdict, now: float, /,
               silent: tuple[int, float] | None = None) -> None:
        """Game ``number``'s verdict: kept, journalled, reported."""

    def end_table(self, reason: str, /) -> None:
        """The table ends once the game's audit is in (``reason``: why)."""

    def drain(self, now: float, /) -> None:
        """Host: the moves held while a placed proposal was opened may follow."""

    def reveal_open_hands(self, now: float, /) -> None:
        """Show in our view the cards of the hands open to every seat."""

    def after_change(self, now: float, /) -> None:
        """The game may move on (a game over is reported, the next automatic move)."""


class Absence:
    """The silent seats of seat ``seat``'s session (see the module docstring).
    ``name``: our player's name; ``audit_timeout``: the session's; the other arguments
    are the sibling parts it reads and writes."""

    def __init__(self, table: int, seat: int, name: str, *, audit_timeout: float,
                 handover: HandOver, presence: Presence, seating: SeatingChart,
                 play: Play, dealing: Dealing, game_log: GameLog, outcomes: Outcomes,
                 proposals: Proposals) -> None:
        self.table = table
        self.seat = seat
        self.name = name
        self.audit_timeout = audit_timeout
        self.handover = handover
        self.presence = presence
        self.seating = seating
        self.play = play
        self.dealing = dealing
        self.game_log = game_log
        self.outcomes = outcomes
        self.proposals = proposals

    @property
    def dealer(self) -> MentalDealer | None:
        """The current game's dealer."""
        return self.dealing.dealers.get(self.play.game_no)

    def _names(self) -> list[str]:
        """Each seat's name, ours as our screen says it: the names a verdict we settle
        ourselves reads."""
        return self.seating.names(ours=self.name)

    # ------------------------------------------------------------ the links' seats

    def lost(self, fx: Effects, seat: int, silent: float, now: float) -> None:
        """The seat at the other end of one of our links has been silent for
        ``silent`` seconds: lost (the host tells the others)."""
        fx.emit(ev.PeerLost(self.table, silent, now, seat=seat))
        self.handover.lost(seat)
        self.presence.lost(seat, now - silent)
        if self.seat == HOST:
            fx.broadcast(Status(0, seat, "lost"), now, but=seat)

    def back(self, fx: Effects, seat: int, now: float) -> None:
        """The seat at the other end of one of our links is heard again: its player's
        again (told at once if its hand was opened meanwhile; the host tells the
        others)."""
        fx.emit(ev.PeerBack(self.table, now, seat=seat))
        self.presence.back(seat)
        if self.handover.back(seat):  # a bot played it
            fx.record(t="back", seat=seat)
            dealer = self.dealer
            if dealer is not None and seat in dealer.adopted:
                # Told at once: its hand was opened to every seat while it was away.
                fx.push(seat, Status(0, seat, "opened", str(self.play.game_no)), now)
        if self.seat == HOST:
            fx.broadcast(Status(0, seat, "back"), now, but=seat)

    def on_status(self, fx: Effects, frame: Status, now: float) -> None:
        """A seated player: the host's word that a seat is ``"lost"``, ``"back"``, or
        played by its ``"bot"`` (any other state is only reported).  For a bot, our
        share of the seat's seed waits until we ourselves have not heard it for the
        grace period (:meth:`release_shares`)."""
        if frame.state in ("lost", "bot", "back"):
            self.handover.reported(frame.seat, frame.state)
            self.presence.reported(frame.seat, frame.state, now)
        # A "bot" status carries the game number (for the share below), not words.
        detail = "" if frame.state == "bot" else frame.detail
        fx.emit(ev.SeatStatus(self.table, frame.seat, frame.state, detail, now))
        game_no = self.play.game_no
        if frame.state == "bot" and frame.seat != self.seat and frame.detail == str(
                game_no) and fx.in_game:
            # Open its hand, as every seat does, once we ourselves have not heard it for
            # the grace period either (the host's word alone is no evidence).
            self.presence.share_wait[frame.seat] = game_no
            self.release_shares(fx, now)

    # ------------------------------------------------------------ shares of a seed

    def release_time(self, fx: Effects, seat: int) -> float:
        """When we may publish our share of ``seat``: the grace period after we last
        heard it ourselves (or could have); never, for a seat that gave us no address."""
        return self.presence.release_time(seat, fx.grace,
                                          bool(self.seating.players[seat].addr))

    def release_times(self, fx: Effects) -> tuple[float, ...]:
        """When each share we hold back may be published."""
        return tuple([self.release_time(fx, s) for s in self.presence.share_wait])

    def release_shares(self, fx: Effects, now: float) -> None:
        """Publish our share of each seat the host handed to a bot once we ourselves have
        not heard it for the grace period: a host that says a seat is lost while it is
        still there (to open its hand) gets no share from us."""
        wait = self.presence.share_wait
        for seat, game in list(wait.items()):
            if (game != self.play.game_no or not fx.in_game
                    or seat not in self.handover.seat_state):
                del wait[seat]
                continue
            if now >= self.release_time(fx, seat):
                del wait[seat]
                self.publish_share(fx, seat, now)

    def publish_share(self, fx: Effects, seat: int, now: float) -> None:
        """Our share of ``seat``'s seed out (journalled): its hand opens to every seat
        once all are in, and the game may move on."""
        dealer = self.dealer
        if dealer is None:
            return
        game_no = self.play.game_no
        fx.record(t="share", game=game_no, seat=seat)
        fx.deal_out(game_no, dealer.share(seat), now)
        fx.reveal_open_hands(now)
        fx.after_change(now)

    def replay_share(self, fx: Effects, number: int, seat: int, now: float) -> None:
        """A journal's ``share``: we published our share of ``seat``'s seed of game
        ``number``."""
        fx.deal_out(number, self.dealing.dealers[number].share(seat), now)
        fx.reveal_open_hands(now)

    # ------------------------------------------------------------ hand-over (host)

    def can_hand_over(self, fx: Effects, seat: int) -> bool:
        """Host: could a bot take lost ``seat`` over now (its seed can be rebuilt, and the
        others can check for themselves that it is gone: it gave them an address to
        hear it at)?"""
        dealer = self.dealer
        return (self.seat == HOST and bool(fx.grace) and self.handover.table_seats >= 3
                and fx.in_game and dealer is not None and dealer.done
                and seat not in self.handover.bots and dealer.can_rebuild(seat)
                and seat not in dealer.bad_escrows and bool(self.seating.players[seat].addr))

    def handover_due(self, fx: Effects) -> tuple[int, float] | None:
        """Host: the lost seat whose grace period ends first, and when (None: none can
        be handed over; see :meth:`HandOver.handover_due`)."""
        if not self.presence.lost_since:  # nobody is lost (the common case, asked at every timer)
            return None
        return self.handover.handover_due(self.presence, grace=fx.grace, in_game=fx.in_game,
                                          can_hand_over=lambda s: self.can_hand_over(fx, s))

    def hand_over(self, fx: Effects, seat: int, now: float) -> None:
        """Host: ``seat`` has been lost for the grace period: a bot plays it from now on
        (every seat publishes its share of the seat's seed, so its hand opens to all),
        until its player is back."""
        self.handover.hand_over(seat)
        fx.record(t="handover", seat=seat)
        slot = self.proposals.void(seat)
        if slot is not None:
            # Its placed move never came: the place is void, and the proposal is refused
            # after the next entry (so as one the table moved past).
            self.proposals.voided.append((seat, slot.frame))
        fx.broadcast(Status(0, seat, "bot", str(self.play.game_no)), now, but=seat)
        fx.emit(ev.SeatStatus(self.table, seat, "bot", "", now))
        self.publish_share(fx, seat, now)
        if self.proposals.slot is None:
            fx.drain(now)

    def replay_handover(self, seat: int) -> None:
        """A journal's ``handover``: a bot plays ``seat`` (its placed move, if any, void:
        its refusal follows in the journal)."""
        self.handover.replay_handover(seat)
        self.proposals.void(seat)

    def replay_back(self, seat: int) -> None:
        """A journal's ``back``: ``seat`` is its player's again."""
        self.handover.replay_back(seat)

    # ------------------------------------------------------------ abandoned games

    def abandon_times(self, fx: Effects) -> dict[int, tuple[float, float]]:
        """When each silent seat's game is abandoned, by seat: ``(when, silent since)``
        (see :meth:`HandOver.abandon_times`); none once we are closing."""
        presence = self.presence
        if not presence.lost_since and not presence.reported_lost:
            return {}
        if fx.closing:
            return {}
        dealer = self.dealer
        return self.handover.abandon_times(
            presence, grace=fx.grace, audit_timeout=self.audit_timeout, in_game=fx.in_game,
            adopted=dealer.adopted if dealer is not None else (),
            can_hand_over=lambda s: self.can_hand_over(fx, s))

    def check_abandoned(self, fx: Effects, now: float) -> None:
        """A seat silent for the whole grace period: its game (in play, or waiting for
        its seed for the audit) ends with a verdict, and the table ends."""
        found = abandoned(self.abandon_times(fx), now)
        if found is None:
            return
        since, seat = found
        out, dealers, game = self.outcomes, self.dealing.dealers, self.play.game
        number = game_to_abandon(
            dealers, game_no=self.play.game_no, in_game=fx.in_game,
            over=game is not None and game.is_over, audited=out.audits,
            audit_due=out.audit_due, stopped=out.stops,
            began={n: d.began for n, d in dealers.items()})
        if number is not None:
            self.abandon(fx, number, seat, since, now)

    def abandon(self, fx: Effects, number: int, seat: int, since: float, now: float) -> None:
        """Settle game ``number`` without ``seat``, silent since ``since``: the fault we
        saw ourselves if we stopped the game on evidence, else ``abandoned``."""
        names = self._names()
        who = names[seat]
        silent = now - since
        fx.record(t="abandon", game=number, seat=seat, silent=round(silent, 3))
        out = self.outcomes
        if number not in out.stops:
            out.broken.add(number)
            fx.set_stop(number, Stop(seat, len(self.game_log.of(number)), "went silent",
                                     False))
        fx.publish_seed(number, now)  # for a seat that is back before we are gone
        if number in out.audits:
            return  # (its seed was in after all)
        heard = (self.presence.heard.get(seat, float("-inf")) if not fx.linked(seat)
                 else None)
        verdict = out.abandon_verdict(number, seat, silent, names, me=self.seat,
                                      heard_ago=None if heard is None else now - heard,
                                      wait=abandon_after(fx.grace))
        fx.end_table(f"{who} went silent")
        fx.settle(number, verdict, now, silent=(seat, since))

    def host_gave_up(self, fx: Effects, number: int, now: float) -> None:
        """A seated player whose host said goodbye while game ``number`` waited for its
        audit: if the seeds of seats the host reported lost are missing, the first of
        them to go silent is the one that did (abandoned), not one that refused the
        audit."""
        dealer = self.dealing.dealers.get(number)
        if dealer is None:
            return
        silent = sorted((self.presence.reported_lost.get(s, now), s)
                        for s in self.handover.silent(dealer.seeds))
        if silent and not dealer.seeds_in and number not in self.outcomes.audits:
            self.abandon(fx, number, silent[0][1], silent[0][0], now)

    def unheard(self, fx: Effects, seat: int, now: float) -> None:
        """A seat we cannot hear ourselves has kept the table waiting past the idle
        bound and a margin, and the host (which hears it, and names it ``idle`` at the
        bound) has told us nothing: it may be the seat, or a host that keeps its moves
        or its Fault from us.  The game ends ``abandoned``, naming nobody (section 7)."""
        number = self.play.game_no
        idle = self.handover.idle
        since = idle.deadlines[seat] - idle.seconds
        names = self._names()
        waited = round(now - since)
        fx.record(t="abandon", game=number, seat=seat, silent=round(now - since, 3),
                  what="made no move")
        self.outcomes.broken.add(number)
        fx.set_stop(number, Stop(seat, len(self.game_log.of(number)), "made no move", False))
        dealer = self.dealer
        messages = dealer.publish_seed() if dealer is not None else []
        if messages:  # for the others' audits (ours is settled here, on what we saw)
            fx.record(t="publish", game=number)
            fx.deal_out(number, messages, now)
        fx.end_table(f"{names[seat]} made no move")
        fx.settle(number, Verdict.of(False, "abandoned", Note.of(
            "idle_unheard", seat=Seat(seat), host=Seat(HOST), seconds=waited), names),
            now, silent=(seat, since))

    def replay_abandon(self, fx: Effects, seat: int, what: str) -> None:
        """A journal's ``abandon`` (``what``: "went silent", "made no move"): the table
        ends once the game's audit is done."""
        name = self.seating.players[seat].name or f"seat {seat}"
        fx.end_table(f"{name} {what}")
