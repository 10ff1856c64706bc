"""Wiring for table tests: a host and N-1 seated players over a simulated link, bots in
every seat.

The host's session is made with :meth:`Session.host_table`; each player pairs with the
host (here: a key made up by the test, as the lobby would have agreed) and joins with
its seat; the host seats it.  Everything runs in simulated time, seeded.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from durak_core import Rules
from durak_core.bots import RandomBot
from durak_net import events as ev
from durak_net.botplay import BotDriver
from durak_net.seats import seat_view
from durak_net.session import Role, Session, SessionConfig
from durak_net.simlink import SimNet
from durak_net.wire import Deal

from .helpers import FAST, Side


def seat_addr(seat: int) -> tuple[str, int]:
    return (f"10.77.1.{seat + 1}", 41000 + seat)


@dataclass
class StandInView:
    """What a bot needs to play a lost seat at the host (the host's view knows its open
    hand)."""

    host: Session
    seat: int

    @property
    def game(self):  # type: ignore[no-untyped-def]
        return seat_view(self.host.game, self.seat) if self.host.game is not None else None

    @property
    def game_no(self) -> int:
        return self.host.game_no

    @property
    def in_game(self) -> bool:
        return self.host.in_game

    pending: dict[int, Any] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)

    @property
    def waiting_for_cards(self) -> bool:
        game = self.host.game
        return game is not None and game.unknown_count(self.seat) > 0


@dataclass
class Table:
    net: SimNet
    seats: list[Side]
    games_wanted: int = 1
    #: Bots the host runs for lost seats (as LanNode does), by seat.
    stand_ins: dict[int, BotDriver] = field(default_factory=dict)
    #: Each seat's address, in seat order.
    addrs: list[tuple[str, int]] = field(init=False)

    def __post_init__(self) -> None:
        self.addrs = [seat_addr(s.session.seat) for s in self.seats]

    @property
    def host(self) -> Session:
        return self.seats[0].session

    def done(self) -> bool:
        return all(len(s.finished) >= self.games_wanted and len(s.audited) >= self.games_wanted
                   for s in self.seats)

    def bad(self) -> list[Any]:
        return [e for s in self.seats for e in s.bad()]

    def restart(self, seat: int) -> Session:
        """Seat ``seat``'s kernel restarts: a session restored from its journal, on the
        same address, with nothing of the old one's events seen."""
        side = self.seats[seat]
        side.session = Session.restore(side.journal, self.net.now, config=FAST)
        side.seen = ()
        self.net.add(seat_addr(seat), side.session)
        return side.session

    def fair_log(self, game: int = 1) -> list[Any]:
        """Game ``game``'s log, after checking that every seat has the same one and that
        the first audit found the game fair."""
        log = self.host.logs[game]
        for s in self.seats:
            assert s.session.logs[game] == log
            assert s.audited[0].fair, s.audited[0]
        return log


def make_table(seed: int, rules: Rules, *, loss: float = 0.0, duplicate: float = 0.0,
               delay: tuple[float, float] = (0.0002, 0.002), bots: bool = True,
               games: int = 1, config: SessionConfig = FAST, start: bool = True,
               clock: int = 0, grace: int = 60, idle: tuple[int, ...] = (),
               direct: bool = True) -> Table:
    """A table of ``rules.players`` seats, every seat taken and (``start``) play begun.
    ``bots``: a bot plays every seat but those in ``idle``.  ``direct=False``: as over
    channels, no seat gives an address, so the seats hear each other only through the
    host (no heartbeats between them)."""
    rng = random.Random(seed)
    net = SimNet(random.Random(seed ^ 0x7AB1E), loss=loss, duplicate=duplicate, delay=delay)
    n = rules.players
    table_id = rng.getrandbits(64) or 1
    host = Session.host_table(table_id, rules, 0.0, name="Host", entropy=rng.randbytes,
                              config=config, clock=clock, grace=grace)
    seats = [Side(host, BotDriver(RandomBot(seed * 10)) if bots and 0 not in idle else None)]
    for s in range(1, n):
        sid, key = rng.getrandbits(64) or 1, rng.randbytes(32)
        member = Session(sid, Role.FOLLOWER, key, rules, seat_addr(0), 0.0, entropy=rng.randbytes,
                         config=config, name=f"P{s}", peer_name="Host", table=table_id, seat=s,
                         own_addr=seat_addr(s) if direct else None)
        host.seat_player(sid, key, seat_addr(s), s, f"P{s}", 0.0)
        net.add(seat_addr(s), member)
        seats.append(Side(member, BotDriver(RandomBot(seed * 10 + s))
                          if bots and s not in idle else None))
    net.add(seat_addr(0), host)
    table = Table(net, seats, games)

    def hook(now: float) -> None:
        drive(table, now)

    net.hooks.append(hook)
    net.touching.add(hook)  # drive() touches every session it acts on
    if start:
        assert net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
        host.start(net.now)
    return table


def drive(table: Table, now: float) -> None:
    """After every simulated step: collect events, agree to rematches, let the bots move
    (and the host's stand-in bots, for seats handed over).

    Only the seats the network says may have changed (:attr:`SimNet.touched`) are
    looked at: nothing else gives a seat events or its bot a move.  Every session this
    acts on is touched in turn (the network then flushes it, and it is looked at again
    after the next step, for the events of its moves)."""
    net = table.net
    touched = net.touched
    host = table.host
    host_addr = table.addrs[0]
    host_moved = False
    if touched is None or host_addr in touched:
        for lost in sorted(host.bots):
            if host.dealer is None or lost not in host.dealer.adopted:
                continue  # its hand is still being opened
            driver = table.stand_ins.setdefault(lost, BotDriver(RandomBot(7000 + lost)))
            for _ in range(50):
                action = driver.choose(StandInView(host, lost))
                if action is None or lost not in host.bots:
                    break
                host.play_for(lost, action, now)
                host_moved = True
        if host_moved:
            net.touch(host_addr)
    for seat, addr in zip(table.seats, table.addrs, strict=True):
        if touched is not None and addr not in touched and not (host_moved and addr == host_addr):
            continue
        session = seat.session
        for event in seat.collect():
            if (isinstance(event, ev.GameAudited) and len(seat.finished) < table.games_wanted
                    and not session.in_game and not session.closing):
                session.start_next_game(now, event.game + 1)
                net.touch(addr)
        if session is net.endpoints.get(addr) and seat.bot_moves(now):  # not vanished
            net.touch(addr)


def host_altering_seat2s_keys(seed: int, rules: Rules) -> tuple[Table, list[Deal]]:
    """A table (no bots) whose host passes seat 2's first batch of keys on to seat 1 with
    one key altered (the host signs nothing: it has only seat 2's signature over the
    real message), and the list that receives the altered frame once it is sent; the
    table is started."""
    table = make_table(seed, rules, bots=False, start=False)
    net, host = table.net, table.host
    assert net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    link = host.links[1]
    honest_push = link.push
    forged: list[Deal] = []

    def push(frame: Any, now: float) -> None:
        if (isinstance(frame, Deal) and frame.seat == 2 and not forged
                and frame.data[:8].find(b"keys") >= 0):
            data = bytearray(frame.data)
            data[-1] ^= 1
            frame = Deal(frame.seq, frame.game, 2, bytes(data), frame.sig)
            forged.append(frame)
        honest_push(frame, now)

    link.push = push  # type: ignore[method-assign]
    host.start(net.now)
    return table, forged
