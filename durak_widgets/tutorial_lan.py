"""The LAN tutorial's helpers (notebooks/05-lan-play.ipynb): the code its cells use but do
not teach, so that each cell shows the interface in a few lines.

Terminal peers (``durak-lan``) run as processes of their own, standing in for a second
notebook: :func:`start_peer` starts one (discovery off, announced to one game port),
:func:`said` reads what it printed so far (:func:`pairing_words`), :func:`finish` waits
for it, and :func:`until` lets a cell await what the lobby does meanwhile.  :func:`play_bob`
plays one game over UDP between this kernel (a :class:`durak_net.LanNode` whose seat a
bot plays) and such a peer; :func:`simulate` plays games over the in-memory lossy link in
simulated time; :func:`play_table` fills a table of four and plays one game at it.  None
of this runs in a web page (no processes, no UDP).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import durak_net
from durak_core import IllegalAction, Rules
from durak_net import LanNode, Role, Session, SessionView, SimNet
from durak_net import events as ev
from durak_net.botplay import BotDriver, build_bot

#: Every process :func:`start_peer` started (``stop_peers`` ends those still running).
PEERS: list[subprocess.Popen[str]] = []
#: What each peer printed so far: its stdout and its stderr lines, by process.
_OUTPUT: dict[int, tuple[list[str], list[str], list[threading.Thread]]] = {}


def start_peer(name: str, port: int, *options: str) -> subprocess.Popen[str]:
    """Run ``durak-lan --name NAME --port 0 --connect 127.0.0.1:PORT OPTIONS`` as a process.

    ``--port 0`` turns discovery (broadcasts) off; the peer announces itself only to the
    game port given.  The child imports the same durak_net as this kernel.  Its output is
    read as it comes (:func:`said`), so a long-running peer never blocks on a full pipe.
    """
    command = [sys.executable, "-m", "durak_net", "--name", name, "--port", "0",
               "--connect", f"127.0.0.1:{port}", *options]
    source = str(Path(durak_net.__file__).resolve().parents[1])
    path = os.pathsep.join(p for p in (source, os.environ.get("PYTHONPATH")) if p)
    peer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=path))
    out: list[str] = []
    err: list[str] = []
    readers = [threading.Thread(target=_read, args=(stream, lines), daemon=True,
                                name=f"peer-output-{name}")
               for stream, lines in ((peer.stdout, out), (peer.stderr, err))]
    for reader in readers:
        reader.start()
    _OUTPUT[peer.pid] = (out, err, readers)
    PEERS.append(peer)
    return peer


def _read(stream: Any, lines: list[str]) -> None:
    for line in stream:
        lines.append(line.rstrip("\n"))


def said(peer: subprocess.Popen[str], prefix: str) -> str | None:
    """The rest of the last line the peer printed that starts with ``prefix``: on stdout,
    or on stderr with ``--json`` (whose stdout is the JSON lines)."""
    out, err, _ = _OUTPUT[peer.pid]
    return next((line[len(prefix):] for lines in (err, out) for line in reversed(lines)
                 if line.startswith(prefix)), None)


def pairing_words(peer: subprocess.Popen[str]) -> str | None:
    """The four pairing words the peer printed (None before it paired)."""
    line = said(peer, "pairing words: ")
    return None if line is None else line.split(" (")[0]


async def until(condition: Callable[[], object], timeout: float = 30.0) -> None:
    """Wait until ``condition()`` holds, in a cell's ``await``: the lobby handles its
    network events on the kernel's event loop, which runs while the cell awaits (and not
    while a cell sleeps).  TimeoutError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not so after {timeout} s")
        await asyncio.sleep(0.05)


def finish(peer: subprocess.Popen[str], timeout: float) -> tuple[list[str], list[str]]:
    """Wait for the peer to exit; its stdout and stderr lines."""
    peer.wait(timeout=timeout)
    out, err, readers = _OUTPUT[peer.pid]
    for reader in readers:
        reader.join(timeout)
    return out, err


def stop_peers() -> list[str]:
    """End every peer still running; the names of those that were."""
    running = [str(p.args[4]) for p in PEERS if p.poll() is None]  # type: ignore[index]
    for peer in PEERS:
        if peer.poll() is None:
            peer.terminate()
        finish(peer, 10)
    return running


def _words(err: list[str], prefix: str) -> str:
    """The words of a ``pairing words: ...`` or ``table words: ...`` line."""
    return next(line[len(prefix):].split(" (")[0] for line in err if line.startswith(prefix))


