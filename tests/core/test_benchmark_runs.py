"""benchmarks/core_speed.py, the command the README quotes, still runs and reports
every figure.  Speed itself is measured by the script, never asserted here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_core_speed_benchmark_prints_every_figure() -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "core_speed.py"), "--seconds", "0.1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    for label in (
        "baseline (tutorial-style, unchecked)",
        "durak_core (every action checked)",
        "ratio durak_core / baseline",
        "4 players, 52 cards, perevodnoy",
        "6 players, 36 cards, neighbours",
        "copy()",
        "legal_actions(defender), uncached",
        "legal_actions() all seats, uncached",
        "view(d).determinize(rng)",
    ):
        line = next((x for x in out.splitlines() if label in x), None)
        assert line is not None, f"{label!r} missing from:\n{out}"
        numbers = [float(n) for n in re.findall(r"\d+\.\d+|\d+", line.split(label)[1])]
        assert numbers and numbers[0] > 0, line
