"""How long a table's hidden-hand deal takes, and how long a move takes to reach every
seat, at tables of 2 to 6 seats.

Everything runs in this one process, over a simulated LAN, but as if every seat were a
machine of its own: each seat's session is a sans-I/O :class:`~durak_net.session.Session`
(the host's made with ``Session.host_table``, the others seated by it, as
``tests/net/tables.py`` does), and a small event loop (:class:`Machines`) carries the
datagrams between them with a random one-way delay (``--delay``, by default 0.2 to 1 ms,
a switched wired LAN with the operating system's UDP stack on both ends).  The time a
seat's session spends working on a datagram (or a timer, or its bot's move) is measured
as CPU time of this thread (``time.thread_time``, so that other programs sharing the
cores disturb it less) and charged to that seat's simulated clock: a seat is busy for
that long, and what it sends leaves when it is done.  Seats work in parallel, as
separate machines do; a seat that is busy holds what arrives until it is free.  Each
seat writes its session's journal (write-ahead, before sending) to a temporary folder,
as a notebook's node does by default (``--no-journal``: none).

Figures:

* **deal**: from the host's ``start`` (every seat seated) until every seat holds its
  dealt game (``GameStarted``: its hand, the trump, the first attacker; the whole
  mental-poker deal: 2N-1 passes of the deck through the host, every seat's keys, the
  lowest-trump rounds).  Shown for every size with a **network only** column (the same
  seeded deal with no CPU charged: what the round trips alone cost), the **CPU** of all
  seats together (the work, as if on one core) and of the busiest seat, and the ratio
  of the deal to the two-seat deal of the same deck measured in the same process;
* **move latency** at a table of four: from a log entry applied at the host (its own
  move, or a seat's proposal accepted) until it is applied at *every* seat (the
  slowest), and until it is applied at one seat (each seat separately), p50 and p99,
  at 0% and 20% loss (each datagram dropped with that chance, both ways).  Also the
  CPU time of handling one entry at the host and at a seat, and a **seated player's
  move** from its bot's act until it is applied at every seat: the whole way of a
  proposal (commitment, the host's order, the opening, the entry).  Bots play every
  seat (random), waiting ``--think`` seconds of simulated time before each move.

Usage::

    python benchmarks/net_table.py                       # everything (a few minutes)
    python benchmarks/net_table.py --only deal --runs 3 --seats 6 --decks 52
    python benchmarks/net_table.py --only latency --games 10 --loss 0 0.2
    python benchmarks/net_table.py --delay 1 5           # a Wi-Fi-like link
    python benchmarks/net_table.py --profile 6 52        # where a deal's CPU goes
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import heapq
import io
import itertools
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from durak_core import COMPILED, IllegalAction, Rules  # noqa: E402
from durak_core.bots import RandomBot  # noqa: E402
from durak_net import events as ev  # noqa: E402
from durak_net import primitives  # noqa: E402
from durak_net.botplay import BotDriver  # noqa: E402
from durak_net.journal import Journal  # noqa: E402
from durak_net.session import Role, Session, SessionConfig  # noqa: E402

Addr = tuple[str, int]
BAD = (ev.DesyncDetected, ev.ProtocolViolation, ev.GameStopped)


def seat_addr(seat: int) -> Addr:
    return (f"10.77.2.{seat + 1}", 42000 + seat)


@dataclass
class Machine:
    """One seat's computer: its session, its bot, when it is next free, its CPU spent."""

    seat: int
    session: Session
    driver: BotDriver | None = None
    #: Where its session's records go before anything is sent (as a notebook's node does).
    journal: Journal | None = None
    free_at: float = 0.0
    cpu: float = 0.0
    #: What the bot last looked at (it is asked again only when this changes).
    seen: tuple[int, int, int, bool] = (-1, -1, -1, False)
    act_due: bool = False
    #: CPU spent in the current piece of work that is not the protocol's (the bot's choice).
    uncharged: float = 0.0
    #: (stamp, event) for every event, stamped with the end of the work that made it.
    events: list[tuple[float, Any]] = field(default_factory=list)
    #: CPU of each piece of work that applied a log entry: (game, index, seconds).
    entry_cpu: list[tuple[int, int, float]] = field(default_factory=list)
    #: Each move its bot made: (when, the action's text).
    acts: list[tuple[float, str]] = field(default_factory=list)


