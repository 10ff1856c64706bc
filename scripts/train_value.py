"""Train the AI's value model (``durak_core/bots/value_model.json``) by self-play.

The searches' rollouts play a deal out with the greedy policy and score the end.  With
``cutoff=N`` (:class:`durak_core.bots.IsmctsConfig`) a rollout stops after N bouts while
the talon still holds cards, and a logistic model over counts of the two hands' cards
(:func:`durak_core.playout.value_features`) scores the position instead: the model
stands in for the rest of the greedy rollout, so that is what it is trained on.

Positions: every empty table with cards in the talon of ``--games`` two-seat games of
36 cards, dealt from ``--seed`` on, each move the greedy policy's but one in
``--epsilon`` a random legal one (so the positions spread beyond greedy's own line, as a
search's leaves do).  Target: the result for each seat of a greedy playout from the
position (the compiled playout is deterministic, so one suffices).  Fit: logistic
regression by Newton's method (numpy, which the test extras bring with matplotlib), with
a small ridge; the last fifth of the games is held out and scored.  The same arguments
write the same file.

    python scripts/train_value.py [--games 40000] [--seed 360] [--epsilon 0.15]
        [--out durak_core/bots/value_model.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak_core import Game, Rules, _engine
from durak_core.playout import (
    VALUE_FEATURES,
    between_bouts,
    greedy_choice,
    next_seat,
    outcome,
    playout,
    value_features,
)

OUT = Path(__file__).resolve().parent.parent / "durak_core" / "bots" / "value_model.json"


def positions(games: int, seed: int, epsilon: float) -> tuple[list[list[float]], list[float],
                                                              list[int]]:
    """The features, targets and game numbers of every recorded position, both seats'."""
    xs: list[list[float]] = []
    ys: list[float] = []
    which: list[int] = []
    rules = Rules()
    for g in range(games):
        rng = random.Random(seed * 1_000_003 + g)
        game = Game.new(rules, seed=seed * 1_000_003 + g)
        while True:
            if between_bouts(game):
                rest = game.copy()
                playout(rest)
                result = outcome(rest)
                for seat in (0, 1):
                    xs.append(value_features(game, seat))
                    ys.append(result[seat])
                    which.append(g)
            actor = next_seat(game)
            if actor < 0:
                break
            if epsilon and rng.random() < epsilon:
                game.apply(rng.choice(game.legal_actions(actor)))
            else:
                game.apply(greedy_choice(game, actor))
    return xs, ys, which


def fit(x: np.ndarray, y: np.ndarray, ridge: float, rounds: int = 30) -> np.ndarray:
    """Logistic regression (cross-entropy, targets in 0..1) by Newton's method."""
    w = np.zeros(x.shape[1])
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = 0.0  # the bias goes free
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + penalty @ w
        hess = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def log_loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    p = np.clip(1.0 / (1.0 + np.exp(-(x @ w))), 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=360)
    parser.add_argument("--epsilon", type=float, default=0.15)
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.process_time()
    xs, ys, which = positions(args.games, args.seed, args.epsilon)
    made = time.process_time() - start
    x = np.array(xs)
    y = np.array(ys)
    test = np.array(which) >= args.games * 4 // 5
    w = fit(x[~test], y[~test], args.ridge)
    base = np.zeros(x.shape[1])
    base[0] = np.log(np.mean(y[~test]) / (1 - np.mean(y[~test])))
    held = log_loss(x[test], y[test], w)
    held_base = log_loss(x[test], y[test], base)
    p = 1.0 / (1.0 + np.exp(-(x[test] @ w)))
    decided = y[test] != 0.5
    agree = float(np.mean((p[decided] > 0.5) == (y[test][decided] > 0.5)))
    print(f"engine compiled: {_engine.compiled()}; {len(ys)} positions from {args.games} games "
          f"in {made:.0f} s of CPU time")
    print(f"held-out log loss {held:.4f} (a constant: {held_base:.4f}); "
          f"the likelier side wins {100 * agree:.1f}% of decided playouts")
    # Refit on every game for the file (the held-out score above says how well it does).
    w = fit(x, y, args.ridge)
    model = {
        "about": "durak_core.playout.value_features -> logistic: the chance a greedy "
                 "playout leaves the seat safe; made by scripts/train_value.py",
        "command": f"python scripts/train_value.py --games {args.games} --seed {args.seed} "
                   f"--epsilon {args.epsilon:g} --ridge {args.ridge:g}",
        "positions": len(ys),
        "held_out_log_loss": round(held, 4),
        "constant_log_loss": round(held_base, 4),
        "features": list(VALUE_FEATURES),
        "weights": [round(float(v), 6) for v in w],
    }
    args.out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
