"""``durak-lan --online``: the terminal's side of playing over WebRTC with codes.

The person who invites runs ``durak-lan --online``: it prints an invitation code and
waits for the reply code, pasted on its standard input.  The friend runs
``durak-lan --online --code CODE``: it prints the reply code to send back.  Once the
data channel is open, the two peers are each other's only peer, at the channel's
address, and the lobby and the table run as on the LAN: the inviter invites (or hosts,
with ``--host``, and prints one invitation per open seat, one after the other), the
friend accepts (or joins the table it sees).  Pasting a code is the consent: the
friend's terminal accepts the invitation that comes over the channel it opened.

With ``--json``, the codes are JSON lines on stdout (``{"event": "invitation",
"code": ...}``, ``{"event": "reply", "code": ...}``), before the games' lines.

Kept apart from :mod:`durak_net.cli` so that the LAN peer never imports aiortc (the
``online`` extra): :mod:`durak_net.rtc` is imported when ``--online`` is given.
"""

from __future__ import annotations

import argparse
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .i18n import N_, _
from .online_code import CodeError

if TYPE_CHECKING:
    from .rtc import RtcNode

#: Exit status for a code that cannot be used (malformed, expired, of another version,
#: or the wrong kind): sysexits' EX_DATAERR.
EXIT_BAD_CODE = 65
#: Exit status when the data channel does not open (no route between the players):
#: sysexits' EX_UNAVAILABLE.
EXIT_NO_ROUTE = 69
EXIT_CODES = {
    EXIT_BAD_CODE: N_("--online: a code that cannot be used (malformed, expired, from "
                      "another version, or the wrong one): one line on stderr says which"),
    EXIT_NO_ROUTE: N_("--online: the connection did not open (no route between the "
                      "players: try --ice-server), or the --relay could not be reached"),
}
#: How long the channel may take to open once both codes are in (seconds).
OPEN_TIMEOUT = 30.0
#: A public STUN server, named in the hint when no route was found.
PUBLIC_STUN = "stun:stun.l.google.com:19302"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--online``, ``--code`` and ``--ice-server``."""
    parser.add_argument("--online", action="store_true",
                        help=_("play over the internet (WebRTC) with codes copied by any "
                               "chat: prints an invitation code and waits for the reply code "
                               "on its input; the other player runs --online --code CODE "
                               "(needs pip install 'durak[online]')"))
    parser.add_argument("--code", metavar="CODE",
                        help=_("with --online: the invitation code you were sent; prints "
                               "the reply code to send back"))
    parser.add_argument("--relay", metavar="URL",
                        help=_("with --online: carry the codes through this MQTT broker's "
                               "WebSocket (ws:// or wss://HOST:PORT/PATH) instead of by hand: "
                               "the inviter prints a room name, the other player gives it "
                               "with --room"))
    parser.add_argument("--room", metavar="WORDS",
                        help=_("with --online --relay: the room the inviter's terminal "
                               "named"))
    parser.add_argument("--ice-server", action="append", default=[], metavar="URL",
                        help=_("with --online: a STUN or TURN server (stun:HOST:PORT, "
                               "turn:USER:PASSWORD@HOST:PORT), repeatable; default the "
                               "public {stun}; 'none' for none (one network, offline)").format(
                                   stun=PUBLIC_STUN))


def check_args(args: argparse.Namespace) -> None:
    """Refuse what ``--online`` cannot do, with one sentence naming the option."""
    if not args.online:
        if args.code or args.ice_server or args.relay or args.room:
            raise ValueError(_("--code, --relay, --room and --ice-server are for --online"))
        return
    if args.room and not args.relay:
        raise ValueError(_("--room names a room on a --relay"))
    if args.relay:
        from .relay import normalise_room, parse_url

        parse_url(args.relay)
        if args.room:
            args.room = normalise_room(args.room)
        if args.code:
            raise ValueError(_("--code is for codes copied by hand; through a --relay, "
                               "give the --room"))
        if args.host and args.host - 1 - len(args.add_bot) > 1:
            raise ValueError(_("a --relay room seats one player: host a table of two "
                               "there, or copy the codes by hand for more"))
    for flag, value in (("--connect", args.connect), ("--invite", args.invite),
                        ("--join", args.join), ("--resume", args.resume)):
        if value:
            raise ValueError(_("{option} is for the LAN: with --online the other player "
                               "is the one who exchanged codes with you").format(option=flag))
    if args.code and args.host:
        raise ValueError(_("--host is for the player who invites (--online without "
                           "--code)"))
    if args.host and args.host - 1 - len(args.add_bot) < 1:
        raise ValueError(_("with --online, a table we --host needs a seat for someone "
                           "else"))
    try:
        from .rtc import _ice_server  # aiortc only with --online
    except ImportError as exc:  # rtc.OnlineMissing says how to install it
        raise ValueError(str(exc)) from None

    for url in args.ice_server:
        if url != "none":
            _ice_server(url)
    if args.code or (args.relay and args.room and not args.host):
        args.auto_accept = True  # pasting the code (coming to the room) is the consent


class OnlineTerminal:
    """The code exchange of one terminal peer, then who invites or joins whom.

    ``say`` prints a line for the person, ``emit`` a JSON record (``--json``);
    ``read_line`` reads one line of input (None at its end).
    """

    def __init__(self, args: argparse.Namespace, say: Callable[[str], None],
                 emit: Callable[[dict[str, Any]], None],
                 read_line: Callable[[float | None], str | None] | None = None) -> None:
        self.args = args
        self.say = say
        self.emit = emit
        self.read_line = read_line or _stdin_line
        self.channels: list[tuple[str, int]] = []
        #: When the first code was pasted or given, and when the channel opened.
        self.started = time.monotonic()
        self.connected: float | None = None
        self.node: RtcNode | None = None
        #: Through a relay: did we name the room (and invite)?
        self.inviting = not args.room

    @property
    def ice_servers(self) -> list[str]:
        """``--ice-server`` as given (``none`` for none), else the public STUN server."""
        given = self.args.ice_server
        if not given:
            return [PUBLIC_STUN]
        return [url for url in given if url != "none"]

    def make_node(self, rules: Any) -> RtcNode:
        from .rtc import RtcNode  # aiortc only with --online

        args = self.args
        self.node = RtcNode(args.name, rules=rules, ice_servers=self.ice_servers,
                            loss=args.loss, loss_seed=args.seed, journal_dir=args.journal)
        return self.node

    def connect(self, deadline: float | None) -> int:
        """Exchange the codes and open the channel(s) of :meth:`make_node`'s node; 0, or
        the exit status."""
        node = self.node
        assert node is not None, "make_node first"
        try:
            if self.args.relay:
                return self._through_relay(node, deadline)
            if self.args.code:
                return self._answer(node, deadline)
            seats = (self.args.host - 1 - len(self.args.add_bot)) if self.args.host else 1
            for _seat in range(seats):
                status = self._invite(node, deadline)
                if status:
                    return status
            return 0
        except CodeError as exc:
            print(f"durak-lan: {exc}", file=sys.stderr)
            return EXIT_BAD_CODE

    def _answer(self, node: RtcNode, deadline: float | None) -> int:
        from .rtc import RtcError

        self.started = time.monotonic()
        try:
            addr, reply = node.reply(self.args.code)
        except RtcError as exc:
            print(f"durak-lan: {exc}", file=sys.stderr)
            return EXIT_BAD_CODE
        self.emit({"event": "reply", "code": reply})
        if not self.args.json:
            self.say(_("reply code (send it back to the player who invited you):"))
            print(reply, flush=True)
        self.say(_("waiting for the connection: it opens once they paste the reply code"))
        # The inviter may take minutes to paste it: wait as long as the reply is good.
        return self._wait_open(node, addr, deadline, patient=True)

    def _invite(self, node: RtcNode, deadline: float | None) -> int:
        from .rtc import RtcError

        addr, code = node.invitation()
        self.emit({"event": "invitation", "code": code})
        if not self.args.json:
            self.say(_("invitation code (send it to the other player, then paste their reply "
                       "code here):"))
            print(code, flush=True)
        while True:
            wait = None if deadline is None else max(deadline - time.monotonic(), 0.0)
            line = self.read_line(wait)
            if line is None:
                self.say(_("no reply code came"))
                return 3 if deadline is not None and time.monotonic() >= deadline else 1
            if not line.strip():
                continue
            self.started = time.monotonic()
            try:
                node.complete(addr, line)
                break
            except (CodeError, RtcError) as exc:
                if self.args.bot is not None:  # nobody to paste it again
                    print(f"durak-lan: {exc}", file=sys.stderr)
                    return EXIT_BAD_CODE
                self.say(str(exc))
        return self._wait_open(node, addr, deadline, patient=False)

    @property
    def friend(self) -> bool:
        """Are we the friend who answers (not the one who invites)?"""
        return bool(self.args.code) or (bool(self.args.relay) and bool(self.args.room)
                                         and not self.args.host and not self.inviting)

    def _through_relay(self, node: RtcNode, deadline: float | None) -> int:
        """Both codes through the relay's room: the inviter names the room (or takes
        ``--room``) and posts its invitation; the friend (``--room``) answers it."""
        from .relay import RelayError, Room, new_room
        from .rtc import RtcError

        self.inviting = not self.args.room
        name = self.args.room or new_room()
        wait = None if deadline is None else max(deadline - time.monotonic(), 0.0)
        try:
            room = Room(self.args.relay, name)
        except RelayError as exc:
            print(f"durak-lan: {exc}: " + _("check the URL, or copy the codes by hand "
                                            "(leave out --relay)"), file=sys.stderr)
            return EXIT_NO_ROUTE
        try:
            if self.inviting:
                self.emit({"event": "room", "room": name})
                self.say(_("room {room}: the other player runs durak-lan --online --relay "
                           "{url} --room {room}").format(room=name, url=self.args.relay))
                room.clear()  # an answer left from an earlier game is not ours
                addr, code = node.invitation()
                room.post("offer", code)
                reply = room.wait("answer", wait)
                if reply is None:
                    self.say(_("no reply code came"))
                    return 3 if deadline is not None else 1
                self.started = time.monotonic()
                node.complete(addr, reply)
                status = self._wait_open(node, addr, deadline, patient=False)
                room.clear()
                return status
            offer = room.wait("offer", wait)
            if offer is None:
                self.say(_("nobody has invited in room {room} yet").format(room=name))
                return 3 if deadline is not None else 1
            self.started = time.monotonic()
            addr, reply = node.reply(offer)
            room.post("answer", reply)
            return self._wait_open(node, addr, deadline, patient=True)
        except RtcError as exc:
            print(f"durak-lan: {exc}", file=sys.stderr)
            return EXIT_BAD_CODE
        finally:
            room.close()

    def _wait_open(self, node: RtcNode, addr: tuple[str, int], deadline: float | None,
                   patient: bool) -> int:
        limit = OPEN_TIMEOUT if not patient else 3600.0
        if deadline is not None:
            limit = min(limit, max(deadline - time.monotonic(), 0.0))
        if node.wait_open(addr, limit):
            self.connected = time.monotonic()
            self.channels.append(addr)
            self.say(_("connected ({seconds:.1f} s after the code was given)").format(
                seconds=self.connected - self.started))
            return 0
        why = node.failure(addr) or _("the connection did not open in time")
        hint = (_("try --ice-server {stun} on both sides (or a TURN server)").format(
            stun=PUBLIC_STUN) if not self.ice_servers else
            _("try a TURN server: --ice-server turn:USER:PASSWORD@HOST:PORT"))
        print(f"durak-lan: {why}: {hint}", file=sys.stderr)
        return 3 if deadline is not None and time.monotonic() >= deadline else EXIT_NO_ROUTE

    def step(self, peer: Any) -> None:
        """Who plays whom once the channel is open (called from the CLI's loop):
        the inviter invites the peer on its channel (a host waits for it to join); the
        friend joins a table it sees there, and accepts an invitation otherwise."""
        if peer.active is not None or not self.channels:
            return
        address = "{}:{}".format(*self.channels[0])
        if not self.friend:
            if not self.args.host:
                peer.args.invite = address
            return
        if peer.args.join is None:
            seen = peer.node.find_peer(address)
            if seen is not None and seen.table is not None:
                peer.args.join = address


def _stdin_line(timeout: float | None) -> str | None:
    """One line of standard input within ``timeout`` seconds (None: none came, or the
    input ended)."""
    box: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        line = sys.stdin.readline()
        box.put(line if line else None)

    threading.Thread(target=read, daemon=True).start()
    try:
        return box.get(timeout=timeout)
    except queue.Empty:
        return None