class Machines:
    """A simulated LAN between seats that are separate machines (see the module doc).

    ``charge``: False runs the same protocol with no CPU time charged (the network's
    share alone).  Deterministic for a seed when ``charge`` is False; with it, the
    measured CPU times move the schedule a little from run to run.
    """

    def __init__(self, seed: int, *, delay: tuple[float, float], loss: float = 0.0,
                 charge: bool = True, think: float = 0.0,
                 journal_dir: Path | None = None) -> None:
        self.rng = random.Random(seed)
        self.journal_dir = journal_dir
        self.delay = delay
        self.loss = loss
        self.charge = charge
        self.think = think
        self.now = 0.0
        self.machines: dict[Addr, Machine] = {}
        self._queue: list[tuple[float, int, Addr, str, bytes, Addr]] = []
        self._order = itertools.count()
        self.sent = 0
        self.lost = 0
        self.games_wanted = 0  # agree to rematches up to this game number

    def add(self, addr: Addr, machine: Machine) -> None:
        if self.journal_dir is not None:
            machine.journal = Journal.create(self.journal_dir, machine.session.table,
                                             machine.seat)
        self.machines[addr] = machine

    def close(self) -> None:
        for machine in self.machines.values():
            if machine.journal is not None:
                machine.journal.close()

    def _push(self, at: float, target: Addr, kind: str, data: bytes = b"",
              src: Addr = ("", 0)) -> None:
        heapq.heappush(self._queue, (at, next(self._order), target, kind, data, src))

    def work(self, addr: Addr, at: float, job: Callable[[float], None]) -> None:
        """Let ``addr``'s seat do ``job`` at ``at`` (or when it is next free), charge its
        CPU time, send what it produced and collect its events."""
        machine = self.machines[addr]
        session = machine.session
        start = max(at, machine.free_at)
        self.now = max(self.now, start)
        began = time.thread_time()
        job(start)
        found = session.events()
        for event in found:
            if (isinstance(event, ev.GameAudited) and event.game < self.games_wanted
                    and not session.in_game and not session.closing):
                session.start_next_game(start, event.game + 1)
        found += session.events()
        records = session.journal_records()
        if machine.journal is not None:
            machine.journal.write(records)  # write-ahead, as the node does
        # The events happened before the datagrams are sealed: sending is part of a
        # move's way to the other seats, not of applying it here.
        applied = max(0.0, time.thread_time() - began - machine.uncharged)
        out = session.datagrams_to_send(start)
        cpu = max(0.0, time.thread_time() - began - machine.uncharged)
        machine.uncharged = 0.0
        machine.cpu += cpu
        stamp = start + (applied if self.charge else 0.0)
        end = start + (cpu if self.charge else 0.0)
        machine.free_at = end
        for event in found:
            machine.events.append((stamp, event))
            if isinstance(event, ev.ActionApplied):
                machine.entry_cpu.append((event.game, event.index, cpu))
        for data, dst in out:
            self._send(data, addr, dst, end)
        if machine.driver is not None and not machine.act_due:
            state = (session.game_no, len(session.log), len(session.pending),
                     session.waiting_for_cards)
            if state != machine.seen:
                machine.seen = state
                machine.act_due = True
                self._push(end + self.think, addr, "act")

    def _send(self, data: bytes, src: Addr, dst: Addr, at: float) -> None:
        self.sent += 1
        if self.rng.random() < self.loss:
            self.lost += 1
            return
        self._push(at + self.rng.uniform(*self.delay), dst, "data", data, src)

    def _bot_moves(self, addr: Addr, now: float) -> None:
        machine = self.machines[addr]
        machine.act_due = False
        assert machine.driver is not None
        for _ in range(200):
            # The bot's choice is not the protocol's cost: it is left out of the CPU.
            thinking = time.thread_time()
            action = machine.driver.choose(machine.session)
            machine.uncharged += time.thread_time() - thinking
            if action is None:
                return
            try:
                machine.session.act(action, now)
            except IllegalAction:
                return
            machine.acts.append((now, str(action)))

    def run(self, until: Callable[[], bool], limit: float) -> bool:
        """Process deliveries, timers and bot moves in time order until ``until()``
        holds (True) or simulated time passes ``limit`` (False)."""
        while not until():
            t_queue = self._queue[0][0] if self._queue else float("inf")
            t_timer, timer_addr = float("inf"), None
            for addr, machine in self.machines.items():
                due = machine.session.next_timer()
                if due is not None and max(due, machine.free_at) < t_timer:
                    t_timer, timer_addr = max(due, machine.free_at), addr
            if min(t_queue, t_timer) > limit:
                return False
            if t_queue <= t_timer:
                at, _, target, kind, data, src = heapq.heappop(self._queue)
                machine = self.machines[target]
                if machine.free_at > at:  # busy: it takes this in when it is done
                    self._push(machine.free_at, target, kind, data, src)
                    continue
                if kind == "act":
                    self.work(target, at, lambda now, t=target: self._bot_moves(t, now))
                else:
                    self.work(target, at,
                              lambda now, d=data, s=src, m=machine: m.session.receive(d, s, now))
            else:
                assert timer_addr is not None
                machine = self.machines[timer_addr]
                self.work(timer_addr, t_timer, machine.session.timer)
        return True


