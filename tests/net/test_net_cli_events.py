"""The terminal peer's event loop meets whatever the network can bring: hostile names
and reasons, events in any order, and a node whose every command fails because the
session closed meanwhile.  It never raises, prints nothing that steers the terminal
(no control character but newlines, no forged ``PROBLEM:`` line), and ends only with a
documented status.

Before, one ``SessionError`` from ``act`` (the other side had left) ended a bot-driven
peer with a traceback, and names were printed as they came.
"""

from __future__ import annotations

import io
import json
import unicodedata
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak_core import Game, IllegalAction, Rules, parse_action
from durak_net import events as ev
from durak_net.botplay import BotDriver, build_bot
from durak_net.cli import _LINE, Peer, build_parser
from durak_net.node import SessionView
from durak_net.notes import Note, Seat
from durak_net.policy import LobbyPolicy
from durak_net.session import SessionError

HOSTILE = ["\x1b[2J\x1b[H", "Eve\nPROBLEM: desync with Bob", "\u202eboB", "\x07\x00\x9b31m",
           "<script>alert(1)</script>", "x" * 300, "", "Bob", "PROBLEM: desync"]
text = st.one_of(st.sampled_from(HOSTILE), st.text(max_size=60))
seat = st.integers(0, 3)
sid = st.just(1)
peer = st.builds(ev.PeerInfo, node=st.integers(1, 2**64 - 1), name=text,
                 addr=st.just(("10.0.0.5", 40123)), rules=st.just({}), busy=st.booleans(),
                 same_name=st.booleans(), incompatible=st.sampled_from(["", HOSTILE[1]]),
                 table=st.sampled_from([None, {"table": 7, "seats": ("A", ""), "clock": 0,
                                               "grace": 60, "started": False, "open": True}]))
at = st.just(0.0)
#: A finding naming seats (perhaps past the names) and quoting another program's words.
note = st.builds(lambda by, culprit, words: Note.of(
    "stopped_by", by=Seat(by), culprit=Seat(culprit),
    detail=Note.did_theirs(by, words[:24], words)), seat, seat, text)
events = st.one_of(
    st.builds(ev.PeerSeen, peer, at),
    st.builds(ev.PeerGone, peer, at),
    st.builds(ev.InviteReceived, st.integers(1, 9), peer, st.just(Rules()), at,
              pin=st.booleans()),
    st.builds(ev.InviteClosed, st.integers(1, 9), peer, st.booleans(), text, at),
    st.builds(ev.SessionAgreed, sid, st.booleans(), peer, st.just(b""), st.just(Rules()), at,
              st.sampled_from(["apple bell cloud drum", "river stone maple lamp"]), st.booleans(),
              st.sampled_from([0, 7]), st.integers(1, 3)),
    st.builds(ev.GameStarted, sid, st.integers(1, 3), seat, st.just("00"), at),
    st.builds(ev.ActionRefused, sid, st.just(parse_action("0 take")), text, at),
    st.builds(ev.GameFinished, sid, st.integers(1, 3), st.one_of(st.none(), seat),
              st.just(()), st.integers(0, 99), st.just("00"), st.just("00"), at),
    st.builds(ev.GameStopped, sid, st.integers(1, 3), seat, text, st.booleans(), at,
              st.one_of(st.none(), note)),
    st.builds(ev.GameAudited, sid, st.integers(1, 3), st.booleans(), text, text,
              st.one_of(st.none(), seat), st.just("00"), st.just("00"), at,
              note=st.one_of(st.none(), note)),
    st.builds(ev.NextGameRequested, sid, st.integers(1, 3), at),
    st.builds(ev.PeerLost, sid, st.just(5.0), at, seat),
    st.builds(ev.PeerBack, sid, at, seat),
    st.builds(ev.SeatTaken, sid, seat, text, at),
    st.builds(ev.SeatStatus, sid, seat, st.sampled_from(["lost", "left", "bot", "timeout",
                                                         HOSTILE[1]]), text, at),
    st.builds(ev.DesyncDetected, sid, st.integers(1, 3), st.integers(0, 9), text,
              st.booleans(), at, st.one_of(st.none(), note)),
    st.builds(ev.ProtocolViolation, sid, text, at, st.one_of(st.none(), note)),
    st.builds(ev.SessionClosed, sid, text, st.booleans(), at),
)


