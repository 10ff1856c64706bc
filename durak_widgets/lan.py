"""``lan()``: play Durak with another notebook on the local network.

In a notebook cell::

    from durak_widgets import lan
    lan(name="Alice")                     # players seen on the LAN, Invite, Accept / Decline
    lan(name="Alice", connect="10.0.0.5:40123")   # where broadcasts do not reach

The lobby lists the players it hears (each with an Invite button) and incoming
invitations (Accept / Decline).  Once one is accepted, both notebooks show the same
table as local play (:class:`~durak_widgets.controller.TableController`); the
opponent's moves appear by themselves.

Threads: the network runs on :class:`durak_net.node.LanNode`'s receiving thread, which
never touches a widget.  Every network event is posted to the table's
:class:`~durak_widgets.handoff.Handoff` (the one hand-off point onto the kernel's event
loop) and handled there: the lobby's widgets and the table's game mirror change only
on that thread.  Re-running the cell closes the previous lobby of the same name (its
game can be resumed from the journal); ``close()`` stops the thread and frees the ports.
"""

from __future__ import annotations

import contextlib
import getpass
import html
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from durak_core import Action, Game, IllegalAction, Pass, Rules
from durak_core.bots import Bot
from durak_net import events as ev
from durak_net.botplay import build_bot
from durak_net.journal import default_journal_dir
from durak_net.node import LanNode
from durak_net.session import SessionError
from durak_net.wire import DISCOVERY_PORT

from .backend import Changed, Score, Update, waiting_on
from .browser import IN_BROWSER, LAN_NEEDS_LOCAL_PYTHON
from .controller import TableController
from .handoff import Handoff

log = logging.getLogger(__name__)

#: Open lobbies by player name: re-running ``lan(name=...)`` closes the previous one.
_OPEN: dict[str, LanLobby] = {}


class LanBackend:
    """A :class:`~durak_widgets.backend.TableBackend` for one LAN session.

    The game the table shows is a *mirror* of the session's game, changed only on the
    UI thread, as the session's :class:`~durak_net.events.ActionApplied` events arrive
    through the hand-off; so the table never shows a state its log lines have not
    reached.  Moves are sent with :meth:`LanNode.act` (the sequencer applies them, the
    follower's are proposed and come back as events).

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
        self.lost = False
        self.closed = False
        #: Finished games as reported by the session (hashes included).
        self.results: list[ev.GameFinished] = []
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
        """The mirror of the game (UI thread only)."""
        return self._game

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
            return f"Seat {player} is played by {self._names[1 - self.seat]} over the network."
        if self.closed:
            return "The game has ended: the session is closed."
        if self._game is None:
            return "The cards are being dealt."
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
        self._notify([f"Waiting for {self._names[1 - self.seat]} to agree to game {number}…"])

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(ValueError):
                self.node.leave(self.sid, "closed the table")

    # ------------------------------------------------------------ network events

    def resync(self) -> None:
        """Copy the session's current game (at start, after a gap, after resuming)."""
        view = self.node.view(self.sid)
        if view is not None and view.game is not None:
            self._game = view.game
            self._game_no = view.game_no

    def on_event(self, event: Any) -> None:
        """A session event, on the UI thread (posted through the hand-off)."""
        updates: list[Update] = []
        peer = self._names[1 - self.seat]
        if isinstance(event, ev.GameStarted):
            self.resync()
            self._awaiting = False
            updates.append(f"— game {event.game} {'resumed' if event.resumed else 'dealt'} —")
        elif isinstance(event, ev.ActionApplied):
            game = self._game
            if event.by_me:
                self._awaiting = False
            if game is None or event.game != self._game_no or event.index > len(game.log):
                self.resync()
            elif event.index == len(game.log):
                game.apply(event.action)
                updates.extend(event.events)
        elif isinstance(event, ev.ActionRefused):
            self._awaiting = False
            updates.append(f"Not played: {event.action} ({event.reason})")
        elif isinstance(event, ev.GameFinished):
            self._duraks.append(event.durak)
            self.results.append(event)
        elif isinstance(event, ev.NextGameRequested):
            updates.append(f"{peer} wants another game: click New game.")
        elif isinstance(event, ev.PeerLost):
            self.lost = True
            updates.append(f"Connection to {peer} lost, waiting…")
        elif isinstance(event, ev.PeerBack):
            self.lost = False
            updates.append(f"{peer} is back.")
        elif isinstance(event, ev.DesyncDetected):
            updates.append(f"Out of step with {peer} after move {event.index}: {event.detail}. "
                           "Finish with New game.")
        elif isinstance(event, ev.ProtocolViolation):
            updates.append(f"{peer}'s program broke the rules of the protocol: {event.detail}")
        elif isinstance(event, ev.SessionClosed):
            self.closed = True
            updates.append(f"{peer} left the table." if event.by_peer else "You left the table.")
        self._notify(updates)
        self._schedule_bot()

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
        legal = game.legal_actions(self.seat)
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


