"""How long the kernel spends redrawing the table after a move, and what it sends.

Plays whole games against the random bot by clicking the widgets (as the tests do),
times every ``TableController.refresh()`` (model from the observation + updating the
widgets), and counts the comm messages and bytes the refresh sends: one message once
the page has said it applies batched redraws (durak_widgets.sync), as a page does; the
last line of each size is without that, a message per widget changed.  Widget messages
are serialised with jupyter_client's JSON packer, as a kernel would, so the time
includes building and encoding every message; only the socket write is missing.

    python benchmarks/widget_refresh.py [--games 10] [--players 2] [--seed 1]

Only refreshes that changed something count (a click that only explains itself
refreshes too, and sends next to nothing).  Each setting is measured twice: as is,
and with Python's cyclic garbage collector paused, because a collection that happens
to start inside a refresh adds a few milliseconds that are not the refresh's own cost.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import comm
from comm.base_comm import BaseComm
from jupyter_client.session import json_packer

from durak_core import Rules
from durak_widgets import Handoff, TableController, play


class CountingComm(BaseComm):
    """A comm that encodes each message as a kernel would and counts what it sent."""

    messages = 0
    bytes = 0

    def publish_msg(
        self,
        msg_type: str,
        data: Any = None,
        metadata: Any = None,
        buffers: Any = None,
        **keys: Any,
    ) -> None:
        payload = json_packer({"comm_id": self.comm_id, "data": data or {}, **keys})
        CountingComm.messages += 1
        CountingComm.bytes += len(payload)


def click_random_move(table: TableController, rng: random.Random) -> None:
    """One move for the person at the screen, by clicking a shown option."""
    view = table.view
    options: list[Any] = [b for b in view.visible_hand() if "durak-playable" in b._dom_classes]
    options += [b for n, b in view.visible_buttons().items() if n != "transfer"]
    rng.choice(options).click()
    if table.selected is not None:
        targets = [a for a, _ in view.visible_pairs() if "durak-target" in a._dom_classes]
        if targets:
            rng.choice(targets).click()
        else:
            view.buttons["transfer"].click()


def measure(games: int, players: int, variant: str, seed: int, collect: bool,
            batched: bool = True) -> str:
    rng = random.Random(seed)
    timings: list[float] = []
    sent: list[tuple[int, int]] = []
    for g in range(games):
        table = play(
            opponents=["random"] * (players - 1),
            rules=Rules(players=players, variant=variant),
            seed=seed + g,
            delay=0,
            handoff=Handoff(mode="sync"),
        )
        if batched:  # what a page that applies batched redraws says (durak_widgets.sync)
            table.view.sync._from_page(table.view.sync, {"event": "batching"}, [])
        original = table.refresh

        def timed_refresh(original: Any = original) -> None:
            messages, size = CountingComm.messages, CountingComm.bytes
            start = time.perf_counter()
            original()
            timings.append(time.perf_counter() - start)
            sent.append((CountingComm.messages - messages, CountingComm.bytes - size))

        table.refresh = timed_refresh  # type: ignore[method-assign]
        game = table.backend.game  # type: ignore[attr-defined]
        if not collect:
            gc.disable()
        try:
            while not game.is_over:
                click_random_move(table, rng)
                game = table.backend.game  # type: ignore[attr-defined]
        finally:
            gc.enable()
        table.close()
    changed = [i for i, (messages, _) in enumerate(sent) if messages]
    timings = [timings[i] for i in changed]
    sent = [sent[i] for i in changed]
    ms = sorted(t * 1000 for t in timings)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    messages = statistics.mean(m for m, _ in sent)
    kilobytes = statistics.mean(b for _, b in sent) / 1000
    gc_note = ("" if collect else ", cyclic GC paused") + (
        "" if batched else ", a message per widget")
    return (
        f"refresh after a move ({players} players, {variant}{gc_note}): "
        f"median {statistics.median(ms):.2f} ms, p95 {p95:.2f} ms, max {ms[-1]:.2f} ms "
        f"over {len(ms)} refreshes; {messages:.1f} messages, {kilobytes:.1f} kB each"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    comm.create_comm = CountingComm  # widgets made from here on talk through it
    start = time.perf_counter()
    table = play(opponents=["random"], seed=args.seed, delay=0, handoff=Handoff(mode="sync"))
    created = (time.perf_counter() - start) * 1000
    print(f"table creation (all widgets, first refresh): {created:.1f} ms")
    table.close()
    for players in args.players:
        for collect in (True, False):
            print(measure(args.games, players, "podkidnoy", args.seed, collect))
        print(measure(args.games, players, "podkidnoy", args.seed, True, batched=False))


if __name__ == "__main__":
    main()
