"""``online()``: play Durak with a person anywhere, over a WebRTC data channel, no server.

In a notebook cell::

    from durak_widgets import online
    online(name="Alice")               # shows an invitation code to send by any chat,
                                       # and a box for the reply code
    online(name="Bob", code="...")     # the friend pastes it: shows the reply code

Once Alice pastes Bob's reply and clicks Connect, both notebooks show what a LAN game
shows (:func:`~durak_widgets.lan.lan`): four pairing words to compare (whoever carried
the codes could have changed them; the words would then differ), the same table, the
hidden hands and the audit's verdict after every game.

The connection lives in each player's page (:class:`~durak_widgets.channel.PageChannel`),
so the kernel may run anywhere: on the laptop, on a server, in the page.  The lobby and
sessions are the LAN's, driven by :class:`~durak_widgets.online_node.OnlineNode` over
the channel instead of UDP.  ICE servers are a setting: public STUN by default (enough
across most home networks), ``ice_servers=[]`` for this machine and the LAN only, a
TURN server for networks that block UDP.
"""

from __future__ import annotations

import getpass
import html
import time
from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from durak_core import Rules
from durak_core.bots import Bot
from durak_net import events as ev
from durak_net.online_code import CodeError, pack_description, unpack_description
from durak_net.options import LanOptions
from durak_net.relay import new_room

from . import i18n
from .channel import ChannelCarrier, PageChannel
from .handoff import Handoff
from .lan import LanLobby, _speaks
from .online_node import OnlineNode
from .relay_room import PageRoom
from .words import _

__all__ = ["OnlineLobby", "online"]

#: Open tables by player name: re-running ``online(name=...)`` closes the previous one.
_OPEN: dict[str, OnlineLobby] = {}


