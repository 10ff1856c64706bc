"""How fast ``online()`` is between two JupyterLab pages on this machine.

    python benchmarks/online_latency.py [--games 2] [--nodelay] [--pause 0.6] [--trace]
        [--unbatched] [--foreground] [--site]

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

``--pause SECONDS``: each bot plays that long after it is asked (a person takes a
second or more), instead of at once.  Bots that answer at once make a storm of moves
(every move two table redraws, about thirty messages through the one Jupyter server),
and under load a move then mostly waits behind the ones before it; with a pause each
move crosses an idle path, which is what a player sees.

``--nodelay``: serve the kernel websocket with TCP_NODELAY (durak_server.websocket, what
``scripts/play.sh`` names) instead of jupyter_server's stock one.  Prints the figures and
the machine's load average.

``--unbatched``: the table's widgets send a message each, as ipywidgets does, instead of
one message a redraw (durak_widgets.sync: the kernels ignore the pages' word that they
apply batches), to compare the two under the same load.

``--foreground``: both tabs run as tabs in front do.  The two players' tabs share one
browser here, and Chromium serves the tab behind sparingly (its timers throttled, its
renderer given a lower priority); each player has their own tab in front, so this
measures what they see (Chromium's ``--disable-renderer-backgrounding`` and the two
flags beside it).

``--site``: the two pages are pages of the JupyterLite site (built as
``scripts/lite_site.py build`` does and served from this process), each with its
Pyodide kernel in a worker of the page: no Jupyter server between a kernel and its
page.  (Not with ``--trace``, ``--nodelay`` or ``--unbatched``, which are about the
server.)

``--trace``: also say where a datagram's time goes, hop by hop.  Each datagram is
known by its length and last 12 bytes (its authentication tag); both kernels note
when it leaves for the page (``PageChannel.send_datagrams``), arrives from the page
(``PageChannel._handle``) and is run on the kernel's loop (``ChannelCarrier._drain``),
and both pages when it goes onto and comes off the data channel.  On one machine the
kernels' ``time.time()`` and the pages' clock agree to well under a millisecond.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from browser_support import (  # noqa: E402
    CHROMIUM_ARGS,
    PATH_CELL,
    OfflineContext,
    clear_lab,
    find_chromium,
    free_port,
    lab_command,
    open_lite_notebook,
    run_cell_source,
    run_notebooks_in_lab,
    running_server,
    write_notebook,
    write_user_settings,
)

LOBBY = ".durak-online"

#: (``--foreground``) Chromium serves no tab as one behind the other.
FOREGROUND_ARGS = ("--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                   "--disable-backgrounding-occluded-windows")
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

#: (``--trace``) In every page before it loads: note when each datagram goes onto the
#: data channel and comes off it, by its key (length and last 12 bytes, hex).
_TRACE_INIT_JS = """
(() => {
  window.__hops = [];
  const at = () => performance.timeOrigin + performance.now();
  const key = (data) => {
    const bytes = ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
    let hex = bytes.length + ':';
    for (const b of bytes.subarray(Math.max(0, bytes.length - 12))) {
      hex += b.toString(16).padStart(2, '0');
    }
    return hex;
  };
  // The kernel websocket's frames (protocol v1.kernel.websocket.jupyter.org: a count
  // of offsets, the offsets, then channel, header, parent header, metadata, content
  // and the buffers): the datagrams among a frame's buffers, as it leaves or arrives.
  const frame = (stage, data) => {
    if (!(data instanceof ArrayBuffer) || data.byteLength < 8) return;
    const view = new DataView(data);
    const count = Number(view.getBigUint64(0, true));
    if (count < 7 || count > 4096 || 8 * (count + 1) > data.byteLength) return;
    const offsets = [];
    for (let i = 0; i < count; i++) offsets.push(Number(view.getBigUint64(8 * (i + 1), true)));
    offsets.push(data.byteLength);
    const now = at();
    for (let i = 5; i < count; i++) {
      const part = new Uint8Array(data, offsets[i], offsets[i + 1] - offsets[i]);
      window.__hops.push([now, stage, key(part)]);
    }
  };
  const wsSend = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    frame('ws_out', data);
    return wsSend.call(this, data);
  };
  const wsSlot = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get() { return wsSlot.get.call(this); },
    set(fn) {
      wsSlot.set.call(this, (event) => { frame('ws_in', event.data); return fn(event); });
    },
  });
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    if (typeof data !== 'string') window.__hops.push([at(), 'page_out', key(data)]);
    return send.call(this, data);
  };
  const slot = Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, 'onmessage');
  Object.defineProperty(RTCDataChannel.prototype, 'onmessage', {
    configurable: true,
    get() { return slot.get.call(this); },
    set(fn) {
      slot.set.call(this, (event) => {
        if (typeof event.data !== 'string') window.__hops.push([at(), 'page_in', key(event.data)]);
        return fn(event);
      });
    },
  });
})();
"""

#: (``--trace``) A cell run in each kernel before ``online()``: the kernel's three notes.
_TRACE_CELL = """
import json as _json, time as _time
from durak_widgets import channel as _channel
_hops = open({path!r}, "a")
def _key(data):
    data = bytes(data)
    return f"{{len(data)}}:{{data[-12:].hex()}}"