# ------------------------------------------------------------------ the deal by hand


def deal_message(data: bytes) -> str:
    """A deal message (:mod:`durak_net.dealer`) in words."""
    from durak_net.dealer import Keys, Pass, Trump, decode

    message = decode(data)
    if isinstance(message, Pass):
        return (f"deal step {message.step}, part {message.part + 1} of {message.parts}: "
                f"{len(message.points)} encrypted cards")
    if isinstance(message, Keys):
        return f"its keys for positions {message.positions}"
    if isinstance(message, Trump):
        answer = "no" if message.position < 0 else f"yes, position {message.position}"
        return f"trump round {message.round}: {answer}"
    return type(message).__name__.lower()


def exchange(dealers: dict[str, Any]) -> None:
    """Carry two :class:`durak_net.MentalDealer`'s messages to each other until neither
    has more to say, printing each in words (by name: seat 0 first)."""
    (first, a), (second, b) = dealers.items()
    mail = [(first, m) for m in a.begin()] + [(second, m) for m in b.begin()]
    while mail:
        sender, data = mail.pop(0)
        receiver = second if sender == first else first
        print(f"{sender:>5} -> {receiver:<5} {deal_message(data)}")
        seat = dealers[sender].seat
        mail += [(receiver, m) for m in dealers[receiver].receive(data, seat)]


def publish_seeds(dealers: dict[str, Any]) -> None:
    """Each dealer publishes the seeds its keys came from and the other receives them, as
    both peers do after a game (or a fault) for the audit; seat 0 first."""
    (_, a), (_, b) = dealers.items()
    for sender, receiver in ((a, b), (b, a)):
        for data in sender.publish_seed():
            receiver.receive(data, sender.seat)


# ------------------------------------------------------------------ two peers over UDP


@dataclass
class LoopbackGame:
    """One game between this notebook (Alice) and a ``durak-lan`` process (Bob)."""

    alice: ev.GameFinished  # as Alice's session reported the end
    audit: ev.GameAudited  # Alice's audit of the game
    words: str  # the pairing words Alice saw
    bob: dict[str, Any]  # Bob's JSON line (with his audit)
    bob_words: str  # the pairing words Bob printed
    bob_status: int  # Bob's exit status (0: all games played)
    dropped: int  # datagrams Alice dropped on purpose (loss > 0)


_DISAGREE = (ev.DesyncDetected, ev.ProtocolViolation, ev.GameStopped)


def play_bob(loss: float = 0.0, timeout: float = 30.0) -> LoopbackGame:
    """Play one game, greedy bot against greedy bot; both sides drop ``loss`` of what they
    send.  Alice invites Bob once she hears him, so she is the sequencer (seat 0)."""
    alice = LanNode("Alice", port=0, host="127.0.0.1", loss=loss, loss_seed=1)
    bob = start_peer("Bob", alice.game_port, "--bot", "greedy", "--seed", "2", "--games", "1",
                     "--auto-accept", "--json", "--loss", str(loss), "--timeout", str(timeout))
    driver = BotDriver(build_bot("greedy", seed=1))
    sid: int | None = None
    words = ""
    finished: ev.GameFinished | None = None
    audited: ev.GameAudited | None = None
    invited = closed = False
    deadline = time.monotonic() + timeout
    try:
        while not closed:  # until Bob has left (after his audit)
            if time.monotonic() > deadline:
                raise TimeoutError(f"no game with Bob within {timeout} s")
            if not invited and (peer := alice.find_peer("Bob")) is not None:
                alice.invite(peer.node)
                invited = True
            try:
                event = alice.events.get(timeout=0.05)
            except queue.Empty:
                event = None
            if isinstance(event, ev.SessionAgreed):
                sid, words = event.sid, event.sas
            elif isinstance(event, ev.GameFinished):
                finished = event
            elif isinstance(event, ev.GameAudited):
                audited = event
            elif isinstance(event, ev.SessionClosed):
                closed = True
            elif isinstance(event, _DISAGREE):
                raise RuntimeError(f"the peers disagree: {event}")
            if sid is None or not alice.events.empty():
                continue  # act on the newest state only
            action = driver.choose(alice.view(sid))
            if action is not None:
                # IllegalAction: Bob's move got in first; the next event brings the new state.
                with contextlib.suppress(IllegalAction):
                    alice.act(sid, action)
    finally:
        alice.close(leave=True)
        out, err = finish(bob, timeout)
    if finished is None or audited is None or not out:
        raise RuntimeError("the game did not finish; Bob said:\n" + "\n".join(err))
    return LoopbackGame(finished, audited, words, json.loads(out[-1]),
                        _words(err, "pairing words: "), bob.returncode,
                        alice.sender.stats["dropped_on_purpose"])


