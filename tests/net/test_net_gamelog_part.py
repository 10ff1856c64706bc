"""The game log part on its own (no session, no network): entries kept, replayed and
resent as they were applied, and the questions a proposal asks of the log."""

from __future__ import annotations

import pytest

from durak_net.gamelog import GameLog, LogEntry, log_hash

H1, H2 = bytes([1]) * 32, bytes([2]) * 32


def _log() -> GameLog:
    part = GameLog()
    part.begin(1)
    part.add(1, LogEntry("0 attack 6♠", H1))
    part.add(1, LogEntry("1 take", H2, pid=3, seen=1, seen_hash=H1, sig=bytes(64),
                         salt=bytes(16)))
    return part


def test_a_proposal_names_its_log_by_length_and_link_hash_and_a_fork_is_seen() -> None:
    part = _log()
    seen, link2 = part.head(1)
    link1 = part.link(1, 1)
    assert seen == 2 and len(link2) == 32 and link1 != link2 and part.head(2) == (0, b"")
    assert not part.forks(1, 2, link2) and not part.forks(1, 1, link1)
    assert not part.forks(1, 0, b"")
    assert part.forks(1, 2, link1)  # another hash at entry 1: the host showed another log
    assert part.forks(1, 2, H2)  # the entry's public hash is not its link
    assert part.forks(1, 3, link2)  # longer than ours
    assert part.forks(1, 0, link1)  # no entry, but a hash
    # The link hash chains the whole log: another first entry changes the second's link.
    other = GameLog()
    other.begin(1)
    other.add(1, LogEntry("0 attack 7♠", H1))
    other.add(1, LogEntry("1 take", H2, pid=3, seen=1, seen_hash=H1, sig=bytes(64),
                          salt=bytes(16)))
    assert other.head(1)[1] != link2


def test_only_a_bot_entry_for_the_seat_makes_its_proposal_stale() -> None:
    part = _log()
    assert part.played_for_since(1, 1, 0) is None  # its own take is no bot's
    part.add(1, LogEntry("2 pass", H1, forced="timeout"))
    part.add(1, LogEntry("1 attack 7♠", H2, forced="bot"))
    assert part.played_for_since(1, 1, 0) == 3
    assert part.played_for_since(1, 1, 4) is None and part.played_for_since(1, 2, 0) is None


def test_an_entry_replays_from_its_journal_record_and_resends_as_it_was_sent() -> None:
    part = _log()
    again = GameLog()
    again.begin(1)
    for index, entry in enumerate(part.of(1)):
        assert again.replay(entry.record(1, index)) == entry
    assert again.logs == part.logs and log_hash(again.of(1)) == log_hash(part.of(1))
    frames = part.frames_from(1, 1)
    assert [(f.index, f.action, f.pid, f.salt) for f in frames] == [(1, "1 take", 3, bytes(16))]


def test_a_journal_entry_out_of_place_does_not_replay() -> None:
    part = _log()
    with pytest.raises(ValueError, match="entry 2 is missing"):
        part.replay(LogEntry("0 pass", H1).record(1, 3))
    with pytest.raises(ValueError, match="not dealt"):
        part.replay(LogEntry("0 pass", H1).record(2, 0))


def test_a_journal_replays_through_the_parts_methods_not_the_sessions_private_fields(
) -> None:
    """durak_net/restore.py reads no private field of a session and imports session.py
    only for its types (so the two modules import each other in one direction)."""
    import ast
    import inspect

    from durak_net import restore

    tree = ast.parse(inspect.getsource(restore))
    private = [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
               and isinstance(node.value, ast.Name) and node.value.id == "session"
               and node.attr.startswith("_")]
    assert private == []
    runtime_imports = [node for node in tree.body if isinstance(node, ast.ImportFrom)
                       and node.module == "session"]
    assert runtime_imports == []
