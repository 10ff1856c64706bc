"""``lan()``: play Durak with another notebook on the local network.

In a notebook cell::

    from durak_widgets import lan
    lan(name="Alice")                     # players seen on the LAN, Invite, Accept / Decline
    lan(name="Alice", connect="10.0.0.5:40123")   # where broadcasts do not reach
    lan(name="Alice", table=Rules(players=4), clock=30)   # host a table of four
    lan(name="Bob", join="Alice", team=0)   # sit at Alice's table of teams, her partner

The lobby lists the players it hears (each with Invite and Invite with a PIN), the
tables they host (with Join) and incoming invitations (Accept / Decline).  Once one is
accepted, both notebooks show four pairing words: the same words on both screens mean
nobody sits in the middle ("Not the same" ends the session).  Then both show the same
table as local play (:class:`~durak_widgets.controller.TableController`), each from its
own seat: the
hands are hidden (mental poker), the opponent's moves appear by themselves, and after
every game both seats publish their keys and the game is audited; the badge above the
table says so.

A table of 3 to 6 seats is hosted with ``table=Rules(players=N)``: the host's lobby
shows the seats filling (:class:`~durak_widgets.lan_seating.SeatingPanel`), lets the
host seat bots in free seats and Start once every seat is taken; a player who joins
sees the same seating, its pairing words with the host, and the table words every
screen at the table must share.  Then each notebook shows the table from its own seat.

Threads: the network runs on :class:`durak_net.node.LanNode`'s receiving thread, which
never touches a widget.  Every network event is posted to the table's
:class:`~durak_widgets.handoff.Handoff` (the one hand-off point onto the kernel's event
loop) and handled there: the lobby's widgets and the table's game mirror change only
on that thread.  Re-running the cell closes the previous lobby of the same name (its
game can be resumed from the journal); ``close()`` stops the thread and frees the ports.
"""

from __future__ import annotations

import contextlib
import functools
import getpass
import html
import logging
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import ipywidgets as widgets

from durak_core import Rules
from durak_core.bots import Bot
from durak_net import events as ev
from durak_net.botplay import build_bot
from durak_net.crypto import new_pin
from durak_net.i18n import said
from durak_net.journal import default_journal_dir
from durak_net.node import LanNode
from durak_net.options import NOTEBOOK, LanOptions
from durak_net.session import SessionError
from durak_net.teams import ANY_TEAM, team_choices
from durak_net.text import NAME_LIMIT, plain
from durak_net.wire import DISCOVERY_PORT

from . import i18n
from .browser import IN_BROWSER, LAN_NEEDS_LOCAL_PYTHON
from .controller import TableController
from .handoff import Handoff
from .lan_seating import (
    SeatingPanel,
    rules_in_words,
    table_summary,
    table_words_html,
    team_note,
)
from .lan_table import NOT_THE_SAME, LanBackend, reason_words
from .words import _, bot_name, say_net_reason

__all__ = ["LanBackend", "LanLobby", "lan"]


log = logging.getLogger(__name__)

T = TypeVar("T")

#: Open lobbies by player name: re-running ``lan(name=...)`` closes the previous one.
_OPEN: dict[str, LanLobby] = {}


def _speaks(method: Callable[..., T]) -> Callable[..., T]:
    """Run a lobby method in the lobby's language (its notices and labels are words)."""

    @functools.wraps(method)
    def speaking(self: LanLobby, *args: Any, **kwargs: Any) -> T:
        with i18n.speaking(self.lang):
            return method(self, *args, **kwargs)

    return speaking


def _name(text: str) -> str:
    """A name from the network as the lobby shows it (escape it too, in HTML)."""
    return plain(text, NAME_LIMIT)


