"""The deal as a seat runs it, a part of the session: deal messages in and out, the next
game agreed to and asked for, and each game begun once it is dealt.

One job: move the mental deal along (section 6 of docs/lan-protocol.md).  Another seat's
deal message is checked (the host checks the signature of what it passes on), kept,
passed on by the host, fed to its game's dealer, and our replies signed and sent; a
game another seat asked for is told to the application once; a game every seat agreed
to and the deal finished is begun (our view of it, dealt by the dealer).  The decisions
on a message alone and the bookkeeping are the deal part's
(:class:`~durak_net.dealing.Dealing`); the cards are the dealer's
(:class:`~durak_net.dealer.MentalDealer`); this part strings them together.

It holds no session.  What it needs done around it (a frame sent, an event, a journal
record, a game stopped on a deal fault, our drawn cards taken in, the clocks started,
the audit run once the seeds are in) it asks of an :class:`Effects` passed to each call,
which the session implements and a test fakes (tests/net/test_net_dealflow_part.py runs
a deal between two of these parts in memory, no network).  The same code runs when a
journal is replayed (:meth:`DealFlow.replay_deal`, :meth:`DealFlow.replay_begin`): the
session's effects then send and report nothing.
"""

from __future__ import annotations

from typing import Any, Protocol

from durak_core import Rules

from . import events as ev
from .dealer import DealFault, MentalDealer
from .dealing import Dealing
from .notes import Note
from .outcomes import HOST, Outcomes
from .play import Play
from .seating import SeatingChart
from .wire import Deal, Frame


class Effects(Protocol):
    """What the deal-flow part asks of the session around it (the session implements
    it; while a journal replays, it sends, reports and records nothing)."""

    @property
    def in_game(self) -> bool:
        """Is a game dealt and not over (nor stopped)?"""

    def dealing_stopped(self) -> bool:
        """Is the session ending (saying goodbye, or closed outside a replay)?  It deals
        no new game then."""

    def broadcast(self, frame: Frame, now: float, /, but: int | None = None) -> None:
        """Send ``frame`` to every seat we have a link to, but seat ``but``."""

    def emit(self, event: Any, /) -> None:
        """An event for the application."""

    def record(self, **record: Any) -> None:
        """A journal record."""

    def deal_out(self, number: int, messages: list[bytes], now: float, /) -> None:
        """Sign and send our deal messages of game ``number``."""

    def violation(self, note: Note, now: float, /) -> None:
        """A message that breaks the protocol, dropped and reported."""

    def fault(self, number: int, fault: DealFault, now: float,
              proof: list[bytes] | None = None, /) -> None:
        """The deal caught a seat cheating: stop game ``number`` on it."""

    def cards_in(self, now: float, /) -> None:
        """A deal message of the game in play is in: our drawn cards may open now, and
        the game go on (the next automatic move)."""

    def game_begun(self, now: float, /) -> None:
        """A game is dealt and begun: the move clocks start, the first automatic move."""

    def audit_if_ready(self, number: int, now: float, /) -> None:
        """Game ``number`` is over or stopped and its seeds may all be in: audit it."""