def report(game: LoopbackGame) -> None:
    """Both sides' hashes and audits, the result, and whether the two peers agree."""
    mine, audit, bobs = game.alice, game.audit, game.bob
    print(f"Bob's process exited with status {game.bob_status}")
    print("pairing words the same on both screens:", game.words == game.bob_words)
    print(f"{'':6} seat  {'public state hash':32}  {'audited full game hash':32}  log hash")
    print(f"{'Alice':6} {0:>4}  {mine.state_hash}  {audit.state_hash}  {mine.log_hash}")
    print(f"{'Bob':6} {bobs['seat']:>4}  {bobs['public_hash']}  {bobs['state_hash']}  "
          f"{bobs['log_hash']}")
    durak = {None: "nobody (a draw)", 0: "Alice", 1: "Bob"}[mine.durak]
    print(f"game {mine.game} over after {mine.actions} actions; the durak: {durak}")
    print("Alice's audit:", audit.verdict, "| Bob's audit:", bobs["audit"])
    print("same final state on both sides:", mine.state_hash == bobs["public_hash"]
          and audit.state_hash == bobs["state_hash"])
    print("same action log on both sides: ", mine.log_hash == bobs["log_hash"])
    same_result = (mine.durak, mine.actions) == (bobs["durak"], bobs["actions"])
    print("same result on both sides:     ", same_result)


# ------------------------------------------------------------------ the simulated link

SEQUENCER, FOLLOWER = ("alice", 1), ("bob", 2)  # addresses on the simulated link


@dataclass
class SimRun:
    """What one simulated series of games produced."""

    net: SimNet
    sessions: dict[tuple[str, int], Session]
    finished: dict[tuple[str, int], list[ev.GameFinished]]
    audited: dict[tuple[str, int], list[ev.GameAudited]]
    delays_ms: list[float] = field(default_factory=list)  # per log entry, seq. -> follower

    def channel(self, counter: str) -> int:
        return sum(s.channel.stats[counter] for s in self.sessions.values())


def simulate(seed: int, games: int, loss: float = 0.0, duplicate: float = 0.0) -> SimRun:
    """Two sessions over a simulated link, greedy bots on both seats, ``games`` games in a
    row; every random draw from ``seed``, so a run replays exactly."""
    rng = random.Random(seed)
    key, sid = rng.randbytes(32), rng.getrandbits(64)  # what the lobby would have agreed
    net = SimNet(random.Random(seed + 1), loss=loss, duplicate=duplicate, delay=(0.0002, 0.005))
    sessions = {  # peer address: each session knows the other's
        SEQUENCER: Session(sid, Role.SEQUENCER, key, Rules(), FOLLOWER, 0.0,
                           entropy=rng.randbytes),
        FOLLOWER: Session(sid, Role.FOLLOWER, key, Rules(), SEQUENCER, 0.0,
                          entropy=rng.randbytes),
    }
    bots = {addr: BotDriver(build_bot("greedy", seed=seed + seat))
            for seat, addr in enumerate(sessions)}
    applied: dict[tuple[str, int], dict[tuple[int, int], float]] = {a: {} for a in sessions}
    finished: dict[tuple[str, int], list[ev.GameFinished]] = {a: [] for a in sessions}
    audited: dict[tuple[str, int], list[ev.GameAudited]] = {a: [] for a in sessions}

    def after_each_step(now: float) -> None:
        """Collect events, agree to the next game, let the bots move (SimNet calls this)."""
        for addr, session in sessions.items():
            for event in session.events():
                if isinstance(event, ev.ActionApplied):
                    applied[addr][event.game, event.index] = event.at
                elif isinstance(event, ev.GameFinished):
                    finished[addr].append(event)
                    if len(finished[addr]) < games:
                        session.start_next_game(now)
                elif isinstance(event, ev.GameAudited):
                    audited[addr].append(event)
                elif isinstance(event, _DISAGREE):
                    raise RuntimeError(f"the peers disagree: {event}")
            while (action := bots[addr].choose(session)) is not None:
                session.act(action, now)

    for addr, session in sessions.items():
        net.add(addr, session)
    net.hooks.append(after_each_step)
    if not net.run(lambda: all(len(a) >= games for a in audited.values()), limit=3600.0):
        raise RuntimeError(f"stalled at t = {net.now:.1f} s (simulated)")
    sent, received = applied[SEQUENCER], applied[FOLLOWER]
    delays = [(received[entry] - at) * 1000 for entry, at in sent.items()]
    return SimRun(net, sessions, finished, audited, delays)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _within(r: SimRun, ms: float) -> str:
    """The share of log entries delivered within ``ms`` milliseconds, in percent."""
    return f"{100 * sum(d <= ms for d in r.delays_ms) / len(r.delays_ms):.1f}%"


