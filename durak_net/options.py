"""A LAN peer's settings, listed and checked once for the terminal and the notebook.

``durak-lan`` (:mod:`durak_net.cli`) and ``lan()`` (:mod:`durak_widgets.lan`) offer the
same settings under their own spellings (``--add-bot`` and ``add_bots=``); each builds a
:class:`LanOptions` and calls :meth:`LanOptions.check`, which refuses what neither may
do with one sentence naming the setting as that front end spells it
(:data:`TERMINAL`, :data:`NOTEBOOK`).  So a rule added here holds in both.

>>> LanOptions("Ann", port=70000).check(TERMINAL)
Traceback (most recent call last):
...
ValueError: --port must be a UDP port number from 0 to 65535, not 70000
>>> LanOptions("Ann", clock=30).check(NOTEBOOK)
Traceback (most recent call last):
...
ValueError: clock is for a table you host: lan(table=Rules(players=N), ...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from durak_core import Rules

from .botplay import build_bot
from .crypto import normalise_pin
from .i18n import N_, _, current, n_, normalize, said_and, speaking
from .policy import LobbyPolicy
from .teams import ANY_TEAM
from .text import NAME_LIMIT
from .usage import say_error
from .wire import DISCOVERY_PORT

#: How the terminal spells the settings (the rest: ``--`` and the name, ``-`` for ``_``).
TERMINAL: Mapping[str, str] = {
    "table": "--host", "add_bots": "--add-bot", "journal_dir": "--journal",
    "host_example": "--host SEATS", "join_example": "--join NAME --team K",
    "auto_start": N_("--bot (a headless host deals at once)"),
}
#: How ``lan()`` spells them (the rest: the keyword itself).
NOTEBOOK: Mapping[str, str] = {
    "host_example": "lan(table=Rules(players=N), ...)",
    "join_example": "lan(join=NAME, team=K)",
}


def _spelling(spell: Mapping[str, str], terminal: bool) -> dict[str, str]:
    names = ("name", "connect", "rules", "port", "game_port", "loss", "seed", "journal_dir",
             "pin", "auto_accept", "invite", "join", "team", "table", "clock", "grace",
             "add_bots", "auto_start", "bot", "host_example", "join_example")
    default = {n: ("--" + n.replace("_", "-")) if terminal else n for n in names}
    return {**default, **spell}


@dataclass(frozen=True)
class LanOptions:
    """Everything a LAN peer is started with (see the module docstring)."""

    #: The name the other players see (1 to 40 characters).
    name: str
    #: Peers' ``HOST:PORT`` (their game ports) to announce ourselves to directly, where
    #: broadcasts do not reach.
    connect: tuple[str, ...] = ()
    #: The rules we invite with (an invitation is a game of two).
    rules: Rules = field(default_factory=Rules)
    #: The UDP discovery port shared by every peer (0: no discovery, only ``connect``).
    port: int = DISCOVERY_PORT
    #: This peer's own UDP port (0: any free port).
    game_port: int = 0
    #: Share of outgoing datagrams dropped on purpose (demos and tests), below 1.
    loss: float = 0.0
    #: Seed of our bot and of the dropped datagrams (None: unseeded).
    seed: int | None = None
    #: Where session journals go, for resuming (None: no journal).
    journal_dir: Path | None = None
    #: The PIN ``invite`` asks for and ``auto_accept`` answers with.
    pin: str | None = None
    #: Accept invitations at once (bots, demos, tests).
    auto_accept: bool = False
    #: Invite the peer seen with this name (or ``HOST:PORT``, or its id).
    invite: str | None = None
    #: Ask the peer of this name for a seat at the table it hosts.
    join: str | None = None
    #: With ``join``, at a table of teams: the team to sit in (``ANY_TEAM``: any seat).
    team: int = ANY_TEAM
    #: Host a table with these rules (we sit at seat 0); None: host none.
    table: Rules | None = None
    #: With ``table``: seconds each seat has for a move (0: no clock), and seconds a lost
    #: seat is waited for before a bot may take it over (both 0 to 3600).
    clock: int = 0
    grace: int = 60
    #: With ``table``: bots of ours seated at once (``random``, ``greedy``, ``ismcts``).
    add_bots: tuple[str, ...] = ()
    #: With ``table``: deal as soon as every seat is taken.
    auto_start: bool = False
    #: A bot that plays our seat (None: the person plays).
    bot: str | None = None
    #: The language of the words (None: the environment's).
    lang: str | None = None

    def check(self, spell: Mapping[str, str] = NOTEBOOK) -> None:
        """Refuse settings that cannot work together, naming them as ``spell`` does
        (:data:`TERMINAL` or :data:`NOTEBOOK`): ``ValueError`` (``TypeError`` for a
        ``table`` that is not rules), in the language of these settings (``lang``; None:
        the one in force), for the person who gave them: the notebook's ``lan()`` raises
        it as it is, ``durak-lan`` prints it."""
        with speaking(normalize(self.lang) if self.lang is not None else current()):
            try:
                self._check(spell)
            except ValueError as error:  # a part's or the core's (a PIN, a bot): these words
                raise ValueError(say_error(error)) from None

    def _check(self, spell: Mapping[str, str]) -> None:
        s = {key: _(text) for key, text in _spelling(spell, spell is TERMINAL).items()}
        name = " ".join(self.name.split())
        if not 1 <= len(name) <= NAME_LIMIT:
            raise ValueError(_("{option} must have 1 to {limit} characters, not {count}").format(
                option=s["name"], limit=NAME_LIMIT, count=len(name)))
        for key, port in (("port", self.port), ("game_port", self.game_port)):
            if not 0 <= port <= 65535:
                raise ValueError(_("{option} must be a UDP port number from 0 to 65535, not "
                                   "{port}").format(option=s[key], port=port))
        if not 0.0 <= self.loss < 1.0:
            raise ValueError(_("{option} must be at least 0 and below 1, not {value}").format(
                option=s["loss"], value=repr(self.loss)))
        if self.table is not None and not isinstance(self.table, Rules):
            raise TypeError(_("table takes durak_core.Rules, e.g. table=Rules(players=4), "
                              "not {value}").format(value=repr(self.table)))
        players = self.rules.players
        if players != 2:
            raise ValueError(_("an invitation is for 2 players, not {count}: host a table of "
                               "{count} ({example})").format(count=players,
                                                              example=s["host_example"]))
        hosting = [s[k] for k, on in (("add_bots", bool(self.add_bots)),
                                      ("auto_start", self.auto_start),
                                      ("clock", bool(self.clock))) if on]
        if self.table is None and hosting:
            raise ValueError(n_("{options} is for a table you host: {example}",
                                "{options} are for a table you host: {example}",
                                len(hosting)).format(options=said_and(hosting),
                                                     example=s["host_example"]))
        if self.team != ANY_TEAM and self.join is None:
            raise ValueError(_("{option} is for joining a table of teams: {example}").format(
                option=s["team"], example=s["join_example"]))
        if (isinstance(self.team, bool) or not isinstance(self.team, int)
                or not ANY_TEAM <= self.team <= 2):
            raise ValueError(_("{option} is 0, 1 or 2 (or {any}: any seat), not {value}").format(
                option=s["team"], any=ANY_TEAM, value=repr(self.team)))
        if sum(x is not None for x in (self.table, self.join, self.invite)) > 1:
            raise ValueError(_("choose one of {options}").format(
                options=said_and([s["table"], s["join"], s["invite"]])))
        if self.table is not None and self.auto_accept:
            raise ValueError(_("a host does not accept invitations ({option}): its table is "
                               "announced and players join it").format(option=s["auto_accept"]))
        if not 0 <= self.clock <= 3600 or not 0 <= self.grace <= 3600:
            raise ValueError(_("{clock} and {grace} are 0 to 3600 seconds").format(
                clock=s["clock"], grace=s["grace"]))
        if self.table is not None and len(self.add_bots) > self.table.players - 1:
            raise ValueError(_("{count} bots do not fit the {free} free seats").format(
                count=len(self.add_bots), free=self.table.players - 1))
        for spec in (*self.add_bots, *([self.bot] if self.bot else [])):
            build_bot(spec)  # ValueError naming the bots there are
        if self.pin is not None:
            normalise_pin(self.pin)

    def policy(self) -> LobbyPolicy:
        """The lobby's automatic answers these settings ask for."""
        return LobbyPolicy(auto_accept=self.auto_accept, pin=self.pin)
