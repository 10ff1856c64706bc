"""The controller: clicks become actions, backend changes become one refresh.

Every click handler and every backend notification only *posts* work to the
:class:`~durak_widgets.handoff.Handoff`; the work (checking and submitting an action,
redrawing) runs on the UI thread holding the table lock.  :meth:`TableController.refresh`
is the single path that redraws: it reads ``backend.observation(viewer)``, turns it
into a :class:`~durak_widgets.view.TableModel` and lets the view apply it.
"""

from __future__ import annotations

import html
import math
import re
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from durak_core import (
    Action,
    Attack,
    Attacked,
    Card,
    Defend,
    Defended,
    Game,
    GameOver,
    IllegalAction,
    Pass,
    Passed,
    Take,
    TakeDeclared,
    Transfer,
    Transferred,
    parse_action,
)
from durak_lang.reasons import say_reason

from . import i18n, words
from .backend import Forced, SeatNote, TableBackend, Update, waiting_on
from .coach import TableCoach
from .handoff import Handoff
from .view import CardFace, SeatModel, TableModel, TableView
from .words import Moment, say_event

#: Lines of the event log shown under the table.
LOG_LINES = 8
#: A move clock with this many seconds left or fewer is shown as running out.
CLOCK_LOW = 5
_ACTION_EVENTS = (Attacked, Defended, Transferred, TakeDeclared, Passed)
#: The move counter at the start of the status line (not read out).
_COUNTER = re.compile(r'<span class="durak-move">.*?</span>')


def card_face(text: str, trump_suit: str, state: str = "plain") -> CardFace:
    """The face of the card written ``text`` ("10♥") when ``trump_suit`` ("♥") is trump."""
    card = Card.parse(text)
    trump = card.suit.symbol == trump_suit
    return CardFace(
        text=str(card),
        code=card.code,
        red=card.suit.is_red,
        trump=trump,
        state=state,
        label=words.card_text(card),
        name=words.card_name(card, trump),
    )


