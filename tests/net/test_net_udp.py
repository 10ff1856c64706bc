"""Real UDP on this machine: terminal peers in separate processes, and the node itself.

Test 2 of the issue: two ``durak-lan --bot random --games 3 --auto-accept --json``
processes (one with ``--invite``) find each other through the shared discovery port
and play; both must print identical hashes for every game.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from durak_core import IllegalAction
from durak_net import events as ev
from durak_net.node import LanNode

pytestmark = pytest.mark.waits

REPO = Path(__file__).resolve().parents[2]


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        return int(s.getsockname()[1])


def peer_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "durak_net", *args]


def peer_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def run_pair(a_args: list[str], b_args: list[str], timeout: float = 60.0):
    """Start two terminal peers, wait for both; returns [(returncode, json lines, stderr)]."""
    procs = [
        subprocess.Popen(
            peer_cmd(*args),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=peer_env(),
        )
        for args in (a_args, b_args)
    ]
    results = []
    for proc in procs:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            raise
        lines = [json.loads(line) for line in out.splitlines() if line.strip()]
        results.append((proc.returncode, lines, err))
    return results


def assert_same_games(results, games: int) -> None:
    (rc_a, a, err_a), (rc_b, b, err_b) = results
    assert rc_a == 0 and rc_b == 0, (err_a, err_b)
    assert [r["game"] for r in a] == [r["game"] for r in b] == list(range(1, games + 1))
    for x, y in zip(a, b, strict=True):
        assert x["event"] == y["event"] == "game_over"
        assert (x["state_hash"], x["log_hash"], x["session"], x["durak"]) == (
            y["state_hash"],
            y["log_hash"],
            y["session"],
            y["durak"],
        )
        assert x["public_hash"] == y["public_hash"]
        # Hidden hands: every game was audited from both seeds, the same way on both sides.
        assert x["audit"] == y["audit"] == "fair"
        assert {x["seat"], y["seat"]} == {0, 1}
    # Each side said so, with the same pairing words.
    words = [re.search(r"pairing words: (\w+ \w+ \w+ \w+)", err) for err in (err_a, err_b)]
    assert words[0] and words[1] and words[0].group(1) == words[1].group(1)
    assert "hidden hands · verified" in err_a and "hidden hands · verified" in err_b


def test_two_terminal_peers_discover_each_other_and_play_three_games() -> None:
    port = str(free_udp_port())
    common = ["--bot", "random", "--games", "3", "--auto-accept", "--json", "--port", port,
              "--timeout", "45"]
    results = run_pair(
        ["--name", "Ann", "--seed", "1", *common],
        ["--name", "Ben", "--invite", "Ann", "--seed", "2", *common],
    )
    assert_same_games(results, 3)
    assert results[0][1][0]["peer"] == "Ben" and results[1][1][0]["peer"] == "Ann"


def test_connect_plays_without_any_broadcast() -> None:
    game_port = free_udp_port()
    common = ["--bot", "random", "--games", "1", "--json", "--port", "0", "--timeout", "45"]
    results = run_pair(
        ["--name", "Ann", "--auto-accept", "--game-port", str(game_port), *common],
        ["--name", "Ben", "--invite", "Ann", "--connect", f"127.0.0.1:{game_port}", *common],
    )
    assert_same_games(results, 1)


def test_bad_arguments_exit_64_with_the_reason() -> None:
    for args, reason in [
        (["--name", "X", "--loss", "1.5"], "--loss"),
        (["--name", "X", "--connect", "nowhere"], "HOST:PORT"),
        (["--name", "X", "--rules", "variant=chess"], "variant"),
        (["--name", "X", "--bot", "nonsense"], "unknown bot"),
    ]:
        proc = subprocess.run(
            peer_cmd(*args), capture_output=True, text=True, env=peer_env(), timeout=30
        )
        assert proc.returncode == 64 and reason in proc.stderr, proc.stderr


def _wait(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def test_three_nodes_on_one_machine_share_the_discovery_port_and_all_hear_each_other() -> None:
    port = free_udp_port()
    nodes = [LanNode(name, port=port) for name in ("Ann", "Ben", "Cat")]
    try:
        assert len({n.game_port for n in nodes}) == 3
        assert _wait(lambda: all(len(n.peers()) == 2 for n in nodes)), [n.peers() for n in nodes]
        # Each node's own broadcasts come back to it and are dropped as its own; whether
        # the echo of one was counted before the others' were heard is a race: wait for it.
        assert _wait(lambda: all(n.drop_counts()["own"] > 0 for n in nodes)), [
            n.drop_counts() for n in nodes]
    finally:
        for n in nodes:
            n.close()


def test_two_peers_announcing_one_name_cannot_be_invited_by_that_name() -> None:
    """A spoofed announcement must not capture an invitation by name."""
    port = free_udp_port()
    nodes = [LanNode(name, port=port) for name in ("Cat", "Ann", "Ann")]
    try:
        cat = nodes[0]
        assert _wait(lambda: len(cat.peers()) == 2)
        assert all(p.same_name for p in cat.peers())
        with pytest.raises(ValueError, match="2 players announce the name 'Ann'"):
            cat.invite("Ann")
        one = cat.peers()[0]
        invite = cat.invite(f"{one.addr[0]}:{one.addr[1]}")  # by address, it works
        assert invite
    finally:
        for n in nodes:
            n.close()


def test_garbage_is_dropped_and_counted_and_close_frees_the_sockets() -> None:
    port = free_udp_port()
    node = LanNode("Ann", port=port)
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
            for data in (b"", b"x" * 2000, b"DK\x01S" + bytes(40), b"DK\x01D\xff\xff"):
                s.sendto(data, ("127.0.0.1", node.game_port))
            s.sendto(b"DK\x01S" + bytes(40), ("127.255.255.255", port))
        assert _wait(lambda: sum(node.drop_counts().values()) >= 5), node.drop_counts()
        assert node.alive and not node.handler_errors
    finally:
        node.close()
    assert not node.alive
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", node.game_port))  # the port is free again


def test_a_game_between_two_nodes_in_one_process_with_loss() -> None:
    from durak_core.bots import RandomBot
    from durak_net.botplay import BotDriver

    port = free_udp_port()
    ann = LanNode("Ann", port=port, loss=0.2, loss_seed=1)
    ben = LanNode("Ben", port=port, loss=0.2, loss_seed=2)
    finished: dict[str, list[ev.GameFinished]] = {"Ann": [], "Ben": []}
    drivers = {"Ann": BotDriver(RandomBot(1)), "Ben": BotDriver(RandomBot(2))}
    try:
        assert _wait(lambda: ben.find_peer("Ann") is not None)
        ben.invite("Ann")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(finished.values()):
            for node in (ann, ben):
                while not node.events.empty():
                    event = node.events.get()
                    if isinstance(event, ev.InviteReceived):
                        node.accept(event.invite)
                    elif isinstance(event, ev.GameFinished):
                        finished[node.name].append(event)
                    assert not isinstance(event, (ev.DesyncDetected, ev.ProtocolViolation))
                for sid in list(node.sessions):
                    action = drivers[node.name].choose(node.view(sid))
                    if action is not None:
                        node.act(sid, action)
            time.sleep(0.001)
        (a,), (b,) = finished["Ann"], finished["Ben"]
        assert (a.state_hash, a.log_hash) == (b.state_hash, b.log_hash)
        assert ann.sender.stats["dropped_on_purpose"] > 0
    finally:
        ann.close(leave=True)
        ben.close(leave=True)


def test_a_host_seats_bots_of_its_own_and_a_node_that_joins(tmp_path: Path) -> None:
    from durak_core import Rules
    from durak_core.bots import RandomBot
    from durak_net.botplay import BotDriver

    host = LanNode("Host", port=0, broadcast=[], host="127.0.0.1", journal_dir=tmp_path)
    joe = LanNode("Joe", port=0, broadcast=[], host="127.0.0.1",
                  connect=[f"127.0.0.1:{host.game_port}"])
    try:
        table = host.host_table(Rules(players=4), clock=0, grace=30)
        assert host.add_bot(table, "random") == 1
        assert host.add_bot(table, "greedy", seat=3) == 3
        with pytest.raises(ValueError, match="seat 3 is not free"):
            host.add_bot(table, "random", seat=3)
        assert _wait(lambda: (p := joe.find_peer("Host")) is not None and p.open_seats == 1)
        info = joe.find_peer("Host")
        assert info is not None and info.table is not None
        assert info.table["seats"] == ("Host", "random bot", "", "greedy bot")
        assert joe.join("Host") == table
        assert _wait(lambda: "open" not in (host.view(table).kinds))
        assert _wait(lambda: bool(joe.view(table) and joe.view(table).table_words))
        # Joe has the words once the host's seating reached it, which can be before
        # Joe's hello reached the host: the host deals once it has every key too.
        assert _wait(lambda: bool(host.view(table).table_words))
        host.start_table(table)
        drivers = {host: BotDriver(RandomBot(1)), joe: BotDriver(RandomBot(2))}
        audited: dict[str, ev.GameAudited] = {}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(audited) < 2:
            for node, driver in drivers.items():
                while not node.events.empty():
                    event = node.events.get()
                    assert not isinstance(event, (ev.DesyncDetected, ev.ProtocolViolation))
                    if isinstance(event, ev.GameAudited):
                        audited[node.name] = event
                action = driver.choose(node.view(table))
                if action is not None:
                    with contextlib.suppress(IllegalAction):
                        node.act(table, action)
            time.sleep(0.001)
        assert audited["Host"].fair and audited["Joe"].fair
        assert audited["Host"].state_hash == audited["Joe"].state_hash
        view = joe.view(table)
        assert view.names == ("Host", "random bot", "Joe", "greedy bot")
        assert view.kinds == ("host", "bot", "player", "bot")
        assert view.table_words == host.view(table).table_words
        # Each bot seat keeps its own journal beside the host's.
        names = sorted(p.name for p in tmp_path.iterdir())
        assert names == [f"{table:x}-seat{s}.jsonl" for s in (0, 1, 3)]
        assert not host.handler_errors and not joe.handler_errors
    finally:
        host.close(leave=True)
        joe.close(leave=True)


def test_a_host_announces_its_table_with_its_bots_already_seated() -> None:
    """The bots a host seats with its table (``--add-bot``, the lobby's bots) are in
    the seats of the table's first announcement: a player who asks at once cannot
    take the seat a bot was meant for.  A bad bot spec hosts no table."""
    from durak_core import Rules
    from durak_net.wire import Announce, decode_discovery

    port = free_udp_port()
    sniffer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sniffer.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sniffer.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sniffer.bind(("", port))
    sniffer.settimeout(10)
    host = LanNode("Host", port=port, broadcast=["127.255.255.255"])
    try:
        with pytest.raises(ValueError, match="unknown bot 'nobot'"):
            host.host_table(Rules(players=3), bots=["greedy", "nobot"])
        assert not host.sessions
        with pytest.raises(ValueError, match="3 bots do not fit the 2 free seats"):
            host.host_table(Rules(players=3), bots=["greedy"] * 3)
        table = host.host_table(Rules(players=4), bots=["greedy", "random"])
        while True:
            message = decode_discovery(sniffer.recv(2048))
            if isinstance(message, Announce) and message.table is not None:
                break
        assert message.table.table == table
        assert message.table.seats == ["Host", "greedy bot", "random bot", ""]
    finally:
        host.close(leave=True)
        sniffer.close()


def test_a_host_node_hands_a_vanished_player_to_its_stand_in_bot() -> None:
    """Real UDP: Joe's node dies mid-game (no goodbye); after the grace period the
    host's stand-in bot plays Joe's open hand to the end, and the audit is fair."""
    from durak_core import Rules
    from durak_core.bots import RandomBot
    from durak_net.botplay import BotDriver
    from durak_net.session import SessionConfig

    config = SessionConfig(lost_after=1.0)
    host = LanNode("Host", port=0, broadcast=[], host="127.0.0.1", session_config=config)
    joe = LanNode("Joe", port=0, broadcast=[], host="127.0.0.1", session_config=config,
                  connect=[f"127.0.0.1:{host.game_port}"])
    try:
        table = host.host_table(Rules(players=3, deck_size=24), grace=1)
        host.add_bot(table, "random")
        assert _wait(lambda: (p := joe.find_peer("Host")) is not None and p.open_seats == 1)
        joe.join("Host")
        assert _wait(lambda: "open" not in host.view(table).kinds and bool(
            host.view(table).table_words))
        host.start_table(table)
        drivers = {host: BotDriver(RandomBot(1)), joe: BotDriver(RandomBot(2))}
        audited: list[ev.GameAudited] = []
        states: list[str] = []
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and not audited:
            for node, driver in list(drivers.items()):
                while not node.events.empty():
                    event = node.events.get()
                    assert not isinstance(event, (ev.DesyncDetected, ev.ProtocolViolation))
                    if isinstance(event, ev.GameAudited) and node is host:
                        audited.append(event)
                    if isinstance(event, ev.SeatStatus) and node is host:
                        states.append(event.state)
                action = driver.choose(node.view(table))
                if action is not None:
                    with contextlib.suppress(IllegalAction):
                        node.act(table, action)
            view = host.view(table)
            if joe in drivers and view is not None and view.game is not None and len(
                    view.game.log) >= 4:
                joe.close(leave=False)  # the kernel dies: no goodbye
                del drivers[joe]
            time.sleep(0.002)
        assert audited and audited[0].fair, audited
        assert "bot" in states
        assert any(e for e in host.sessions[table].log if e.forced == "bot")
        assert not host.handler_errors
    finally:
        host.close(leave=True)
        joe.close()


def test_players_who_ask_for_a_team_sit_opposite_their_partner() -> None:
    from durak_core import Rules

    host = LanNode("Host", port=0, broadcast=[], host="127.0.0.1")
    guests = [LanNode(name, port=0, broadcast=[], host="127.0.0.1",
                      connect=[f"127.0.0.1:{host.game_port}"]) for name in ("Ann", "Ben", "Cy")]
    try:
        rules = Rules(players=4, teams=True)
        table = host.host_table(rules)
        for guest in guests:
            assert _wait(lambda g=guest: (p := g.find_peer("Host")) is not None
                         and p.table is not None)
        with pytest.raises(ValueError, match="has teams 0 and 1, not 2"):
            guests[0].join("Host", team=2)  # refused before asking: the rules are announced
        guests[0].join("Host", team=1)
        assert _wait(lambda: host.view(table).names[1] == "Ann")
        guests[1].join("Host", team=1)
        assert _wait(lambda: host.view(table).names[3] == "Ben")
        assert rules.team_of(1) == rules.team_of(3) == 1
        guests[2].join("Host", team=1)  # the team is full
        closed = None
        deadline = time.monotonic() + 10
        while closed is None and time.monotonic() < deadline:
            with contextlib.suppress(Exception):
                event = guests[2].events.get(timeout=0.1)
                if isinstance(event, ev.InviteClosed):
                    closed = event
        assert closed is not None and closed.reason == "no free seat in that team"
        assert host.view(table).kinds == ("host", "player", "open", "player")
    finally:
        for node in (host, *guests):
            node.close(leave=True)


@pytest.mark.parametrize("leave", [True, False])
def test_close_is_idempotent_and_stops_the_thread(leave: bool) -> None:
    node = LanNode("Ann", port=0, broadcast=[])
    node.close(leave=leave)
    node.close(leave=leave)
    assert not node.alive


def test_a_killed_peer_resumes_its_game_from_the_journal(tmp_path: Path) -> None:
    """A kernel that dies mid-game (SIGKILL: no goodbye, no flush beyond the journal's)
    comes back with ``--resume`` on a new port and the game finishes identically."""
    port = str(free_udp_port())
    journal = tmp_path / "journal"
    common = [
        "--bot",
        "random",
        "--games",
        "1",
        "--json",
        "--port",
        port,
        "--timeout",
        "60",
        "--delay",
        "0.05",
    ]
    ann_args = ["--name", "Ann", "--auto-accept", "--seed", "1", "--journal", str(journal), *common]
    ben = subprocess.Popen(
        peer_cmd("--name", "Ben", "--invite", "Ann", "--seed", "2", *common),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=peer_env(),
    )
    ann = subprocess.Popen(
        peer_cmd(*ann_args),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=peer_env(),
    )
    try:
        assert ann.stderr is not None
        for line in ann.stderr:  # wait until the game is under way
            if "dealt" in line:
                break
        # Kill it once a few moves are journaled: a condition, not a fixed sleep, which
        # on a loaded machine could outlast the whole game (then nothing is left to resume).
        deadline = time.monotonic() + 30
        entries_before = 0
        while entries_before < 3 and time.monotonic() < deadline:
            logs = list(journal.glob("*.jsonl"))
            entries_before = logs[0].read_text().count('"t":"entry"') if len(logs) == 1 else 0
            time.sleep(0.005)
        ann.kill()
        ann.wait(timeout=10)
        (log_file,) = journal.glob("*.jsonl")
        entries_before = log_file.read_text().count('"t":"entry"')
        assert entries_before > 0
        again = subprocess.run(
            peer_cmd(*ann_args, "--resume"),
            capture_output=True,
            text=True,
            env=peer_env(),
            timeout=90,
        )
        ben_out, ben_err = ben.communicate(timeout=90)
    finally:
        for proc in (ann, ben):
            if proc.poll() is None:
                proc.kill()
    assert 'resuming the game with "Ben"' in again.stderr, again.stderr
    results = [
        (again.returncode, [json.loads(x) for x in again.stdout.splitlines() if x], again.stderr),
        (ben.returncode, [json.loads(x) for x in ben_out.splitlines() if x], ben_err),
    ]
    assert_same_games(results, 1)
    assert results[0][1][0]["actions"] > entries_before


def test_a_person_at_the_terminal_plays_a_bot_by_typing(tmp_path: Path) -> None:
    """The interactive terminal peer: the lobby, `accept`, the text table (own hand only),
    moves typed as text (`take`) or by number from the listed moves."""
    import threading

    port = str(free_udp_port())
    person = subprocess.Popen(peer_cmd("--name", "Hum", "--port", port, "--timeout", "60"),
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=peer_env(), bufsize=1)
    bot = subprocess.Popen(peer_cmd("--name", "Bot", "--invite", "Hum", "--bot", "random",
                                    "--seed", "5", "--json", "--port", port, "--timeout", "60"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           env=peer_env())
    seen: list[str] = []
    typed: list[str] = []

    def type_line(text: str) -> None:
        assert person.stdin is not None
        typed.append(text)
        person.stdin.write(text + "\n")
        person.stdin.flush()

    def converse() -> None:
        assert person.stdout is not None
        for line in person.stdout:
            seen.append(line.rstrip("\n"))
            if "invites you" in line:
                type_line("accept")
            elif line.startswith("moves:"):
                type_line("take" if "] take" in line and "take" not in typed else "1")
            elif "game 1 over" in line:
                type_line("quit")

    talker = threading.Thread(target=converse, daemon=True)
    talker.start()
    try:
        bot_out, bot_err = bot.communicate(timeout=90)
        person.wait(timeout=30)
    finally:
        for proc in (person, bot):
            if proc.poll() is None:
                proc.kill()
    talker.join(timeout=5)
    text = "\n".join(seen)
    assert bot.returncode == 0, bot_err
    assert "invites you" in text and "trump" in text and "you:" in text
    assert "take" in typed and any(line.startswith("you: take") for line in seen)
    assert "game 1 over" in text
    (result,) = [json.loads(x) for x in bot_out.splitlines() if x]
    assert f"({result['actions']} actions)" in text  # both sides count the same log
    # The text table never shows the opponent's hand: only counts (and shown cards).
    assert re.search(r"\"Bot\": \d+ cards", text)


def test_a_host_and_three_terminal_peers_play_at_one_table() -> None:
    """Four processes on this machine: a host with a bot of its own at seat 1 and three
    peers that join (five seats), discovery by the shared port, two games."""
    port = str(free_udp_port())
    common = ["--games", "2", "--json", "--port", port, "--timeout", "90"]
    commands = [["--name", "Host", "--host", "5", "--add-bot", "greedy", "--bot", "random",
                 "--seed", "1", *common]]
    commands += [["--name", f"P{i}", "--join", "Host", "--bot", "random", "--seed", str(i + 1),
                  *common] for i in (1, 2, 3)]
    procs = [subprocess.Popen(peer_cmd(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=peer_env()) for args in commands]
    results = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=120)
            lines = [json.loads(line) for line in out.splitlines() if line.strip()]
            results.append((proc.returncode, lines, err))
    finally:
        for proc in procs:
            proc.kill()
    for rc, lines, err in results:
        assert rc == 0, err[-2000:]
        assert [r["game"] for r in lines] == [1, 2], err[-2000:]
        assert all(r["audit"] == "fair" for r in lines)
    host = results[0][1]
    seats = host[0]["seats"]
    assert seats[0] == "Host" and seats[1] == "greedy bot" and sorted(seats[2:]) == [
        "P1", "P2", "P3"]
    for _, lines, _ in results[1:]:
        for mine, theirs in zip(lines, host, strict=True):
            assert (mine["table"], mine["state_hash"], mine["log_hash"], mine["durak"]) == (
                theirs["table"], theirs["state_hash"], theirs["log_hash"], theirs["durak"])
            assert mine["seats"] == seats
    assert sorted(r[1][0]["seat"] for r in results) == [0, 2, 3, 4]
    # Every screen showed the same table words.
    words = {re.findall(r"table words: (\w+ \w+ \w+ \w+)", err)[-1] for _, _, err in results}
    assert len(words) == 1