def _agree(r: SimRun) -> int:
    return sum(a.state_hash == b.state_hash and a.log_hash == b.log_hash
               for a, b in zip(r.finished[SEQUENCER], r.finished[FOLLOWER], strict=True))


def _fair(r: SimRun) -> int:
    return sum(a.fair and b.fair and a.state_hash == b.state_hash
               for a, b in zip(r.audited[SEQUENCER], r.audited[FOLLOWER], strict=True))


#: The rows of :func:`compare_links`: a label and how to read it off a run.
ROWS: dict[str, Callable[[SimRun], Any]] = {
    "games (both sides agree on every hash)": _agree,
    "audits saying fair (both sides)": _fair,
    "log entries": lambda r: len(r.delays_ms),
    "datagrams sent": lambda r: r.net.stats["sent"],
    "  lost by the link": lambda r: r.net.stats["lost"],
    "  doubled by the link": lambda r: r.net.stats["duplicated"],
    "frames resent": lambda r: r.channel("retransmitted"),
    "duplicate frames dropped": lambda r: r.channel("duplicate"),
    "frames held until a gap filled": lambda r: r.channel("held_out_of_order"),
    "entries delivered within 5 ms": lambda r: _within(r, 5.0),
    "entries delivered within 50 ms": lambda r: _within(r, 50.0),
    "delivery delay, median (ms)": lambda r: f"{statistics.median(r.delays_ms):.2f}",
    "delivery delay, 90th percentile (ms)": lambda r: f"{_percentile(r.delays_ms, 0.9):.2f}",
    "delivery delay, 99th percentile (ms)": lambda r: f"{_percentile(r.delays_ms, 0.99):.2f}",
    "delivery delay, worst (ms)": lambda r: f"{max(r.delays_ms):.2f}",
    "simulated seconds for all games": lambda r: f"{r.net.now:.2f}",
}


def compare_links(runs: dict[str, SimRun]) -> None:
    """Print one column per run: agreement, datagrams, resends and delivery delays."""
    print(f"{'':38}" + "".join(f"{name:>24}" for name in runs))
    for label, value in ROWS.items():
        print(f"{label:38}" + "".join(f"{value(run)!s:>24}" for run in runs.values()))


def plot_delays(runs: dict[str, SimRun]) -> None:
    """The delivery delays of each run, as a histogram and as a cumulative distribution."""
    import matplotlib.pyplot as plt
    import numpy as np

    fig, (hist, cdf) = plt.subplots(1, 2, figsize=(11, 3.8))
    bins = np.logspace(-1, 3.5, 55)  # 0.1 ms to about 3 s
    for name, run in runs.items():
        delays = np.sort(np.array(run.delays_ms))
        hist.hist(delays, bins=bins, histtype="step", linewidth=1.6, label=name)
        cdf.step(delays, np.arange(1, len(delays) + 1) / len(delays), where="post", label=name)
    hist.set_ylabel("log entries")
    cdf.set_ylabel("share of log entries delivered")
    for ax in (hist, cdf):
        ax.set_xscale("log")
        ax.set_xlabel("delivery delay (ms, simulated)")
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right" if ax is cdf else "upper right")
    hist.set_title("Delay per log entry, sequencer to follower")
    cdf.set_title("Cumulative: entries delivered within a delay")
    fig.tight_layout()
    plt.show()


# ------------------------------------------------------------------ a table of four


@dataclass
class TableGame:
    """One game at a table of four: Alice hosts (seat 0), her bot, two ``durak-lan`` peers."""

    names: tuple[str, ...]  # the seating, by seat
    kinds: tuple[str, ...]  # "host", "bot", "player" by seat
    words: str  # the table words on Alice's screen
    alice: ev.GameFinished
    audit: ev.GameAudited  # Alice's audit of the game
    peers: dict[str, dict[str, Any]]  # each terminal peer's JSON line
    peer_words: dict[str, str]  # the table words each terminal peer printed
    statuses: dict[str, int]  # each terminal peer's exit status