class LanLobby:
    """The lobby widget: players on the LAN, invitations, then the table (see module doc)."""

    def __init__(self, options: LanOptions, *, bot: Bot | None = None,
                 handoff: Handoff | None = None) -> None:
        """``options``: checked by :func:`lan`; ``bot``: one the caller built itself
        (else ``options.bot``, seeded with ``options.seed``)."""
        #: The lobby's and its table's language, normalised ("ru", "en").
        self.lang = (i18n.normalize(options.lang) if options.lang is not None
                     else i18n.default_language())
        #: The settings it was opened with (shared with durak-lan).
        self.options = options
        with i18n.speaking(self.lang):
            self._init(options, bot, handoff)

    def _init(self, options: LanOptions, bot: Bot | None, handoff: Handoff | None) -> None:
        self.handoff = handoff if handoff is not None else Handoff()
        self._entropy = os.urandom
        self.policy = options.policy()
        self.auto_pin = options.pin
        self.invite_name = options.invite
        self.bot: Bot | None = bot if bot is not None else (
            build_bot(options.bot, seed=options.seed) if options.bot else None)
        self.controller: TableController | None = None
        self.backend: LanBackend | None = None
        self.sid: int | None = None
        self.peers: dict[int, ev.PeerInfo] = {}
        self.incoming: dict[int, ev.InviteReceived] = {}
        self.outgoing: dict[int, ev.PeerInfo] = {}
        self.notice = ""
        #: The pairing words of the current session, and whether the person confirmed them.
        self.sas = ""
        self.sas_confirmed = False
        self.pin_paired = False
        #: The PIN to read out to the player we invited with one.
        self.pin = ""
        self._pin_inputs: dict[int, widgets.Text] = {}
        self._peer_names: dict[int, str] = {}
        self._early: list[Any] = []  # session events before the table exists
        #: At a table of more seats (hosted or joined), rather than a game of two.
        self.is_table = False
        #: We host the table ``sid`` (seat 0).
        self.hosting = False
        self.auto_start = options.auto_start
        #: The table we asked to join (its id), until a seat or a refusal comes back.
        self.joining: int | None = None
        self.join_name = options.join
        #: The one peer ``join`` means, once its name has settled (NameSettled).
        self._join_host: int | None = None
        #: The team ``join`` asks for at a table of teams (ANY_TEAM: any seat).
        self.join_team = options.team
        #: Host: each joined seat's player and the pairing words of its link with us.
        self.seat_words: dict[int, tuple[str, str]] = {}
        self._build()
        try:
            self.node = self._open_node(options)
        except Exception:
            self.root.close()
            raise
        for watched in (self.invite_name, self.join_name):
            if watched:
                self.node.watch(watched)
        if options.table is not None:
            try:
                self._host(options.table, options.clock, options.grace, options.add_bots)
            except Exception:
                self.node.close()
                self.root.close()
                raise
        with self.handoff.lock:
            self._render()

    def _open_node(self, options: LanOptions) -> Any:
        """The peer the lobby drives: a :class:`LanNode` on UDP (``online()`` gives one
        over the page's data channel instead)."""
        return LanNode.from_options(options, on_event=self._post)

    def _host(self, rules: Rules, clock: int, grace: int, bots: Sequence[str]) -> None:
        """Host a table (we sit at seat 0) and seat our bots at the first free seats."""
        sid = self.node.host_table(rules, clock=clock, grace=grace, bots=bots)
        self.sid, self.is_table, self.hosting = sid, True, True
        self._peer_names[sid] = self.node.name
        self.notice = html.escape(
            _("Hosting a table of {count}: players on the LAN see it in their lobby and "
              "join; add bots to free seats, then Start.").format(count=rules.players))

    # ------------------------------------------------------------ widgets

    def _build(self) -> None:
        self.title = widgets.HTML()
        self.status = widgets.HTML()
        self.status.add_class("durak-lan-status")
        self.peer_box = widgets.VBox()
        self.peer_box.add_class("durak-lan-peers")
        self.invite_box = widgets.VBox()
        self.invite_box.add_class("durak-lan-invites")
        self.resume_box = widgets.VBox()
        self.table_box = widgets.VBox()
        self.leave_button = widgets.Button(description=_("Leave the game"))
        self.leave_button.add_class("durak-lan-leave")
        self.leave_button.on_click(lambda _b: self._post_call(self.leave))
        # Pairing: the four words, "Same" and "Not the same".
        self.sas_label = widgets.HTML()
        self.sas_label.add_class("durak-lan-sas")
        self.same_button = widgets.Button(description=_("Same"), button_style="success")
        self.same_button.add_class("durak-lan-same")
        self.same_button.on_click(lambda _b: self._post_call(self.confirm_words))
        self.differ_button = widgets.Button(description=_("Not the same"), button_style="danger")
        self.differ_button.add_class("durak-lan-not-same")
        self.differ_button.on_click(lambda _b: self._post_call(self.words_differ))
        self.sas_box = widgets.HBox([self.sas_label, self.same_button, self.differ_button])
        self.badge = widgets.HTML()
        self.badge.add_class("durak-lan-badge")
        self.table_words = widgets.HTML()
        self.table_words.add_class("durak-lan-table-words")
        self.table_words.layout.display = "none"
        self.seating = SeatingPanel(
            add_bot=lambda seat, spec: self._post_call(lambda: self.add_bot(spec, seat)),
            start=lambda: self._post_call(self.start),
        )
        self.lobby_box = widgets.VBox([self.peer_box, self.invite_box, self.resume_box])
        self.root = widgets.VBox([
            widgets.HBox([self.title, self.leave_button]), self.status, self.sas_box,
            self.table_words, self.badge, self.seating.root, self.lobby_box, self.table_box,
        ])
        self.root.add_class("durak-lan")
        self._peer_rows: dict[
            int, tuple[widgets.HBox, widgets.HTML, widgets.Button, widgets.Button,
                       widgets.Button, widgets.Dropdown]
        ] = {}

    @property
    def widget(self) -> widgets.VBox:
        return self.root

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    def _title_html(self) -> str:
        """The lobby's title line (a subclass says its own: set once a redraw, so a
        redraw that changes nothing sends the page nothing)."""
        return _("<b>Durak on the LAN</b> · you are <b>{name}</b> · game port {port}").format(
            name=html.escape(self.node.name), port=self.node.game_port)

    def _status_html(self) -> str:
        """The lobby's status line: the notice, or what the lobby is doing."""
        status = self.notice
        if self.node.discovery_error:
            status += _(" ({error}: use connect=HOST:PORT)").format(
                error=html.escape(self.node.discovery_error))
        if not self.peers and self.sid is None:
            status = status or _("Looking for players on the LAN…")
        return status

    @_speaks
    def _render(self) -> None:
        """Redraw the lobby part (UI thread).  Rows are reused; only the lists change."""
        esc = html.escape
        self.title.value = self._title_html()
        self.status.value = self._status_html()
        playing = self.sid is not None
        for node_id in list(self._peer_rows):
            if node_id not in self.peers:
                del self._peer_rows[node_id]
        for node_id, peer in self.peers.items():
            row = self._peer_rows.get(node_id)
            if row is None:
                label = widgets.HTML()
                button = widgets.Button(description=_("Invite"))
                button.add_class("durak-lan-invite")
                button.on_click(lambda _b, n=node_id: self._post_call(lambda: self.invite(n)))
                with_pin = widgets.Button(description=_("Invite with a PIN"),
                                          layout=widgets.Layout(width="auto"))
                with_pin.add_class("durak-lan-invite-pin")
                with_pin.on_click(
                    lambda _b, n=node_id: self._post_call(lambda: self.invite(n, pin=True)))
                # At a table of teams: which team to sit in (options set below).
                team = widgets.Dropdown(options=[(_("any team"), ANY_TEAM)], value=ANY_TEAM,
                                        description=_("Sit in"), layout=widgets.Layout(
                                            width="auto", display="none"))
                team.add_class("durak-lan-team-choice")
                join = widgets.Button(description=_("Join"), button_style="success")
                join.add_class("durak-lan-join")
                join.on_click(lambda _b, n=node_id, t=team: self._post_call(
                    lambda: self.join(n, team=int(t.value))))
                row = (widgets.HBox([label, button, with_pin, team, join]), label, button,
                       with_pin, join, team)
                self._peer_rows[node_id] = row
            hosts = peer.table is not None
            if hosts:
                label_text = table_summary(peer)
            else:
                label_text = (esc(f"{_name(peer.name)} ({peer.addr[0]}:{peer.addr[1]})")
                              + (_(" · playing") if peer.busy else ""))
            if peer.same_name:
                label_text += _(" · <b>⚠ another player uses this name</b>: check the "
                                "pairing words")
            if peer.incompatible:
                label_text += f" · {esc(say_net_reason(peer.incompatible))}"
            if row[1].value != label_text:
                row[1].value = label_text
            inviting = any(p.node == node_id for p in self.outgoing.values())
            row[2].description = _("Invited…") if inviting else _("Invite")
            blocked = playing or inviting or peer.busy or bool(peer.incompatible)
            row[2].disabled = blocked
            row[3].disabled = blocked
            asked = hosts and self.joining is not None and peer.table is not None and (
                self.joining == peer.table["table"])
            row[4].description = _("Asking…") if asked else _("Join")
            row[4].disabled = (playing or self.joining is not None or not peer.open_seats
                               or bool(peer.incompatible))
            for button in row[2:4]:
                button.layout.display = "none" if hosts else None
            row[4].layout.display = None if hosts else "none"
            self._render_team_choice(row[5], peer)
        self.peer_box.children = tuple(r[0] for r in self._peer_rows.values())
        rows = []
        for invite, received in self.incoming.items():
            text = widgets.HTML(
                _("<b>{name}</b> invites you ({rules})").format(
                    name=esc(_name(received.peer.name)),
                    rules=esc(rules_in_words(received.rules)))
                + (_(" · type the PIN they read out") if received.pin else "")
            )
            accept = widgets.Button(description=_("Accept"), button_style="success")
            accept.add_class("durak-lan-accept")
            decline = widgets.Button(description=_("Decline"))
            decline.add_class("durak-lan-decline")
            accept.on_click(lambda _b, i=invite: self._post_call(lambda: self.accept(i)))
            decline.on_click(lambda _b, i=invite: self._post_call(lambda: self.decline(i)))
            items: list[widgets.Widget] = [text]
            if received.pin:
                box = self._pin_inputs.get(invite)
                if box is None:
                    box = widgets.Text(placeholder=_("PIN"), layout=widgets.Layout(width="8em"))
                    box.add_class("durak-lan-pin")
                    self._pin_inputs[invite] = box
                items.append(box)
            rows.append(widgets.HBox([*items, accept, decline]))
        self.invite_box.children = tuple(rows)
        self._render_pairing()
        resume_rows = []
        if not playing:
            for path, head in self.node.resumable()[:3]:
                button = widgets.Button(
                    description=(_("Resume the game with {name}").format(
                        name=head["peer_name"]) if head.get("peer_name")
                        else _("Resume the game")),
                    layout=widgets.Layout(width="auto"),
                )
                button.on_click(lambda _b, p=path: self._post_call(lambda: self.resume(p)))
                resume_rows.append(button)
        self.resume_box.children = tuple(resume_rows)
        self._render_table()
        seated = playing and (self.is_table or self.controller is not None)
        self.lobby_box.layout.display = "none" if seated else None
        self.leave_button.layout.display = None if playing else "none"
        self.leave_button.description = (_("Leave the table") if self.is_table
                                         else _("Leave the game"))

    @staticmethod
    def _render_team_choice(choice: widgets.Dropdown, peer: ev.PeerInfo) -> None:
        """Beside Join at a table of teams: any team, or a team with an open seat (its
        players named), as :func:`~durak_net.teams.team_choices` says: the terminal's
        words, in the table's language (durak_lang's choice, which both follow)."""
        options: list[tuple[str, int]] = []
        if peer.table is not None:
            with contextlib.suppress(TypeError, ValueError):  # rules we do not know
                rules = Rules.from_dict(dict(peer.rules))
                options = team_choices(rules, [str(n) for n in peer.table["seats"]])
        choice.layout.display = None if options else "none"
        if options and tuple(choice.options) != tuple(options):
            keep = choice.value if choice.value in (t for _, t in options) else ANY_TEAM
            choice.options = options
            choice.value = keep

    def _render_table(self) -> None:
        """At a table of more seats: the seating until play starts, and the table words
        (shown on every screen at the table, until it ends)."""
        view = self.node.view(self.sid) if self.sid is not None and self.is_table else None
        if view is None:
            self.seating.hide()
            self.table_words.layout.display = "none"
            return
        words = table_words_html(view.table_words)
        if self.table_words.value != words:
            self.table_words.value = words
        self.table_words.layout.display = None if words else "none"
        if view.started and self.controller is not None and self.backend is not None \
                and self.backend.sid == self.sid:
            self.seating.hide()
        else:
            self.seating.render(view, self.seat_words, view.names[0])

    # ------------------------------------------------------------ commands

    def _post_call(self, fn: Any) -> None:
        """Run a click's work on the UI thread; a refused command becomes the status line."""

        def run() -> None:
            with i18n.speaking(self.lang):
                try:
                    fn()
                except (ValueError, SessionError, OSError) as exc:
                    self.notice = html.escape(said(exc))
                self._render()

        self.handoff.post(run)

    def _render_pairing(self) -> None:
        """The pairing words while a session runs, and the hidden-hands badge."""
        esc = html.escape
        if self.sid is None or not self.sas:
            self.sas_box.layout.display = "none"
        else:
            self.sas_box.layout.display = None
            peer = esc(self._peer_names.get(self.sid, "") or _("the other player"))
            if self.sas_confirmed:
                text = _("Paired with {name}: <b>{words}</b> ✓").format(
                    name=peer, words=esc(self.sas))
            else:
                text = _("Pairing words — check that {name}'s screen shows the same: "
                         "<b>{words}</b>").format(name=peer, words=esc(self.sas))
            if self.pin_paired:
                text += _(" · PIN checked ✓")
            self.sas_label.value = text
            self.same_button.layout.display = "none" if self.sas_confirmed else None
            self.differ_button.layout.display = "none" if self.sas_confirmed else None
        backend = self.backend
        if backend is not None and backend.sid == self.sid and backend.game is not None:
            verdict = backend.verdict_html()
            self.badge.value = ("<span class='durak-hidden-badge'>"
                                + _("🔒 hidden hands · verified") + "</span>"
                                + (f" · {verdict}" if verdict else ""))
        elif backend is not None and backend.verdicts:
            self.badge.value = backend.verdict_html()
        else:
            self.badge.value = ""

    @_speaks
    def invite(self, peer: int | str, pin: bool | str = False) -> int:
        """Invite a peer (node id or name).  ``pin``: ask for a PIN (True: a new random
        one, shown to read out to the other player; or the PIN itself)."""
        code = (new_pin(self._entropy) if pin is True else str(pin)) if pin else None
        invite = self.node.invite(peer, pin=code)
        info = next((p for p in self.peers.values() if peer in (p.node, p.name)), None)
        if info is not None:
            self.outgoing[invite] = info
            self.notice = _("Inviting {name}…").format(name=html.escape(info.name))
            if code is not None:
                self.pin = code
                self.notice += " " + _("Read this PIN out to {name}: {pin}").format(
                    name=html.escape(info.name),
                    pin=f"<b class='durak-lan-pin-shown'>{code}</b>")
        return invite

    @_speaks
    def accept(self, invite: int | None = None, pin: str | None = None) -> None:
        """Accept an invitation (the only/latest one by default), with the PIN typed in
        its box (or given here) when the inviter asked for one."""
        invite = invite if invite is not None else next(reversed(self.incoming), None)
        if invite is None:
            raise ValueError("no invitation to accept")
        received = self.incoming.get(invite)
        if pin is None and received is not None and received.pin:
            box = self._pin_inputs.get(invite)
            pin = box.value if box is not None and box.value.strip() else None
            if pin is None:
                raise ValueError(_("{name} asked for a PIN: type the PIN they read out, "
                                   "then Accept").format(name=received.peer.name))
        self.node.accept(invite, pin=pin)
        self.incoming.pop(invite, None)
        self._pin_inputs.pop(invite, None)

    @_speaks
    def join(self, peer: int | str, team: int = ANY_TEAM) -> int:
        """Ask a peer (node id or name) for a seat at the table it hosts; returns the
        table id.  The seat, or the reason there is none, comes back by itself.

        team: at a table of teams, the team to sit in (the host gives its free seat,
        opposite the partner); ``ValueError`` for a team the table does not have."""
        if self.sid is not None:
            raise ValueError(_("you are at a table already: leave it first"))
        if self.joining is not None:
            raise ValueError(_("already asking for a seat"))
        table = self.node.join(peer, team=team)
        self.joining = table
        info = next((p for p in self.peers.values() if peer in (p.node, p.name)), None)
        who = info.name if info is not None else str(peer)
        self.notice = html.escape(
            _("Asking {name} for a seat in team {team}…").format(name=who, team=team)
            if team != ANY_TEAM else _("Asking {name} for a seat…").format(name=who))
        return table

    @_speaks
    def add_bot(self, spec: str = "greedy", seat: int | None = None) -> int:
        """Host: seat a bot of ours (``random``, ``greedy``, ``ismcts``) at a free seat
        (the lowest, or ``seat``); it plays in this kernel.  Returns the seat."""
        if not self.hosting or self.sid is None:
            raise ValueError("only the host of a table adds bots (lan(table=Rules(...)))")
        seat = self.node.add_bot(self.sid, spec, seat)
        self.notice = html.escape(_("A {bot} bot sits down.").format(bot=bot_name(spec)))
        self._maybe_start()
        return seat

    @_speaks
    def start(self) -> None:
        """Host: deal the first game (every seat must be taken)."""
        if not self.hosting or self.sid is None:
            raise ValueError("only the host starts the table")
        self.node.start_table(self.sid)
        self.notice = _("Dealing…")

    def _maybe_start(self) -> None:
        """``auto_start``: deal as soon as every seat is taken (unattended demos)."""
        if not (self.auto_start and self.hosting and self.sid is not None):
            return
        view = self.node.view(self.sid)
        if view is None or view.started or "open" in view.kinds or not view.table_words:
            return
        with contextlib.suppress(SessionError):  # a hello on its way: its SeatTaken retries
            self.start()

    def confirm_words(self) -> None:
        """The person saw the same pairing words on both screens."""
        self.sas_confirmed = True

    @_speaks
    def words_differ(self) -> None:
        """The pairing words differ: someone may be in the middle; end the session."""
        if self.sid is None:
            return
        sid = self.sid
        if self.backend is not None and self.backend.sid == sid:
            self.backend.closed = True
        self.node.leave(sid, NOT_THE_SAME)
        self.notice = _("You ended the session: the pairing words differed, so someone may "
                        "be in the middle. Invite again and compare the words.")

    @_speaks
    def decline(self, invite: int | None = None) -> None:
        invite = invite if invite is not None else next(reversed(self.incoming), None)
        if invite is None:
            raise ValueError("no invitation to decline")
        self.node.decline(invite)
        self.incoming.pop(invite, None)

    @_speaks
    def leave(self) -> None:
        """Leave the current game or table (the others are told; the lobby comes back)."""
        if self.backend is not None and self.sid is not None:
            self.backend.close()
        elif self.sid is not None:
            self.node.leave(self.sid)

    @_speaks
    def resume(self, path: Path | str) -> int:
        """Resume a journaled game (a restarted kernel)."""
        sid = self.node.resume(path)
        self.sid = sid
        return sid

    @property
    def results(self) -> list[ev.GameFinished]:
        """Games finished at this table (with their hashes)."""
        return list(self.backend.results) if self.backend is not None else []

    def close(self, leave: bool = False) -> None:
        """Stop the network thread, free the ports, close the widgets (idempotent).

        leave: say goodbye to the opponent (else the game can be resumed later).
        """
        if self.controller is not None and leave:
            self.controller.backend.close()
        self.node.close(leave=leave)
        self.handoff.close()
        if self.controller is not None:
            self.controller.view.close()
        self.root.close()
        if _OPEN.get(self.node.name) is self:
            del _OPEN[self.node.name]

    # ------------------------------------------------------------ events

    def _post(self, event: Any) -> None:
        """The node's callback (its receiving thread): hand the event to the UI thread."""
        self.handoff.post(lambda: self._on_event(event))

    def _on_event(self, event: Any) -> None:
        with i18n.speaking(self.lang):
            self._on_event_words(event)

    def _on_event_words(self, event: Any) -> None:
        """One event (UI thread): the lobby's kinds go to the method :data:`LOBBY_EVENTS`
        names, the others (each names its session) to :meth:`_on_session_event` when
        they are about ours; then one redraw."""
        method = LOBBY_EVENTS.get(type(event), "")
        if method:
            getattr(self, method)(event)
        elif type(event) not in LOBBY_EVENTS and self.sid is not None and event.sid == self.sid:
            self._on_session_event(event)
        self._render()

    def _on_peer_seen(self, event: ev.PeerSeen) -> None:
        self.peers[event.peer.node] = event.peer
        self._peer_names[event.peer.node] = event.peer.name
        if event.peer.same_name and event.peer.name in (self.invite_name, self.join_name):
            # Two players announce the name: the person picks one (both rows are
            # flagged) and compares the pairing words.
            self.invite_name = self.join_name = None
            self.notice = html.escape(_("Two players announce the name {name}: pick one "
                                        "in the list and compare the pairing words."
                                        ).format(name=_name(event.peer.name)))
        self._maybe_join(event.peer)

    def _maybe_join(self, peer: ev.PeerInfo) -> None:
        """``join``: ask the peer the name settled on for a seat once its table has one
        free (its announcements say when)."""
        if (self.join_name and peer.node == self._join_host and self.sid is None
                and self.joining is None and peer.open_seats and not peer.incompatible):
            try:
                self.join(peer.node, team=self.join_team)
            except ValueError as exc:  # a team the table does not have
                self.join_name = None
                self.notice = html.escape(_("Not joining {name}: {reason}").format(
                    name=_name(peer.name), reason=plain(exc)))

    def _on_peer_gone(self, event: ev.PeerGone) -> None:
        self.peers.pop(event.peer.node, None)

    def _on_name_settled(self, event: ev.NameSettled) -> None:
        """``invite`` and ``join``: the node says whom the name means once it has been
        announced long enough for a second announcer to show (as ``durak-lan --invite``
        and ``--join``).  Once: after a game, a decline or a leave the lobby does not
        call again by itself (the Invite button is there for that)."""
        if event.name == self.join_name and event.name != self.invite_name:
            if len(event.peers) > 1:
                self.join_name = None
                self.notice = html.escape(_("Two players announce the name {name}: pick one "
                                            "in the list and compare the pairing words."
                                            ).format(name=_name(event.name)))
            else:
                self._join_host = event.peers[0].node
                self._maybe_join(self.peers.get(self._join_host, event.peers[0]))
            return
        if event.name != self.invite_name:
            return
        self.invite_name = None
        if len(event.peers) > 1:
            self.notice = html.escape(_("Two players announce the name {name}: pick one "
                                        "in the list and compare the pairing words."
                                        ).format(name=_name(event.name)))
        elif event.peers[0].incompatible:
            self.notice = html.escape(f"{_name(event.name)}: "
                                      f"{say_net_reason(event.peers[0].incompatible)}")
        elif self.sid is None and not self.outgoing:
            self.invite(event.peers[0].node, pin=self.auto_pin or False)

    def _on_invite_received(self, event: ev.InviteReceived) -> None:
        decision = self.policy.answer(event, playing=self.sid is not None)
        if decision.kind == "decline":
            self.node.decline(event.invite, decision.reason)
        elif decision.kind == "accept":
            self.node.accept(event.invite, pin=decision.pin)
        else:
            self.incoming[event.invite] = event

    def _on_invite_closed(self, event: ev.InviteClosed) -> None:
        self.incoming.pop(event.invite, None)
        peer = self.outgoing.pop(event.invite, None)
        if event.outgoing and event.invite == self.joining:
            self.joining = None
            self.join_name = None  # refused: do not ask again by itself
            self.notice = html.escape(_("No seat at {name}'s table: {reason}").format(
                name=_name(event.peer.name), reason=plain(reason_words(event.reason))))
        elif event.outgoing and self.hosting and peer is None:
            self.notice = html.escape(_("{name} did not sit down: {reason}").format(
                name=_name(event.peer.name), reason=plain(reason_words(event.reason))))
        elif event.outgoing:
            self.notice = html.escape(f"{_name(event.peer.name)}: "
                                      f"{plain(reason_words(event.reason))}")
        elif peer is None and event.invite == self.sid:
            self.notice = html.escape(plain(reason_words(event.reason)))

    def _on_session_agreed(self, event: ev.SessionAgreed) -> None:
        if self.hosting and event.inviter and event.table == self.sid:
            # A player paired for a seat of our table: its words beside its seat.
            self.seat_words[event.seat] = (event.peer.name, event.sas)
            self.notice = html.escape(_("{name} joins the table.").format(
                name=_name(event.peer.name)))
            return
        self.sid = event.table or event.sid
        self.is_table = bool(event.table)
        self.joining = None
        self.outgoing.clear()
        self.incoming.clear()
        self.sas, self.sas_confirmed, self.pin_paired = event.sas, False, event.pin
        team = team_note(event.rules, event.seat, ()) if event.table else ""
        host = _name(event.peer.name)
        self.notice = html.escape(
            (_("Seated at {name}'s table ({team}).").format(name=host, team=team) if team
             else _("Seated at {name}'s table.").format(name=host)) if event.table
            else _("Playing {name}: dealing…").format(name=host))
        self._peer_names[self.sid] = event.peer.name

    def _on_session_event(self, event: Any) -> None:
        peer = html.escape(_name(self._peer_names.get(event.sid, "") or _("The other player")))
        if isinstance(event, ev.SessionClosed):
            # Back to the lobby (even before a table opened, e.g. "Not the same" right
            # after the pairing); the last table stays in view until the next game.
            if self.backend is not None and self.backend.sid == event.sid:
                self.backend.on_event(event)
            self._early.clear()
            reason = html.escape(plain(reason_words(event.reason)))
            if event.by_peer:
                self.notice = _("{name} left the game ({reason}).").format(
                    name=peer, reason=reason)
            elif event.reason == NOT_THE_SAME:
                self.notice = _("You ended the session: the pairing words differed, so "
                                "someone may be in the middle.")
            else:
                self.notice = _("You left the game.")
            if self.is_table and self.hosting:
                self.notice = (_("You closed the table.") if event.reason in (
                    "closed the table", "left the game", "left")
                    else _("The table ended: {reason}.").format(reason=reason))
            elif self.is_table and event.by_peer:
                self.notice = _("{name} closed the table ({reason}).").format(
                    name=peer, reason=reason)
            elif self.is_table and event.reason != NOT_THE_SAME:
                self.notice = _("You left the table.")
            self.sid = None
            self.sas = ""
            self.is_table = self.hosting = False
            self.seat_words = {}
            return
        if self.backend is None or self.backend.sid != event.sid:
            if self.is_table and self._seating_event(event):
                return
            if not isinstance(event, ev.GameStarted):
                self._early.append(event)
                return
            self._open_table()
        assert self.backend is not None
        self.backend.on_event(event)
        if self.is_table and isinstance(event, (ev.PeerLost, ev.PeerBack, ev.SeatStatus)):
            states = self.backend.seat_states
            lost = [_name(self.backend.names[s]) for s, state in enumerate(states)
                    if state == "lost"]
            away = [_name(self.backend.names[s]) for s, state in enumerate(states)
                    if state == "bot"]
            parts = []
            if lost:
                parts.append(_("Connection lost: {names}; the table waits.").format(
                    names=", ".join(lost)))
            if away and self.hosting:
                parts.append(_("A bot in your kernel plays for {names} until they are "
                               "back.").format(names=", ".join(away)))
            elif away:
                parts.append(_("A bot in {name}'s kernel plays for {names} until they are "
                               "back.").format(name=self.backend.host_name,
                                               names=", ".join(away)))
            back = isinstance(event, ev.PeerBack) or (
                isinstance(event, ev.SeatStatus) and event.state == "back")
            names = self.backend.names
            if not parts and back and 0 <= event.seat < len(names):
                parts.append(_("{name} is back.").format(name=_name(names[event.seat])))
            self.notice = html.escape(" ".join(parts))
        elif isinstance(event, ev.PeerLost):
            self.notice = _("Connection to {name} lost, waiting…").format(name=peer)
        elif isinstance(event, ev.PeerBack):
            self.notice = _("Playing {name}.").format(name=peer)

    def _seating_event(self, event: Any) -> bool:
        """While a table fills (no game yet): who sat down, who got up, lost links.
        Returns whether the event was about the seating (and is done with)."""
        view = self.node.view(self.sid) if self.sid is not None else None
        names = view.names if view is not None else ()

        def name(seat: int) -> str:
            return _name(names[seat]) if 0 <= seat < len(names) else _("a player")

        if isinstance(event, ev.SeatTaken):
            self.notice = html.escape(_("{name} sits down.").format(name=_name(event.name)))
            self._maybe_start()
        elif isinstance(event, ev.TableChanged):
            pass  # the seating is drawn from the session's view
        elif isinstance(event, ev.SeatStatus) and not (view is not None and view.started):
            if event.state == "left":
                self.seat_words.pop(event.seat, None)
                self.notice = html.escape(_("{name} got up: the seat is open again.").format(
                    name=name(event.seat)))
            else:
                self.notice = html.escape(f"{name(event.seat)}: {event.state}")
        elif isinstance(event, (ev.PeerLost, ev.PeerBack)) and not (
                view is not None and view.started):
            lost = isinstance(event, ev.PeerLost)
            self.notice = html.escape(
                (_("Connection to {name} lost, waiting…") if lost
                 else _("Connection to {name} is back.")).format(name=name(event.seat)))
        else:
            return False
        return True

    def _open_table(self) -> None:
        assert self.sid is not None
        view = self.node.view(self.sid)
        assert view is not None
        if not self.sas and not self.hosting:  # resumed: the words come from the journal
            self.sas, self.sas_confirmed = view.sas, True
        if self.controller is not None:
            self.controller.view.close()  # not controller.close(): the hand-off is shared
        if len(view.names) > 2 or self.is_table:
            self.is_table = True
            self.hosting = view.seat == 0
            self.backend = LanBackend(self.node, self.sid, None, view.seat, self.bot)
            others = [n for s, n in enumerate(view.names) if s != view.seat]
            peer = ", ".join(others)
        else:
            me = self.node.name
            peer = view.peer_name or self._peer_names.get(self.sid, "") or _("Opponent")
            names = [me, peer] if view.seat == 0 else [peer, me]
            self.backend = LanBackend(self.node, self.sid, names, view.seat, self.bot)
        self.controller = TableController(self.backend, self.handoff, lang=self.lang)
        self.table_box.children = (self.controller.widget,)
        self.notice = html.escape(_("Playing {name}.").format(name=peer))
        for early in self._early:
            self.backend.on_event(early)
        self._early.clear()


