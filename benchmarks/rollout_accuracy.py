"""How well does a search's rollout judge an endgame?  Prints, for positions where the
talon has just run out with two seats left, how often one rollout from there ends as
the exact result says (the endgame solver's game-theoretic value, for the seat to
move), how often it says that seat is safe against how often it is, and what a
rollout costs.

The rollouts compared are :func:`durak_core.playout.finish` with the greedy policy
alone (the search's default, ``tail=0``) and with its refinements: ``throw`` (the
attacker throws in a card the defender cannot beat) and ``tail=N`` (the solver
settles the rest once both hands hold at most N cards together, within ``nodes``
positions).  Every rollout is deterministic, so "agrees" is a property of the
position and the policy; a search averages thousands of rollouts, but from
different deals, and a policy that misplays endgames misjudges the moves that lead
to them.

The positions come from two-seat games played by the greedy policy with one move in
ten chosen at random (seeded), taken at the first moment the solver applies; each is
solved exactly first.  Each rollout gets a solver of its own (a search keeps one for
the whole game, so its later solves are cheaper than here).  Times are CPU time of
this process; the ratio is to the greedy rollout timed in the same loop.

    python benchmarks/rollout_accuracy.py [--positions 1000] [--seed 2]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_core import COMPILED, Game, Rules
from durak_core.endgame import EndgameSolver, applies
from durak_core.playout import finish, greedy_choice, next_seat

#: (label, throw, tail, nodes)
SETTINGS = [
    ("greedy (tail=0)", False, 0, 0),
    ("throw=1", True, 0, 0),
    ("tail=6", False, 6, 2000),
    ("tail=6 throw=1", True, 6, 2000),
    ("tail=8 throw=1", True, 8, 2000),
    ("tail=8 throw=1 tail_nodes=500", True, 8, 500),
]


def positions(count: int, seed: int) -> list[Game]:
    """Endgames (empty talon, two seats) from seeded, mostly greedy two-seat games."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        game = Game.new(Rules(), seed=rng.getrandbits(32))
        while not game.is_over and not applies(game):
            actor = next_seat(game)
            legal = game.legal_actions(actor)
            action = rng.choice(legal) if rng.random() < 0.1 else greedy_choice(game, actor)
            game.apply(action)
        if not game.is_over:
            found.append(game)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    cases = []
    unsolved = 0
    for game in positions(args.positions, args.seed):
        seat = next_seat(game)
        solution = EndgameSolver(game.rules, int(game.trump_suit)).solve(game, seat)
        if solution.exact:
            cases.append((game, seat, solution.reward))
        else:
            unsolved += 1
    print(f"{len(cases)} endgames solved exactly ({unsolved} not), engine "
          f"{'compiled' if COMPILED else 'pure Python'}")
    truth = 100 * sum(exact for _, _, exact in cases) / len(cases)
    print(f"the seat to move is safe in {truth:.1f}% (a draw counts half); each rollout:")
    base = 0.0
    for label, throw, tail, nodes in SETTINGS:
        agree = 0
        said = 0.0
        spent = 0.0
        for game, seat, exact in cases:
            copy = game.copy()
            solver = EndgameSolver(game.rules, int(game.trump_suit)) if tail else None
            start = time.process_time()
            rewards = finish(copy, solver, tail, nodes, throw)
            spent += time.process_time() - start
            agree += rewards[seat] == exact
            said += rewards[seat]
        per = 1000 * spent / len(cases)
        if not base:
            base = per
        print(f"{label:31} agrees {agree:5}/{len(cases)} = {100 * agree / len(cases):5.1f}%"
              f"  says safe {100 * said / len(cases):5.1f}%"
              f"  {per:6.3f} ms a rollout ({per / base:4.1f}x)")


if __name__ == "__main__":
    main()
