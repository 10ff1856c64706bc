"""The table backend of a LAN game: our seat's view of the session's game, on the UI thread.

:class:`LanBackend` is the :class:`~durak_widgets.backend.TableBackend` the table
controller drives during a LAN game, at a table of two (an invitation) or of up to six
(a hosted table).  It holds a *mirror* of the session's view of the game (our hand, the
other hands hidden), changed only on the UI thread as the session's events arrive
through the hand-off: an applied action, our drawn cards opened, the game stopped or
audited.  So the table never shows a state its log lines have not reached, and never
holds a card of another seat that the session does not.

Beyond the game it shows what the session knows of each seat (:meth:`seat_notes`): a
bot that the host runs, a lost connection, a player who left, and each seat's move
clock when the table has one.  The clock's display is redrawn about once a second by a
timer on the kernel's event loop (never a sleeping thread), only while a clock runs.
"""

from __future__ import annotations

import contextlib
import html
import time
from collections.abc import Callable, Sequence
from typing import Any

from durak_core import Action, Event, Game, IllegalAction, Pass, Rules
from durak_core.bots import Bot
from durak_lang.reasons import match as match_reason
from durak_lang.reasons import say_reason
from durak_net import events as ev
from durak_net.i18n import said
from durak_net.node import LanNode, SessionView
from durak_net.session import SessionError

from . import words
from .backend import Changed, Forced, Score, SeatNote, Update, waiting_on
from .handoff import Handoff
from .words import N_, _, n_

#: How a move its seat did not choose is marked in the log (the terminal's words,
#: durak_net.events.FORCED_WORDS, in the table's language: translated when read).
FORCED_WORDS = {"timeout": N_("timed out"), "bot": N_("played by a bot for the absent player")}
#: The same, for a move of our own seat (we are back, and see what was done for us).
FORCED_FOR_US = {"timeout": N_("timed out"),
                 "bot": N_("played for you by a bot while you were away")}
#: What a player back at its seat is told when its hand was opened to the table.
OPENED_WORDS = N_("While you were away your hand was opened to the table, and a bot "
                  "played for you.")
#: How a seat's state (SessionView.seat_states, SeatStatus) is shown beside it.
STATE_WORDS = {"lost": N_("connection lost"), "left": N_("left"),
               "bot": N_("a bot plays for them"), "back": N_("back")}
#: Why "Not the same" ends the session (the other player reads this).
NOT_THE_SAME = N_("the pairing words differed: someone may be in the middle")
#: The reasons for leaving our own programs send, shown in the table's language (a
#: reason from another program is shown as it came).
REASON_WORDS = {"closed the table": N_("closed the table"), "left the game": N_("left the game"),
                "left": N_("left"), NOT_THE_SAME: NOT_THE_SAME,
                "played all games": N_("played all games"), "game stopped": N_("game stopped"),
                "declined": N_("declined"), "no answer": N_("no answer"),
                "already playing": N_("already playing"),
                "cancelled by the inviter": N_("cancelled by the inviter"),
                "no seat offered": N_("no seat offered"),
                "the host gave no seat": N_("the host gave no seat")}


def reason_words(reason: str) -> str:
    """A session's reason for ending, in the table's language when it is one of ours;
    another program's reason quoted as its own words."""
    return _(REASON_WORDS[reason]) if reason in REASON_WORDS else words.say_net_reason(reason)


def verdict_words(event: ev.GameAudited, names: Sequence[str]) -> str:
    """An audit's verdict for the table: fair, or the fault the audit found, in the
    table's language with the table's names (``names``, by seat)."""
    if event.fair:
        return _("audited: fair (unfinished)") if "unfinished" in event.verdict else _(
            "audited: fair")
    detail = words.say_note(event.note, event.verdict.removeprefix("audit: "), names)
    return _("audit: {detail}").format(detail=detail)


def back_words(name: str, from_bot: bool) -> str:
    """The line for a seat whose player is back (from a bot of the host's: say so).

    >>> back_words("Ben", True)
    'Ben is back and plays their seat again: the bot stops.'
    """
    return (_("{name} is back and plays their seat again: the bot stops.") if from_bot
            else _("{name} is back.")).format(name=name)


