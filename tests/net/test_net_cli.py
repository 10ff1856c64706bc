"""The durak-lan command line as a newcomer meets it: a default name, one-line errors.

Real processes over real UDP on loopback, each pair on a discovery port of its own.
"""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from durak_net.cli import Peer, build_parser, default_name
from durak_net.teams import ANY_TEAM

REPO = Path(__file__).resolve().parents[2]


def _free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        return int(s.getsockname()[1])


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _lan(*args: str, interruptible: bool = False) -> subprocess.Popen[str]:
    """``durak-lan ARGS``; interruptible: Ctrl-C (SIGINT) reaches its own handler even if
    this process was started with SIGINT ignored, which a child would inherit."""
    return subprocess.Popen(
        [sys.executable, "-m", "durak_net", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=_env(),
        preexec_fn=_default_sigint if interruptible else None,
    )


def test_the_name_defaults_to_this_computers_name() -> None:
    name = default_name()
    assert name == " ".join(socket.gethostname().split(".")[0].split())[:40] or "durak"
    assert build_parser().parse_args([]).name == name


def test_the_readme_headless_command_needs_no_name_and_plays() -> None:
    """`durak-lan --bot greedy --games N --auto-accept --json` (the README's command) runs
    as shown, and a peer finds it under the host name."""
    port = str(_free_udp_port())
    private = ["--port", port, "--timeout", "60"]
    shown = _lan("--bot", "greedy", "--games", "2", "--auto-accept", "--json", *private)
    peer = _lan("--name", "Peer", "--bot", "random", "--seed", "3", "--games", "2",
                "--invite", default_name(), "--json", *private)
    outputs = []
    for proc in (shown, peer):
        out, err = proc.communicate(timeout=90)
        assert proc.returncode == 0, err
        outputs.append([json.loads(line) for line in out.splitlines() if line.strip()])
    mine, theirs = outputs
    assert [r["game"] for r in mine] == [1, 2]
    assert {r["name"] for r in mine} == {default_name()} and {r["peer"] for r in theirs} == {
        default_name()
    }
    assert [r["state_hash"] for r in mine] == [r["state_hash"] for r in theirs]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "99999"], "--port must be a UDP port number from 0 to 65535, not 99999"),
        (["--port", "-1"], "--port must be a UDP port number from 0 to 65535, not -1"),
        (["--game-port", "70000"], "--game-port must be a UDP port number from 0 to 65535"),
        (["--name", "   "], "--name must have 1 to 40 characters, not 0"),
        (["--name", "x" * 41], "--name must have 1 to 40 characters, not 41"),
        (["--timeout", "0"], "--timeout must be more than 0 seconds, not 0"),
        (["--port", "abc"], "argument --port: invalid int value: 'abc'"),
        (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    ],
)
def test_a_bad_argument_is_one_line_and_exit_64(args: list[str], message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "durak_net", *args],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 64, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if not line.startswith(("usage:", " "))]
    assert lines == [lines[0]] and message in lines[0], proc.stderr


class _JoinRecorder:
    """What the prompt's ``join`` asks of its node."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, int]] = []

    def join(self, peer: str, team: int = ANY_TEAM) -> int:
        self.asked.append((peer, team))
        return 7


@pytest.mark.parametrize(("line", "asked", "said"), [
    ("join Alice", ("Alice", ANY_TEAM), ""),
    ("join Alice team 1", ("Alice", 1), "asking Alice for a seat in team 1"),
    ("join Mary Ann TEAM 2", ("Mary Ann", 2), "asking Mary Ann for a seat in team 2"),
    ("join team", ("team", ANY_TEAM), ""),
    ("join Alice team one", None, "error: team wants a number (0, 1 or 2), not 'one'"),
    ("join team 1", None, "error: join whom? (`join NAME [team K]`)"),
])
def test_the_prompt_joins_a_table_in_a_team(line: str, asked: tuple[str, int] | None,
                                            said: str) -> None:
    """``join NAME team K`` at the prompt, as ``--join NAME --team K`` on the command
    line; a bad team is one line and asks nothing."""
    peer = Peer.__new__(Peer)
    peer.args = build_parser().parse_args(["--name", "Bob"])
    peer.out, peer.err = io.StringIO(), io.StringIO()
    peer.node = _JoinRecorder()  # type: ignore[assignment]
    peer.join_sent = None
    peer.command(line)
    assert peer.node.asked == ([asked] if asked else [])
    assert peer.join_sent == (7 if asked else None)
    assert peer.out.getvalue().strip() == said


@pytest.mark.slow
def test_a_bot_whose_peer_leaves_mid_game_says_so_and_exits_1_without_a_traceback() -> None:
    """Bob's terminal is interrupted early in a match (it says goodbye): Ann's bot-driven
    peer prints that the peer left and exits 1, as documented.  The match is long (a
    game takes Bob seconds at his pace), so a loaded machine that reads Bob's output
    late still interrupts him before the match is over."""
    import queue
    import re
    import threading
    import time

    port = str(_free_udp_port())
    private = ["--port", port, "--timeout", "60", "--games", str(GAMES := 40)]
    ann = _lan("--name", "Ann", "--bot", "greedy", "--auto-accept", *private)
    # Ctrl-C as a person presses it: Bob's own handler, whatever this process inherited.
    bob = _lan("--name", "Bob", "--bot", "random", "--delay", "0.05", "--invite", "Ann",
               *private, interruptible=True)
    seen: queue.Queue[str] = queue.Queue()
    assert bob.stdout is not None
    reader = threading.Thread(target=lambda: [seen.put(x) for x in bob.stdout], daemon=True)
    reader.start()
    said: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while not any("game 1 dealt" in line for line in said):  # Bob's first deal
            said.append(seen.get(timeout=max(0.0, deadline - time.monotonic())))
        bob.send_signal(signal.SIGINT)
        ann_out, ann_err = ann.communicate(timeout=60)
        bob.wait(timeout=30)
    finally:
        for proc in (ann, bob):
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=10)
    assert bob.returncode == 130, f"Bob ended {bob.returncode}: {said}"
    assert ann.returncode == 1, ann_out + ann_err
    assert "Traceback" not in ann_err
    left = re.search(rf"the peer left after (\d+) of {GAMES} games", ann_out)
    assert left is not None and int(left.group(1)) < GAMES, ann_out