class TableController:
    """Connects a :class:`TableBackend` to a :class:`TableView`.

    backend: where the game is (see :class:`~durak_widgets.backend.LocalBackend`).
    handoff: the hand-off point; by default the kernel's loop when running in a kernel,
        else synchronous (every click fully handled when ``.click()`` returns).
    lang: the table's language (``"ru"``, ``"en"``); None: the environment's
        (:func:`~durak_widgets.i18n.default_language`).  Every redraw and every click
        runs in it (:func:`~durak_widgets.i18n.speaking`).
    four_colour: a four-colour deck (♠ black, ♥ red, ♦ blue, ♣ green), where a glance
        tells every suit apart.
    """

    def __init__(
        self,
        backend: TableBackend,
        handoff: Handoff | None = None,
        lang: str | None = None,
        four_colour: bool = False,
    ) -> None:
        #: The table's language, normalised ("ru", "en").
        self.lang = i18n.normalize(lang) if lang is not None else i18n.default_language()
        self.backend = backend
        self._owns_handoff = handoff is None  # a shared one (a LAN lobby's) outlives us
        self.handoff = handoff if handoff is not None else Handoff()
        if self.handoff.on_error is None:
            self.handoff.on_error = self._show_error
        seats = list(backend.local_seats)
        if not seats:
            raise ValueError("the backend has no seat played at this screen")
        self.names = list(backend.names)
        self.hot_seat = len(seats) > 1
        with i18n.speaking(self.lang):
            self.view = TableView(backend.rules.players, four_colour=four_colour)
        self.view.on_click = self._on_click
        # A page drew the table: its whole state again, in turn with the other changes.
        self.view.on_shown = lambda: self.handoff.post(self.view.resync)
        self.viewer = seats[0]
        self.revealed = not self.hot_seat
        self.selected: Card | None = None
        self.notice: str | None = None
        self.moves = 0
        #: The table as the log's words need it (a lead or a throw-in, who says
        #: "Beaten"), followed event by event; and whether the game in view ended.
        self._moment = Moment.of(backend.observation(self.viewer))
        self._over_seen = False
        #: Games dealt at this table before the current one (the view scrolls the new
        #: deal into view).
        self.deals = 0
        self.refreshes = 0
        self._log: deque[str] = deque(maxlen=LOG_LINES)
        #: Log lines not yet read out by the live region, and the status it last read.
        self._unsaid: list[str] = []
        self._said_status = ""
        self._incoming: list[Update] = []
        self._incoming_lock = threading.Lock()
        self._refresh_posted = False
        self._error: str | None = None
        #: The Hint toggle and the Review button (the AI's budget: ``coach.iterations``).
        self.coach = TableCoach(backend, self.handoff, self.refresh)
        with self.handoff.lock:
            self._choose_viewer()
            self.refresh()
            backend.attach(self.handoff, self._changed)

    # ------------------------------------------------------------ display

    @property
    def widget(self) -> Any:
        """The root widget (a VBox with class ``durak-root``)."""
        return self.view.root

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """Display as the table; the plain-text fallback says what it is in one line."""
        bundle = self.view.root._repr_mimebundle_(**kwargs)
        if isinstance(bundle, dict):
            bundle["text/plain"] = repr(self)
        return bundle

    def __repr__(self) -> str:
        with i18n.speaking(self.lang):
            return words.table_repr(self.names)

    def close(self) -> None:
        """Stop the backend's threads and close every widget of the table."""
        if self._owns_handoff:
            self.handoff.close()
        self.coach.close()
        self.backend.close()
        self.view.close()

    # ------------------------------------------------------------ changes in

    def _changed(self, updates: Sequence[Update]) -> None:
        """The backend's callback: note what happened, ask for one refresh.  Any thread."""
        with self._incoming_lock:
            self._incoming.extend(updates)
            if self._refresh_posted:
                return
            self._refresh_posted = True
        self.handoff.post(self._refresh_from_backend)

    def _refresh_from_backend(self) -> None:
        with i18n.speaking(self.lang):
            self._refresh_from_backend_words()

    def _refresh_from_backend_words(self) -> None:
        with self._incoming_lock:
            updates, self._incoming = self._incoming, []
            self._refresh_posted = False
        moved = False
        for update in updates:
            if isinstance(update, str):
                self._log.append(update)
                self._unsaid.append(update)
                continue
            event = update.event if isinstance(update, Forced) else update
            if isinstance(event, _ACTION_EVENTS):
                if self._over_seen:  # the first move of the next game
                    self._new_game_seen()
                self.moves += 1
                moved = True
            line = describe(update, self.names, self._you(), self._moment)
            self._moment = self._moment.after(event)
            if isinstance(event, GameOver):
                self._over_seen = True
            if line:
                self._log.append(line)
                self._unsaid.append(line)
        if moved:
            self.notice = None
            self._error = None
        if self._over_seen and not self.backend.observation(self.viewer)["over"]:
            self._new_game_seen()  # a network table dealt the next game by itself
        self._choose_viewer()
        self.refresh()

    def _new_game_seen(self) -> None:
        """A new game is on: the move counter starts again."""
        self._over_seen = False
        self.moves = 0
        self.deals += 1

    def _show_error(self, exc: BaseException) -> None:
        with i18n.speaking(self.lang):
            self._show_error_words(exc)

    def _show_error_words(self, exc: BaseException) -> None:
        self._error = words.internal_error(type(exc).__name__, str(exc))
        try:
            self.refresh()
        except Exception:  # the refresh itself may be what is broken
            self.view.status.value = html.escape(self._error)

    # ------------------------------------------------------------ clicks in

    def _on_click(self, kind: str, payload: Any) -> None:
        """A widget was clicked (on whatever thread delivers comm messages)."""
        self.handoff.post(lambda: self._handle(kind, payload))

    def _handle(self, kind: str, payload: Any) -> None:
        with i18n.speaking(self.lang):
            self._handle_words(kind, payload)

    def _handle_words(self, kind: str, payload: Any) -> None:
        obs = self.backend.observation(self.viewer)
        legal = [parse_action(a) for a in obs["legal"]]
        handler = {
            "hand": self._click_hand,
            "attack-card": self._click_attack_card,
            "defence-card": lambda obs, legal, _p: self._say(words.NOTICE_ALREADY_BEATEN),
            "take": lambda obs, legal, _p: self._try(Take(self.viewer)),
            "pass": lambda obs, legal, _p: self._try(Pass(self.viewer)),
            "transfer": self._click_transfer,
            "show": self._click_show,
            "reveal": self._click_reveal,
            "new": self._click_new,
            "hint": lambda obs, legal, on: self.coach.set_hint(bool(on)),
            "review": self._click_review,
        }.get(kind)
        if handler is None:
            raise ValueError(f"unknown click {kind!r}")
        handler(obs, legal, payload)
        with self._incoming_lock:
            pending = self._refresh_posted
        if not pending:  # else the backend's refresh, already queued, shows the change
            self.refresh()

    def _say(self, notice: str) -> None:
        self.notice = notice

    def _try(self, action: Action) -> bool:
        """Submit ``action`` if legal; else put the reason in the status line.  Nothing
        changes for an illegal action."""
        reason = self.backend.why_illegal(action)
        if reason is None:
            try:
                self.backend.submit(action)
            except IllegalAction as exc:  # raced with another move
                reason = exc.reason
        if reason is not None:
            self.notice = say_reason(reason, self.names, self._you())
            return False
        self.notice = None
        self.selected = None
        return True

    def _click_hand(self, obs: dict[str, Any], legal: list[Action], text: str) -> None:
        if not self.revealed:
            self._say(words.NOTICE_SHOW_FIRST)
            return
        card = Card.parse(text)
        if obs["over"]:
            self._say(words.notice_over())
            return
        if card == self.selected:
            self.selected = None  # a second click on the selected card cancels
            self.notice = None
            return
        defends = [a for a in legal if isinstance(a, Defend) and a.card is card]
        transfers = [a for a in legal if isinstance(a, Transfer) and not a.show and a.card is card]
        if len(defends) == 1 and not transfers:
            self._try(defends[0])
            return
        if defends or transfers:
            self.selected = card
            self.notice = None
            return
        attack = Attack(self.viewer, card)
        if attack in legal:
            self._try(attack)
            return
        self.selected = None
        self.notice = say_reason(self._why_card(obs, card), self.names, self._you())

    def _why_card(self, obs: dict[str, Any], card: Card) -> str:
        """The core's sentence for the action clicking ``card`` would have meant."""
        attempt: Action = Attack(self.viewer, card)
        if obs["defender"] == self.viewer and obs["table"]:
            unbeaten = [a for a, d in obs["table"] if d is None]
            target = unbeaten[0] if unbeaten else obs["table"][0][0]
            attempt = Defend(self.viewer, Card.parse(target), card)
        reason = self.backend.why_illegal(attempt)
        return reason or words.cannot_play(card)

    def _click_attack_card(self, obs: dict[str, Any], legal: list[Action], text: str) -> None:
        attack_card = Card.parse(text)
        if self.selected is None:
            if obs["defender"] != self.viewer:
                reason = self.backend.why_illegal(Defend(self.viewer, attack_card, attack_card))
                self._say(say_reason(reason, self.names, self._you()) if reason
                          else words.NOTICE_PICK_FIRST)
            else:
                self._say(words.NOTICE_PICK_THEN_TARGET)
            return
        self._try(Defend(self.viewer, attack_card, self.selected))

    def _click_transfer(self, obs: dict[str, Any], legal: list[Action], _payload: Any) -> None:
        transfers = [a for a in legal if isinstance(a, Transfer) and not a.show]
        if self.selected is not None:
            # The selected card or nothing: the reason says why it cannot transfer.
            self._try(Transfer(self.viewer, self.selected))
        elif len(transfers) == 1:
            self._try(transfers[0])
        elif transfers:
            rank = Card.parse(obs["table"][0][0]).rank_name
            self._say(words.select_to_transfer(rank))
        else:
            hand = obs["hand"]
            card = Card.parse(hand[0]) if hand else Card.parse(obs["trump_card"])
            self._try(Transfer(self.viewer, card))

    def _click_show(self, obs: dict[str, Any], legal: list[Action], _payload: Any) -> None:
        shows = [a for a in legal if isinstance(a, Transfer) and a.show]
        if shows:
            self._try(shows[0])
        else:
            self._try(Transfer(self.viewer, Card.parse(obs["trump_card"]), show=True))

    def _click_reveal(self, obs: dict[str, Any], legal: list[Action], _payload: Any) -> None:
        self.revealed = True
        self.notice = None

    def _click_new(self, obs: dict[str, Any], legal: list[Action], _payload: Any) -> None:
        if not obs["over"]:
            self._say(words.NOTICE_FINISH_FIRST)
            return
        self.selected = None
        self.notice = None
        self._log.append(words.NEW_GAME_LOG)
        self.coach.new_game()
        self.backend.new_game()
        self._new_game_seen()
        # The new game's first bout (its events, if a bot moved already, are on the way).
        self._moment = Moment(True, int(self.backend.observation(self.viewer)["attacker"]),
                              False)
        self._choose_viewer(force=True)

    def _click_review(self, obs: dict[str, Any], legal: list[Action], _payload: Any) -> None:
        notice = self.coach.toggle_review(self.viewer, self.names)
        if notice:
            self._say(notice)

    # ------------------------------------------------------------ who looks

    def _you(self) -> int | None:
        """The seat written as "You" in texts: the only local seat, if just one."""
        seats = self.backend.local_seats
        return seats[0] if len(seats) == 1 else None

    def _choose_viewer(self, force: bool = False) -> None:
        """Hot-seat: hand the screen to the person expected to move; hide their hand."""
        if not self.hot_seat:
            return
        seats = list(self.backend.local_seats)
        public = self.backend.observation(self.viewer)
        can_move = [s for s in seats if self.backend.observation(s)["legal"]]
        wanted = next((s for s in waiting_on(public) if s in can_move), None)
        if wanted is None:
            wanted = self.viewer if self.viewer in can_move else (can_move or [self.viewer])[0]
        if wanted != self.viewer or force:
            self.viewer = wanted
            self.revealed = False
            self.selected = None
            self.notice = None  # it may name the previous person's cards

    # ------------------------------------------------------------ the one redraw

    def refresh(self) -> None:
        """Redraw everything from ``observation(viewer)``.  UI thread, lock held.

        Then ask the coach for a hint on the new position, if the toggle is on (it
        answers later, from its own thread, through the hand-off).
        """
        self.refreshes += 1
        with i18n.speaking(self.lang):
            self.view.render(self._announcing(self.model()))
        self.coach.request_hint(self.viewer, self.backend.observation(self.viewer), self.revealed)

    def _announcing(self, model: TableModel) -> TableModel:
        """``model`` with what the live region should read out: the moves since the
        last redraw, then the status line (whose move, a refusal's reason) if it
        changed, and the banner when the game is over."""
        parts, self._unsaid = self._unsaid, []
        plain = re.sub(r"<[^>]+>", " ", _COUNTER.sub("", model.status_html))
        status = " ".join(html.unescape(plain).split())
        if status != self._said_status:
            self._said_status = status
            if model.banner:
                parts.append(model.banner)
            parts.append(status)
        return replace(model, announce=" ".join(p if p.endswith(".") else p + "." for p in parts))

    def model(self) -> TableModel:
        """The :class:`TableModel` for the current observation and UI state."""
        backend = self.backend
        v = self.viewer
        obs = backend.observation(v)
        n = len(obs["hands"])
        trump = obs["trump_suit"]
        names = self.names
        legal = [parse_action(a) for a in obs["legal"]] if self.revealed else []
        thinking = set(backend.thinking())
        over = bool(obs["over"])
        active = set(obs["active"])

        if self.selected is not None and (
            str(self.selected) not in obs["hand"]
            or not any(getattr(a, "card", None) is self.selected for a in legal)
        ):
            self.selected = None
        selected = self.selected

        playable: set[Card] = set()
        targets: set[Card] = set()
        for a in legal:
            if isinstance(a, Attack):
                playable.update(a.cards)
            elif isinstance(a, (Defend, Transfer)):
                playable.add(a.card)
                if isinstance(a, Defend) and a.card is selected:
                    targets.add(a.attack_card)

        hand = tuple(
            card_face(
                t,
                trump,
                "selected"
                if selected is not None and t == str(selected)
                else "playable"
                if Card.parse(t) in playable
                else "dimmed",
            )
            for t in obs["hand"]
        )
        pairs = tuple(
            (
                card_face(a, trump, "target" if Card.parse(a) in targets else "plain"),
                None if d is None else card_face(d, trump),
            )
            for a, d in obs["table"]
        )

        throwers = self._throwers(obs)
        notes = self._seat_notes(n)

        def seat_model(s: int) -> SeatModel:
            info = obs["hands"][s]
            note = notes[s]
            clock, low = _clock_text(note.clock)
            return SeatModel(
                seat=s,
                name=names[s],
                count=int(info["count"]),
                role=self._role(obs, s, throwers),
                known=tuple(info["known"]) if s != v else (),
                thinking=s in thinking,
                out=s not in active,
                kind=note.kind,
                state=note.state,
                clock=clock,
                clock_low=low,
                may_throw=(throwers is None or s in throwers or s == obs["defender"]
                           or s not in active or over),
            )

        opponents = tuple(seat_model((v + k) % n) for k in range(1, n))

        buttons: dict[str, str] = {}
        kinds = {type(a) for a in legal}
        if Take in kinds:
            buttons["take"] = words.TAKE
        if Pass in kinds:
            buttons["pass"] = words.pass_label(v, Moment.of(obs))
        if any(isinstance(a, Transfer) and not a.show for a in legal):
            buttons["transfer"] = words.TRANSFER
        shows = [a for a in legal if isinstance(a, Transfer) and a.show]
        if shows:
            buttons["show"] = words.show_label(shows[0].card)

        review_label = self.coach.review_label(over)
        status, kind = self._status(obs, legal, thinking, bool(review_label))
        banner = words.banner(obs, names, self._you()) if over else ""
        reveal = ""
        if not self.revealed:
            reveal = words.reveal_label(names[v])
        return TableModel(
            opponents=opponents,
            me=seat_model(v),
            hand=hand,
            hand_hidden=not self.revealed,
            reveal_label=reveal,
            pairs=pairs,
            trump=card_face(obs["trump_card"], trump),
            talon=int(obs["talon"]),
            discard=len(obs["discarded"]),
            buttons=buttons,
            status_html=status,
            status_kind=kind,
            thinking=bool(thinking),
            log=tuple(self._log),
            banner=banner,
            score=self._score_html(),
            table_line=self._table_line(obs, throwers),
            hint_on=self.coach.hint_on,
            hint_html=self.coach.hint_html(obs, self.revealed),
            review_label=review_label,
            deal=self.deals,
            review_html=self.coach.review_html(),
        )

    # ------------------------------------------------------------ texts

    def _name(self, seat: int) -> str:
        return words.name_of(seat, self.names, self._you())

    def _role(self, obs: dict[str, Any], seat: int, throwers: list[int] | None = None) -> str:
        """The seat's part in the bout.  ``throwers``: who may throw in (tables of more
        than two; None for two, whose table looks as it always did)."""
        if obs["over"]:
            if throwers is not None and seat in obs["losers"]:
                return "durak"
            return "out" if seat not in obs["active"] else ""
        if seat not in obs["active"]:
            return "out"
        if seat == obs["defender"]:
            return "takes" if obs["taking"] else "defends"
        if seat == obs["attacker"]:
            return "attacks"
        if seat in obs["passed"]:
            return "passed"
        if throwers is not None and obs["table"] and seat in throwers:
            return "throws in"
        return ""

    @staticmethod
    def _throwers(obs: dict[str, Any]) -> list[int] | None:
        """Who may throw in this bout under the rules' throw-in rule (``all`` or the
        defender's ``neighbours``), from the core's :meth:`~durak_core.Game.throwers` on
        the seat's view; None at a table of two (the other player is the attacker)."""
        if len(obs["hands"]) <= 2:
            return None
        if obs["over"]:
            return []
        return Game.from_observation(obs).throwers()

    def _seat_notes(self, n: int) -> list[SeatNote]:
        """The backend's notes on each seat (a network table's), or empty ones."""
        notes = getattr(self.backend, "seat_notes", None)
        found = list(notes()) if callable(notes) else []
        return (found + [SeatNote()] * n)[:n]

    def _table_line(self, obs: dict[str, Any], throwers: list[int] | None) -> str:
        """The line above the opponents: the throw-in rule in force (at more than two
        seats) and whatever the backend says of the table (its move clock)."""
        esc = html.escape
        parts: list[str] = []
        if throwers is not None and not obs["over"]:
            rules = self.backend.rules
            parts.append(words.throw_in_line(
                rules.throw_in, esc(self._name(obs["defender"])),
                [esc(self._name(s)) for s in throwers], rules.teams))
        line = getattr(self.backend, "table_line", None)
        extra = line() if callable(line) else ""
        if extra:
            parts.append(esc(extra))
        return " · ".join(parts)

    def _status(
        self, obs: dict[str, Any], legal: list[Action], thinking: set[int],
        can_review: bool = False,
    ) -> tuple[str, str]:
        esc = html.escape
        v = self.viewer
        counter = esc(words.move_counter(obs["bouts"] + 1, self.moves))
        move = f'<span class="durak-move">{counter}</span>'
        notice = f' <span class="durak-notice">{esc(self.notice)}</span>' if self.notice else ""
        if self._error:
            notice += f' <span class="durak-notice">{esc(self._error)}</span>'
        think = "".join(esc(words.status_thinking(self.names[s])) for s in sorted(thinking))
        if obs["over"]:
            # The banner above says who lost; the status says what comes next.
            return f"{move}{words.status_over(can_review)}{notice}", "over"
        if not self.revealed:
            text = words.status_pass_screen(esc(self.names[v]))
            return f"{move}{text}{think}{notice}", "waiting"
        expected = waiting_on(obs)
        defender = obs["defender"]
        if v not in obs["active"]:
            return f"{move}{words.STATUS_OUT}{think}{notice}", "waiting"
        if not legal or v not in expected:
            who = expected[0] if expected else defender
            if not obs["table"]:
                what = "lead"
            elif who == defender and not obs["taking"]:
                what = "defend"
            else:
                what = "throw in"
            text = words.status_waiting(esc(self.names[who]), what)
            if legal and any(isinstance(a, Attack) for a in legal):
                text += words.STATUS_MAY_THROW_MEANWHILE
            return f"{move}{text}{think}{notice}", "waiting"
        if not obs["table"]:
            text = words.status_lead(esc(self._name(defender)))
        elif v == defender:
            text = words.status_defend(any(isinstance(a, Transfer) for a in legal))
            if self.selected is not None:
                text += esc(words.status_selected(self.selected, any(
                    isinstance(a, Transfer) and a.card is self.selected for a in legal)))
        elif obs["taking"]:
            room = int(obs["limit"]) - len(obs["table"])
            text = words.status_others_take(esc(self.names[defender]), room)
        else:
            text = words.status_throw_in(words.pass_label(v, Moment.of(obs)))
        return f"{move}{text}{think}{notice}", "your-move"

    def _score_html(self) -> str:
        score = self.backend.score()
        if score is None:
            return ""
        counts = [(html.escape(self.names[s]), count) for s, count in enumerate(score.durak_counts)]
        return words.score_line(score.games, counts, score.draws)


