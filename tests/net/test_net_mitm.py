"""A man in the middle of a game of two: what the two screens show must differ.

Mallory ran one key exchange with each side (see test_net_pairing's Mallory), so he
holds both session keys, and now relays the game between them: he opens each packet
with one side's key and passes its frames on, untouched, over his link with the other.
Every signed message (the Hellos with each seat's signing key, the deal, the
proposals) checks out, so the game plays on.  The pairing words differ; the table
words, which hash the signing keys he relayed, would be the same on both screens next
to them (and reassure the wrong person) if they did not hash the pairing words too.
"""

from __future__ import annotations

import random

from durak_core import Rules
from durak_net.link import Addr, Link
from durak_net.session import Role, Session
from durak_net.simlink import SimNet

from .helpers import FAST

ALICE, BOB, MALLORY = ("10.77.0.1", 40001), ("10.77.0.2", 40002), ("10.77.0.66", 40066)


class Relay:
    """Mallory: one link with each side, the frames of one passed on over the other."""

    def __init__(self, sid: int, key_alice: bytes, key_bob: bytes) -> None:
        # To Alice he is seat 1 (Bob); to Bob he is seat 0 (Alice).
        self.links = {ALICE: Link(sid, key_alice, 1, 0, ALICE, 0.0, FAST.rto),
                      BOB: Link(sid, key_bob, 0, 1, BOB, 0.0, FAST.rto)}
        self.relayed = 0

    def receive(self, data: bytes, addr: Addr, now: float) -> None:
        link = self.links[addr]
        other = self.links[BOB if addr == ALICE else ALICE]
        packet = link.open(data)
        if link.accept(packet, addr, now).accepted:
            for frame in link.frames(packet):
                other.push(frame, now)
                self.relayed += 1

    def timer(self, now: float) -> None:
        pass

    def next_timer(self) -> float | None:
        return min(link.next_timer(FAST.heartbeat, 1e9) for link in self.links.values())

    def datagrams_to_send(self, now: float) -> list[tuple[bytes, Addr]]:
        return [d for link in self.links.values()
                for d in link.datagrams_to_send(now, FAST.heartbeat)]


def _sessions(seed: int, keys: tuple[bytes, bytes], words: tuple[str, str],
              peer: tuple[Addr, Addr]) -> tuple[Session, Session]:
    rng = random.Random(seed)
    sid = 0x5E55
    alice = Session(sid, Role.SEQUENCER, keys[0], Rules(), peer[0], 0.0, entropy=rng.randbytes,
                    config=FAST, name="Alice", peer_name="Bob", sas=words[0])
    bob = Session(sid, Role.FOLLOWER, keys[1], Rules(), peer[1], 0.0, entropy=rng.randbytes,
                  config=FAST, name="Bob", peer_name="Alice", sas=words[1])
    return alice, bob


def test_without_a_man_in_the_middle_both_screens_show_the_same_table_words() -> None:
    key = random.Random(1).randbytes(32)
    words = "cousin circus willow turtle"
    alice, bob = _sessions(2, (key, key), (words, words), (BOB, ALICE))
    net = SimNet(random.Random(3))
    net.add(ALICE, alice)
    net.add(BOB, bob)
    assert net.run(lambda: alice.game is not None and bob.game is not None, limit=10.0)
    assert alice.table_words and alice.table_words == bob.table_words


def test_a_man_in_the_middle_of_a_game_of_two_makes_the_table_words_differ_too() -> None:
    rng = random.Random(4)
    key_alice, key_bob = rng.randbytes(32), rng.randbytes(32)
    # The pairing words each side was shown (its exchange was with Mallory).
    words = ("cousin circus willow turtle", "amber bagel cello daisy")
    alice, bob = _sessions(5, (key_alice, key_bob), words, (MALLORY, MALLORY))
    mallory = Relay(0x5E55, key_alice, key_bob)
    net = SimNet(random.Random(6))
    for addr, endpoint in ((ALICE, alice), (BOB, bob), (MALLORY, mallory)):
        net.add(addr, endpoint)
    # He relays a whole deal: every signature checks out, the game is on.
    assert net.run(lambda: alice.game is not None and bob.game is not None, limit=10.0)
    assert mallory.relayed > 10
    assert alice.players[1].sign_key == bob.identity.public  # the real keys, relayed
    assert alice.sas != bob.sas
    assert alice.table_words and bob.table_words and alice.table_words != bob.table_words
