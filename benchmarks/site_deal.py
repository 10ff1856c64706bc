"""The hidden-hand deal's libsodium work in the site's kernel and on this computer.

    python benchmarks/site_deal.py [--runs 20]

One run is the ristretto255 work of a whole two-seat, 36-card deal, as the two seats do
it between them (durak_net.mental, the same code in both places): the three passes
(seat 0 shuffles, seat 1 shuffles and locks, seat 0 locks), each pass checked point by
point by the seat it reaches (``crypto_core_ristretto255_is_valid_point``, as the
dealer does), and the whole deck then opened with both seats' keys (what the hands,
the trump, the draws and the audit open between them, at most).  The messages between
the seats are not part of it.  Fresh seeds each run; one run first to warm up (the card
points are computed once a process).

In the site (scripts/lite_site.py builds it; served on 127.0.0.1, opened in headless
Debian Chromium, nothing beyond this machine reachable) the kernel is Pyodide and
libsodium is libsodium.js (its WebAssembly build, durak_net/sodium_js.py); here it is
pysodium over the system's libsodium.  The two take turns, a batch of runs each (the
machine's load moves the figures).  Prints the median and the fastest run of each,
their ratio, and the machine's load average before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

#: Runs in both places, once: the deal, and a warm-up run (the card points are computed
#: once a process).
SETUP = '''
import hashlib, json, time
from durak_core.cards import new_deck
from durak_net import mental

def deal_once(seeds):
    sodium = mental.sodium()
    indices = sorted(c.index for c in new_deck(36))
    deck = mental.initial_deck(36, indices)
    for step in (lambda d: mental.shuffle_pass(seeds[0], d),
                 lambda d: mental.shuffle_lock_pass(seeds[1], d),
                 lambda d: mental.lock_pass(seeds[0], d)):
        deck = step(deck)
        if not all(sodium.crypto_core_ristretto255_is_valid_point(p) for p in deck):
            raise AssertionError("a pass gave a non-point")
    opened = [mental.open_card(p, [mental.card_key(s, j) for s in seeds])
              for j, p in enumerate(deck)]
    if sorted(opened) != indices:
        raise AssertionError("the deck did not open to its cards")

def seeds_of(run):
    return [hashlib.blake2b(f"bench {run} seat {s}".encode(), digest_size=32).digest()
            for s in (0, 1)]

deal_once(seeds_of(-1))
'''
#: Runs in both places for each batch (FIRST and RUNS replaced): one JSON line of the
#: batch's run times in ms.
BATCH = '''
times = []
for run in range(FIRST, FIRST + RUNS):
    seeds = seeds_of(run)
    start = time.perf_counter()
    deal_once(seeds)
    times.append((time.perf_counter() - start) * 1000)
library = mental.sodium()
print("DEAL " + json.dumps({"backend": getattr(library, "__name__", type(library).__name__),
                           "ms": times}))
'''


def parse(out: str) -> dict[str, Any]:
    line = next(x for x in out.splitlines() if x.startswith("DEAL "))
    result: dict[str, Any] = json.loads(line[len("DEAL "):])
    return result


def batch(first: int, runs: int) -> str:
    return BATCH.replace("FIRST", str(first)).replace("RUNS", str(runs))


def run_here(code: str, namespace: dict[str, Any]) -> str:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(code, namespace)
    return buffer.getvalue()


def measure(runs: int, batches: int) -> dict[str, dict[str, Any]]:
    """Batches of deals here and in the site's kernel, in turn (the machine's load falls
    on both alike)."""
    import lite_site
    from browser_support import (
        CHROMIUM_ARGS,
        OfflineContext,
        find_chromium,
        open_lite_notebook,
        run_in_site_kernel,
    )
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("needs Chromium (apt-get install chromium)")
    site = lite_site.build()
    results: dict[str, dict[str, Any]] = {"here": {"ms": []}, "site": {"ms": []}}
    namespace: dict[str, Any] = {}
    run_here(SETUP, namespace)
    with lite_site.serving(site) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True,
                                             args=list(CHROMIUM_ARGS))
        offline = OfflineContext(browser, viewport={"width": 1400, "height": 900})
        page = offline.context.new_page()
        open_lite_notebook(page, url, "02-engine.ipynb", timeout=300)
        run_in_site_kernel(page, "from durak_net import mental\nawait mental.load_sodium()")
        run_in_site_kernel(page, SETUP, timeout=300)
        size = max(1, runs // batches)
        for first in range(0, runs, size):
            for where, out in (
                ("here", run_here(batch(first, size), namespace)),
                ("site", run_in_site_kernel(page, batch(first, size), timeout=600)),
            ):
                got = parse(out)
                results[where]["backend"] = got["backend"]
                results[where]["ms"] += got["ms"]
        browser.close()
    if offline.blocked:
        raise SystemExit(f"the site tried to reach: {offline.blocked}")
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="deals timed in each place")
    parser.add_argument("--batches", type=int, default=4,
                        help="turns between the two places")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    results = measure(args.runs, args.batches)
    load_after = os.getloadavg()[0]
    medians = {}
    for where, label in (("here", "this computer"), ("site", "the site's kernel")):
        ms = results[where]["ms"]
        medians[where] = statistics.median(ms)
        print(f"{label:18} ({results[where]['backend']}): a two-seat 36-card deal's "
              f"libsodium work, median {medians[where]:.1f} ms, fastest {min(ms):.1f} ms "
              f"({len(ms)} runs)")
    print(f"the site / this computer: {medians['site'] / medians['here']:.1f} times (medians)")
    print(f"load average (1 min): {load_before:.1f} before, {load_after:.1f} after")
    return 0


if __name__ == "__main__":
    sys.exit(main())
