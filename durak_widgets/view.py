"""The table's widgets: created once, then updated in place from a :class:`TableModel`.

Rebuilding a Box's ``children`` makes the front end tear down and re-create views,
which is the slow path of ipywidgets.  So the view keeps fixed pools (a slot per
possible attack pair, per opponent, and a growing pool of hand slots) and a render
only changes the traits that differ: ``description``, ``_dom_classes``, ``layout.display``
and HTML values.  Unchanged values are not sent at all (each is compared before it is
set), and what one render changes goes to the page as one comm message, not one per
widget (:class:`~durak_widgets.sync.TableSync`).

The view knows nothing about the rules: the controller computes a :class:`TableModel`
(pure data) and calls :meth:`TableView.render`.  Clicks are reported to
``TableView.on_click(kind, payload)``; for cards the payload is the card's text as it
was shown when clicked, so a click that races a refresh still names the card the
person saw.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

from . import words
from .keys import TableKeys
from .style import CSS, SCROLL_INTO_VIEW
from .sync import TableSync

#: Attack pairs on the table: the bout limit never exceeds 6.
MAX_PAIRS = 6
#: Hand slots made up front; the pool grows (by HAND_GROWTH) only if a hand gets bigger.
HAND_SLOTS = 18
HAND_GROWTH = 6
#: Card backs drawn per opponent before the count alone tells the rest.
MAX_BACKS = 8

ClickHandler = Callable[[str, Any], None]


@dataclass(frozen=True)
class CardFace:
    """One card as shown: its text ("10♥", what a click reports), code ("10H") and look.

    label: what the button shows, in the table's language ("Д♣" for "Q♣"); "" is
    ``text``.  name: the card in words, for screen readers ("queen of clubs, trump").
    """

    text: str
    code: str
    red: bool
    trump: bool
    #: "playable", "dimmed", "selected", "target" or "plain".
    state: str = "plain"
    label: str = ""
    name: str = ""

    @property
    def shown(self) -> str:
        """The button's text."""
        return self.label or self.text

    def classes(self, *extra: str) -> tuple[str, ...]:
        """The CSS classes of this face (stable names: users and tests select on them)."""
        return (
            "durak-card",
            f"durak-card-{self.code}",
            "durak-red" if self.red else "durak-black",
            f"durak-suit-{self.code[-1]}",
            *(("durak-trump",) if self.trump else ()),
            f"durak-{self.state}",
            *extra,
        )


@dataclass(frozen=True)
class SeatModel:
    """An opponent's place at the table (or the viewer's own line)."""

    seat: int
    name: str
    count: int
    role: str = ""  #: "attacks", "defends", "takes", "throws in", "passed", "out", "durak", ""
    known: tuple[str, ...] = ()
    thinking: bool = False
    out: bool = False
    #: Who plays the seat, when worth saying ("bot, in Alice's kernel"); "" for nothing.
    kind: str = ""
    #: The seat's connection or player: "connection lost", "back", "left"...; "" when fine.
    state: str = ""
    #: Its move clock, as shown ("12 s"); "" when not running.  ``clock_low``: nearly out.
    clock: str = ""
    clock_low: bool = False
    #: False: the throw-in rule leaves this seat out of the bout (shown as such).
    may_throw: bool = True


