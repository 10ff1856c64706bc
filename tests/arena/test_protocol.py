"""The protocol: message framing, events as dicts, and round trips with subprocess bots."""

from __future__ import annotations

import json
import sys

import pytest

from durak_arena.process import ProcessBot
from durak_arena.protocol import ProtocolError, decode, encode, event_from_dict
from durak_arena.referee import InProcessSeat, ProcessSeat, referee_game
from durak_core import Game, Rules, event_to_dict, parse_action
from durak_core.bots import GreedyBot, RandomBot, next_to_act, play_game, seat_events

from .conftest import FIXTURES, ROOT


def test_encode_is_one_utf8_line_and_decodes_back():
    message = {"type": "action", "action": "0 defend 7♠ with 9♠"}
    line = encode(message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert "♠" in line.decode("utf-8")
    assert decode(line) == message


@pytest.mark.parametrize("line", [b"hello", b"[1, 2]", b'{"action": "0 take"}', b'{"type": 3}'])
def test_decode_refuses_lines_that_are_not_messages(line):
    with pytest.raises(ProtocolError):
        decode(line)


def test_every_event_of_a_game_survives_the_trip_through_json():
    game = Game.new(Rules(players=3), seed=4)
    seen = []
    play_game(
        game,
        [GreedyBot(), RandomBot(1), RandomBot(2)],
        on_action=lambda a, events: seen.extend(seat_events(0, events, game)),
    )
    kinds = set()
    for event in seen:
        data = json.loads(json.dumps(event_to_dict(event), ensure_ascii=False))
        assert event_from_dict(data) == event
        kinds.add(data["type"])
    assert {"attacked", "defended", "drew", "newbout", "gameover"} <= kinds


def test_event_from_dict_names_what_is_wrong():
    with pytest.raises(ProtocolError, match="unknown event type"):
        event_from_dict({"type": "exploded"})
    with pytest.raises(ProtocolError, match="lacks 'card'"):
        event_from_dict({"type": "defended", "player": 1, "attack_card": "7s"})


def test_handshake_with_the_python_helper_names_the_bot():
    bot = ProcessBot(
        [sys.executable, "-m", "durak_arena.botrunner", f"{FIXTURES / 'misbehaving.py'}:Cheater"],
        cwd=str(ROOT),
        env=_env(),
    )
    try:
        bot.ensure_started()
        assert bot.running
        assert bot.name == "random"  # Cheater inherits RandomBot's name
    finally:
        bot.close()
    assert not bot.running


def _env():
    from durak_arena.referee import bot_env

    return bot_env()


def test_a_py_bot_plays_exactly_like_the_same_bot_in_process(spec):
    """The helper forwards observation, legal actions and seed faithfully: same game, same log."""
    rules = Rules()
    seeds = [11, 22]
    subprocess_seat = ProcessSeat(spec(f"py:{FIXTURES / 'randombot.py'}:Rb"))
    try:
        for deal_seed in (1, 2, 3):
            by_process = referee_game(
                rules,
                0,
                deal_seed,
                [subprocess_seat, InProcessSeat(spec("builtin:greedy"))],
                seeds,
                10.0,
                "g",
            )
            in_process = referee_game(
                rules,
                0,
                deal_seed,
                [InProcessSeat(spec("builtin:random")), InProcessSeat(spec("builtin:greedy"))],
                seeds,
                10.0,
                "g",
            )
            assert by_process.forfeit is None
            assert by_process.log == in_process.log
            assert by_process.losers == in_process.losers
    finally:
        subprocess_seat.close()


def test_a_bot_program_receives_only_its_own_seat_view(spec, tmp_path):
    """Record every line sent to a bot; no card of the other hand or of the talon leaks."""
    out = tmp_path / "lines.jsonl"
    seat = ProcessSeat(spec(f"cmd:{sys.executable} {FIXTURES / 'recorder.py'} {out}"))
    try:
        record = referee_game(
            Rules(), 0, 5, [seat, InProcessSeat(spec("builtin:greedy"))], [1, 2], 10.0, "g"
        )
    finally:
        seat.close()
    assert record.forfeit is None
    messages = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    types = [m["type"] for m in messages]
    assert types[0] == "hello" and types[1] == "start" and types[-2:] == ["end", "bye"]
    assert types.count("act") == record.decisions[0]

    # Replay the game in full: each act carries exactly the engine's view of seat 0 at
    # that moment, and the events never show a card seat 0 did not see.
    full = Game.new(Rules(), seed=5)
    expected = []
    for text in record.log:
        if next_to_act(full) == 0 and len(full.legal_actions(0)) > 1:
            expected.append(full.observation(0))
        full.apply(parse_action(text))
    acts = [m for m in messages if m["type"] == "act"]
    assert [m["observation"] for m in acts] == expected
    assert all(m["legal"] == m["observation"]["legal"] for m in acts)
    trump = str(full.trump_card)
    for message in messages:
        for event in message.get("events", []):
            if event["type"] == "drew" and event["player"] != 0:
                assert all(c is None or c == trump for c in event["cards"])
    final = messages[-2]
    assert final["observation"] == full.observation(0)
    assert final["result"]["losers"] == record.losers
    assert final["result"]["outcome"] == (
        "win" if 1 in record.losers else "loss" if 0 in record.losers else "draw"
    )
    assert final["events"][-1]["type"] == "gameover"
