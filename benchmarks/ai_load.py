"""Does a millisecond of CPU time buy the AI as much search on a loaded machine?

With ``cpu=1`` a bot thinks for a set amount of its process's CPU time, so other work
on the machine cannot shorten its think time (nothing in the bot reads wall time on
that path: ``tests/bots/test_load.py``).  What load can still change is how much work
a CPU millisecond does: processes that share a core's caches, or a hyperthread's
sibling, slow every instruction.  If that slowed the AI more than ``ismcts-v1``, the AI
would search less than the yardstick in the same CPU time under load and win less.

This script plays the same games on an *iteration* budget (the same work every
time) against greedy, for the AI and for ``ismcts-v1``, and times them in CPU time,
alternately on a quiet machine and beside ``--busy`` processes that spin (pure
Python, like the arena's), ``--rounds`` times.  It prints rollouts per 100 ms of CPU
time of each bot in each state, and the AI's rate over v1's: if load lowers that ratio,
the AI loses ground at equal CPU time.

    python benchmarks/ai_load.py [--rounds 3] [--busy 2] [--deals 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, IsmctsV1Bot, play_game

#: Iteration budgets near what each bot runs in 100 ms of CPU time (ai_strength.py).
AI_ITERATIONS = 800
V1_ITERATIONS = 400


def _spin(stop: Any) -> None:
    """A busy process: pure Python arithmetic until told to stop."""
    x = 0
    while not stop.is_set():
        for i in range(100_000):
            x = (x * 31 + i) % 1_000_003


def rate(bot: IsmctsBot, deals: int) -> float:
    """Rollouts per 100 ms of this process's CPU time over ``deals`` games against greedy."""
    start = time.process_time()
    for deal in range(deals):
        play_game(Game.new(Rules(), seed=deal), [bot, GreedyBot()])
    return sum(bot.history) / (time.process_time() - start) / 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="quiet/loaded pairs")
    parser.add_argument("--busy", type=int, default=2, help="spinning processes when loaded")
    parser.add_argument("--deals", type=int, default=2, help="games per bot and state")
    args = parser.parse_args()
    print(f"command: python benchmarks/ai_load.py --rounds {args.rounds} --busy {args.busy} "
          f"--deals {args.deals}")
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start")
    context = multiprocessing.get_context("spawn")
    ratios: dict[str, list[float]] = {"quiet": [], "loaded": []}
    for _ in range(args.rounds):
        for state in ("quiet", "loaded"):
            stop = context.Event()
            spinners = [context.Process(target=_spin, args=(stop,), daemon=True)
                        for _ in range(args.busy if state == "loaded" else 0)]
            for p in spinners:
                p.start()
            try:
                ai = rate(IsmctsBot(seed=1, iterations=AI_ITERATIONS), args.deals)
                v1 = rate(IsmctsV1Bot(seed=1, iterations=V1_ITERATIONS), args.deals)
            finally:
                stop.set()
                for p in spinners:
                    p.join(5)
            ratios[state].append(ai / v1)
            print(f"  {state:<6} AI {ai:6.0f}, v1 {v1:5.0f} rollouts per 100 ms of CPU time; "
                  f"AI/v1 {ai / v1:.2f} (load average {os.getloadavg()[0]:.2f})", flush=True)
    for state, values in ratios.items():
        print(f"{state:<6} AI/v1 mean {statistics.mean(values):.2f} "
              f"(min {min(values):.2f}, max {max(values):.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
