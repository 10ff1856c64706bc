"""Catching a restarted seat up, one part of a seat's session: what each side of a link
resends when the other came back from its journal (section 9 of the protocol).

When a link's peer restarts (a new epoch), both streams of that link start afresh and
each side says where it stands in a Sync (its game and log length).  The side that
hears a Sync it is waiting for resends what the other may lack: the host its Seating,
everybody's deal messages but the peer's own, the entries from the peer's log length
on, and each game's Fault; a seated player its own deal messages, its proposals on
their way, and the opening of each one the host has placed.  A Sync that claims more
entries than the host ever sent is a desync.  No I/O: this part lists the frames, the
session sends them.
"""

from __future__ import annotations

from collections.abc import Mapping

from .dealing import Dealing
from .gamelog import GameLog
from .outcomes import HOST
from .proposals import Proposals
from .wire import Fault, Frame, Seating, Sync


class Resync:
    """The seats whose link restarted, which we owe a catch-up on their Sync."""

    def __init__(self) -> None:
        self.waiting: set[int] = set()

    def restarted(self, seat: int) -> None:
        """``seat``'s link restarted (or ours did): catch it up on its Sync."""
        self.waiting.add(seat)

    def take(self, seat: int) -> bool:
        """A Sync from ``seat``: do we owe it a catch-up (once)?"""
        if seat not in self.waiting:
            return False
        self.waiting.discard(seat)
        return True


def catch_up(frame: Sync, *, me: int, peer: int, seating: Seating | None, dealing: Dealing,
             game_log: GameLog, faults: Mapping[int, Fault], proposals: Proposals
             ) -> tuple[list[Frame], tuple[int, int] | None]:
    """What seat ``me`` resends seat ``peer`` on its ``frame`` (a Sync): the frames, in
    order, and, if the peer claims entries the host never sent (a desync), the game and
    our log length, after the frames resent until then.  ``seating``: the host's
    Seating (None for a seated player)."""
    out: list[Frame] = []
    if me == HOST and seating is not None:
        out.append(seating)
    first = max(frame.game, 1)
    for number in sorted(set(dealing.dealers) | set(game_log.logs)):
        if number < first:
            continue
        entries = game_log.logs.get(number, [])
        start = 0
        if me == HOST:
            start = frame.log_len if number == frame.game else 0
            if number == frame.game and frame.log_len > len(entries):
                return out, (number, len(entries))
        out += dealing.resend(number, peer)
        if me == HOST:
            out += game_log.frames_from(number, start)
        fault = faults.get(number)
        if fault is not None:
            out.append(fault)
    if me != HOST:
        for pid in sorted(proposals.frames):
            out.append(proposals.frames[pid])
            own = proposals.own.get(pid)
            if own is not None and own.index >= 0:  # placed: open it (again)
                out.append(own.opening)
    return out, None