def play_table(rules: Rules, timeout: float = 60.0) -> TableGame:
    """Host a table of four, fill it (a bot, then Dave, then Erin), play one game."""
    alice = LanNode("Alice", port=0, host="127.0.0.1")
    sid = alice.host_table(rules)
    alice.add_bot(sid, "greedy")  # seat 1
    join = ("--join", "Alice", "--bot", "greedy", "--games", "1", "--json",
            "--timeout", str(timeout))
    guests: dict[str, subprocess.Popen[str]] = {}
    driver = BotDriver(build_bot("greedy", seed=1))
    seated: SessionView | None = None
    finished: ev.GameFinished | None = None
    audited: ev.GameAudited | None = None
    closed = False
    deadline = time.monotonic() + timeout
    try:
        while not closed:  # until the table ends (a peer leaves after its audit)
            if time.monotonic() > deadline:
                raise TimeoutError(f"no game at the table within {timeout} s")
            view = alice.view(sid)
            if not guests:  # Dave first (seat 2), then Erin (seat 3)
                guests["Dave"] = start_peer("Dave", alice.game_port, "--seed", "3", *join)
            elif len(guests) == 1 and view is not None and view.kinds[2] != "open":
                guests["Erin"] = start_peer("Erin", alice.game_port, "--seed", "4", *join)
            elif view is not None and not view.started and "open" not in view.kinds \
                    and view.table_words:
                alice.start_table(sid)  # the widget's Start
            if view is not None and view.started:
                seated = view
            try:
                event = alice.events.get(timeout=0.05)
            except queue.Empty:
                event = None
            if isinstance(event, ev.GameFinished):
                finished = event
            elif isinstance(event, ev.GameAudited):
                audited = event
            elif isinstance(event, ev.SessionClosed):
                closed = True
            elif isinstance(event, _DISAGREE):
                raise RuntimeError(f"the table disagrees: {event}")
            if view is None or not view.started or not alice.events.empty():
                continue
            action = driver.choose(view)
            if action is not None:
                with contextlib.suppress(IllegalAction):  # another seat's move got in first
                    alice.act(sid, action)
    finally:
        alice.close(leave=True)
        outputs = {name: finish(peer, timeout) for name, peer in guests.items()}
    if seated is None or finished is None or audited is None:
        raise RuntimeError("the game did not finish:\n"
                           + "\n".join(line for _, err in outputs.values() for line in err))
    return TableGame(seated.names, seated.kinds, seated.table_words, finished, audited,
                     {name: json.loads(out[-1]) for name, (out, _) in outputs.items()},
                     {name: _words(err, "table words: ") for name, (_, err) in outputs.items()},
                     {name: peer.returncode for name, peer in guests.items()})


def report_table(game: TableGame) -> None:
    """The seating, the table words and every seat's hashes, and whether all agree."""
    for seat, (name, kind) in enumerate(zip(game.names, game.kinds, strict=True)):
        print(f"seat {seat}: {name} ({kind})")
    print("exit status of the terminal peers:", game.statuses)
    print("the same table words on every screen:",
          all(w == game.words for w in game.peer_words.values()))
    print(f"{'':6} seat  {'public state hash':32}  {'audited full game hash':32}  log hash")
    mine = game.alice
    print(f"{'Alice':6} {0:>4}  {mine.state_hash}  {game.audit.state_hash}  {mine.log_hash}")
    for name, line in game.peers.items():
        print(f"{name:6} {line['seat']:>4}  {line['public_hash']}  {line['state_hash']}  "
              f"{line['log_hash']}")
    durak = "nobody (a draw)" if mine.durak is None else game.names[mine.durak]
    print(f"game {mine.game} over after {mine.actions} actions; the durak: {durak}")
    print("audits:", ", ".join([f"Alice {game.audit.verdict}"]
                               + [f"{n} {line['audit']}" for n, line in game.peers.items()]))
    print("the same game on every screen:", all(
        (line["public_hash"], line["state_hash"], line["log_hash"], line["durak"])
        == (mine.state_hash, game.audit.state_hash, mine.log_hash, mine.durak)
        for line in game.peers.values()))
