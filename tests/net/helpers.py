"""Wiring for protocol tests: two sessions over a simulated link, driven by bots.

Each side holds only its seat's view; a pair is done when every game wanted is
finished and audited on both sides.

Everything runs in simulated time (:class:`durak_net.simlink.SimNet`), seeded, so a
failure replays exactly and nothing sleeps.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from durak_core import Rules
from durak_core.bots import RandomBot
from durak_net import entry_sig
from durak_net import events as ev
from durak_net.botplay import BotDriver
from durak_net.proposals import proposal_commit, proposal_signed, salt_for
from durak_net.reliable import RtoConfig
from durak_net.session import (
    DealerFactory,
    Role,
    Session,
    SessionConfig,
    deal_signed,
    mental_dealer,
)
from durak_net.simlink import SimNet
from durak_net.wire import Deal, Entry, Open, Propose

SEQ_ADDR = ("10.77.0.1", 40001)
FOL_ADDR = ("10.77.0.2", 40002)
BAD_EVENTS = (ev.DesyncDetected, ev.ProtocolViolation, ev.GameStopped)


@dataclass
class Side:
    """One peer of a simulated game (a side of a pair, a seat of a table): its session,
    bot and everything it reported."""

    session: Session
    driver: BotDriver | None
    events: list[Any] = field(default_factory=list)
    journal: list[dict[str, Any]] = field(default_factory=list)
    finished: list[ev.GameFinished] = field(default_factory=list)
    audited: list[ev.GameAudited] = field(default_factory=list)
    #: What the bot last looked at; it is only asked again when this changes (``()``
    #: after the session is swapped for a restored one).
    seen: tuple[Any, ...] = ()

    def bad(self) -> list[Any]:
        unfair = [e for e in self.events if isinstance(e, ev.GameAudited) and not e.fair]
        return [e for e in self.events if isinstance(e, BAD_EVENTS)] + unfair

    def collect(self) -> list[Any]:
        """Keep the session's new journal records and events; returns the new events."""
        self.journal += self.session.journal_records()
        new = self.session.events()
        for event in new:
            self.events.append(event)
            if isinstance(event, ev.GameFinished):
                self.finished.append(event)
            elif isinstance(event, ev.GameAudited):
                self.audited.append(event)
        return new

    def bot_moves(self, now: float) -> bool:
        """Let the bot make every move it has, if the session changed since it looked;
        True if it moved."""
        session = self.session
        state = (session.game_no, len(session.log), len(session.pending),
                 session.waiting_for_cards)
        if self.driver is None or state == self.seen:
            return False
        self.seen = state
        moved = False
        for _ in range(200):
            action = self.driver.choose(session)
            if action is None:
                break
            session.act(action, now)
            moved = True
        return moved


@dataclass
class Pair:
    net: SimNet
    seq: Side
    fol: Side
    games_wanted: int = 1

    @property
    def sides(self) -> tuple[Side, Side]:
        return self.seq, self.fol

    def done(self) -> bool:
        """Every game wanted is finished and audited on both sides."""
        return all(
            len(s.finished) >= self.games_wanted and len(s.audited) >= self.games_wanted
            for s in self.sides
        )


def make_pair(
    seed: int,
    *,
    rules: Rules | None = None,
    loss: float = 0.0,
    duplicate: float = 0.0,
    delay: tuple[float, float] = (0.0002, 0.002),
    bots: bool = True,
    games: int = 1,
    config: SessionConfig | None = None,
    seq_dealer: DealerFactory = mental_dealer,
    fol_dealer: DealerFactory = mental_dealer,
) -> Pair:
    """Two sessions (sequencer and follower) with the same key over a SimNet; a side's
    dealer may be swapped (a cheating one, say)."""
    rng = random.Random(seed)
    net = SimNet(random.Random(seed ^ 0x5EED), loss=loss, duplicate=duplicate, delay=delay)
    key = rng.randbytes(32)
    rules = rules or Rules()
    sid = rng.getrandbits(64)
    seq = Session(
        sid, Role.SEQUENCER, key, rules, FOL_ADDR, 0.0, entropy=rng.randbytes, config=config,
        dealer_factory=seq_dealer, name="Alice", peer_name="Bob",
    )
    fol = Session(
        sid, Role.FOLLOWER, key, rules, SEQ_ADDR, 0.0, entropy=rng.randbytes, config=config,
        dealer_factory=fol_dealer, name="Bob", peer_name="Alice",
    )
    net.add(SEQ_ADDR, seq)
    net.add(FOL_ADDR, fol)
    pair = Pair(
        net,
        Side(seq, BotDriver(RandomBot(seed * 2)) if bots else None),
        Side(fol, BotDriver(RandomBot(seed * 2 + 1)) if bots else None),
        games,
    )
    net.hooks.append(lambda now: drive(pair, now))
    return pair


def drive(pair: Pair, now: float) -> None:
    """After every simulated step: collect events, start rematches, let the bots move."""
    for side in pair.sides:
        for event in side.collect():
            if isinstance(event, ev.GameFinished) and len(side.finished) < pair.games_wanted:
                side.session.start_next_game(now)
        side.bot_moves(now)


def replace_session(
    pair: Pair, side: Side, make: Callable[[list[dict[str, Any]]], Session], addr: tuple[str, int]
) -> None:
    """Swap a side's session for a restored one at a new address (a restarted kernel)."""
    side.journal += side.session.journal_records()
    old = SEQ_ADDR if side is pair.seq else FOL_ADDR
    pair.net.remove(old)
    side.session = make(side.journal)
    pair.net.add(addr, side.session)


FAST = SessionConfig(rto=RtoConfig(initial=0.02, minimum=0.004, maximum=1.0))


def propose(session: Session, pid: int, action: str,
            reveals: list[tuple[int, bytes]] | None = None) -> list[Propose | Open]:
    """A proposal of ``session``'s seat as its own code makes one: the signed commitment
    and its opening (tests push both by hand, to play moves the bots would not; the host
    takes the opening once it has placed the commitment, which it does first)."""
    reveals = list(reveals or [])
    seen, seen_hash = session.game_log.head(session.game_no)
    salt = salt_for(session.identity.private, session.table, session.game_no, pid)
    commit = proposal_commit(salt, action, reveals)
    sig = session.identity.sign(*proposal_signed(session.table, session.game_no, session.seat,
                                                 pid, commit, seen, seen_hash))
    return [Propose(0, pid, session.game_no, commit, seen, seen_hash, sig),
            Open(0, pid, action, reveals, salt)]


def entry(game: int, index: int, action: str, digest: bytes, pid: int = 0,
          reveals: list[tuple[int, bytes]] | None = None, *,
          host: Session | None = None) -> Entry:
    """A host's entry for its own seat's action (no proposal to carry); signed by
    ``host`` (on its log's link hash before ``index``) as every entry must be, or not."""
    frame = Entry(0, game, index, action, digest, pid, list(reveals or []), 0, b"", b"")
    if host is None:
        return frame
    return entry_sig.sign(host.identity, host.table, frame, host.game_log.link(game, index))


def deal(session: Session, game: int, data: bytes) -> Deal:
    """A deal message of ``session``'s seat, signed."""
    sig = session.identity.sign(*deal_signed(session.table, game, session.seat, data))
    return Deal(0, game, session.seat, data, sig)