@dataclass(frozen=True)
class TableModel:
    """Everything the view shows, as plain data (the controller's output)."""

    opponents: tuple[SeatModel, ...]
    me: SeatModel
    hand: tuple[CardFace, ...]
    hand_hidden: bool
    reveal_label: str  #: the hot-seat "show my cards" button text; "" hides the button
    pairs: tuple[tuple[CardFace, CardFace | None], ...]
    trump: CardFace
    talon: int
    discard: int
    buttons: dict[str, str] = field(default_factory=dict)  #: visible action buttons: name -> label
    status_html: str = ""
    status_kind: str = "waiting"  #: "your-move", "waiting" or "over"
    thinking: bool = False
    log: tuple[str, ...] = ()
    banner: str = ""  #: game-over text; "" hides the banner
    score: str = ""
    #: A line about the table above the opponents (throw-in rule, move clock); "" hides it.
    table_line: str = ""
    hint_on: bool = False  #: the Hint toggle is on
    hint_html: str = ""  #: the coach's hint; "" hides it
    review_label: str = ""  #: the banner's Review button text; "" hides the button
    review_html: str = ""  #: the review of the game (chart and list); "" hides it
    #: Games dealt at this table so far: each new deal scrolls the board into view again.
    deal: int = 0
    #: What the screen readers' live region says: the others' moves, whose move it is,
    #: why a click was refused ("" keeps what it said).
    announce: str = ""


ACTION_BUTTONS = ("take", "pass", "transfer", "show")
#: ipywidgets' own button colours for the action buttons (the classes stay for styling).
BUTTON_STYLES = {"take": "warning", "pass": "success", "transfer": "info", "show": "info"}


def _button_labels() -> dict[str, str]:
    """The action buttons' labels before the first drawing (each drawing sets its own)."""
    return {"take": words.TAKE, "pass": words.PASS, "transfer": words.TRANSFER,
            "show": words.SHOW}


def _display(widget: widgets.DOMWidget, shown: bool) -> None:
    """Show or hide ``widget``.  Shown is ``""``, not None: JupyterLite's Pyodide kernel
    sends None as JavaScript's undefined, which leaves a hidden widget hidden."""
    hidden = widget.layout.display == "none"
    if shown and hidden:
        widget.layout.display = ""
    elif not shown and not hidden:
        widget.layout.display = "none"


def _set_html(widget: widgets.HTML, value: str) -> None:
    if widget.value != value:
        widget.value = value


def _set_button(
    button: widgets.Button, description: str, classes: tuple[str, ...], tooltip: str = ""
) -> None:
    """Description, classes and tooltip (a card's name, which keys.py gives screen
    readers) in one message (hold_sync) and only if something changed."""
    if (button.description == description and button._dom_classes == classes
            and button.tooltip == (tooltip or None)):
        return
    with button.hold_sync():
        button.description = description
        button._dom_classes = classes
        button.tooltip = tooltip or None


def _seat_html(seat: SeatModel) -> str:
    esc = html.escape
    role = (f'<span class="durak-role">{esc(words.role(seat.role))}</span>'
            if seat.role else "")
    backs = '<span class="durak-back"></span>' * min(seat.count, MAX_BACKS)
    parts = [
        f'<div class="durak-seat-name">{esc(seat.name)}{role}</div>',
        f'<div class="durak-backs">{backs}<span class="durak-count">{seat.count}</span></div>',
    ]
    if seat.known:
        parts.append(f'<div class="durak-known">{esc(words.known_cards(seat.known))}</div>')
    if seat.kind:
        parts.append(f'<div class="durak-seat-kind">{esc(seat.kind)}</div>')
    if seat.state:
        parts.append(f'<div class="durak-seat-state">{esc(seat.state)}</div>')
    if not seat.may_throw:
        parts.append(f'<div class="durak-no-throw">{esc(words.MAY_NOT_THROW)}</div>')
    if seat.clock:
        parts.append(_clock_html(seat))
    if seat.thinking:
        parts.append(f'<div class="durak-thinking-note">{esc(words.THINKING)}</div>')
    return "".join(parts)


def _clock_html(seat: SeatModel, tag: str = "div") -> str:
    low = " durak-clock-low" if seat.clock_low else ""
    title = html.escape(words.CLOCK_TITLE)
    return f'<{tag} class="durak-clock{low}" title="{title}">⏱ {html.escape(seat.clock)}</{tag}>'


