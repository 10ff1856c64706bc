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
import statistics
from typing import Any

from net_pair import percentile, play, run_pair

from durak_core.bots import RandomBot
from durak_net import events as ev
from durak_net.botplay import BotDriver
from durak_net.node import LanNode, SessionView


def child(role: str, port: int, games: int, loss: float, think: float, seed: int) -> None:
    """One peer: play ``games`` games, then print what was applied when (JSON)."""
    node = LanNode(role, port=port, loss=loss, loss_seed=seed)
    applied: list[tuple[int, int, float, bool, str]] = []
    proposed: list[tuple[int, str, float]] = []
    finished = 0

    def handle(event: Any) -> bool:
        nonlocal finished
        if isinstance(event, ev.ActionApplied):
            applied.append((event.game, event.index, event.at, event.by_me,
                            str(event.action)))
        elif isinstance(event, ev.GameFinished):
            finished += 1
            if finished >= games:
                return True
            node.start_next_game(event.sid)
        return False

    def acted(view: SessionView, action: Any, started: float) -> None:
        if role == "fol":
            proposed.append((view.game_no, str(action), started))

    play(role, node, BotDriver(RandomBot(seed)), handle, think=think, acted=acted)
    print(json.dumps({"applied": applied, "proposed": proposed, "finished": finished}))


def measure(games: int, loss: float, think: float) -> dict[str, list[float]]:
    data = run_pair(__file__, ["--games", str(games), "--loss", str(loss), "--think",
                               str(think)])
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