@contextlib.contextmanager
def simulated(seed: int, journal: bool, **options: Any) -> Iterator[Machines]:
    """A :class:`Machines` network; ``journal``: every seat journals to a temporary
    folder (deleted afterwards), as a notebook's node does by default."""
    with tempfile.TemporaryDirectory(prefix="durak-bench-") as folder:
        net = Machines(seed, journal_dir=Path(folder) if journal else None, **options)
        try:
            yield net
        finally:
            net.close()


def make_table(seed: int, rules: Rules, net: Machines, *, bots: bool) -> list[Machine]:
    """Seat ``rules.players`` players at a host's table over ``net`` (every seat said
    hello; play not started).  The pairing a lobby would do is skipped: the keys are
    made up here, as in tests/net/tables.py."""
    rng = random.Random(seed)
    table_id = rng.getrandbits(64) or 1
    config = SessionConfig()
    host = Session.host_table(table_id, rules, 0.0, name="Host", entropy=rng.randbytes,
                              config=config)
    machines = [Machine(0, host, BotDriver(RandomBot(seed * 10)) if bots else None)]
    net.add(seat_addr(0), machines[0])
    for s in range(1, rules.players):
        sid, key = rng.getrandbits(64) or 1, rng.randbytes(32)
        member = Session(sid, Role.FOLLOWER, key, rules, seat_addr(0), 0.0,
                         entropy=rng.randbytes, config=config, name=f"P{s}",
                         peer_name="Host", table=table_id, seat=s)
        net.work(seat_addr(0), 0.0, lambda now, sid=sid, key=key, s=s: host.seat_player(
            sid, key, seat_addr(s), s, f"P{s}", now))
        machine = Machine(s, member, BotDriver(RandomBot(seed * 10 + s)) if bots else None)
        machines.append(machine)
        net.add(seat_addr(s), machine)
        net.work(seat_addr(s), 0.0, lambda now: None)  # its Hello goes out
    if not net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0):
        raise SystemExit("the seats did not all say hello")
    return machines


def check(machines: list[Machine]) -> None:
    for machine in machines:
        for _, event in machine.events:
            if isinstance(event, BAD) or (isinstance(event, ev.GameAudited) and not event.fair):
                raise SystemExit(f"seat {machine.seat}: {event}")


# ------------------------------------------------------------------------ the deal


@dataclass
class Deal:
    time: float  # host's start until the last seat is dealt
    cpu_all: float  # CPU of every seat during the deal
    cpu_max: float  # CPU of the busiest seat


def one_deal(seed: int, players: int, deck: int, delay: tuple[float, float],
             charge: bool, journal: bool = True) -> Deal:
    with simulated(seed, journal, delay=delay, charge=charge) as net:
        return _deal(net, seed, players, deck)


def _deal(net: Machines, seed: int, players: int, deck: int) -> Deal:
    machines = make_table(seed, Rules(players=players, deck_size=deck), net, bots=False)
    host_addr = seat_addr(0)
    start_at = max(net.now, net.machines[host_addr].free_at)
    cpu_before = [m.cpu for m in machines]
    net.work(host_addr, start_at, machines[0].session.start)

    def dealt() -> bool:
        return all(any(isinstance(e, ev.GameStarted) for _, e in m.events) for m in machines)

    if not net.run(dealt, limit=start_at + 60.0):
        raise SystemExit(f"{players} seats, {deck} cards: not dealt within 60 s")
    check(machines)
    done = max(at for m in machines for at, e in m.events if isinstance(e, ev.GameStarted))
    spent = [m.cpu - before for m, before in zip(machines, cpu_before, strict=True)]
    return Deal(done - start_at, sum(spent), max(spent))


