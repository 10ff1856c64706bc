"""``durak-lan``: a terminal peer that plays a notebook (or another terminal) on the LAN.

Interactive::

    durak-lan --name Bob                 # lobby: peers appear; type `invite Alice`
    durak-lan --name Bob --connect 10.0.0.5:40123 --invite Alice

Headless (demos and tests): a bot plays, invitations are accepted, and one JSON line per
finished and audited game goes to stdout (chatter goes to stderr)::

    durak-lan --name A --bot greedy --games 3 --auto-accept --json
    durak-lan --name B --bot greedy --games 3 --invite A --json --loss 0.2

Without ``--name`` a peer is called by this computer's host name.

Tables of 2 to 6 seats: one peer hosts, the others join; the host may seat bots of its
own.  A headless host deals as soon as every seat is taken; an interactive one types
``start``::

    durak-lan --name Alice --host 4 --add-bot greedy --bot greedy --json
    durak-lan --name Bob --join Alice --bot random --json
    durak-lan --name Cleo --join Alice                   # plays from the keyboard

At a table of teams, ``--team K`` (or ``join NAME team K`` at the prompt) asks for a
seat in team K.

Hands are hidden (mental poker): each side sees only its own cards, and after every
game both publish their keys and audit it; the JSON line says ``"audit": "fair"`` or
the fault, with the hash of the audited full game.  The pairing words are printed
once a session starts: compare them with the other screen (``notsame`` ends the
session if they differ).  ``--pin`` pairs with a PIN instead, for players who cannot
see each other's screen.

Every game ends with a verdict and, with ``--json``, its line: ``"audit": "fair"``;
the fault, with ``"code"``, ``"culprit"`` (the seat at fault) and ``"finding"`` (the
code of the verdict's sentence, which the terminal says in its language); or
``"audit": "abandoned"`` when a peer went silent (no goodbye) and was not heard again
for the table's grace period, or (a seat we cannot hear directly, as online) made no
move past the idle bound while the host told us nothing of it, with ``"silent"`` (its
name), ``"silent_seat"`` and ``"silent_at"`` (when it was last heard, or since when the
game waited for it, UTC).

Across the internet (WebRTC, :mod:`durak_net.online_terminal`): one prints an
invitation code, the other answers it and sends back the reply code it prints, or both
meet in a room of an MQTT relay::

    durak-lan --name Ann --online                        # then paste Ben's reply code
    durak-lan --name Ben --online --code CODE
    durak-lan --name Ann --online --relay wss://HOST:PORT/PATH        # names a room
    durak-lan --name Ben --online --relay wss://HOST:PORT/PATH --room WORDS

Exit status (also in ``durak-lan --help``): see :data:`EXIT_CODES`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import queue
import socket
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from durak_core import Action, Game, IllegalAction, Rules, parse_action
from durak_lang.reasons import match as match_reason

from . import events as ev
from . import i18n, online_terminal
from .botplay import BotDriver, build_bot
from .i18n import N_, _, n_, say_rule
from .journal import private_folder
from .notes import Note, Rule, Seat, Theirs, say_reason
from .options import TERMINAL, LanOptions
from .policy import SETTLE, LobbyPolicy
from .teams import ANY_TEAM, seat_team_note
from .text import plain, printable
from .usage import argparse_speaks, language_asked, say_error
from .wire import DISCOVERY_PORT

if TYPE_CHECKING:
    from .node import LanNode
    from .rtc import RtcNode
# The node (sockets, the peer, its sessions: a third of the start-up) is imported where
# a peer is made, not here: ``durak-lan --help`` and a bad command line need none of it.

_LINE = object()  # tag of stdin lines in the event queue
#: Exit status for a bad command line (argparse's own 2 would read as "desync").
EXIT_USAGE = 64
#: Exit status after an internal error (a bug of ours, reported in one line).
EXIT_INTERNAL = 70
#: Exit status after a game a peer abandoned (it went silent for the grace period).
EXIT_ABANDONED = 4
#: Every exit status ``durak-lan`` uses, and what it means (printed by ``--help``).
EXIT_CODES: dict[int, str] = {
    0: N_("the games were played and every audit found them fair"),
    1: N_("the peer left early (said goodbye), or no seat or invitation was had"),
    2: N_("cheating: an audit named a fault, a desync or a protocol violation"),
    3: N_("--timeout passed first"),
    EXIT_ABANDONED: N_("a peer went silent and was not heard for the grace period "
                       "(\"audit\": \"abandoned\")"),
    **online_terminal.EXIT_CODES,
    EXIT_USAGE: N_("a bad command line (one line on stderr says which option and why)"),
    EXIT_INTERNAL: N_("an internal error (a bug: one line on stderr, never a traceback)"),
}
#: A seat's state as the host tells it (SeatStatus), a sentence about its player.
SEAT_STATES = {"lost": N_("{name} lost its connection; the game waits"),
               "back": N_("{name} is back"), "left": N_("{name} left"),
               "bot": N_("{name} is played by a bot in the host's kernel until they are back")}
#: How a move its seat did not choose is marked (events.FORCED_WORDS, translated).
FORCED_WORDS = {"timeout": N_("timed out"), "bot": N_("played by a bot for the absent player")}
FORCED_FOR_US = {"timeout": N_("timed out"),
                 "bot": N_("played for you by a bot while you were away")}
#: What a player back at its seat is told when its hand was opened (events.OPENED_WORDS).
OPENED_WORDS = N_("While you were away your hand was opened to the table, and a bot "
                  "played for you.")
#: The variants' names as a person reads them (the rules' values, translated).
VARIANTS = {"podkidnoy": N_("podkidnoy"), "perevodnoy": N_("perevodnoy")}


def variant_words(variant: str) -> str:
    """A variant's name in the terminal's language."""
    return _(VARIANTS[variant]) if variant in VARIANTS else variant


#: What a lobby accepts as a display name (see durak_net.lobby.Lobby).
NAME_MAX = 40


def _name(name: str) -> str:
    """A player's name as shown: made safe (:func:`~durak_net.text.plain`) and always
    in quotes, so that no name can pass for a line of ours (a player called
    ``PROBLEM: desync`` shows as ``"PROBLEM: desync": attack 7s``, never at the start
    of a line).  Quotes inside a name become apostrophes, so it cannot close its own.

    >>> _name("PROBLEM: desync")
    '"PROBLEM: desync"'
    >>> print(_name('Bob" PROBLEM: "x'))
    "Bob' PROBLEM: 'x"
    """
    return '"' + plain(name, NAME_MAX).replace('"', "'") + '"'


def _label(peer: ev.PeerInfo) -> str:
    """How a peer is shown: its name made safe (:func:`~durak_net.text.plain`) and its
    address, ``Bob (10.0.0.5:40123)``; and its id when another peer announces the same
    name (``invite ID`` picks one)."""
    where = f"{peer.addr[0]}:{peer.addr[1]}"
    return (f"{_name(peer.name)} ({where}, id {peer.node:016x})" if peer.same_name
            else f"{_name(peer.name)} ({where})")


def default_name() -> str:
    """This computer's host name (its first label), as a person would expect to be seen."""
    host = " ".join(socket.gethostname().split(".")[0].split())
    return host[:NAME_MAX] or "durak"


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad command line exits with :data:`EXIT_USAGE`, as documented."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, _("{prog}: error: {message}").format(prog=self.prog,
                                                                    message=message) + "\n")


