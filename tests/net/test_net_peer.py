"""The peer without I/O (:class:`durak_net.peer.PeerCore`): two of them find each other,
pair and play whole games in memory over a simulated network, with no socket and no
thread, their addresses opaque pairs as a WebRTC carrier would give them; a table's
bot seats think through the work the core hands out."""

from __future__ import annotations

import random
import socket
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from durak_core import Rules
from durak_core.bots import RandomBot
from durak_net import events as ev
from durak_net.botplay import BotDriver
from durak_net.lobby import BROADCAST
from durak_net.peer import PeerCore
from durak_net.simlink import SimNet

from .helpers import FAST


@dataclass
class Player:
    """One core on the simulated network, and the person (a bot) in front of it."""

    core: PeerCore
    addr: tuple[str, int]
    driver: BotDriver
    events: list[Any] = field(default_factory=list)
    active: int | None = None
    thoughts: int = 0

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


def _lan(seed: int, names: list[str], rules: Rules | None = None, loss: float = 0.0
         ) -> tuple[SimNet, list[Player]]:
    rng = random.Random(seed)
    net = SimNet(random.Random(seed + 1), loss=loss, broadcast=BROADCAST)
    players = []
    for index, name in enumerate(names):
        addr = ("rtc", index + 1)  # not a (host, port): the core only hands it back
        core = PeerCore(name, 0.0, rules=rules, entropy=rng.randbytes, session_config=FAST,
                        own_addr=lambda peer, addr=addr: addr, ports=False)
        players.append(Player(core, addr, BotDriver(RandomBot(seed * 10 + index))))
        net.add(addr, core)

    def hook(now: float) -> None:
        for player in players:
            core = player.core
            for item in core.work():  # the bots of our tables think at once
                player.thoughts += 1
                core.decided(item, item.choose(), now)
            for event in core.events():
                player.events.append(event)
                if isinstance(event, ev.InviteReceived):
                    core.accept(event.invite, now)
                elif isinstance(event, ev.SessionAgreed) and not (event.table
                                                                  and event.inviter):
                    player.active = event.table or event.sid
            if player.active is not None:
                view = core.view(player.active)
                action = player.driver.choose(view)
                if action is not None:
                    core.act(player.active, action, now)

    net.hooks.append(hook)
    return net, players


