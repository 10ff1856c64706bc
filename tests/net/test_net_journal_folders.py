"""Journal folders are private (0700) wherever they are created: they hold each seat's
signing key, the session keys and every game's seed.  ``--journal DIR`` used to be
created 0755."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from durak_net.cli import main
from durak_net.journal import Journal, private_folder


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The usual umask (022), under which a plain mkdir makes 0755."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_level_a_journal_creates_is_0700(tmp_path: Path, open_umask: None) -> None:
    folder = tmp_path / "state" / "durak" / "lan"
    journal = Journal.create(folder, 0x7AB1E, 1)
    journal.write([{"t": "epoch", "epoch": 1}])
    journal.close()
    assert [_mode(p) for p in (tmp_path / "state", folder.parent, folder)] == [0o700] * 3
    assert _mode(journal.path) == 0o600
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    private_folder(shared)
    assert _mode(shared) == 0o755


def test_the_terminal_peers_journal_folder_is_0700(tmp_path: Path, open_umask: None,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games" / "lan"
    status = main(["--name", "Ann", "--port", "0", "--bot", "random", "--journal",
                   str(folder), "--resume", "--timeout", "0.3"])
    assert status == 3  # nothing to resume, nobody to play: the timeout
    assert _mode(folder) == _mode(folder.parent) == 0o700
    assert "nothing to resume" in capsys.readouterr().out
