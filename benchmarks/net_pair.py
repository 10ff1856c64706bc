"""Two peers in two processes over loopback UDP, for the LAN benchmarks.

``net_deal.py`` and ``net_latency.py`` measure a game of two as two kernels would play
it: each runs itself twice as a child (``--child seq`` and ``--child fol``, the
inviter and the invitee), the children play random-bot games through
:class:`durak_net.node.LanNode` and print what they timed as one JSON line, and the
parent reads both lines.  This module is both halves that the two share: the parent's
:func:`run_pair` and the child's :func:`play`; what each benchmark times is its own.

Not a benchmark itself: nothing to run here.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from durak_net import events as ev  # noqa: E402
from durak_net.botplay import BotDriver  # noqa: E402
from durak_net.node import LanNode, SessionView  # noqa: E402

#: The two children: role and the seed of its bot (and of its datagram loss).
ROLES = (("fol", 2), ("seq", 1))
#: Events that end a measurement: the figures would mean nothing after them.
FATAL = (ev.DesyncDetected, ev.ProtocolViolation)


def run_pair(script: str, args: Sequence[str], timeout: float = 600) -> dict[str, Any]:
    """Run ``script --child ROLE --port P --seed S *args`` for both roles on a fresh
    discovery port; returns each child's JSON line, by role."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("0.0.0.0", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(REPO))
    procs = {
        role: subprocess.Popen(
            [sys.executable, script, "--child", role, "--port", str(port), "--seed",
             str(seed), *args],
            stdout=subprocess.PIPE, text=True, env=env,
        )
        for role, seed in ROLES
    }
    data: dict[str, Any] = {}
    for role, proc in procs.items():
        out, _ = proc.communicate(timeout=timeout)
        if proc.returncode:
            raise SystemExit(f"{role} failed with status {proc.returncode}")
        data[role] = json.loads(out.strip().splitlines()[-1])
    return data


def play(role: str, node: LanNode, driver: BotDriver, handle: Callable[[Any], bool], *,
         poll: float = 0.05, think: float = 0.0, fatal: tuple[type, ...] = FATAL,
         acted: Callable[[SessionView, Any, float], None] | None = None,
         timeout: float = 300) -> None:
    """One child's game loop: ``seq`` invites ``fol`` once it sees it, ``fol`` accepts;
    then the bot plays whenever no event is waiting, thinking ``think`` seconds first.

    handle(event): the benchmark's own look at every event, before the loop's (so an
        invitation can be timed before it is accepted); True ends the loop.
    acted(view, action, started): after each move the bot made (``started``: just
        before it was handed to the node).
    The node is closed (saying goodbye) when the loop ends, a moment after, so the last
    acknowledgements get out.
    """
    sid: int | None = None
    # One invitation at a time, again only once it ended without a game (InviteClosed):
    # asking the lobby whether one is pending raced with the SessionAgreed still in the
    # queue, and a second invitation made a second session, each side playing another.
    inviting = False
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if role == "seq" and sid is None and not inviting:
                peer = node.find_peer("fol")
                if peer is not None:
                    node.invite(peer.node)
                    inviting = True
            try:
                event = node.events.get(timeout=poll)
            except queue.Empty:
                event = None
            if event is not None and handle(event):
                break
            if isinstance(event, ev.InviteReceived):
                node.accept(event.invite)
            elif isinstance(event, ev.InviteClosed) and event.outgoing:
                inviting = False
            elif isinstance(event, ev.SessionAgreed):
                sid = event.sid
            elif isinstance(event, fatal):
                raise SystemExit(f"{role}: {event}")
            if sid is None or not node.events.empty():
                continue
            view = node.view(sid)
            action = driver.choose(view)
            if action is None or view is None:
                continue
            if think:
                time.sleep(think)
            started = time.monotonic()
            try:
                node.act(sid, action)
            except Exception:
                continue  # the state moved meanwhile; the next event retries
            if acted is not None:
                acted(view, action, started)
    finally:
        time.sleep(0.2)
        node.close(leave=True)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (nearest rank, no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