def check_args(args: argparse.Namespace) -> None:
    """Refuse values argparse lets through, with one sentence naming the option: the
    terminal's own here, those it shares with ``lan()`` in :meth:`LanOptions.check
    <durak_net.options.LanOptions.check>`."""
    if args.games < 1:
        raise ValueError(_("--games must be at least 1"))
    if args.delay < 0:
        raise ValueError(_("--delay must be at least 0 seconds"))
    if args.timeout is not None and not args.timeout > 0:
        raise ValueError(_("--timeout must be more than 0 seconds, not {value}").format(
            value=f"{args.timeout:g}"))
    if args.resume and not args.journal:
        raise ValueError(_("--resume needs --journal DIR"))
    options_from_args(args).check(TERMINAL)


def options_from_args(args: argparse.Namespace) -> LanOptions:
    """The settings the command line gives, as ``lan()`` takes them too (``--rules``
    are what we invite with; with ``--host N``, the table's, at N seats)."""
    rules = parse_rules(args.rules)
    table = None
    if args.host is not None:
        table = Rules.from_dict({**rules.to_dict(), "players": args.host})
        rules = Rules()
    return LanOptions(
        args.name, connect=tuple(args.connect), rules=rules, port=args.port,
        game_port=args.game_port, loss=args.loss, seed=args.seed,
        journal_dir=Path(args.journal) if args.journal else None, pin=args.pin,
        auto_accept=args.auto_accept, invite=args.invite, join=args.join, team=args.team,
        table=table, clock=args.clock, grace=args.grace, add_bots=tuple(args.add_bot),
        auto_start=table is not None and args.bot is not None, bot=args.bot, lang=args.lang)


def _rule_value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("none", "null"):
        return None
    try:
        return int(text)
    except ValueError:
        return text


def parse_rules(text: str) -> Rules:
    """``"variant=perevodnoy,deck_size=24"`` -> Rules (ValueError with the reason)."""
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise ValueError(_("rule options are key=value, not {part}").format(
                part=repr(part)))
        options[key.strip()] = _rule_value(value.strip())
    return Rules.from_dict({**Rules().to_dict(), **options})


def build_parser() -> argparse.ArgumentParser:
    """``durak-lan``'s options, their help said in the terminal's language (chosen
    before: :func:`main`); the options, their metavars and ``--json`` stay as typed."""
    p = _Parser(
        prog="durak-lan",
        description=_("Play Durak with a notebook or another terminal on the local network."),
        epilog=_("exit status: {codes}").format(codes="; ".join(
            f"{code} {_(what)}" for code, what in sorted(EXIT_CODES.items()))),
    )
    p.add_argument("--name", default=default_name(),
                   help=_("the name other players see (default: this computer's name, "
                          "{name})").format(name=repr(default_name())))
    p.add_argument("--port", type=int, default=DISCOVERY_PORT,
                   help=_("UDP discovery port shared by all peers (default {port}; "
                          "0: no discovery, use --connect)").format(port=DISCOVERY_PORT))
    p.add_argument("--game-port", type=int, default=0,
                   help=_("this peer's own UDP port (default: any free port)"))
    p.add_argument("--connect", action="append", default=[], metavar="HOST:PORT",
                   help=_("announce ourselves directly to a peer's game port (when "
                          "broadcasts do not reach it); repeatable"))
    p.add_argument("--invite", metavar="NAME", help=_(
        "invite the peer seen with this name (or HOST:PORT, or its id when two peers "
        "announce one name)"))
    p.add_argument("--auto-accept", action="store_true", help=_("accept invitations at once"))
    p.add_argument("--host", type=int, metavar="SEATS",
                   help=_("host a table of this many seats (2 to 6; the others --join it)"))
    p.add_argument("--add-bot", action="append", default=[], metavar="SPEC",
                   help=_("with --host: seat a bot of ours (random, greedy, ismcts); "
                          "repeatable"))
    p.add_argument("--clock", type=int, default=0, metavar="SECONDS",
                   help=_("with --host: seconds each seat has for a move (default 0: no "
                          "clock)"))
    p.add_argument("--grace", type=int, default=60, metavar="SECONDS",
                   help=_("with --host: how long a lost seat is waited for before a bot may "
                          "take it over (default 60); a seat still there that makes no "
                          "move for ten times as long (at least 300 s, plus --clock) is "
                          "named idle"))
    p.add_argument("--join", metavar="NAME", help=_(
        "sit at the table hosted by this peer (or HOST:PORT)"))
    p.add_argument("--team", type=int, default=-1, metavar="T",
                   help=_("with --join at a table of teams: the team to sit in (0, 1 or 2)"))
    p.add_argument("--pin", metavar="DIGITS",
                   help=_("pair with this PIN: --invite asks for it, --auto-accept answers "
                          "with it (read it out to the other player)"))
    p.add_argument("--bot", metavar="SPEC", help=_("let a bot play (random, greedy, ...)"))
    p.add_argument("--seed", type=int, help=_("seed of the bot"))
    p.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                   help=_("the bot waits this long before each move (to follow it in a "
                          "demo)"))
    p.add_argument("--games", type=int, default=1,
                   help=_("games to play, then leave (default 1)"))
    p.add_argument("--json", action="store_true",
                   help=_("print one JSON line per finished game on stdout"))
    p.add_argument("--loss", type=float, default=0.0, metavar="P",
                   help=_("drop this share of outgoing datagrams (demos and tests)"))
    p.add_argument("--rules", default="", metavar="K=V,...",
                   help=_("rules we invite with, e.g. variant=perevodnoy,deck_size=24"))
    p.add_argument("--journal", metavar="DIR",
                   help=_("keep session journals here (for --resume)"))
    p.add_argument("--resume", action="store_true",
                   help=_("resume the newest unfinished session in --journal DIR"))
    p.add_argument("--timeout", type=float, metavar="SECONDS",
                   help=_("give up after this long (exit status 3)"))
    p.add_argument("--lang", metavar="LANG",
                   help=_("the language of the messages, ru or en (default: from DURAK_LANG, "
                          "LANGUAGE, LC_ALL, LC_MESSAGES, LANG); --json lines stay English"))
    online_terminal.add_arguments(p)
    return p


