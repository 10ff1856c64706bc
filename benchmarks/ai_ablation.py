"""Which of the AI's parts help?  Each variant of ``builtin:ismcts`` against one opponent.

Every variant plays the same duplicate deals (each deal twice, seats swapped) against
the opponent (``builtin:greedy`` by default, or ``builtin:ismcts-v1``), two seats,
36 cards.  The searching bots run on a fixed *iteration* budget, not on wall time:
on a machine shared with others a time budget buys a different amount of search from
one minute to the next, while an iteration budget plays the same games anywhere.
The budget to use is what each bot does in its think time (``benchmarks/ai_strength.py``
prints it); the compiled playouts change only the speed, so they are measured there.

    python benchmarks/ai_ablation.py [--games 200] [--iterations 1000 | --cpu-ms 100]
        [--opponent builtin:greedy] [--jobs 2] [--seed 1] VARIANT...

``--cpu-ms`` gives the AI that many milliseconds of CPU time per decision instead
(``ms=...&cpu=1``: the variants then differ in speed as well as in play; give the
opponent the same, e.g. ``--opponent "builtin:ismcts-v1?ms=100&cpu=1"``).

A VARIANT is a query string of options added to ``builtin:ismcts`` ("" for the
default, "infer=0", "solver=0", "solver=2&near=6", "model=1").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_arena.referee import BotSpec
from durak_arena.tournament import Executor, ProcessExecutor, SerialExecutor, run_tournament
from durak_core import Rules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=[""])
    parser.add_argument("--games", type=int, default=200, help="games per variant")
    parser.add_argument("--iterations", type=int, default=1000, help="the AI's budget")
    parser.add_argument("--cpu-ms", type=float, default=0,
                        help="the AI's budget in ms of CPU time per decision instead")
    parser.add_argument("--opponent", default="builtin:greedy")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    variants = " ".join(repr(v) for v in args.variants)
    budget = (f"--cpu-ms {args.cpu_ms:g}" if args.cpu_ms
              else f"--iterations {args.iterations}")
    print(f"command: python benchmarks/ai_ablation.py --games {args.games} {budget} "
          f"--opponent {args.opponent!r} --jobs {args.jobs} --seed {args.seed} {variants}")
    executor: Executor = SerialExecutor() if args.jobs == 1 else ProcessExecutor(args.jobs)
    try:
        for variant in args.variants:
            query = (f"ms={args.cpu_ms:g}&cpu=1" if args.cpu_ms
                     else f"iterations={args.iterations}") + (f"&{variant}" if variant else "")
            ai = BotSpec.parse(f"builtin:ismcts?{query}")
            opponent = BotSpec.parse(args.opponent)
            start = time.monotonic()
            results = run_tournament([ai, opponent], games=args.games, seed=args.seed,
                                     rules=Rules(), move_time=60.0, executor=executor,
                                     tasks_per_group=8)
            (row,) = results.pair_rows()
            won, lost = row["a_wins"], row["b_wins"]
            lo, hi = row["ci95"]
            # A short run may decide no game at all (both seats out in the same bout).
            rate = (f"{100 * won / (won + lost):5.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)"
                    if won + lost else "no game decided")
            print(f"{variant or '(default)':<22} {won:4d}/{won + lost:<4d} decided = {rate}, "
                  f"{row['draws']} draws, {row['forfeits']} forfeits, "
                  f"{time.monotonic() - start:.0f} s", flush=True)
    finally:
        executor.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
