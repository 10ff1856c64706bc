"""What a part of the session asks of its effects, kept to look at: the shared core of
the recorders of the parts' own tests (tests/net/test_net_*_part.py), which add what
their part alone asks for.  No session and no network: these stand in for both."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from durak_net.wire import Frame


@dataclass
class Recorded:
    """The events a part emits and the journal records it writes."""

    events: list[Any] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)

    def emit(self, event: Any, /) -> None:
        self.events.append(event)

    def record(self, **record: Any) -> None:
        self.records.append(record)


@dataclass
class Broadcasts(Recorded):
    """Also the frames a part sends to every seat, each with the seat left out."""

    sent: list[tuple[Frame, int | None]] = field(default_factory=list)

    def broadcast(self, frame: Frame, now: float, /, but: int | None = None) -> None:
        self.sent.append((frame, but))
