"""Every bot is checked before a tournament: one line naming the bot and why, exit 2.

Each broken bot here is what a person writes by accident: a syntax error, a class name
that does not match, a class without ``choose``, a program that is not installed, one
that never answers, one that quits.  The tournament must not begin, and nothing but
one line per bad bot may reach the terminal.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from durak_arena.check import check_bot
from durak_arena.cli import main
from durak_arena.referee import BotSpec, ProcessSeat, referee_game

from .conftest import FIXTURES

GOOD = """
from durak_core.bots import Bot

class MyBot(Bot):
    def __init__(self, seed=None, depth: int = 1):
        self.depth = depth

    def choose(self, observation, legal):
        return legal[0]
"""

BROKEN = {
    "syntax.py": ("class MyBot(Bot)\n    pass\n", "cannot import syntax.py: expected ':' (line 1)"),
    "raises.py": (
        "import json\n\nCONFIG = json.loads('{')\n",
        "cannot import raises.py: JSONDecodeError: Expecting property name",
    ),
    "noclass.py": (GOOD.replace("class MyBot", "class Other"), "noclass.py has no 'MyBot'"),
    "nochoose.py": (
        "from durak_core.bots import Bot\n\nclass MyBot(Bot):\n    name = 'lazy'\n",
        "MyBot in nochoose.py has no choose(observation, legal) method",
    ),
    "plain.py": ("class MyBot:\n    pass\n", "MyBot in plain.py has no choose(observation, legal)"),
    "notaclass.py": ("MyBot = 42\n", "MyBot in notaclass.py is not a Bot class"),
    "ctor.py": (
        GOOD.replace("self.depth = depth", "raise RuntimeError('no model file')"),
        "MyBot: making the bot failed: RuntimeError: no model file",
    ),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_py_bot_that_cannot_load_is_refused_before_the_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    source, reason = BROKEN[name]
    (tmp_path / name).write_text(textwrap.dedent(source), encoding="utf-8")
    spec = f"py:{tmp_path / name}:MyBot"
    log = tmp_path / "arena.log"
    assert main(["builtin:random", spec, "--games", "2", "--log", str(log)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no tables: no tournament
    (line,) = captured.err.splitlines()
    assert line.startswith(f"durak-arena: bot {spec!r} cannot play: {reason}"), line
    assert not log.exists()


def test_a_py_bot_option_of_the_wrong_type_names_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "good.py").write_text(GOOD, encoding="utf-8")
    spec = f"py:{tmp_path / 'good.py'}:MyBot?depth=deep"
    assert main(["builtin:random", spec, "--games", "2"]) == 2
    assert capsys.readouterr().err == (
        f"durak-arena: bot {spec!r} cannot play: "
        "option depth of bot 'MyBot' wants a whole number, not 'deep'\n"
    )


def test_every_bad_bot_gets_its_own_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    for name in ("syntax.py", "plain.py"):
        (tmp_path / name).write_text(BROKEN[name][0], encoding="utf-8")
    bots = [f"py:{tmp_path / 'syntax.py'}:MyBot", f"py:{tmp_path / 'plain.py'}:MyBot"]
    assert main(["builtin:random", *bots, "cmd:/nonexistent/durak-bot"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" cannot play: ")[0] for line in lines] == [
        f"durak-arena: bot {bots[0]!r}",
        f"durak-arena: bot {bots[1]!r}",
        "durak-arena: bot 'cmd:/nonexistent/durak-bot'",
    ]
    assert "cannot start '/nonexistent/durak-bot'" in lines[2]


def test_a_cmd_bot_that_quits_at_once_exited_before_answering(capsys) -> None:
    bot = f"cmd:{sys.executable} -c pass"
    assert main(["builtin:random", bot]) == 2
    assert capsys.readouterr().err == (
        f"durak-arena: bot {bot!r} cannot play: the bot exited before answering "
        "(exit status 0)\n"
    )


def test_a_cmd_bot_that_says_why_it_quit_is_quoted(capsys) -> None:
    bot = f"cmd:{sys.executable} -c \"import sys; sys.exit('needs a GPU')\""
    assert main(["builtin:random", bot]) == 2
    assert capsys.readouterr().err == (
        f"durak-arena: bot {bot!r} cannot play: the bot exited with code 1 before answering; "
        "its last words on stderr: needs a GPU\n"
    )


def test_a_cmd_bot_that_never_answers_hello_fails_its_check_in_time() -> None:
    spec = BotSpec.parse(f"cmd:{sys.executable} -c \"import time; time.sleep(60)\"")
    assert check_bot(spec, hello_time=0.3) == "no reply within 0.3 s"


def test_a_cmd_bot_that_answers_hello_wrongly_fails_its_check() -> None:
    prose = BotSpec.parse(f"cmd:{sys.executable} -c \"input(); print('hello there')\"")
    assert check_bot(prose) == "not a JSON line: b'hello there'"
    other = BotSpec.parse(f"cmd:{sys.executable} {FIXTURES / 'old_version.py'}")
    assert check_bot(other) == "bot speaks protocol version 99, not 1"


def test_good_bots_pass_their_check() -> None:
    for text in ("builtin:greedy", f"py:{FIXTURES / 'randombot.py'}:Rb"):
        assert check_bot(BotSpec.parse(text)) is None


def test_a_cmd_bot_exiting_0_mid_game_exited_before_answering(tmp_path: Path) -> None:
    """It answers hello, then quits with status 0 at its first decision: the forfeit says
    it exited before answering, not just "exited with code 0", which reads as success."""
    quitter = tmp_path / "quitter.py"
    quitter.write_text(
        textwrap.dedent(
            """
            import json, sys
            for line in sys.stdin:
                message = json.loads(line)
                if message["type"] == "hello":
                    print(json.dumps({"type": "hello", "protocol": "durak-bot", "version": 1}),
                          flush=True)
                elif message["type"] == "act":
                    sys.exit(0)
            """
        ),
        encoding="utf-8",
    )
    from durak_arena.referee import InProcessSeat
    from durak_core import Rules

    seat = ProcessSeat(BotSpec.parse(f"cmd:{sys.executable} {quitter}"))
    try:
        record = referee_game(
            Rules(), 0, 1, [seat, InProcessSeat(BotSpec.parse("builtin:random"))], [1, 2],
            10.0, "g",
        )
    finally:
        seat.close()
    assert record.forfeit is not None and record.forfeit["kind"] == "crash"
    assert record.forfeit["reason"] == "the bot exited before answering (exit status 0)"
