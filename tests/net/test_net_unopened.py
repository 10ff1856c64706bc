"""A proposal committed but never opened does not stall the table.

A seat sends its commitment, the host places it (its signed Order), and the seat, still
connected, never sends the opening.  The host appends nothing while a placed proposal is
not opened, so without a bound the table would wait for ever.  After
:data:`~durak_net.proposals.OPEN_WITHIN` seconds of the seat being connected the host
stops the game on a Fault ``unopened`` naming it; the Fault carries the seat's signed
Propose and the host's signed Order, and the audit gives every seat a verdict.  That the
seat never opened only the host can see: a third seat names nobody (``disputed``), and
nobody ever names an honest seat.
"""

from __future__ import annotations

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net.proposals import OPEN_WITHIN
from durak_net.session import Session
from durak_net.wire import Order

from .tables import Table, make_table

VICTIM = 1


class _NeverOpens(Session):
    """A seat that commits to moves but keeps the opening of its ``withhold``-th one to
    itself (it stays connected: its heartbeats and everything else go on)."""

    withhold = 2
    orders = 0

    def _on_order(self, link, frame: Order, now: float) -> None:  # type: ignore[no-untyped-def]
        if frame.pid in self.pending and self.proposals.own[frame.pid].index < 0:
            self.orders += 1
            if self.orders >= self.withhold:
                return  # committed, placed, never opened
        super()._on_order(link, frame, now)


def _table(seed: int, players: int) -> Table:
    table = make_table(seed, Rules(players=players, deck_size=36), start=False)
    table.seats[VICTIM].session.__class__ = _NeverOpens
    host = table.host
    assert table.net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    host.start(table.net.now)
    return table


@pytest.mark.parametrize("players", [2, 3])
def test_a_seat_that_never_opens_its_placed_move_is_named_after_the_bound(
        players: int) -> None:
    table = _table(41 + players, players)
    net, host = table.net, table.host
    assert net.run(lambda: host.proposals.slot is not None and host.proposals.slot.seat ==
                   VICTIM and table.seats[VICTIM].session.orders >= 2, limit=120.0)
    placed = net.now
    assert net.run(lambda: all(s.audited for s in table.seats), limit=OPEN_WITHIN + 60.0)
    stopped = [e for e in table.seats[0].events if isinstance(e, ev.GameStopped)]
    assert stopped and stopped[0].culprit == VICTIM
    assert stopped[0].at - placed >= OPEN_WITHIN - 0.5  # not before the bound...
    assert stopped[0].at - placed <= OPEN_WITHIN + 5.0  # ...and not a hang
    assert "within 15 s while connected" in stopped[0].detail
    verdict = table.seats[0].audited[0]
    assert (verdict.code, verdict.culprit) == ("unopened", VICTIM)
    fault = host.outcomes.faults[1]
    assert fault.code == "unopened" and fault.seat == VICTIM and len(fault.evidence) == 2
    for side in table.seats[2:]:  # a third seat cannot see the opening never came
        (third,) = side.audited
        assert third.culprit in (None, VICTIM) and third.code in ("disputed", "unopened")
    for side in table.seats:  # an honest seat is never named
        assert all(a.culprit in (None, VICTIM) for a in side.audited if side.session.seat
                   != VICTIM)


def test_a_seat_that_opens_in_time_is_never_timed_out() -> None:
    """The bound applies to the opening only: a seat that thinks long before it proposes
    is the move clock's business, and the 36-card games of a clean table end fair."""
    table = make_table(7, Rules(players=3, deck_size=36))
    assert table.net.run(table.done, limit=600.0)
    assert not table.bad()
