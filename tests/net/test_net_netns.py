"""Test 3 of the issue: two hosts, simulated with Linux network namespaces.

Two namespaces (10.77.0.1/24 and 10.77.0.2/24, test-only addresses) are joined by a
bridge that lives in a third namespace, so nothing is added to the machine's own
network.  One terminal peer runs in each; they discover each other by subnet
broadcast (there is no default route, so 255.255.255.255 is refused there) and play
full games while each drops 20% of its outgoing datagrams.

Needs root and ``ip`` (CI runs as root); elsewhere the ``netns`` marker skips it with
the reason (see the root conftest.py).  The namespaces are always deleted.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections.abc import Iterator

import pytest

from .test_net_udp import assert_same_games, peer_cmd, peer_env

pytestmark = [pytest.mark.netns, pytest.mark.slow]

HOST_A = "10.77.0.1"
HOST_B = "10.77.0.2"


def _ip(*args: str) -> None:
    proc = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if proc.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {proc.stderr.strip()}")


@pytest.fixture
def two_hosts() -> Iterator[tuple[str, str]]:
    tag = f"{os.getpid() % 1000:03d}{random.randrange(100):02d}"
    ns_a, ns_b, ns_switch = f"dkA{tag}", f"dkB{tag}", f"dkS{tag}"
    links = [f"dka{tag}", f"dkb{tag}", f"dkas{tag}", f"dkbs{tag}"]
    created: list[str] = []
    try:
        for ns in (ns_a, ns_b, ns_switch):
            _ip("netns", "add", ns)
            created.append(ns)
        _ip("-n", ns_switch, "link", "add", "br0", "type", "bridge")
        for ns, end, switch_end, address in (
            (ns_a, links[0], links[2], HOST_A),
            (ns_b, links[1], links[3], HOST_B),
        ):
            # The pair is created directly inside the namespaces: the root one never sees it.
            _ip(
                "-n",
                ns,
                "link",
                "add",
                end,
                "type",
                "veth",
                "peer",
                "name",
                switch_end,
                "netns",
                ns_switch,
            )
            _ip("-n", ns, "addr", "add", f"{address}/24", "brd", "+", "dev", end)
            _ip("-n", ns, "link", "set", end, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns_switch, "link", "set", switch_end, "master", "br0")
            _ip("-n", ns_switch, "link", "set", switch_end, "up")
        _ip("-n", ns_switch, "link", "set", "br0", "up")
        yield ns_a, ns_b
    finally:
        for ns in reversed(created):  # deleting a namespace deletes its links too
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)


def test_two_hosts_discover_each_other_by_broadcast_and_play_through_loss(
    two_hosts: tuple[str, str],
) -> None:
    ns_a, ns_b = two_hosts
    common = ["--bot", "random", "--games", "3", "--json", "--loss", "0.2", "--timeout", "60"]
    procs = [
        subprocess.Popen(
            ["ip", "netns", "exec", ns, *peer_cmd(*args)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=peer_env(),
        )
        for ns, args in (
            (ns_a, ["--name", "Ann", "--auto-accept", "--seed", "1", *common]),
            (ns_b, ["--name", "Ben", "--invite", "Ann", "--seed", "2", *common]),
        )
    ]
    results = []
    for proc in procs:
        try:
            out, err = proc.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            for p in procs:
                p.kill()
            raise
        results.append((proc.returncode, [json.loads(x) for x in out.splitlines() if x], err))
    assert_same_games(results, 3)
    # Ben found Ann at her own host's address: the datagrams crossed the bridge.
    assert f"inviting Ann ({HOST_A}:" in results[1][2], results[1][2]
    assert f"playing Ben ({HOST_B}:" in results[0][2], results[0][2]
