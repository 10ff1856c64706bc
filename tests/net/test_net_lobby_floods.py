"""The lobby under the two floods of the attack report, in memory: a stranger's
datagrams cost bounded work (few signature checks) and leave bounded state, and no
forged source address makes the lobby send more than it received.

Before: 50,000 announcements with new node ids each cost a full parse and a new entry;
one node id on 50,000 source ports left 22,218 addresses that the lobby then announced
itself to every second until it exited.
"""

from __future__ import annotations

import random
import socket
import time

from durak_core import Rules
from durak_net.lobby import BROADCAST, Lobby
from durak_net.node import LanNode

from .crafted import Crafter


def _lobby() -> Lobby:
    return Lobby("Host", 40000, Rules(), 0.0, entropy=random.Random(1).randbytes)


def _send_over(lobby: Lobby, datagrams: list[tuple[bytes, tuple[str, int]]], start: float,
               seconds: float, *, direct: bool) -> list[tuple[bytes, tuple[str, int]]]:
    """Feed ``datagrams`` evenly over ``seconds`` of simulated time, running the timers
    as a node would; returns everything the lobby sent meanwhile."""
    sent = []
    for k, (data, addr) in enumerate(datagrams):
        now = start + seconds * k / len(datagrams)
        lobby.receive(data, addr, now, direct=direct)
        if lobby.next_timer() is not None and now >= lobby.next_timer():  # type: ignore[operator]
            lobby.timer(now)
        sent += lobby.datagrams_to_send(now)
    return sent


def test_a_flood_of_new_node_ids_costs_bounded_work_and_state() -> None:
    lobby = _lobby()
    rng = random.Random(7)
    flood = []
    for k in range(3000):  # each from a new key, address and port
        data = Crafter(1000 + k).announce(f"Bot{k}", rng.randrange(1, 65536))
        flood.append((data, (f"10.{rng.randrange(256)}.{rng.randrange(256)}.{k % 250 + 1}",
                             rng.randrange(1024, 65536))))
    _send_over(lobby, flood, 0.0, 6.0, direct=False)
    config = lobby.config
    assert len(lobby.peers) <= config.max_peers
    assert lobby.signatures_checked <= config.new_node_burst + config.new_node_rate * 6.0
    limited = lobby.drops["new_node_limited"] + lobby.drops["peers_full"]
    assert limited >= 3000 - lobby.signatures_checked
    assert len(lobby._seqs) <= 4 * config.max_peers
    assert len(lobby._per_source) <= config.sources_tracked
    assert not lobby.direct and not lobby.invitations


def test_one_stranger_cannot_flood_from_one_address() -> None:
    lobby = _lobby()
    mallory = Crafter(5)
    flood = [(Crafter(2000 + k).announce("M"), ("10.66.0.1", 40066)) for k in range(400)]
    flood += [(mallory.announce("M"), ("10.66.0.1", 40066)) for _ in range(400)]
    _send_over(lobby, flood, 0.0, 2.0, direct=False)
    budget = lobby.config.per_source_burst + lobby.config.per_source_rate * 2.0
    assert lobby.drops["rate_limited"] >= 800 - budget
    assert lobby.signatures_checked <= budget


def test_one_node_id_on_many_source_ports_is_no_reflector() -> None:
    """Announcements sent to us unicast get at most one of ours back each (never more
    than came in), and nothing once they stop: no address is kept to announce to."""
    lobby = _lobby()
    mallory = Crafter(6)
    flood = [(mallory.announce("Mallory", 40066), ("192.0.2.7", 1024 + k))
             for k in range(5000)]
    sent = _send_over(lobby, flood, 0.0, 6.0, direct=True)
    unicast = [dst for _, dst in sent if dst != BROADCAST]
    assert len(unicast) <= 6.0 / (lobby.config.announce_every / 4) + 1  # one per accepted
    assert not lobby.direct and len(lobby._replied) <= lobby.config.sources_tracked
    after = _send_over(lobby, [(b"x", ("10.0.0.1", 1))] * 100, 6.0, 20.0, direct=False)
    assert [dst for _, dst in after if dst != BROADCAST] == []


def test_many_node_ids_from_forged_addresses_get_a_bounded_number_of_replies() -> None:
    lobby = _lobby()
    rng = random.Random(8)
    flood = [(Crafter(3000 + k).announce("M", 40066),
              (f"198.51.{rng.randrange(256)}.{rng.randrange(1, 255)}", 40066))
             for k in range(1500)]
    sent = _send_over(lobby, flood, 0.0, 3.0, direct=True)
    unicast = [dst for _, dst in sent if dst != BROADCAST]
    config = lobby.config
    assert len(unicast) <= min(config.reply_burst + config.reply_rate * 3.0,
                               config.new_node_burst + config.new_node_rate * 3.0)


def test_invitations_from_one_peer_are_bounded() -> None:
    lobby = _lobby()
    eve = Crafter(9)
    lobby.receive(eve.announce("Eve"), ("10.0.0.9", 40100), 0.0)
    from durak_net.wire import Invite

    for k in range(50):
        data = eve.datagram(Invite(eve.node, eve.key, lobby.node, 100 + k, "Eve",
                                   Rules().to_dict(), bytes(32)))
        lobby.receive(data, ("10.0.0.9", 40100), 0.1 + k / 1000)
    assert len([i for i in lobby.invitations.values() if i.state == "received"]) == 1
    assert lobby.drops["invites_full"] == 49


def test_a_real_node_under_a_reflection_flood_sends_nothing_back_and_keeps_no_state() -> None:
    """Over real UDP on loopback: 3,000 announcements of one node id to a node's game
    port from 300 source ports, each naming itself as the sender's game port; the node
    answers at most a handful (never one per address), keeps no address to announce to,
    and its thread lives on."""
    node = LanNode("Host", port=0, broadcast=[])
    mallory = Crafter(12)
    pool = []
    try:
        for _ in range(300):
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.bind(("127.0.0.1", 0))
            sock.setblocking(False)
            pool.append(sock)
        target = ("127.0.0.1", node.game_port)
        for k in range(3000):
            sock = pool[k % len(pool)]
            sock.sendto(mallory.announce("Mallory", sock.getsockname()[1]), target)
        # A last announcement, again until it is taken (the source's budget refills):
        # the node has read everything before it.
        marker = Crafter(13)
        deadline = time.monotonic() + 20
        while not any(p.name == "Marker" for p in node.peers()):
            assert time.monotonic() < deadline, node.drop_counts()
            pool[0].sendto(marker.announce("Marker", pool[0].getsockname()[1]), target)
            time.sleep(0.05)
        back = 0
        for sock in pool:
            while True:
                try:
                    sock.recv(2048)
                except BlockingIOError:
                    break
                back += 1
        drops = node.drop_counts()
        assert drops["rate_limited"] + drops["too_often"] + drops["replay"] >= 2900
        assert back <= 10 and not node.lobby.direct
        assert node.alive and not node.handler_errors
    finally:
        node.close()
        for sock in pool:
            sock.close()