#: The lobby's kinds of event and the :class:`LanLobby` method that takes each ("": the
#: node answers it by itself).  Every other kind names its session and goes to the table
#: (:meth:`LanLobby._on_session_event`); a test holds this against ``NetEvent``.
LOBBY_EVENTS: dict[type, str] = {
    ev.PeerSeen: "_on_peer_seen",
    ev.PeerGone: "_on_peer_gone",
    ev.NameSettled: "_on_name_settled",
    ev.InviteReceived: "_on_invite_received",
    ev.InviteClosed: "_on_invite_closed",
    ev.SessionAgreed: "_on_session_agreed",
    ev.JoinRequested: "",
}


def lan(
    name: str | None = None,
    *,
    connect: str | Sequence[str] | None = None,
    rules: Rules | None = None,
    port: int = DISCOVERY_PORT,
    bot: str | Bot | None = None,
    seed: int | None = None,
    auto_accept: bool = False,
    invite: str | None = None,
    pin: str | None = None,
    journal_dir: Path | str | bool | None = True,
    loss: float = 0.0,
    handoff: Handoff | None = None,
    table: Rules | None = None,
    clock: int = 0,
    grace: int = 60,
    add_bots: Sequence[str] = (),
    auto_start: bool = False,
    join: str | None = None,
    team: int = ANY_TEAM,
    lang: str | None = None,
) -> LanLobby:
    """Open the LAN lobby in a notebook cell (it displays as the lobby, then the table).

    name: shown to the other players (default: your user name).
    connect: a peer's ``HOST:PORT`` (its game port, shown in its lobby) where broadcasts
        do not reach; several may be given.
    rules: the rules you invite with (2 players).
    port: the UDP discovery port shared by all players (37020).
    bot: let a bot play your seat (``"random"``, ``"greedy"``...): demos and tests.
    auto_accept: accept invitations at once; invite: invite the player seen with this
        name, once it has been seen for a moment (if two players announce it, the lobby
        says so and you pick one, as ``durak-lan --invite`` asks).  Both for unattended
        demos and tests.
    pin: the PIN ``invite`` asks for and ``auto_accept`` answers with (a PIN pairing
        for people who cannot see each other's screen).
    journal_dir: where games are journaled so a restarted kernel can resume them
        (True: ``~/.local/state/durak/lan``; None or False: no journal).
    loss: drop this share of outgoing datagrams (to see the protocol cope).
    handoff: the hand-off point (tests pass ``Handoff(mode="sync")``).

    Tables of 2 to 6 seats:

    table: host a table with these rules (``Rules(players=4)``: we sit at seat 0, seats
        1-3 open); players join it from their lobby, the host adds bots and clicks Start.
    clock: with ``table``, the seconds each seat has for a move (0: no clock); a seat
        whose time runs out has its safe default played ("timed out" in the log).
    grace: with ``table``, the seconds a lost seat is waited for (0 to 3600).
    add_bots: with ``table``, seat these bots (``"random"``, ``"greedy"``, ``"ismcts"``)
        at once; they run in this kernel.
    auto_start: with ``table``, deal as soon as every seat is taken (demos and tests).
    join: ask the player hosting a table under this name for a seat, once the name has
        been seen for a moment (if two players announce it, you pick one).
    team: with ``join``, at a table of teams (``Rules(teams=True)``), the team to sit in
        (0, 1, or 2 at six seats; partners sit opposite): what ``durak-lan --team`` asks
        for.  Without it, the lowest free seat.  The lobby's Join offers the same choice.

    lang: the lobby's and the table's language, ``"ru"`` or ``"en"`` (None: the
        environment's, see ``durak_widgets.i18n``), as ``play(lang=...)``.

    Re-running the cell closes the previous lobby of the same name.  In a browser
    (JupyterLite) it raises RuntimeError: a web page has no UDP sockets.
    """
    if IN_BROWSER:
        raise RuntimeError(LAN_NEEDS_LOCAL_PYTHON)
    name = name or getpass.getuser() or "player"
    if journal_dir is True:
        folder: Path | None = default_journal_dir()
    else:
        folder = Path(journal_dir) if journal_dir else None
    options = LanOptions(
        name, connect=tuple([connect] if isinstance(connect, str) else connect or ()),
        rules=rules or Rules(), port=port, loss=loss, seed=seed, journal_dir=folder, pin=pin,
        auto_accept=auto_accept, invite=invite, join=join, team=team, table=table,
        clock=clock, grace=grace, add_bots=tuple(add_bots), auto_start=auto_start,
        bot=bot if isinstance(bot, str) else None, lang=lang,
    )
    options.check(NOTEBOOK)  # the rules durak-lan's options follow too
    previous = _OPEN.pop(" ".join(name.split()), None)
    if previous is not None:
        previous.close()
    lobby = LanLobby(options, bot=None if isinstance(bot, str) else bot, handoff=handoff)
    _OPEN[lobby.node.name] = lobby
    return lobby
