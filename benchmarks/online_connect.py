"""Two terminal peers over a WebRTC data channel (aiortc), met through codes.

Both :class:`durak_net.rtc.RtcNode` objects live in this process (one clock for both),
each with its own asyncio thread; the codes go from one to the other as a person would
paste them.  Printed: the codes' lengths (characters), the time from the reply being
given until the channel is open, until both screens show the pairing words and until
the first game is dealt on both; and how long a move takes over the channel ("applied
there": a move applied on the seat that played it until it is applied on the other).
Random bots, hidden hands, as ``durak-lan --online --bot random`` plays.

Needs the ``online`` extra and a network interface other than loopback (aioice leaves
127.0.0.1 out of its candidates).

    python benchmarks/online_connect.py --runs 10
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from durak_core import IllegalAction  # noqa: E402
from durak_core.bots import RandomBot  # noqa: E402
from durak_net import events as ev  # noqa: E402
from durak_net.botplay import BotDriver  # noqa: E402
from durak_net.rtc import RtcNode  # noqa: E402
from durak_net.session import SessionError  # noqa: E402


class Seat:
    """One node, its bot, and when each thing happened to it."""

    def __init__(self, name: str, seed: int) -> None:
        self.done = threading.Event()
        self.marks: dict[str, float] = {}
        self.applied: dict[tuple[int, int], tuple[float, bool]] = {}
        self.driver = BotDriver(RandomBot(seed))
        self.sid: int | None = None
        self.node = RtcNode(name, on_event=self.on_event, ice_servers=())  # one machine

    def on_event(self, event: Any) -> None:
        now = time.monotonic()
        node = self.node
        if isinstance(event, ev.InviteReceived):
            node.accept(event.invite)
        elif isinstance(event, ev.SessionAgreed):
            self.sid = event.sid
            self.marks.setdefault("words", now)
        elif isinstance(event, ev.GameStarted):
            self.marks.setdefault("dealt", now)
        elif isinstance(event, ev.ActionApplied):
            # When the session applied it (its own clock reading), not when this handler,
            # busy with the bot's earlier moves, got to the event.
            self.applied[(event.game, event.index)] = (event.at, event.by_me)
        elif isinstance(event, ev.GameAudited):
            self.done.set()
            return
        if self.sid is not None and not self.done.is_set():
            view = node.view(self.sid)
            action = self.driver.choose(view) if view is not None else None
            if action is not None:
                # A move overtaken by the other seat's is refused: the next event asks again.
                with contextlib.suppress(IllegalAction, SessionError):
                    node.act(self.sid, action)


def run(seed: int) -> dict[str, Any]:
    ann, ben = Seat("Ann", seed), Seat("Ben", seed + 1)
    try:
        addr_a, invitation = ann.node.invitation()
        addr_b, reply = ben.node.reply(invitation)
        start = time.monotonic()
        ann.node.complete(addr_a, reply)
        assert ann.node.wait_open(addr_a, 30) and ben.node.wait_open(addr_b, 30)
        opened = time.monotonic()
        while not ann.node.peers():
            if time.monotonic() > start + 30:
                raise RuntimeError("Ben never appeared on the channel")
            time.sleep(0.001)
        ann.node.invite(ann.node.peers()[0].node)
        if not (ann.done.wait(120) and ben.done.wait(120)):
            raise RuntimeError("the game did not end in 120 s")
        moves = []
        for key, (t_a, mine_a) in ann.applied.items():
            if key in ben.applied:
                t_b, _ = ben.applied[key]
                moves.append((t_b - t_a) if mine_a else (t_a - t_b))
        return {
            "offer": len(invitation), "answer": len(reply),
            "open": opened - start,
            "words": max(ann.marks["words"], ben.marks["words"]) - start,
            "dealt": max(ann.marks["dealt"], ben.marks["dealt"]) - start,
            "moves": moves,
        }
    finally:
        ann.node.close(leave=True)
        ben.node.close(leave=True)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    results = [run(1000 + 2 * i) for i in range(args.runs)]
    lengths = sorted({(r["offer"], r["answer"]) for r in results})
    print(f"code lengths (offer, answer), characters: {lengths}")
    print(f"{'measure':34} {'n':>5} {'p50':>8} {'p90':>8} {'max':>8}   (ms)")
    for key, label in (("open", "reply given -> channel open"),
                       ("words", "reply given -> pairing words"),
                       ("dealt", "reply given -> first deal")):
        values = [r[key] * 1000 for r in results]
        print(f"{label:34} {len(values):5d} {statistics.median(values):8.1f} "
              f"{pct(values, 0.9):8.1f} {max(values):8.1f}")
    moves = [m * 1000 for r in results for m in r["moves"]]
    print(f"{'measure':34} {'n':>5} {'p50':>8} {'p99':>8} {'max':>8}   (ms)")
    print(f"{'move applied there':34} {len(moves):5d} {statistics.median(moves):8.2f} "
          f"{pct(moves, 0.99):8.2f} {max(moves):8.2f}")


if __name__ == "__main__":
    main()
