"""Instructions per random game, durak_core against the tutorial-style baseline.

A noise-free companion to core_speed.py: on a shared or virtual machine timings move
by a tenth or more between runs, while the number of machine instructions a fixed
set of seeded games executes does not (to within about 1%).  Use it to tell whether
a change to the engine made it cheaper.  It needs valgrind (``apt-get install
valgrind``); each count runs the games under cachegrind.

What a game costs, and when the ratio means something:

* The first games of a process pay once for what later games reuse (the engine makes
  its actions, events and draw orders once and shares them; Python grows its memory
  pools): under cachegrind the engine's marginal cost per game fell from 2.8 M
  instructions over the first 10 games to 1.28 M over games 50-100, 1.17 M over
  games 200-400, and stayed at 1.11-1.12 M from there to 3,200 games.  So each
  engine first plays ``--warmup`` games (400) in both runs, the one counted and the
  one subtracted, and the figure is the cost of the games after them.  (Subtracting
  a run of no games, as this script did before, charged that one-off cost to the
  counted games: 0.44 instead of 1.35 at 5 games, and still 6% too much at 1,000.)
* Games differ in length: the engines' numbers of moves vary by about 24% (durak_core)
  and 20% (the baseline) from game to game, so the mean of n games is uncertain by
  about that over sqrt(n), and the ratio of two means by both together.  The script
  plays the counted games once more without valgrind (a fraction of a second),
  measures that spread, and prints the ratio only when its 95% margin is within
  ``TOLERANCE`` (3%), which takes about 400 games.  A run too small for either
  (fewer games, or less warm-up) prints the counts, which still compare two versions
  of the engine on the same games, and says why it prints no ratio.

    python benchmarks/core_instructions.py [--games 1000] [--warmup 400]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: The largest 95% margin (relative) of the printed ratio; see the module docstring.
TOLERANCE = 0.03
#: 95% of a normal distribution lies within this many standard errors.
Z95 = 1.96
#: Games each engine plays before those counted: from about here on, its marginal cost
#: per game stays within 1% (see the module docstring).
MIN_WARMUP = 400

# The same random games as core_speed.py (its own play_core_game): seeded, every step
# a uniform choice from legal_actions() of all seats.  argv: games to play, of which the
# first are the warm-up.
CORE = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
from core_speed import play_core_game
from durak_core import Rules
rules = Rules()
for seed in range(int(sys.argv[1])):
    play_core_game(rules, seed)
"""

BASELINE = f"""
import random, sys
sys.path.insert(0, {str(HERE)!r})
from tutorial_baseline import play_random_game
rng = random.Random(1)
for _ in range(int(sys.argv[1])):
    play_random_game(rng)
"""


def instructions(code: str, games: int) -> int:
    """Instructions executed by ``python -c code games`` under cachegrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # the same dict layouts every run
    result = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
            str(games),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", result.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{result.stderr}")
    return int(found.group(1).replace(",", ""))


def per_game(codes: list[str], games: int, warmup: int) -> list[float]:
    """Instructions per game of the ``games`` played after ``warmup`` games, for each of
    ``codes``.  The runs under cachegrind (two a code) go at once, one process each: a
    count does not depend on what else the machine runs, and on two cores or more the
    whole takes a fraction of the time of the runs one after the other."""
    runs = [(code, n) for code in codes for n in (warmup + games, warmup)]
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:
        counts = list(pool.map(lambda run: instructions(*run), runs))
    return [(counts[2 * i] - counts[2 * i + 1]) / games for i in range(len(codes))]


def lengths(games: int, warmup: int) -> tuple[list[int], list[int]]:
    """Moves of each counted game, baseline and durak_core: the same games as above."""
    from core_speed import play_core_game
    from tutorial_baseline import play_random_game

    from durak_core import Rules

    rng = random.Random(1)
    base = [play_random_game(rng) for _ in range(warmup + games)][warmup:]
    rules = Rules()
    core = [play_core_game(rules, seed) for seed in range(warmup, warmup + games)]
    return base, core


def ratio_margin(base: list[int], core: list[int]) -> float:
    """The 95% margin, relative, of the ratio of the two engines' mean cost per game,
    taking a game's cost as proportional to its number of moves."""
    if len(base) < 2:
        return math.inf
    cv2 = sum((statistics.stdev(xs) / statistics.fmean(xs)) ** 2 for xs in (base, core))
    return Z95 * math.sqrt(cv2 / len(base))


def why_no_ratio(warmup: int, base: list[int], core: list[int]) -> str | None:
    """Why these games cannot give a meaningful ratio, or None when they can."""
    if warmup < MIN_WARMUP:
        return (f"{warmup} games of warm-up leave part of the first games' one-off cost "
                f"in the counts (it takes {MIN_WARMUP})")
    margin = ratio_margin(base, core)
    if margin <= TOLERANCE:
        return None
    games = len(base)
    if games < 2:
        return f"one game each shows nothing of how games vary; a {TOLERANCE:.0%} margin " \
            "takes a few hundred"
    needed = math.ceil(games * (margin / TOLERANCE) ** 2)
    return (f"{games} games each are too few: games vary in length, so the ratio would be "
            f"uncertain by {margin:.0%} either way (95%); about {needed} games give "
            f"{TOLERANCE:.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games counted per engine")
    parser.add_argument("--warmup", type=int, default=400,
                        help="games played first and not counted (default 400)")
    args = parser.parse_args()
    if args.games < 1 or args.warmup < 0:
        parser.error("--games must be at least 1 and --warmup at least 0")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    from durak_core import COMPILED

    engine = "compiled (mypyc)" if COMPILED and not os.environ.get("DURAK_PURE") else "pure"
    print(f"python {sys.version.split()[0]}, durak_core {engine}, "
          f"{args.games} games each after {args.warmup} not counted")
    base, core = per_game([BASELINE, CORE], args.games, args.warmup)
    print(f"baseline (tutorial-style, unchecked): {base / 1e6:7.3f} M instructions/game")
    print(f"durak_core (every action checked):    {core / 1e6:7.3f} M instructions/game")
    base_moves, core_moves = lengths(args.games, args.warmup)
    reason = why_no_ratio(args.warmup, base_moves, core_moves)
    if reason is None:
        margin = ratio_margin(base_moves, core_moves)
        print(f"ratio baseline / durak_core (instructions): {base / core:.2f} "
              f"(95% margin {margin:.1%}, from the games' spread)")
    else:
        print(f"no ratio: {reason}.  The counts above still compare two versions of the "
              "engine on the same games.")


if __name__ == "__main__":
    main()
