"""Tournaments: round robin with duplicate deals, run on a pluggable executor.

Every group of bots (each pair by default, each N-subset for table games)
plays the same deals.  Each deal is played once per seat rotation (two
players: twice, seats swapped), so luck of the cards cancels out between
the bots of a group.  Deal and bot seeds derive from the tournament seed
alone, so a tournament gives the same games whatever the number of jobs or
the executor.

Work is cut into tasks (a group and some of its deals); a task runs in a
worker and returns its :class:`GameRecord` list.  An executor is anything
with ``run(fn, tasks)`` yielding results as they complete: in this process,
a local process pool, or a Dask cluster.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from durak_core import Rules

from .referee import BotSpec, GameRecord, Seat, make_seat, referee_game
from .stats import bradley_terry, wilson

T = TypeVar("T")
R = TypeVar("R")


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the tournament seed and a path of names/numbers (stable across runs)."""
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


@dataclass(frozen=True)
class GameSpec:
    """One game of a task: the deal, and which of the task's bots sits in each seat."""

    deal: int
    deal_seed: int
    order: tuple[int, ...]
    bot_seeds: tuple[int, ...]
    game_id: str


@dataclass(frozen=True)
class Task:
    """Games of one group of bots, run by one worker with one seat host per bot."""

    bots: tuple[BotSpec, ...]
    games: tuple[GameSpec, ...]
    rules: dict[str, Any]
    move_time: float


def run_task(task: Task) -> list[GameRecord]:
    """Play a task's games (in a worker process, a Dask worker or here)."""
    rules = Rules.from_dict(task.rules)
    seats: list[Seat] = [make_seat(spec) for spec in task.bots]
    records = []
    try:
        for g in task.games:
            records.append(
                referee_game(
                    rules,
                    g.deal,
                    g.deal_seed,
                    [seats[i] for i in g.order],
                    g.bot_seeds,
                    task.move_time,
                    g.game_id,
                )
            )
    finally:
        for seat in seats:
            seat.close()
    return records


def schedule(
    bots: Sequence[BotSpec],
    games: int,
    seed: int,
    rules: Rules,
    move_time: float,
    tasks_per_group: int = 1,
) -> list[Task]:
    """Cut a round robin into tasks.

    games: games per group; rounded up to whole deals (a deal is played once
        per seat rotation).
    tasks_per_group: split each group's deals into this many tasks (more
        tasks balance the load and move the progress bar more often).
    """
    n = rules.players
    if len(bots) < n:
        raise ValueError(f"{n}-player games need at least {n} bots, got {len(bots)}")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    deals = math.ceil(games / n)
    rotations = [tuple((k + i) % n for i in range(n)) for k in range(n)]
    tasks = []
    for group in itertools.combinations(range(len(bots)), n):
        specs = tuple(bots[i] for i in group)
        names = [s.text for s in specs]
        game_specs = []
        for deal in range(deals):
            deal_seed = derive_seed(seed, "deal", deal)
            for r, order in enumerate(rotations):
                bot_seeds = tuple(
                    derive_seed(seed, "bot", names[order[s]], *names, deal, r) for s in range(n)
                )
                game_id = f"{'-'.join(map(str, group))}/d{deal}r{r}"
                game_specs.append(GameSpec(deal, deal_seed, order, bot_seeds, game_id))
        per = max(1, math.ceil(deals / max(1, tasks_per_group))) * n
        for start in range(0, len(game_specs), per):
            part = tuple(game_specs[start : start + per])
            tasks.append(Task(specs, part, rules.to_dict(), move_time))
    return tasks


# ------------------------------------------------------------------ executors


class Executor(Protocol):
    """Runs ``fn`` over tasks, yielding results in completion order."""

    def run(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]: ...

    def close(self) -> None: ...


