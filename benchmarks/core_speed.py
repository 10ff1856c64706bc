"""How fast is durak_core?  Prints games/s, actions/s and the cost of the calls
that bots and search make in their inner loops.

Times are CPU time of this process (time.process_time), so that other load on
the machine disturbs them less.  Each step of a random game is a uniform choice
from ``legal_actions()`` of all seats, applied with full checking.  In the same process it times the
tutorial-style baseline engine (benchmarks/tutorial_baseline.py), which checks
almost nothing, in alternating slices, and prints the ratio.

    python benchmarks/core_speed.py [--seconds 3]
    DURAK_PURE=1 python benchmarks/core_speed.py      # the pure-Python engine
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutorial_baseline import play_random_game

from durak_core import COMPILED, Game, Rules


def play_core_game(rules: Rules, seed: int) -> int:
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    return steps


def run_for(fn, seconds: float, first: int = 0) -> tuple[int, int, float]:
    """Call fn(first), fn(first + 1), ... for about ``seconds`` of CPU time;
    return (calls, summed results, elapsed)."""
    start = time.process_time()
    calls = units = 0
    while True:
        units += fn(first + calls)
        calls += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return calls, units, elapsed


def rate(fn, seconds: float) -> tuple[float, float, int]:
    """Run fn(i) for about ``seconds``; return (calls/s, returned units/s, calls)."""
    calls, units, elapsed = run_for(fn, seconds)
    return calls / elapsed, units / elapsed, calls


def head_to_head(base, core, seconds: float, rounds: int = 20) -> tuple[list[float], ...]:
    """Time both engines in alternating slices, so that a change in the machine's
    speed during the run (a virtual machine's neighbours) touches both alike.
    Returns per engine [calls, units, seconds] summed over the rounds."""
    totals = ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    for _ in range(rounds):
        for fn, total in ((base, totals[0]), (core, totals[1])):
            calls, units, elapsed = run_for(fn, seconds / rounds, int(total[0]))
            total[0] += calls
            total[1] += units
            total[2] += elapsed
    return totals


def micro(label: str, fn, number: int) -> None:
    start = time.process_time()
    for _ in range(number):
        fn()
    per = (time.process_time() - start) / number
    print(f"  {label:<42} {per * 1e6:8.2f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = parser.parse_args()
    rules = Rules()
    engine = "compiled (mypyc)" if COMPILED else "pure Python"
    print(f"python {sys.version.split()[0]}, durak_core {engine}, "
          f"{args.seconds:.0f} s per measurement")

    base_rng = random.Random(1)
    base, core = head_to_head(
        lambda i: play_random_game(base_rng), lambda i: play_core_game(rules, i), args.seconds
    )
    b_games, b_moves = base[0] / base[2], base[1] / base[2]
    c_games, c_actions = core[0] / core[2], core[1] / core[2]
    print(f"baseline (tutorial-style, unchecked): {b_games:8.0f} games/s {b_moves:9.0f} moves/s")
    print(
        f"durak_core (every action checked):    {c_games:8.0f} games/s {c_actions:9.0f} "
        f"actions/s ({core[1] / core[0]:.0f} actions/game over {core[0]:.0f} games)"
    )
    print(f"ratio durak_core / baseline (games/s): {c_games / b_games:.2f}")

    for label, r in (
        ("4 players, 52 cards, perevodnoy", Rules(players=4, deck_size=52, variant="perevodnoy")),
        ("6 players, 36 cards, neighbours", Rules(players=6, throw_in="neighbours")),
    ):
        g_rate, a_rate, _ = rate(lambda i, r=r: play_core_game(r, i), args.seconds / 2)
        print(f"durak_core {label}: {g_rate:6.0f} games/s {a_rate:9.0f} actions/s")

    # Inner-loop calls, on a mid-game position.
    game = Game.new(rules, seed=3)
    rng = random.Random(3)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    d = game.defender
    print("inner-loop calls (mid-game position):")
    micro("copy()", game.copy, 100_000)

    def fresh_legal() -> None:
        game._forget()
        game.legal_actions(d)

    micro("legal_actions(defender), uncached", fresh_legal, 100_000)
    micro("legal_actions(defender), cached", lambda: game.legal_actions(d), 100_000)
    def fresh_legal_all() -> None:
        game._forget()
        game.legal_actions()

    micro("legal_actions() all seats, uncached", fresh_legal_all, 50_000)
    micro("state_hash()", game.state_hash, 20_000)
    micro("observation(defender)", lambda: game.observation(d), 20_000)
    view = game.view(d)
    vrng = random.Random(0)
    micro("view(d).determinize(rng)", lambda: view.determinize(vrng), 20_000)


if __name__ == "__main__":
    main()
