"""Can the endgame solver play one bout earlier?  What it costs to solve a deal with
the talon nearly empty.

The AI plays exactly once the talon is empty.  A bout earlier the talon still holds a
card or a few (the trump card last); once those are dealt (a determinization) the game
is again one of perfect information, and the solver, taught to draw them
(``EndgameSolver(..., talon=N)``), can solve it.  Playing by it means solving, for each
root move the AI compares, on each of several deals (PIMC over the solver), within the
think time.  This prints what one deal costs: the positions the solver visits to value
every compared root move (``values``, the AI's shortlist of three), and the CPU time,
at each decision of a seat of two-seat games of the greedy policy (one move in ten
random, seeded) while the talon holds 1 to ``--talon`` cards.  A solve is cut at
``--nodes`` positions (counted as not settled).  With one card left (the trump card,
seen by all) the seat's own view is already a perfect-information game: one solve
settles it; with more, each deal is one sample of several.  ``--best`` solves each deal
once, from the position, for its best move only (one search, not one per compared move:
``exact_talon``'s vote over deals).

    python benchmarks/solver_near.py [--games 40] [--talon 4] [--nodes 2000000] [--seed 7]
                                     [--best]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_core import COMPILED, Game, Rules
from durak_core.bots.greedy import shortlist
from durak_core.endgame import EndgameSolver, seats_left
from durak_core.playout import greedy_choice, next_seat


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--talon", type=int, default=4, help="most cards left in the talon")
    parser.add_argument("--nodes", type=int, default=2_000_000, help="a solve's cap")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--best", action="store_true",
                        help="one solve a deal, for the best move only")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = Rules()
    costs: dict[int, list[tuple[int, float, bool]]] = {}
    games_at: dict[int, int] = {}  # games with such a decision, by talon size
    for _ in range(args.games):
        game = Game.new(rules, seed=rng.getrandbits(32))
        seen: set[int] = set()
        while not game.is_over:
            actor = next_seat(game)
            legal = game.legal_actions(actor)
            left = game.talon_size
            if 1 <= left <= args.talon and len(legal) > 1:
                view = game.view(actor)
                deal = view.determinize(random.Random(rng.getrandbits(32)))
                assert seats_left(deal, args.talon)
                compared = shortlist(legal, int(deal.trump_suit), left, deal.table, 3)
                solver = EndgameSolver(rules, int(deal.trump_suit), talon=args.talon)
                start = time.process_time()
                if args.best:
                    results = [solver.solve(deal, actor, args.nodes)]
                else:
                    results = solver.values(deal, actor, compared, args.nodes)
                spent = time.process_time() - start
                nodes = sum(r.nodes for r in results)
                settled = all(r.exact for r in results)
                costs.setdefault(left, []).append((nodes, spent, settled))
                if left not in seen:
                    seen.add(left)
                    games_at[left] = games_at.get(left, 0) + 1
            action = rng.choice(legal) if rng.random() < 0.1 else greedy_choice(game, actor)
            game.apply(action)
    build = "compiled" if COMPILED else "pure Python"
    what = ("the position solved once, for its best move" if args.best
            else "every compared root move (at most 3) solved")
    print(f"{args.games} games, engine {build}; one deal, {what}, "
          f"cut at {args.nodes} positions:")
    for left in sorted(costs):
        rows = costs[left]
        nodes = sorted(n for n, _, _ in rows)
        ms = sorted(1000 * t for _, t, _ in rows)
        settled = sum(s for _, _, s in rows)
        print(f"  talon {left}: {len(rows):3d} decisions in {games_at[left]:3d} games, "
              f"settled {settled:3d}; positions "
              f"median {statistics.median(nodes):9.0f}, 90th pct {_pct(nodes, 0.9):9.0f}, "
              f"most {nodes[-1]:9d}; CPU ms median {statistics.median(ms):7.1f}, "
              f"90th pct {_pct(ms, 0.9):7.1f}; under 50 ms {sum(m < 50 for m in ms)}")
    return 0


def _pct(values: list[float] | list[int], q: float) -> float:
    return float(values[min(len(values) - 1, int(q * len(values)))])


if __name__ == "__main__":
    sys.exit(main())
