"""Discovery and invitations in simulated time: peers appear and are forgotten, invitations
are acknowledged and retried (the original design's lost ``stop_scan`` hung both sides)."""

from __future__ import annotations

import random

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net.lobby import BROADCAST, Lobby
from durak_net.simlink import SimNet
from durak_net.wire import TableInfo

from .crafted import Crafter


def _lan(seed: int, names: list[str], loss: float = 0.0, rules: Rules | None = None):
    rng = random.Random(seed)
    net = SimNet(random.Random(seed + 1), loss=loss, broadcast=BROADCAST)
    lobbies = {}
    for index, name in enumerate(names):
        addr = (f"10.77.0.{index + 1}", 40000 + index)
        lobby = Lobby(name, addr[1], rules or Rules(), 0.0, entropy=rng.randbytes)
        lobbies[name] = lobby
        net.add(addr, lobby)
    seen: dict[str, list] = {name: [] for name in names}

    def collect(now: float) -> None:
        for name, lobby in lobbies.items():
            seen[name] += lobby.events()

    net.hooks.append(collect)
    return net, lobbies, seen


def _of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def test_peers_discover_each_other_and_forget_the_silent() -> None:
    net, lobbies, seen = _lan(1, ["Alice", "Bob", "Carol"])
    assert net.run(lambda: all(len(lb.peers) == 2 for lb in lobbies.values()), limit=3.0)
    assert {p.info.name for p in lobbies["Alice"].peers.values()} == {"Bob", "Carol"}
    assert lobbies["Alice"].peers[lobbies["Bob"].node].info.addr == ("10.77.0.2", 40001)
    net.remove(("10.77.0.3", 40002))  # Carol closes her notebook
    gone_at = net.now
    assert net.run(lambda: _of(seen["Alice"], ev.PeerGone), limit=gone_at + 10.0)
    (gone,) = _of(seen["Alice"], ev.PeerGone)
    assert gone.peer.name == "Carol" and 4.0 <= gone.at - gone_at <= 6.1
    assert len(lobbies["Alice"].peers) == 1


def test_own_and_foreign_announcements_are_filtered_and_counted() -> None:
    lobby = Lobby("Alice", 40000, Rules(), 0.0, entropy=random.Random(2).randbytes)
    own = next(d for d, dst in lobby.datagrams_to_send(0.0) if dst == BROADCAST)
    lobby.receive(own, ("10.77.0.1", 37020), 0.1)
    eve = Crafter(9)
    lobby.receive(eve.announce("Eve", proto="another-game", version=1), ("10.77.0.9", 37020),
                  0.1)
    lobby.receive(eve.announce("Eve", version=99), ("10.77.0.9", 37020), 0.1)
    lobby.receive(b"\x00" * 40, ("10.77.0.9", 37020), 0.1)
    assert lobby.drops == {"own": 1, "foreign": 3}
    assert not lobby.peers and not lobby.events()


@pytest.mark.parametrize("loss", [0.0, 0.5])
def test_an_accepted_invitation_gives_both_sides_the_same_session_key(loss: float) -> None:
    net, lobbies, seen = _lan(3, ["Alice", "Bob"], loss=loss)
    alice, bob = lobbies["Alice"], lobbies["Bob"]
    assert net.run(lambda: bob.node in alice.peers, limit=30.0)
    invite = alice.invite(bob.node, net.now, Rules(variant="perevodnoy"))
    assert net.run(lambda: _of(seen["Bob"], ev.InviteReceived), limit=net.now + 30)
    (received,) = _of(seen["Bob"], ev.InviteReceived)
    assert received.invite == invite and received.peer.name == "Alice"
    assert received.rules.variant == "perevodnoy"
    bob.accept(invite, net.now)
    assert net.run(
        lambda: _of(seen["Alice"], ev.SessionAgreed) and _of(seen["Bob"], ev.SessionAgreed),
        limit=net.now + 60,
    )
    (a,), (b,) = _of(seen["Alice"], ev.SessionAgreed), _of(seen["Bob"], ev.SessionAgreed)
    assert a.sid == b.sid == invite and a.key == b.key and len(a.key) == 32
    assert a.inviter and not b.inviter
    # Retries stop once acknowledged: nothing keeps bouncing.
    assert net.run(
        lambda: all(i.state == "done" for lb in lobbies.values() for i in lb.invitations.values()),
        limit=net.now + 60,
    )


def test_a_lost_answer_is_resent_until_acknowledged() -> None:
    """The original design's lost ``stop_scan``: here the answer simply comes again."""
    net, lobbies, seen = _lan(4, ["Alice", "Bob"])
    alice, bob = lobbies["Alice"], lobbies["Bob"]
    assert net.run(lambda: bob.node in alice.peers, limit=3.0)
    invite = alice.invite(bob.node, net.now)
    assert net.run(lambda: _of(seen["Bob"], ev.InviteReceived), limit=net.now + 5)
    dropped = []

    def drop_first_answers(data: bytes, src, dst):
        if src == ("10.77.0.2", 40001) and b"answer" in data and len(dropped) < 3:
            dropped.append(data)
            return None
        return data

    net.tap = drop_first_answers
    bob.accept(invite, net.now)
    assert net.run(lambda: _of(seen["Alice"], ev.SessionAgreed), limit=net.now + 10)
    assert len(dropped) == 3


