"""The game log, one part of a seat's session: every game's entries as this seat
applied them, and what a seat reads from them.

Each entry keeps what every seat needs to check it again later: the action's text, the
public-state hash after it, and for a seated player's proposal what that seat signed
(the log it was made on, its signature, the salt that opens its commitment).  The log
answers the questions the proposals and the audit ask of it: the log a proposal was
made on (``head``), whether a proposal names a log that is not a prefix of ours (a
fork), whether a bot played a seat since a given entry.  It makes the Entry frames a
seat back from its journal is sent again, and the journal records that replay it.  No
I/O, no clock: the session appends what it has checked.

>>> part = GameLog()
>>> part.begin(1)
>>> part.add(1, LogEntry("0 attack 6♠", bytes(16)))
0
>>> seen, seen_hash = part.head(1)
>>> seen, len(seen_hash), part.forks(1, 1, seen_hash), part.forks(1, 1, bytes(32))
(1, 32, False, True)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from . import entry_sig
from .identity import Identity
from .wire import Entry, Head


@dataclass(frozen=True)
class LogEntry:
    """One applied action: its text, the public-state hash after it, its proposal id,
    the reveals of the cards it opened (``(position, key)``) and, for another seat's
    proposal, what that seat signed (``seen``, ``seen_hash``, ``sig``)."""

    action: str
    hash: bytes
    pid: int = 0
    reveals: tuple[tuple[int, bytes], ...] = ()
    seen: int = 0
    seen_hash: bytes = b""
    sig: bytes = b""
    forced: str = ""
    #: The salt that opens the proposal's commitment (section 7): with it every seat
    #: checks the proposer's signature.
    salt: bytes = b""
    #: The link hash of the log before it, and the host's signature over both
    #: (:mod:`durak_net.entry_sig`).
    prev: bytes = b""
    host_sig: bytes = b""

    def played_by_bot_for(self, seat: int) -> bool:
        """Whether the host's bot played this action for ``seat`` while it was away."""
        return self.forced == "bot" and self.action.startswith(f"{seat} ")

    def frame(self, game: int, index: int) -> Entry:
        """The Entry frame of this entry at ``index`` of ``game`` (as the host sends it)."""
        return Entry(0, game, index, self.action, self.hash, self.pid, list(self.reveals),
                     self.seen, self.seen_hash, self.sig, self.forced, self.salt, self.prev,
                     self.host_sig)

    def link(self, game: int, index: int) -> bytes:
        """The link hash of the log up to and with this entry (what a proposal made
        after it names as its log)."""
        return entry_sig.link(self.prev, entry_sig.digest(self.frame(game, index)))

    @classmethod
    def of_frame(cls, frame: Entry) -> LogEntry:
        """The entry an Entry frame carries (as checked by the seat that applies it)."""
        return cls(frame.action, frame.hash, frame.pid,
                   tuple((p, bytes(k)) for p, k in frame.reveals), frame.seen,
                   frame.seen_hash, frame.sig, frame.forced, frame.salt, frame.prev,
                   frame.host_sig)

    def record(self, game: int, index: int) -> dict[str, Any]:
        """The journal record of this entry (:meth:`from_record` reads it back)."""
        return {"t": "entry", "game": game, "index": index, "action": self.action,
                "hash": self.hash.hex(), "pid": self.pid,
                "reveals": [[p, k.hex()] for p, k in self.reveals], "seen": self.seen,
                "seen_hash": self.seen_hash.hex(), "sig": self.sig.hex(),
                "forced": self.forced, "salt": self.salt.hex(), "prev": self.prev.hex(),
                "host_sig": self.host_sig.hex()}

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> LogEntry:
        """The entry of a journal ``entry`` record (older journals lack some fields)."""
        return cls(str(rec["action"]), bytes.fromhex(rec["hash"]), int(rec.get("pid", 0)),
                   tuple((int(p), bytes.fromhex(k)) for p, k in rec.get("reveals", [])),
                   int(rec.get("seen", 0)), bytes.fromhex(rec.get("seen_hash", "")),
                   bytes.fromhex(rec.get("sig", "")), str(rec.get("forced", "")),
                   bytes.fromhex(rec.get("salt", "")), bytes.fromhex(rec.get("prev", "")),
                   bytes.fromhex(rec.get("host_sig", "")))


def log_hash(entries: list[LogEntry]) -> str:
    """A hash of a game's action log (the terminal peer prints it per finished game)."""
    text = "\n".join(e.action for e in entries).encode()
    return hashlib.blake2b(text, digest_size=16).hexdigest()


