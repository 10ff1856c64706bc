"""How fast ``online()`` is between two JupyterLab pages on this machine.

    python benchmarks/online_latency.py [--games 2] [--nodelay]

Starts JupyterLab and headless Debian Chromium, opens two notebooks in two tabs (two
kernels), and for each game: ``online(name="Ann")`` in one, its invitation code pasted
into ``online(name="Ben", code=...)`` in the other, Ben's reply code pasted into Ann's
box and Connect clicked, as two people would; greedy bots play both seats, with no ICE
server (the pages reach each other on this machine).  Two figures, taken inside the
pages (one browser, one clock: ``performance.timeOrigin + performance.now()``):

- **paste to table**: from the click on Connect (the reply pasted) to the table drawn
  in both pages (the data channel opened, the lobbies met over it, paired, dealt the
  hidden hands);
- **move latency**: for every move of the game, from the moment one page drew it (the
  move counter in the status line changed) to the moment the other page drew the same
  move: the proposer's kernel applies it, the datagram crosses its page, the data
  channel and the other page to the other kernel, which applies it and redraws its page.
  p50 and p99 over all moves.

``--nodelay``: serve the kernel websocket with TCP_NODELAY (durak_server.websocket, what
``scripts/play.sh`` names) instead of jupyter_server's stock one.  Prints the figures and
the machine's load average.
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
    clear_lab,
    find_chromium,
    free_port,
    lab_command,
    run_cell_source,
    run_notebooks_in_lab,
    running_server,
    write_notebook,
    write_user_settings,
)

LOBBY = ".durak-online"
OPTIONS = "ice_servers=[], bot='greedy', seed={seed}, lang='en'"

#: Records, in the page, when each move counter text was first drawn, when the table
#: first appeared, and when Connect was clicked.
_RECORD_JS = """
() => {
  const at = () => performance.timeOrigin + performance.now();
  window.__moves = {};
  window.__tableAt = null;
  window.__connectAt = null;
  document.addEventListener('click', (event) => {
    if (event.target.closest('.durak-online-connect') && window.__connectAt === null) {
      window.__connectAt = at();
    }
  }, {capture: true});
  const look = () => {
    const status = document.querySelector('.durak-online .durak-root .durak-status');
    if (!status) return;
    if (window.__tableAt === null) window.__tableAt = at();
    const marker = status.querySelector('.durak-move');
    const text = marker ? marker.textContent : '';
    if (text && !(text in window.__moves)) window.__moves[text] = at();
  };
  if (window.__recorder) window.__recorder.disconnect();
  window.__recorder = new MutationObserver(look);
  window.__recorder.observe(document.body, {subtree: true, childList: true,
                                            characterData: true});
}
"""
_RESULT_JS = "() => ({moves: window.__moves, table: window.__tableAt, connect: window.__connectAt})"


def one_game(ann: Any, ben: Any, url: str, root: Path, game: int) -> tuple[float, list[float]]:
    """One game between the two tabs; returns (paste to table in ms, move latencies)."""
    ann_nb = f"bench-{game}/ann.ipynb"
    ben_nb = f"bench-{game}/ben.ipynb"
    write_notebook(root / ann_nb, [PATH_CELL, "from durak_widgets import online",
                                   f"online(name='Ann', {OPTIONS.format(seed=2 * game + 1)})"])
    write_notebook(root / ben_nb, [PATH_CELL, "from durak_widgets import online",
                                   "# the code goes here"])
    run_notebooks_in_lab([(ann, ann_nb), (ben, ben_nb)], url, timeout=300)
    invitation = ann.locator(f"{LOBBY} .durak-online-code textarea")
    invitation.wait_for(timeout=60_000)
    ann.wait_for_function(
        "() => (document.querySelector('.durak-online-code textarea') || {}).value", timeout=60_000)
    run_cell_source(ben, 2, f"online(name='Ben', code={invitation.input_value()!r}, "
                    + OPTIONS.format(seed=2 * game + 2) + ")")
    ben.wait_for_function(
        "() => (document.querySelector('.durak-online-code textarea') || {}).value", timeout=60_000)
    reply = ben.locator(f"{LOBBY} .durak-online-code textarea").input_value()
    for page in (ann, ben):
        page.evaluate(_RECORD_JS)
    ann.locator(f"{LOBBY} .durak-online-reply textarea").fill(reply)
    ann.locator(f"{LOBBY} .durak-online-connect").click()
    for page in (ann, ben):
        page.locator(f"{LOBBY} .durak-lan-badge").filter(has_text="audited").wait_for(
            timeout=600_000)
    a, b = ann.evaluate(_RESULT_JS), ben.evaluate(_RESULT_JS)
    paste = max(a["table"], b["table"]) - a["connect"]
    both = set(a["moves"]) & set(b["moves"])
    latencies = [abs(a["moves"][m] - b["moves"][m]) for m in both]
    for page in (ann, ben):
        clear_lab(page)
    return paste, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--nodelay", action="store_true",
                        help="TCP_NODELAY on the kernel websocket (scripts/play.sh's)")
    args = parser.parse_args()
    executable = find_chromium()
    if executable is None:
        sys.exit("needs Chromium: apt-get install chromium (or DURAK_CHROMIUM=...)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        root = work / "root"
        root.mkdir()
        write_user_settings(work / "settings")
        port = free_port()
        command = lab_command(root, port, work / "settings", work / "workspaces")
        if args.nodelay:
            from durak_server.websocket import CLASS_NAME

            command.append(f"--ServerApp.kernel_websocket_connection_class={CLASS_NAME}")
        env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(work / "runtime"),
                   JUPYTER_PLATFORM_DIRS="1")
        url = f"http://127.0.0.1:{port}/"
        pastes: list[float] = []
        moves: list[float] = []
        started = time.monotonic()
        with running_server(command, url + "api/status", work / "lab.log", env=env), \
                sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                                 args=list(CHROMIUM_ARGS))
            context = browser.new_context(viewport={"width": 1400, "height": 900})
            ann, ben = context.new_page(), context.new_page()
            for page in (ann, ben):
                page.set_default_timeout(120_000)
            for game in range(args.games):
                paste, latencies = one_game(ann, ben, url, root, game)
                pastes.append(paste)
                moves.extend(latencies)
                print(f"game {game + 1}: paste to table {paste:.0f} ms, {len(latencies)} "
                      f"moves, p50 {statistics.median(latencies):.1f} ms", flush=True)
            browser.close()
    moves.sort()
    p99 = moves[min(len(moves) - 1, int(0.99 * len(moves)))]
    server = "TCP_NODELAY websocket" if args.nodelay else "stock websocket"
    print(f"{server}: move page to page over {len(moves)} moves: p50 "
          f"{statistics.median(moves):.1f} ms, p99 {p99:.1f} ms; paste to table: median "
          f"{statistics.median(pastes):.0f} ms (of {len(pastes)}: "
          f"{', '.join(f'{p:.0f}' for p in pastes)}); load "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"{time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
