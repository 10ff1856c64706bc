"""What the table's first cell costs inside the page, for one or more built sites.

    python benchmarks/site_imports.py [SITE ...] [--rounds 4]

For each site folder (default: this checkout's site/, built if needed), opens a notebook
that does not start by itself (cold, network cut off), waits for the kernel, then runs
``from durak_widgets import play`` and ``play()``, each timed with the kernel's own clock,
so the machine's load on the page's start does not enter.  Sites take turns, round by
round, so that two builds (say, of two checkouts) are compared under the same load:

    python benchmarks/site_imports.py /path/to/old-checkout/site site --rounds 4

Timings are of this machine (2 shared cores: figures move with its load).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "benchmarks"))

import lite_site  # noqa: E402
from browser_support import CHROMIUM_ARGS, OfflineContext, find_chromium, run_cell_source  # noqa: E402
from site_speed import _KERNEL_IDLE_JS, BARE_NOTEBOOK  # noqa: E402

#: Runs in the page's kernel: prints the seconds of the import and of play().
CELL = (
    "import time; _t = time.perf_counter(); from durak_widgets import play; "
    "_a = time.perf_counter() - _t; _t = time.perf_counter(); _table = play(); "
    "print('TIMES', _a, time.perf_counter() - _t)"
)


def time_cell(browser, url: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """(import, play()) seconds in a cold page of the site served at ``url``."""
    offline = OfflineContext(browser, viewport={"width": 1280, "height": 800})
    try:
        page = offline.context.new_page()
        page.set_default_timeout(180_000)
        page.goto(f"{url}lab/index.html?path={BARE_NOTEBOOK}")
        page.wait_for_function(_KERNEL_IDLE_JS, timeout=180_000, polling=100)
        run_cell_source(page, 0, CELL)
        output = page.locator(".jp-OutputArea-output").filter(has_text="TIMES")
        output.wait_for(timeout=180_000)
        _, imported, played = output.inner_text().split()[:3]
    finally:
        offline.close()
    if offline.blocked:
        raise SystemExit(f"the site tried to reach: {offline.blocked}")
    return float(imported), float(played)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sites", nargs="*", type=Path, help="built site folders (default: site/)")
    parser.add_argument("--rounds", type=int, default=4, help="cold pages of each site")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("needs Chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    sites = args.sites or [lite_site.build()]
    times: dict[Path, list[tuple[float, float]]] = {site: [] for site in sites}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=list(CHROMIUM_ARGS)
        )
        for _ in range(args.rounds):
            for site in sites:
                with lite_site.serving(site) as url:
                    times[site].append(time_cell(browser, url))
        browser.close()
    print(f"in the page, kernel's clock, {args.rounds} cold pages each (medians; runs):")
    for site, runs in times.items():
        imports = [i for i, _ in runs]
        plays = [p for _, p in runs]
        print(f"  {site!s:40} import {statistics.median(imports):5.2f} s "
              f"({', '.join(f'{i:.2f}' for i in imports)});  play() "
              f"{statistics.median(plays):5.2f} s ({', '.join(f'{p:.2f}' for p in plays)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