def test_a_declined_invitation_tells_the_inviter_why() -> None:
    net, lobbies, seen = _lan(5, ["Alice", "Bob"], loss=0.3)
    alice, bob = lobbies["Alice"], lobbies["Bob"]
    assert net.run(lambda: bob.node in alice.peers, limit=30.0)
    invite = alice.invite(bob.node, net.now)
    assert net.run(lambda: _of(seen["Bob"], ev.InviteReceived), limit=net.now + 30)
    bob.decline(invite, net.now, "busy")
    assert net.run(lambda: _of(seen["Alice"], ev.InviteClosed), limit=net.now + 30)
    (closed,) = _of(seen["Alice"], ev.InviteClosed)
    assert closed.outgoing and closed.reason == "busy"
    assert not _of(seen["Alice"], ev.SessionAgreed)


def test_an_unanswered_invitation_times_out_and_is_withdrawn() -> None:
    net, lobbies, seen = _lan(6, ["Alice", "Bob"])
    alice, bob = lobbies["Alice"], lobbies["Bob"]
    assert net.run(lambda: bob.node in alice.peers, limit=3.0)
    alice.invite(bob.node, net.now)
    start = net.now
    assert net.run(lambda: _of(seen["Alice"], ev.InviteClosed), limit=start + 120)
    assert _of(seen["Alice"], ev.InviteClosed)[0].reason == "no answer"
    assert net.now - start == pytest.approx(alice.config.invite_timeout, abs=1.5)
    assert net.run(lambda: _of(seen["Bob"], ev.InviteClosed), limit=net.now + 10)
    assert "cancelled" in _of(seen["Bob"], ev.InviteClosed)[0].reason


def test_an_invitation_to_a_peer_that_vanished_ends() -> None:
    net, lobbies, seen = _lan(7, ["Alice", "Bob"])
    alice, bob = lobbies["Alice"], lobbies["Bob"]
    assert net.run(lambda: bob.node in alice.peers, limit=3.0)
    net.remove(("10.77.0.2", 40001))
    alice.invite(bob.node, net.now)
    assert net.run(lambda: _of(seen["Alice"], ev.InviteClosed), limit=net.now + 10)
    assert "left" in _of(seen["Alice"], ev.InviteClosed)[0].reason


def test_connect_reaches_a_peer_that_broadcasts_do_not() -> None:
    rng = random.Random(8)
    net = SimNet(random.Random(9), broadcast=("nowhere", 0))  # broadcasts reach nobody
    a = Lobby("Alice", 40000, Rules(), 0.0, entropy=rng.randbytes)
    b = Lobby("Bob", 40001, Rules(), 0.0, entropy=rng.randbytes)
    net.add(("10.77.0.1", 40000), a)

    class Direct:  # the node tells the lobby which datagrams came unicast
        def __getattr__(self, name):
            return getattr(b, name)

        def receive(self, data, addr, now):
            b.receive(data, addr, now, direct=True)

    net.add(("10.77.0.2", 40001), Direct())
    a.connect(("10.77.0.2", 40001))
    assert net.run(lambda: b.node in a.peers and a.node in b.peers, limit=5.0)


def test_answering_an_unknown_invitation_is_a_local_error() -> None:
    lobby = Lobby("Alice", 40000, Rules(), 0.0, entropy=random.Random(3).randbytes)
    with pytest.raises(ValueError, match="no pending invitation"):
        lobby.accept(42, 0.0)
    with pytest.raises(ValueError, match="no peer"):
        lobby.invite(42, 0.0)
    with pytest.raises(ValueError, match="hosts no table"):
        net, lobbies, _ = _lan(3, ["Ann", "Bob"])
        assert net.run(lambda: len(lobbies["Ann"].peers) == 1, limit=3.0)
        lobbies["Ann"].join(lobbies["Bob"].node, 77, net.now)
    with pytest.raises(ValueError, match="name"):
        Lobby("   ", 40000, Rules(), 0.0)


def test_finished_invitations_are_forgotten_after_a_while() -> None:
    net, lobbies, seen = _lan(10, ["Alice", "Bob"])
    alice, bob = lobbies["Alice"], lobbies["Bob"]
    assert net.run(lambda: bob.node in alice.peers, limit=3.0)
    invite = alice.invite(bob.node, net.now)
    assert net.run(lambda: invite in bob.invitations, limit=net.now + 5)
    bob.decline(invite, net.now)
    assert net.run(lambda: _of(seen["Alice"], ev.InviteClosed), limit=net.now + 5)
    assert invite in alice.invitations  # kept a while, to acknowledge late duplicates
    assert net.run(lambda: not alice.invitations and not bob.invitations,
                   limit=net.now + alice.config.keep_done + 10)


def test_a_peer_that_cannot_hear_our_broadcasts_still_gets_our_join_at_once() -> None:
    """A node answers only nodes it has heard announce; asking for a seat (or inviting)
    announces us to that peer first, so the Join is not dropped as unknown."""
    net, lobbies, seen = _lan(12, ["Host", "Joe"], rules=Rules(players=3))
    host, joe = lobbies["Host"], lobbies["Joe"]
    host.table = TableInfo(0x7AB1E, ["Host", "", ""])
    assert net.run(lambda: host.node in joe.peers and joe.node in host.peers, limit=3.0)
    net.remove(("10.77.0.2", 40001))  # Joe restarts: a new node the host has not heard
    rng = random.Random(99)
    joe = Lobby("Joe", 40001, Rules(), net.now, entropy=rng.randbytes)
    joe_seen: list = []
    net.add(("10.77.0.2", 40001), joe)
    net.hooks.append(lambda now: joe_seen.extend(joe.events()))
    net.tap = lambda data, src, dst: None if dst == BROADCAST and src[1] == 40001 else data
    assert net.run(lambda: host.node in joe.peers, limit=net.now + 3.0)
    start = net.now
    joe.join(host.node, 0x7AB1E, net.now)
    assert net.run(lambda: _of(seen["Host"], ev.JoinRequested), limit=start + 0.5)
    assert host.drops["unknown_node"] == 0