class DealFlow:
    """The deal of every game, moved along from seat ``seat`` of table ``table`` (see
    the module docstring).  The other arguments are the sibling parts it reads and
    writes."""

    def __init__(self, table: int, seat: int, rules: Rules, *, dealing: Dealing, play: Play,
                 outcomes: Outcomes, seating: SeatingChart) -> None:
        self.table = table
        self.seat = seat
        self.rules = rules
        self.dealing = dealing
        self.play = play
        self.outcomes = outcomes
        self.seating = seating

    def dealer(self, fx: Effects, number: int) -> MentalDealer:
        """Game ``number``'s dealer, made (and journalled with its seed) the first time
        it is asked for: by our agreeing to the game, or by another seat's message."""
        dealer = self.dealing.dealers.get(number)
        if dealer is None:
            previous = None
            game = self.play.game
            if self.rules.match and game is not None and game.is_over:
                previous = game.durak
            dealer = self.dealing.make(number, previous, self.seating.keys())
            fx.record(t="dealer", game=number, seed=dealer.seed.hex(), previous=previous)
        return dealer

    # ------------------------------------------------------------------ our side

    def agree(self, fx: Effects, number: int, now: float) -> None:
        """We agree to deal game ``number``: our first deal messages go out (once), and
        the game begins if every other seat had agreed and dealt already."""
        dealer = self.dealer(fx, number)
        if not dealer.began:
            fx.record(t="begin", game=number)
            fx.deal_out(number, dealer.begin(), now)
            self.maybe_deal(fx, number, now)

    def replay_begin(self, fx: Effects, number: int, now: float) -> None:
        """A journal's ``begin`` record: we agreed to deal game ``number``."""
        fx.deal_out(number, self.dealing.dealers[number].begin(), now)
        self.maybe_deal(fx, number, now)

    # ------------------------------------------------------------------ messages in

    def on_deal(self, fx: Effects, link_seat: int, frame: Deal, now: float) -> None:
        """Another seat's deal message, over ``link_seat``'s link.  The host checks the
        signature of what it will pass on (it came over the author's own link, so a bad
        one is the author's); a seated player keeps it and checks it only if the audit
        blames its author."""
        number = frame.game
        author = frame.seat
        wrong = self.dealing.check(frame, link_seat=link_seat, game_no=self.play.game_no,
                                   keys=self.seating.keys())
        if wrong is not None:
            fx.violation(wrong, now)
            return
        if self.dealing.stale(number, self.play.game_no):
            return
        self.dealing.keep(frame)
        if self.seat == HOST:
            fx.broadcast(frame, now, but=author)  # pass it on to every other seat
        self.take(fx, frame, now)

    def take(self, fx: Effects, frame: Deal, now: float) -> None:
        """Another seat's deal message, checked and kept (from the host, or a seed on
        that seat's own heartbeat): into our dealer, and what follows from it."""
        number, author = frame.game, frame.seat
        dealer = self.dealer(fx, number)
        fx.record(t="dealmsg", game=number, seat=author, data=frame.data.hex(),
                  sig=frame.sig.hex())
        try:
            replies = dealer.receive(frame.data, author)
        except DealFault as fault:
            fx.fault(number, fault, now)
            return
        fx.deal_out(number, replies, now)
        self._taken(fx, number, now)

    def replay_deal(self, fx: Effects, frame: Deal, now: float) -> None:
        """A journal's deal message (``dealmsg``), taken in again as it was received."""
        number = frame.game
        self.dealing.keep(frame)
        fx.deal_out(number, self.dealing.dealers[number].receive(frame.data, frame.seat), now)
        self._taken(fx, number, now)

    def _taken(self, fx: Effects, number: int, now: float) -> None:
        """A deal message of game ``number`` is in: our cards, the next game asked for
        or begun, the audit."""
        if number == self.play.game_no and self.play.game is not None and fx.in_game:
            fx.cards_in(now)
        self.maybe_request(fx, now)
        self.maybe_deal(fx, number, now)
        fx.audit_if_ready(number, now)

    # ------------------------------------------------------------------ next game

    def maybe_request(self, fx: Effects, now: float) -> None:
        """Tell the application once that another seat wants the next game."""
        number = self.dealing.request(self.play.game_no, fx.in_game)
        if number is not None:
            fx.emit(ev.NextGameRequested(self.table, number, now))

    def maybe_deal(self, fx: Effects, number: int, now: float) -> None:
        """Begin game ``number`` if its deal is done (and it is later than ours, not
        stopped, and the session not ending)."""
        try:
            dealer = self.dealing.ready(number, self.play.game_no, ending=fx.dealing_stopped(),
                                        stopped=number in self.outcomes.broken)
        except DealFault as fault:
            fx.fault(number, fault, now)
            return
        if dealer is None:
            return
        game = dealer.deal(self.rules)
        self.play.begin(number, game)
        fx.emit(ev.GameStarted(self.table, number, self.seat, game.public_hash(), now,
                               shown=dealer.shown_trump))
        fx.game_begun(now)
