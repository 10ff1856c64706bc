"""Catching a restarted seat up, one part of a seat's session: what each side of a link
resends when the other came back from its journal (section 9 of the protocol).

When a link's peer restarts (a new epoch), both streams of that link start afresh and
each side says where it stands in a Sync (its game and log length).  The side that
hears a Sync it is waiting for resends what the other may lack: the host its Seating,
everybody's deal messages but the peer's own, the entries from the peer's log length
on, and each game's Fault; a seated player its own deal messages, its proposals on
their way, and the opening of each one the host has placed.  A Sync that claims more
entries than the host ever sent is a desync.  No I/O: :func:`catch_up` lists the
frames; :class:`Resync` says where we stand when a link starts or restarts, owes the
catch-up and asks the session (its :class:`Effects`) to send it
(tests/net/test_net_resync_part.py drives it with a recorder).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from .dealing import Dealing
from .gamelog import GameLog
from .joining import Joining
from .notes import Note
from .outcomes import HOST, Outcomes
from .play import Play
from .proposals import Proposals
from .seating import SeatingChart
from .wire import Fault, Frame, Seating, Sync


class Effects(Protocol):
    """What the resync part asks of the session around it (the session implements it;
    while a journal replays, it sends nothing)."""

    def push(self, seat: int, frame: Frame, now: float, /) -> None:
        """Send ``frame`` to ``seat``."""

    def desync(self, game: int, index: int, note: Note, now: float, /) -> None:
        """Our state and the other seat's disagree at entry ``index`` of ``game``."""


class Resync:
    """Where seat ``seat`` (named ``name``) stands, said to a link that (re)starts, and
    the seats whose link restarted, which we owe a catch-up on their Sync.  The other
    arguments are the sibling parts it reads; what it sends it asks of an
    :class:`Effects` passed to each call."""

    def __init__(self, seat: int, name: str, *, seating: SeatingChart, joining: Joining,
                 play: Play, game_log: GameLog, dealing: Dealing, outcomes: Outcomes,
                 proposals: Proposals) -> None:
        self.seat = seat
        self.name = name
        self.seating = seating
        self.joining = joining
        self.play = play
        self.game_log = game_log
        self.dealing = dealing
        self.outcomes = outcomes
        self.proposals = proposals
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

    def greet(self, fx: Effects, peer: int, now: float) -> None:
        """Say where we stand on the link to ``peer`` (a new link, or one that restarts):
        our game and log length in a Sync, and a seated player's Hello."""
        number = self.play.game_no
        fx.push(peer, Sync(0, number, len(self.game_log.of(number))), now)
        if self.seat != HOST:
            fx.push(peer, self.seating.hello(self.name), now)

    def peer_restarted(self, fx: Effects, peer: int, now: float) -> None:
        """The link to ``peer`` restarted (its seat, or we, came back from a journal):
        both streams start afresh, we say where we stand, and catch it up on its Sync."""
        self.greet(fx, peer, now)
        self.restarted(peer)

    def on_sync(self, fx: Effects, peer: int, frame: Sync, now: float) -> None:
        """A Sync from ``peer``: if its link restarted, resend what it may lack (see
        :func:`catch_up`); a Sync that claims entries the host never sent is a desync."""
        if not self.take(peer):
            return
        seating = self.joining.frame() if self.seat == HOST else None
        frames, desync = catch_up(frame, me=self.seat, peer=peer, seating=seating,
                                  dealing=self.dealing, game_log=self.game_log,
                                  faults=self.outcomes.faults, proposals=self.proposals)
        for out in frames:
            fx.push(peer, out, now)
        if desync is not None:
            fx.desync(desync[0], desync[1], Note.of("desync_unsent"), now)


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
