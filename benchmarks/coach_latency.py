"""How long the coach's hint takes, and what its reasons add.

The hint (:func:`durak_core.bots.coach.hint`, the coach's default budget of rollouts)
is asked about seeded positions: every decision with a choice of both seats in games
of the AI's greedy rollout policy against itself.  Then :func:`~durak_core.bots.coach
.hint_reasons` explains it.  The script prints the wall time of each (median, p95,
mean) and how often each kind of reason is the top one, so the cost of saying why is
measured against the hint it sits beside.

    python benchmarks/coach_latency.py [--games 6] [--every 3] [--iterations 400]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_core import Event, Game, Rules
from durak_core.bots import GreedyBot, next_to_act, seat_events
from durak_core.bots.coach import ITERATIONS, hint, hint_reasons


def positions(games: int, every: int) -> list[tuple[dict, list[Event]]]:
    """Every ``every``-th decision with a choice, with what its seat had seen."""
    out: list[tuple[dict, list[Event]]] = []
    count = 0
    for seed in range(games):
        game = Game.new(Rules(), seed=1000 + seed)
        bot = GreedyBot()
        seen: list[list[Event]] = [[] for _ in range(game.players)]
        while not game.is_over:
            seat = next_to_act(game)
            legal = game.legal_actions(seat)
            if len(legal) > 1:
                if count % every == 0:
                    out.append((game.observation(seat), list(seen[seat])))
                count += 1
            events = game.apply(bot.choose(game.observation(seat), legal))
            for s in range(game.players):
                seen[s].extend(seat_events(s, events, game))
    return out


def _line(name: str, times: list[float]) -> str:
    ms = sorted(1000 * t for t in times)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return (f"{name:<16} median {statistics.median(ms):8.2f} ms   p95 {p95:8.2f} ms   "
            f"mean {statistics.fmean(ms):8.2f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--every", type=int, default=3, help="take every N-th decision")
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    args = parser.parse_args(argv)
    points = positions(args.games, args.every)
    hints: list[float] = []
    reasons: list[float] = []
    top: Counter[str] = Counter()
    for observation, events in points:
        start = time.perf_counter()
        estimates = hint(observation, events, iterations=args.iterations)
        middle = time.perf_counter()
        why = hint_reasons(observation, events, estimates)
        end = time.perf_counter()
        hints.append(middle - start)
        reasons.append(end - middle)
        top[why[0].kind if why else "(none)"] += 1
    print(f"{len(points)} positions, {args.iterations} rollouts a hint")
    print(_line("hint", hints))
    print(_line("reasons", reasons))
    print(_line("hint + reasons", [h + r for h, r in zip(hints, reasons, strict=True)]))
    print("top reason: " + ", ".join(f"{k} {v}" for k, v in top.most_common()))


if __name__ == "__main__":
    main()