def _note(stage, datagrams):
    now = _time.time()
    for data in datagrams:
        _hops.write(_json.dumps([now * 1000, stage, _key(data)]) + "\\n")
    _hops.flush()
_send, _handle, _drain = (_channel.PageChannel.send_datagrams, _channel.PageChannel._handle,
                          _channel.ChannelCarrier._drain)
def send_datagrams(self, datagrams):
    _note("kernel_out", datagrams)
    return _send(self, datagrams)
def _handle_traced(self, content, buffers):
    if isinstance(content, dict) and content.get("t") == "d":
        _note("kernel_in", buffers)
        _hops.write(_json.dumps([_time.time() * 1000, "page_msg", len(buffers)]) + "\\n")
    return _handle(self, content, buffers)
def _drain_traced(self):
    _note("kernel_run", list(self._waiting))
    return _drain(self)
def _durak_stats():
    from collections import Counter as _Counter
    from durak_widgets.online import _OPEN
    total = _Counter()
    for lobby in _OPEN.values():
        for session in lobby.node.core.sessions.values():
            total.update(session.stats)
            for link in session.links.values():
                total.update(link.channel.stats)
    _hops.write(_json.dumps([_time.time() * 1000, "stats", dict(total)]) + "\\n")
    _hops.flush()
from ipykernel import iostream as _iostream
_really_send = _iostream.IOPubThread._really_send
def _really_send_traced(self, msg, *args, **kwargs):
    _note("kernel_iopub", [part for part in msg[7:] if len(bytes(part)) >= 12])
    try:
        kind = _json.loads(bytes(msg[3]))["msg_type"]
        if kind == "comm_msg":
            _data = _json.loads(bytes(msg[6]))["data"]
            kind += "/" + str(_data.get("method"))
            _content = _data.get("content")
            if isinstance(_content, dict):  # custom: a datagram ("d"), a redraw ("sync")
                kind += "/" + str(_content.get("t") or next(iter(_content), ""))
    except Exception:
        kind = "?"
    _hops.write(_json.dumps([_time.time() * 1000, "iopub", kind]) + "\\n")
    return _really_send(self, msg, *args, **kwargs)
_iostream.IOPubThread._really_send = _really_send_traced
_channel.PageChannel.send_datagrams = send_datagrams
_channel.PageChannel._handle = _handle_traced
_channel.ChannelCarrier._drain = _drain_traced
"""

#: (``--pause``) A cell run in each kernel before ``online()``: the seat's bot plays its
#: card no sooner than ``pause`` seconds after it is asked, as a person would (posted
#: on the kernel's loop for later: nothing sleeps), instead of at once.
_PAUSE_CELL = """
from durak_widgets import lan_table as _lan_table
def _schedule_bot(self, _pause={pause}):
    if self.bot is None or self._bot_posted or self._handoff is None:
        return
    self._bot_posted = True
    self._handoff.post_later(_pause, self._bot_move)
_lan_table.LanBackend._schedule_bot = _schedule_bot
"""

#: (``--unbatched``) A cell run in each kernel before ``online()``: the tables never hear
#: that their page applies batched redraws, so each widget sends its own messages.
_UNBATCHED_CELL = """
from durak_widgets import sync as _sync
_sync.TableSync._from_page = lambda self, widget, content, buffers: None
"""

#: The hops, in the order a datagram takes them, and what each one is.
#: (``--trace``) The server's kernel websocket, noting when a message from the kernel
#: reaches it and when one from the page does (``{base}``: the class it traces).
_TRACE_SERVER = """
import json, time
from {module} import {name} as _Base