def parse_join(words: Sequence[str]) -> tuple[str, int]:
    """The words after the prompt's ``join``: a host's name (it may have spaces), then
    ``team K`` at a table of teams.  ``ValueError`` for a team that is not a number."""
    team = ANY_TEAM
    if len(words) >= 2 and words[-2].lower() == "team":
        if not words[-1].isdigit():
            raise ValueError(_("team wants a number (0, 1 or 2), not {word}").format(
                word=repr(words[-1])))
        team = int(words[-1])
        words = words[:-2]
    if not words:
        raise ValueError(_("join whom? (`join NAME [team K]`)"))
    return " ".join(words), team


def render(game: Game, seat: int, names: Sequence[str]) -> str:
    """The table as our seat sees it: our hand, every other seat's card count and role
    (in seat order from our left), never their cards."""
    obs = game.observation(seat)
    n = game.players
    out = set(obs["out"])
    role = {obs["attacker"]: _("attacks"), obs["defender"]: _("defends")}
    for thrower in game.throwers() if obs["table"] and not game.is_over else ():
        role.setdefault(thrower, _("throws in"))
    table = "  ".join(f"{a}/{d or '.'}" for a, d in obs["table"]) or _("(empty)")
    lines = [_("trump {card}  talon {talon}  discarded {discarded}").format(
        card=obs["trump_card"], talon=obs["talon"], discarded=len(obs["discarded"]))]
    for k in range(1, n):
        other = (seat + k) % n
        hand = obs["hands"][other]
        state = _("out") if other in out else role.get(other, _("waits"))
        name = _name(names[other]) if other < len(names) else _("a player")
        lines.append(n_("{name}: {count} card, {state}", "{name}: {count} cards, {state}",
                        hand["count"]).format(name=name, count=hand["count"], state=state)
                     + (_(" (shown: {cards})").format(cards=" ".join(hand["known"]))
                        if hand["known"] else ""))
    lines += [
        _("table: {table}").format(table=table)
        + (_("  (defender takes)") if obs["taking"] else ""),
        _("you:   {hand}  ({role})").format(hand=" ".join(obs["hand"]),
                                            role=role.get(seat, _("wait"))),
    ]
    legal = game.legal_actions(seat)
    if legal and not game.is_over:
        choices = "  ".join(f"[{i}] {str(a).split(' ', 1)[1]}" for i, a in enumerate(legal, 1))
        lines.append(_("moves: {choices}").format(choices=choices))
    return "\n".join(lines)


