"""``durak-lan --online``: two terminal peers that meet over a WebRTC data channel
(aiortc) through the codes people copy, and play the LAN's protocol over it.

The whole-game test puts each peer in a network namespace of its own, the two joined by
a veth pair (aioice leaves 127.0.0.1 out of its candidates, so two peers on loopback
would find no route); the test is the chat that carries the codes.  The other tests
need no network: a code that cannot be used ends the program before any connection.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from durak_net import cli, online_code
from durak_net.online_terminal import EXIT_BAD_CODE, EXIT_NO_ROUTE

from .test_net_udp import peer_cmd, peer_env

SUBNET = "10.78.0"


def _ip(*args: str) -> None:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if proc.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {proc.stderr.strip()}")


@contextlib.contextmanager
def veth_pair() -> Iterator[tuple[str, str]]:
    """Two namespaces, at 10.78.0.1 and 10.78.0.2, joined by one veth pair (nothing
    added to the machine's own network); deleted on the way out."""
    tag = f"{os.getpid() % 1000:03d}{random.randrange(100):02d}"
    hosts = (f"dkoA{tag}", f"dkoB{tag}")
    created: list[str] = []
    try:
        for ns in hosts:
            _ip("netns", "add", ns)
            created.append(ns)
        _ip("-n", hosts[0], "link", "add", "veth0", "type", "veth", "peer", "name", "veth1",
            "netns", hosts[1])
        for i, (ns, end) in enumerate(zip(hosts, ("veth0", "veth1"), strict=True)):
            _ip("-n", ns, "addr", "add", f"{SUBNET}.{i + 1}/24", "dev", end)
            _ip("-n", ns, "link", "set", end, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        yield hosts
    finally:
        for ns in reversed(created):
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


def _lines(stream: IO[str]) -> queue.Queue[str | None]:
    """The lines of ``stream`` as they come (None at its end), read on a thread."""
    box: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        for line in stream:
            box.put(line)
        box.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return box


def _code(box: queue.Queue[str | None], event: str, timeout: float = 60.0) -> str:
    line = box.get(timeout=timeout)
    assert line is not None, f"no {event} code was printed"
    record = json.loads(line)
    assert record["event"] == event, record
    return str(record["code"])


Run = tuple[int, list[dict[str, object]], str]


def play_online(hosts: list[str], inviter: list[str], friends: list[list[str]],
                timeout: float = 150.0) -> tuple[list[Run], list[str], list[str]]:
    """The inviter in ``hosts[0]``, each friend in the next host: the test carries each
    invitation code the inviter prints to a friend's ``--code`` and the friend's reply
    back to the inviter's stdin, one seat after the other.  Returns each peer's
    (status, JSON lines after the codes, stderr), and the invitation and reply codes."""
    procs: list[subprocess.Popen[str]] = []

    def start(ns: str, args: list[str], stdin: int) -> tuple[subprocess.Popen[str],
                                                              queue.Queue[str | None]]:
        proc = subprocess.Popen(["ip", "netns", "exec", ns, *peer_cmd(*args)], stdin=stdin,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=peer_env())
        procs.append(proc)
        assert proc.stdout is not None
        return proc, _lines(proc.stdout)

    invitations, replies = [], []
    try:
        host, host_out = start(hosts[0], inviter, subprocess.PIPE)
        outs = [host_out]
        assert host.stdin is not None
        for ns, args in zip(hosts[1:], friends, strict=True):
            invitations.append(_code(host_out, "invitation"))
            _, out = start(ns, [*args, "--code", invitations[-1]], subprocess.DEVNULL)
            outs.append(out)
            replies.append(_code(out, "reply"))
            host.stdin.write(f"{replies[-1]}\n")
            host.stdin.flush()
        host.stdin.close()
        errs = [_lines(proc.stderr) for proc in procs if proc.stderr is not None]
        results: list[Run] = []
        for proc, out, err_lines in zip(procs, outs, errs, strict=True):
            proc.wait(timeout=timeout)
            lines, err = [], ""
            while (line := out.get(timeout=10)) is not None:
                lines.append(json.loads(line))
            while (text := err_lines.get(timeout=10)) is not None:
                err += text
            results.append((proc.returncode or 0, lines, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results, invitations, replies


def _same_games(results: list[Run], games: int) -> None:
    """Every peer ends 0 with ``games`` fair audits, the same games on every screen."""
    for rc, lines, err in results:
        assert rc == 0, err[-3000:]
        assert [r["game"] for r in lines] == list(range(1, games + 1)), err[-3000:]
        assert all(r["event"] == "game_over" and r["audit"] == "fair" for r in lines), lines
        assert "connected (" in err and "rtc:1" in err, err[-3000:]
    first = results[0][1]
    for _, lines, _ in results[1:]:
        for mine, theirs in zip(lines, first, strict=True):
            assert (mine["table"], mine["state_hash"], mine["log_hash"], mine["public_hash"],
                    mine["durak"], mine["seats"]) == (
                theirs["table"], theirs["state_hash"], theirs["log_hash"],
                theirs["public_hash"], theirs["durak"], theirs["seats"])


@pytest.mark.netns
@pytest.mark.slow
def test_two_terminals_in_two_namespaces_play_over_a_data_channel_through_pasted_codes(
) -> None:
    """Ann invites (a code on her stdout), Ben answers it (--code; a reply on his), the
    test carries the reply back to Ann's stdin; the channel crosses the veth pair and
    two games are played through 20% loss each way to fair audits, the same on both
    screens."""
    common = ["--online", "--bot", "random", "--games", "2", "--json", "--loss", "0.2",
              "--timeout", "120"]
    with veth_pair() as hosts:
        results, (invitation,), (reply,) = play_online(
            list(hosts), ["--name", "Ann", "--seed", "1", *common],
            [["--name", "Ben", "--seed", "2", *common]])
    _same_games(results, 2)
    (_, a_lines, a_err), (_, b_lines, b_err) = results
    assert [(r["name"], r["peer"]) for r in a_lines + b_lines] == [("Ann", "Ben")] * 2 + [
        ("Ben", "Ann")] * 2
    # Only the veth's addresses are candidates (no loopback, no other network): the
    # datagrams crossed the pair.
    offer, _ = online_code.read_code(invitation, now=time.time())
    answer, _ = online_code.read_code(reply, now=time.time())
    assert (offer.kind, offer.setup, answer.kind, answer.setup) == (
        "offer", "actpass", "answer", "active")
    assert [(c.address, c.type) for c in offer.candidates] == [(f"{SUBNET}.1", "host")]
    assert [(c.address, c.type) for c in answer.candidates] == [(f"{SUBNET}.2", "host")]
    # Both screens show the same pairing words, as on the LAN.
    words = [err.split("pairing words: ")[1].split(" (")[0] for err in (a_err, b_err)]
    assert words[0] == words[1] and len(words[0].split()) == 4


@pytest.mark.netns
@pytest.mark.slow
def test_a_host_seats_two_friends_by_two_codes_and_a_table_of_three_plays_fair() -> None:
    """--online --host 3 prints one invitation per open seat, each after the last reply;
    each friend's terminal joins the table it sees at the end of its channel."""
    from .test_net_netns import bridged_hosts

    common = ["--online", "--bot", "random", "--json", "--timeout", "120"]
    with bridged_hosts(3) as hosts:
        results, invitations, replies = play_online(
            hosts, ["--name", "Hana", "--host", "3", "--seed", "1", *common],
            [["--name", "Ivo", "--seed", "2", *common], ["--name", "Jo", "--seed", "3",
                                                          *common]])
    _same_games(results, 1)
    assert len(set(invitations)) == 2 and len(set(replies)) == 2
    assert sorted(lines[0]["seat"] for _, lines, _ in results) == [0, 1, 2]
    host_err = results[0][2]
    assert re.search(r'"Ivo" \(rtc:1\) takes a seat at the table', host_err), host_err[-3000:]
    assert re.search(r'"Jo" \(rtc:2\) takes a seat at the table', host_err), host_err[-3000:]
    words = {err.split("table words: ")[1].split(" (")[0] for _, _, err in results}
    assert len(words) == 1


MOSQUITTO = shutil.which("mosquitto") or ("/usr/sbin/mosquitto"
                                          if os.path.exists("/usr/sbin/mosquitto") else None)


@contextlib.contextmanager
def broker(ns: str | None, host: str, folder: Path,
           ports: tuple[int, int] = (18830, 18831)) -> Iterator[str]:
    """Debian's mosquitto in namespace ``ns`` (None: this machine's): a plain MQTT
    listener and a WebSocket one beside it on ``host`` (IPv4 only, as ``socket_domain``
    makes it), on ``ports``; yields the WebSocket URL once the broker says it is running,
    and stops it on the way out."""
    conf = folder / "mosquitto.conf"
    plain, websockets = ports
    conf.write_text("\n".join([
        "per_listener_settings false", "allow_anonymous true", "persistence false",
        "log_dest stderr", f"listener {plain} {host}", f"listener {websockets} {host}",
        "protocol websockets", "socket_domain ipv4", ""]))
    assert MOSQUITTO is not None
    inside = ["ip", "netns", "exec", ns] if ns is not None else []
    proc = subprocess.Popen([*inside, MOSQUITTO, "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        log = _lines(proc.stderr)
        seen = ""
        while " running" not in seen:
            line = log.get(timeout=20)
            assert line is not None, f"mosquitto ended: {seen}"
            seen += line
        assert f"Opening websockets listen socket on port {websockets}" in seen, seen
        yield f"ws://{host}:{websockets}/"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.netns
@pytest.mark.slow
def test_two_terminals_meet_in_a_room_of_a_local_mosquitto_and_play_fair(
        tmp_path: Path) -> None:
    """--online --relay: Ann names a room on a mosquitto over WebSocket (in her
    namespace), Ben comes to it with --room; the codes go through the broker, and the
    game over the channel ends fair on both screens.  The room is cleared after."""
    if MOSQUITTO is None:
        pytest.skip("needs Debian's mosquitto (apt-get install mosquitto; .ci/run does)")
    common = ["--online", "--bot", "random", "--json", "--timeout", "120"]

    def start(ns: str, *args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(["ip", "netns", "exec", ns, *peer_cmd(*args)],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=peer_env())

    with veth_pair() as (ns_a, ns_b), broker(ns_a, f"{SUBNET}.1", tmp_path) as url:
        procs = [start(ns_a, "--name", "Ann", "--seed", "1", "--relay", url, *common)]
        try:
            outs = [_lines(procs[0].stdout)]  # type: ignore[arg-type]
            first = json.loads(outs[0].get(timeout=60) or "{}")
            assert first["event"] == "room" and len(first["room"].split("-")) == 3, first
            # Typed as a person might: capitals, spaces for dashes.
            typed = first["room"].upper().replace("-", " ")
            procs.append(start(ns_b, "--name", "Ben", "--seed", "2", "--relay", url,
                               "--room", typed, *common))
            outs.append(_lines(procs[1].stdout))  # type: ignore[arg-type]
            errs = [_lines(proc.stderr) for proc in procs]  # type: ignore[arg-type]
            results: list[Run] = []
            for proc, out, err_lines in zip(procs, outs, errs, strict=True):
                proc.wait(timeout=150)
                lines, err = [], ""
                while (line := out.get(timeout=10)) is not None:
                    lines.append(json.loads(line))
                while (text := err_lines.get(timeout=10)) is not None:
                    err += text
                results.append((proc.returncode or 0, lines, err))
            # The room is empty again: nobody finds these codes in it later.
            check = subprocess.run(
                ["ip", "netns", "exec", ns_b, sys.executable, "-c",
                 "import sys; from durak_net.relay import Room; "
                 "r = Room(sys.argv[1], sys.argv[2]); "
                 "print(r.wait('offer', 1), r.wait('answer', 1)); r.close()",
                 url, first["room"]],
                capture_output=True, text=True, timeout=60, env=peer_env())
            assert check.stdout.split() == ["None", "None"], check.stderr[-2000:]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    _same_games(results, 1)
    assert f"room {first['room']}: the other player runs" in results[0][2]


# ------------------------------------------------------------ codes that fail


def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``durak-lan`` in this process: (status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            _stdin(stdin):
        status = cli.main(argv)
    return status, out.getvalue(), err.getvalue()


@contextlib.contextmanager
def _stdin(text: str) -> Iterator[None]:
    import sys

    saved = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = saved


def _answer_code(**kwargs: float) -> str:
    return online_code.pack_description(online_code.example_sdp("answer"), "answer",
                                        **{"now": time.time(), **kwargs})


def _offer_code(**kwargs: float) -> str:
    return online_code.pack_description(online_code.example_sdp("offer"), "offer",
                                        **{"now": time.time(), **kwargs})


def _other_version(code: str) -> str:
    data = online_code.base58_decode(code)[:-online_code.CHECK_SIZE]
    data = bytes([5]) + data[1:]  # a version-5 durak's
    return online_code.base58_encode(data + online_code.check(data))


@pytest.mark.parametrize("make, line", [
    (lambda: _offer_code()[:-6], "this code is cut short or mistyped: paste the whole code "
                                 "exactly as you were sent it"),
    (lambda: "hello-world", "this is not a durak code"),
    (lambda: _offer_code(now=time.time() - 7200), "this code expired 90 min ago: ask for "
                                                  "a new one"),
    (lambda: _other_version(_offer_code()), "this code is from another version of durak "
                                            "(protocol 5, this is 6): both players need the "
                                            "same version"),
    (lambda: _answer_code(), "this is a reply code: give it to the player who sent the "
                             "invitation"),
])
def test_a_code_that_cannot_be_used_is_one_line_and_exit_status_65(make, line: str) -> None:
    status, out, err = _run(["--name", "Ben", "--online", "--code", make(), "--bot",
                             "random", "--json"])
    assert status == EXIT_BAD_CODE == 65
    assert out == ""  # no reply code, no game line
    (said,) = err.splitlines()
    assert said.startswith("durak-lan: ") and line in said, err


def test_a_bad_reply_pasted_into_a_headless_inviter_is_one_line_and_exit_status_65() -> None:
    status, out, err = _run(["--name", "Ann", "--online", "--ice-server", "none", "--bot",
                             "random", "--json"], stdin=_offer_code() + "\n")
    assert status == EXIT_BAD_CODE
    (record,) = [json.loads(x) for x in out.splitlines()]
    assert record["event"] == "invitation"
    assert online_code.read_code(record["code"], now=time.time())[0].kind == "offer"
    (said,) = err.splitlines()
    assert said == ("durak-lan: this is an invitation code, not the reply to ours: paste the "
                    "code the other player's terminal printed after taking ours"), err


def test_an_inviter_whose_reply_never_comes_says_so_and_exits_1() -> None:
    status, out, err = _run(["--name", "Ann", "--online", "--ice-server", "none", "--bot",
                             "random", "--json"])
    assert status == 1
    assert "no reply code came" in err
    assert json.loads(out)["event"] == "invitation"


@pytest.mark.slow
def test_a_reply_to_an_invitation_no_one_can_reach_fails_in_one_line_with_the_next_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The example offer names addresses nobody answers at: ICE fails (or the wait runs
    out) and the line says what to try, exit 69."""
    from durak_net import online_terminal

    monkeypatch.setattr(online_terminal, "OPEN_TIMEOUT", 3.0)
    monkeypatch.setattr(online_terminal.OnlineTerminal, "_answer", _impatient_answer)
    status, out, err = _run(["--name", "Ben", "--online", "--ice-server", "none", "--code",
                             _offer_code(), "--bot", "random", "--json"])
    assert status == EXIT_NO_ROUTE == 69
    assert json.loads(out)["event"] == "reply"
    (said,) = err.splitlines()
    assert said.startswith("durak-lan: ") and (
        "try --ice-server stun:stun.l.google.com:19302 on both sides (or a TURN server)"
        in said), err


def _impatient_answer(self, node, deadline):  # type: ignore[no-untyped-def]
    """The friend's side, but not waiting an hour for the inviter (the test's wait)."""
    addr, reply = node.reply(self.args.code)
    self.emit({"event": "reply", "code": reply})
    return self._wait_open(node, addr, deadline, patient=False)


@pytest.mark.parametrize("argv, line", [
    (["--code", "abc"], "--code, --relay, --room and --ice-server are for --online"),
    (["--online", "--room", "a-b-c"], "--room names a room on a --relay"),
    (["--online", "--relay", "http://broker"], "a relay is an MQTT broker's WebSocket URL"),
    (["--online", "--relay", "ws://broker/", "--code", "abc"], "give the --room"),
    (["--online", "--relay", "ws://broker/", "--room", "a/b"], "a room is words"),
    (["--online", "--relay", "ws://broker/", "--host", "3"], "a --relay room seats one"),
    (["--online", "--invite", "Bob"], "--invite is for the LAN"),
    (["--online", "--code", "abc", "--host", "3"], "--host is for the player who invites"),
    (["--online", "--host", "2", "--add-bot", "random"], "needs a seat for someone else"),
    (["--online", "--ice-server", "http://x"], "an ICE server is stun:HOST:PORT"),
    (["--online", "--ice-server", "turn:host:3478"], "a TURN server needs a user"),
])
def test_options_online_cannot_take_are_refused_in_one_line(argv: list[str],
                                                            line: str) -> None:
    status, _, err = _run(["--name", "Ann", *argv])
    assert status == cli.EXIT_USAGE
    assert line in err and len(err.splitlines()) == 1, err


def test_ice_servers_are_read_as_stun_or_turn_with_credentials() -> None:
    from durak_net.rtc import _ice_server

    assert _ice_server("stun:stun.example:3478").urls == "stun:stun.example:3478"
    turn = _ice_server("turn:ann:s3cret@turn.example:3478")
    assert (turn.urls, turn.username, turn.credential) == ("turn:turn.example:3478", "ann",
                                                           "s3cret")


def test_a_text_message_or_an_oversized_one_on_a_channel_is_dropped_and_counted() -> None:
    from durak_net.rtc import RtcNode

    node = RtcNode("Doc")
    try:
        node._on_message(("rtc", 1), "DK\x04D hello")
        node._on_message(("rtc", 1), b"DK" + bytes(1300))
        node._on_message(("rtc", 1), b"not ours")
        drops = node.drop_counts()
        assert (drops["foreign"], drops["oversized"]) == (2, 1), drops
        assert node.peers() == []
    finally:
        node.close()


def test_a_room_is_three_words_and_its_topics_hide_them() -> None:
    from durak_net import relay

    room = relay.new_room(lambda n: bytes([0, 1, 255])[:n])
    assert room == "acorn-actor-zebra"
    assert relay.normalise_room(" Acorn  ACTOR-zebra") == room
    offer, answer = relay.topic(room, "offer"), relay.topic(room, "answer")
    assert offer.startswith("durak/6/") and offer.endswith("/offer")
    assert offer.rsplit("/", 1)[0] == answer.rsplit("/", 1)[0]
    assert "acorn" not in offer and len(offer.split("/")[2]) == 32
    with pytest.raises(ValueError, match="kind"):
        relay.topic(room, "bye")
    assert relay.parse_url("wss://broker.example:8084/mqtt") == (
        "wss", "broker.example", 8084, "/mqtt")
    assert relay.parse_url("ws://10.0.0.1/") == ("ws", "10.0.0.1", 80, "/")


def test_a_relay_nobody_answers_at_is_one_line_and_exit_status_69() -> None:
    import socket

    with socket.socket() as probe:  # a port with nothing behind it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status, out, err = _run(["--name", "Ann", "--online", "--relay",
                             f"ws://127.0.0.1:{port}/", "--bot", "random", "--json"])
    assert status == EXIT_NO_ROUTE and out == ""  # no room was named
    (said,) = err.splitlines()
    assert said.startswith(f"durak-lan: cannot reach the relay ws://127.0.0.1:{port}/"), err
    assert said.endswith("check the URL, or copy the codes by hand (leave out --relay)")


def test_the_public_stun_server_is_the_default_and_none_turns_it_off() -> None:
    from durak_net.online_terminal import PUBLIC_STUN, OnlineTerminal
    from durak_net.rtc import DEFAULT_ICE_SERVERS

    def servers(*given: str) -> list[str]:
        args = cli.build_parser().parse_args(["--online", *given])
        return OnlineTerminal(args, print, print).ice_servers

    assert servers() == [PUBLIC_STUN] == list(DEFAULT_ICE_SERVERS)
    assert servers("--ice-server", "none") == []
    assert servers("--ice-server", "turn:a:b@t.example:3478") == ["turn:a:b@t.example:3478"]


def test_a_person_who_pastes_a_bad_reply_is_told_why_and_may_paste_again() -> None:
    """Interactive (no --bot): the line says what is wrong and the terminal waits for
    the next paste; here the input ends, so it says no reply came and exits 1."""
    status, out, err = _run(["--name", "Ann", "--online", "--ice-server", "none"],
                            stdin=_offer_code()[:50] + "\n\n" + _offer_code() + "\n")
    assert status == 1, err
    said = out.splitlines()
    assert said[0].startswith("invitation code (send it to the other player")
    assert said[2] == ("this code is cut short or mistyped: paste the whole code exactly as "
                       "you were sent it")
    assert said[3] == ("this is an invitation code, not the reply to ours: paste the code the "
                       "other player's terminal printed after taking ours")
    assert said[4] == "no reply code came"
