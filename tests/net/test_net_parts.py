"""The pieces under the session: schema and size limit, reliable stream, dealer, journal."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from durak_core import Rules
from durak_net.dealer import DealContext, MentalDealer
from durak_net.journal import Journal, read_journal, resumable
from durak_net.reliable import ReliableChannel, RtoConfig
from durak_net.wire import (
    MAX_DATAGRAM,
    Announce,
    Invite,
    Sync,
    WireError,
    decode_discovery,
    decode_packet_body,
    discovery_signature,
    encode_discovery,
)

# ------------------------------------------------------------------ wire


def _unsigned(data: bytes) -> bytes:
    """A blank signature: the schema does not check it (the lobby does)."""
    return bytes(64)


def test_discovery_messages_round_trip_and_bad_ones_name_their_drop_counter() -> None:
    msg = Announce("durak-lan", 4, 2**64 - 1, bytes(32), 1, "Алиса", 40123,
                   Rules().to_dict(), True, [bytes(8)])
    data = encode_discovery(msg, _unsigned)
    assert decode_discovery(data) == msg
    assert discovery_signature(data) == (data[:-64], bytes(64))
    cases = {
        b"hello": "foreign",
        b"DK\x07D" + data[4:]: "foreign",  # another wire version
        b"DK\x01D" + data[4:]: "old_version",  # older ones
        b"DK\x02D" + data[4:]: "old_version",
        b"DK\x03D" + data[4:]: "old_version",
        b"DK\x04D" + data[4:]: "old_version",
        b"DK\x05D" + data[4:]: "old_version",
        data[:-67]: "malformed",
        data[:40]: "malformed",  # too short to hold a signature
        b"DK\x06D" + b"\x00" * (MAX_DATAGRAM + 1): "oversized",
        # A msgpack string that is not UTF-8 (found by the lobby fuzz test).
        b"DK\x06D\x91\xa1\x80" + bytes(64): "malformed",
    }
    for data, counter in cases.items():
        with pytest.raises(WireError) as caught:
            decode_discovery(data)
        assert caught.value.counter == counter


def test_a_packet_body_that_is_not_utf8_is_malformed_not_a_crash() -> None:
    # Session bodies are authenticated first, but a peer holding the key may still
    # send garbage: it must be dropped like any malformed datagram.
    for body in (b"\x91\xa1\x80", b"\x92\x01\xa2\xc3\x28", b"\xff"):
        with pytest.raises(WireError, match="malformed"):
            decode_packet_body(body)


def test_the_schema_bounds_field_sizes() -> None:
    long_name = Invite(1, bytes(32), 2, 3, "x" * 41, Rules().to_dict(), bytes(32))
    with pytest.raises(WireError, match="malformed"):
        decode_discovery(encode_discovery(long_name, _unsigned))
    short_key = Invite(1, bytes(32), 2, 3, "Bob", Rules().to_dict(), bytes(31))
    with pytest.raises(WireError, match="malformed"):
        decode_discovery(encode_discovery(short_key, _unsigned))


# ------------------------------------------------------------------ reliable stream


def test_out_of_order_frames_are_held_until_the_gap_fills_and_duplicates_dropped() -> None:
    sender: ReliableChannel[Sync] = ReliableChannel()
    receiver: ReliableChannel[Sync] = ReliableChannel()
    frames = [sender.push(Sync(0, 1, n), 0.0) for n in range(5)]
    order = [frames[3], frames[1], frames[4], frames[0], frames[0], frames[2]]
    delivered = [f.log_len for f in order for f in receiver.receive(f)]
    assert delivered == [0, 1, 2, 3, 4]
    assert receiver.stats["duplicate"] == 1
    assert receiver.ack_state() == (5, [])


def test_selective_acks_stop_retransmission_of_frames_past_a_gap() -> None:
    sender: ReliableChannel[Sync] = ReliableChannel()
    receiver: ReliableChannel[Sync] = ReliableChannel()
    frames = [sender.push(Sync(0, 1, n), 0.0) for n in range(3)]
    sender.due(0.0)
    receiver.receive(frames[1])
    receiver.receive(frames[2])
    assert receiver.ack_state() == (0, [2, 3])
    sender.on_ack(*receiver.ack_state(), now=0.001)
    assert [f.seq for f in sender.due(10.0)] == [1]


def test_the_timeout_adapts_to_the_round_trip_backs_off_and_is_capped() -> None:
    config = RtoConfig(initial=0.05, minimum=0.004, maximum=1.0)
    channel: ReliableChannel[Sync] = ReliableChannel(config)
    now = 0.0
    for n in range(20):  # a LAN: 0.3 ms round trips
        channel.push(Sync(0, 1, n), now)
        channel.due(now)
        now += 0.0003
        channel.on_ack(n + 1, [], now)
    assert channel.rto == pytest.approx(config.minimum)
    channel.push(Sync(0, 1, 99), now)
    sends = []
    for _ in range(12):  # nobody answers: each resend waits twice as long, up to 1 s
        assert channel.due(now)
        sends.append(now)
        now = channel.next_timer() or now
    gaps = [b - a for a, b in itertools.pairwise(sends)]
    assert gaps[0] == pytest.approx(config.minimum)
    assert gaps[1] == pytest.approx(2 * config.minimum)
    assert max(gaps) == pytest.approx(config.maximum)


def test_karns_rule_ignores_acks_of_resent_frames() -> None:
    channel: ReliableChannel[Sync] = ReliableChannel(RtoConfig(initial=0.05))
    channel.push(Sync(0, 1, 0), 0.0)
    channel.due(0.0)
    channel.due(0.05)  # resent
    channel.on_ack(1, [], 0.9)
    assert channel.srtt is None and channel.rto == 0.05


# ------------------------------------------------------------------ dealer


def _dealers(seed: int) -> tuple[MentalDealer, MentalDealer]:
    rng = random.Random(seed)
    return (
        MentalDealer(DealContext(9, 1, 0, 2, 36, rng.randbytes)),
        MentalDealer(DealContext(9, 1, 1, 2, 36, rng.randbytes)),
    )


def _exchange(a: MentalDealer, b: MentalDealer, to_b: list[bytes], to_a: list[bytes]) -> None:
    while to_a or to_b:
        to_a, to_b = (
            [m for x in to_b for m in b.receive(x, 0)],
            [m for x in to_a for m in a.receive(x, 1)],
        )


def test_nobody_deals_before_agreeing_to_the_game() -> None:
    a, b = _dealers(3)
    first = a.begin()  # seat 0 agrees and shuffles at once: that reveals nothing
    replies = [m for x in first for m in b.receive(x, 0)]
    assert replies == [] and not b.began and b.heard and 0 in b.steps
    assert 1 not in b.steps  # seat 1 does its step only once it agrees
    _exchange(a, b, [], b.begin())
    assert a.done and b.done


def test_a_dealer_rebuilt_from_its_seed_and_the_messages_it_received_continues_identically(
) -> None:
    a, b = _dealers(6)
    received: list[tuple[int, bytes]] = []
    mail = [(0, m) for m in a.begin()] + [(1, m) for m in b.begin()]
    while mail:
        sender, data = mail.pop(0)
        if sender == 1:
            received.append((1, data))
            mail += [(0, m) for m in a.receive(data, 1)]
        else:
            mail += [(1, m) for m in b.receive(data, 0)]
    assert a.done and b.done
    restored = MentalDealer(a.context, bytes.fromhex(json.loads(json.dumps(a.seed.hex()))))
    restored.replay(received, began=True)
    assert restored.sent() == a.sent()
    assert restored.done and restored.mine == a.mine
    assert restored.deal(Rules()).public_hash() == b.deal(Rules()).public_hash()


# ------------------------------------------------------------------ journal


def test_a_torn_last_line_is_skipped_and_finished_sessions_are_not_resumable(tmp_path) -> None:
    with Journal.create(tmp_path, 0xA, 1) as j:
        j.write([{"t": "session", "sid": 10, "name": "Ann"}, {"t": "epoch", "epoch": 1}])
    with open(tmp_path / "a-seat1.jsonl", "a") as f:
        f.write('{"t": "entr')  # the kernel died mid-write
    assert [r["t"] for r in read_journal(tmp_path / "a-seat1.jsonl")] == ["session", "epoch"]
    with Journal.create(tmp_path, 0xA, 0) as j:  # the peer, sharing the folder
        j.write([{"t": "session", "sid": 10, "name": "Ben"}])
    with Journal.create(tmp_path, 0xB, 1) as j:
        j.write([{"t": "session", "sid": 11, "name": "Ann"}, {"t": "bye", "reason": ""}])
    assert [h["name"] for _, h in resumable(tmp_path, "Ann")] == ["Ann"]
    assert sorted(h["name"] for _, h in resumable(tmp_path)) == ["Ann", "Ben"]
    (tmp_path / "c-seat1.jsonl").write_text('{"t": "session"}\nnot json\n{"t": "x"}\n')
    with pytest.raises(ValueError, match="line 2"):
        read_journal(tmp_path / "c-seat1.jsonl")


def test_journals_are_private_to_their_owner(tmp_path) -> None:
    folder = tmp_path / "state" / "durak"
    with Journal.create(folder, 0xC, 0) as j:
        j.write([{"t": "session", "sid": 12, "key": "00" * 32}])
    assert folder.stat().st_mode & 0o777 == 0o700
    assert (folder / "c-seat0.jsonl").stat().st_mode & 0o777 == 0o600
