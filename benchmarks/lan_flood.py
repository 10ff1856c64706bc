"""A host's move latency and CPU while a stranger floods it, over loopback UDP.

Two peers play random-bot games as in ``net_latency.py`` (``seq`` hosts: it invites
and orders the log); a third process, the attacker, floods meanwhile, as in the attack
report of the LAN lobby:

* ``ids``: announcements, each under a new node id (a new key, signed: what a peer
  must check), broadcast to the discovery port at ``--rate`` a second;
* ``spoofed``: announcements under new node ids from a new made-up source address
  (127.x.y.z, through a raw socket: needs root) to the host's game port, so no
  per-source limit applies (the signature budget for new nodes does);
* ``ports``: one node id announcing itself unicast to the host's game port from 900
  source ports in turn, each naming itself as the game port (the reflection attack:
  ``back`` counts what the host sent to those ports, during the flood and 1.5 s after).

Each row: the moves of the row's games, the time from the follower's bot acting until
the move is confirmed back on the follower (one round trip through the host), p50 and
p99 in ms; the host's CPU (seconds of CPU per second of play); its peak memory; what
the attacker sent, and what came back to it (``ports``); the host's lobby counters.

Usage::

    python benchmarks/lan_flood.py                     # clean, ids, ports; 6 games each
    python benchmarks/lan_flood.py --games 10 --rate 8000 --modes clean ports
    python benchmarks/lan_flood.py --wire 3             # attack a version-3 peer
                                                       # (run from a version-3 checkout)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from net_pair import REPO, percentile, play

from durak_core import Rules
from durak_core.bots import RandomBot
from durak_net import events as ev
from durak_net.botplay import BotDriver
from durak_net.node import LanNode, SessionView

#: Source ports of the ``ports`` flood (each one announced as the sender's game port).
POOL = 900


def child(role: str, port: int, games: int, think: float, seed: int, portfile: str) -> None:
    """One peer: play ``games`` games; print the timings, CPU and counters (JSON)."""
    node = LanNode(role, port=port, loss=0.0, loss_seed=seed)
    applied: dict[tuple[int, int], float] = {}
    proposed: list[tuple[int, str, float]] = []
    mine: list[tuple[int, int, str, float]] = []
    finished = 0
    started_cpu = started_wall = 0.0

    def handle(event: Any) -> bool:
        nonlocal finished, started_cpu, started_wall
        if isinstance(event, ev.SessionAgreed):
            started_cpu, started_wall = time.process_time(), time.monotonic()
            if role == "seq":  # the attacker's signal: paired, flood now
                Path(portfile).write_text(str(node.game_port))
        if isinstance(event, ev.ActionApplied):
            applied[(event.game, event.index)] = event.at
            if event.by_me:
                mine.append((event.game, event.index, str(event.action), event.at))
        elif isinstance(event, ev.GameFinished):
            finished += 1
            if finished >= games:
                return True
            node.start_next_game(event.sid)
        return False

    def acted(view: SessionView, action: Any, started: float) -> None:
        proposed.append((view.game_no, str(action), started))

    play(role, node, BotDriver(RandomBot(seed)), handle, think=think, acted=acted)
    cpu = time.process_time() - started_cpu
    wall = time.monotonic() - started_wall
    pending = {(g, text): t for g, text, t in proposed}
    round_trip = [at - pending.pop((g, text)) for g, _, text, at in mine
                  if (g, text) in pending]
    print(json.dumps({
        "round_trip": round_trip, "finished": finished, "cpu": cpu, "wall": wall,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "drops": dict(node.drop_counts()), "peers": len(node.lobby.peers),
        "direct": len(node.lobby.direct),
    }))


def _announcements(count: int, wire: int, ports: list[int], one_node: bool) -> list[bytes]:
    """``count`` announcements, each under a new node id (or all under one), the k-th
    naming ``ports[k % len(ports)]`` as its game port."""
    import msgspec

    out = []
    if wire == 3:  # a version-3 peer reads these unsigned arrays
        for k in range(count):
            node = 1 if one_node else 10_000 + k
            body = ["announce", "durak-lan", 3, node, f"Bot{k % 1000}", ports[k % len(ports)],
                    Rules().to_dict(), False, [], None]
            out.append(b"DK\x03D" + msgspec.msgpack.encode(body))
        return out
    from durak_net.identity import Identity
    from durak_net.lobby import DISCOVERY_LABEL, node_id
    from durak_net.wire import PROTOCOL, PROTOCOL_VERSION, Announce, encode_discovery

    key = Identity.generate(os.urandom)
    for k in range(count):
        if not one_node:
            key = Identity.generate(os.urandom)
        message = Announce(PROTOCOL, PROTOCOL_VERSION, node_id(key.public), key.public, k + 1,
                           f"Bot{k % 1000}", ports[k % len(ports)], Rules().to_dict())
        out.append(encode_discovery(
            message, lambda data, key=key: key.sign(DISCOVERY_LABEL, data)))
    return out


def attack(mode: str, port: int, portfile: str, rate: float, wire: int) -> None:
    """Once the host has paired (its game port in ``portfile``), flood until SIGTERM;
    then print what was sent and what came back (JSON)."""
    pool: list[socket.socket] = []  # ports: the source ports, each announced as its own
    for _ in range(POOL if mode == "ports" else 0):
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind(("127.0.0.1", 0))
        sock.setblocking(False)
        pool.append(sock)
    ports = [sock.getsockname()[1] for sock in pool] or [40066]
    datagrams = _announcements(20_000 if mode == "ports" else 12_000, wire, ports,
                               one_node=mode == "ports")
    print("ready", file=sys.stderr, flush=True)
    while not Path(portfile).exists() or not Path(portfile).read_text():
        time.sleep(0.001)
    target = int(Path(portfile).read_text())
    stop = False

    def end(*_: Any) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGTERM, end)
    sent = received = 0
    drained = 0.0
    broadcast = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    broadcast.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    raw = (socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
           if mode == "spoofed" else None)
    start = time.monotonic()
    while not stop:
        due = int((time.monotonic() - start) * rate)
        while sent < due and not stop:
            data = datagrams[sent % len(datagrams)]
            if mode == "ids":
                broadcast.sendto(data, ("127.255.255.255", port))
            elif raw is not None:
                source = f"127.{(sent >> 16) & 255}.{(sent >> 8) & 255}.{sent & 255 or 1}"
                raw.sendto(_udp_packet(source, 40066, "127.0.0.1", target, data),
                           ("127.0.0.1", 0))
            else:  # from the port it names: whatever the host sends back arrives here
                pool[sent % len(pool)].sendto(data, ("127.0.0.1", target))
            sent += 1
        if time.monotonic() >= drained + 0.2:
            drained = time.monotonic()
            received += sum(_drain(sock) for sock in pool)
        time.sleep(0.005)
    time.sleep(1.5)  # what the host still sends after the flood stopped
    received += sum(_drain(sock) for sock in pool)
    print(json.dumps({"sent": sent, "seconds": time.monotonic() - start,
                      "received": received}), flush=True)


def _udp_packet(src: str, sport: int, dst: str, dport: int, payload: bytes) -> bytes:
    """An IPv4 header and a UDP header (checksum 0: none, as IPv4 allows) before
    ``payload``, from a source address of our choosing."""
    import struct

    length = 20 + 8 + len(payload)
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, length, 0, 0, 64, socket.IPPROTO_UDP, 0,
                         socket.inet_aton(src), socket.inet_aton(dst))
    return header + struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def _drain(sock: socket.socket) -> int:
    count = 0
    while True:
        try:
            sock.recv(2048)
        except (BlockingIOError, OSError):
            return count
        count += 1


def run(mode: str, games: int, think: float, rate: float, wire: int) -> dict[str, Any]:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    script = str(Path(__file__).resolve())
    portfile = tempfile.mktemp(prefix="lan-flood-")
    common = ["--port", str(port), "--games", str(games), "--think", str(think),
              "--portfile", portfile]
    attacker = None
    if mode != "clean":  # its datagrams made before the game begins
        attacker = subprocess.Popen(
            [sys.executable, script, "--child", "attack", "--mode", mode, "--port", str(port),
             "--portfile", portfile, "--rate", str(rate), "--wire", str(wire)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert attacker.stderr is not None
        attacker.stderr.readline()
    procs = {role: subprocess.Popen([sys.executable, script, "--child", role, "--seed",
                                     str(seed), *common], stdout=subprocess.PIPE, text=True,
                                    env=env) for role, seed in (("fol", 2), ("seq", 1))}
    data: dict[str, Any] = {}
    for role, proc in procs.items():
        out, _ = proc.communicate(timeout=900)
        data[role] = json.loads(out.strip().splitlines()[-1]) if not proc.returncode else {}
    if attacker is not None:
        attacker.send_signal(signal.SIGTERM)
        out, _ = attacker.communicate(timeout=60)
        data["attack"] = json.loads(out.strip().splitlines()[-1])
    Path(portfile).unlink(missing_ok=True)
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--think", type=float, default=0.002)
    parser.add_argument("--rate", type=float, default=8000.0,
                        help="the attacker's datagrams a second (the report: 50,000 in 6 s)")
    parser.add_argument("--modes", nargs="*", default=["clean", "ids", "spoofed", "ports"])
    parser.add_argument("--wire", type=int, default=4, choices=[3, 4])
    parser.add_argument("--child", choices=["seq", "fol", "attack"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--portfile", help=argparse.SUPPRESS)
    parser.add_argument("--mode", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "attack":
        attack(args.mode, args.port, args.portfile, args.rate, args.wire)
        return
    if args.child:
        child(args.child, args.port, args.games, args.think, args.seed, args.portfile)
        return
    print(f"loopback UDP, {args.games} random-bot games per row, think "
          f"{args.think * 1000:g} ms, flood {args.rate:g}/s; round trip of a follower's "
          "move in ms; host CPU in s/s")
    print(f"{'flood':<8} {'moves':>6} {'p50':>8} {'p99':>8} {'cpu':>6} {'rss MB':>7} "
          f"{'sent':>7} {'back':>6} {'peers':>6}  host's lobby drops")
    for mode in args.modes:
        data = run(mode, args.games, args.think, args.rate, args.wire)
        fol, seq = data.get("fol", {}), data.get("seq", {})
        ms = [v * 1000 for v in fol.get("round_trip", [])]
        attack_ = data.get("attack", {})
        drops = {k: v for k, v in seq.get("drops", {}).items() if v}
        if not ms:
            print(f"{mode:<8} no moves measured (a peer failed)")
            continue
        print(f"{mode:<8} {len(ms):>6} {statistics.median(ms):>8.2f} "
              f"{percentile(ms, 0.99):>8.2f} {seq['cpu'] / seq['wall']:>6.2f} "
              f"{seq['maxrss_kb'] / 1024:>7.1f} {attack_.get('sent', 0):>7} "
              f"{attack_.get('received', 0):>6} {seq['peers']:>6}  {drops}")


if __name__ == "__main__":
    main()
