"""How long a move takes to reach the other notebook, over loopback UDP.

Two processes (two peers, as two kernels would be) play bot games against each other
through :class:`durak_net.node.LanNode`; each records, on the system-wide monotonic
clock, when every log entry was applied.  The figure is the time from a move applied
on one peer to the same move applied on the other (the sequencer applies first: its
own moves when they are made, the follower's when their proposal arrives), p50 and
p99, on a clean link and with 20% of outgoing datagrams dropped by both peers.

Also shown: a follower's move from the moment its bot acts until it is applied on the
sequencer, and until it is confirmed back on the follower (one round trip).

Bots wait ``--think`` seconds before each move (default 2 ms), so the figures measure
latency rather than how many back-to-back moves fit in a pipe.

Usage::

    python benchmarks/net_latency.py                 # 30 games clean, 30 with 20% loss
    python benchmarks/net_latency.py --games 10 --loss 0.2
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from durak_core.bots import RandomBot  # noqa: E402
from durak_net import events as ev  # noqa: E402
from durak_net.botplay import BotDriver  # noqa: E402
from durak_net.node import LanNode  # noqa: E402


def child(role: str, port: int, games: int, loss: float, think: float, seed: int) -> None:
    """One peer: play ``games`` games, then print what was applied when (JSON)."""
    node = LanNode(role, port=port, loss=loss, loss_seed=seed)
    driver = BotDriver(RandomBot(seed))
    applied: list[tuple[int, int, float, bool, str]] = []
    proposed: list[tuple[int, str, float]] = []
    finished = 0
    sid: int | None = None
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            if role == "seq" and sid is None and not node.lobby.pending_invites():
                peer = node.find_peer("fol")
                if peer is not None:
                    node.invite(peer.node)
            try:
                event = node.events.get(timeout=0.05)
            except queue.Empty:
                event = None
            if isinstance(event, ev.InviteReceived):
                node.accept(event.invite)
            elif isinstance(event, ev.SessionAgreed):
                sid = event.sid
            elif isinstance(event, ev.ActionApplied):
                applied.append((event.game, event.index, event.at, event.by_me,
                                str(event.action)))
            elif isinstance(event, ev.GameFinished):
                finished += 1
                if finished >= games:
                    break
                node.start_next_game(event.sid)
            elif isinstance(event, (ev.DesyncDetected, ev.ProtocolViolation)):
                raise SystemExit(f"{role}: {event}")
            if sid is None or not node.events.empty():
                continue
            view = node.view(sid)
            action = driver.choose(view)
            if action is not None and view is not None:
                time.sleep(think)
                started = time.monotonic()
                try:
                    node.act(sid, action)
                except Exception:
                    continue  # the state moved while thinking; the next event retries
                if role == "fol":
                    proposed.append((view.game_no, str(action), started))
    finally:
        # Let the last entries' acknowledgements out before leaving.
        time.sleep(0.2)
        node.close(leave=True)
    print(json.dumps({"applied": applied, "proposed": proposed, "finished": finished}))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(games: int, loss: float, think: float) -> dict[str, list[float]]:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    procs = {
        role: subprocess.Popen(
            [sys.executable, __file__, "--child", role, "--port", str(port), "--games",
             str(games), "--loss", str(loss), "--think", str(think), "--seed", str(seed)],
            stdout=subprocess.PIPE, text=True, env=env,
        )
        for role, seed in (("fol", 2), ("seq", 1))
    }
    data: dict[str, Any] = {}
    for role, proc in procs.items():
        out, _ = proc.communicate(timeout=600)
        if proc.returncode:
            raise SystemExit(f"{role} failed with status {proc.returncode}")
        data[role] = json.loads(out.strip().splitlines()[-1])
    seq_at = {(g, i): at for g, i, at, _, _ in data["seq"]["applied"]}
    fol_at = {(g, i): (at, mine, text) for g, i, at, mine, text in data["fol"]["applied"]}
    one_way = [fol_at[k][0] - seq_at[k] for k in seq_at if k in fol_at]
    to_seq: list[float] = []
    round_trip: list[float] = []
    pending = {(g, text): t for g, text, t in data["fol"]["proposed"]}
    for key, (at, mine, text) in fol_at.items():
        started = pending.pop((key[0], text), None) if mine else None
        if started is not None and key in seq_at:
            to_seq.append(seq_at[key] - started)
            round_trip.append(at - started)
    return {"applied there": one_way, "follower act -> sequencer": to_seq,
            "follower act -> confirmed": round_trip}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--loss", type=float, nargs="*", default=[0.0, 0.2])
    parser.add_argument("--think", type=float, default=0.002)
    parser.add_argument("--child", choices=["seq", "fol"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.port, args.games, args.loss[0], args.think, args.seed)
        return
    print(f"loopback UDP, two processes, {args.games} random-bot games per row, "
          f"think {args.think * 1000:g} ms; times in ms")
    print(f"{'loss':>5}  {'measure':<27} {'moves':>6} {'p50':>8} {'p99':>8} {'max':>8}")
    for loss in args.loss:
        for name, values in measure(args.games, loss, args.think).items():
            if not values:
                continue
            ms = [v * 1000 for v in values]
            print(f"{loss:>5.0%}  {name:<27} {len(ms):>6} {statistics.median(ms):>8.3f} "
                  f"{percentile(ms, 0.99):>8.3f} {max(ms):>8.3f}")


if __name__ == "__main__":
    main()
