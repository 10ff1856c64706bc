"""What the terminal peer says when a game ends: its ``--json`` line and exit status,
for every kind of verdict (fair, a fault, abandoned), and the exit codes ``--help``
documents.  The peer's loop is driven with a stand-in node (no sockets)."""

from __future__ import annotations

import argparse
import io
import json
import time
from types import SimpleNamespace
from typing import Any

from durak_net import events as ev
from durak_net.cli import EXIT_ABANDONED, EXIT_CODES, Peer, build_parser


class _Node:
    name = "Alice"

    def __init__(self) -> None:
        self.left: list[tuple[int, str]] = []
        self.next: list[int] = []

    def view(self, sid: int) -> Any:
        return SimpleNamespace(names=("Alice", "Bob"), seat=0, table=0xAB, sid=sid)

    def leave(self, sid: int, reason: str) -> None:
        self.left.append((sid, reason))

    def start_next_game(self, sid: int, game: int | None = None) -> None:
        self.next.append(sid)


def _peer(games: int = 3) -> tuple[Peer, io.StringIO]:
    peer = Peer.__new__(Peer)
    out = io.StringIO()
    peer.args = argparse.Namespace(json=True, games=games, auto_accept=True)
    peer.out, peer.err = out, io.StringIO()
    peer.node = _Node()  # type: ignore[assignment]
    peer.driver = object()  # type: ignore[assignment]
    peer.interactive = False
    peer.status, peer.finished, peer.audited, peer.active = 0, 0, 0, 7
    peer._finished = {}
    return peer, out


def _audited(code: str, fair: bool, culprit: int | None, since: float | None = None
             ) -> ev.GameAudited:
    verdict = ("audited: fair" if fair else "audit: Bob went silent and was not heard for "
               "60 s (the grace period)" if code == "abandoned" else "audit: Bob cheated: x")
    return ev.GameAudited(7, 1, fair, verdict, code, culprit, "", "ab", time.monotonic(),
                          silent_since=since)


def test_help_documents_every_exit_status() -> None:
    text = " ".join(build_parser().format_help().split())
    for code, meaning in EXIT_CODES.items():
        assert f"{code} {' '.join(meaning.split())}" in text
    assert set(EXIT_CODES) == {0, 1, 2, 3, 4, 64, 65, 69, 70}


def test_an_abandoned_game_prints_its_line_names_the_silent_peer_and_exits_4() -> None:
    peer, out = _peer()
    peer.finished = 1
    since = time.monotonic() - 61.0
    peer.game_audited(_audited("abandoned", False, 1, since))
    (line,) = [json.loads(x) for x in out.getvalue().splitlines()]
    assert line["audit"] == "abandoned" and line["code"] == "abandoned"
    assert (line["silent"], line["silent_seat"], line["culprit"]) == ("Bob", 1, 1)
    last_heard = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - 61.0))
    assert abs(time.mktime(time.strptime(line["silent_at"], "%Y-%m-%dT%H:%M:%SZ"))
               - time.mktime(time.strptime(last_heard, "%Y-%m-%dT%H:%M:%SZ"))) <= 1
    assert peer.status == EXIT_ABANDONED == 4
    # No rematch is asked of a peer that is gone: the session is left.
    assert peer.node.left and not peer.node.next  # type: ignore[attr-defined]


def test_an_abandoned_game_that_names_nobody_still_prints_its_line_and_exits_4() -> None:
    """At a table of three, a seat the host reports silent that we never heard
    ourselves is not named (the host's word alone): the line says so, with no name."""
    peer, out = _peer()
    peer.finished = 1
    peer.game_audited(_audited("abandoned", False, None, time.monotonic() - 75.0))
    (line,) = [json.loads(x) for x in out.getvalue().splitlines()]
    assert (line["audit"], line["culprit"], line["silent"], line["silent_seat"]) == (
        "abandoned", None, "", None)
    assert peer.status == EXIT_ABANDONED


def test_a_fault_exits_2_and_a_fair_game_0() -> None:
    peer, out = _peer()
    peer.game_audited(_audited("fair", True, None))
    assert peer.status == 0 and json.loads(out.getvalue())["audit"] == "fair"
    peer, out = _peer()
    peer.game_audited(_audited("duplicate_card", False, 1))
    line = json.loads(out.getvalue())
    assert peer.status == 2 and (line["audit"], line["culprit"]) == ("Bob cheated: x", 1)


def test_the_terminal_marks_a_move_the_clock_made() -> None:
    from durak_core import Take

    peer, _ = _peer()
    peer.interactive = True
    peer.args.json = False
    peer.show_table = lambda: None  # type: ignore[method-assign]
    shown = io.StringIO()
    peer.out = shown
    peer.handle(ev.ActionApplied(7, 1, 3, Take(0), (), True, "", 0.0, "timeout"))
    peer.handle(ev.ActionApplied(7, 1, 4, Take(1), (), False, "", 0.0, "timeout"))
    peer.handle(ev.ActionApplied(7, 1, 5, Take(1), (), False, "", 0.0, ""))
    assert shown.getvalue().splitlines() == ["you: take (timed out)",
                                             '"Bob": take (timed out)', '"Bob": take']


def test_the_terminal_tells_a_returning_player_its_hand_was_opened() -> None:
    peer, _ = _peer()
    peer.args.json = False
    shown = io.StringIO()
    peer.out = shown
    peer.node.view = lambda sid: SimpleNamespace(  # type: ignore[method-assign]
        names=("Alice", "Bob", "Cleo"), seat=1, table=0xAB, sid=sid)
    peer.handle(ev.SeatStatus(7, 1, "opened", "1", 0.0))
    assert shown.getvalue().strip() == ev.OPENED_WORDS
