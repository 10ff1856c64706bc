"""Test 6 of the issue: random and mutated datagrams thrown at a session mid-game.

It never raises, the game never changes, and every such datagram is dropped and
counted.  The corpus to mutate is real traffic the session already received (so an
unmutated replay is a duplicate, which must be dropped too).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from durak_core import Rules
from durak_net.lobby import Lobby
from durak_net.wire import MAX_DATAGRAM, SESSION_PREFIX

from .helpers import make_pair


def _midgame() -> tuple[Any, dict[str, list[bytes]]]:
    """A pair 20 actions into a game, plus the datagrams each side received so far."""
    pair = make_pair(77, loss=0.1, duplicate=0.1)
    received: dict[str, list[bytes]] = {"seq": [], "fol": []}
    for name, side in (("seq", pair.seq), ("fol", pair.fol)):
        session = side.session
        original = session.receive

        def recording(data: bytes, addr: Any, now: float, _o=original, _n=name) -> None:
            received[_n].append(data)
            _o(data, addr, now)

        session.receive = recording  # type: ignore[method-assign]
    assert pair.net.run(lambda: len(pair.seq.session.log) >= 20, limit=60.0)
    # Quiesce: stop the bots and let everything in flight arrive and be acknowledged.
    pair.seq.driver = pair.fol.driver = None
    end = pair.net.now + 2.0
    pair.net.run(
        lambda: pair.net.now > end and all(s.session.channel.in_flight == 0 for s in pair.sides),
        limit=end + 10,
    )
    for side in pair.sides:
        del side.session.receive  # back to the real method
    return pair, received


PAIR, RECEIVED = _midgame()


def _mutate(data: bytes, edits: list[tuple[int, int]], cut: int | None, tail: bytes) -> bytes:
    out = bytearray(data)
    for position, value in edits:
        out[position % len(out)] ^= value or 1
    if cut is not None:
        out = out[: cut % (len(out) + 1)]
    return bytes(out) + tail


datagrams = st.one_of(
    st.binary(max_size=MAX_DATAGRAM + 200),
    st.builds(
        lambda prefix, rest: prefix + rest,
        st.sampled_from([b"DK\x01S", b"DK\x01D", b"DK\x02S", b"DK\x01S" + bytes(8)]),
        st.binary(max_size=300),
    ),
    st.builds(
        _mutate,
        st.sampled_from(RECEIVED["seq"] + RECEIVED["fol"]),
        st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 255)), max_size=4),
        st.one_of(st.none(), st.integers(0, 2000)),
        st.one_of(st.just(b""), st.binary(max_size=1400)),
    ),
    st.sampled_from(RECEIVED["seq"] + RECEIVED["fol"]),  # plain replays
)


def _fingerprint(session: Any) -> tuple[Any, ...]:
    game = session.game
    return (
        game.state_hash(),
        len(session.log),
        session.game_no,
        dict(session.pending),
        session.closed,
        sorted(session.dealers),
    )


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=datagrams, target=st.sampled_from(["seq", "fol"]))
def test_random_and_mutated_datagrams_never_raise_nor_change_the_game(
    data: bytes, target: str
) -> None:
    session = PAIR.seq.session if target == "seq" else PAIR.fol.session
    before = _fingerprint(session)
    dropped = sum(session.drops.values())
    session.receive(data, ("10.77.0.66", 40066), PAIR.net.now)
    assert _fingerprint(session) == before
    assert sum(session.drops.values()) == dropped + 1, session.drops
    assert session.drops["internal_error"] == 0
    assert not [
        e
        for e in session.events()
        if type(e).__name__
        in ("ActionApplied", "DesyncDetected", "ProtocolViolation", "GameStarted")
    ]


def test_the_corpus_covers_both_directions_and_session_datagrams() -> None:
    assert len(RECEIVED["seq"]) > 10 and len(RECEIVED["fol"]) > 10
    assert all(len(d) > SESSION_PREFIX for d in RECEIVED["seq"] + RECEIVED["fol"])


LOBBY = Lobby("Fuzz", 40123, Rules(), 0.0, entropy=random.Random(1).randbytes)


@settings(max_examples=300, deadline=None)
@given(
    data=st.one_of(
        st.binary(max_size=1500), st.builds(lambda rest: b"DK\x01D" + rest, st.binary(max_size=400))
    )
)
@example(data=b"DK\x01D\x91\xa1\x80")  # a msgpack string that is not UTF-8
def test_the_lobby_never_raises_on_garbage(data: bytes) -> None:
    dropped = sum(LOBBY.drops.values())
    LOBBY.receive(data, ("10.77.0.66", 40066), 1.0)
    assert sum(LOBBY.drops.values()) == dropped + 1
