"""The Python helper that runs a Bot subclass as a protocol-speaking program."""

from __future__ import annotations

import io
import json

import pytest

from durak_arena.botrunner import load_bot_class, main, parse_options, serve
from durak_core import Game, Rules, event_to_dict
from durak_core.bots import GreedyBot, RandomBot

from .conftest import FIXTURES


def _lines(*messages):
    return io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages))


def test_serve_answers_hello_and_act_and_stops_at_bye():
    game = Game.new(Rules(), seed=1)
    seat = game.attacker
    obs = game.observation(seat)
    out = io.BytesIO()
    code = serve(GreedyBot, stdin=_lines(
        {"type": "hello", "protocol": "durak-bot", "version": 1},
        {"type": "start", "game": "g", "seat": seat, "players": 2,
         "rules": Rules().to_dict(), "seed": 5},
        {"type": "something-new", "ignored": True},
        {"type": "act", "game": "g", "events": [], "observation": obs, "legal": obs["legal"]},
        {"type": "bye"},
        {"type": "act", "game": "g", "events": [], "observation": obs, "legal": obs["legal"]},
    ), stdout=out)
    assert code == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[0] == {"type": "hello", "protocol": "durak-bot", "version": 1,
                          "name": "greedy"}
    assert replies[1]["type"] == "action" and replies[1]["action"] in obs["legal"]
    assert len(replies) == 2  # nothing after bye


def test_a_seeded_bot_is_made_afresh_for_every_game():
    game = Game.new(Rules(), seed=1)
    seat = game.attacker
    obs = game.observation(seat)
    start = {"type": "start", "game": "g", "seat": seat, "players": 2,
             "rules": Rules().to_dict(), "seed": 77}
    act = {"type": "act", "game": "g", "events": [event_to_dict(e) for e in []],
           "observation": obs, "legal": obs["legal"]}
    out = io.BytesIO()
    serve(RandomBot, stdin=_lines(start, act, start, act), stdout=out)
    first, second = (json.loads(line)["action"] for line in out.getvalue().splitlines())
    assert first == second  # same seed, fresh bot: same choice


def test_stray_prints_of_the_bot_go_to_stderr(capsys):
    class Chatty(RandomBot):
        def choose(self, observation, legal):
            print("thinking out loud")
            return super().choose(observation, legal)

    game = Game.new(Rules(), seed=2)
    seat = game.attacker
    obs = game.observation(seat)
    out = io.BytesIO()
    serve(Chatty(1), stdin=_lines(
        {"type": "start", "game": "g", "seat": seat, "players": 2, "rules": Rules().to_dict(),
         "seed": 1},
        {"type": "act", "game": "g", "events": [], "observation": obs, "legal": obs["legal"]},
    ), stdout=out)
    assert json.loads(out.getvalue())["type"] == "action"
    assert "thinking out loud" in capsys.readouterr().err


def test_loading_bot_classes_and_options():
    assert load_bot_class(f"{FIXTURES / 'randombot.py'}:Rb").__name__ == "Rb"
    assert load_bot_class("durak_core.bots:GreedyBot") is GreedyBot
    for bad, message in [("nocolon", "name the bot class"),
                         (f"{FIXTURES / 'missing.py'}:X", "no such file"),
                         (f"{FIXTURES / 'randombot.py'}:Nope", "has no 'Nope'")]:
        with pytest.raises(ValueError, match=message):
            load_bot_class(bad)
    assert parse_options(["depth=3", "c=0.5", "name=x"]) == {"depth": 3, "c": 0.5, "name": "x"}
    with pytest.raises(ValueError, match="key=value"):
        parse_options(["depth"])


def test_the_command_line_refuses_a_bad_target(capsys):
    assert main(["nowhere.py:Bot"]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main([]) == 2
