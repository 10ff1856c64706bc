"""How long a click takes to show in the page: the kernel websocket with and without
TCP_NODELAY (what ``scripts/play.sh`` sets, durak_server/websocket.py).

    python benchmarks/click_latency.py [--clicks 60] [--moves 40]

Starts JupyterLab twice on this machine (the stock kernel websocket, then the one
play.sh names), and then Voila twice likewise (the table only, as ``play.sh --app``),
and, in headless Debian Chromium, times from a click to the page's DOM showing the
kernel's answer:

- a bare ipywidgets Button whose click handler changes a Label (``--clicks`` clicks,
  clicked from the page's own script, 30 ms apart);
- the durak table: a seeded game against the random bot (no delay), played by clicking
  as a simple person would; each move's click is timed to the status line's move counter
  changing (the status is the last widget a refresh updates: the whole table is drawn).
  In Lab and in the Voila app.

Both times are taken in the page (``performance.now()`` at the click event and in a
MutationObserver), so Playwright's own round trips are not in them.  Prints p50 and p90
of each, per server.  Timings are of this machine (2 shared cores: they move with its
load; the difference between the two servers is the point).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from browser_support import (  # noqa: E402
    CHROMIUM_ARGS,
    PATH_CELL,
    TABLE_ROOT,
    find_chromium,
    free_port,
    lab_command,
    move_marker,
    run_notebook_in_lab,
    running_server,
    voila_command,
    wait_settled,
    write_notebook,
    write_user_settings,
)

from durak_server.websocket import CLASS_NAME  # noqa: E402

BUTTON_CELL = """
import ipywidgets as widgets
_button = widgets.Button(description="click")
_button.add_class("bench-button")
_label = widgets.Label("0")
_label.add_class("bench-label")
_button.on_click(lambda _: setattr(_label, "value", str(int(_label.value) + 1)))
widgets.VBox([_button, _label])
"""
TABLE_CELL = "from durak_widgets import play\nplay(opponents=['random'], seed=SEED, delay=0)"

#: Clicks the Button ``n`` times from the page; each time until the Label changed (ms).
_BUTTON_JS = """
async (n) => {
  const button = document.querySelector('.bench-button');
  const label = document.querySelector('.bench-label');
  const times = [];
  for (let i = 0; i < n; i++) {
    const before = label.textContent;
    const started = performance.now();
    await new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (label.textContent !== before) { observer.disconnect(); resolve(); }
      });
      observer.observe(label, {subtree: true, childList: true, characterData: true});
      button.click();
    });
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  return times;
}
"""
#: Records the time of the next click, and of the move counter's next change after it.
_ARM_JS = """
(old) => {
  window.__clickAt = null;
  window.__drawnAt = null;
  document.addEventListener('click', () => {
    if (window.__clickAt === null) { window.__clickAt = performance.now(); }
  }, {capture: true, once: true});
  const status = document.querySelector('.durak-root .durak-status');
  if (window.__benchObserver) { window.__benchObserver.disconnect(); }
  window.__benchObserver = new MutationObserver(() => {
    const marker = status.querySelector('.durak-move');
    if (window.__clickAt !== null && window.__drawnAt === null && marker
        && marker.textContent !== old) {
      window.__drawnAt = performance.now();
    }
  });
  window.__benchObserver.observe(status, {subtree: true, childList: true, characterData: true});
}
"""


def _timed_click(page: Any, locator: Any, marker: str) -> float:
    """Click ``locator``; ms from the click to the move counter leaving ``marker``."""
    page.evaluate(_ARM_JS, marker)
    locator.click()
    page.wait_for_function("() => window.__drawnAt !== null", timeout=20_000, polling=10)
    return float(page.evaluate("() => window.__drawnAt - window.__clickAt"))


def table_moves(page: Any, moves: int) -> list[float]:
    """Play the table by clicking until ``moves`` moves were timed (new games as needed)."""
    root = TABLE_ROOT
    playable = page.locator(f"{root} .durak-hand button.durak-playable:visible")
    pass_button = page.locator(f"{root} .durak-btn-pass:visible")
    take_button = page.locator(f"{root} .durak-btn-take:visible")
    new_game = page.locator(f"{root} .durak-btn-new:visible")
    selected = page.locator(f"{root} .durak-hand button.durak-selected")
    times: list[float] = []
    marker = ""
    while len(times) < moves:
        wait_settled(page, marker)
        marker = move_marker(page)
        if new_game.count():
            new_game.first.click()
            wait_settled(page, marker)
            marker = move_marker(page)
        page.locator(
            f"{root} .durak-hand button.durak-playable:visible, "
            f"{root} .durak-btn-pass:visible, {root} .durak-btn-take:visible"
        ).first.wait_for(state="visible", timeout=15_000)
        if pass_button.count():
            times.append(_timed_click(page, pass_button.first, marker))
        elif playable.count():
            card = playable.first
            page.evaluate(_ARM_JS, marker)
            card.click()
            page.wait_for_function(
                """() => window.__drawnAt !== null
                  || document.querySelector('.durak-root .durak-hand button.durak-selected')""",
                timeout=20_000, polling=10,
            )
            if selected.count():  # a card to beat with: the second click makes the move
                target = page.locator(f"{root} .durak-pair button.durak-target").first
                times.append(_timed_click(page, target, marker))
            else:
                times.append(float(page.evaluate("() => window.__drawnAt - window.__clickAt")))
        elif take_button.count():
            times.append(_timed_click(page, take_button.first, marker))
    return times


def measure(browser: Any, connection_class: str | None, clicks: int, moves: int,
            work: Path) -> dict[str, list[float]]:
    """Both timings against a fresh JupyterLab (``connection_class``: its kernel websocket)."""
    name = "nodelay" if connection_class else "stock"
    root = work / name
    root.mkdir()
    write_notebook(root / "button.ipynb", [PATH_CELL, BUTTON_CELL])
    write_notebook(root / "table.ipynb", [PATH_CELL, TABLE_CELL.replace("SEED", "3")])
    state = work / f"{name}-state"
    write_user_settings(state / "settings")
    port = free_port()
    command = lab_command(root, port, state / "settings", state / "workspaces")
    if connection_class:
        command.append(f"--ServerApp.kernel_websocket_connection_class={connection_class}")
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(state / "runtime"), JUPYTER_PLATFORM_DIRS="1")
    url = f"http://127.0.0.1:{port}/"
    with running_server(command, url + "api/status", work / f"{name}.log", env=env):
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.set_default_timeout(120_000)
        run_notebook_in_lab(page, url, "button.ipynb")
        page.evaluate(_BUTTON_JS, 5)  # warm up: the first clicks load code
        button = list(page.evaluate(_BUTTON_JS, clicks))
        run_notebook_in_lab(page, url, "table.ipynb")
        table = table_moves(page, moves)
        context.close()
    return {"button": button, "table": table}


def measure_voila(browser: Any, connection_class: str | None, moves: int,
                  work: Path) -> list[float]:
    """The table's timing in a Voila app (``connection_class``: its kernel websocket)."""
    name = "voila-nodelay" if connection_class else "voila-stock"
    folder = work / name
    notebook = write_notebook(folder / "table.ipynb",
                              [PATH_CELL, TABLE_CELL.replace("SEED", "3")])
    port = free_port()
    command = voila_command(notebook, port)
    if connection_class:
        command.append(f"--Voila.kernel_websocket_connection_class={connection_class}")
    url = f"http://127.0.0.1:{port}/"
    with running_server(command, url, work / f"{name}.log", cwd=folder):
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.set_default_timeout(120_000)
        page.goto(url)
        page.locator(f"{TABLE_ROOT} .durak-status").wait_for(timeout=120_000)
        table = table_moves(page, moves)
        context.close()
    return table


def _summary(times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"p50 {statistics.median(ordered):6.1f} ms   p90 {p90:6.1f} ms   (n={len(ordered)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=60, help="Button clicks per server")
    parser.add_argument("--moves", type=int, default=40, help="table moves per server")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("needs Chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    results = {}
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="durak-clicks-") as tmp, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, headless=True, args=list(CHROMIUM_ARGS)
        )
        for label, connection_class in (("stock", None), ("TCP_NODELAY", CLASS_NAME)):
            results[label] = measure(browser, connection_class, args.clicks, args.moves,
                                     Path(tmp))
            results[label]["voila"] = measure_voila(browser, connection_class, args.moves,
                                                    Path(tmp))
        browser.close()
    print("click to DOM, headless Chromium on this machine "
          f"({time.monotonic() - started:.0f} s in all):")
    for label, figures in results.items():
        print(f"  {label:12} JupyterLab, bare Button   {_summary(figures['button'])}")
        print(f"  {'':12} JupyterLab, durak table   {_summary(figures['table'])}")
        print(f"  {'':12} Voila app, durak table    {_summary(figures['voila'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
