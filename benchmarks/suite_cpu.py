"""Where the test command's CPU time goes, file by file: pytest run with a plugin that
records each test's CPU time, then the test files listed, dearest first.

    python benchmarks/suite_cpu.py [--top 25] -- -n 4 --dist loadfile tests

The arguments after ``--`` are pytest's (``-p no:nbval`` is added, as the test command
does).  For each test, from the start of its setup to the end of its teardown, in the
process that ran it (each pytest-xdist worker):

- *own*: the CPU time (user + system) of that process itself;
- *waited*: the CPU time of its child processes that ended and were waited for
  meanwhile (``getrusage(RUSAGE_CHILDREN)``): a command a test ran, a server a fixture
  stopped.

A process that outlives the test that started it is counted where it is waited for:
a module's server at that module's last teardown, but a browser or server kept for the
whole run at the last test of that process, and Chromium's renderers not at all (the
browser waits for them, not pytest).  ``benchmarks/process_cpu.py`` counts every
process, by name, for the command as a whole.  The wall column is the test's own time,
as ``--durations`` gives it.
"""

from __future__ import annotations

import argparse
import collections
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

#: Where the plugin writes its rows (one file per process), set by the command.
ROWS_DIR = "DURAK_TEST_CPU_DIR"


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, waited.ru_utime + waited.ru_stime


class Recorder:
    """The pytest plugin: one row per test, ``nodeid  own  waited  wall``."""

    def __init__(self, folder: str) -> None:
        self._path = Path(folder) / f"{os.getpid()}.tsv"

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: Any, nextitem: Any) -> Any:
        own, waited = _cpu()
        began = time.monotonic()
        yield
        own2, waited2 = _cpu()
        with self._path.open("a", encoding="utf-8") as rows:
            rows.write(f"{item.nodeid}\t{own2 - own:.3f}\t{waited2 - waited:.3f}\t"
                       f"{time.monotonic() - began:.3f}\n")


def pytest_configure(config: Any) -> None:
    """Loaded with ``-p suite_cpu``: record when the command asked for it."""
    folder = os.environ.get(ROWS_DIR)
    if folder:
        config.pluginmanager.register(Recorder(folder), "suite-cpu-recorder")


def by_file(folder: Path) -> dict[str, list[float]]:
    """Own, waited and wall seconds summed by test file, from every process's rows."""
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0.0])
    for rows in sorted(folder.glob("*.tsv")):
        for line in rows.read_text(encoding="utf-8").splitlines():
            nodeid, own, waited, wall = line.rsplit("\t", 3)
            total = files[nodeid.split("::", 1)[0]]
            total[0] += float(own)
            total[1] += float(waited)
            total[2] += float(wall)
    return dict(files)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="test files listed")
    parser.add_argument("pytest_args", nargs=argparse.REMAINDER, help="-- PYTEST ARGS ...")
    args = parser.parse_args(argv)
    pytest_args = args.pytest_args[1:] if args.pytest_args[:1] == ["--"] else args.pytest_args
    with tempfile.TemporaryDirectory(prefix="suite-cpu-") as folder:
        here = str(Path(__file__).resolve().parent)
        env = dict(os.environ, **{ROWS_DIR: folder})
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [here, env.get("PYTHONPATH")]))
        began = time.monotonic()
        status = subprocess.call([sys.executable, "-m", "pytest", "-p", "no:nbval",
                                  "-p", "suite_cpu", *pytest_args], env=env)
        wall = time.monotonic() - began
        files = by_file(Path(folder))
    own = sum(f[0] for f in files.values())
    waited = sum(f[1] for f in files.values())
    print(f"\npytest exit status {status}; wall {wall:.1f} s; {len(files)} test files; "
          f"CPU {own:.1f} s in the test processes, {waited:.1f} s in processes they waited for")
    print(f"{'own + waited':>12} {'own':>7} {'waited':>7} {'wall':>7}  test file")
    ranked = sorted(files.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    carried = False
    for name, (own_s, waited_s, wall_s) in ranked[: args.top]:
        # More than the cores could give in the file's own time: processes begun before.
        mark = " *" if waited_s > wall_s * (cores or 1) + 0.5 else ""
        carried = carried or bool(mark)
        print(f"{own_s + waited_s:10.1f} s {own_s:7.1f} {waited_s:7.1f} {wall_s:7.1f}  "
              f"{name}{mark}")
    if carried:
        print(f"* waited for more CPU time than {cores} cores give in the file's own wall time: "
              "processes begun before it (a browser or server kept for the run) ended there")
    return status


if __name__ == "__main__":
    sys.exit(main())