_notes = open({path!r}, "a")


def _note(stage, parts):
    now = time.time() * 1000
    for part in parts:
        data = bytes(part)
        if len(data) >= 12:
            _notes.write(json.dumps([now, stage, f"{{len(data)}}:{{data[-12:].hex()}}"]) + "\\n")
    _notes.flush()


class TracingConnection(_Base):
    def handle_outgoing_message(self, stream, outgoing_msg):
        _notes.write(json.dumps([time.time() * 1000, "server_cpu", time.process_time()])
                     + "\\n")
        _note("server_from_kernel", outgoing_msg[6:])
        return super().handle_outgoing_message(stream, outgoing_msg)
"""

HOPS = (("kernel_out", "kernel_iopub", "kernel: comm send -> iopub thread"),
        ("kernel_iopub", "server_from_kernel", "kernel iopub -> server (zmq)"),
        ("server_from_kernel", "ws_in", "server -> page's websocket"),
        ("ws_in", "page_out", "page: websocket -> data channel (page's queue)"),
        ("page_out", "page_in", "page -> other page (data channel)"),
        ("page_in", "ws_out", "page: data channel -> websocket (page's queue)"),
        ("ws_out", "kernel_in", "page's websocket -> kernel (server, shell)"),
        ("kernel_in", "kernel_run", "kernel: comm handler -> loop turn"))


def hop_times(notes: list[list[Any]]) -> dict[str, list[float]]:
    """Per hop, the time each datagram took (ms): the first note of each stage for a
    key to the first note of the next stage (a resent datagram counts once)."""
    first: dict[tuple[str, str], float] = {}
    for at, stage, key in notes:
        if isinstance(key, str):
            first.setdefault((stage, key), at)
    out: dict[str, list[float]] = {}
    for start, end, _what in HOPS:
        out[start] = [first[(end, key)] - at for (stage, key), at in first.items()
                      if stage == start and (end, key) in first
                      and first[(end, key)] >= at]
    return out


def play_by_reply(ann: Any, ben: Any) -> tuple[float, list[float], float]:
    """Once Ben's page shows his reply code: paste it into Ann's box, click Connect and
    wait for the audit on both pages; (paste to table in ms, the moves' latencies, when
    the table was drawn on both pages)."""
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
    return (paste, [abs(a["moves"][m] - b["moves"][m]) for m in both],
            max(a["table"], b["table"]))


def site_game(ann: Any, ben: Any, game: int, pause: float) -> tuple[float, list[float]]:
    """One game between two pages of the site, each its notebook open (``--site``): the
    first cell of each runs ``online()``, as a player would type it."""
    probe = _PAUSE_CELL.format(pause=pause) if pause else ""
    run_cell_source(ann, 0, probe + "from durak_widgets import online\n"
                    f"online(name='Ann', {OPTIONS.format(seed=2 * game + 1)})")
    ann.wait_for_function(
        "() => (document.querySelector('.durak-online-code textarea') || {}).value",
        timeout=180_000)
    invitation = ann.locator(f"{LOBBY} .durak-online-code textarea").input_value()
    run_cell_source(ben, 0, probe + "from durak_widgets import online\n"
                    f"online(name='Ben', code={invitation!r}, "
                    + OPTIONS.format(seed=2 * game + 2) + ")")
    paste, latencies, _drawn = play_by_reply(ann, ben)
    return paste, latencies


def one_game(ann: Any, ben: Any, url: str, root: Path, game: int,
             trace: list[list[Any]] | None = None,
             pause: float = 0.0, unbatched: bool = False) -> tuple[float, list[float]]:
    """One game between the two tabs; returns (paste to table in ms, move latencies).
    With ``trace``, the kernels' and pages' notes of each datagram are added to it;
    ``pause``: seconds each bot waits before it plays (0: at once); ``unbatched``: a
    message per widget changed, not one a redraw."""
    ann_nb = f"bench-{game}/ann.ipynb"
    ben_nb = f"bench-{game}/ben.ipynb"
    files = [root / f"bench-{game}" / f"{who}-hops.jsonl" for who in ("ann", "ben")]
    probes = [(_TRACE_CELL.format(path=str(f)) if trace is not None else "")
              + (_PAUSE_CELL.format(pause=pause) if pause else "")
              + (_UNBATCHED_CELL if unbatched else "") or "pass" for f in files]
    write_notebook(root / ann_nb, [PATH_CELL, probes[0], "from durak_widgets import online",
                                   f"online(name='Ann', {OPTIONS.format(seed=2 * game + 1)})"])
    write_notebook(root / ben_nb, [PATH_CELL, probes[1], "from durak_widgets import online",
                                   "# the code goes here"])
    run_notebooks_in_lab([(ann, ann_nb), (ben, ben_nb)], url, timeout=300)
    invitation = ann.locator(f"{LOBBY} .durak-online-code textarea")
    invitation.wait_for(timeout=60_000)
    ann.wait_for_function(
        "() => (document.querySelector('.durak-online-code textarea') || {}).value", timeout=60_000)
    run_cell_source(ben, 3, f"online(name='Ben', code={invitation.input_value()!r}, "
                    + OPTIONS.format(seed=2 * game + 2) + ")")
    paste, latencies, drawn = play_by_reply(ann, ben)
    if trace is not None:
        for page in (ann, ben):
            run_cell_source(page, 1, "_durak_stats()")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(
                '"stats"' in path.read_text() for path in files):
            time.sleep(0.2)
        trace.append([drawn, "game_from", ""])
        trace.append([time.time() * 1000, "game_to", ""])
        for page in (ann, ben):
            trace.extend(page.evaluate("() => window.__hops.splice(0)"))
        for path in files:
            trace.extend(json.loads(line) for line in path.read_text().splitlines())
    for page in (ann, ben):
        clear_lab(page)
    return paste, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--nodelay", action="store_true",
                        help="TCP_NODELAY on the kernel websocket (scripts/play.sh's)")
    parser.add_argument("--pause", type=float, default=0.0, metavar="SECONDS",
                        help="each bot plays this long after it is asked, as a person "
                             "would (default 0: at once, moves back to back)")
    parser.add_argument("--trace", action="store_true",
                        help="also time each datagram's hops (kernel, page, channel)")
    parser.add_argument("--foreground", action="store_true",
                        help="neither tab is served as a tab behind (each player's tab "
                             "is in front of them)")
    parser.add_argument("--unbatched", action="store_true",
                        help="a comm message per widget changed, not one a table redraw")
    parser.add_argument("--site", action="store_true",
                        help="two pages of the JupyterLite site (kernels in the pages)")
    args = parser.parse_args()
    if args.site and (args.trace or args.nodelay or args.unbatched):
        parser.error("--site runs no Jupyter server: not with --trace, --nodelay or --unbatched")
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
        base = ("jupyter_server.services.kernels.connection.channels."
                "ZMQChannelsWebsocketConnection")
        if args.nodelay:
            from durak_server.websocket import CLASS_NAME

            base = CLASS_NAME
        env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(work / "runtime"),
                   JUPYTER_PLATFORM_DIRS="1")
        if args.trace:
            module, name = base.rsplit(".", 1)
            (work / "durak_trace_ws.py").write_text(_TRACE_SERVER.format(
                module=module, name=name, path=str(work / "server-hops.jsonl")))
            env["PYTHONPATH"] = os.pathsep.join(
                [str(work), str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
            base = "durak_trace_ws.TracingConnection"
        if args.trace or args.nodelay:
            command.append(f"--ServerApp.kernel_websocket_connection_class={base}")
        url = f"http://127.0.0.1:{port}/"
        pastes: list[float] = []
        trace: list[list[Any]] = []
        moves: list[float] = []
        started = time.monotonic()
        with contextlib.ExitStack() as stack:
            if args.site:
                sys.path.insert(0, str(ROOT / "scripts"))
                import lite_site

                url = stack.enter_context(lite_site.serving(lite_site.build()))
            else:
                stack.enter_context(running_server(command, url + "api/status",
                                                   work / "lab.log", env=env))
            playwright = stack.enter_context(sync_playwright())
            browser = playwright.chromium.launch(executable_path=executable, headless=True,
                                                 args=list(CHROMIUM_ARGS) + (
                                                     list(FOREGROUND_ARGS)
                                                     if args.foreground else []))
            viewport = {"width": 1400, "height": 900}
            # The site's pages reach nothing beyond this machine (a request that would
            # hang on a machine with no way out fails at once instead).
            context = (OfflineContext(browser, viewport=viewport).context if args.site
                       else browser.new_context(viewport=viewport))
            if args.trace:
                context.add_init_script(_TRACE_INIT_JS)
            ann, ben = context.new_page(), context.new_page()
            # (--site) Each page its own notebook: two tabs of one site share its
            # browser storage, and a notebook open in both would be one document.
            for page, notebook in ((ann, "02-engine.ipynb"), (ben, "03-write-a-bot.ipynb")):
                page.set_default_timeout(120_000)
                if args.site:
                    # (in front while it opens: JupyterLab's status bar, which says the
                    # kernel is ready, follows the focused notebook, and a tab behind
                    # has none)
                    page.bring_to_front()
                    open_lite_notebook(page, url, notebook, timeout=300)
            for game in range(args.games):
                if args.site:
                    paste, latencies = site_game(ann, ben, game, args.pause)
                else:
                    paste, latencies = one_game(ann, ben, url, root, game,
                                                trace if args.trace else None, args.pause,
                                                args.unbatched)
                pastes.append(paste)
                moves.extend(latencies)
                print(f"game {game + 1}: paste to table {paste:.0f} ms, {len(latencies)} "
                      f"moves, p50 {statistics.median(latencies):.1f} ms", flush=True)
            browser.close()
        server_notes = work / "server-hops.jsonl"
        if server_notes.exists():
            trace.extend(json.loads(line) for line in server_notes.read_text().splitlines())
    moves.sort()
    p99 = moves[min(len(moves) - 1, int(0.99 * len(moves)))]
    print("slowest moves: " + ", ".join(f"{m:.0f}" for m in moves[-5:]) + " ms")
    if args.trace:
        windows = list(zip(sorted(at for at, stage, _ in trace if stage == "game_from"),
                           sorted(at for at, stage, _ in trace if stage == "game_to"), strict=True))
        kinds = Counter(key for at, stage, key in trace if stage == "iopub"
                        and any(start <= at <= end for start, end in windows))
        print("  messages from the kernels a move, once the table is drawn (both kernels):")
        for kind, count in kinds.most_common(8):
            print(f"    {kind:40} {count / max(1, len(moves)):6.1f}")
        # The pages pass the datagrams that arrive together in one message: how many
        # a message carried says whether there was anything to put together.
        from_pages = [n for at, stage, n in trace if stage == "page_msg"
                      and any(start <= at <= end for start, end in windows)]
        if from_pages:
            print(f"  datagram messages from the pages a move: "
                  f"{len(from_pages) / max(1, len(moves)):.2f} "
                  f"({sum(from_pages) / len(from_pages):.2f} datagrams a message)")
        cpu = sorted((at, used) for at, stage, used in trace if stage == "server_cpu"
                     and any(start <= at <= end for start, end in windows))
        if len(cpu) > 1:
            print(f"  the Jupyter server's CPU time, a move: "
                  f"{1000 * (cpu[-1][1] - cpu[0][1]) / max(1, len(moves)):.1f} ms")
        sessions: Counter[str] = Counter()
        for _at, stage, counts in trace:
            if stage == "stats":
                sessions.update(counts)
        print(f"  the sessions' counts (both kernels): {dict(sessions.most_common(8))}")
        hops = hop_times(trace)
        for start, _end, what in HOPS:
            took = sorted(hops[start])
            if took:
                print(f"  {what:45} n {len(took):5}  p50 {statistics.median(took):7.1f} ms  "
                      f"p99 {took[min(len(took) - 1, int(0.99 * len(took)))]:7.1f} ms")
    server = "TCP_NODELAY websocket" if args.nodelay else "stock websocket"
    if args.site:
        server = "site pages"
    if args.foreground:
        server += ", tabs in front"
    print(f"{server}: move page to page over {len(moves)} moves: p50 "
          f"{statistics.median(moves):.1f} ms, p99 {p99:.1f} ms; paste to table: median "
          f"{statistics.median(pastes):.0f} ms (of {len(pastes)}: "
          f"{', '.join(f'{p:.0f}' for p in pastes)}); load "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"{time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
