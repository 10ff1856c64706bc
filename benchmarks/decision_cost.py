"""What a decision of the AI costs in CPU time, for variants of its options.

The AI (``builtin:ismcts`` on a fixed budget of rollouts, options added as a query
string, "" for the default) decides seeded positions: every third decision with a
choice while the talon holds cards, in games of the greedy bot against itself.  CPU
time of this process (``time.process_time``), so other work on the machine takes
little away; each variant runs twice, interleaved, and the lower figure counts.  A
variant that costs more per rollout gets fewer of them in the arena's think time:
this is the rate to weigh an iteration-budget screen (``benchmarks/ai_ablation.py``)
with.

    python benchmarks/decision_cost.py [--games 6] [--iterations 800] VARIANT...
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_core import Action, Rules
from durak_core.bots import IsmctsBot, greedy_decisions, parse_options


def positions(games: int, rules: Rules | None = None) -> list[tuple[dict[str, Any], list[Action]]]:
    """Every third decision with a choice while the talon holds cards, in ``games``
    seeded games of greedy bots (seeds 0, 1, ...) under ``rules`` (the default rules if
    None); benchmarks/ai_speed.py decides the same positions."""
    return greedy_decisions(rules or Rules(), range(games), 3, while_talon=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=[""])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=800)
    args = parser.parse_args()
    points = positions(args.games)
    best: dict[str, float] = {}
    for _ in range(2):
        for variant in args.variants:
            options = parse_options(variant.split("&")) if variant else {}
            start = time.process_time()
            for observation, legal in points:
                bot = IsmctsBot(seed=1, iterations=args.iterations, **options)
                bot.start(int(observation["seat"]), Rules())
                bot.choose(observation, legal)
            ms = 1000 * (time.process_time() - start) / len(points)
            best[variant] = min(ms, best.get(variant, ms))
    print(f"{len(points)} positions, {args.iterations} rollouts a decision, CPU time")
    for variant in args.variants:
        print(f"{variant or '(default)':<24} {best[variant]:7.1f} ms a decision")


if __name__ == "__main__":
    main()
