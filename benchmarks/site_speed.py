"""How fast durak is in the JupyterLite site: Python in the page (Pyodide), offline.

    python benchmarks/site_speed.py [--positions 30]

Builds site/ if needed (scripts/lite_site.py), serves it on 127.0.0.1 and opens it in
headless Debian Chromium with every request beyond this machine blocked, then prints:

- time to first table, cold and warm: from opening play.ipynb's page to the table drawn,
  the play cell run as a person would (Shift+Enter) once the kernel is ready.  Cold is a
  fresh browser profile (empty HTTP cache, no service worker); warm is the same page
  opened again in that profile.
- a bot's move in Pyodide: ISMCTS decisions on seeded mid-game positions (2 players,
  36 cards), timed with the kernel's clock, for the time budgets given, with the
  iterations each reached; and greedy's decision for scale.  The site's own ``ismcts``
  budget is chosen from these (durak_widgets/play.py).

Timings are of this machine (2 shared cores: figures move with its load).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import lite_site  # noqa: E402
from browser_support import (  # noqa: E402
    CHROMIUM_ARGS,
    TABLE_STATUS,
    OfflineContext,
    find_chromium,
    open_lite_notebook,
)

#: Runs in the site's kernel: times bot decisions on positions of seeded random games.
BOT_CELL = """
import json, random, sys, time
import durak_core
from durak_core import Game, Rules
from durak_core.bots import GreedyBot, IsmctsBot, RandomBot, next_to_act

def _positions(count, seed=1):
    found, rng, g = [], random.Random(seed), 0
    while len(found) < count:
        game, g = Game.new(Rules(), seed=seed * 1000 + g), g + 1
        while not game.is_over and len(found) < count:
            seat = next_to_act(game)
            legal = game.legal_actions(seat) if seat is not None else []
            if not legal:
                game.apply(game.automatic_actions()[0]); continue
            if len(legal) > 1 and rng.random() < 0.25:
                found.append((game.copy(), seat))
            game.apply(rng.choice(legal))
    return found

def _time(make, positions):
    times, iters = [], []
    for game, seat in positions:
        bot = make(); bot.start(seat, game.rules)
        started = time.perf_counter()
        bot.choose(game.observation(seat), game.legal_actions(seat))
        times.append(time.perf_counter() - started)
        iters.extend(getattr(bot, "history", []))
    times.sort()
    return {"median_ms": 1000 * times[len(times) // 2], "max_ms": 1000 * times[-1],
            "iterations": sorted(iters)}

_pos = _positions(POSITIONS)
_out = {"platform": sys.platform, "compiled": durak_core.COMPILED,
        "greedy": _time(lambda: GreedyBot(seed=1), _pos)}
for _ms in BUDGETS:
    _out[f"ismcts?ms={_ms}"] = _time(lambda: IsmctsBot(seed=1, ms=_ms), _pos)
print("BENCH " + json.dumps(_out))
"""


def time_to_table(page, url: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Seconds from opening play.ipynb to (kernel ready, table drawn)."""
    started = time.monotonic()
    open_lite_notebook(page, url, "play.ipynb")
    ready = time.monotonic() - started
    page.locator(".jp-NotebookPanel .jp-CodeCell .cm-content").first.click()
    page.keyboard.press("Shift+Enter")
    page.locator(TABLE_STATUS).wait_for(state="visible", timeout=180_000)
    return ready, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30, help="positions per bot")
    parser.add_argument("--ms", type=int, nargs="+", default=[100, 250, 500],
                        help="ISMCTS time budgets to time (ms)")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("needs Chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    site = lite_site.build()
    with lite_site.serving(site) as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=list(CHROMIUM_ARGS)
        )
        offline = OfflineContext(browser, viewport={"width": 1400, "height": 900})
        page = offline.context.new_page()
        page.set_default_timeout(180_000)
        cold = time_to_table(page, url)
        page.close()
        page = offline.context.new_page()
        page.set_default_timeout(180_000)
        warm = time_to_table(page, url)

        cell = BOT_CELL.replace("POSITIONS", str(args.positions)).replace(
            "BUDGETS", repr(args.ms)
        )
        page.keyboard.press("Escape")
        page.keyboard.press("b")
        page.keyboard.press("Enter")
        page.keyboard.insert_text(cell.strip())
        page.keyboard.press("Shift+Enter")
        output = page.locator(".jp-OutputArea-output").filter(has_text="BENCH ")
        output.wait_for(timeout=600_000)
        bots = json.loads(output.inner_text().split("BENCH ", 1)[1])
        browser.close()
    if offline.blocked:
        raise SystemExit(f"the site tried to reach: {offline.blocked}")

    print(f"JupyterLite site, {lite_site._size(site) / 1e6:.1f} MB; Chromium headless, "
          "network cut off")
    print("time to first table (page opened -> kernel ready -> table drawn):")
    print(f"  cold cache   kernel {cold[0]:5.1f} s   table {cold[1]:5.1f} s")
    print(f"  warm cache   kernel {warm[0]:5.1f} s   table {warm[1]:5.1f} s")
    engine = "compiled" if bots.pop("compiled") else "pure Python"
    print(f"a bot's decision in Pyodide ({bots.pop('platform')}, engine {engine}), "
          f"{args.positions} mid-game positions, 2 players, 36 cards:")
    for name, figures in bots.items():
        iterations = figures["iterations"]
        extra = ""
        if iterations:
            extra = (f"   iterations median {iterations[len(iterations) // 2]}, "
                     f"min {iterations[0]}")
        print(f"  {name:16} median {figures['median_ms']:7.1f} ms   "
              f"max {figures['max_ms']:7.1f} ms{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
