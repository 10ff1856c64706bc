"""Instructions per random game, durak_core against the tutorial-style baseline.

A noise-free companion to core_speed.py: on a shared or virtual machine timings move
by a tenth or more between runs, while the number of machine instructions a fixed
set of seeded games executes does not (to within about 1%).  Use it to tell whether
a change to the engine made it cheaper.  It needs valgrind (``apt-get install
valgrind``); each count runs the games under cachegrind, once with no games to
subtract the cost of starting Python and importing.

    python benchmarks/core_instructions.py [--games 1000]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The same random games as core_speed.py (its own play_core_game): seeded, every step
# a uniform choice from legal_actions() of all seats.
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


def per_game(code: str, games: int) -> float:
    return (instructions(code, games) - instructions(code, 0)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per engine")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    from durak_core import COMPILED

    engine = "compiled (mypyc)" if COMPILED and not os.environ.get("DURAK_PURE") else "pure"
    print(f"python {sys.version.split()[0]}, durak_core {engine}, {args.games} games each")
    base = per_game(BASELINE, args.games)
    core = per_game(CORE, args.games)
    print(f"baseline (tutorial-style, unchecked): {base / 1e6:7.3f} M instructions/game")
    print(f"durak_core (every action checked):    {core / 1e6:7.3f} M instructions/game")
    print(f"ratio baseline / durak_core (instructions): {base / core:.2f}")


if __name__ == "__main__":
    main()
