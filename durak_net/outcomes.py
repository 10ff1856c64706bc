"""How each game of a table ended, a part of the session: stops, faults, audits.

A game ends by being played out, or stops: on a Fault (sent or received, signed by
its finder), because a seat left, or because one went silent.  Then every seat
publishes its seed and the audit (:mod:`durak_net.audit`) gives the verdict.  This part
keeps, per game, whether it stopped and why, the Fault that stopped it (resent to a
seat back from its journal), whether the evidence of a Fault against the host checked
out here, when a seat that withholds its seed is named, and the verdicts.  The session
decides; a journal replays through the ``replay_*`` methods.

>>> from durak_net.audit import Stop
>>> part = Outcomes()
>>> part.replay_stop(1, Stop(1, 4, "left the game", False))
>>> part.stopped(1), part.stopped(2)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .audit import Stop, Verdict
from .wire import Fault


@dataclass
class Outcomes:
    """Per game: stopped or not, why, the Fault, the audit due and the verdict."""

    #: Games stopped before their end (no more entries are made or applied).
    broken: set[int] = field(default_factory=set)
    #: Why each stopped game stopped.
    stops: dict[int, Stop] = field(default_factory=dict)
    #: The Fault that stopped a game (ours, or another seat's as signed).
    faults: dict[int, Fault] = field(default_factory=dict)
    #: Games stopped on a fault of the host whose evidence checked out here.
    proven: set[int] = field(default_factory=set)
    #: Audit verdicts by game.
    audits: dict[int, Verdict] = field(default_factory=dict)
    #: When a connected seat that has not published its seed refuses the audit.
    audit_due: dict[int, float] = field(default_factory=dict)

    def stopped(self, game: int) -> bool:
        return game in self.broken

    def settled(self, game: int, verdict: Verdict) -> None:
        """Game ``game``'s verdict is in: nothing more is due."""
        self.audits[game] = verdict
        self.audit_due.pop(game, None)

    def replay_stop(self, game: int, stop: Stop) -> None:
        self.broken.add(game)
        self.stops[game] = stop

    def replay_publish(self, game: int, due: float) -> None:
        """We published our seed for game ``game``; its audit is due by ``due``."""
        self.audit_due.setdefault(game, due)

    def replay_proven(self, game: int) -> None:
        self.proven.add(game)

    def replay_audit(self, game: int, verdict: Verdict) -> None:
        self.settled(game, verdict)
