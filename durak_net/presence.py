"""Who at the table is still there, one part of a seat's session: since when each seat
has been silent as this seat knows it, and when that silence may end a game or open a
seat's hand.

Three sources, trusted differently: a seat at the other end of one of our links (the
host, for a seated player; every seat, for the host) is silent since we last heard it;
a seat the host *reports* lost is only the host's word; a seated player's signed
heartbeats, heard straight from it, are what a seat checks the host's word against
before it publishes its share of that seat's seed (section 7 of the protocol).  No I/O,
no clock reads: ``now`` comes in.

>>> presence = Presence(heard_since=0.0)
>>> presence.heard_from(2, 30.0)
>>> presence.release_time(2, grace=20, has_addr=True)  # 20 s after we last heard it
50.0
>>> presence.release_time(2, grace=20, has_addr=False)  # no way to hear it: never
inf
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: The grace period (seconds) of a table that sets none: how long a silent seat is
#: waited for before its game is abandoned (a verdict naming it) and the table ends.
DEFAULT_GRACE = 60
#: A game is abandoned no sooner than this after its seat went silent (seconds), however
#: short the table's grace (which may be a second, to hand a lost seat to a bot at
#: once): a late heartbeat or two must not end a table.
MIN_ABANDON = 10


def abandon_after(grace: int) -> float:
    """How long a silent seat is waited for before its game is abandoned."""
    return float(max(grace or DEFAULT_GRACE, MIN_ABANDON))


@dataclass
class Presence:
    """Since when each seat has been silent, and when we last heard each directly."""

    #: Seats at the other end of one of our links, silent since then.
    lost_since: dict[int, float] = field(default_factory=dict)
    #: A seated player: seats the host reported lost, since we were told.
    reported_lost: dict[int, float] = field(default_factory=dict)
    #: A seated player: when we last heard each other seated player's heartbeat.
    heard: dict[int, float] = field(default_factory=dict)
    #: Since when we could have heard them (our session began, or was restored).
    heard_since: float = 0.0
    #: Seats the host handed to a bot whose share we hold back until we too have not
    #: heard them for the grace period: seat -> game.
    share_wait: dict[int, int] = field(default_factory=dict)

    def lost(self, seat: int, since: float) -> None:
        self.lost_since[seat] = since

    def back(self, seat: int) -> None:
        self.lost_since.pop(seat, None)

    def reported(self, seat: int, state: str, now: float) -> None:
        """The host says ``seat`` is ``state`` (``"lost"``, ``"back"``, ...)."""
        if state == "lost":
            self.reported_lost.setdefault(seat, now)
        else:
            self.reported_lost.pop(seat, None)

    def heard_from(self, seat: int, now: float) -> None:
        """A heartbeat signed by ``seat`` arrived straight from it."""
        self.heard[seat] = now

    def release_time(self, seat: int, grace: int, has_addr: bool) -> float:
        """When we may publish our share of ``seat``: the grace period after we last
        heard it ourselves (or could have); never, for a seat that gave us no address."""
        if not has_addr:
            return float("inf")
        heard = max(self.heard.get(seat, self.heard_since), self.heard_since)
        return heard + max(grace, 1)
