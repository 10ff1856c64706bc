"""The table backend of a LAN game: our seat's view of the session's game, on the UI thread.

:class:`LanBackend` is the :class:`~durak_widgets.backend.TableBackend` the table
controller drives during a LAN game.  It holds a *mirror* of the session's view of the
game (our hand, the other hand hidden), changed only on the UI thread as the session's
events arrive through the hand-off: an applied action, our drawn cards opened, the
game stopped or audited.  So the table never shows a state its log lines have not
reached, and never holds a card of the other seat that the session does not.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Sequence
from typing import Any

from durak_core import Action, Event, Game, IllegalAction, Pass, Rules
from durak_core.bots import Bot
from durak_net import events as ev
from durak_net.node import LanNode
from durak_net.session import SessionError

from .backend import Changed, Score, Update, waiting_on
from .handoff import Handoff


class LanBackend:
    """A :class:`~durak_widgets.backend.TableBackend` for one LAN session.

    Moves are sent with :meth:`LanNode.act` (the sequencer applies them, the follower's
    are proposed and come back as events).  ``verdicts`` keeps the audit of every game
    (``"audited: fair"`` or the fault and whose it is).

    bot: plays our seat by itself (demos and tests), through the same :meth:`submit`.
    """

    def __init__(self, node: LanNode, sid: int, names: Sequence[str], seat: int,
                 bot: Bot | None = None) -> None:
        self.node = node
        self.sid = sid
        self.seat = seat
        self._names = tuple(names)
        self.bot = bot
        self._game: Game | None = None
        self._game_no = 0
        self._duraks: list[int | None] = []
        self._handoff: Handoff | None = None
        self._changed: Changed | None = None
        self._awaiting = False  # our move is on its way and not yet in the log
        self._bot_posted = False
        self._bot_started = 0
        self._refused: dict[str, str] = {}
        self.lost = False
        self.closed = False
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
        return self._names[1 - self.seat]

    def attach(self, handoff: Handoff, changed: Changed) -> None:
        self._handoff = handoff
        self._changed = changed
        self._schedule_bot()

    def observation(self, seat: int) -> dict[str, Any]:
        assert self._game is not None
        return self._game.observation(seat)

    def why_illegal(self, action: Action) -> str | None:
        player = getattr(action, "player", None)
        if player != self.seat:
            return f"Seat {player} is played by {self.peer} over the network."
        if self.closed:
            return "The game has ended: the session is closed."
        if self._game is None:
            return "The cards are being dealt."
        if self._game.unknown_count(self.seat):
            return "Your drawn cards are being dealt; a moment."
        refused = self._refused.get(str(action))
        if refused is not None:
            return f"{self.peer} refused this move: {refused}"
        return self._game.why_illegal(action)

    def submit(self, action: Action) -> None:
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(reason, action)
        self.node.act(self.sid, action)  # raises IllegalAction if the session's game moved
        self._awaiting = True

    def thinking(self) -> Sequence[int]:
        game = self._game
        if game is None or game.is_over or self.lost:
            return ()
        peer = 1 - self.seat
        return (peer,) if peer in waiting_on(game.observation(self.seat)) else ()

    def score(self) -> Score | None:
        counts = [0, 0]
        for durak in self._duraks:
            if durak is not None:
                counts[durak] += 1
        return Score(len(self._duraks), tuple(counts), self._duraks.count(None))

    def new_game(self) -> None:
        try:
            number = self.node.start_next_game(self.sid)
        except (SessionError, ValueError) as exc:
            self._notify([f"No new game: {exc}"])
            return
        self._notify([f"Waiting for {self.peer} to agree to game {number}…"])

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(ValueError):
                self.node.leave(self.sid, "closed the table")

    # ------------------------------------------------------------ network events

    def resync(self) -> None:
        """Copy the session's current view (at start, after a gap, after resuming)."""
        view = self.node.view(self.sid)
        if view is not None and view.game is not None:
            self._game = view.game
            self._game_no = view.game_no
            self._refused = dict(view.refused)

    def on_event(self, event: Any) -> None:
        """A session event, on the UI thread (posted through the hand-off)."""
        updates: list[Update] = []
        peer = self.peer
        if isinstance(event, ev.GameStarted):
            self.resync()
            self._awaiting = False
            self._history = []
            updates.append(f"— game {event.game} {'resumed' if event.resumed else 'dealt'} "
                           "(hidden hands) —")
            if event.shown is not None and not event.resumed:
                seat, card = event.shown
                who = "You show" if seat == self.seat else f"{self._names[seat]} shows"
                updates.append(f"{who} {card}, the lowest trump, and attack"
                               f"{'' if seat == self.seat else 's'} first.")
        elif isinstance(event, ev.ActionApplied):
            game = self._game
            if event.by_me:
                self._awaiting = False
            if game is None or event.game != self._game_no or event.index > len(game.log):
                self.resync()
            elif event.index == len(game.log):
                game.apply(event.action)
                self._refused = {}
                self._history.extend(event.events)
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
            self._awaiting = False
            self._refused[str(event.action)] = event.reason
            updates.append(f"Not played: {event.action} ({event.reason})")
        elif isinstance(event, ev.GameFinished):
            self._duraks.append(event.durak)
            self.results.append(event)
            updates.append("Both seats now publish their keys for the audit…")
        elif isinstance(event, ev.GameStopped):
            updates.append(f"Game {event.game} stopped: {event.detail}. Auditing…")
        elif isinstance(event, ev.GameAudited):
            self.verdicts[event.game] = event
            if event.fair and event.full_game:
                self.full_games[event.game] = Game.from_json(event.full_game)
            updates.append(f"Game {event.game} {event.verdict}")
        elif isinstance(event, ev.NextGameRequested):
            updates.append(f"{peer} wants another game: click New game.")
        elif isinstance(event, ev.PeerLost):
            self.lost = True
            updates.append(f"Connection to {peer} lost, waiting…")
        elif isinstance(event, ev.PeerBack):
            self.lost = False
            updates.append(f"{peer} is back.")
        elif isinstance(event, ev.DesyncDetected):
            updates.append(f"Out of step with {peer} after move {event.index}: {event.detail}.")
        elif isinstance(event, ev.ProtocolViolation):
            updates.append(f"{peer}'s program broke the rules of the protocol: {event.detail}")
        elif isinstance(event, ev.SessionClosed):
            self.closed = True
            updates.append(f"{peer} left the table ({event.reason})." if event.by_peer
                           else "You left the table.")
        self._notify(updates)
        self._schedule_bot()

    def verdict_html(self) -> str:
        """The newest audit, for the badge: green when fair, red with the fault."""
        if not self.verdicts:
            return ""
        latest = self.verdicts[max(self.verdicts)]
        colour = "#1b7f3b" if latest.fair else "#b3261e"
        return (f"<span class='durak-audit' style='color:{colour}'>game {latest.game}: "
                f"{html.escape(latest.verdict)}</span>")

    def _notify(self, updates: list[Update]) -> None:
        if self._changed is not None:
            self._changed(updates)

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
