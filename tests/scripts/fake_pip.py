"""A stand-in for pip in a scratch checkout's .venv (see test_scripts.py).

It records when it starts and ends (so a test can tell whether two installs overlapped),
takes a moment as a real install does, and "installs" durak by making the test
environment's own packages importable (a .pth file) with a durak dist-info next to it.
"""

import os
import sys
import sysconfig
import time
from pathlib import Path

LOG = Path(os.environ["FAKE_SETUP_LOG"])


def note(text: str) -> None:
    with LOG.open("a", encoding="utf-8") as f:
        f.write(f"{text} {os.getpid()}\n")


note("pip-start")
time.sleep(0.5)
if sys.argv[1:2] == ["uninstall"]:  # takes the named packages out of this venv
    for name in (arg for arg in sys.argv[2:] if not arg.startswith("-")):
        target = Path(sysconfig.get_paths()["purelib"]) / name.replace("-", "_")
        if target.is_dir():
            for path in sorted(target.rglob("*"), reverse=True):
                path.rmdir() if path.is_dir() else path.unlink()
            target.rmdir()
if "-e" in sys.argv:
    site = Path(sysconfig.get_paths()["purelib"])
    info = site / "durak-0.1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: durak\nVersion: 0.1.0\n")
    (site / "test-environment.pth").write_text(os.environ["FAKE_SETUP_SITE"] + "\n")
note("pip-end")