def _talon_html(trump: CardFace, talon: int) -> str:
    """The talon and the trump card under it.  The trump card's rank and suit are
    stacked in its left edge, which the pile leaves uncovered, so the suit shows
    whatever the rank ("10" is as wide as the uncovered strip)."""
    esc = html.escape
    colour = f"var(--durak-ink-{trump.code[-1]})"
    rank, suit = trump.shown[:-1], trump.shown[-1]
    if talon == 0:
        empty, trump_line = words.talon_empty(suit)
        return (
            '<div class="durak-talon"><div class="durak-talon-empty">'
            f"{esc(empty)}<br>{esc(trump_line)}</div></div>"
        )
    return (
        '<div class="durak-talon">'
        f'<div class="durak-trump-under" style="color:{colour}" '
        f'title="{esc(words.TRUMP_TITLE)}: {esc(trump.shown)}">'
        f'<span class="durak-trump-rank">{esc(rank)}</span>'
        f'<span class="durak-trump-suit">{esc(suit)}</span></div>'
        f'<div class="durak-talon-pile" title="{esc(words.TALON_TITLE)}">{talon}</div></div>'
    )


def _scroll_hook(deal: int) -> str:
    """The scroll hook for the ``deal``-th game: a new value reloads its image, which
    runs the hook again (see :data:`~durak_widgets.style.SCROLL_INTO_VIEW`)."""
    return SCROLL_INTO_VIEW.replace("<img ", f'<img data-deal="{deal}" ', 1)


