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


def test_forfeits_go_to_the_log_and_the_terminal_gets_one_line(tmp_path, capsys):
    """A bot that crashes in every game: one terminal line naming the log, every forfeit
    with the bot's stderr in the log, and a non-zero exit since it never played a game."""
    log = tmp_path / "forfeits.log"
    code = main(
        [
            "builtin:random",
            f"py:{FIXTURES / 'misbehaving.py'}:Crasher",
            "--games",
            "4",
            "--log",
            str(log),
        ]
    )
    assert code == 1
    err = capsys.readouterr().err
    assert "out of memory (not really)" not in err  # the bot's stderr stays in the log
    first = [line for line in err.splitlines() if line.startswith("forfeit:")]
    assert len(first) == 1
    assert "crash in game" in first[0] and "exited with code 3 before answering" in first[0]
    assert str(log) in first[0]
    assert f"4 forfeits (py:{FIXTURES / 'misbehaving.py'}:Crasher 4 crash); details in {log}" in err
    assert "forfeited every one of its 4 games" in err
    text = log.read_text(encoding="utf-8")
    assert text.count("forfeit in game") == 4
    assert text.count("out of memory (not really)") == 4


def test_a_bot_that_breaks_in_some_games_only_ends_with_status_0(tmp_path, capsys):
    log = tmp_path / "arena.log"
    flaky = f"py:{FIXTURES / 'misbehaving.py'}:Flaky"
    assert main(["builtin:random", flaky, "--games", "12", "--log", str(log), "--json",
                 str(tmp_path / "r.json")]) == 0
    err = capsys.readouterr().err
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    (row,) = [b for b in data["bots"] if b["name"] == flaky]
    assert 0 < row["forfeits"] < row["games"] == 12
    assert len([line for line in err.splitlines() if line.startswith("forfeit:")]) == 1
    assert log.read_text(encoding="utf-8").count("flaky: an unlucky game") == row["forfeits"]
    # Nobody forfeits: no log file is written at all.
    quiet = tmp_path / "quiet.log"
    assert main(["builtin:random", "builtin:greedy", "--games", "2", "--log", str(quiet)]) == 0
    assert not quiet.exists()


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
        (["builtin:random", "builtin:random"], "named once"),
        (["builtin:random", "builtin:greedy", "--games", "0"], "at least 1"),
        (["builtin:random", "builtin:greedy", "--players", "3"], "need at least 3 bots"),
        (["builtin:random", "builtin:greedy", "--log", "/nonexistent/dir/x.log"], "--log"),
    ],
)
def test_bad_command_lines_fail_with_a_reason(capsys, args, message):
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("greedy", "bot 'greedy': write builtin:NAME"),
        ("builtin:nosuch", "unknown bot 'nosuch'"),
        ("builtin:ismcts?ms=-5", "ms must be positive"),
        ("builtin:ismcts?ms=abc", "option ms of bot 'ismcts' wants a number, not 'abc'"),
        ("builtin:ismcts?iterations=1.5", "option iterations of bot 'ismcts' wants a whole"),
        ("builtin:random?depth=3", "bot 'random' has no option 'depth'"),
        ("py:missing.py:Bot", "bot 'py:missing.py:Bot': no such file"),
    ],
)
def test_a_bad_bot_spec_is_one_line_naming_the_bot_and_exit_2(capsys, bot, message):
    assert main(["builtin:random", bot, "--games", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [captured.err.splitlines()[0]]
    assert captured.err.startswith("durak-arena: ") and message in captured.err


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


def test_the_results_file_goes_where_asked_and_its_path_is_printed(
    tmp_path, capsys, monkeypatch
):
    """A relative --json lands where the arena was started: the last line says where, and
    a directory that does not exist yet is made (nothing is left unannounced)."""
    monkeypatch.chdir(tmp_path)
    code = main(["builtin:random", "builtin:greedy", "--games", "2", "--quiet",
                 "--json", "runs/first.json"])
    assert code == 0
    written = tmp_path / "runs" / "first.json"
    assert json.loads(written.read_text(encoding="utf-8"))["settings"]["games_per_pairing"] == 2
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == f"durak-arena: results written to {written}"


def test_without_json_no_results_file_is_written(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["builtin:random", "builtin:greedy", "--games", "2", "--quiet"]) == 0
    assert list(tmp_path.iterdir()) == []
    assert "results written" not in capsys.readouterr().out


def test_a_results_file_written_in_the_checkout_is_ignored_by_git():
    """The README's arena command writes results.json where it runs, often the checkout."""
    import shutil
    import subprocess
    from pathlib import Path

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = Path(__file__).resolve().parents[2]
    done = subprocess.run(["git", "check-ignore", "-q", "--no-index", "results.json"],
                          cwd=repo, capture_output=True, check=False)
    if done.returncode == 128:
        pytest.skip("not a git checkout")
    assert done.returncode == 0, "results.json is not in .gitignore"


def test_the_help_names_every_built_in_bot_and_v2_plays_in_the_arena(capsys):
    """The epilog reads the registry, so a bot added there (``ismcts-v2``) is listed."""
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "random, greedy, ismcts, ismcts-v1, ismcts-v2;" in help_text
    code = main(["builtin:ismcts-v2?iterations=5", "builtin:greedy", "--games", "2", "--seed", "3"])
    assert code == 0
    assert "builtin:ismcts-v2?iterations=5" in capsys.readouterr().out
