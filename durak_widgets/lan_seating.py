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
from collections.abc import Callable, Mapping, Sequence

import ipywidgets as widgets

from durak_core import Rules
from durak_net import events as ev
from durak_net.node import SessionView
from durak_net.teams import partner

from .words import N_, _, bot_name

#: The bots a host may seat at a free seat (built into durak_core).
BOT_CHOICES = ("greedy", "random", "ismcts")
#: A seat's state beside its player (the others as the session names them).
_STATES = {"lost": N_("connection lost"), "left": N_("left"), "bot": N_("a bot plays for them"),
           "back": N_("back")}
#: The most seats a table has (one row each, made up front).
MAX_SEATS = 6
#: What the people at a table are asked to do with the table words.
WORDS_HINT = N_("every screen at this table must show the same four words")


def rules_in_words(rules: Rules) -> str:
    """The rules of a table in a few words, for the lobby.

    >>> rules_in_words(Rules(players=4, variant="perevodnoy", throw_in="neighbours"))
    "perevodnoy (transfer), 36 cards, only the defender's neighbours throw in"
    >>> rules_in_words(Rules(players=4, teams=True, match=True, deck_size=52))
    'podkidnoy, 52 cards, everyone throws in, teams of two, a match'
    """
    parts = [_("perevodnoy (transfer)") if rules.variant == "perevodnoy" else _("podkidnoy"),
             _("{count} cards").format(count=rules.deck_size)]
    if rules.players > 2:
        parts.append(_("only the defender's neighbours throw in")
                     if rules.throw_in == "neighbours" else _("everyone throws in"))
    if rules.transfer_by_showing_trump:
        parts.append(_("transfer by showing a trump"))
    if rules.teams:
        parts.append(_("teams of two") if rules.players == 4 else _("teams"))
    if rules.match:
        parts.append(_("a match"))
    return ", ".join(parts)


def team_note(rules: Rules | None, seat: int, names: Sequence[str]) -> str:
    """A seat's team and partner, in words, for the seating ("" without teams): no seat
    numbers (a partner is named, or "opposite" you).  ``names``: each seat's player,
    ``""`` open; empty when the seating is not known yet.

    >>> team_note(Rules(players=4, teams=True), 2, ["Ann", "", "", ""])
    "team 0, Ann's partner"
    >>> team_note(Rules(players=4, teams=True), 1, ["Ann", "", "", ""])
    'team 1, the partner sits opposite (open)'
    """
    if rules is None:
        return ""
    other = partner(rules, seat)
    if other is None:
        return ""
    team = rules.team_of(seat)
    if other < len(names) and names[other]:
        return _("team {team}, {name}'s partner").format(team=team, name=names[other])
    if other < len(names):
        return _("team {team}, the partner sits opposite (open)").format(team=team)
    return _("team {team}, the partner sits opposite").format(team=team)


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
        rules = _("rules this version does not know")
    taken = sum(1 for name in seats if name)
    clock = int(table.get("clock", 0))
    state = (_("playing") if table["started"]
             else _("{taken} of {count} seats taken, {free} free").format(
                 taken=taken, count=len(seats), free=peer.open_seats))
    return (_("<b>{name}</b>'s table of {count}").format(name=esc(peer.name), count=len(seats))
            + f" · {esc(rules)} · "
            + (_("{seconds} s a move").format(seconds=clock) if clock else _("no move clock"))
            + f" · {esc(state)} <span class='durak-lan-addr'>({esc(peer.addr[0])}:"
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
            choice = widgets.Dropdown(options=[(bot_name(b), b) for b in BOT_CHOICES],
                                      value=BOT_CHOICES[0],
                                      layout=widgets.Layout(width="8em"))
            choice.add_class("durak-lan-bot-choice")
            add = widgets.Button(description=_("Add bot"), layout=widgets.Layout(width="auto"))
            add.add_class("durak-lan-add-bot")
            add.on_click(lambda _b, s=seat, c=choice: self._add_bot(s, str(c.value)))
            row = widgets.HBox([label, choice, add])
            row.add_class("durak-lan-seat")
            row.add_class(f"durak-lan-seat-{seat}")
            row.layout.display = "none"
            self.rows.append((row, label, choice, add))
        self.start_button = widgets.Button(description=_("Start"), button_style="success",
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
        whose = _("Your table") if hosting else _("{name}'s table").format(
            name=esc(host_name))
        teams = view.rules is not None and view.rules.teams
        self.title.value = (f"<b>{whose}</b> · "
                            + _("{taken} of {count} seats taken").format(taken=taken, count=n)
                            + (_(" · in teams, partners opposite") if teams else "")
                            + (_(" · {seconds} s a move").format(seconds=view.clock)
                               if view.clock else ""))
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
            self.hint.value = (_("Everyone is seated: click Start to deal.") if ready else
                               _("Seats are filling…") if full else
                               _("Start is possible once every seat is taken "
                                 "(players join from their lobby, or add bots)."))
        else:
            self.hint.value = (_("Waiting for {name} to start…").format(name=esc(host_name))
                               if full else _("Waiting for the table to fill…"))
        self.root.layout.display = ""

    @staticmethod
    def _seat_text(view: SessionView, seat: int, pairings: Mapping[int, tuple[str, str]]
                   ) -> str:
        esc = html.escape
        kind = view.kinds[seat]
        name = view.names[seat]
        team = ""
        if view.rules is not None and view.rules.teams:
            team = f" · {esc(team_note(view.rules, seat, view.seated))}"
        if kind == "open":
            return "<i>" + _("an open seat") + "</i>" + team
        text = f"<b>{esc(name)}</b>"
        notes: list[str] = []
        if seat == view.seat:
            notes.append(_("you"))
        if kind == "host":
            notes.append(_("host"))
        elif kind == "bot":
            notes.append(_("bot, runs in your kernel") if view.seat == 0 else
                         _("bot, runs in {name}'s kernel").format(name=esc(view.names[0])))
        state = view.seat_states[seat] if seat < len(view.seat_states) else ""
        if state:
            notes.append(_(_STATES[state]) if state in _STATES else state)
        if notes:
            text += f" ({', '.join(notes)})"
        text += team
        paired = pairings.get(seat)
        if paired is not None and paired[1]:
            text += " · " + _("pairing words <b>{words}</b> ({name}'s screen must show the "
                              "same)").format(words=esc(paired[1]), name=esc(paired[0]))
        return text


def table_words_html(words: str) -> str:
    """The table words with what to do with them ("" until they are known)."""
    if not words:
        return ""
    return _("Table words: <b>{words}</b> — {hint}.").format(words=html.escape(words),
                                                             hint=_(WORDS_HINT))

