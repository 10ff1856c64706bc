"""The durak-arena command line: tables, JSON, progress, errors."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from durak_arena.cli import Progress, main

from .conftest import FIXTURES, ROOT


def test_a_small_tournament_prints_tables_and_writes_json(tmp_path, capsys):
    out = tmp_path / "results.json"
    code = main(
        [
            "builtin:random",
            "builtin:greedy",
            f"py:{FIXTURES / 'randombot.py'}:Rb",
            "--games",
            "6",
            "--seed",
            "1",
            "--json",
            str(out),
        ]
    )
    assert code == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # stderr is not a terminal: no progress bar
    assert "builtin:greedy" in captured.out and "95% CI" in captured.out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["settings"]["games_per_pairing"] == 6
    assert {b["name"] for b in data["bots"]} == {
        "builtin:random",
        "builtin:greedy",
        f"py:{FIXTURES / 'randombot.py'}:Rb",
    }
    assert len(data["pairs"]) == 3
    for pair in data["pairs"]:
        assert set(pair) >= {"a", "b", "games", "a_wins", "b_wins", "draws", "forfeits"}
        assert pair["games"] == 6
        assert pair["a_wins"] + pair["b_wins"] + pair["draws"] == 6
    assert set(data["ratings"]) == {b["name"] for b in data["bots"]}
    for bot in data["bots"]:
        assert bot["wins"] + bot["draws"] + bot["losses"] == bot["games"] == 12
        assert data["ratings"][bot["name"]] == bot["rating"]
    assert data["forfeit_log"] == []


def test_forfeits_are_logged_on_stderr_with_the_bot_stderr(capsys):
    code = main(["builtin:random", f"py:{FIXTURES / 'misbehaving.py'}:Crasher", "--games", "2"])
    assert code == 0
    err = capsys.readouterr().err
    assert err.count("forfeit in game") == 2
    assert "crash: the bot exited with code 3" in err
    assert "out of memory (not really)" in err


def test_odd_game_counts_round_up_to_whole_duplicate_deals(capsys):
    assert main(["builtin:random", "builtin:greedy", "--games", "3", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "4 games per pairing" in captured.err


def test_table_games_of_three_rotate_the_seats(tmp_path, capsys):
    out = tmp_path / "r.json"
    bots = [
        "builtin:random",
        "builtin:greedy",
        "builtin:ismcts?iterations=5",
        "py:" + str(FIXTURES / "randombot.py") + ":Rb",
    ]
    assert main([*bots, "--players", "3", "--games", "3", "--json", str(out), "--quiet"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["settings"]["rules"]["players"] == 3
    # 4 tables of 3 bots, one deal each, played in 3 seat rotations: 12 games;
    # every bot sits at 3 tables (9 games), every pair meets at 2 tables (6 games).
    assert all(b["games"] == 9 for b in data["bots"])
    assert len(data["pairs"]) == 6 and all(p["games"] == 6 for p in data["pairs"])
    for bot in data["bots"]:
        assert bot["wins"] + bot["draws"] + bot["losses"] == 9
    # At most one seat loses a game: 12 games give at most 12 losses in all.
    assert sum(b["losses"] for b in data["bots"]) <= 12


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["builtin:random"], "at least two bots"),
        (["builtin:random", "greedy"], "write builtin:NAME"),
        (["builtin:random", "builtin:nosuch"], "unknown bot 'nosuch'"),
        (["builtin:random", "builtin:ismcts?ms=-5"], "ms must be positive"),
        (["builtin:random", "py:missing.py:Bot"], "no such file"),
        (["builtin:random", "builtin:random"], "named once"),
        (["builtin:random", "builtin:greedy", "--games", "0"], "at least 1"),
        (["builtin:random", "builtin:greedy", "--players", "3"], "need at least 3 bots"),
    ],
)
def test_bad_command_lines_fail_with_a_reason(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_progress_bar_draws_on_a_terminal_only():
    stream = io.StringIO()
    bar = Progress(4, stream, enabled=True)
    for _ in range(4):
        bar.step()
    bar.close()
    text = stream.getvalue()
    assert "\r[" in text and "4/4 games" in text and text.endswith("\n")
    quiet = io.StringIO()
    silent = Progress(4, quiet, enabled=False)
    silent.step(4)
    silent.close()
    assert quiet.getvalue() == ""


def test_python_dash_m_durak_arena_runs(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "durak_arena",
            "builtin:random",
            "builtin:greedy",
            "--games",
            "2",
            "--jobs",
            "2",
            "--seed",
            "3",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "builtin:greedy" in done.stdout
    assert done.stderr == ""
