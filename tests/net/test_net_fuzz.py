"""Random and mutated datagrams thrown at a session mid-game, and random and mutated
deal messages thrown at a dealer and (authenticated) at a session.

A datagram never raises, never changes the game, and is dropped and counted.  The
corpus to mutate is real traffic the session already received (so an unmutated replay
is a duplicate, which must be dropped too).  A deal message that breaks the deal is a
fault naming its sender (the game stops for the audit), never an exception.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from durak_core import Rules
from durak_net import events as ev
from durak_net.dealer import DealContext, DealFault, MentalDealer
from durak_net.lobby import Lobby, LobbyConfig
from durak_net.wire import MAX_DATAGRAM, SESSION_PREFIX

from .helpers import FAST, deal, make_pair


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
        st.sampled_from([b"DK\x02S", b"DK\x02D", b"DK\x03S", b"DK\x03D", b"DK\x04S", b"DK\x04D",
                         b"DK\x04S" + bytes(8), b"DK\x05S", b"DK\x05D",
                         b"DK\x05S" + bytes(8), b"DK\x06S", b"DK\x06D",
                         b"DK\x06S" + bytes(8)]),
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


# Every example comes from one address: lift its rate limit, or the limit alone would
# drop all but the first hundred.
LOBBY = Lobby("Fuzz", 40123, Rules(), 0.0, entropy=random.Random(1).randbytes,
              config=LobbyConfig(per_source_burst=1e9))


@settings(max_examples=300, deadline=None)
@given(
    data=st.one_of(
        st.binary(max_size=1500),
        st.builds(lambda rest: b"DK\x06D" + rest, st.binary(max_size=400)),
        st.builds(lambda rest: b"DK\x05D" + rest, st.binary(max_size=400)),
        st.builds(lambda rest: b"DK\x04D" + rest, st.binary(max_size=400)),
        st.builds(lambda rest: b"DK\x01D" + rest, st.binary(max_size=400)),
        st.builds(lambda rest: b"DK\x03D" + rest, st.binary(max_size=400)),
    )
)
@example(data=b"DK\x01D\x91\xa1\x80")  # a msgpack string that is not UTF-8
def test_the_lobby_never_raises_on_garbage(data: bytes) -> None:
    dropped = sum(LOBBY.drops.values())
    LOBBY.receive(data, ("10.77.0.66", 40066), 1.0)
    assert sum(LOBBY.drops.values()) == dropped + 1


# ------------------------------------------------------------------ deal messages


def _deal_corpus() -> tuple[list[tuple[int, bytes]], bytes]:
    """Every message of a real two-seat deal, with its sender, and seat 1's seed."""
    rng = random.Random(3)
    dealers = [MentalDealer(DealContext(1, 1, s, 2, 36, rng.randbytes)) for s in (0, 1)]
    mail = [(s, m) for s in (0, 1) for m in dealers[s].begin()]
    seen: list[tuple[int, bytes]] = []
    while mail:
        sender, data = mail.pop(0)
        seen.append((sender, data))
        mail += [(1 - sender, m) for m in dealers[1 - sender].receive(data, sender)]
    return seen, dealers[1].seed


DEALS, SEAT1_SEED = _deal_corpus()
deal_messages = st.one_of(
    st.binary(max_size=800),
    st.builds(
        _mutate,
        st.sampled_from([d for _, d in DEALS]),
        st.lists(st.tuples(st.integers(0, 900), st.integers(0, 255)), min_size=1, max_size=3),
        st.one_of(st.none(), st.integers(0, 900)),
        st.one_of(st.just(b""), st.binary(max_size=40)),
    ),
)


@settings(max_examples=300, deadline=None)
@given(data=deal_messages, sender=st.sampled_from([0, 1, 2]), before=st.integers(0, len(DEALS)))
def test_a_dealer_meets_random_and_mutated_messages_with_a_fault_or_nothing(
    data: bytes, sender: int, before: int
) -> None:
    dealer = MentalDealer(DealContext(1, 1, 1, 2, 36, random.Random(3).randbytes), SEAT1_SEED)
    dealer.begin()
    for frm, message in DEALS[:before]:  # replay part of a real deal first
        if frm == 0:
            dealer.receive(message, 0)
    try:
        dealer.receive(data, sender)
    except DealFault as fault:
        assert fault.seat == sender and fault.code and fault.detail


@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(data=deal_messages)
def test_an_authenticated_bad_deal_message_stops_the_game_naming_its_sender(data: bytes) -> None:
    pair = make_pair(5, bots=False, config=FAST)
    pair.fol.session.channel.push(deal(pair.fol.session, 1, data), 0.0)
    pair.net.run(lambda: pair.seq.session.game is not None or any(
        isinstance(e, ev.GameAudited) for e in pair.seq.events), limit=20.0)
    assert not pair.seq.session.drops["internal_error"]
    stops = [e for e in pair.seq.events if isinstance(e, ev.GameStopped)]
    if pair.seq.session.game is None:  # the deal broke: a fault naming Bob, audited
        assert stops and stops[0].culprit == 1
        assert any(isinstance(e, ev.GameAudited) and e.culprit == 1 for e in pair.seq.events)
    else:  # the message happened to be harmless (a copy of a real one): dealt as usual
        assert not stops
