"""How many games per second does the arena referee?  random vs random, 2 jobs.

Also shown for comparison: one job, and a subprocess bot (the Node.js
example, when node is installed) so the cost of the protocol is visible.
Wall-clock figures: they depend on the machine and on its load.

    python benchmarks/arena_throughput.py [--games 2000] [--jobs 2]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from durak_arena.referee import BotSpec  # noqa: E402
from durak_arena.tournament import (  # noqa: E402
    Executor,
    ProcessExecutor,
    SerialExecutor,
    run_tournament,
)
from durak_core import Rules  # noqa: E402


def measure(specs: list[str], games: int, jobs: int) -> tuple[float, int, int]:
    """(games per second, games, forfeits) of one pairing played with ``jobs`` workers."""
    bots = [BotSpec.parse(s, cwd=str(ROOT)) for s in specs]
    executor: Executor = SerialExecutor() if jobs == 1 else ProcessExecutor(jobs)
    start = time.monotonic()
    try:
        results = run_tournament(bots, games=games, seed=1, rules=Rules(), move_time=10.0,
                                 executor=executor, tasks_per_group=4 * jobs)
    finally:
        executor.close()
    elapsed = time.monotonic() - start
    played = len(results.records)
    return played / elapsed, played, len(results.forfeit_log())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    print(f"command: python benchmarks/arena_throughput.py --games {args.games} --jobs {args.jobs}")
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    runs = [
        (["builtin:random", "builtin:random#2"], args.games, args.jobs),
        (["builtin:random", "builtin:random#2"], args.games, 1),
    ]
    if shutil.which("node"):
        runs.append((["builtin:random", "cmd:node examples/bots/random.js"],
                     max(args.games // 10, 2), args.jobs))
    for specs, games, jobs in runs:
        rate, played, forfeits = measure(specs, games, jobs)
        print(f"{' vs '.join(specs):<52} jobs={jobs}: {rate:8.1f} games/s "
              f"({played} games, {forfeits} forfeits)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