class OnlineLobby(LanLobby):
    """The codes, then the LAN lobby's pairing words and table, over one page channel.

    code: the invitation code we were given (we answer), or None (we invite).
    relay, room: the codes go through ``room`` of the MQTT broker at ``relay`` (a
    WebSocket URL) instead of by hand: with a room we answer the invitation left there,
    without one we invite and name a new room (:class:`~durak_widgets.relay_room.PageRoom`).
    """

    def __init__(self, name: str, *, code: str | None = None,
                 ice_servers: Sequence[dict[str, Any]] | None = None,
                 rules: Rules | None = None, bot: str | Bot | None = None,
                 seed: int | None = None, handoff: Handoff | None = None,
                 lang: str | None = None, gather_ms: int = 5000,
                 impair: dict[str, float] | None = None, table: Rules | None = None,
                 add_bots: Sequence[str] = (), auto_start: bool = False,
                 relay: str | None = None, room: str | None = None) -> None:
        offer = ""
        #: The room of a relay the codes go through (None: codes by hand only).
        self.room: PageRoom | None = None
        if relay is not None:
            self.room = PageRoom(url=relay, room=room or new_room())
        #: A friend through a room: the channel waits for the invitation found there.
        from_room = self.room is not None and room is not None
        if code is not None:
            kind, offer = unpack_description(code, now=time.time())  # CodeError: one line
            if kind != "offer":
                raise CodeError("this is a reply code: paste it into the box of the player "
                                "who sent the invitation")
        self.role = "answer" if code is not None or from_room else "offer"
        self._channel_options: dict[str, Any] = {
            "ice_servers": ice_servers, "gather_ms": gather_ms, "impair": dict(impair or {})}
        #: Every channel of ours (a host of a table: one a seat), the newest last.
        self.channels: list[PageChannel] = []
        #: The newest channel, and its carrier: the one whose code is shown (None while
        #: a friend waits for the invitation in a relay's room).
        self.channel: PageChannel | None = None if from_room else self._make_channel(offer)
        self.code = ""  # the newest channel's code, once its page has made it
        #: The channel's attempt and description (SDP) self.code was made from.
        self._code_from: tuple[int, str] = (0, "")
        self._channel_seen: dict[str, str] = {}
        self.carrier: ChannelCarrier | None = None
        self.online_node: OnlineNode | None = None
        #: Seats of our table that friends take by codes (one channel each).
        self.remote_seats = (table.players - 1 - len(add_bots)) if table is not None else 1
        options = LanOptions(name=name, rules=rules or Rules(), port=0, seed=seed,
                             auto_accept=code is not None or from_room, lang=lang,
                             bot=bot if isinstance(bot, str) else None, table=table,
                             add_bots=tuple(add_bots), auto_start=auto_start)
        options.check()  # the rules and the bot's name, as lan() checks them
        super().__init__(options, bot=bot if not isinstance(bot, str) else None,
                         handoff=handoff)
        if self.channel is not None:
            self._watch(self.channel)
        if self.room is not None:
            self._open_room(self.room)
        with self.handoff.lock:
            self._render()

    def _host(self, rules: Rules, clock: int, grace: int, bots: Sequence[str]) -> None:
        super()._host(rules, clock, grace, bots)
        self.notice = html.escape(
            _("Hosting a table of {count}: send each friend their own code (a new one shows "
              "once the last friend is connected); add bots to free seats, then Start.")
            .format(count=rules.players))

    def _make_channel(self, offer: str = "") -> PageChannel:
        channel = PageChannel(role=self.role, remote=offer, **self._channel_options)
        self.channels.append(channel)
        return channel

    def _watch(self, channel: PageChannel) -> None:
        channel.observe(lambda _c: self.handoff.post(lambda: self._channel_changed(channel)),
                        names=["state", "local"])

    def _open_node(self, options: LanOptions) -> OnlineNode:
        node = OnlineNode(options.name, on_event=self._post, handoff=self.handoff,
                          rules=options.rules)
        if self.channel is not None:
            self.carrier = node.add_channel(self.channel)
        self.online_node = node
        return node

    def _seats_left(self) -> bool:
        """A host with seats for friends that no channel of ours serves yet."""
        return self.hosting and len(self.channels) < self.remote_seats

    def _next_seat(self) -> None:
        """A host whose newest channel opened: a new channel (and code) for the next
        seat, while seats are left for friends."""
        if not self._seats_left() or self.online_node is None:
            return
        self.channel = self._make_channel()
        self.carrier = self.online_node.add_channel(self.channel)
        self.code = ""
        self._code_from = (0, "")
        self.reply_text.value = ""
        self.channel_box.children = tuple(self.channels)
        self._watch(self.channel)

    # ------------------------------------------------------------ widgets

    def _build(self) -> None:
        super()._build()
        self.code_label = widgets.HTML()
        self.code_text = widgets.Textarea(layout=widgets.Layout(width="100%", height="5em"))
        self.code_text.add_class("durak-online-code")
        self.reply_label = widgets.HTML()
        self.reply_text = widgets.Textarea(layout=widgets.Layout(width="100%", height="5em"))
        self.reply_text.add_class("durak-online-reply")
        self.connect_button = widgets.Button(button_style="primary")
        self.connect_button.add_class("durak-online-connect")
        self.connect_button.on_click(lambda _b: self._post_call(self.connect))
        self.reply_box = widgets.VBox([self.reply_label, self.reply_text, self.connect_button])
        self.code_box = widgets.VBox([self.code_label, self.code_text, self.reply_box])
        self.code_box.add_class("durak-online-codes")
        self.room_label = widgets.HTML()
        self.room_label.add_class("durak-online-room")
        self.channel_box = widgets.VBox([*self.channels, *([self.room] if self.room else [])])
        self.code_box.children = (self.room_label, *self.code_box.children)
        children = list(self.root.children)
        self.root.children = (*children[:2], self.code_box, self.channel_box, *children[2:])
        self.root.add_class("durak-online")

    @_speaks
    def _render(self) -> None:
        if not hasattr(self, "channel") or self.online_node is None:
            return  # LanLobby draws before the channel is wired; we draw again after
        super()._render()
        self.peer_box.layout.display = "none"  # the channel's peer is invited by itself
        self.room_label.value = self._room_words()
        self.room_label.layout.display = None if self.room is not None else "none"
        channel = self.channel
        if channel is None:  # a friend waiting for the invitation in a relay's room
            self.code_text.value = ""
            self.code_label.value = ""
            self.reply_box.layout.display = "none"
            return
        for each in self.channels:
            each.elsewhere = _("This table is open in another tab or window: play there.")
            each.status = self._channel_words(each)
        self.code_text.value = self.code
        if self.role == "offer":
            self.code_label.value = (_("Send this invitation code to the other player by "
                                       "any chat:") if self.code else _("Preparing the code…"))
            self.reply_label.value = _("Paste the reply code they send back, then Connect:")
            self.connect_button.description = _("Connect")
        else:
            self.code_label.value = (_("Send this reply code back to the player who "
                                       "invited you:") if self.code
                                     else _("Preparing the code…"))
        waiting = channel.state in ("new", "gathering", "waiting")
        self.reply_box.layout.display = (None if self.role == "offer" and waiting
                                         else "none")
        # A code opens one connection: once it opened, the codes never come back (a
        # connection that closed needs new codes, and a new online()).
        self.code_box.layout.display = None if channel.state not in ("open", "closed") \
            else "none"

    def _title_html(self) -> str:
        return _("<b>Durak online</b> · you are <b>{name}</b>").format(
            name=html.escape(self.node.name))

    def _status_html(self) -> str:
        if self.sid is None and not self.notice:
            if self.channel is None:  # a friend waiting for the invitation in a room
                return self._room_words()
            return self._channel_words(self.channel)
        return super()._status_html()

    def _room_words(self) -> str:
        room = self.room
        if room is None:
            return ""
        esc = html.escape
        if room.state == "failed":
            if self.role == "offer":
                return esc(_("The relay {url} cannot be used ({error}): copy the codes by "
                             "hand instead.").format(url=room.url, error=room.error))
            return esc(_("The relay {url} cannot be used ({error}): ask for the invitation "
                         "code and paste it: online(name=..., code=...).").format(
                url=room.url, error=room.error))
        if self.role == "offer" and self.hosting:
            return _("Room <b>{room}</b>: your friends run <code>online(name=..., "
                     "relay={url!r}, room={room!r})</code> one after the other (the next "
                     "once the last is connected), or paste the codes below.").format(
                room=esc(room.room), url=esc(room.url))
        if self.role == "offer":
            return _("Room <b>{room}</b>: your friend runs <code>online(name=..., "
                     "relay={url!r}, room={room!r})</code>, or pastes the code below.").format(
                room=esc(room.room), url=esc(room.url))
        if self.channel is None:
            return esc(_("Waiting for the invitation in room {room}…").format(room=room.room))
        return esc(_("Room {room}: the reply goes back through the relay.").format(
            room=room.room))

    def _channel_words(self, channel: PageChannel) -> str:
        state = channel.state
        if state == "closed" and channel.page_lost:
            backend = self.backend
            if self.sid is not None and not (backend is not None and backend.verdicts):
                return _("The tab that held this game's connection was closed, and the "
                         "connection with it: the game cannot go on, and is settled as "
                         "abandoned in a minute.")
            return _("The tab that held the connection was closed, and the connection "
                     "with it: run the cell again for new codes.")
        if state == "failed":
            return html.escape(_("No connection: {error}. Try another network, or name a "
                                 "TURN server: online(..., ice_servers=[...]).").format(
                error=channel.error))
        return {
            "new": _("Preparing the code…"),
            "gathering": _("Preparing the code…"),
            "waiting": _("Waiting for the reply code."),
            "connecting": _("Connecting…"),
            "open": _("Connected.") if self.sid is not None else _("Connected: pairing…"),
            "closed": _("The connection closed: the other page was closed or lost its "
                        "network. The game waits a minute for it, then is settled as "
                        "abandoned.") if self.sid is not None
            else _("The connection closed."),
        }.get(state, state)

    # ------------------------------------------------------------ the channel

    def _channel_changed(self, channel: PageChannel) -> None:
        """A channel's state or local description changed (UI thread)."""
        with i18n.speaking(self.lang):
            made_from = (channel.attempt, channel.local)
            if channel is self.channel and made_from != self._code_from:
                # A new page made the codes anew when the one that had made them was
                # closed before they were used (PageChannel._page_gone): the old ones
                # lead nowhere, so the new ones replace them, in the room too.
                self._code_from = made_from
                self.code = ""
                if channel.local:
                    kind = "offer" if self.role == "offer" else "answer"
                    self.code = pack_description(channel.local, kind, now=time.time())
                    if self.room is not None:
                        self.room.post(kind, self.code)
            if channel.state != self._channel_seen.get(channel.channel_id):
                self._channel_seen[channel.channel_id] = channel.state
                node = self.online_node
                if channel.state == "open" and self.room is not None:
                    if self.role == "offer":
                        self.room.clear()  # nobody finds these codes in the room later
                    if not self._seats_left():
                        self.room.close_room()
                    # else the next seat's invitation goes into the room once its page
                    # has made it (above), and the room's answer is watched on
                if channel.state == "open" and node is not None:
                    carrier = next(c for c in node.carriers.values() if c.channel is channel)
                    node.channel_open(carrier)
                    if self.hosting and channel is self.channel:
                        self._next_seat()
                if channel.state in ("failed", "closed") and self.sid is None:
                    self.notice = ""
            self._render()

    @_speaks
    def connect(self, reply: str | None = None) -> None:
        """The inviter: take the reply code (typed in the box, or given here)."""
        if self.role != "offer":
            raise ValueError(_("only the player who invited pastes a reply code"))
        text = reply if reply is not None else self.reply_text.value
        try:
            kind, sdp = unpack_description(text, now=time.time())
        except CodeError as exc:
            raise ValueError(str(exc)) from None
        if kind != "answer":
            raise ValueError(_("this is an invitation, not a reply: paste the code the "
                               "other player sent back"))
        if self.channel is None:
            raise ValueError(_("only the player who invited pastes a reply code"))
        self.channel.answer_with(sdp)

    # ------------------------------------------------------------ the relay's room

    def _open_room(self, room: PageRoom) -> None:
        """Watch the room: the inviter clears it and waits for the answer (its code is
        posted once the page has made it), the friend waits for the invitation."""
        room.on_message = lambda kind, text: self.handoff.post(
            lambda: self._room_message(kind, text))
        room.observe(lambda _c: self.handoff.post(self._room_changed), names=["state"])
        if self.role == "offer":
            room.clear()  # an answer left from an earlier game is not ours
            room.watch("answer")
        else:
            room.watch("offer")

    def _room_changed(self) -> None:
        with i18n.speaking(self.lang):
            self._render()

    def _room_message(self, kind: str, text: str) -> None:
        """A code found in the room (UI thread).  The room is untrusted: a code that is
        not one, expired or of the wrong kind is a notice, and we wait on; a rewritten
        one shows as different pairing words."""
        with i18n.speaking(self.lang):
            try:
                if self.role == "offer" and kind == "answer":
                    if self.channel is not None and self.channel.state == "waiting":
                        self.connect(text)
                elif self.role == "answer" and kind == "offer" and self.channel is None:
                    got, sdp = unpack_description(text, now=time.time())
                    if got != "offer":
                        raise ValueError(_("the room holds a reply, not an invitation"))
                    self._answer_from_room(sdp)
            except (ValueError, CodeError) as exc:
                self.notice = html.escape(_("The code in the room cannot be used: {error}")
                                          .format(error=exc))
            self._render()

    def _answer_from_room(self, offer: str) -> None:
        self.notice = ""
        self.channel = self._make_channel(offer)
        if self.online_node is not None:
            self.carrier = self.online_node.add_channel(self.channel)
        self.channel_box.children = (*self.channels, *([self.room] if self.room else []))
        self._watch(self.channel)

    def _on_peer_seen(self, event: ev.PeerSeen) -> None:
        super()._on_peer_seen(event)
        node = self.online_node
        if node is None or event.peer.incompatible or event.peer.addr not in node.carriers \
                or self.sid is not None:
            return
        # The codes were the consent: whoever opened a channel with us plays with us.
        if self.role == "offer" and not self.outgoing:
            self.invite(event.peer.node)  # a game of two
        elif self.role == "answer" and event.peer.table is not None \
                and event.peer.open_seats and self.joining is None:
            self.join(event.peer.node)  # a seat at the inviter's table

    def close(self, leave: bool = False) -> None:
        super().close(leave=leave)
        for channel in self.channels:
            channel.close()
        if self.room is not None:
            self.room.close_room()
            self.room.close()
        if _OPEN.get(self.node.name) is self:
            del _OPEN[self.node.name]


