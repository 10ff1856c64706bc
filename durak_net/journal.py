"""A session's journal on disk, so a restarted kernel can resume its game.

One JSON object per line, appended as the session produces them (session header with
rules and key, epochs, each game's deal seed and the deal messages received, log
entries with the cards they opened, proposals, stops, audits, goodbye).
:meth:`~durak_net.session.Session.restore` rebuilds the session from them.  Records
are written before the datagrams they concern are sent (the node does that), so a
peer never knows of an entry its partner could forget.

The file holds secrets (the session key, and each game's seed, which opens every card
of ours): it lives in the user's own state directory, the folder is created
readable by its owner only (0700) and each journal file likewise (0600).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> with Journal.create(folder, 0x2A, 0) as j:
...     j.write([{"t": "session", "table": 42}])
>>> read_journal(folder / "2a-seat0.jsonl")
[{'t': 'session', 'table': 42}]
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from .i18n import N_, Refusal


def default_journal_dir() -> Path:
    """``$XDG_STATE_HOME/durak/lan`` (``~/.local/state/durak/lan`` by default)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "durak" / "lan"


def private_folder(folder: Path) -> Path:
    """``folder``, created if missing, with every level we create readable by its owner
    only (0700, whatever the umask): journals hold signing keys, session keys and
    seeds.  A folder that exists is left as it is (it may be shared, like ``/tmp``)."""
    missing = []
    level = Path(folder)
    while not level.exists():
        missing.append(level)
        if level.parent == level:
            break
        level = level.parent
    for level in reversed(missing):
        try:
            level.mkdir(mode=0o700)
        except FileExistsError:  # made meanwhile by another process: not ours to change
            continue
        os.chmod(level, 0o700)  # mkdir's mode is filtered by the umask
    return Path(folder)


class Journal:
    """Append-only JSON-lines file of one session."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    @classmethod
    def create(cls, folder: Path, table: int, seat: int) -> Journal:
        """The journal of our seat at ``table``: ``<table hex>-seat<seat>.jsonl``.  Every
        seat of a table shares its id, and notebooks on one machine share the default
        folder.  The folder is made private (0700) if we create it."""
        return cls(private_folder(folder) / f"{table:x}-seat{seat}.jsonl")

    def write(self, records: Iterable[dict[str, Any]]) -> None:
        """Append records and flush them to the operating system."""
        lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records]
        if not lines:
            return
        if self._file is None:
            # Created readable by its owner only: it holds the session key and seeds.
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            os.fchmod(fd, 0o600)
            self._file = os.fdopen(fd, "a", encoding="utf-8")
        self._file.write("\n".join(lines) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def read_journal(path: Path) -> list[dict[str, Any]]:
    """The records of a journal file; a torn last line (a crash mid-write) is skipped."""
    records: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if f.read().strip():  # not the last line: the file is damaged
                    raise Refusal(N_("{path}: line {number} is not JSON"), path=path,
                                  number=number) from None
                break
            if not isinstance(record, dict):
                raise Refusal(N_("{path}: line {number} is not a record"), path=path,
                              number=number)
            records.append(record)
    return records


def resumable(folder: Path, name: str | None = None) -> list[tuple[Path, dict[str, Any]]]:
    """Journals in ``folder`` of sessions that did not end, newest first, with their
    headers (plus ``peer_name``: the names of the seats we were linked to); with
    ``name``, only those of the player of that name (the folder may be shared)."""
    if not folder.is_dir():
        return []
    out: list[tuple[Path, dict[str, Any]]] = []
    for path in sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            records = read_journal(path)
        except (OSError, ValueError):
            continue
        if (
            records
            and records[0].get("t") == "session"
            and (name is None or records[0].get("name") == name)
            and not any(r.get("t") == "bye" for r in records)
        ):
            head = dict(records[0])
            peers = [str(r.get("name", "")) for r in records if r.get("t") == "link"]
            head["peer_name"] = ", ".join(p for p in peers if p)
            out.append((path, head))
    return out
