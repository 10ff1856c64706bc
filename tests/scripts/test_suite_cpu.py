"""benchmarks/suite_cpu.py: the test command's CPU time by test file, a test's own and
that of the processes it waited for, each put down to the file that spent it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "suite_cpu.py"

SPIN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"

OWN = f"""
def test_spins_here():
{''.join('    ' + line + chr(10) for line in SPIN.splitlines())}
"""

WAITED = f"""
import subprocess, sys

def test_runs_a_spinning_command():
    subprocess.run([sys.executable, "-c", {SPIN!r}], check=True)

def test_does_nothing():
    pass
"""


def run_on(folder: Path) -> subprocess.CompletedProcess[str]:
    """The script run on the tests in ``folder``."""
    return subprocess.run([sys.executable, str(SCRIPT), "--", "-q", "-p", "no:cacheprovider",
                           str(folder)], capture_output=True, text=True, timeout=120,
                          check=False, cwd=folder)


def rows_of(stdout: str) -> dict[str, tuple[float, float, float, float, bool]]:
    """Each listed file's total, own, waited and wall seconds and whether it is marked,
    by file name, in the order printed."""
    return {Path(m[5]).name: (float(m[1]), float(m[2]), float(m[3]), float(m[4]), bool(m[6]))
            for m in re.finditer(r"^\s+([\d.]+) s\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)  (\S+)( \*)?$",
                                 stdout, re.M)}


def test_each_file_gets_its_own_cpu_time_and_its_commands(tmp_path: Path) -> None:
    (tmp_path / "test_own.py").write_text(OWN)
    (tmp_path / "test_waited.py").write_text(WAITED)
    run = run_on(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 passed" in run.stdout
    rows = rows_of(run.stdout)
    assert set(rows) == {"test_own.py", "test_waited.py"}, run.stdout
    total, own, waited, _, _ = rows["test_own.py"]
    assert own >= 0.25 and waited < 0.1, run.stdout
    assert abs(total - own - waited) < 0.15, run.stdout  # each printed to a tenth
    total, own, waited, _, _ = rows["test_waited.py"]
    assert waited >= 0.25 and own < 0.25, run.stdout
    # The dearer file first.
    assert list(rows) == sorted(rows, key=lambda name: -rows[name][0])


def test_pytests_exit_status_is_passed_on(tmp_path: Path) -> None:
    (tmp_path / "test_fails.py").write_text("def test_fails():\n    assert False\n")
    run = run_on(tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "pytest exit status 1" in run.stdout


#: A process begun in one file and waited for in another, once it has ended: the second
#: file's test takes no time of its own, yet is given the process's CPU time, so its row
#: is marked as carrying work begun before it.
LONG_SPIN = SPIN.replace("0.3", "1.2")
START = f"""
import subprocess, sys, time
import conftest

def test_starts_a_spinning_process():
    conftest.SPINNER.append(subprocess.Popen([sys.executable, "-c", {LONG_SPIN!r}]))

def test_sees_it_end_without_waiting_for_it():
    pid = conftest.SPINNER[0].pid
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = open(f"/proc/{{pid}}/stat").read().rsplit(")", 1)[1].split()[0]
        if state == "Z":
            break
        time.sleep(0.01)
    assert state == "Z"
"""

REAP = """
import conftest

def test_waits_for_it():
    assert conftest.SPINNER[0].wait() == 0
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads a state in /proc")
def test_a_process_waited_for_after_its_end_marks_the_file_it_ended_in(
    tmp_path: Path,
) -> None:
    (tmp_path / "conftest.py").write_text("SPINNER = []\n")
    (tmp_path / "test_1_start.py").write_text(START)
    (tmp_path / "test_2_reap.py").write_text(REAP)
    run = run_on(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    rows = rows_of(run.stdout)
    assert rows["test_2_reap.py"][4] and not rows["test_1_start.py"][4], run.stdout
    assert "processes begun before it" in run.stdout
