"""The commands of a peer, one set for every byte mover around a :class:`PeerCore`.

A byte mover (the UDP thread of :class:`~durak_net.node.LanNode`, the aiortc loop of
:class:`~durak_net.rtc.RtcNode`, the notebook's data-channel carrier
``durak_widgets.online_node.OnlineNode``) owns how datagrams and timers reach the core
and on which thread; what a player or a program asks of the peer is the same
everywhere: the core's command at this moment, then what it caused is sent.  Each
mover says how, with two methods:

* ``_command(fn)``: run ``fn(now)`` on the core (under the mover's lock, where it has
  one), send what it caused, hand out the events; return its result;
* ``_query(fn)``: run ``fn()`` for a read of the core's state (under the lock, where
  there is one).

The movers with threads also share :class:`EventPump`, which hands their events to
one callback in order.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from durak_core import Action, Game, Rules

from . import events as ev
from .teams import ANY_TEAM

if TYPE_CHECKING:
    from .peer import PeerCore, SessionView

T = TypeVar("T")


class CoreCommands:
    """What a peer can be asked, whatever moves its bytes (see the module docstring)."""

    core: PeerCore

    def _command(self, fn: Callable[[float], T]) -> T:
        raise NotImplementedError

    def _query(self, fn: Callable[[], T]) -> T:
        raise NotImplementedError

    # ================================================================ info

    @property
    def name(self) -> str:
        return self.core.name

    @property
    def node_id(self) -> int:
        return self.core.node_id

    def peers(self) -> list[ev.PeerInfo]:
        """Peers currently seen (on the LAN, or at the end of an open channel)."""
        return self._query(self.core.peers)

    def find_peer(self, name: str, settled: float = 0.0) -> ev.PeerInfo | None:
        """:meth:`PeerCore.find_peer <durak_net.peer.PeerCore.find_peer>` now."""
        return self._query(lambda: self.core.find_peer(name, time.monotonic(), settled))

    def view(self, sid: int) -> SessionView | None:
        """A snapshot of session ``sid`` (a copy: safe to read from any thread)."""
        return self._query(lambda: self.core.view(sid))

    def game(self, sid: int) -> Game | None:
        """A copy of session ``sid``'s current game (safe to read from any thread)."""
        return self._query(lambda: self.core.game(sid))

    def drop_counts(self) -> Counter[str]:
        """Datagrams dropped so far, by reason, over the lobby and all sessions."""
        return self._query(self.core.drop_counts)

    def resumable(self) -> list[tuple[Path, dict[str, Any]]]:
        """Unfinished sessions in the journal folder (path, header), newest first."""
        return self._query(self.core.resumable)

    # ================================================================ commands

    def invite(self, peer: int | str, rules: Rules | None = None,
               pin: str | None = None) -> int:
        """Invite a peer by node id, display name or ``HOST:PORT``; returns the
        invitation id.  With ``pin``, the invitee must type the same PIN to accept."""
        return self._command(lambda now: self.core.invite(peer, now, rules, pin))

    def watch(self, name: str, settle: float | None = None) -> None:
        """Be told whom ``name`` means once it has settled
        (:meth:`PeerCore.watch <durak_net.peer.PeerCore.watch>`)."""
        if settle is None:
            self._command(lambda now: self.core.watch(name, now))
        else:
            self._command(lambda now: self.core.watch(name, now, settle))

    def accept(self, invite: int, pin: str | None = None) -> None:
        """Accept an invitation (with the PIN the inviter read out, if it asked for one)."""
        self._command(lambda now: self.core.accept(invite, now, pin))

    def decline(self, invite: int, reason: str = "declined") -> None:
        self._command(lambda now: self.core.decline(invite, now, reason))

    def cancel(self, invite: int) -> None:
        self._command(lambda now: self.core.cancel(invite, now))

    def act(self, sid: int, action: Action) -> None:
        """Play ``action`` in session ``sid`` (raises IllegalAction with the reason)."""
        self._command(lambda now: self.core.act(sid, action, now))

    def start_next_game(self, sid: int, game: int | None = None) -> int:
        """Agree to a rematch in session ``sid``; returns the game number.

        Pass ``game`` (from a ``NextGameRequested`` event) to make agreeing
        idempotent: a game already dealt meanwhile is not an error.
        """
        return self._command(lambda now: self.core.start_next_game(sid, now, game))

    def leave(self, sid: int, reason: str = "left the game") -> None:
        """Say goodbye in session ``sid`` (the journal marks it finished)."""
        self._command(lambda now: self.core.leave(sid, now, reason))

    def host_table(self, rules: Rules, clock: int = 0, grace: int = 60,
                   bots: Sequence[str] = ()) -> int:
        """Host a table (:meth:`PeerCore.host_table
        <durak_net.peer.PeerCore.host_table>`); returns its id."""
        return self._command(lambda now: self.core.host_table(rules, now, clock, grace, bots))

    def join(self, peer: int | str, team: int = ANY_TEAM) -> int:
        """Ask a peer for a seat at its table (:meth:`PeerCore.join
        <durak_net.peer.PeerCore.join>`); returns the table id."""
        return self._command(lambda now: self.core.join(peer, now, team))

    def add_bot(self, table: int, spec: str = "greedy", seat: int | None = None) -> int:
        """Seat a bot of ours at a free seat of a table we host; returns the seat."""
        return self._command(lambda now: self.core.add_bot(table, now, spec, seat))

    def start_table(self, table: int) -> None:
        """Deal the first game at a table we host (every seat must be taken)."""
        self._command(lambda now: self.core.start_table(table, now))

    def resume(self, path: Path | str) -> int:
        """Resume the session journaled in ``path``; returns its id."""
        return self._command(lambda now: self.core.resume(path, now))


class EventPump:
    """The events of a byte mover with threads (the UDP node, the aiortc node), handed
    to its one callback in order, by one thread at a time and outside the mover's lock
    (so a handler may call the peer's commands)."""

    _lock: threading.RLock
    _deliver_lock: threading.Lock
    _outbox: list[Any]
    _on_event: Callable[[Any], None]
    handler_errors: list[BaseException]

    def _pump(self) -> None:
        """Deliver queued events in order, one thread at a time, outside the lock."""
        while True:
            with self._lock:
                if not self._outbox:
                    return
            if not self._deliver_lock.acquire(blocking=False):
                return  # another thread is delivering; it will take ours too
            try:
                while True:
                    with self._lock:
                        if not self._outbox:
                            break
                        event = self._outbox.pop(0)
                    try:
                        self._on_event(event)
                    except Exception as exc:  # the handler's bug must not stop the peer
                        self.handler_errors.append(exc)
            finally:
                self._deliver_lock.release()