class TableView:
    """The widget tree of one table, and how to update it from a :class:`TableModel`."""

    def __init__(
        self, players: int, hand_slots: int = HAND_SLOTS, four_colour: bool = False
    ) -> None:
        self.on_click: ClickHandler = lambda kind, payload: None
        #: Sends each redraw's changes to the page in one message (see sync.py).
        self.sync = TableSync()
        self._members: list[widgets.Widget] | None = None
        self._hand_faces: list[CardFace | None] = []
        self._pair_faces: list[CardFace | None] = [None] * MAX_PAIRS

        self.style = widgets.HTML(f"<style>{CSS}</style>")
        self.style.add_class("durak-style")
        # Scrolls the board into view once it is drawn, and again at each new deal.
        self.scroll_hook = widgets.HTML(_scroll_hook(0))
        self.scroll_hook.add_class("durak-scroll")
        self.scroll_hook.layout.display = "none"

        self.opponent_boxes = [widgets.HTML() for _ in range(players - 1)]
        for box in self.opponent_boxes:
            box.add_class("durak-opponent")
        self.opponents = widgets.HBox(self.opponent_boxes)
        self.opponents.add_class("durak-opponents")
        self.table_line = widgets.HTML()
        self.table_line.add_class("durak-table-line")
        self.table_line.layout.display = "none"

        self.talon = widgets.HTML()
        self.talon.add_class("durak-talon-box")
        self.discard = widgets.HTML()
        self.discard.add_class("durak-discard")
        self.deck = widgets.VBox([self.talon, self.discard])
        self.deck.add_class("durak-deck")

        self.table_empty = widgets.HTML(words.TABLE_EMPTY)
        self.table_empty.add_class("durak-table-empty")
        self.attack_cards: list[widgets.Button] = []
        self.defence_cards: list[widgets.Button] = []
        self.pair_boxes: list[widgets.Box] = []
        for i in range(MAX_PAIRS):
            attack = widgets.Button()
            attack.on_click(lambda _b, i=i: self._click_pair(i))
            defence = widgets.Button()
            defence.on_click(lambda _b: self.on_click("defence-card", None))
            box = widgets.Box([attack, defence])
            box.add_class("durak-pair")
            box.layout.display = "none"
            self.attack_cards.append(attack)
            self.defence_cards.append(defence)
            self.pair_boxes.append(box)
        self.table = widgets.HBox([self.table_empty, *self.pair_boxes])
        self.table.add_class("durak-table")

        self.middle = widgets.HBox([self.deck, self.table])
        self.middle.add_class("durak-middle")
        self.felt = widgets.VBox([self.table_line, self.opponents, self.middle])
        self.felt.add_class("durak-felt")

        self.status = widgets.HTML()
        self.status.add_class("durak-status")

        self.buttons: dict[str, widgets.Button] = {}
        labels = _button_labels()
        for name in ACTION_BUTTONS:
            button = widgets.Button(description=labels[name],
                                    button_style=BUTTON_STYLES[name])
            button.add_class("durak-btn")
            button.add_class(f"durak-btn-{name}")
            button.layout.display = "none"
            button.on_click(lambda _b, name=name: self.on_click(name, None))
            self.buttons[name] = button
        # The coach: a toggle (off by default) at the end of the action buttons' row,
        # and what it says, beside the table (not above the hand, which it would push
        # off the screen).
        self.hint_toggle = widgets.ToggleButton(
            value=False, description=words.HINT, tooltip=words.HINT_TOOLTIP
        )
        self.hint_toggle.add_class("durak-btn")
        self.hint_toggle.add_class("durak-btn-hint")
        self.hint_toggle.observe(lambda change: self.on_click("hint", change["new"]), "value")
        self.actions = widgets.HBox([*self.buttons.values(), self.hint_toggle])
        self.actions.add_class("durak-actions")
        self.hint = widgets.HTML()
        self.hint.add_class("durak-hint")
        self.hint.layout.display = "none"

        self.me = widgets.HTML()
        self.me.add_class("durak-me")
        self.reveal = widgets.Button(description=words.SHOW_MY_CARDS, button_style="info")
        self.reveal.add_class("durak-btn")
        self.reveal.add_class("durak-btn-reveal")
        self.reveal.layout.display = "none"
        self.reveal.on_click(lambda _b: self.on_click("reveal", None))
        self.hand_cards: list[widgets.Button] = []
        self.hand = widgets.HBox()
        self.hand.add_class("durak-hand")
        self._grow_hand(hand_slots)

        self.banner_text = widgets.HTML()
        self.banner_text.add_class("durak-banner-text")
        self.new_game = widgets.Button(description=words.NEW_GAME, button_style="success")
        self.new_game.add_class("durak-btn")
        self.new_game.add_class("durak-btn-new")
        self.new_game.on_click(lambda _b: self.on_click("new", None))
        self.review_button = widgets.Button(description=words.REVIEW, button_style="info")
        self.review_button.add_class("durak-btn")
        self.review_button.add_class("durak-btn-review")
        self.review_button.layout.display = "none"
        self.review_button.on_click(lambda _b: self.on_click("review", None))
        self.banner = widgets.HBox([self.banner_text, self.new_game, self.review_button])
        self.banner.add_class("durak-banner")
        self.banner.layout.display = "none"
        self.review = widgets.HTML()
        self.review.add_class("durak-review-panel")
        self.review.layout.display = "none"

        self.log = widgets.HTML()
        self.log.add_class("durak-log")
        self.score = widgets.HTML()
        self.score.add_class("durak-score")

        # What must fit one screen comes first, in the board: the felt (opponents,
        # talon, trump, table), the banner, the status line, the buttons, the hand; the
        # hint beside it.  The review, the score and the log follow below.
        self.play_area = widgets.VBox(
            [self.felt, self.banner, self.status, self.actions, self.me, self.reveal, self.hand]
        )
        self.play_area.add_class("durak-play")
        self.board = widgets.HBox([self.play_area, self.hint])
        self.board.add_class("durak-board")
        # The keyboard, the cards' names for screen readers and the live region.
        title, lines = words.keys_help()
        self.keys = TableKeys(help_title=title, help_lines=lines)
        #: Called when a page has drawn the table; by default it re-sends the table's
        #: state at once (:meth:`resync`).  The controller runs that on its UI thread.
        self.on_shown: Callable[[], None] = self.resync
        self.keys.on_shown = lambda: self.on_shown()
        self.root = widgets.VBox(
            [self.style, self.scroll_hook, self.keys, self.board, self.review, self.score,
             self.log]
        )
        self.root.add_class("durak-root")
        if four_colour:  # ♠ black, ♥ red, ♦ blue, ♣ green (style.py)
            self.root.add_class("durak-four-colour")

    # ------------------------------------------------------------ clicks

    def _click_hand(self, index: int) -> None:
        faces = self._hand_faces
        face = faces[index] if index < len(faces) else None
        if face is not None:
            self.on_click("hand", face.text)

    def _click_pair(self, index: int) -> None:
        face = self._pair_faces[index]
        if face is not None:
            self.on_click("attack-card", face.text)

    def _grow_hand(self, size: int) -> None:
        """Add hand slots up to ``size`` (the one place children change, and rarely)."""
        new = []
        for i in range(len(self.hand_cards), size):
            # Hidden from the start: no second message to hide it.
            button = widgets.Button(layout=widgets.Layout(display="none"))
            button.on_click(lambda _b, i=i: self._click_hand(i))
            new.append(button)
        if new:
            self.hand_cards.extend(new)
            self.hand.children = tuple(self.hand_cards)
            self._members = None

    # ------------------------------------------------------------ render

    def render(self, model: TableModel) -> None:
        """Make the widgets show ``model``, sending only what changed, and all of it in
        one message once the page applies batches (:class:`~durak_widgets.sync.TableSync`).
        """
        faces = () if model.hand_hidden else model.hand
        if len(faces) > len(self.hand_cards):  # new widgets: opened before the batch
            self._grow_hand(len(faces) + HAND_GROWTH)
        if self._members is None:
            self._members = self.all_widgets()
        with self.sync.batch(self._members):
            self._render(model)

    def _render(self, model: TableModel) -> None:
        for box, seat in zip(self.opponent_boxes, model.opponents, strict=False):
            _set_html(box, _seat_html(seat))
            classes = (
                ("durak-opponent", f"durak-seat-{seat.seat}")
                + (("durak-thinking",) if seat.thinking else ())
                + (("durak-out",) if seat.out else ())
                + (("durak-away",) if seat.state and seat.state != "back" else ())
            )
            if box._dom_classes != classes:
                box._dom_classes = classes
            _display(box, True)
        for box in self.opponent_boxes[len(model.opponents) :]:
            _display(box, False)

        _set_html(self.scroll_hook, _scroll_hook(model.deal))
        _set_html(self.table_line, model.table_line)
        _display(self.table_line, bool(model.table_line))
        _set_html(self.talon, _talon_html(model.trump, model.talon))
        _set_html(self.discard, words.discard_pile(model.discard))

        pairs = model.pairs
        _display(self.table_empty, not pairs)
        for i in range(MAX_PAIRS):
            box = self.pair_boxes[i]
            if i < len(pairs):
                attack, defence = pairs[i]
                self._pair_faces[i] = attack
                _set_button(self.attack_cards[i], attack.shown, attack.classes("durak-attack"),
                            attack.name)
                if defence is not None:
                    _set_button(
                        self.defence_cards[i], defence.shown, defence.classes("durak-defence"),
                        defence.name,
                    )
                _display(self.defence_cards[i], defence is not None)
                _display(box, True)
            else:
                self._pair_faces[i] = None
                _display(box, False)

        faces = () if model.hand_hidden else model.hand
        self._hand_faces = list(faces)
        for i, button in enumerate(self.hand_cards):
            if i < len(faces):
                _set_button(button, faces[i].shown, faces[i].classes("durak-hand-card"),
                            faces[i].name)
                _display(button, True)
            else:
                _display(button, False)
        # No cards (out of the game, or the game is over): no empty row where they were.
        _display(self.hand, not model.hand_hidden and bool(faces))
        if model.reveal_label and self.reveal.description != model.reveal_label:
            self.reveal.description = model.reveal_label
        _display(self.reveal, bool(model.reveal_label))

        me = model.me
        line = html.escape(words.my_line(me.name, me.count, me.role))
        if me.state:
            line += f' · <span class="durak-seat-state">{html.escape(me.state)}</span>'
        if not me.may_throw:
            line += f' · <span class="durak-no-throw">{html.escape(words.MAY_NOT_THROW)}</span>'
        if me.clock:
            line += " · " + _clock_html(me, "span")
        _set_html(self.me, line)

        for name, button in self.buttons.items():
            label = model.buttons.get(name)
            if label is not None and button.description != label:
                button.description = label
            _display(button, label is not None)

        _set_html(self.banner_text, html.escape(model.banner))
        _display(self.banner, bool(model.banner))
        if model.review_label and self.review_button.description != model.review_label:
            self.review_button.description = model.review_label
        _display(self.review_button, bool(model.review_label))
        _set_html(self.review, model.review_html)
        _display(self.review, bool(model.review_html))

        if self.hint_toggle.value != model.hint_on:
            self.hint_toggle.value = model.hint_on
        _set_html(self.hint, model.hint_html)
        _display(self.hint, bool(model.hint_html))
        _set_html(self.score, model.score)
        items = "".join(f"<li>{html.escape(line)}</li>" for line in model.log)
        _set_html(self.log, f"<ol>{items}</ol>" if items else "")

        if model.announce and self.keys.announce != model.announce:
            self.keys.announce = model.announce

        # The status goes last: when it changes in the page, everything above has too.
        classes = ("durak-status", f"durak-{model.status_kind}") + (
            ("durak-thinking",) if model.thinking else ()
        )
        if self.status._dom_classes != classes or self.status.value != model.status_html:
            with self.status.hold_sync():
                self.status._dom_classes = classes
                self.status.value = model.status_html

    def all_widgets(self) -> list[widgets.Widget]:
        """Every widget of this table (and only those): the tree under :attr:`root`,
        each with its ``layout`` and ``style``, which are widgets of their own."""
        found: list[widgets.Widget] = []
        stack: list[widgets.Widget] = [self.root]
        seen: set[int] = set()
        while stack:
            widget = stack.pop()
            if id(widget) in seen:
                continue
            seen.add(id(widget))
            found.append(widget)
            stack.extend(getattr(widget, "children", ()))
            for part in ("layout", "style"):
                owned = getattr(widget, part, None)
                if isinstance(owned, widgets.Widget):
                    stack.append(owned)
        return found

    def resync(self) -> None:
        """Send the whole state of every widget again, for a page that may have missed
        changes while it was loading them (see :mod:`durak_widgets.keys`).  Unchanged
        values change nothing in the page; each lost one is put right.  In one message
        once the page applies batches (:meth:`~durak_widgets.sync.TableSync.resend`)."""
        self.sync.resend(self.all_widgets(), page=self.keys.shown_in)

    def close(self) -> None:
        """Close every widget of this table (and only those)."""
        for widget in self.all_widgets():
            widget.close()
        self.sync.close()

    # ------------------------------------------------------------ reading back

    def visible_hand(self) -> list[widgets.Button]:
        """The hand slots that show a card now (for tests and scripted play)."""
        return [b for b in self.hand_cards if b.layout.display != "none"]

    def visible_pairs(self) -> list[tuple[widgets.Button, widgets.Button | None]]:
        out: list[tuple[widgets.Button, widgets.Button | None]] = []
        for box, attack, defence in zip(
            self.pair_boxes, self.attack_cards, self.defence_cards, strict=True
        ):
            if box.layout.display != "none":
                out.append((attack, None if defence.layout.display == "none" else defence))
        return out

    def visible_buttons(self) -> dict[str, widgets.Button]:
        return {n: b for n, b in self.buttons.items() if b.layout.display != "none"}

    @staticmethod
    def descriptions(buttons: Sequence[widgets.Button]) -> list[str]:
        return [b.description for b in buttons]
