"""Seats a host fills itself: bots that sit at a table we host, in this process.

A bot seat is an ordinary seated player, a :class:`~durak_net.session.Session` of its
own with its own seed and signing key, paired with the host's session by a key made
up here instead of over the network.  The two talk through the same authenticated
datagrams as any seat; the node hands them across in memory (addresses on the
pseudo-host :data:`LOCAL`).  So a bot at a table plays by exactly the protocol's rules,
and every seat sees it labelled ``"bot"``.

What it cannot be is secret from the host: the host's process holds the bot's seed, so
whoever runs the host could read the bot's cards.  The label says whose kernel it
runs in; a table that must not trust the host seats its bots elsewhere (a terminal
peer with ``--bot``).

No I/O and no threads here: :class:`~durak_net.peer.PeerCore` routes the datagrams and
hands the bots' thinking out as work (:class:`~durak_net.node.LanNode` runs it on its
worker).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from durak_core import Game

from .botplay import BotDriver, build_bot
from .crypto import Entropy, random_id
from .session import Role, Session, SessionConfig

#: The pseudo-host of in-process seats' addresses: ``(LOCAL, seat)``.
LOCAL = "local-seat"


def bot_name(spec: str) -> str:
    """How a bot seat is named at the table: ``"greedy bot"``."""
    return f"{spec.partition('?')[0]} bot"


def bot_spec(name: str) -> str:
    """The bot a seat's name says it is (``"greedy bot"`` -> ``"greedy"``)."""
    return name.removesuffix(" bot") or "random"


@dataclass
class LocalSeat:
    """A bot the host runs at one of its seats."""

    seat: int
    spec: str
    session: Session
    driver: BotDriver
    #: The session state the bot last looked at (it thinks again when it changes).
    seen: tuple[Any, ...] = field(default=())
    thinking: bool = False

    def state(self) -> tuple[Any, ...]:
        s = self.session
        return (s.game_no, len(s.log), tuple(s.pending), s.waiting_for_cards,
                tuple(sorted(s.refused)))


def open_bot_seat(host: Session, seat: int, spec: str, now: float, *, entropy: Entropy,
                  config: SessionConfig | None = None, seed: int | None = None
                  ) -> LocalSeat:
    """Seat a bot (``spec`` as for :func:`~durak_net.botplay.build_bot`) at ``seat`` of
    the table ``host`` hosts; ``ValueError`` for an unknown bot, ``SessionError`` if the
    seat is taken."""
    driver = BotDriver(build_bot(spec, seed=seed))
    sid, key = random_id(entropy), entropy(32)
    name = bot_name(spec)
    host.seat_player(sid, key, (LOCAL, seat), seat, name, now, kind="bot")
    member = Session(sid, Role.FOLLOWER, key, host.rules, (LOCAL, 0), now, entropy=entropy,
                     config=config, name=name, peer_name=host.name, table=host.table,
                     seat=seat)
    return LocalSeat(seat, spec, member, driver)


def seat_view(view: Game, seat: int) -> Game:
    """What ``seat`` knows, from another seat's view that knows its hand (the host's,
    once a lost seat's hand is open): its own cards and what every seat saw, never the
    viewer's hidden cards.  A stand-in bot decides on this."""
    viewer = view.viewer
    obs = view.observation(seat if viewer is None else viewer)
    obs["seat"] = seat
    obs["hand"] = [str(c) for c in view.hand(seat)]
    obs.pop("legal", None)
    obs.pop("unrevealed", None)
    if view.unknown_count(seat):
        obs["unrevealed"] = view.unknown_count(seat)
    return Game.from_observation(obs)


def restore_bot_seat(records: list[dict[str, Any]], now: float, *, entropy: Entropy,
                     config: SessionConfig | None = None) -> LocalSeat:
    """A bot seat resumed from its journal (with the host's, after a restart)."""
    session = Session.restore(records, now, entropy=entropy, config=config)
    spec = bot_spec(session.name)
    return LocalSeat(session.seat, spec, session, BotDriver(build_bot(spec)))