def _no_io(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the core opened a socket")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(threading.Thread, "start", refuse)


def test_two_cores_pair_and_play_a_whole_game_in_memory(monkeypatch) -> None:
    _no_io(monkeypatch)
    net, (alice, bob) = _lan(1, ["Alice", "Bob"], loss=0.05)
    assert net.run(lambda: bool(alice.core.peers()), limit=5.0)
    invite = alice.core.invite("Bob", net.now)
    assert net.run(lambda: bool(alice.of(ev.GameAudited)) and bool(bob.of(ev.GameAudited)),
                   limit=600.0)
    (agreed,) = alice.of(ev.SessionAgreed)
    assert agreed.sid == invite and agreed.peer.addr == ("rtc", 2)
    assert agreed.key == b""  # the key stays inside the protocol
    assert bob.of(ev.SessionAgreed)[0].sas == agreed.sas
    assert alice.of(ev.GameAudited)[0].fair and bob.of(ev.GameAudited)[0].fair
    (a_over,), (b_over,) = alice.of(ev.GameFinished), bob.of(ev.GameFinished)
    assert a_over.state_hash == b_over.state_hash and a_over.durak == b_over.durak
    assert alice.core.view(invite).game.is_over


def test_a_table_with_a_bot_seat_plays_through_the_work_the_core_hands_out(
        monkeypatch) -> None:
    _no_io(monkeypatch)
    rules = Rules(players=3, deck_size=24)
    net, (host, joe) = _lan(2, ["Host", "Joe"], rules=rules)
    table = host.core.host_table(rules, net.now, bots=["random"])
    host.active = table
    assert net.run(lambda: any(p.table for p in joe.core.peers()), limit=5.0)
    assert joe.core.join("Host", net.now) == table
    assert net.run(lambda: bool(host.of(ev.SeatTaken)), limit=30.0)
    assert net.run(lambda: all(k != "open" for k in host.core.view(table).kinds)
                   and bool(host.core.view(table).table_words), limit=30.0)
    host.core.start_table(table, net.now)
    assert net.run(lambda: bool(host.of(ev.GameAudited)) and bool(joe.of(ev.GameAudited)),
                   limit=600.0)
    assert host.of(ev.GameAudited)[0].fair and joe.of(ev.GameAudited)[0].fair
    assert host.thoughts > 0 and joe.thoughts == 0  # the bot seat is the host's
    assert host.core.view(table).kinds == ("host", "bot", "player")


def test_a_bot_that_fails_plays_its_first_legal_move_and_the_error_is_kept() -> None:
    core = PeerCore("Doc", 0.0, entropy=random.Random(3).randbytes)
    table = core.host_table(Rules(players=2), 0.0, bots=["random"])
    core.datagrams_to_send(0.0)
    core.start_table(table, 0.0)
    for _ in range(50):
        core.datagrams_to_send(0.0)
        items = core.work()
        if items:
            break
    else:
        pytest.fail("the bot seat was never asked to think")
    item = items[0]

    class Broken:
        def choose(self, view: object) -> None:
            raise RuntimeError("the bot's bug")

    item.driver = Broken()  # type: ignore[assignment]
    action = item.choose()
    assert action is not None and action in item.view.game.legal_actions(item.view.seat)
    core.decided(item, action, 0.0)
    assert [str(e) for e in core.errors] == ["the bot's bug"]


def test_a_watched_name_settles_on_its_one_peer_or_names_every_announcer() -> None:
    net, (alice, bob, bob2) = _lan(4, ["Alice", "Bob", "Bob"])
    net.remove(bob2.addr)  # the second Bob turns up later
    alice.core.watch("Bob", net.now)
    assert net.run(lambda: bool(alice.of(ev.PeerSeen)), limit=3.0)
    first = net.now
    net.run(lambda: False, limit=first + 1.0)
    assert not alice.of(ev.NameSettled)  # one Bob, seen for a second only: wait
    assert net.run(lambda: bool(alice.of(ev.NameSettled)), limit=first + 5.0)
    (settled,) = alice.of(ev.NameSettled)
    assert [p.node for p in settled.peers] == [bob.core.node_id]
    assert settled.at - first == pytest.approx(2.5, abs=0.05)  # policy.SETTLE


def test_a_second_announcer_of_a_watched_name_is_named_with_the_first_at_once() -> None:
    net, (alice, bob, bob2) = _lan(5, ["Alice", "Bob", "Bob"])
    net.remove(bob2.addr)
    alice.core.watch("Bob", net.now)
    assert net.run(lambda: bool(alice.of(ev.PeerSeen)), limit=3.0)
    first = net.now
    net.run(lambda: False, limit=first + 1.0)
    net.add(bob2.addr, bob2.core)  # a second Bob, a second later
    assert net.run(lambda: bool(alice.of(ev.NameSettled)), limit=first + 5.0)
    (settled,) = alice.of(ev.NameSettled)
    assert settled.at < first + 2.5  # not the first Bob alone, once it had settled
    assert {p.node for p in settled.peers} == {bob.core.node_id, bob2.core.node_id}


_CAPTURED: list[tuple[bytes, tuple[str, int]]] = []


def _captured() -> list[tuple[bytes, tuple[str, int]]]:
    """Real datagrams of a game between two cores (lobby and session), once."""
    if not _CAPTURED:
        net, (alice, _bob) = _lan(6, ["Alice", "Bob"])
        net.tap = lambda data, src, dst: _CAPTURED.append((data, src)) or data
        assert net.run(lambda: bool(alice.core.peers()), limit=5.0)
        alice.core.invite("Bob", net.now)
        assert net.run(lambda: bool(alice.of(ev.GameStarted)), limit=60.0)
    return _CAPTURED


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_whatever_arrives_a_core_drops_and_counts_it_and_never_raises(data) -> None:
    """Bit flips, cuts and junk from any address, on either port: never an exception,
    never an event but what the lobby says of a stranger, and every drop counted."""
    captured = _captured()
    core = PeerCore("Carol", 0.0, entropy=random.Random(7).randbytes, ports=False)
    core.datagrams_to_send(0.0)
    for _ in range(data.draw(st.integers(1, 8))):
        raw, src = data.draw(st.sampled_from(captured))
        how = data.draw(st.sampled_from(["as is", "flip", "cut", "junk"]))
        if how == "flip" and raw:
            at = data.draw(st.integers(0, len(raw) - 1))
            raw = raw[:at] + bytes([raw[at] ^ data.draw(st.integers(1, 255))]) + raw[at + 1:]
        elif how == "cut":
            raw = raw[:data.draw(st.integers(0, len(raw)))]
        elif how == "junk":
            raw = data.draw(st.binary(max_size=300))
        core.receive(raw, src, 0.5, direct=data.draw(st.booleans()))
        core.timer(1.0)
        core.datagrams_to_send(1.0)
    assert not core.sessions and not core.errors
    assert all(isinstance(e, (ev.PeerSeen, ev.PeerGone)) for e in core.events())
    assert sum(core.drop_counts().values()) + len(core.peers()) > 0