def bench_deals(sizes: list[int], decks: list[int], runs: int,
                delay: tuple[float, float], journal: bool) -> None:
    print(f"\nthe deal: {runs} seeded runs per row, one-way delay {delay[0] * 1000:g}-"
          f"{delay[1] * 1000:g} ms, {'journals' if journal else 'no journals'}; "
          "times in ms (median / worst)")
    print(f"{'seats':>5} {'cards':>5}  {'deal':>15}  {'network only':>15}  "
          f"{'CPU all seats':>15}  {'CPU busiest':>15}  {'x 2 seats':>9}")
    one_deal(99, 2, 36, delay, True)  # warm-up: the card points are computed once
    baseline: dict[int, float] = {}
    for deck in decks:
        for players in sorted({2, *sizes}):
            if players * 6 > deck:
                continue
            seeds = range(1, runs + 1)
            charged = [one_deal(seed, players, deck, delay, True, journal) for seed in seeds]
            bare = [one_deal(seed, players, deck, delay, False, journal) for seed in seeds]

            def cell(values: list[float]) -> str:
                ms = [v * 1000 for v in values]
                return f"{statistics.median(ms):>7.1f} /{max(ms):>6.1f}"

            median = statistics.median(d.time for d in charged)
            if players == 2:
                baseline[deck] = median
            ratio = median / baseline[deck] if deck in baseline else float("nan")
            print(f"{players:>5} {deck:>5}  {cell([d.time for d in charged])}  "
                  f"{cell([d.time for d in bare])}  {cell([d.cpu_all for d in charged])}  "
                  f"{cell([d.cpu_max for d in charged])}  {ratio:>8.2f}x")


def profile_deal(players: int, deck: int, delay: tuple[float, float]) -> None:
    """Where the CPU of one deal goes (all seats, one process)."""
    one_deal(99, 2, 36, delay, True)
    profiler = cProfile.Profile()
    profiler.enable()
    one_deal(1, players, deck, delay, False)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats("tottime").print_stats(20)
    print(f"\nprofile of one {players}-seat {deck}-card deal, no CPU charged (every seat, the "
          "seating included, and this script's event loop):")
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip()))


# ------------------------------------------------------------------- move latency


@dataclass
class Latency:
    every: list[float] = field(default_factory=list)  # host applied -> all seats applied
    one: list[float] = field(default_factory=list)  # host applied -> one seat applied
    #: a seated player's move: its bot acts -> applied at every seat (the proposal's way)
    proposed: list[float] = field(default_factory=list)
    host_cpu: list[float] = field(default_factory=list)
    seat_cpu: list[float] = field(default_factory=list)
    moves: int = 0


def latency(games: int, players: int, deck: int, loss: float, delay: tuple[float, float],
            think: float, charge: bool, journal: bool = True, seed: int = 1) -> Latency:
    with simulated(seed, journal, delay=delay, loss=loss, charge=charge, think=think) as net:
        return _latency(net, seed, games, players, deck, loss)


def _latency(net: Machines, seed: int, games: int, players: int, deck: int,
             loss: float) -> Latency:
    net.games_wanted = games
    machines = make_table(seed, Rules(players=players, deck_size=deck), net, bots=True)
    net.work(seat_addr(0), max(net.now, machines[0].free_at), machines[0].session.start)

    def done() -> bool:
        return all(sum(isinstance(e, ev.GameAudited) for _, e in m.events) >= games
                   for m in machines)

    if not net.run(done, limit=net.now + 600.0 * games):
        raise SystemExit(f"{games} games at {loss:.0%} loss did not finish")
    check(machines)
    applied = [{(e.game, e.index): at for at, e in m.events if isinstance(e, ev.ActionApplied)}
               for m in machines]
    out = Latency()
    for key, at in applied[0].items():
        there = [seat[key] - at for seat in applied[1:] if key in seat]
        if len(there) == players - 1:
            out.every.append(max(there))
            out.one += there
    out.moves = len(out.every)
    for machine in machines[1:]:
        # Each move a seated player's bot made, to the first entry of that move applied
        # at this seat after it (and before its next move: a refused one has none).
        own = sorted((at, e.game, e.index, str(e.action)) for at, e in machine.events
                     if isinstance(e, ev.ActionApplied) and e.by_me and not e.forced)
        acts = sorted(machine.acts)
        for i, (acted, text) in enumerate(acts):
            until = acts[i + 1][0] if i + 1 < len(acts) else float("inf")
            hit = next(((g, x) for at, g, x, t in own if acted <= at <= until and t == text),
                       None)
            if hit is not None and all(hit in seat for seat in applied):
                out.proposed.append(max(seat[hit] for seat in applied) - acted)
    out.host_cpu = [c for _, _, c in machines[0].entry_cpu]
    out.seat_cpu = [c for m in machines[1:] for _, _, c in m.entry_cpu]
    return out