class GameLog:
    """Every game's log, by game number."""

    def __init__(self) -> None:
        self.logs: dict[int, list[LogEntry]] = {}
        #: The link hash after each entry, by game (kept as entries are added).
        self.links: dict[int, list[bytes]] = {}
        #: The last Entry the host sent us that carried its signature (:meth:`check`):
        #: what a desync it causes carries as evidence (:meth:`evidence_of`).
        self.last_signed: Entry | None = None

    def of(self, game: int) -> list[LogEntry]:
        """Game ``game``'s entries (empty for a game not dealt)."""
        return self.logs.get(game, [])

    def begin(self, game: int) -> None:
        """Game ``game`` is dealt: its log starts (empty)."""
        self.logs.setdefault(game, [])
        self.links.setdefault(game, [])

    def add(self, game: int, entry: LogEntry) -> int:
        """Append a checked entry to game ``game``'s log; its index."""
        log = self.logs.setdefault(game, [])
        index = len(log)
        digest = entry_sig.digest(entry.frame(game, index))
        log.append(entry)
        self.links.setdefault(game, []).append(entry_sig.link(self.link(game, index), digest))
        return index

    def replay(self, rec: dict[str, Any]) -> LogEntry:
        """A journal's ``entry`` record, appended again: it must be the next entry of
        its game (``ValueError`` otherwise)."""
        number, index = int(rec["game"]), int(rec["index"])
        if number not in self.logs:
            raise ValueError(f"an entry of game {number}, which was not dealt")
        if index != len(self.logs[number]):
            raise ValueError(f"game {number} entry {len(self.logs[number])} is missing")
        entry = LogEntry.from_record(rec)
        self.add(number, entry)
        return entry

    def head(self, game: int) -> tuple[int, bytes]:
        """The log length we have seen and the link hash after its last entry (what a
        proposal made now names as its log)."""
        return len(self.of(game)), self.link(game, len(self.of(game)))

    def link(self, game: int, length: int) -> bytes:
        """The link hash of the first ``length`` entries of game ``game`` (empty for
        none): the ``prev`` of entry ``length``."""
        links = self.links.get(game, [])
        return links[length - 1] if 0 < length <= len(links) else b""

    def head_at(self, game: int, index: int) -> Head | None:
        """Entry ``index`` of game ``game`` as the host signed it to us (evidence), or
        None (no such entry, or one the host did not sign)."""
        log = self.of(game)
        if not 0 <= index < len(log) or not log[index].host_sig:
            return None
        return entry_sig.head_of(log[index].frame(game, index))

    def signed(self, game: int, entry: LogEntry, identity: Identity, table: int) -> LogEntry:
        """Host: ``entry``, the next of game ``game``, with the link hash before it and
        our signature (every entry we send is signed: :mod:`durak_net.entry_sig`)."""
        index = len(self.of(game))
        frame = entry_sig.sign(identity, table, entry.frame(game, index),
                               self.link(game, index))
        return LogEntry.of_frame(frame)

    def check(self, frame: Entry, *, table: int, host_key: bytes) -> tuple[str, list[bytes]]:
        """A seated player: what an Entry from the host is to our log, on the host's
        signature alone.  ``("unsigned", [])``: not signed by the host over its own
        ``prev`` (dropped and counted); ``("fork", evidence)``: it and what the host signed
        to us before do not make one log (the evidence proves it to every seat:
        :func:`durak_net.entry_sig.proves_fork`); ``("copy", [])``: an entry we have, sent
        again; ``("next", [])``: the next entry, on our log (its game, rules and cards are
        the caller's to check); ``("later", [])``: beyond the next (a gap)."""
        if not entry_sig.signed(frame, table=table, host_key=host_key):
            return "unsigned", []
        self.last_signed = frame
        game, index, log = frame.game, frame.index, self.of(frame.game)
        theirs = entry_sig.head_of(frame)
        if index < len(log):
            ours = self.head_at(game, index)
            if ours is not None and entry_sig.contradict(ours, theirs):
                return "fork", [entry_sig.encode(ours), entry_sig.encode(theirs)]
            return "copy", []
        if index > len(log):
            return "later", []
        if frame.prev != self.link(game, index):
            before = self.head_at(game, index - 1)
            if before is not None:
                return "fork", [entry_sig.encode(before), entry_sig.encode(theirs)]
            if index == 0:
                return "fork", [entry_sig.encode(theirs)]
            return "later", []  # (an entry before it the host did not sign: no log here)
        if entry_sig.misplaced(frame):
            return "fork", [entry_sig.encode(frame)]
        return "next", []

    def evidence_of(self, game: int, index: int) -> list[bytes]:
        """Entry ``index`` of game ``game`` as the host signed it to us last (the one our
        state disagreed with, or that came out of order), as a Fault's evidence: another
        seat that holds another entry the host signed at that place sees the fork
        (:meth:`durak_net.outcomes.Outcomes.signed_proof`).  Empty: we hold none."""
        frame = self.last_signed
        if frame is None or (frame.game, frame.index) != (game, index):
            return []
        return [entry_sig.encode(frame)]

    def forks(self, game: int, seen: int, seen_hash: bytes) -> bool:
        """Does a proposal that names the log of ``seen`` entries ending in
        ``seen_hash`` name one that is not a prefix of ours?  (A host that shows seats
        different logs is caught when any of them proposes.)"""
        log = self.of(game)
        return seen > len(log) or self.link(game, seen) != seen_hash

    def played_for_since(self, game: int, seat: int, seen: int) -> int | None:
        """The first entry from index ``seen`` on that the host's bot played for ``seat``
        (None: none).  Only such an entry changes a seat's hand without the seat: its
        own moves are one proposal at a time, and a timed-out take or pass plays no
        card."""
        log = self.of(game)
        for index in range(seen, len(log)):
            if log[index].played_by_bot_for(seat):
                return index
        return None

    def frames_from(self, game: int, start: int) -> list[Entry]:
        """The Entry frames of game ``game`` from index ``start`` on (resent to a seat
        back from its journal)."""
        return [e.frame(game, i) for i, e in enumerate(self.of(game)) if i >= start]
