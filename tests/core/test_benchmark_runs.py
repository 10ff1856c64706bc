"""benchmarks/core_speed.py, the command docs/benchmarks.md quotes, still runs and reports
every figure.  Speed itself is measured by the script, never asserted here."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _core_speed_output() -> str:
    return subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "core_speed.py"), "--seconds", "0.1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout


def _shape(line: str) -> str:
    """A printed line with its figures (and the engine's kind) left out."""
    line = line.replace("pure Python", "compiled (mypyc)")
    return " ".join(re.sub(r"\d+(?:\.\d+)?", "N", line).split())


def test_the_documented_core_speed_block_lists_every_row_the_script_prints() -> None:
    """docs/benchmarks.md shows the script's whole output, not a selection of it."""
    text = (REPO / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    after = text.split("`python benchmarks/core_speed.py`", 1)[1]
    block = after.split("```\n", 2)[1]
    shown = {_shape(line) for line in block.splitlines()}
    missing = [line for line in _core_speed_output().splitlines() if _shape(line) not in shown]
    assert not missing, "rows the script prints that docs/benchmarks.md does not show:\n" + (
        "\n".join(missing)
    )


def test_core_speed_benchmark_prints_every_figure() -> None:
    out = _core_speed_output()
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


# ------------------------------------------------- benchmarks/core_instructions.py


def _core_instructions():  # a script, not a package: imported by its path
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import core_instructions
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    return core_instructions


def test_a_few_games_give_no_instruction_ratio_but_say_why() -> None:
    """Five games' mean cost is no measure of an engine (games vary in length by a
    fifth and more): the ratio they would give is withheld, with the games it needs."""
    ci = _core_instructions()
    base, core = ci.lengths(5, warmup=ci.MIN_WARMUP)
    reason = ci.why_no_ratio(ci.MIN_WARMUP, base, core)
    assert reason is not None and "too few" in reason
    needed = int(re.search(r"about (\d+) games", reason).group(1))
    assert 200 <= needed <= 2000, reason


def test_the_default_run_gives_the_ratio() -> None:
    ci = _core_instructions()
    base, core = ci.lengths(1000, warmup=ci.MIN_WARMUP)
    assert ci.why_no_ratio(ci.MIN_WARMUP, base, core) is None


def test_a_run_without_warm_up_gives_no_ratio() -> None:
    """The first games pay for what later games reuse; uncounted warm-up games keep that
    one-off cost out of the figure, and a run with too few of them says so."""
    ci = _core_instructions()
    base, core = ci.lengths(1000, warmup=0)
    reason = ci.why_no_ratio(0, base, core)
    assert reason is not None and "warm-up" in reason


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="needs valgrind")
def test_a_small_instruction_run_prints_counts_and_no_ratio() -> None:
    out = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "core_instructions.py"),
         "--games", "5", "--warmup", "0"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    assert "M instructions/game" in out
    assert "no ratio:" in out and "ratio baseline / durak_core" not in out, out
