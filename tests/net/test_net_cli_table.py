"""The terminal and the notebook lobby take events from one table each
(:data:`durak_net.cli.HANDLERS`, :data:`durak_widgets.lan.LOBBY_EVENTS`), checked
against the typed union of events (:data:`durak_net.events.NetEvent`); and a player's
name, whatever it says, never begins a printed line (a player called ``PROBLEM:
desync`` cannot forge our warning)."""

from __future__ import annotations

import typing

from durak_core import Game, Rules, parse_action
from durak_net import events as ev
from durak_net.cli import HANDLERS, QUIET, Peer
from durak_net.session import SessionError

from .test_net_cli_events import FailingNode, _peer

EVIL = "PROBLEM: desync"


def test_every_kind_of_event_has_one_place_in_the_terminal_table() -> None:
    kinds = set(typing.get_args(ev.NetEvent))
    assert set(HANDLERS) | QUIET == kinds and not set(HANDLERS) & QUIET
    assert all(callable(getattr(Peer, method, None)) for method in HANDLERS.values())


def test_the_notebook_lobby_takes_each_kind_of_event_from_one_table() -> None:
    from durak_widgets.lan import LOBBY_EVENTS, LanLobby

    kinds = set(typing.get_args(ev.NetEvent))
    assert set(LOBBY_EVENTS) <= kinds
    # Every other kind names its session, which is how it reaches the table.
    assert all("sid" in k.__dataclass_fields__ for k in kinds - set(LOBBY_EVENTS))
    assert all(callable(getattr(LanLobby, m)) for m in LOBBY_EVENTS.values() if m)


def test_the_typed_union_names_every_event_the_module_defines() -> None:
    defined = {obj for obj in vars(ev).values()
               if isinstance(obj, type) and obj.__module__ == ev.__name__
               and "at" in getattr(obj, "__dataclass_fields__", {})}
    assert defined == set(typing.get_args(ev.NetEvent))


def test_a_name_that_says_problem_never_begins_a_line() -> None:
    node = FailingNode(SessionError("closed"), ("Me", EVIL, "Bob"), Game.new(Rules(players=3),
                                                                            seed=3))
    peer = _peer(["--name", "Me"], node)
    evil = ev.PeerInfo(9, EVIL, ("10.0.0.5", 40123), {})
    peer.active = None  # in the lobby: the invitation is shown, not declined as busy
    peer.step(ev.PeerSeen(evil, 0.0))
    peer.step(ev.InviteReceived(3, evil, Rules(), 0.0))
    peer.active = 1  # then at the table
    script = [
        ev.SessionAgreed(1, True, evil, b"", Rules(players=3), 0.0, "a b c d", False, 7, 1),
        ev.SeatTaken(1, 1, EVIL, 0.0),
        *[ev.SeatStatus(1, 1, state, "", 0.0) for state in ("lost", "back", "left", "bot",
                                                            "thinking")],
        ev.GameStarted(1, 1, 0, "00", 0.0, shown=(1, "6h")),
        ev.ActionApplied(1, 1, 1, parse_action("1 take"), (), False, "", 0.0),
        ev.ActionApplied(1, 1, 2, parse_action("1 take"), (), False, "", 0.0, "bot"),
        ev.PeerLost(1, 5.0, 0.0, 1),
        ev.PeerBack(1, 0.0, 1),
    ]
    for event in script:
        peer.step(event)  # as the loop does (a refused command is one line, and on)
    lines = peer.out.getvalue().splitlines()
    assert sum(EVIL in line for line in lines) >= len(script) + 2
    assert not [line for line in lines if line.lstrip().startswith("PROBLEM")], lines
    assert f'"{EVIL}": take' in lines
    assert f'"{EVIL}" sits at seat 1' in lines