class SerialExecutor:
    """Everything in this process, one task after another (``--jobs 1``)."""

    def run(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        for task in tasks:
            yield fn(task)

    def close(self) -> None:
        pass


class ProcessExecutor:
    """A local pool of worker processes (``--jobs N``)."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.jobs = jobs
        self._pool = ProcessPoolExecutor(max_workers=jobs)

    def run(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        pending: set[Future[R]] = {self._pool.submit(fn, t) for t in tasks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class DaskExecutor:
    """Tasks on a Dask cluster (``--dask SCHEDULER_ADDRESS``; needs the ``dask`` extra).

    Workers must be able to import durak_arena, and ``py:`` / ``cmd:`` bots
    must exist at the same paths on the workers.
    """

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        try:
            from distributed import Client
        except ImportError as exc:
            raise RuntimeError(
                "--dask needs the dask extra: pip install 'durak[dask]' (dask[distributed])"
            ) from exc
        self._own = client is None
        self.client = client if client is not None else Client(address)

    def run(self, fn: Callable[[T], R], tasks: Sequence[T]) -> Iterator[R]:
        from distributed import as_completed

        futures = [self.client.submit(fn, t, pure=False) for t in tasks]
        try:
            for future in as_completed(futures):
                yield future.result()
        finally:
            for future in futures:
                future.cancel()

    def close(self) -> None:
        if self._own:
            self.client.close()


# -------------------------------------------------------------------- results


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0
    think: float = 0.0
    decisions: int = 0


@dataclass
class PairTally:
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    draws: int = 0
    forfeits: int = 0


@dataclass
class Results:
    """Everything a tournament found, built up one game record at a time."""

    bots: list[str]
    records: list[GameRecord] = field(default_factory=list)
    tallies: dict[str, Tally] = field(default_factory=dict)
    pairs: dict[tuple[str, str], PairTally] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for b in self.bots:
            self.tallies.setdefault(b, Tally())

    def add(self, record: GameRecord) -> None:
        self.records.append(record)
        losers = set(record.losers)
        forfeit_seat = None if record.forfeit is None else record.forfeit["seat"]
        for seat, name in enumerate(record.bots):
            t = self.tallies[name]
            t.games += 1
            if not losers:
                t.draws += 1
            elif seat in losers:
                t.losses += 1
            else:
                t.wins += 1
            if forfeit_seat == seat:
                t.forfeits += 1
            if record.think:
                t.think += record.think[seat]
                t.decisions += record.decisions[seat]
        index = {name: i for i, name in enumerate(self.bots)}
        for s1, s2 in itertools.combinations(range(len(record.bots)), 2):
            a, b = record.bots[s1], record.bots[s2]
            if index[a] > index[b]:
                a, b, s1, s2 = b, a, s2, s1
            p = self.pairs.setdefault((a, b), PairTally())
            p.games += 1
            if record.forfeit is not None:
                p.forfeits += 1
            if (s1 in losers) == (s2 in losers):
                p.draws += 1
            elif s2 in losers:
                p.a_wins += 1
            else:
                p.b_wins += 1

    def ratings(self) -> dict[str, float]:
        """Bradley-Terry ratings on the Elo scale (see :func:`durak_arena.stats.bradley_terry`)."""
        table = {k: (p.a_wins, p.b_wins, p.draws) for k, p in self.pairs.items()}
        ratings = bradley_terry(table)
        return {b: ratings.get(b, 1500.0) for b in self.bots}

    def bot_rows(self) -> list[dict[str, Any]]:
        ratings = self.ratings()
        rows: list[dict[str, Any]] = []
        for name in self.bots:
            t = self.tallies[name]
            decided = t.wins + t.losses
            lo, hi = wilson(t.wins, decided)
            rows.append(
                {
                    "name": name,
                    "games": t.games,
                    "wins": t.wins,
                    "draws": t.draws,
                    "losses": t.losses,
                    "forfeits": t.forfeits,
                    "win_rate": t.wins / decided if decided else None,
                    "ci95": [lo, hi],
                    "rating": ratings[name],
                    "ms_per_decision": 1000 * t.think / t.decisions if t.decisions else None,
                }
            )
        rows.sort(key=lambda r: -r["rating"])
        return rows

    def pair_rows(self) -> list[dict[str, Any]]:
        rows = []
        for (a, b), p in self.pairs.items():
            decided = p.a_wins + p.b_wins
            lo, hi = wilson(p.a_wins, decided)
            rows.append(
                {
                    "a": a,
                    "b": b,
                    "games": p.games,
                    "a_wins": p.a_wins,
                    "b_wins": p.b_wins,
                    "draws": p.draws,
                    "forfeits": p.forfeits,
                    "a_win_rate": p.a_wins / decided if decided else None,
                    "ci95": [lo, hi],
                }
            )
        return rows

    def forfeit_log(self) -> list[dict[str, Any]]:
        return [
            {"game": r.game, **r.forfeit} for r in self.records if r.forfeit is not None
        ]

    def to_dict(self, settings: dict[str, Any]) -> dict[str, Any]:
        return {
            "format": "durak-arena-results",
            "version": 1,
            "settings": settings,
            "rating_method": "Bradley-Terry (MM fit, one virtual draw per pair), Elo scale "
            "1500 + 400*log10(strength)",
            "bots": self.bot_rows(),
            "pairs": self.pair_rows(),
            "ratings": self.ratings(),
            "forfeit_log": self.forfeit_log(),
        }


def run_tournament(
    bots: Sequence[BotSpec],
    *,
    games: int,
    seed: int,
    rules: Rules,
    move_time: float,
    executor: Executor,
    tasks_per_group: int = 1,
    on_record: Callable[[GameRecord], None] | None = None,
) -> Results:
    """Schedule, run and tally a round robin; ``on_record`` sees each game as it finishes."""
    names = [b.text for b in bots]
    if len(set(names)) != len(names):
        raise ValueError("each bot may appear once (builtin:NAME#2 enters a built-in bot again)")
    tasks = schedule(bots, games, seed, rules, move_time, tasks_per_group)
    results = Results(names)
    for records in executor.run(run_task, tasks):
        for record in records:
            results.add(record)
            if on_record is not None:
                on_record(record)
    return results


def total_games(bots: int, games: int, players: int) -> int:
    """How many games :func:`schedule` makes."""
    groups = math.comb(bots, players)
    return groups * math.ceil(games / players) * players


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)

