"""The compiled engine (mypyc, see setup.py) and the pure-Python one are the same rules.

The test suite runs on whatever is installed (compiled where a C compiler exists);
scripts/test.sh also runs tests/core with ``DURAK_PURE=1``.  Here the two builds play
the same seeded random games side by side, in this process and in a pure-Python
subprocess, and must agree on every state hash; and an edited checkout must never run
stale compiled rules.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import durak_core

REPO = Path(__file__).resolve().parents[2]
needs_compiled = pytest.mark.skipif(
    not durak_core.COMPILED,
    reason="the compiled engine is not installed here (no C compiler, or DURAK_PURE)",
)

RULE_SETS = [
    {},
    {"players": 4, "deck_size": 52, "variant": "perevodnoy", "throw_in": "neighbours"},
    {"players": 3, "deck_size": 24, "first_bout_limit": None, "open_with_several": False},
    {"players": 4, "teams": True, "variant": "perevodnoy", "transfer_by_showing_trump": True},
    {"players": 6, "match": True},
]

# Plays the games and prints one JSON line: every state hash along every game.
PLAYER = """
import json, random, sys
from durak_core import COMPILED, Game, Rules
out = {"compiled": COMPILED, "hashes": []}
for i, options in enumerate(json.loads(sys.argv[1])):
    for seed in range(int(sys.argv[2])):
        game = Game.new(Rules(**options), seed=seed)
        rng = random.Random(seed * 31 + i)
        trail = [game.state_hash()]
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            view = game.view(game.attacker)
            trail.append(game.state_hash() + view.public_hash())
        out["hashes"].append(trail)
print(json.dumps(out))
"""


def _run(script: str, env: dict[str, str], *args: str) -> dict:
    """What ``script`` (one of the above) prints, run as ``python -c`` in ``env``."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True, text=True, env=env, cwd=REPO, check=True, timeout=300,
    )
    return json.loads(done.stdout)


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DURAK_PURE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


@needs_compiled
def test_compiled_and_pure_engines_play_the_same_games() -> None:
    compiled = _run(PLAYER, _env(), json.dumps(RULE_SETS), "6")
    pure = _run(PLAYER, _env(DURAK_PURE="1"), json.dumps(RULE_SETS), "6")
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert len(compiled["hashes"]) == len(RULE_SETS) * 6
    assert compiled["hashes"] == pure["hashes"]


# Plays seeded games of the AI (its tree walk and shortlist are compiled with the engine,
# durak_core/tree.py) and prints one JSON line: every move, and the search's estimates of
# one position to the last digit.
SEARCHER = """
import json, sys
from durak_core import COMPILED, Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, play_game
out = {"compiled": COMPILED, "moves": [], "estimates": []}
for seed, players, options in json.loads(sys.argv[1]):
    rules = Rules(players=players)
    bots = [IsmctsBot(seed=seed, iterations=40, **options)]
    bots += [GreedyBot() for _ in range(players - 1)]
    moves = []
    game = play_game(Game.new(rules, seed=seed), bots,
                     on_action=lambda action, events: moves.append(str(action)))
    out["moves"].append(moves)
    game = Game.new(rules, seed=seed)
    seat = game.attacker
    bot = IsmctsBot(seed=seed, iterations=60, **options)
    bot.start(seat, rules)
    out["estimates"].append([
        [str(e.action), e.score, e.safe, e.samples]
        for e in bot.analyse(game.observation(seat))
    ])
print(json.dumps(out))
"""
SEARCHES = [
    [1, 2, {}],
    [2, 2, {"reply_width": 0, "reply_greedy": 0}],
    [3, 3, {"model": 0, "paired": 0}],
]


@needs_compiled
def test_compiled_and_pure_builds_search_alike() -> None:
    """The same seeded searches, move for move and estimate for estimate."""
    compiled = _run(SEARCHER, _env(), json.dumps(SEARCHES))
    pure = _run(SEARCHER, _env(DURAK_PURE="1"), json.dumps(SEARCHES))
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert all(len(moves) > 20 for moves in compiled["moves"])
    assert compiled["moves"] == pure["moves"]
    assert compiled["estimates"] == pure["estimates"]


def test_pure_python_is_chosen_by_durak_pure() -> None:
    pure = _run(PLAYER, _env(DURAK_PURE="1"), json.dumps(RULE_SETS), "1")
    assert pure["compiled"] is False


@needs_compiled
def test_an_edited_source_falls_back_to_pure_python_with_a_warning(tmp_path: Path) -> None:
    copy = tmp_path / "durak_core"
    shutil.copytree(REPO / "durak_core", copy, ignore=shutil.ignore_patterns("__pycache__"))
    game_py = copy / "game.py"
    game_py.write_text(game_py.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-W", "always", "-c",
         "import durak_core, durak_core.game as g; print(durak_core.COMPILED, g.__file__)"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60,
        env={**_env(), "PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "False"
    assert done.stdout.split()[1].endswith("game.py")
    assert "durak_core/game.py changed after the engine was compiled" in done.stderr
    assert "pip install -e ." in done.stderr
