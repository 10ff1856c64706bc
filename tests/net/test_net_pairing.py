"""Pairing people can verify: the short authentication string, the PIN, and a man in the
middle who runs his own key exchange with each side (he is caught by either).

Also the lobby's part in it: two peers announcing one name are flagged, an older
durak is recognised, and announcements carry no session ids.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from durak_core import Rules
from durak_net import events as ev
from durak_net.crypto import (
    KeyPair,
    Pin,
    key_commitment,
    pairing_proof,
    session_key,
    short_auth_string,
    transcript,
)
from durak_net.lobby import BROADCAST, Lobby
from durak_net.simlink import SimNet
from durak_net.wire import (
    Announce,
    Answer,
    Confirm,
    Invite,
    Paired,
    WireError,
    decode_discovery,
)

from .crafted import Crafter

ALICE, BOB = ("10.77.0.1", 40000), ("10.77.0.2", 40001)


def _lan(seed: int, mallory: Mallory | None = None
         ) -> tuple[SimNet, Lobby, Lobby, dict[str, list[Any]]]:
    rng = random.Random(seed)
    net = SimNet(random.Random(seed + 1), broadcast=BROADCAST)
    if mallory is not None:  # in the middle from the start, announcements included
        net.tap = mallory.tap
    alice = Lobby("Alice", ALICE[1], Rules(), 0.0, entropy=rng.randbytes)
    bob = Lobby("Bob", BOB[1], Rules(), 0.0, entropy=rng.randbytes)
    net.add(ALICE, alice)
    net.add(BOB, bob)
    seen: dict[str, list[Any]] = {"Alice": [], "Bob": []}

    def collect(now: float) -> None:
        seen["Alice"] += alice.events()
        seen["Bob"] += bob.events()

    net.hooks.append(collect)
    assert net.run(lambda: len(alice.peers) == len(bob.peers) == 1, limit=5.0)
    return net, alice, bob, seen


def _of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def _pair(net: SimNet, alice: Lobby, bob: Lobby, seen, pin: str | None = None,
          typed: str | None = None) -> None:
    (bob_as_seen,) = alice.peers  # Bob's node id, or the one Mallory poses as
    invite = alice.invite(bob_as_seen, net.now, pin=pin)
    assert net.run(lambda: _of(seen["Bob"], ev.InviteReceived), limit=net.now + 10)
    (received,) = _of(seen["Bob"], ev.InviteReceived)
    assert received.pin == (pin is not None)
    bob.accept(invite, net.now, pin=typed if typed is not None else pin)
    net.run(
        lambda: (bool(_of(seen["Alice"], ev.SessionAgreed) or _of(seen["Alice"], ev.InviteClosed))
                 and bool(_of(seen["Bob"], ev.SessionAgreed)
                          or _of(seen["Bob"], ev.InviteClosed))),
        limit=net.now + 30,
    )


class Mallory:
    """A man in the middle on the LAN path between Alice and Bob.

    He rewrites the pairing messages to run his own key exchange with each side (and,
    with a PIN, his own SPAKE2 with a guessed PIN), so each side ends up sharing a key
    with him, not with the other.  He uses the same building blocks an honest peer does.
    """

    def __init__(self, rng: random.Random, guess: str = "000000") -> None:
        self.rng = rng
        self.guess = guess
        self.as_alice = KeyPair.generate(rng.randbytes)  # what Bob is shown
        self.as_bob = KeyPair.generate(rng.randbytes)  # what Alice is shown
        self.pin_to_bob: Pin | None = None
        self.pin_to_alice: Pin | None = None
        self.state: dict[str, Any] = {}
        self.rewrites = 0
        #: The node he poses as towards the other side, by the real one's address.
        self.posing = {ALICE: Crafter(101), BOB: Crafter(102)}
        self.real: dict[Any, int] = {}

    def tap(self, data: bytes, src: Any, dst: Any) -> bytes:
        try:
            msg = decode_discovery(data)
        except WireError:
            return data
        st = self.state
        if isinstance(msg, Invite):
            st["invite"], st["alice_spake"] = msg.invite, msg.spake
            spake = b""
            if msg.spake:
                self.pin_to_bob = Pin(self.guess, True, self.rng.randbytes)
                spake = self.pin_to_bob.message
            st["spake_to_bob"] = spake
            msg = replace(msg, commit=key_commitment(self.as_alice.public), spake=spake)
        elif isinstance(msg, Answer) and msg.accept:
            st["bob_key"], st["bob_spake"] = msg.key, msg.spake
            spake = b""
            if msg.spake:
                self.pin_to_alice = Pin(self.guess, False, self.rng.randbytes)
                spake = self.pin_to_alice.message
            st["spake_to_alice"] = spake
            msg = replace(msg, key=self.as_bob.public, spake=spake)
        elif isinstance(msg, Confirm):
            invite = st["invite"]
            pin_b = self.pin_to_bob.key(st["bob_spake"]) if self.pin_to_bob else b""
            st["key_bob"] = session_key(self.as_alice.exchange(st["bob_key"]), pin_b, invite)
            pin_a = self.pin_to_alice.key(st["alice_spake"]) if self.pin_to_alice else b""
            st["alice_key"] = msg.key
            st["key_alice"] = session_key(self.as_bob.exchange(msg.key), pin_a, invite)
            text = transcript(invite, self.as_alice.public, st["bob_key"], st["spake_to_bob"],
                              st["bob_spake"])
            msg = replace(msg, key=self.as_alice.public,
                          proof=pairing_proof(st["key_bob"], True, text))
        elif isinstance(msg, Paired) and msg.ok:
            invite = st["invite"]
            text = transcript(invite, st["alice_key"], self.as_bob.public, st["alice_spake"],
                              st["spake_to_alice"])
            msg = replace(msg, proof=pairing_proof(st["key_alice"], False, text))
        else:
            return self.relay(msg, src)
        self.rewrites += 1
        return self.relay(msg, src)

    def relay(self, msg: Any, src: Any) -> bytes:
        """Speak for ``src`` under a node key of his own (discovery messages are signed,
        so he cannot keep the real node ids): each side sees him as the other one."""
        me = self.posing[src]
        self.real[src] = msg.node
        msg = replace(msg, node=me.node, node_key=me.key)
        if not isinstance(msg, Announce):
            other = next(a for a in self.posing if a != src)
            if msg.to == self.posing[other].node:
                msg = replace(msg, to=self.real[other])
        return me.datagram(msg)


def test_without_anyone_in_the_middle_both_screens_show_the_same_words() -> None:
    net, alice, bob, seen = _lan(1)
    _pair(net, alice, bob, seen)
    (a,), (b,) = _of(seen["Alice"], ev.SessionAgreed), _of(seen["Bob"], ev.SessionAgreed)
    assert a.key == b.key and a.sas == b.sas and len(a.sas.split()) == 4
    assert not a.pin and not b.pin


def test_a_man_in_the_middle_makes_the_words_differ() -> None:
    mallory = Mallory(random.Random(9))
    net, alice, bob, seen = _lan(2, mallory)
    _pair(net, alice, bob, seen)
    (a,), (b,) = _of(seen["Alice"], ev.SessionAgreed), _of(seen["Bob"], ev.SessionAgreed)
    assert mallory.rewrites >= 4  # he really ran both exchanges
    assert a.key == mallory.state["key_alice"] and b.key == mallory.state["key_bob"]
    assert a.key != b.key
    assert a.sas != b.sas  # what the two people compare, and see differ


def test_the_inviter_commits_to_its_key_so_the_words_cannot_be_forced() -> None:
    # The words depend on both keys; the inviter's key is fixed (committed) before the
    # invitee's is seen, and a changed key breaks the commitment.
    rng = random.Random(3)
    a, b = KeyPair.generate(rng.randbytes), KeyPair.generate(rng.randbytes)
    words = {short_auth_string(7, a.public, KeyPair.generate(rng.randbytes).public)
             for _ in range(200)}
    assert len(words) == 200  # 32 bits: no two of 200 keys give the same words
    assert key_commitment(a.public) != key_commitment(b.public)


def test_a_pin_pairing_succeeds_with_the_same_pin() -> None:
    net, alice, bob, seen = _lan(4)
    _pair(net, alice, bob, seen, pin="482193")
    (a,), (b,) = _of(seen["Alice"], ev.SessionAgreed), _of(seen["Bob"], ev.SessionAgreed)
    assert a.key == b.key and a.pin and b.pin and a.sas == b.sas


def test_a_wrong_pin_fails_the_pairing_on_both_sides() -> None:
    net, alice, bob, seen = _lan(5)
    _pair(net, alice, bob, seen, pin="482193", typed="482199")
    assert not _of(seen["Alice"], ev.SessionAgreed) and not _of(seen["Bob"], ev.SessionAgreed)
    for name in ("Alice", "Bob"):
        (closed,) = _of(seen[name], ev.InviteClosed)
        assert closed.reason == ("pairing failed: the PIN does not match, or someone is in "
                                 "the middle")


def test_a_man_in_the_middle_cannot_pass_a_pin_pairing() -> None:
    mallory = Mallory(random.Random(9), guess="111111")
    net, alice, bob, seen = _lan(6, mallory)
    _pair(net, alice, bob, seen, pin="482193")
    assert not _of(seen["Alice"], ev.SessionAgreed) and not _of(seen["Bob"], ev.SessionAgreed)
    assert "pairing failed" in _of(seen["Bob"], ev.InviteClosed)[0].reason
    assert "pairing failed" in _of(seen["Alice"], ev.InviteClosed)[0].reason


def test_accepting_a_pin_invitation_without_a_pin_is_a_local_error() -> None:
    net, alice, bob, seen = _lan(7)
    invite = alice.invite(bob.node, net.now, pin="1234")
    assert net.run(lambda: _of(seen["Bob"], ev.InviteReceived), limit=net.now + 10)
    with pytest.raises(ValueError, match="asked for a PIN"):
        bob.accept(invite, net.now)
    with pytest.raises(ValueError, match="4 to 12 digits"):
        alice.invite(bob.node, net.now, pin="12a")


def test_two_peers_announcing_one_name_are_flagged() -> None:
    rng = random.Random(8)
    net = SimNet(random.Random(9), broadcast=BROADCAST)
    me = Lobby("Carol", 40000, Rules(), 0.0, entropy=rng.randbytes)
    net.add(("10.77.0.1", 40000), me)
    for i in (2, 3):
        net.add((f"10.77.0.{i}", 40000 + i), Lobby("Ann", 40000 + i, Rules(), 0.0,
                                                    entropy=rng.randbytes))
    assert net.run(lambda: len(me.peers) == 2, limit=5.0)
    assert all(p.info.same_name for p in me.peers.values())
    net.remove(("10.77.0.3", 40003))  # one of them leaves: the other is alone again
    assert net.run(lambda: len(me.peers) == 1, limit=net.now + 10)
    (alone,) = me.peers.values()
    assert not alone.info.same_name


def test_an_older_durak_is_recognised_and_not_invited() -> None:
    lobby = Lobby("Alice", 40000, Rules(), 0.0, entropy=random.Random(1).randbytes)
    old = b"DK\x01D" + msgspec.msgpack.encode(
        ["announce", "durak-lan", 1, 1234, "Olga", 40100, Rules().to_dict()])
    lobby.receive(old, ("10.77.0.9", 37020), 0.5)
    (peer,) = lobby.peers.values()
    assert peer.info.name == "Olga" and "older durak" in peer.info.incompatible
    with pytest.raises(ValueError, match="Olga runs an older durak"):
        lobby.invite(peer.info.node, 0.6)
    assert lobby.drops["old_version"] == 1


def test_announcements_carry_no_session_ids() -> None:
    lobby = Lobby("Alice", 40000, Rules(), 0.0, entropy=random.Random(1).randbytes)
    lobby.busy = True
    (data, _), = lobby.datagrams_to_send(0.0)
    message = decode_discovery(data)
    assert isinstance(message, Announce)
    assert message.tags == [] and not hasattr(message, "sessions")
