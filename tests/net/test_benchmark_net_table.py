"""benchmarks/net_table.py, which docs/benchmarks.md quotes, still runs and prints every figure
(its runs stop with an error on a desync or an unfair audit).  Speed itself is measured
by the script, never asserted here."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _figures(out: str, label: str) -> list[list[float]]:
    rows = [line.split(label, 1)[1] for line in out.splitlines() if label in line]
    return [[float(n) for n in re.findall(r"\d+\.\d+|\d+", row)] for row in rows]


def test_the_table_benchmark_prints_the_deal_and_the_move_latency() -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "net_table.py"), "--runs", "1",
         "--seats", "3", "--decks", "36", "--games", "1", "--loss", "0", "0.2"],
        capture_output=True, text=True, timeout=240, check=True,
    ).stdout
    deals = [line.split() for line in out.splitlines() if re.match(r"\s+[23]\s+36\s", line)]
    assert [row[0] for row in deals] == ["2", "3"], out
    for row in deals:
        # deal, network only, CPU of all seats, CPU of the busiest (median / worst each)
        numbers = [float(x) for x in re.findall(r"\d+\.\d+", " ".join(row[2:]))]
        assert len(numbers) == 9 and all(n > 0 for n in numbers), row
        assert numbers[0] >= numbers[2], row  # charging CPU never makes a deal faster
    for label in ("host applied -> every seat", "host applied -> one seat",
                  "network only: -> every seat", "CPU per entry at the host",
                  "CPU per entry at a seat", "2 seats: host applied -> seat 1"):
        rows = _figures(out, label)
        assert len(rows) == 2, f"{label!r} not once per loss rate in:\n{out}"
        for moves, p50, p99, worst in rows:
            assert moves > 10 and 0 < p50 <= p99 <= worst, (label, out)
    assert len(_figures(out, "p50 against 2 seats")) == 2, out
