"""How strong are the built-in bots?  Prints the arena's tables for random, greedy and ISMCTS.

Two players, 36 cards, duplicate deals (each deal played twice, seats
swapped), Wilson 95% intervals over decided games, Bradley-Terry ratings.
ISMCTS thinks ``--ms`` milliseconds of wall time per decision, so the figures
depend on the machine and on its load: the table's ``ms/move`` column shows
the time the bot really took, and the last lines show how many ISMCTS
iterations fit in that time here (two extra games in this process).

    python benchmarks/ai_strength.py [--games 200] [--jobs 2] [--ms 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_arena.cli import format_tables
from durak_arena.referee import BotSpec
from durak_arena.tournament import (
    ProcessExecutor,
    SerialExecutor,
    run_tournament,
)
from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, play_game

#: The bars of the issue: (winner, loser, minimum share of decided games won).
BARS = (
    ("builtin:greedy", "builtin:random", 0.85),
    ("ISMCTS", "builtin:random", 0.95),
    ("ISMCTS", "builtin:greedy", 0.65),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--ms", type=float, default=100, help="ISMCTS think time per decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ismcts = f"builtin:ismcts?ms={args.ms:g}"
    bots = [BotSpec.parse(t) for t in ("builtin:random", "builtin:greedy", ismcts)]
    print(f"command: python benchmarks/ai_strength.py --games {args.games} --jobs {args.jobs} "
          f"--ms {args.ms:g} --seed {args.seed}")
    print(f"machine: {platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start")
    executor = SerialExecutor() if args.jobs == 1 else ProcessExecutor(args.jobs)
    start = time.monotonic()
    try:
        results = run_tournament(bots, games=args.games, seed=args.seed, rules=Rules(),
                                 move_time=30.0, executor=executor, tasks_per_group=8)
    finally:
        executor.close()
    elapsed = time.monotonic() - start
    print()
    print(format_tables(results))
    print()
    pairs = {(p["a"], p["b"]): p for p in results.pair_rows()}
    for winner, loser, bar in BARS:
        winner = ismcts if winner == "ISMCTS" else winner
        row = pairs.get((winner, loser)) or pairs[(loser, winner)]
        won = row["a_wins"] if row["a"] == winner else row["b_wins"]
        decided = row["a_wins"] + row["b_wins"]
        if not decided:  # a handful of games (--games 2) can all be draws
            print(f"{winner} vs {loser}: no decided game in {row['games']}, "
                  f"bar {100 * bar:.0f}%: undecided")
            continue
        lo, hi = (row["ci95"] if row["a"] == winner else (1 - row["ci95"][1], 1 - row["ci95"][0]))
        verdict = "meets" if won / decided >= bar else "MISSES"
        print(f"{winner} vs {loser}: {won}/{decided} decided games = {100 * won / decided:.1f}% "
              f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%), bar {100 * bar:.0f}%: {verdict}")
    rows = {r["name"]: r for r in results.bot_rows()}
    print(f"ISMCTS: {rows[ismcts]['ms_per_decision']:.1f} ms per decision on average")
    print(f"load average at the end {os.getloadavg()[0]:.2f}; wall time {elapsed:.0f} s")
    bot = IsmctsBot(seed=args.seed, ms=args.ms)
    for deal in range(2):
        play_game(Game.new(Rules(), seed=deal), [bot, GreedyBot()])
    print(f"ISMCTS iterations per decision in {args.ms:g} ms here: "
          f"{sum(bot.history) / len(bot.history):.0f} (min {min(bot.history)}, "
          f"max {max(bot.history)}, {len(bot.history)} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
