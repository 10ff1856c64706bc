"""benchmarks/process_cpu.py: the CPU time of every process a command starts, read from
Linux's process accounting (root only; skipped elsewhere)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "process_cpu.py"
sys.path.insert(0, str(REPO / "benchmarks"))
import process_cpu  # noqa: E402

#: The command starts a child that starts a grandchild in a session of its own and ends;
#: the grandchild spends about 0.4 s of CPU time and ends before the command, which
#: never waits for it (``time`` would miss it).  The command waits for its end by its
#: process entry (gone, or a zombie for init to reap), with a deadline.  Three Python
#: processes in all, each with a record of its own.  (The kernel counts CPU time by the
#: clock's ticks, which on a loaded machine can fall well short of what a process
#: measured itself: a run of the test command recorded 0.2 s in all for these three.)
BURN = """
import os, subprocess, sys, time
spin = "import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.4: pass"
spawn = ("import subprocess, sys; print(subprocess.Popen([sys.executable, '-c', %r],"
         " start_new_session=True).pid)" % spin)
pid = int(subprocess.run([sys.executable, "-c", spawn], capture_output=True, text=True,
                         check=True).stdout)
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        break
    if state == "Z":
        break
    time.sleep(0.01)
"""


def test_a_record_is_read_as_the_kernel_writes_it() -> None:
    """Name, begin time and user + system time in ticks of 1/100 s, with comp_t's
    base-8 exponent (5000 ticks need one: 625 << 3)."""
    record = process_cpu.RECORD.pack(0, 3, 0, 0, 0, 0, 42, 1, 1_800_000_000, 1.5,
                                     (1 << 13) | 625, 30, 0, 0, 0, 0, 0, 0, b"chromium\0")
    assert process_cpu.records(record * 2) == [("chromium", 1_800_000_000, 50.3)] * 2
    with pytest.raises(SystemExit, match="version 3"):
        process_cpu.records(process_cpu.RECORD.pack(0, 2, *[0] * 7, 0.0, *[0] * 8, b"x"))


#: Process accounting is the kernel's, and only root may switch it.
needs_root = pytest.mark.skipif(not sys.platform.startswith("linux") or os.geteuid() != 0,
                                reason="process accounting needs root on Linux")


def run_counted(*command: str) -> subprocess.CompletedProcess[str]:
    """The script run on ``command``; skips the test where the kernel refuses acct()."""
    run = subprocess.run([sys.executable, str(SCRIPT), "--", *command],
                         capture_output=True, text=True, timeout=60, check=False)
    if "acct() failed" in run.stderr:
        pytest.skip(run.stderr.strip())
    return run


@needs_root
def test_it_counts_a_process_that_ends_outside_the_command() -> None:
    run = run_counted(sys.executable, "-c", BURN)
    assert run.returncode == 0, run.stderr
    head = re.match(r"exit status 0; wall [\d.]+ s; CPU ([\d.]+) s in (\d+) processes",
                    run.stdout)
    assert head, run.stdout
    names = {m[3]: (float(m[1]), int(m[2]))
             for m in re.finditer(r"^\s+([\d.]+) s\s+(\d+)  (\S+)$", run.stdout, re.M)}
    python = Path(sys.executable).name[:15]
    cpu, processes = names.get(python, (0.0, 0))
    assert processes >= 3, run.stdout  # the grandchild counted with its parents
    assert cpu > 0 and float(head[1]) >= cpu, run.stdout


@needs_root
def test_the_commands_exit_status_is_its_own() -> None:
    run = run_counted(sys.executable, "-c", "raise SystemExit(3)")
    assert run.returncode == 3 and run.stdout.startswith("exit status 3;"), run.stdout
