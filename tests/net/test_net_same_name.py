"""Two peers announce one name (one may be pretending to be the other): ``--invite
NAME`` asks which, by id, instead of inviting whoever announced first; the notebook
lobby shows both, flagged, and invites neither by itself."""

from __future__ import annotations

import io
import time

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net.cli import Peer, build_parser
from durak_net.node import LanNode
from durak_net.wire import PROTOCOL, PROTOCOL_VERSION, Announce, TableInfo
from durak_widgets import lan
from durak_widgets.handoff import Handoff

from .crafted import Crafter


@pytest.fixture
def node():
    me = LanNode("Me", port=0, broadcast=[])
    yield me
    me.close()


def _announce(node: LanNode, crafter: Crafter, name: str, host: int) -> None:
    with node._lock:
        node.lobby.receive(crafter.announce(name, 40100), (f"10.77.0.{host}", 40100),
                           time.monotonic())


def test_a_name_two_peers_announce_is_asked_about_by_id(node: LanNode) -> None:
    bob, mallory = Crafter(1), Crafter(2)
    _announce(node, bob, "Bob", 2)
    assert node.find_peer("Bob", settled=60.0) is None  # just appeared: wait a little
    assert node.find_peer("Bob").node == bob.node
    _announce(node, mallory, "Bob", 66)
    with pytest.raises(ValueError) as asked:
        node.find_peer("Bob")
    message = str(asked.value)
    assert f"id {bob.node:016x} at 10.77.0.2:40100" in message
    assert f"id {mallory.node:016x} at 10.77.0.66:40100" in message
    assert node.find_peer(f"{bob.node:016x}"[:6]).node == bob.node
    assert node.find_peer("10.77.0.66:40100").node == mallory.node
    assert all(p.same_name for p in node.peers())


class _TwoBobs:
    name = "Me"

    def find_peer(self, name: str, settled: float = 0.0) -> None:
        raise ValueError("2 players announce the name 'Bob' (id 1 at a, id 2 at b): invite "
                         "one by its id and compare the pairing words")


@pytest.mark.parametrize("bot", [False, True])
def test_the_terminal_peer_asks_which_once(bot: bool) -> None:
    peer = Peer.__new__(Peer)
    argv = ["--name", "Me", "--invite", "Bob"] + (["--bot", "random"] if bot else [])
    peer.__dict__.update(args=build_parser().parse_args(argv), out=io.StringIO(),
                         err=io.StringIO(), node=_TwoBobs(), interactive=not bot, active=None,
                         invite_sent=None, last_invite=0.0, status=0, done=False)
    peer.maybe_invite()
    peer.last_invite = 0.0
    peer.maybe_invite()  # asked once: not again every second
    said = peer.out.getvalue().splitlines()
    assert len(said) == 1 and "id 1 at a, id 2 at b" in said[0]
    assert peer.args.invite is None and peer.invite_sent is None
    if bot:  # nobody to answer: it ends, as documented
        assert (peer.status, peer.done) == (1, True) and "--invite ID" in said[0]
    else:
        assert not peer.done and "type `invite ID`" in said[0]


def test_the_notebook_lobby_invites_neither_of_two_with_one_name() -> None:
    lobby = lan("Ann", invite="Bob", handoff=Handoff(mode="manual"), port=0, journal_dir=None)
    try:
        for node, host in ((11, "10.0.0.2"), (12, "10.0.0.66")):
            lobby._on_event(ev.PeerSeen(ev.PeerInfo(node, "Bob", (host, 40100), {},
                                                    same_name=True), 0.0))
        assert not lobby.outgoing and lobby.invite_name is None
        assert "Two players announce the name Bob" in lobby.status.value
        labels = [row[1].value for row in lobby._peer_rows.values()]
        assert len(labels) == 2 and all("another player uses this name" in t for t in labels)
    finally:
        lobby.close()


def test_the_notebook_invites_by_name_only_once_the_name_has_settled() -> None:
    """Before, ``lan(invite="Bob")`` invited whoever announced Bob first, at once: a
    second announcer seen a moment later was flagged, but the invitation had gone."""
    lobby = lan("Ann", invite="Bob", handoff=Handoff(mode="manual"), port=0, journal_dir=None)
    try:
        bob, mallory = Crafter(1), Crafter(2)
        _announce(lobby.node, bob, "Bob", 2)
        lobby.handoff.pump_until(lambda: bob.node in lobby.peers)
        assert not lobby.outgoing and lobby.invite_name == "Bob"  # not yet: it may be two
        _announce(lobby.node, mallory, "Bob", 66)
        lobby.handoff.pump_until(lambda: "Two players announce the name Bob"
                                 in lobby.status.value)
        assert not lobby.outgoing and lobby.invite_name is None
        labels = [row[1].value for row in lobby._peer_rows.values()]
        assert len(labels) == 2 and all("another player uses this name" in t for t in labels)
    finally:
        lobby.close()


def test_the_notebook_invites_the_one_peer_a_settled_name_means() -> None:
    lobby = lan("Ann", invite="Bob", handoff=Handoff(mode="manual"), port=0, journal_dir=None)
    try:
        bob = Crafter(1)
        _announce(lobby.node, bob, "Bob", 2)
        lobby.handoff.pump_until(lambda: bob.node in lobby.peers)
        lobby._on_event(ev.NameSettled("Bob", (lobby.peers[bob.node],), 0.0))
        assert [p.node for p in lobby.outgoing.values()] == [bob.node]
        assert lobby.invite_name is None  # once
    finally:
        lobby.close()


def _announce_table(node: LanNode, crafter: Crafter, name: str, host: int) -> None:
    rules = Rules(players=3)
    crafter.seq += 1
    data = crafter.datagram(Announce(PROTOCOL, PROTOCOL_VERSION, crafter.node, crafter.key,
                                     crafter.seq, name, 40100, rules.to_dict(), False, [],
                                     TableInfo(77, [name, "", ""])))
    with node._lock:
        node.lobby.receive(data, (f"10.77.0.{host}", 40100), time.monotonic())


def test_the_notebook_joins_by_name_only_once_the_name_has_settled() -> None:
    """``lan(join="Hana")`` asked whoever announced a table as Hana first, at once."""
    lobby = lan("Ann", join="Hana", handoff=Handoff(mode="manual"), port=0, journal_dir=None)
    try:
        hana = Crafter(3)
        _announce_table(lobby.node, hana, "Hana", 3)
        lobby.handoff.pump_until(lambda: hana.node in lobby.peers)
        assert lobby.peers[hana.node].open_seats == 2
        assert lobby.joining is None  # not yet: a second Hana may be on her way
        lobby._on_event(ev.NameSettled("Hana", (lobby.peers[hana.node],), 0.0))
        assert lobby.joining == 77
    finally:
        lobby.close()
