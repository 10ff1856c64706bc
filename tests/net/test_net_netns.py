"""Test 3 of the issue, and the table test of issue 11: hosts simulated with Linux
network namespaces.

Each host is a namespace with one address on 10.77.0.0/24 (test-only addresses); the
hosts are joined by a bridge that lives in a namespace of its own, so nothing is added
to the machine's own network.  One terminal peer runs in each host; they discover each
other by subnet broadcast (there is no default route, so 255.255.255.255 is refused
there) and play full games while each drops 20% of its outgoing datagrams.

* two hosts: an invitation and three games between two peers;
* three hosts: a table of three seats (``--host 3`` and two ``--join``) and a game.

Needs root and ``ip`` (CI runs as root); elsewhere the ``netns`` marker skips it with
the reason (see the root conftest.py).  The namespaces are always deleted, also when a
step of building them or the test fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import subprocess
from collections.abc import Iterator

import pytest

from .test_net_udp import assert_same_games, peer_cmd, peer_env

pytestmark = [pytest.mark.netns, pytest.mark.slow]

SUBNET = "10.77.0"
HOST_A = f"{SUBNET}.1"
HOST_B = f"{SUBNET}.2"


def _ip(*args: str) -> None:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if proc.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {proc.stderr.strip()}")


@contextlib.contextmanager
def bridged_hosts(count: int) -> Iterator[list[str]]:
    """``count`` namespaces, host ``i`` at 10.77.0.(i+1)/24, on one bridge; yields their
    names and deletes everything it made on the way out."""
    tag = f"{os.getpid() % 1000:03d}{random.randrange(100):02d}"
    hosts = [f"dk{chr(ord('A') + i)}{tag}" for i in range(count)]
    switch = f"dkS{tag}"
    created: list[str] = []
    try:
        for ns in (*hosts, switch):
            _ip("netns", "add", ns)
            created.append(ns)
        _ip("-n", switch, "link", "add", "br0", "type", "bridge")
        for i, ns in enumerate(hosts):
            end, switch_end = f"dk{chr(ord('a') + i)}{tag}", f"dk{chr(ord('a') + i)}s{tag}"
            # The pair is created directly inside the namespaces: the root one never sees it.
            _ip("-n", ns, "link", "add", end, "type", "veth", "peer", "name", switch_end,
                "netns", switch)
            _ip("-n", ns, "addr", "add", f"{SUBNET}.{i + 1}/24", "brd", "+", "dev", end)
            _ip("-n", ns, "link", "set", end, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", switch, "link", "set", switch_end, "master", "br0")
            _ip("-n", switch, "link", "set", switch_end, "up")
        _ip("-n", switch, "link", "set", "br0", "up")
        yield hosts
    finally:
        for ns in reversed(created):  # deleting a namespace deletes its links too
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


@pytest.fixture
def two_hosts() -> Iterator[tuple[str, str]]:
    with bridged_hosts(2) as (ns_a, ns_b):
        yield ns_a, ns_b


@pytest.fixture
def three_hosts() -> Iterator[list[str]]:
    with bridged_hosts(3) as hosts:
        yield hosts


def run_in(hosts: list[str], commands: list[list[str]], timeout: float):
    """Run one terminal peer per namespace; [(returncode, json lines, stderr)] in order.
    Every process is killed if one overstays ``timeout``."""
    procs = [
        subprocess.Popen(["ip", "netns", "exec", ns, *peer_cmd(*args)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=peer_env())
        for ns, args in zip(hosts, commands, strict=True)
    ]
    results = []
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=timeout)
            results.append((proc.returncode, [json.loads(x) for x in out.splitlines() if x],
                            err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results


def test_two_hosts_discover_each_other_by_broadcast_and_play_through_loss(
    two_hosts: tuple[str, str],
) -> None:
    ns_a, ns_b = two_hosts
    common = ["--bot", "random", "--games", "3", "--json", "--loss", "0.2", "--timeout", "60"]
    results = run_in([ns_a, ns_b], [
        ["--name", "Ann", "--auto-accept", "--seed", "1", *common],
        ["--name", "Ben", "--invite", "Ann", "--seed", "2", *common],
    ], timeout=90)
    assert_same_games(results, 3)
    # Ben found Ann at her own host's address: the datagrams crossed the bridge.
    assert f"inviting Ann ({HOST_A}:" in results[1][2], results[1][2]
    assert f'playing "Ben" ({HOST_B}:' in results[0][2], results[0][2]


def test_a_table_of_three_hosts_found_by_broadcast_plays_a_game_through_loss(
    three_hosts: list[str],
) -> None:
    """A host (--host 3) and two players who --join it by name, each on its own host of
    the bridge, every one dropping 20% of what it sends: both games end with the same
    state, the same log and a fair audit on all three, and the joiners found the host
    at its own address."""
    common = ["--bot", "random", "--games", "2", "--json", "--loss", "0.2", "--timeout", "90"]
    results = run_in(three_hosts, [
        ["--name", "Hana", "--host", "3", "--seed", "1", *common],
        ["--name", "Ivo", "--join", "Hana", "--seed", "2", *common],
        ["--name", "Jo", "--join", "Hana", "--seed", "3", *common],
    ], timeout=120)
    for rc, lines, err in results:
        assert rc == 0, err[-3000:]
        assert [r["game"] for r in lines] == [1, 2], err[-3000:]
        assert all(r["event"] == "game_over" and r["audit"] == "fair" for r in lines), lines
    host = results[0][1]
    seats = host[0]["seats"]
    assert seats[0] == "Hana" and sorted(seats[1:]) == ["Ivo", "Jo"]
    for _, lines, _ in results[1:]:
        for mine, theirs in zip(lines, host, strict=True):
            assert (mine["table"], mine["state_hash"], mine["log_hash"], mine["public_hash"],
                    mine["durak"], mine["actions"], mine["seats"]) == (
                theirs["table"], theirs["state_hash"], theirs["log_hash"],
                theirs["public_hash"], theirs["durak"], theirs["actions"], theirs["seats"])
    assert sorted(out[0]["seat"] for _, out, _ in results) == [0, 1, 2]
    # The datagrams crossed the bridge: each joiner asked the host at the host's own
    # address, and the host seated each at its own.
    for name, (_, _, err) in zip(("Ivo", "Jo"), results[1:], strict=True):
        assert f'asking "Hana" ({HOST_A}:' in err, err[-3000:]
        own = f"{SUBNET}.{2 if name == 'Ivo' else 3}"
        assert re.search(rf'"{name}" \({re.escape(own)}:\d+\) takes seat [12]', results[0][2]), (
            results[0][2][-3000:])
    # Every screen showed the same table words.
    words = {re.findall(r"table words: (\w+ \w+ \w+ \w+)", err)[-1] for _, _, err in results}
    assert len(words) == 1