class LanBackend:
    """A :class:`~durak_widgets.backend.TableBackend` for one LAN session (table).

    Moves are sent with :meth:`LanNode.act` (the host applies them, a seated player's are
    proposed and come back as events).  ``verdicts`` keeps the audit of every game
    (``"audited: fair"`` or the fault and whose it is).

    names: a display name per seat (the session's, by default).
    bot: plays our seat by itself (demos and tests), through the same :meth:`submit`.
    clock: the monotonic clock the session's deadlines are on (tests pass a fake one).
    """

    def __init__(self, node: LanNode, sid: int, names: Sequence[str] | None, seat: int,
                 bot: Bot | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.node = node
        self.sid = sid
        self.seat = seat
        view = node.view(sid)
        self._names = tuple(names) if names is not None else (
            view.names if view is not None else ())
        self._players = len(self._names)
        self.bot = bot
        self.clock = clock
        self._game: Game | None = None
        self._game_no = 0
        self._duraks: list[int | None] = []
        self._handoff: Handoff | None = None
        self._changed: Changed | None = None
        self._awaiting = False  # our move is on its way and not yet in the log
        self._bot_posted = False
        self._bot_started = 0
        self._refused: dict[str, str] = {}
        #: Our last move sent and the table when it was chosen, for its words if refused.
        self._submitted: tuple[str, words.Moment] | None = None
        #: Seats whose link this seat has lost (a seated player's only link: the host's).
        self.lost_seats: set[int] = set()
        #: Seats a bot of the host's plays (told by SeatStatus "bot"), until they are back.
        self._stood_in: set[int] = set()
        self.closed = False
        #: Per seat: "" or "lost", "left", "bot", "back" (see STATE_WORDS).
        self.seat_states: list[str] = [""] * self._players
        #: Per seat: when its move clock runs out (``clock()`` time), None if not running.
        self.deadlines: list[float | None] = [None] * self._players
        #: Per seat: the kind the host says ("host", "player", "bot").
        self.kinds: tuple[str, ...] = view.kinds if view is not None else ()
        self.clock_seconds = view.clock if view is not None else 0
        self.host_name = self._names[0] if self._names else _("the host")
        self._durak_counts: tuple[int, ...] = (0,) * self._players
        self._ticking = False
        self.ticks = 0
        #: Finished games as reported by the session (hashes included).
        self.results: list[ev.GameFinished] = []
        #: Audit verdict of each game, by game number.
        self.verdicts: dict[int, ev.GameAudited] = {}
        #: The full game (every card) of each game a fair audit rebuilt, by game number.
        self.full_games: dict[int, Game] = {}
        self._history: list[Event] = []  # this game's events as our seat saw them
        self.resync()

    # ------------------------------------------------------------ TableBackend

    @property
    def rules(self) -> Rules:
        game = self._game
        assert game is not None
        return game.rules

    @property
    def names(self) -> Sequence[str]:
        return self._names

    @property
    def local_seats(self) -> Sequence[int]:
        return (self.seat,)

    @property
    def game(self) -> Game | None:
        """The mirror of our seat's view of the game (UI thread only)."""
        return self._game

    @property
    def review_game(self) -> Game | None:
        """The full game to review: the current one once a fair audit rebuilt it (its
        cards are all public then); None while it runs or is being audited, or when the
        audit found a fault (its cards cannot be trusted)."""
        return self.full_games.get(self._game_no)

    def seat_history(self, seat: int) -> list[Event]:
        """The events of the current game as our seat saw them (the session's view:
        the other seat's draws hidden), for the coach's reading of the opponent.  Empty
        for a game joined mid-way (resumed): the hint then deals hidden cards uniformly."""
        if seat != self.seat:
            raise ValueError(f"this table only sees seat {self.seat}'s events, not {seat}'s")
        return list(self._history)

    @property
    def peer(self) -> str:
        """Who stands for "the other side" in sentences: the other player at a table of
        two, the host at a larger one (for the host: "the table")."""
        if self._players == 2:
            return self._names[1 - self.seat]
        return self.host_name if self.seat != 0 else _("The table")

    @property
    def lost(self) -> bool:
        """Is the game stuck on a lost connection?  (A seated player's one link is the
        host's; the host loses single seats, and the rest of the table goes on.)"""
        return bool(self.lost_seats) and (self.seat != 0 or self._players == 2)

    def attach(self, handoff: Handoff, changed: Changed) -> None:
        self._handoff = handoff
        self._changed = changed
        self._schedule_bot()
        self._schedule_tick()

    def observation(self, seat: int) -> dict[str, Any]:
        assert self._game is not None
        return self._game.observation(seat)

    def why_illegal(self, action: Action) -> str | None:
        player = getattr(action, "player", None)
        if player != self.seat:
            who = self._names[player] if isinstance(player, int) and 0 <= player < len(
                self._names) else self.peer
            return _("That move is {name}'s, who plays over the network.").format(name=who)
        if self.closed:
            return _("The game has ended: the session is closed.")
        if self._game is None:
            return _("The cards are being dealt.")
        if self._game.unknown_count(self.seat):
            return _("Your drawn cards are being dealt; a moment.")
        refused = self._refused.get(str(action))
        if refused is not None and match_reason(refused) is None:
            # Not a sentence of the rules engine: the refusing program's own words.
            return _("{name} refused this move, saying: {reason}").format(
                name=self.peer, reason=words.say_net_reason(refused))
        if refused is not None:
            return _("{name} refused this move: {reason}").format(
                name=self.peer, reason=say_reason(refused, self._names, self.seat))
        return self._game.why_illegal(action)

    def submit(self, action: Action) -> None:
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason, action)
        moment = words.Moment.of(self.observation(self.seat))
        self.node.act(self.sid, action)  # raises IllegalAction if the session's game moved
        self._awaiting = True
        self._submitted = (str(action), moment)

    def thinking(self) -> Sequence[int]:
        """The seats the game waits for (not our own, not one whose connection is lost)."""
        game = self._game
        if game is None or game.is_over or self.lost:
            return ()
        return tuple(s for s in waiting_on(game.observation(self.seat))
                     if s != self.seat and s not in self.lost_seats
                     and self.seat_states[s] not in ("lost", "left"))

    def score(self) -> Score | None:
        """Games finished at this table and how often each seat was the durak (the
        session's count, SessionView.duraks, which a resumed table keeps)."""
        counts = self._durak_counts
        draws = self._duraks.count(None)
        return Score(max(len(self._duraks), sum(counts) + draws), tuple(counts), draws)

    def new_game(self) -> None:
        try:
            number = self.node.start_next_game(self.sid)
        except (SessionError, ValueError) as exc:
            self._notify([_("No new game: {reason}").format(reason=said(exc))])
            return
        if self._players == 2:
            waiting = _("Waiting for {name} to agree to game {number}…").format(
                name=self._names[1 - self.seat], number=number)
        else:
            waiting = _("Waiting for the others to agree to game {number}…").format(
                number=number)
        self._notify([waiting])

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(ValueError):
                self.node.leave(self.sid, "closed the table")

    # ------------------------------------------------------------ beyond the game

    def seat_notes(self) -> list[SeatNote]:
        """Per seat: a bot the host runs, its connection or player's state, its clock."""
        now = self.clock()
        notes = []
        for seat in range(self._players):
            kind = ""
            if seat < len(self.kinds) and self.kinds[seat] == "bot":
                kind = (_("bot, in your kernel") if self.seat == 0
                        else _("bot, in {name}'s kernel").format(name=self.host_name))
            state = self.seat_states[seat]
            if seat in self.lost_seats and not state:
                state = "lost"
            deadline = self.deadlines[seat]
            running = deadline is not None and not self.closed and (
                self._game is not None and not self._game.is_over)
            said = _(STATE_WORDS[state]) if state in STATE_WORDS else state
            notes.append(SeatNote(kind=kind, state=said,
                                  clock=deadline - now if running and deadline else None))
        return notes

    def table_line(self) -> str:
        """The table's move clock, if it has one."""
        return (_("move clock {seconds} s").format(seconds=self.clock_seconds)
                if self.clock_seconds else "")

    def _read_view(self) -> SessionView | None:
        """Copy what the session knows of the seats (states, clocks, the score)."""
        view = self.node.view(self.sid)
        if view is None:
            return None
        n = self._players
        if len(view.seat_states) == n:
            back = {s for s in range(n) if self.seat_states[s] == "back"}
            self.seat_states = [st or ("back" if s in back else "")
                                for s, st in enumerate(view.seat_states)]
        if len(view.deadlines) == n:
            self.deadlines = list(view.deadlines)
        if len(view.duraks) == n:
            self._durak_counts = view.duraks
        if view.kinds:
            self.kinds = view.kinds
        self.clock_seconds = view.clock
        return view

    # ------------------------------------------------------------ network events

    def resync(self) -> SessionView | None:
        """Copy the session's current view (at start, after a gap, after resuming);
        returns it."""
        view = self._read_view()
        if view is not None and view.game is not None:
            self._game = view.game
            self._game_no = view.game_no
            self._refused = dict(view.refused)
            if view.full_game and view.game_no not in self.full_games:
                # A game audited before a restart: its review works after resuming too.
                self.full_games[view.game_no] = Game.from_json(view.full_game)
        return view

    def _refusals_now(self) -> dict[str, str]:
        """The session's refusals, if our copy of the game is where the session's is.
        A refusal event is read after the table may have moved on (the events queue up
        for the UI thread, a resync may have skipped ahead): kept as it came, it would
        keep a move that is legal again, perhaps the only one, from the bot."""
        view = self.node.view(self.sid)
        game = self._game
        if view is None or view.game is None or game is None or (
            view.game_no != self._game_no or len(view.game.log) != len(game.log)
        ):
            return {}
        return dict(view.refused)

    def _name(self, seat: int) -> str:
        return self._names[seat] if 0 <= seat < len(self._names) else _("a player")

    def on_event(self, event: Any) -> None:
        """A session event, on the UI thread (posted through the hand-off)."""
        updates: list[Update] = []
        peer = self.peer
        if isinstance(event, ev.GameStarted):
            view = self.resync()
            self._awaiting = False
            self._history = []
            updates.append((_("— game {number} resumed (hidden hands) —") if event.resumed
                            else _("— game {number} dealt (hidden hands) —")).format(
                                number=event.game))
            played = view.played_for_us if view is not None and event.resumed else 0
            if played and self.seat == 0:
                updates.append(n_("While you were away a bot in your kernel played {count} "
                                  "move for you; the seat is yours again.",
                                  "While you were away a bot in your kernel played {count} "
                                  "moves for you; the seat is yours again.",
                                  played).format(count=played))
            elif played:
                updates.append(n_("While you were away a bot in {name}'s kernel played "
                                  "{count} move for you; the seat is yours again.",
                                  "While you were away a bot in {name}'s kernel played "
                                  "{count} moves for you; the seat is yours again.",
                                  played).format(count=played, name=self.host_name))
            if event.shown is not None and not event.resumed:
                seat, card = event.shown
                updates.append(words.shows_lowest_trump(seat, card, self._names, self.seat))
        elif isinstance(event, ev.ActionApplied):
            game = self._game
            if event.by_me:
                self._awaiting = False
            player = event.action.player
            if 0 <= player < self._players and self.seat_states[player] == "back":
                self.seat_states[player] = ""
            if game is None or event.game != self._game_no or event.index > len(game.log):
                self.resync()
            elif event.index == len(game.log):
                game.apply(event.action)
                self._refused = {}
                self._read_view()
                self._history.extend(event.events)
                if event.forced and event.events:
                    forced_words = FORCED_FOR_US if player == self.seat else FORCED_WORDS
                    why = (_(forced_words[event.forced]) if event.forced in forced_words
                           else event.forced)
                    updates.append(Forced(event.events[0], why))
                    updates.extend(event.events[1:])
                else:
                    updates.extend(event.events)
        elif isinstance(event, ev.CardsRevealed):
            game = self._game
            if game is not None and event.game == self._game_no:
                missing = [c for c in event.cards if c not in game.hand(event.seat)]
                if len(missing) <= game.unknown_count(event.seat):
                    game.reveal(event.seat, missing)
                else:
                    self.resync()
        elif isinstance(event, ev.ActionRefused):
            self._refused = self._refusals_now()
            # The host refuses only a move the table had moved past (the session checks
            # that): a race, not a mistake.  Our automatic pass is proposed again when
            # due and was nobody's click: nothing to say.  A move we made: too late.
            if not event.automatic:
                self._awaiting = False
                submitted, self._submitted = self._submitted, None
                moment = (submitted[1] if submitted is not None
                          and submitted[0] == str(event.action)
                          else words.Moment(lead=False, attacker=None, taking=False))
                updates.append(words.too_late(event.action, moment))
        elif isinstance(event, ev.GameFinished):
            self._duraks.append(event.durak)
            self.results.append(event)
            self._read_view()
            updates.append(_("Every seat now publishes its keys for the audit…")
                           if self._players > 2 else
                           _("Both seats now publish their keys for the audit…"))
        elif isinstance(event, ev.GameStopped):
            self._read_view()
            updates.append(_("Game {number} stopped: {detail}. Auditing…").format(
                number=event.game, detail=words.say_note(event.note, event.detail,
                                                         self._names)))
        elif isinstance(event, ev.GameAudited):
            self.verdicts[event.game] = event
            if event.fair and event.full_game:
                self.full_games[event.game] = Game.from_json(event.full_game)
            updates.append(_("Game {number}: {verdict}").format(
                number=event.game, verdict=verdict_words(event, self._names)))
        elif isinstance(event, ev.NextGameRequested):
            updates.append(_("{name} wants another game: click New game.").format(name=peer)
                           if self._players == 2 else
                           _("Another player wants another game: click New game."))
        elif isinstance(event, ev.PeerLost):
            seat = event.seat if event.seat >= 0 else 1 - self.seat
            self.lost_seats.add(seat)
            self._read_view()
            if self._players == 2:
                updates.append(_("Connection to {name} lost, waiting…").format(name=peer))
            elif self.seat != 0:
                updates.append(_("Connection to the host, {name}, lost: the table "
                                 "waits…").format(name=self.host_name))
            else:
                updates.append(_("Connection to {name} lost: the table waits…").format(
                    name=self._name(seat)))
        elif isinstance(event, ev.PeerBack):
            seat = event.seat if event.seat >= 0 else 1 - self.seat
            was_bot = seat in self._stood_in
            self._stood_in.discard(seat)
            self.lost_seats.discard(seat)
            self._read_view()
            if 0 <= seat < self._players:
                self.seat_states[seat] = "back"
            name = peer if self._players == 2 else self._name(seat)
            updates.append(back_words(name, was_bot))
        elif isinstance(event, ev.SeatStatus):
            updates.extend(self._seat_status(event))
        elif isinstance(event, ev.DesyncDetected):
            updates.append(_("Out of step with {name} after move {number}: {detail}.").format(
                name=peer, number=event.index,
                detail=words.say_note(event.note, event.detail, self._names)))
        elif isinstance(event, ev.ProtocolViolation):
            updates.append((_("{name}'s program broke the rules of the protocol: {detail}")
                            if self.seat != 0 or self._players == 2 else
                            _("A player's program broke the rules of the protocol: {detail}")
                            ).format(name=peer, detail=words.say_note(
                                event.note, event.detail, self._names)))
        elif isinstance(event, ev.SessionClosed):
            self.closed = True
            if not event.by_peer:
                updates.append(_("You left the table."))
            elif self._players == 2:
                updates.append(_("{name} left the table ({reason}).").format(
                    name=peer, reason=reason_words(event.reason)))
            else:
                updates.append(_("{name} closed the table ({reason}).").format(
                    name=self.host_name, reason=reason_words(event.reason)))
        self._notify(updates)
        self._schedule_bot()
        self._schedule_tick()

    def _seat_status(self, event: ev.SeatStatus) -> list[Update]:
        """The host's word on a seat: lost, back, left, a bot plays it, or (to us) that
        our move clock ran out while we had to lead."""
        seated = 0 <= event.seat < self._players
        was_bot = event.seat in self._stood_in
        if event.state == "bot":
            self._stood_in.add(event.seat)
        elif event.state in ("back", "left"):
            self._stood_in.discard(event.seat)
        self._read_view()
        name = self._name(event.seat)
        detail = f" ({reason_words(event.detail)})" if event.detail else ""
        if event.state == "timeout":
            return [_("Your move clock ran out: your cheapest card is led for you.")]
        if event.state == "opened":
            return [_(OPENED_WORDS)]
        if seated and event.state in STATE_WORDS:
            self.seat_states[event.seat] = event.state
        if event.state == "lost":
            return [_("Connection to {name} lost: the table waits…").format(name=name)]
        if event.state == "back":
            return [back_words(name, was_bot)]
        if event.state == "left":
            return [_("{name} left the table{detail}.").format(name=name, detail=detail)]
        if event.state == "bot":
            return [_("A bot plays for {name} while they are away{detail}.").format(
                name=name, detail=detail)]
        return [f"{name}: {event.state}{detail}"]

    def verdict_html(self) -> str:
        """The newest audit, for the badge: green when fair, red with the fault."""
        if not self.verdicts:
            return ""
        latest = self.verdicts[max(self.verdicts)]
        colour = "#1b7f3b" if latest.fair else "#b3261e"
        said = _("game {number}: {verdict}").format(number=latest.game,
                                                     verdict=verdict_words(latest, self._names))
        return f"<span class='durak-audit' style='color:{colour}'>{html.escape(said)}</span>"

    def _say(self, action: Action) -> str:
        """A move in the table's words (names, not seat numbers)."""
        game = self._game
        moment = (words.Moment.of(game.observation(self.seat)) if game is not None
                  else words.Moment(lead=False, attacker=None, taking=False))
        return words.say_action(action, moment, self._names, self.seat)

    def _notify(self, updates: list[Update]) -> None:
        if self._changed is not None:
            self._changed(updates)

    # ------------------------------------------------------------ the move clock

    def clock_running(self) -> bool:
        """Is any seat's move clock running (so its display changes by itself)?"""
        game = self._game
        return (not self.closed and game is not None and not game.is_over
                and any(d is not None for d in self.deadlines))

    def tick(self) -> None:
        """Redraw the clocks (UI thread).  Runs about once a second from a timer on the
        kernel's loop while a clock runs; tests without a kernel call it themselves."""
        self._ticking = False
        if not self.clock_running():
            return
        self.ticks += 1
        self._notify([])
        self._schedule_tick()

    def _schedule_tick(self) -> None:
        """Arm the next redraw of the clocks at the next whole second of the soonest
        one, if a clock runs and the hand-off has timers (a kernel's loop)."""
        handoff = self._handoff
        if self._ticking or handoff is None or not handoff.timers or not self.clock_running():
            return
        now = self.clock()
        left = [d - now for d in self.deadlines if d is not None]
        soonest = min(left)
        delay = soonest - int(soonest) if soonest > 0 else 1.0
        self._ticking = True
        handoff.post_later(min(1.0, max(delay, 0.05)), self.tick)

    # ------------------------------------------------------------ the bot seat

    def _schedule_bot(self) -> None:
        if self.bot is None or self._bot_posted or self._handoff is None:
            return
        self._bot_posted = True
        self._handoff.post(self._bot_move)

    def _bot_move(self) -> None:
        self._bot_posted = False
        game = self._game
        if self.bot is None or game is None or game.is_over or self._awaiting or self.closed:
            return
        if game.unknown_count(self.seat):
            return  # our drawn cards are still being opened
        legal = [a for a in game.legal_actions(self.seat) if str(a) not in self._refused]
        if not legal or (len(legal) == 1 and isinstance(legal[0], Pass)):
            return  # nothing to do, or the session's automatic pass
        if self._bot_started != self._game_no:
            self._bot_started = self._game_no
            self.bot.start(self.seat, game.rules)
        action = self.bot.choose(game.observation(self.seat), legal)
        try:
            self.submit(action)
        except IllegalAction:
            return  # the session's game had moved on; the next event brings it here
        self._notify([])
