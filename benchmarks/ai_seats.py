"""At tables of 3-6, is a variant of the AI the durak less often than the seats beside it?

One ``builtin:ismcts`` seat with the VARIANT's options among ``players - 1`` other seats
(the default AI by default, or greedy), on the same deals with the seats rotated (each
deal played once per rotation, so every seat sits in every place on every deal).  A
table game has one durak or none, so the figure is how often each is the durak, with a
Wilson 95% interval; the variant helps if it is the durak less often than the others.

    python benchmarks/ai_seats.py [--players 3] [--games 60] [--cpu-ms 100]
        [--others "builtin:ismcts?ms=100&cpu=1"] [--jobs 1] [--seed 1] VARIANT

Every searching seat runs on ``--cpu-ms`` of CPU time a decision (``ms=...&cpu=1``);
``--iterations N`` gives the variant a fixed budget instead.  A VARIANT is a query
string of options added to ``builtin:ismcts`` ("every_seat=1"; "" is the default AI).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_arena.referee import BotSpec
from durak_arena.tournament import Executor, ProcessExecutor, SerialExecutor, run_tournament
from durak_core import Rules


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a share ``hits / n`` (0..1)."""
    if not n:
        return 0.0, 1.0
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", nargs="?", default="every_seat=1")
    parser.add_argument("--players", type=int, default=3, help="seats at the table, 3-6")
    parser.add_argument("--games", type=int, default=60, help="games (rounded up to whole "
                        "rotations of a deal)")
    parser.add_argument("--cpu-ms", type=float, default=100, help="CPU ms a decision")
    parser.add_argument("--iterations", type=int, default=0,
                        help="the variant's rollouts a decision instead of --cpu-ms")
    parser.add_argument("--others", default="builtin:ismcts?ms=100&cpu=1",
                        help="the other seats' bot (entered once per seat)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if not 3 <= args.players <= 6:
        parser.error("--players must be 3 to 6")
    print(f"command: python benchmarks/ai_seats.py --players {args.players} --games "
          f"{args.games} --cpu-ms {args.cpu_ms:g} --others {args.others!r} --jobs {args.jobs} "
          f"--seed {args.seed} {args.variant!r}", flush=True)
    budget = (f"iterations={args.iterations}" if args.iterations
              else f"ms={args.cpu_ms:g}&cpu=1")
    variant = BotSpec.parse(f"builtin:ismcts?{budget}" + (f"&{args.variant}" if args.variant
                                                           else "") + "#variant")
    others = [BotSpec.parse(f"{args.others.partition('#')[0]}#{k}")
              for k in range(1, args.players)]
    executor: Executor = SerialExecutor() if args.jobs == 1 else ProcessExecutor(args.jobs)
    start = time.monotonic()
    try:
        results = run_tournament([variant, *others], games=args.games, seed=args.seed,
                                 rules=Rules(players=args.players), move_time=60.0,
                                 executor=executor, tasks_per_group=8)
    finally:
        executor.close()
    rows = {r["name"]: r for r in results.bot_rows()}
    games = rows[variant.text]["games"]
    mine = rows[variant.text]["losses"]
    theirs = sum(rows[o.text]["losses"] for o in others)
    forfeits = sum(r["forfeits"] for r in rows.values())
    lo, hi = wilson(mine, games)
    olo, ohi = wilson(theirs, games * len(others))
    print(f"{args.players} seats, {games} games, {forfeits} forfeits, "
          f"{time.monotonic() - start:.0f} s")
    print(f"  {args.variant or '(default)'}: the durak in {mine}/{games} = "
          f"{100 * mine / games:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)")
    print(f"  each other seat: {theirs}/{games * len(others)} = "
          f"{100 * theirs / (games * len(others)):.1f}% (95% CI {100 * olo:.1f}-{100 * ohi:.1f}%)"
          f"; a fair seat: {100 / args.players:.1f}% of the decided games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