class FailingNode:
    """A node whose session just closed: every command raises what the real one would
    (``failure``), and its view shows hostile names."""

    def __init__(self, failure: Exception, names: tuple[str, ...], game: Game | None) -> None:
        self.failure = failure
        self.name = "Me"
        self.handler_errors: list[BaseException] = []
        self._view = SessionView(1, 0, names[1], 1, game, game is not None, {}, False, True,
                                 names=names, kinds=("host",) + ("player",) * (len(names) - 1))

    def view(self, sid: int) -> SessionView:
        return self._view

    def peers(self) -> list[ev.PeerInfo]:
        return []

    def find_peer(self, name: str) -> None:
        return None

    def __getattr__(self, command: str) -> Any:  # accept, decline, act, leave...
        def fail(*args: Any, **kwargs: Any) -> None:
            raise self.failure

        return fail


def _peer(argv: list[str], node: FailingNode) -> Peer:
    peer = Peer.__new__(Peer)
    peer.__dict__.update(args=build_parser().parse_args(argv), out=io.StringIO(),
                         err=io.StringIO(), rules=Rules(), node=node, finished=0, status=0,
                         done=False, invite_sent=None, join_sent=None, last_invite=0.0,
                         incoming=[], active=1, audited=0, _finished={})
    peer.interactive = "--bot" not in argv
    peer.policy = LobbyPolicy(peer.args.auto_accept, peer.args.pin)
    peer.driver = BotDriver(build_bot("random", seed=1)) if not peer.interactive else None
    return peer


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    script=st.lists(events, max_size=12),
    argv=st.sampled_from([["--name", "Me"], ["--name", "Me", "--bot", "random", "--games", "2"],
                          ["--name", "Me", "--bot", "random", "--json", "--auto-accept"]]),
    failure=st.sampled_from([SessionError("the session is closed"), ValueError("no session 1"),
                             IllegalAction("no game in progress")]),
    names=st.tuples(text, text),
    dealt=st.booleans(),
)
def test_the_event_loop_never_raises_and_prints_nothing_that_steers_the_terminal(
    script: list[Any], argv: list[str], failure: Exception, names: tuple[str, str],
    dealt: bool,
) -> None:
    node = FailingNode(failure, names, Game.new(Rules(), seed=3) if dealt else None)
    peer = _peer(argv, node)
    for event in script:
        peer.step(event)
    for line in "exit", "again", "0 take", "accept 1234", "notsame":
        peer.step((_LINE, line))
    out = peer.out.getvalue() + peer.err.getvalue()
    assert not [ch for ch in out if ch != "\n" and unicodedata.category(ch)[0] == "C"]
    problems = sum(isinstance(e, (ev.DesyncDetected, ev.ProtocolViolation)) for e in script)
    assert sum(line.startswith("PROBLEM:") for line in out.splitlines()) == problems
    assert peer.status in (0, 1, 2)
    if "--json" in argv:  # records for programs on stdout, the messages on stderr
        records, said = peer.out.getvalue().splitlines(), peer.err.getvalue().splitlines()
    else:
        records, said = [], peer.out.getvalue().splitlines()
    assert all(len(line) < 700 for line in said)
    assert all(isinstance(json.loads(line), dict) for line in records)


def test_a_bot_whose_session_closed_under_it_says_so_and_goes_on() -> None:
    """The crash the issue saw: ``act`` raising SessionError inside the bot's turn."""
    node = FailingNode(SessionError("the session is closed"), ("Me", "Bob"),
                       Game.new(Rules(), seed=3))
    node._view = SessionView(1, 0, "Bob", 1, Game.new(Rules(), seed=3), True, {}, False, False,
                             names=("Me", "Bob"), kinds=("host", "player"))
    peer = _peer(["--name", "Me", "--bot", "random", "--games", "2"], node)
    peer.step(None)  # the bot's move fails: no traceback
    peer.step(ev.SessionClosed(1, "left", True, 0.0))
    assert peer.done and peer.status == 1
    assert "the peer left after 0 of 2 games" in peer.out.getvalue()
