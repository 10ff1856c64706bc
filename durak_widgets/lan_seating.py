"""The seating of a LAN table while it fills, and tables as the lobby lists them.

A table of 3 to 6 seats fills before play: the host (seat 0) waits while players join
and seats bots of its own in the free seats; everyone sees who sits where, and the
four **table words** once every seat's signing key is known (every screen at the table
must show the same words: a host that told two seats different keys makes them differ).
:class:`SeatingPanel` draws that from a :class:`~durak_net.node.SessionView`; it is
created once and updated in place, and it never calls the network itself: its buttons
call the functions the lobby gives it (which post their work to the hand-off).

:func:`rules_in_words` and :func:`table_summary` say what a table plays, for the
lobby's list of tables a player may join.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping

import ipywidgets as widgets

from durak_core import Rules
from durak_net import events as ev
from durak_net.node import SessionView
from durak_net.teams import seat_team_note

#: The bots a host may seat at a free seat (built into durak_core).
BOT_CHOICES = ("greedy", "random", "ismcts")
#: The most seats a table has (one row each, made up front).
MAX_SEATS = 6
#: What the people at a table are asked to do with the table words.
WORDS_HINT = "every screen at this table must show the same four words"


def rules_in_words(rules: Rules) -> str:
    """The rules of a table in a few words, for the lobby.

    >>> rules_in_words(Rules(players=4, variant="perevodnoy", throw_in="neighbours"))
    "perevodnoy (transfer), 36 cards, only the defender's neighbours throw in"
    >>> rules_in_words(Rules(players=4, teams=True, match=True, deck_size=52))
    'podkidnoy, 52 cards, everyone throws in, teams of two, a match'
    """
    parts = ["perevodnoy (transfer)" if rules.variant == "perevodnoy" else "podkidnoy",
             f"{rules.deck_size} cards"]
    if rules.players > 2:
        parts.append("only the defender's neighbours throw in"
                     if rules.throw_in == "neighbours" else "everyone throws in")
    if rules.transfer_by_showing_trump:
        parts.append("transfer by showing a trump")
    if rules.teams:
        parts.append("teams of two" if rules.players == 4 else "teams")
    if rules.match:
        parts.append("a match")
    return ", ".join(parts)


def table_summary(peer: ev.PeerInfo) -> str:
    """A table a peer hosts, as the lobby lists it (HTML): the host, its rules in words,
    seats taken and free, the move clock."""
    esc = html.escape
    table = peer.table
    if table is None:
        return ""
    seats = list(table["seats"])
    try:
        rules = rules_in_words(Rules.from_dict(dict(peer.rules)))
    except (TypeError, ValueError):
        rules = "rules this version does not know"
    taken = sum(1 for name in seats if name)
    clock = int(table.get("clock", 0))
    state = ("playing" if table["started"]
             else f"{taken} of {len(seats)} seats taken, {peer.open_seats} free")
    return (f"<b>{esc(peer.name)}</b>'s table of {len(seats)} · {esc(rules)} · "
            + (f"{clock} s a move · " if clock else "no move clock · ")
            + f"{esc(state)} <span class='durak-lan-addr'>({esc(peer.addr[0])}:"
            f"{peer.addr[1]})</span>")


class SeatingPanel:
    """Who sits where at a table that is filling (see the module docstring).

    add_bot(seat, spec): the host's "Add bot" (spec: one of :data:`BOT_CHOICES`).
    start(): the host's "Start".
    """

    def __init__(self, add_bot: Callable[[int, str], None], start: Callable[[], None]) -> None:
        self._add_bot = add_bot
        self._start = start
        self.title = widgets.HTML()
        self.rows: list[tuple[widgets.HBox, widgets.HTML, widgets.Dropdown, widgets.Button]] = []
        for seat in range(MAX_SEATS):
            label = widgets.HTML()
            label.add_class("durak-lan-seat-label")
            choice = widgets.Dropdown(options=list(BOT_CHOICES), value=BOT_CHOICES[0],
                                      layout=widgets.Layout(width="8em"))
            choice.add_class("durak-lan-bot-choice")
            add = widgets.Button(description="Add bot", layout=widgets.Layout(width="auto"))
            add.add_class("durak-lan-add-bot")
            add.on_click(lambda _b, s=seat, c=choice: self._add_bot(s, str(c.value)))
            row = widgets.HBox([label, choice, add])
            row.add_class("durak-lan-seat")
            row.add_class(f"durak-lan-seat-{seat}")
            row.layout.display = "none"
            self.rows.append((row, label, choice, add))
        self.start_button = widgets.Button(description="Start", button_style="success",
                                           disabled=True)
        self.start_button.add_class("durak-lan-start")
        self.start_button.on_click(lambda _b: self._start())
        self.hint = widgets.HTML()
        self.hint.add_class("durak-lan-start-hint")
        self.root = widgets.VBox([self.title, *(r[0] for r in self.rows),
                                  widgets.HBox([self.start_button, self.hint])])
        self.root.add_class("durak-lan-seating")
        self.root.layout.display = "none"

    def hide(self) -> None:
        self.root.layout.display = "none"

    def render(self, view: SessionView, pairings: Mapping[int, tuple[str, str]],
               host_name: str) -> None:
        """Show the seating of ``view`` (our session) before play starts.

        pairings: seat -> (player's name, pairing words), the host's links' words.
        """
        esc = html.escape
        hosting = view.seat == 0
        n = len(view.names)
        taken = sum(1 for k in view.kinds if k != "open")
        whose = "Your" if hosting else esc(host_name) + "'s"
        teams = view.rules is not None and view.rules.teams
        self.title.value = (f"<b>{whose} table</b> · "
                            f"{taken} of {n} seats taken"
                            + (" · in teams, partners opposite" if teams else "")
                            + (f" · {view.clock} s a move" if view.clock else ""))
        for seat, (row, label, choice, add) in enumerate(self.rows):
            if seat >= n:
                row.layout.display = "none"
                continue
            row.layout.display = ""
            label.value = self._seat_text(view, seat, pairings)
            free = view.kinds[seat] == "open"
            shown = "" if hosting and free else "none"
            choice.layout.display = shown
            add.layout.display = shown
        full = "open" not in view.kinds
        ready = full and bool(view.table_words)
        self.start_button.layout.display = "" if hosting else "none"
        self.start_button.disabled = not ready
        if hosting:
            self.hint.value = ("Everyone is seated: click Start to deal." if ready else
                               "Seats are filling…" if full else
                               "Start is possible once every seat is taken "
                               "(players join from their lobby, or add bots).")
        else:
            self.hint.value = (f"Waiting for {esc(host_name)} to start…" if full
                               else "Waiting for the table to fill…")
        self.root.layout.display = ""

    @staticmethod
    def _seat_text(view: SessionView, seat: int, pairings: Mapping[int, tuple[str, str]]
                   ) -> str:
        esc = html.escape
        kind = view.kinds[seat]
        name = view.names[seat]
        text = f"Seat {seat}: "
        team = ""
        if view.rules is not None and view.rules.teams:
            team = f" · {esc(seat_team_note(view.rules, seat, view.seated))}"
        if kind == "open":
            return text + "<i>open</i>" + team
        text += f"<b>{esc(name)}</b>"
        notes: list[str] = []
        if seat == view.seat:
            notes.append("you")
        if kind == "host":
            notes.append("host")
        elif kind == "bot":
            notes.append("bot, runs in " + ("your kernel" if view.seat == 0
                                             else f"{esc(view.names[0])}'s kernel"))
        state = view.seat_states[seat] if seat < len(view.seat_states) else ""
        if state:
            notes.append({"lost": "connection lost"}.get(state, state))
        if notes:
            text += f" ({', '.join(notes)})"
        text += team
        paired = pairings.get(seat)
        if paired is not None and paired[1]:
            text += (f" · pairing words <b>{esc(paired[1])}</b> ({esc(paired[0])}'s screen "
                     "must show the same)")
        return text


def table_words_html(words: str) -> str:
    """The table words with what to do with them ("" until they are known)."""
    if not words:
        return ""
    return f"Table words: <b>{html.escape(words)}</b> — {WORDS_HINT}."