class Collections:
    """Pauses of Python's garbage collector (full, generation 2) while it is watched:
    this one process holds every seat's sessions, so a pause here stops all seats."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.thread_time()
        elif info["generation"] == 2:
            self.pauses.append(time.thread_time() - self._began)

    def __enter__(self) -> Collections:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_latency(games: int, losses: list[float], delay: tuple[float, float],
                  think: float, journal: bool) -> None:
    players, deck = 4, 36
    print(f"\nmove latency at a table of {players} ({deck} cards): {games} random-bot games "
          f"per row, think {think * 1000:g} ms, one-way delay {delay[0] * 1000:g}-"
          f"{delay[1] * 1000:g} ms, {'journals' if journal else 'no journals'}; times in ms")
    print(f"{'loss':>5}  {'measure':<34} {'n':>6} {'p50':>8} {'p99':>8} {'max':>8}")
    for loss in losses:
        with Collections() as collections:
            charged = latency(games, players, deck, loss, delay, think, True, journal)
        bare = latency(games, players, deck, loss, delay, think, False, journal)
        pair = latency(games, 2, deck, loss, delay, think, True, journal)
        rows = [
            ("host applied -> every seat", charged.every),
            ("host applied -> one seat", charged.one),
            ("seat's move: act -> every seat", charged.proposed),
            ("  network only: -> every seat", bare.every),
            ("  CPU per entry at the host", charged.host_cpu),
            ("  CPU per entry at a seat", charged.seat_cpu),
            ("  2 seats: host applied -> seat 1", pair.one),
        ]
        for name, values in rows:
            ms = [v * 1000 for v in values]
            print(f"{loss:>5.0%}  {name:<34} {len(ms):>6} {statistics.median(ms):>8.3f} "
                  f"{percentile(ms, 0.99):>8.3f} {max(ms):>8.3f}")
        pauses = collections.pauses
        print(f"{loss:>5.0%}  full garbage collections in the 4-seat run: {len(pauses)}, "
              f"longest {max(pauses, default=0.0) * 1000:.1f} ms")
        base = statistics.median(pair.one)
        print(f"{loss:>5.0%}  p50 against 2 seats: every seat "
              f"{statistics.median(charged.every) / base:.2f}x, one seat "
              f"{statistics.median(charged.one) / base:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["deal", "latency"])
    parser.add_argument("--runs", type=int, default=7, help="seeded deals per row")
    parser.add_argument("--seats", type=int, nargs="*", default=[3, 4, 6])
    parser.add_argument("--decks", type=int, nargs="*", default=[36, 52])
    parser.add_argument("--games", type=int, default=20, help="games per latency row")
    parser.add_argument("--loss", type=float, nargs="*", default=[0.0, 0.2])
    parser.add_argument("--think", type=float, default=0.002, help="seconds before a bot move")
    parser.add_argument("--delay", type=float, nargs=2, default=[0.2, 1.0],
                        metavar=("LO", "HI"), help="one-way delay range in ms")
    parser.add_argument("--no-journal", dest="journal", action="store_false",
                        help="seats keep no journal (by default each writes one, as a "
                             "notebook does, to a temporary folder)")
    parser.add_argument("--profile", type=int, nargs=2, metavar=("SEATS", "CARDS"))
    args = parser.parse_args()
    delay = (args.delay[0] / 1000, args.delay[1] / 1000)
    # Each seat stands for a machine of its own: it pays for every signature it checks,
    # though another seat in this process checked the same bytes just before.
    primitives.REMEMBER_VERIFIED = False
    print(f"python {sys.version.split()[0]}, durak_core "
          f"{'compiled (mypyc)' if COMPILED else 'pure Python'}; in memory, every seat "
          "charged its own CPU (thread time) as a machine of its own")
    if args.profile:
        profile_deal(args.profile[0], args.profile[1], delay)
        return
    if args.only in (None, "deal"):
        bench_deals(args.seats, args.decks, args.runs, delay, args.journal)
    if args.only in (None, "latency"):
        bench_latency(args.games, args.loss, delay, args.think, args.journal)


if __name__ == "__main__":
    main()
