"""How long the hidden-hand deal and the end-of-game audit take, over loopback UDP.

Two processes (two peers, as two kernels would be) play random-bot games through
:class:`durak_net.node.LanNode`, with no thinking time.  On the system-wide monotonic
clock, each records when it agreed to deal a game and when the game was dealt
(``GameStarted``: its hand, the trump and the first attacker known), when the game
ended and when its audit was done.  The figures:

* **deal**: from the moment both peers have agreed to a game (the later agreement)
  until both hold their dealt view: three passes of the deck, the keys of both hands
  and the trump, the rounds that find the lowest trump;
* **first deal**: the same for game 1, from the invitee's Accept (so the pairing's
  round trips are included);
* **audit**: from the game's end until both peers have audited it (both seeds
  published and exchanged, the whole deal and game recomputed);
* **audit (compute)**: the audit itself, in one process, without the network.

Usage::

    python benchmarks/net_deal.py                  # 24, 36 and 52 cards, 20 games each
    python benchmarks/net_deal.py --games 5 --decks 36
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from net_pair import FATAL, REPO, percentile, play, run_pair

from durak_core import Rules
from durak_core.bots import RandomBot
from durak_net import events as ev
from durak_net.audit import audit
from durak_net.botplay import BotDriver
from durak_net.node import LanNode


def child(role: str, port: int, games: int, deck: int, seed: int) -> None:
    """One peer: play ``games`` games, then print its timings (JSON)."""
    node = LanNode(role, port=port, rules=Rules(deck_size=deck))
    times: dict[str, dict[int, float]] = {"agreed": {}, "dealt": {}, "over": {}, "audited": {}}
    fair: list[bool] = []

    def handle(event: Any) -> bool:
        if isinstance(event, ev.InviteReceived):
            times["agreed"][1] = time.monotonic()  # (accepted right after)
        elif isinstance(event, ev.GameStarted):
            times["dealt"][event.game] = event.at
        elif isinstance(event, ev.GameFinished):
            times["over"][event.game] = event.at
        elif isinstance(event, ev.GameAudited):
            times["audited"][event.game] = event.at
            fair.append(event.fair)
            if len(times["audited"]) < games:
                times["agreed"][event.game + 1] = time.monotonic()
                node.start_next_game(event.sid, event.game + 1)
        # (NextGameRequested: we agree once our own audit is done, above.)
        return len(times["audited"]) >= games

    play(role, node, BotDriver(RandomBot(seed)), handle, poll=0.02,
         fatal=(*FATAL, ev.GameStopped))
    print(json.dumps({"times": times, "fair": fair}))


def measure(games: int, deck: int) -> dict[str, list[float]]:
    data = run_pair(__file__, ["--games", str(games), "--decks", str(deck)])
    if not all(all(data[r]["fair"]) for r in data):
        raise SystemExit("an audit was not fair")
    t = {r: {k: {int(g): v for g, v in d.items()} for k, d in data[r]["times"].items()}
         for r in data}
    first: list[float] = []
    deals: list[float] = []
    audits: list[float] = []
    for game in range(1, games + 1):
        dealt = max(t[r]["dealt"][game] for r in t)
        if game == 1:
            first.append(dealt - t["fol"]["agreed"][1])
        else:
            deals.append(dealt - max(t[r]["agreed"][game] for r in t))
        audits.append(max(t[r]["audited"][game] for r in t) - max(t[r]["over"][game] for r in t))
    return {"first deal (incl. pairing)": first, "deal": deals, "audit (both sides)": audits}


def audit_compute(deck: int, repeats: int) -> list[float]:
    """The audit alone, in this process, on games played in memory."""
    sys.path.insert(0, str(REPO / "tests" / "net"))
    from mental_table import Table

    out = []
    for seed in range(repeats):
        table = Table(Rules(deck_size=deck), seed)
        table.deal()
        table.play_out(random.Random(seed))
        table.publish_seeds()
        started = time.perf_counter()
        verdict = audit(table.dealers[0], table.rules, table.log)
        out.append(time.perf_counter() - started)
        assert verdict.fair
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--decks", type=int, nargs="*", default=[24, 36, 52])
    parser.add_argument("--child", choices=["seq", "fol"], help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.port, args.games, args.decks[0], args.seed)
        return
    print(f"loopback UDP, two processes, {args.games} random-bot games per deck; times in ms")
    print(f"{'cards':>5}  {'measure':<27} {'n':>4} {'p50':>8} {'p90':>8} {'max':>8}")
    for deck in args.decks:
        rows = measure(args.games, deck)
        rows["audit (compute)"] = audit_compute(deck, args.games)
        for name, values in rows.items():
            ms = [v * 1000 for v in values]
            print(f"{deck:>5}  {name:<27} {len(ms):>4} {statistics.median(ms):>8.1f} "
                  f"{percentile(ms, 0.9):>8.1f} {max(ms):>8.1f}")


if __name__ == "__main__":
    main()
