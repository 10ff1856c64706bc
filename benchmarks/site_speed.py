"""How fast durak is in the JupyterLite site: Python in the page (Pyodide), offline.

    python benchmarks/site_speed.py [--positions 30] [--ms 100 250 500]

Builds site/ if needed (scripts/lite_site.py), serves it on 127.0.0.1 and opens it in
headless Debian Chromium with every request beyond this machine blocked, then prints:

- time to first table, cold and warm: from opening play.ipynb's page to the table drawn
  (the notebook starts it by itself: lite/durak-start.js).  Cold is a fresh browser
  profile (empty HTTP cache, no service worker); warm is the same page opened again in
  that profile.  The cold start is split where it goes: the app shell (the notebook
  drawn), Pyodide's boot (the interpreter and micropip), the kernel's own packages
  (IPython and its kind), then the table's (durak and ipywidgets: load, import, draw).
  The split is read off what the page's kernel worker logs as it loads packages.
- the table alone: the same table on the site's page with no notebook around it
  (JupyterLite's REPL app: ``lite_site.TABLE_PATH``), cold, from opening it to the table
  drawn, and its ratio to the Lab site's first table.
- the bare kernel for scale: the same site, cold, a notebook that does not start by
  itself, from opening it to ``1+1`` printed (run as soon as the kernel is ready), and
  the ratio of the table's cold start to it.  The three cold starts take turns
  (``--runs`` each, medians, and the ratios within each round), as the machine's load
  moves them by seconds.
- a bot's move in Pyodide: ISMCTS decisions on seeded mid-game positions (2 players,
  36 cards), timed with the kernel's clock, for the time budgets given, with the
  iterations each reached; and greedy's decision for scale.  The site's own ``ismcts``
  budget is chosen from these (durak_widgets/play.py).

Timings are of this machine (2 shared cores: figures move with its load).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
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
    run_cell_source,
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


#: A notebook of the site that does not start by itself: the bare kernel's page.
BARE_NOTEBOOK = "01-rules-tour.ipynb"
#: What the kernel worker logs as Pyodide loads packages: "Loading a, b" / "Loaded a, b".
_PACKAGES = re.compile(r"^(Loading|Loaded) (.+)$")


class Timeline:
    """When (seconds after the page was opened) the page got where, and what it logged."""

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.started = time.monotonic()
        self.logged: list[tuple[float, str]] = []
        page.on("console", lambda message: self.logged.append(
            (time.monotonic() - self.started, message.text)))

    def now(self) -> float:
        return time.monotonic() - self.started

    def wait(self, js: str, timeout: float = 180.0) -> float:
        self.page.wait_for_function(js, timeout=timeout * 1000, polling=50)
        return self.now()

    def packages(self, word: str, name: str) -> float | None:
        """When the worker logged ``word`` ("Loading"/"Loaded") for a set holding ``name``."""
        for at, text in self.logged:
            match = _PACKAGES.match(text)
            if match and match.group(1) == word and name in match.group(2).split(", "):
                return at
        return None


def time_to_table(page, url: str) -> dict[str, float | None]:  # type: ignore[no-untyped-def]
    """Seconds from opening play.ipynb to each step of its start, the table drawn last."""
    timeline = Timeline(page)
    page.goto(f"{url}{lite_site.PLAY_PATH}")
    shell = timeline.wait("() => !!document.querySelector('.jp-NotebookPanel .jp-CodeCell')")
    table = timeline.wait(f"() => !!document.querySelector('{TABLE_STATUS}')")
    return {
        "shell": shell,
        "micropip": timeline.packages("Loaded", "micropip"),
        "kernel": timeline.packages("Loaded", "ipython"),
        "durak loading": timeline.packages("Loading", "durak"),
        "durak loaded": timeline.packages("Loaded", "durak"),
        "table": table,
    }


#: True once the open notebook's kernel has started and is idle (window.jupyterapp: the
#: site's jupyter-lite.json exposes it).
_KERNEL_IDLE_JS = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const session = panel && panel.sessionContext && panel.sessionContext.session;
  return !!session && !!session.kernel && session.kernel.status === 'idle';
}"""


