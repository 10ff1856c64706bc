"""How much CPU time a command costs, counted in every process it starts: Chromium's
renderers and the kernels of a server included, which ``time`` misses when they end
outside the tree it waits for.

Linux process accounting (``acct(2)``, root only) writes a record of each process's CPU
time as it ends; this script turns it on for the length of the command, into a file of
its own, and reads back the records of the processes begun while it ran (so run it on
an otherwise quiet machine: another job's processes begun meanwhile count too).

    python benchmarks/process_cpu.py [--top 15] -- bash scripts/test.sh

It prints the wall time, the CPU time (user + system) of those processes in all, and
then by command name (the kernel's 15-character name).  Accounting is the machine's
one switch: the script turns it off at the end, so it cannot run inside another run of
itself.
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import ctypes.util
import os
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: ``struct acct_v3`` of <linux/acct.h>: flag, version, tty, exit code, uid, gid, pid,
#: ppid, begin time (s), elapsed (float), then eight ``comp_t`` counters (user time,
#: system time, ...) and the command's name.
RECORD = struct.Struct("<BBHIIIIIIf8H16s")
#: Clock ticks a second of the ``comp_t`` times (``AHZ``).
AHZ = 100


def comp_t(value: int) -> int:
    """A ``comp_t``: 13 bits of mantissa, 3 bits of base-8 exponent."""
    return (value & 0x1FFF) << (3 * (value >> 13))


def records(data: bytes) -> list[tuple[str, int, float]]:
    """Each record's command name, begin time (s since the epoch) and CPU seconds."""
    out = []
    for offset in range(0, len(data) - RECORD.size + 1, RECORD.size):
        fields = RECORD.unpack_from(data, offset)
        if fields[1] & 0x7F != 3:
            raise SystemExit(f"process_cpu: not a version 3 accounting record: {fields[1]}")
        cpu = (comp_t(fields[10]) + comp_t(fields[11])) / AHZ
        name = fields[18].split(b"\0", 1)[0].decode(errors="replace")
        out.append((name, fields[8], cpu))
    return out


def accounting(path: str | None) -> None:
    """Turn process accounting on into ``path``, or off (None)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    if libc.acct(None if path is None else os.fsencode(path)) != 0:
        err = ctypes.get_errno()
        raise SystemExit(f"process_cpu: acct() failed: {os.strerror(err)}"
                         " (process accounting needs root on Linux)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=15, help="command names listed")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND ...")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command after --")
    with tempfile.TemporaryDirectory(prefix="process-cpu-") as tmp:
        log = Path(tmp) / "acct"
        log.touch()
        began = time.time()
        accounting(str(log))
        try:
            status = subprocess.call(command)
        finally:
            accounting(None)
        wall = time.time() - began
        found = [r for r in records(log.read_bytes()) if r[1] >= int(began)]
    by_name: collections.Counter[str] = collections.Counter()
    count: collections.Counter[str] = collections.Counter()
    for name, _, cpu in found:
        by_name[name] += cpu
        count[name] += 1
    print(f"exit status {status}; wall {wall:.1f} s; CPU {sum(by_name.values()):.1f} s "
          f"in {len(found)} processes")
    for name, cpu in by_name.most_common(args.top):
        print(f"{cpu:9.1f} s {count[name]:6d}  {name}")
    return status


if __name__ == "__main__":
    sys.exit(main())