class LanLobby:
    """The lobby widget: players on the LAN, invitations, then the table (see module doc)."""

    def __init__(
        self,
        name: str,
        *,
        connect: str | Sequence[str] | None = None,
        rules: Rules | None = None,
        port: int = DISCOVERY_PORT,
        bot: str | Bot | None = None,
        seed: int | None = None,
        auto_accept: bool = False,
        invite: str | None = None,
        journal_dir: Path | str | None = None,
        loss: float = 0.0,
        handoff: Handoff | None = None,
    ) -> None:
        self.handoff = handoff if handoff is not None else Handoff()
        self.auto_accept = auto_accept
        self.invite_name = invite
        self.bot: Bot | None = build_bot(bot, seed=seed) if isinstance(bot, str) else bot
        targets = [connect] if isinstance(connect, str) else list(connect or [])
        self.controller: TableController | None = None
        self.backend: LanBackend | None = None
        self.sid: int | None = None
        self.peers: dict[int, ev.PeerInfo] = {}
        self.incoming: dict[int, ev.InviteReceived] = {}
        self.outgoing: dict[int, ev.PeerInfo] = {}
        self.notice = ""
        self._peer_names: dict[int, str] = {}
        self._early: list[Any] = []  # session events before the table exists
        self._build()
        try:
            self.node = LanNode(
                name, on_event=self._post, rules=rules, port=port, connect=targets, loss=loss,
                loss_seed=seed, journal_dir=journal_dir,
            )
        except Exception:
            self.root.close()
            raise
        with self.handoff.lock:
            self._render()

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
        self.leave_button = widgets.Button(description="Leave the game")
        self.leave_button.add_class("durak-lan-leave")
        self.leave_button.on_click(lambda _b: self._post_call(self.leave))
        self.lobby_box = widgets.VBox([self.peer_box, self.invite_box, self.resume_box])
        self.root = widgets.VBox([
            widgets.HBox([self.title, self.leave_button]), self.status, self.lobby_box,
            self.table_box,
        ])
        self.root.add_class("durak-lan")
        self._peer_rows: dict[int, tuple[widgets.HBox, widgets.HTML, widgets.Button]] = {}

    @property
    def widget(self) -> widgets.VBox:
        return self.root

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)

    def _render(self) -> None:
        """Redraw the lobby part (UI thread).  Rows are reused; only the lists change."""
        node = self.node
        esc = html.escape
        self.title.value = (
            f"<b>Durak on the LAN</b> · you are <b>{esc(node.name)}</b> · game port "
            f"{node.game_port}"
        )
        status = self.notice
        if node.discovery_error:
            status += f" ({esc(node.discovery_error)}: use connect=HOST:PORT)"
        if not self.peers and self.sid is None:
            status = status or "Looking for players on the LAN…"
        self.status.value = status
        playing = self.sid is not None
        for node_id in list(self._peer_rows):
            if node_id not in self.peers:
                del self._peer_rows[node_id]
        for node_id, peer in self.peers.items():
            row = self._peer_rows.get(node_id)
            if row is None:
                label = widgets.HTML()
                button = widgets.Button(description="Invite")
                button.add_class("durak-lan-invite")
                button.on_click(lambda _b, n=node_id: self._post_call(lambda: self.invite(n)))
                row = (widgets.HBox([label, button]), label, button)
                self._peer_rows[node_id] = row
            label_text = esc(peer.label) + (" · playing" if peer.busy else "")
            if row[1].value != label_text:
                row[1].value = label_text
            inviting = any(p.node == node_id for p in self.outgoing.values())
            row[2].description = "Invited…" if inviting else "Invite"
            row[2].disabled = playing or inviting or peer.busy
        self.peer_box.children = tuple(r[0] for r in self._peer_rows.values())
        rows = []
        for invite, received in self.incoming.items():
            text = widgets.HTML(
                f"<b>{esc(received.peer.name)}</b> invites you "
                f"({esc(received.rules.variant)}, {received.rules.deck_size} cards)"
            )
            accept = widgets.Button(description="Accept", button_style="success")
            accept.add_class("durak-lan-accept")
            decline = widgets.Button(description="Decline")
            decline.add_class("durak-lan-decline")
            accept.on_click(lambda _b, i=invite: self._post_call(lambda: self.accept(i)))
            decline.on_click(lambda _b, i=invite: self._post_call(lambda: self.decline(i)))
            rows.append(widgets.HBox([text, accept, decline]))
        self.invite_box.children = tuple(rows)
        resume_rows = []
        if not playing:
            for path, head in self.node.resumable()[:3]:
                button = widgets.Button(
                    description=f"Resume the game with {head.get('peer_name') or 'your peer'}",
                    layout=widgets.Layout(width="auto"),
                )
                button.on_click(lambda _b, p=path: self._post_call(lambda: self.resume(p)))
                resume_rows.append(button)
        self.resume_box.children = tuple(resume_rows)
        self.lobby_box.layout.display = "none" if playing and self.controller else None
        self.leave_button.layout.display = None if playing else "none"

    # ------------------------------------------------------------ commands

    def _post_call(self, fn: Any) -> None:
        """Run a click's work on the UI thread; a refused command becomes the status line."""

        def run() -> None:
            try:
                fn()
            except (ValueError, SessionError, OSError) as exc:
                self.notice = html.escape(str(exc))
            self._render()

        self.handoff.post(run)

    def invite(self, peer: int | str) -> int:
        """Invite a peer (node id or name)."""
        invite = self.node.invite(peer)
        info = next((p for p in self.peers.values() if peer in (p.node, p.name)), None)
        if info is not None:
            self.outgoing[invite] = info
            self.notice = f"Inviting {html.escape(info.name)}…"
        return invite

    def accept(self, invite: int | None = None) -> None:
        """Accept an invitation (the only/latest one by default)."""
        invite = invite if invite is not None else next(reversed(self.incoming), None)
        if invite is None:
            raise ValueError("no invitation to accept")
        self.node.accept(invite)
        self.incoming.pop(invite, None)

    def decline(self, invite: int | None = None) -> None:
        invite = invite if invite is not None else next(reversed(self.incoming), None)
        if invite is None:
            raise ValueError("no invitation to decline")
        self.node.decline(invite)
        self.incoming.pop(invite, None)

    def leave(self) -> None:
        """Leave the current game (the opponent is told; the lobby comes back)."""
        if self.backend is not None and self.sid is not None:
            self.backend.close()
        elif self.sid is not None:
            self.node.leave(self.sid)

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
        if isinstance(event, ev.PeerSeen):
            self.peers[event.peer.node] = event.peer
            self._peer_names[event.peer.node] = event.peer.name
            if (self.invite_name and event.peer.name == self.invite_name and self.sid is None
                    and not self.outgoing):
                self.invite(event.peer.node)
        elif isinstance(event, ev.PeerGone):
            self.peers.pop(event.peer.node, None)
        elif isinstance(event, ev.InviteReceived):
            if self.sid is not None:
                self.node.decline(event.invite, "already playing")
            elif self.auto_accept:
                self.node.accept(event.invite)
            else:
                self.incoming[event.invite] = event
        elif isinstance(event, ev.InviteClosed):
            self.incoming.pop(event.invite, None)
            peer = self.outgoing.pop(event.invite, None)
            if event.outgoing:
                self.notice = html.escape(f"{event.peer.name}: {event.reason}")
            elif peer is None and event.invite == self.sid:
                self.notice = html.escape(event.reason)
        elif isinstance(event, ev.SessionAgreed):
            self.sid = event.sid
            self.outgoing.clear()
            self.incoming.clear()
            self.notice = html.escape(f"Playing {event.peer.name}: dealing…")
            self._peer_names[event.sid] = event.peer.name
        elif getattr(event, "sid", None) == self.sid and self.sid is not None:
            self._on_session_event(event)
        self._render()

    def _on_session_event(self, event: Any) -> None:
        if self.backend is None:
            if not isinstance(event, ev.GameStarted):
                self._early.append(event)
                return
            self._open_table()
        assert self.backend is not None
        self.backend.on_event(event)
        peer = html.escape(self.backend.names[1 - self.backend.seat])
        if isinstance(event, ev.PeerLost):
            self.notice = f"Connection to {peer} lost, waiting…"
        elif isinstance(event, ev.PeerBack):
            self.notice = f"Playing {peer}."
        elif isinstance(event, ev.SessionClosed):
            # Back to the lobby; the last table stays in view until the next game.
            self.notice = f"{peer} left the game." if event.by_peer else "You left the game."
            self.sid = None

    def _open_table(self) -> None:
        assert self.sid is not None
        view = self.node.view(self.sid)
        assert view is not None
        me, peer = self.node.name, view.peer_name or self._peer_names.get(self.sid, "Opponent")
        names = [me, peer] if view.seat == 0 else [peer, me]
        if self.controller is not None:
            self.controller.view.close()  # not controller.close(): the hand-off is shared
        self.backend = LanBackend(self.node, self.sid, names, view.seat, self.bot)
        self.controller = TableController(self.backend, self.handoff)
        self.table_box.children = (self.controller.widget,)
        self.notice = html.escape(f"Playing {peer}.")
        for early in self._early:
            self.backend.on_event(early)
        self._early.clear()


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
    journal_dir: Path | str | bool | None = True,
    loss: float = 0.0,
    handoff: Handoff | None = None,
) -> LanLobby:
    """Open the LAN lobby in a notebook cell (it displays as the lobby, then the table).

    name: shown to the other players (default: your user name).
    connect: a peer's ``HOST:PORT`` (its game port, shown in its lobby) where broadcasts
        do not reach; several may be given.
    rules: the rules you invite with (2 players).
    port: the UDP discovery port shared by all players (37020).
    bot: let a bot play your seat (``"random"``, ``"greedy"``...): demos and tests.
    auto_accept: accept the first invitation at once; invite: invite the first player
        seen with this name.  Both for unattended demos and tests.
    journal_dir: where games are journaled so a restarted kernel can resume them
        (True: ``~/.local/state/durak/lan``; None or False: no journal).
    loss: drop this share of outgoing datagrams (to see the protocol cope).
    handoff: the hand-off point (tests pass ``Handoff(mode="sync")``).

    Re-running the cell closes the previous lobby of the same name.  In a browser
    (JupyterLite) it raises RuntimeError: a web page has no UDP sockets.
    """
    if IN_BROWSER:
        raise RuntimeError(LAN_NEEDS_LOCAL_PYTHON)
    name = name or getpass.getuser() or "player"
    if rules is not None and rules.players != 2:
        raise ValueError(f"LAN games are for 2 players, not {rules.players}")
    if not 0.0 <= loss < 1.0:
        raise ValueError(f"loss must be at least 0 and below 1, not {loss!r}")
    if journal_dir is True:
        folder: Path | str | None = default_journal_dir()
    elif journal_dir is False:
        folder = None
    else:
        folder = journal_dir
    previous = _OPEN.pop(" ".join(name.split()), None)
    if previous is not None:
        previous.close()
    lobby = LanLobby(name, connect=connect, rules=rules, port=port, bot=bot, seed=seed,
                     auto_accept=auto_accept, invite=invite, journal_dir=folder, loss=loss,
                     handoff=handoff)
    _OPEN[lobby.node.name] = lobby
    return lobby
