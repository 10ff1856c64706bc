"""One build of the site at a time: two pytest workers that both find the site out of date
(tests/lite and tests/e2e each ask for it) must not replace it under each other, or a page
loading it finds a package missing.  scripts/lite_site.py's build() holds a lock on a
file beside the site while it builds or copies."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "scripts"))
import lite_site  # noqa: E402

pytest.importorskip("fcntl", reason="the lock is POSIX's flock")


def test_a_second_build_waits_for_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first build waits (up to half a second) for the second to begin inside it too;
    with the lock the second cannot, and begins only after the first has ended."""
    events: list[str] = []
    second_began = threading.Event()
    second_called = threading.Event()
    first_began = threading.Event()

    def slow_build(site: Path, force: bool) -> Path:
        name = threading.current_thread().name
        events.append(f"{name} begins")
        if name == "first":
            first_began.set()
            second_called.wait(10)
            second_began.wait(0.5)  # only without the lock can it come
        else:
            second_began.set()
        events.append(f"{name} ends")
        return site

    monkeypatch.setattr(lite_site, "_build", slow_build)
    site = tmp_path / "site"

    def second() -> None:
        second_called.set()
        lite_site.build(site)

    first = threading.Thread(target=lite_site.build, args=(site,), name="first")
    first.start()
    assert first_began.wait(10)  # the first holds the lock
    other = threading.Thread(target=second, name="second")
    other.start()
    first.join(15)
    other.join(15)
    assert events == ["first begins", "first ends", "second begins", "second ends"]
    assert (tmp_path / ".site.lock").is_file()