class Peer:
    """The terminal peer's main loop: one thread reads the event queue and acts."""

    #: ``--online``: the code exchange, and a WebRTC node instead of the UDP one.
    online: online_terminal.OnlineTerminal | None = None
    #: How long a peer must be seen before --invite/--join (none over a channel: the
    #: peer at its end is the one who exchanged codes with us).
    settle = SETTLE

    def __init__(self, args: argparse.Namespace, out: TextIO, err: TextIO) -> None:
        self.args = args
        self.out = out
        self.err = err
        #: The settings shared with ``lan()``.
        self.options = options_from_args(args)
        self.rules = self.options.table or self.options.rules
        self.interactive = args.bot is None
        self.policy = self.options.policy()
        self.driver = BotDriver(build_bot(args.bot, seed=args.seed)) if args.bot else None
        self.online = (online_terminal.OnlineTerminal(args, self.say, self.emit_json)
                       if args.online else None)
        from .node import LanNode

        self.node: LanNode | RtcNode = (self.online.make_node(self.options.rules)
                                        if self.online else LanNode.from_options(self.options))
        self.settle = 0.0 if self.online else SETTLE
        self.finished = 0
        self.status = 0
        self.done = False
        self.invite_sent: int | None = None
        self.join_sent: int | None = None
        self.last_invite = 0.0
        self.incoming: list[int] = []
        self.active: int | None = None
        self.audited = 0
        self._finished: dict[int, ev.GameFinished] = {}

    # -------------------------------------------------------------- output

    def say(self, text: str) -> None:
        """One message for the person (stderr with ``--json``); names and reasons in it
        went through :func:`~durak_net.text.plain`, and nothing in it can steer the
        terminal (:func:`~durak_net.text.printable`)."""
        stream = self.err if self.args.json else self.out
        print(printable(text), file=stream, flush=True)

    def emit_json(self, record: dict[str, Any]) -> None:
        if self.args.json:
            print(json.dumps(record, sort_keys=True), file=self.out, flush=True)

    # -------------------------------------------------------------- loop

    def run(self) -> int:
        from .node import LanNode
        from .session import SessionError

        node = self.node
        if isinstance(node, LanNode):
            self.say(_("{name}: game port {port}, discovery port {discovery}").format(
                name=node.name, port=node.game_port, discovery=self.args.port)
                + (f" ({node.discovery_error})" if node.discovery_error else ""))
        deadline = time.monotonic() + self.args.timeout if self.args.timeout else None
        try:
            if self.online is not None:
                self.status = self.online.connect(deadline)
                self.done = self.status != 0
            try:
                if self.done:
                    pass
                elif self.args.resume:
                    self.resume()
                elif self.args.host:
                    self.host()
            except (ValueError, SessionError) as exc:  # a journal that does not resume
                self.say((_("durak-lan: cannot resume: {reason}") if self.args.resume
                          else _("durak-lan: cannot host: {reason}")).format(
                              reason=plain(say_error(exc))))
                self.status, self.done = EXIT_USAGE, True
            if self.interactive and not self.done:
                threading.Thread(target=self._read_stdin, daemon=True).start()
                self.say(_("type `help` for commands"))
            while not self.done:
                if deadline is not None and time.monotonic() >= deadline:
                    self.say(n_("timeout after {seconds} s ({count} of {games} game played)",
                                "timeout after {seconds} s ({count} of {games} games played)",
                                self.args.games).format(seconds=self.args.timeout,
                                                        count=self.finished,
                                                        games=self.args.games))
                    self.status = 3
                    break
                try:
                    item = node.events.get(timeout=0.2)
                except queue.Empty:
                    item = None
                self.step(item)
        except KeyboardInterrupt:
            self.status = self.status or 130
        except Exception as exc:  # a bug of ours: one line and its own status, no traceback
            print("durak-lan: " + _("internal error: {error}").format(
                error=plain(repr(exc), 400)), file=self.err)
            self.status = EXIT_INTERNAL
        finally:
            node.close(leave=True)
            for error in node.handler_errors:
                print(_("internal error: {error}").format(error=plain(repr(error), 400)),
                      file=self.err)
        return self.status

    def step(self, item: Any) -> None:
        """One turn of the loop: a typed line or an event (or nothing), then what the
        bot, ``--invite`` and ``--join`` have to do.

        What the network can make fail here (a session the other side closed meanwhile,
        an invitation withdrawn, a move overtaken by the game) is one line and the loop
        goes on: the events that follow say what happened, and end the program with its
        documented status."""
        from .session import SessionError  # loaded with the node by now (see the imports)

        try:
            if isinstance(item, tuple) and item and item[0] is _LINE:
                self.command(item[1])
            elif item is not None:
                self.handle(item)
            if self.online is not None:
                self.online.step(self)
            self.maybe_invite()
            self.maybe_join()
            self.bot_move()
        except (SessionError, IllegalAction, ValueError) as exc:
            self.say(_("error: {reason}").format(reason=self.failed(exc)))

    def _read_stdin(self) -> None:
        for line in sys.stdin:
            self.node.events.put((_LINE, line.strip()))
        self.node.events.put((_LINE, "quit"))

    def resume(self) -> None:
        found = self.node.resumable()
        if not found:
            self.say(_("nothing to resume"))
            return
        path, head = found[0]
        self.active = self.node.resume(path)
        who = _name(head.get("peer_name") or _("the peer"))
        self.say(_("resuming the game with {name} from {path}").format(name=who, path=path))
        view = self.node.view(self.active)
        if view is not None and view.sas:
            self.say(_("pairing words: {words} (as when the session began)").format(
                words=view.sas))

    def host(self) -> None:
        """Host a table (``--host``) and seat our bots (``--add-bot``)."""
        args = self.args
        self.active = self.node.host_table(self.rules, clock=args.clock, grace=args.grace,
                                           bots=args.add_bot)
        self.say(_("hosting table {table} of {count} seats ({variant}, {cards} cards)").format(
            table=f"{self.active:x}", count=self.rules.players,
            variant=variant_words(self.rules.variant), cards=self.rules.deck_size)
            + (_(", {seconds} s per move").format(seconds=args.clock) if args.clock else ""))
        self.seating()
        self.maybe_start()

    def seating(self) -> None:
        view = self.node.view(self.active) if self.active is not None else None
        if view is None:
            return
        names = [_name(name) for name in view.names]
        seats = [(_("(open)") if kind == "open" else _("{name} (bot)").format(name=name)
                  if kind == "bot" else name)
                 for name, kind in zip(names, view.kinds, strict=True)]
        if view.rules is not None and view.rules.teams:
            seats = [f"{label} [{seat_team_note(view.rules, i, view.seated)}]"
                     for i, label in enumerate(seats)]
        self.say(_("seats, in order round the table: {seats}").format(seats=", ".join(seats)))
        if view.table_words:
            self.say(_("table words: {words} (every screen at the table must show the "
                       "same)").format(words=view.table_words))

    def maybe_start(self) -> None:
        """A headless host deals as soon as every seat is taken; a person types start."""
        view = self.node.view(self.active) if self.active is not None else None
        if view is None or view.started or view.seat != 0 or "open" in view.kinds:
            return
        if self.interactive:
            self.say(_("the table is full: type `start` to deal"))
            return
        # A seat's hello may still be on its way: the next SeatTaken tries again.
        with contextlib.suppress(RuntimeError):
            self.node.start_table(view.sid)

    def maybe_join(self) -> None:
        name = self.args.join
        if not name or self.active is not None or self.join_sent is not None:
            return
        if time.monotonic() < self.last_invite + 1.0:
            return
        self.last_invite = time.monotonic()
        try:
            peer = self.node.find_peer(name, settled=self.settle)
        except ValueError as exc:  # two peers announce the name: ask which
            self.ask_which("join", exc)
            return
        if peer is None:
            return
        if peer.incompatible:
            self.say(_("not joining {name}: it {reason}").format(
                name=_label(peer), reason=say_reason(peer.incompatible, _)))
        elif peer.table is None:
            self.say(_("{name} hosts no table (yet)").format(name=_label(peer)))
        elif not peer.open_seats:
            self.say(_("{name}'s table has no free seat").format(name=_label(peer)))
        else:
            try:
                self.join_sent = self.node.join(peer.node, team=self.args.team)
            except ValueError as exc:  # a team the table does not have
                self.say(_("not joining {name}: {reason}").format(name=_label(peer),
                                                                  reason=plain(exc)))
                self.args.join = None
                if not self.interactive:
                    self.status, self.done = 1, True
                return
            self.say(_("asking {name} for a seat in team {team}").format(
                name=_label(peer), team=self.args.team) if self.args.team != ANY_TEAM
                else _("asking {name} for a seat").format(name=_label(peer)))

    def maybe_invite(self) -> None:
        name = self.args.invite
        if not name or self.active is not None or self.invite_sent is not None:
            return
        if time.monotonic() < self.last_invite + 1.0:
            return
        try:
            peer = self.node.find_peer(name, settled=self.settle)
        except ValueError as exc:  # two peers announce the name: ask which
            self.ask_which("invite", exc)
            return
        if peer is not None and not peer.incompatible:
            self.last_invite = time.monotonic()
            self.invite_sent = self.node.invite(peer.node, pin=self.args.pin)
            self.say((_("inviting {name} with a PIN") if self.args.pin
                      else _("inviting {name}")).format(name=_label(peer)))
        elif peer is not None:
            self.last_invite = time.monotonic()
            self.say(_("not inviting {name}: it {reason}").format(
                name=_label(peer), reason=say_reason(peer.incompatible, _)))

    def ask_which(self, verb: str, exc: ValueError) -> None:
        """``--invite NAME`` or ``--join NAME`` found two peers announcing the name:
        stop, and ask the person to pick one by its id (a headless peer cannot answer:
        it ends, status 1)."""
        if verb == "invite":
            self.args.invite = None
        else:
            self.args.join = None
        if self.interactive:
            self.say(_("{reason}: type `{verb} ID`").format(reason=plain(exc, 400), verb=verb))
        else:
            self.say((_("not inviting: {reason}; run again with --invite ID") if verb == "invite"
                      else _("not joining: {reason}; run again with --join ID")).format(
                          reason=plain(exc, 400)))
            self.status, self.done = 1, True

    def bot_move(self) -> None:
        from .session import SessionError  # loaded with the node by now (see the imports)

        if self.driver is None or self.active is None:
            return
        for _attempt in range(1000):
            view = self.node.view(self.active)
            action = self.driver.choose(view)
            if action is None:
                return
            if self.args.delay:
                time.sleep(self.args.delay)
            try:
                self.node.act(self.active, action)
            except (IllegalAction, SessionError, ValueError):
                # The game moved on meanwhile, or the session closed (the other side left
                # or cheated): the next event brings a fresh view, or the verdict.
                return

    # -------------------------------------------------------------- events

    def handle(self, event: Any) -> None:
        """Act on one event: the method :data:`HANDLERS` names for its kind (an event
        of a kind it does not name is not for the terminal's screen)."""
        method = HANDLERS.get(type(event))
        if method is not None:
            getattr(self, method)(event)

    def on_peer_seen(self, event: ev.PeerSeen) -> None:
        if self.interactive:
            notes = [n for n, on in ((_("busy"), event.peer.busy),
                                     (_("another player uses this name"),
                                      event.peer.same_name),
                                     (say_reason(event.peer.incompatible, _),
                                      bool(event.peer.incompatible)))
                     if on]
            self.say(_("seen: {name}").format(name=_label(event.peer))
                     + (f" ({'; '.join(notes)})" if notes else ""))

    def on_peer_gone(self, event: ev.PeerGone) -> None:
        if self.interactive:
            self.say(_("gone: {name}").format(name=_name(event.peer.name)))

    def on_invite_received(self, event: ev.InviteReceived) -> None:
        decision = self.policy.answer(event, playing=self.active is not None)
        if decision.kind == "decline":
            self.node.decline(event.invite, decision.reason)
        elif decision.kind == "accept":
            self.node.accept(event.invite, pin=decision.pin)
        else:
            self.incoming.append(event.invite)
            self.say((_("{name} invites you ({variant}, {cards} cards, with a PIN): type "
                        "`accept PIN` or `decline`") if event.pin else
                      _("{name} invites you ({variant}, {cards} cards): type `accept` or "
                        "`decline`")).format(name=_label(event.peer),
                                             variant=variant_words(event.rules.variant),
                                             cards=event.rules.deck_size))

    def on_invite_closed(self, event: ev.InviteClosed) -> None:
        if event.invite == self.join_sent:
            self.say(_("no seat at {name}'s table: {reason}").format(
                name=_name(event.peer.name), reason=say_reason(event.reason, _)))
            self.join_sent = None
            self.args.join = None
            if not self.interactive:
                self.status, self.done = 1, True
            return
        self.say((_("invitation to {name} closed: {reason}") if event.outgoing
                  else _("invitation from {name} closed: {reason}")).format(
                      name=_name(event.peer.name), reason=say_reason(event.reason, _)))
        if event.outgoing and event.invite == self.invite_sent:
            self.invite_sent = None
            if not LobbyPolicy.invite_again(event):
                self.args.invite = None  # refused: do not pester them
                if not self.interactive:
                    self.status, self.done = 1, True
        if event.invite in self.incoming:
            self.incoming.remove(event.invite)

    def on_session_agreed(self, event: ev.SessionAgreed) -> None:
        words = (_("pairing words: {words} ({name}'s screen must show the same; type "
                   "`notsame` if it does not)").format(words=event.sas,
                                                       name=_name(event.peer.name))
                 + (_(" · PIN checked") if event.pin else ""))
        if event.table and event.inviter:  # a player paired for a seat of our table
            self.say(_("{name} takes a seat at the table; {words}").format(
                name=_label(event.peer), words=words))
            return
        self.active = event.table or event.sid
        if event.table:
            team = seat_team_note(event.rules, event.seat, ())
            self.say(_("seated at {name}'s table {table}").format(
                name=_label(event.peer), table=f"{event.table:x}")
                + (f" ({team})" if team else ""))
        else:
            self.say((_("playing {name}, session {session}, you invited") if event.inviter
                      else _("playing {name}, session {session}, you were invited")
                      ).format(name=_label(event.peer), session=f"{event.sid:x}"))
        self.say(words)

    def on_seat_taken(self, event: ev.SeatTaken) -> None:
        self.say(_("{name} sits down at the table").format(name=_name(event.name)))
        self.seating()
        self.maybe_start()

    def on_table_changed(self, event: ev.TableChanged) -> None:
        if self.interactive or event.started:
            self.seating()

    def on_seat_status(self, event: ev.SeatStatus) -> None:
        who = self.name_of(event.seat)
        text = _(SEAT_STATES[event.state]).format(name=who) if (
            event.state in SEAT_STATES) else f"{who} {plain(event.state)}"
        if event.state == "timeout":  # ours: we must lead, and our time is up
            self.say(_("your move clock ran out: your cheapest card is led for you"))
        elif event.state == "opened":  # ours: we are back after a hand-over
            self.say(_(OPENED_WORDS))
        else:
            self.say(text + (f" ({say_reason(event.detail, _)})" if event.detail else ""))

    def on_game_started(self, event: ev.GameStarted) -> None:
        self.say((_("game {number} resumed · hidden hands · verified")
                  if event.resumed else
                  _("game {number} dealt · hidden hands · verified")
                  ).format(number=event.game))
        if event.shown is not None and not event.resumed:
            seat, card = event.shown
            if seat == event.seat:
                self.say(_("you show {card}, the lowest trump, and attack first").format(
                    card=card))
            else:
                self.say(_("{name} shows {card}, the lowest trump, and attacks first"
                           ).format(name=self.name_of(seat), card=card))
        self.show_table()

    def on_action_applied(self, event: ev.ActionApplied) -> None:
        if self.interactive:
            who = _("you") if event.by_me else self.name_of(event.action.player)
            marks = FORCED_FOR_US if event.by_me else FORCED_WORDS
            mark = (f" ({_(marks[event.forced]) if event.forced in marks else event.forced})"
                    if event.forced else "")
            self.say(f"{who}: {str(event.action).split(' ', 1)[1]}{mark}")
            self.show_table()

    def on_action_refused(self, event: ev.ActionRefused) -> None:
        # Only a move the table had moved past is refused (the session checks): a
        # race with another seat's move, not a mistake.  Our automatic pass is
        # proposed again when it is due, and a bot simply plays on: nothing to say.
        if self.interactive and not event.automatic:
            self.say(_("too late for your {move}: the table moved on before it reached "
                       "{host}; it was not played").format(
                move=str(event.action).split(" ", 1)[-1], host=self.name_of(0)))
            self.show_table()

    def on_game_stopped(self, event: ev.GameStopped) -> None:
        self.say(_("game {number} stopped: {detail} (auditing...)").format(
            number=event.game, detail=self.said(event.sid, event.note, event.detail)))

    def on_next_game_requested(self, event: ev.NextGameRequested) -> None:
        if self.finished < self.args.games and (self.driver or self.args.auto_accept):
            self.node.start_next_game(event.sid, event.game)
        elif self.interactive:
            self.say(_("the peer wants another game: type `again`"))

    def on_peer_lost(self, event: ev.PeerLost) -> None:
        self.say(_("connection to {name} lost, waiting...").format(
            name=self.name_of(event.seat)))

    def on_peer_back(self, event: ev.PeerBack) -> None:
        self.say(_("connection to {name} back").format(name=self.name_of(event.seat)))

    def on_problem(self, event: ev.DesyncDetected | ev.ProtocolViolation) -> None:
        said = self.said(event.sid, event.note, event.detail)
        self.say(_("PROBLEM: {detail}").format(detail=_(
            "out of step after entry {index}: {detail}").format(index=event.index,
                                                                detail=said)
            if isinstance(event, ev.DesyncDetected) else _(
            "a program at the table broke the protocol: {detail}").format(detail=said)))
        self.emit_json({"event": type(event).__name__, "detail": str(event)})
        self.status = 2

    def on_session_closed(self, event: ev.SessionClosed) -> None:
        if event.sid != self.active:
            return
        self.active = None
        if self.finished >= self.args.games or not self.driver:
            self.say(_("session closed ({reason})").format(
                reason=say_reason(event.reason, _) if event.reason else _("bye")))
            self.done = not self.interactive or self.finished >= self.args.games
        else:
            self.say(n_("the peer left after {count} of {games} game",
                        "the peer left after {count} of {games} games",
                        self.args.games).format(count=self.finished,
                                                games=self.args.games))
            self.status = self.status or 1
            self.done = True

    def said(self, sid: int, note: Note | None, english: str) -> str:
        """A finding of session ``sid`` (a verdict, a stop, a desync) in the terminal's
        language with the table's names; its English when there is no note (a verdict
        restored from an older journal)."""
        if note is None:
            return plain(english, 400)
        view = self.node.view(sid)
        names = view.names if view is not None else ()
        seat = view.seat if view is not None else None
        return plain(note.say(names, _, lambda text, seats: say_rule(text, seats, seat)), 400)

    def rule(self, reason: str) -> str:
        """A rules engine's reason (a move of ours refused, typed or the bot's) in the
        terminal's language, names (and "you") for its seat numbers, made safe."""
        view = self.node.view(self.active) if self.active is not None else None
        if view is None:
            return plain(say_rule(reason, ()), 400)
        return plain(say_rule(reason, [_name(n) for n in view.names], view.seat), 400)

    def failed(self, exc: Exception) -> str:
        """What went wrong, for the ``error:`` line: an illegal move says the engine's
        reason in the terminal's language; ours (a session's, the node's refusals) are
        said in it too (:func:`~durak_net.usage.say_error`: the core's refusal of a bot's
        name included), another library's as they are."""
        return self.rule(exc.reason) if isinstance(exc, IllegalAction) else plain(say_error(exc))

    def names(self) -> tuple[str, ...]:
        view = self.node.view(self.active) if self.active is not None else None
        return view.names if view is not None else ()

    def name_of(self, seat: int | None) -> str:
        names = self.names()
        if seat is None or not 0 <= seat < len(names):
            return _("the peer")
        return _name(names[seat])

    def show_table(self) -> None:
        if not self.interactive or self.active is None:
            return
        view = self.node.view(self.active)
        if view is not None and view.game is not None:
            self.say(render(view.game, view.seat, view.names))

    def game_finished(self, event: ev.GameFinished) -> None:
        self.finished += 1
        view = self.node.view(event.sid)
        seat = view.seat if view is not None else None
        outcome = (_("draw") if event.durak is None
                   else _("you lost") if event.durak == seat
                   else _("you won") if len(self.names()) <= 2
                   else _("you are out; {name} is the durak").format(
                       name=self.name_of(event.durak)))
        self.say(n_("game {number} over: {outcome} ({count} action); auditing...",
                    "game {number} over: {outcome} ({count} actions); auditing...",
                    event.actions).format(number=event.game, outcome=outcome,
                                          count=event.actions))
        self._finished[event.game] = event

    def game_audited(self, event: ev.GameAudited) -> None:
        """The game's audit: one JSON line, then the next game or goodbye."""
        self.audited += 1
        view = self.node.view(event.sid)
        seat = view.seat if view is not None else None
        finished = self._finished.pop(event.game, None)
        verdict = (_("audited: fair (unfinished)") if "unfinished" in event.verdict
                   else _("audited: fair")) if event.fair else _("audit: {detail}").format(
                       detail=self.said(event.sid, event.note,
                                        event.verdict.removeprefix("audit: ")))
        self.say(_("game {number}: {verdict}").format(number=event.game,
                                                      verdict=plain(verdict, 400)))
        abandoned = event.code == "abandoned"
        if abandoned:
            self.status = self.status or EXIT_ABANDONED
        elif not event.fair:
            self.status = 2
        record: dict[str, Any] = {
            "event": "game_over",
            "name": self.node.name,
            "peer": ", ".join(n for i, n in enumerate(view.names) if i != view.seat)
                    if view is not None else "",
            "table": f"{view.table:x}" if view is not None else "",
            "seats": list(view.names) if view is not None else [],
            "session": f"{event.sid:x}",
            "game": event.game,
            "seat": seat,
            "durak": finished.durak if finished is not None else None,
            "actions": finished.actions if finished is not None else None,
            "public_hash": finished.state_hash if finished is not None else None,
            "state_hash": event.state_hash,
            "log_hash": event.log_hash,
            "audit": "fair" if event.fair else "abandoned" if abandoned
                     else event.verdict.removeprefix("audit: "),
            "code": event.code,
            "culprit": event.culprit,
        }
        if event.note is not None:  # the finding's own code (the verdict's kind, finer)
            record["finding"] = event.note.code
        if abandoned:
            record["detail"] = event.verdict.removeprefix("audit: ")
            names = view.names if view is not None else ()
            culprit = event.culprit
            record["silent"] = (plain(names[culprit], NAME_MAX) if culprit is not None
                                and 0 <= culprit < len(names) else "")
            record["silent_seat"] = event.culprit
            if event.silent_since is not None:  # the node's clock is time.monotonic()
                at = time.time() - (time.monotonic() - event.silent_since)
                record["silent_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))
        self.emit_json(record)
        if abandoned or finished is None or self.finished >= self.args.games:
            if self.driver is not None or not self.interactive or finished is None \
                    or abandoned:
                self.node.leave(event.sid, "played all games" if finished else "game stopped")
        elif self.driver is not None or self.args.auto_accept:
            self.node.start_next_game(event.sid)
        else:
            self.say(_("type `again` for another game, `quit` to leave"))

    # -------------------------------------------------------------- commands

    def command(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        verb = words[0].lower()
        node = self.node
        try:
            if verb in ("quit", "exit"):
                self.done = True
            elif verb == "help":
                # The commands are typed as they are in every language; only the labels
                # around them are the terminal's words.
                self.say(_("commands: {commands}\nmoves: {moves} | a move's number").format(
                    commands="peers | invite NAME [PIN] | accept [PIN] | decline | notsame | "
                             "again | table | join NAME [team K] | bot [SPEC] | start | quit",
                    moves="attack 7s | defend 7s with 9s | transfer 7d | take | pass"))
            elif verb == "peers":
                for peer in node.peers():
                    table = peer.table
                    note = (_(" (table of {count}, {free} free)").format(
                        count=len(table["seats"]), free=peer.open_seats)
                        if table is not None else _(" (busy)") if peer.busy else "")
                    self.say(f"  {_label(peer)}{note}")
            elif verb == "invite" and len(words) > 1:
                pin = words[-1] if len(words) > 2 and words[-1].isdigit() else None
                target = " ".join(words[1:-1] if pin else words[1:])
                self.invite_sent = node.invite(target, pin=pin)
            elif verb in ("accept", "decline"):
                if not self.incoming:
                    self.say(_("no invitation to answer"))
                    return
                invite = self.incoming[-1]
                if verb == "accept":
                    node.accept(invite, pin=words[1] if len(words) > 1 else None)
                else:
                    node.decline(invite)
                self.incoming.remove(invite)
            elif verb == "notsame" and self.active is not None:
                node.leave(self.active, "the pairing words differed: someone may be in the "
                           "middle")
            elif verb == "again" and self.active is not None:
                node.start_next_game(self.active)
            elif verb == "start" and self.active is not None:
                node.start_table(self.active)
            elif verb == "join" and len(words) > 1:
                name, team = parse_join(words[1:])
                self.join_sent = node.join(name, team=team)
                if team != ANY_TEAM:
                    self.say(_("asking {name} for a seat in team {team}").format(
                        name=name, team=team))
            elif verb == "bot" and self.active is not None:
                seat = node.add_bot(self.active, words[1] if len(words) > 1 else "greedy")
                self.say(_("{name} takes a seat at the table").format(name=self.name_of(seat)))
            elif verb == "table":
                self.show_table()
            else:
                self.move(line)
        except (ValueError, RuntimeError) as exc:
            self.say(_("error: {reason}").format(reason=plain(say_error(exc))))

    def move(self, line: str) -> None:
        if self.active is None:
            self.say(_("no game in progress (type `help`)"))
            return
        view = self.node.view(self.active)
        if view is None or view.game is None:
            return
        action: Action
        if line.strip().isdigit():
            legal = view.game.legal_actions(view.seat)
            index = int(line) - 1
            if not legal:
                self.say(_("you have no move now: wait for the others"))
                return
            if not 0 <= index < len(legal):
                self.say(_("choose a move from 1 to {count}").format(count=len(legal)))
                return
            action = legal[index]
        else:
            try:
                action = parse_action(f"{view.seat} {line}")
            except ValueError:  # the engine's notation error is English: say ours
                self.say(_("not a move: `{line}` (type `help` for the moves, or a move's "
                           "number from the table)").format(line=plain(line, 60)))
                return
        refused = view.refused.get(str(action))
        if refused is not None:
            # The host's reason: a sentence of the rules engine is said in our words; any
            # other is the host's program's own, quoted (its program may not be ours).
            said = Rule(refused) if match_reason(refused) is not None else Theirs(refused)
            self.say(_("illegal: {reason}").format(reason=self.said(
                self.active, Note.of("refused_saying", seat=Seat(0), reason=said), "")))
            return
        try:
            self.node.act(self.active, action)
        except IllegalAction as exc:
            self.say(_("illegal: {reason}").format(reason=self.rule(exc.reason)))

#: Which method of :class:`Peer` shows each kind of event: one table, checked against
#: :data:`~durak_net.events.NetEvent` (a kind missing here is missing on purpose:
#: :data:`QUIET`).
HANDLERS: dict[type, str] = {
    ev.PeerSeen: "on_peer_seen",
    ev.PeerGone: "on_peer_gone",
    ev.InviteReceived: "on_invite_received",
    ev.InviteClosed: "on_invite_closed",
    ev.SessionAgreed: "on_session_agreed",
    ev.SeatTaken: "on_seat_taken",
    ev.TableChanged: "on_table_changed",
    ev.SeatStatus: "on_seat_status",
    ev.GameStarted: "on_game_started",
    ev.ActionApplied: "on_action_applied",
    ev.ActionRefused: "on_action_refused",
    ev.GameFinished: "game_finished",
    ev.GameStopped: "on_game_stopped",
    ev.GameAudited: "game_audited",
    ev.NextGameRequested: "on_next_game_requested",
    ev.PeerLost: "on_peer_lost",
    ev.PeerBack: "on_peer_back",
    ev.DesyncDetected: "on_problem",
    ev.ProtocolViolation: "on_problem",
    ev.SessionClosed: "on_session_closed",
}
#: Kinds of event the terminal does not show: a host's join requests are answered by
#: its node, cards revealed and the other seats' refusals show in the next table drawn,
#: and ``--invite NAME`` asks the node itself whether the name has settled (SETTLE).
QUIET: frozenset[type] = frozenset({ev.JoinRequested, ev.CardsRevealed,
                                    ev.PeerActionRefused, ev.NameSettled})


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``durak-lan`` and ``python -m durak_net``.

    The language is chosen first (``--lang``, else the environment), so that ``--help``
    and a bad command line read in it too (:mod:`durak_net.usage`)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        i18n.use(language_asked(argv))
    except ValueError:  # not a language: the environment's, and the check below says so
        i18n.use(None)
    with argparse_speaks(i18n.current()):
        args = build_parser().parse_args(argv)
    try:
        if args.lang is not None and not _is_language(args.lang):
            raise ValueError(_("--lang takes a language code such as ru or en, not "
                               "{value}").format(value=repr(args.lang)))
        for target in args.connect:
            from .node import parse_hostport  # here, not at the top: see the imports

            parse_hostport(target)
        if args.host is not None and not 2 <= args.host <= 6:
            raise ValueError(_("--host takes 2 to 6 seats, not {count}").format(
                count=args.host))
        check_args(args)
        if args.journal:
            private_folder(Path(args.journal))
        online_terminal.check_args(args)
        i18n.use(args.lang)
    except (ValueError, OSError) as exc:
        print(f"durak-lan: {say_error(exc)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        peer = Peer(args, sys.stdout, sys.stderr)
    except OSError as exc:
        print("durak-lan: " + _("cannot open a UDP socket: {reason}").format(reason=exc),
              file=sys.stderr)
        return EXIT_USAGE
    except ValueError as exc:
        print(f"durak-lan: {say_error(exc)}", file=sys.stderr)
        return EXIT_USAGE
    return peer.run()


def _is_language(lang: str) -> bool:
    try:
        i18n.normalize(lang)
    except ValueError:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())