def online(
    name: str | None = None,
    *,
    code: str | None = None,
    ice_servers: Sequence[dict[str, Any]] | None = None,
    rules: Rules | None = None,
    bot: str | Bot | None = None,
    seed: int | None = None,
    lang: str | None = None,
    handoff: Handoff | None = None,
    gather_ms: int = 5000,
    impair: dict[str, float] | None = None,
    table: Rules | None = None,
    add_bots: Sequence[str] = (),
    auto_start: bool = False,
    relay: str | None = None,
    room: str | None = None,
) -> OnlineLobby:
    """Play a person anywhere: invite with a code (no ``code``) or answer one (``code``).

    name: shown to the other player (default: your user name).
    code: the invitation code the other player sent; then this shows the reply code to
        send back.  A code that is malformed, expired or of another version raises
        :class:`~durak_net.online_code.CodeError` saying which, in one line.
    ice_servers: RTCIceServer dicts for the page's connection (default: a public STUN
        server; ``[]``: no server, this machine and the LAN only; a TURN server as
        ``{"urls": "turn:host:3478", "username": ..., "credential": ...}``).
    rules: the rules you invite with (2 players).
    bot: let a bot play your seat (demos and tests); lang: ``"ru"`` or ``"en"``.
    gather_ms: how long the page gathers its network addresses at most (ms).
    impair: ``{"loss": p, "duplicate": p, "reorder": p, "seed": n}``: spoil the page's
        datagrams on purpose, to see the protocol cope (tests).

    table: host a table of ``table.players`` seats (``Rules(players=3)``): each friend
        takes a seat with their own code, one after the other (a new invitation code
        shows once the previous friend is connected); the seating and Start are the
        LAN's.  add_bots: bots of ours seated at once; auto_start: deal as soon as every
        seat is taken.  A friend's ``online(code=...)`` sits down by itself.

    relay: an MQTT broker's WebSocket URL (``"wss://host/mqtt"``, a public broker or
        your own) that carries the codes instead of the chat: without ``room`` this
        names a new room (three words) to tell the friend, who runs ``online(name=...,
        relay=<the same URL>, room="<the words>")``; the codes still show, to copy by
        hand if the relay cannot be reached.  The relay is trusted no more than a chat:
        a code it changes makes the pairing words differ.  A host of a ``table``
        seats its friends through the one room, one after the other: once a friend is
        connected, the next seat's invitation takes the place of the last (two friends
        who come at once find the same invitation, and only the first reply is taken).

    Re-running the cell closes the previous table of the same name.
    """
    name = name or getpass.getuser() or "player"
    if rules is not None and rules.players != 2:
        raise ValueError(f"an invitation by code is for 2 players, not {rules.players}: "
                         f"host a table with online(table=Rules(players={rules.players}))")
    if table is not None and code is not None:
        raise ValueError("a host shows codes; a friend with a code joins the host's table")
    if table is not None and table.players - 1 - len(add_bots) < 1:
        raise ValueError("a table by codes needs at least one seat for a friend")
    if room is not None and relay is None:
        raise ValueError("a room is on a relay: online(..., relay='wss://...', room=...)")
    if relay is not None and code is not None:
        raise ValueError("through a relay, give the room, not the code (a code is pasted "
                         "by hand)")
    if relay is not None and table is not None and room is not None:
        raise ValueError("a host names the room: leave out room=, and tell your friends "
                         "the room it shows")
    if not 500 <= gather_ms <= 60_000:
        raise ValueError("gather_ms is 500 to 60000 milliseconds")
    previous = _OPEN.pop(" ".join(name.split()), None)
    if previous is not None:
        previous.close()
    lobby = OnlineLobby(name, code=code, ice_servers=ice_servers, rules=rules, bot=bot,
                        seed=seed, handoff=handoff, lang=lang, gather_ms=gather_ms,
                        impair=impair, table=table, add_bots=add_bots,
                        auto_start=auto_start, relay=relay, room=room)
    _OPEN[lobby.node.name] = lobby
    return lobby