def _clock_text(seconds: float | None) -> tuple[str, bool]:
    """A move clock as shown: ``("12 s", False)``, ``("1:30", False)``, ``("3 s", True)``
    (running out); ``("", False)`` when it is not running.

    >>> _clock_text(11.2), _clock_text(90), _clock_text(-1), _clock_text(None)
    (('12 s', False), ('1:30', False), ('0 s', True), ('', False))
    """
    if seconds is None:
        return "", False
    left = max(0, math.ceil(seconds))
    text = f"{left // 60}:{left % 60:02d}" if left >= 60 else f"{left} s"
    return text, left <= CLOCK_LOW


def describe(
    event: Update, names: Sequence[str], you: int | None = None, moment: Moment | None = None
) -> str:
    """One log line for an update, with names ("you" for the only person at the screen),
    in the words of :mod:`durak_widgets.words`.  ``moment``: the table before the event
    (a lead or a throw-in, whose pass says "Beaten"), when the caller follows it.

    >>> from durak_core import Card
    >>> describe(Defended(1, Card.parse("7s"), Card.parse("9s")), ["you", "random"], 0)
    'random beats 7♠ with 9♠'
    """
    if isinstance(event, str):
        return event
    if isinstance(event, Forced):
        line = describe(event.event, names, you, moment)
        return f"{line} — {event.why}" if line else ""
    return say_event(event, names, you, moment)