def time_to_one_plus_one(page, url: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Seconds from opening a notebook that does not start by itself to (kernel ready,
    ``1+1`` printed): the cell is typed and run as soon as the kernel is idle."""
    timeline = Timeline(page)
    page.goto(f"{url}lab/index.html?path={BARE_NOTEBOOK}")
    ready = timeline.wait(_KERNEL_IDLE_JS)
    run_cell_source(page, 0, "1+1")
    timeline.wait(
        """() => [...document.querySelectorAll('.jp-OutputArea-output')]
              .some((o) => o.textContent.trim() === '2')"""
    )
    return ready, timeline.now()


def time_to_table_alone(page, url: str) -> float:  # type: ignore[no-untyped-def]
    """Seconds from opening the table-alone page (the REPL app, no notebook) to the table
    drawn."""
    timeline = Timeline(page)
    page.goto(f"{url}{lite_site.TABLE_PATH}")
    return timeline.wait(f"() => !!document.querySelector('{TABLE_STATUS}')")


def _cold(browser, measure):  # type: ignore[no-untyped-def]
    """``measure(page)`` in a fresh profile (empty HTTP cache); its result and the sites
    the page tried to reach beyond this machine."""
    offline = OfflineContext(browser, viewport={"width": 1400, "height": 900})
    page = offline.context.new_page()
    page.set_default_timeout(180_000)
    result = measure(page)
    offline.close()
    return result, offline.blocked


def _split(cold: dict[str, float | None]) -> list[tuple[str, float]]:
    """The cold start's steps, each with its own seconds (steps not seen are left out)."""
    steps = [
        ("app shell (JupyterLab drawn)", "shell"),
        ("Pyodide's boot (interpreter, micropip)", "micropip"),
        ("the kernel's packages (IPython...)", "kernel"),
        ("kernel ready to the game's packages asked", "durak loading"),
        ("durak + ipywidgets loaded", "durak loaded"),
        ("import durak_widgets, play(), drawn", "table"),
    ]
    split, last = [], 0.0
    for label, key in steps:
        at = cold.get(key)
        if at is not None:
            split.append((label, at - last))
            last = at
    return split


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30, help="positions per bot")
    parser.add_argument("--runs", type=int, default=3,
                        help="cold starts of each page (the table's, the bare kernel's, "
                        "the table alone)")
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
        # Cold starts of the three pages in turn, each in a fresh profile, so that the
        # machine's load falls on all alike; medians are compared, and the ratios of the
        # starts of one round (next to each other in time, so under about the same load).
        colds: list[dict[str, float | None]] = []
        bares: list[tuple[float, float]] = []
        alones: list[float] = []
        blocked: list[str] = []
        for _ in range(args.runs):
            offline = OfflineContext(browser, viewport={"width": 1400, "height": 900})
            page = offline.context.new_page()
            page.set_default_timeout(180_000)
            colds.append(time_to_table(page, url))
            page.close()
            bare, more = _cold(browser, lambda page: time_to_one_plus_one(page, url))
            bares.append(bare)
            blocked += more
            alone, more = _cold(browser, lambda page: time_to_table_alone(page, url))
            alones.append(alone)
            blocked += more
            if len(colds) < args.runs:
                offline.close()
                blocked += offline.blocked

        page = offline.context.new_page()
        page.set_default_timeout(180_000)
        warm = time_to_table(page, url)

        cell = BOT_CELL.replace("POSITIONS", str(args.positions)).replace(
            "BUDGETS", repr(args.ms)
        )
        page.locator(".jp-NotebookPanel .jp-CodeCell .jp-InputArea-prompt").first.click()
        page.keyboard.press("Escape")
        page.keyboard.press("b")
        page.keyboard.press("Enter")
        page.keyboard.insert_text(cell.strip())
        page.keyboard.press("Shift+Enter")
        output = page.locator(".jp-OutputArea-output").filter(has_text="BENCH ")
        output.wait_for(timeout=600_000)
        bots = json.loads(output.inner_text().split("BENCH ", 1)[1])
        browser.close()
    if offline.blocked or blocked:
        raise SystemExit(f"the site tried to reach: {offline.blocked + blocked}")

    tables = [c["table"] for c in colds]
    warm_table = warm["table"]
    assert None not in tables and warm_table is not None
    cold_table = statistics.median(t for t in tables if t is not None)
    cold = next(c for c in colds if c["table"] == cold_table) if args.runs % 2 else colds[0]
    bare_ready = statistics.median(b[0] for b in bares)
    bare_printed = statistics.median(b[1] for b in bares)
    runs = ", ".join(f"{t:.1f}" for t in tables if t is not None)
    print(f"JupyterLite site, {lite_site._size(site) / 1e6:.1f} MB; Chromium headless, "
          "network cut off")
    print("time to first table (play.ipynb's page opened -> the table drawn by itself):")
    print(f"  cold cache   {cold_table:5.1f} s   (median of {args.runs}: {runs})")
    print(f"  warm cache   {warm_table:5.1f} s")
    print("the cold start, step by step (the median run):")
    for label, seconds in _split(cold):
        print(f"  {label:44} {seconds:5.1f} s")
    own = [c["table"] - c["durak loading"] for c in colds
           if c["table"] is not None and c["durak loading"] is not None]
    if own:
        print(f"  the table's own part (its packages asked -> drawn): median "
              f"{statistics.median(own):.2f} s   (runs: " + ", ".join(f"{o:.2f}" for o in own)
              + ")")
    printed = ", ".join(f"{b[1]:.1f}" for b in bares)
    print(f"the bare kernel, cold ({BARE_NOTEBOOK}): ready {bare_ready:5.1f} s, "
          f"1+1 printed {bare_printed:5.1f} s   (medians of {args.runs}: {printed})")
    print(f"  first table / bare kernel's 1+1 (medians): {cold_table / bare_printed:.2f}")
    paired = sorted(t / b[1] for t, b in zip(tables, bares, strict=True) if t is not None)
    print("  the same, run by run (sorted): " + ", ".join(f"{r:.2f}" for r in paired)
          + f"; median {statistics.median(paired):.2f}")
    alone = statistics.median(alones)
    print(f"the table alone ({lite_site.TABLE_PATH.split('?')[0]}: JupyterLite's REPL, no "
          f"notebook), cold: {alone:5.1f} s   (median of {args.runs}: "
          + ", ".join(f"{a:.1f}" for a in alones) + ")")
    by_run = sorted(a / t for a, t in zip(alones, tables, strict=True) if t is not None)
    print(f"  table alone / the Lab site's first table (medians): {alone / cold_table:.2f};"
          " run by run (sorted): " + ", ".join(f"{r:.2f}" for r in by_run))
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
