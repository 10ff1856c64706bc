"""How many iterations the AI's search runs in a second of CPU time, at 2 and 4 seats.

A search's strength at a fixed think time follows from how many iterations (a deal,
a walk down the tree, a rollout, the back-up) fit in it.  This script times the
search alone: each bot (a spec as ``make_bot`` reads it, default the AI,
``ismcts-v2`` and ``ismcts-v1``) decides fixed, seeded positions on a fixed
iteration budget (the same work every run), in CPU time of this process
(``time.process_time``), so other work on the machine takes little away.  The
positions: every third decision with a choice while the talon holds cards, in games
of the greedy bot against itself, at a table of two seats and one of four.  Each bot
runs ``--rounds`` times, interleaved, and the best round counts (a shared machine only
ever slows a round down); the spread of the rounds is printed beside it.

``iterations in 100 ms`` is the rate times 0.1 s: what a decision at ``ms=100&cpu=1``
runs.  ``--ms 100`` measures that directly instead (each position decided on a 100 ms
CPU-time budget; the mean of the iterations each decision ran).

    python benchmarks/ai_speed.py [--games 4] [--iterations 600] [--rounds 3] [SPEC...]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from decision_cost import positions

from durak_core import COMPILED, Action, Rules
from durak_core.bots import make_bot

#: The tables measured: a name and the rules.
TABLES: list[tuple[str, Rules]] = [("2 seats", Rules()), ("4 seats", Rules(players=4))]
#: The bots measured when none is named.
DEFAULT_SPECS = ["ismcts", "ismcts-v2", "ismcts-v1"]

Position = tuple[dict[str, Any], list[Action]]


def run(spec: str, rules: Rules, points: list[Position], budget: str) -> tuple[int, float, int]:
    """Decide every position with a fresh bot of ``spec`` (seed 1) on ``budget``:
    the iterations run, the CPU seconds taken, and the decisions the search made (the
    endgame solver may decide a position alone)."""
    joiner = "&" if "?" in spec else "?"
    iterations = 0
    searched = 0
    start = time.process_time()
    for observation, legal in points:
        bot = make_bot(f"{spec}{joiner}{budget}", seed=1)
        bot.start(int(observation["seat"]), rules)
        bot.choose(observation, legal)
        history: list[int] = getattr(bot, "history", [])
        iterations += sum(history)
        searched += len(history)
    return iterations, time.process_time() - start, searched


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", default=DEFAULT_SPECS, metavar="SPEC")
    parser.add_argument("--games", type=int, default=4, help="seeded games per table")
    parser.add_argument("--iterations", type=int, default=600, help="budget a decision")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each bot (best counts)")
    parser.add_argument("--ms", type=float, default=0.0,
                        help="decide on this much CPU time instead (iterations a decision)")
    args = parser.parse_args()
    budget = f"ms={args.ms:g}&cpu=1" if args.ms else f"iterations={args.iterations}"
    tables = [(name, rules, positions(args.games, rules)) for name, rules in TABLES]
    engine = "compiled (mypyc)" if COMPILED else "pure Python"
    print(f"python {sys.version.split()[0]}, durak_core {engine}, "
          f"{args.rounds} round{'s' if args.rounds != 1 else ''}, the best counts; budget {budget}")
    # rates[(table, spec)]: one figure a round (iterations a second, or a decision).
    rates: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for name, rules, points in tables:
            for spec in args.specs:
                iterations, seconds, searched = run(spec, rules, points, budget)
                figure = iterations / max(searched, 1) if args.ms else iterations / seconds
                rates.setdefault((name, spec), []).append(figure)
    for name, _, points in tables:
        print(f"{name}: {len(points)} positions")
        for spec in args.specs:
            got = rates[(name, spec)]
            best = max(got)
            spread = f"   (rounds {min(got):.0f}-{best:.0f})" if len(got) > 1 else ""
            if args.ms:
                print(f"  {spec:<24} {best:8.0f} iterations a decision{spread}")
            else:
                print(f"  {spec:<24} {best:8.0f} iterations/s   {best / 10:6.0f} in 100 ms"
                      f"{spread}")


if __name__ == "__main__":
    main()
