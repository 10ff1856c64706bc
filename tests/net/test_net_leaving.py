"""A seat that leaves mid-game, proven by the seat (section 7 of the protocol, "A player
who leaves"; version 6).

Once play has begun, a player that gets up signs its Bye (its seat key, over the table,
its seat, the game, the log length it left at, that log's link hash and its reason);
the host passes it on as the evidence of its Status "left".  A seat takes "left" only
with that signature: the game stops unfinished and fair, naming nobody.  A Status "left"
without it, with another seat's, another game's or another table's, or about the seat
that hears it, is the host's claim alone: every seat that gets it names the host
(``forged``), the seat said to have left included, and no honest seat is named.  The
tables here are as over channels (``direct=False``): no seat hears another but through
the host, so the signature is all a seat has to go by.  In simulated time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net import leaving
from durak_net.session import HOST
from durak_net.wire import Status

from .tables import Table, make_table


def _playing(seed: int, players: int, *, games: int = 1, direct: bool = False) -> Table:
    """A table whose first game is under way (four entries in, at every seat)."""
    table = make_table(seed, Rules(players=players, deck_size=24), games=games,
                       direct=direct)
    assert table.net.run(lambda: all(len(s.session.log) >= 4 for s in table.seats),
                         limit=60.0)
    return table


def _verdicts(table: Table, seats: list[int]) -> list[ev.GameAudited]:
    """The verdict of the game stopped, at each of ``seats`` (the last one each has)."""
    number = table.host.game_no
    assert table.net.run(lambda: all(
        any(a.game == number for a in table.seats[s].audited) for s in seats),
        limit=table.net.now + 120.0)
    return [next(a for a in table.seats[s].audited if a.game == number) for s in seats]


def _say_left(table: Table, seat: int, evidence: bytes, to: list[int]) -> None:
    """The malicious host says ``seat`` left, with ``evidence``, to the seats ``to``
    (it was not told so by that seat, which is still playing)."""
    host = table.host
    for s in to:
        host.links[s].push(Status(0, seat, "left", "dinner", evidence), table.net.now)
    table.net.touch(table.addrs[0])


def _host_named(table: Table, seats: list[int]) -> None:
    for s, verdict in zip(seats, _verdicts(table, seats), strict=True):
        assert (verdict.fair, verdict.code, verdict.culprit) == (False, "forged", HOST), (
            s, verdict)
        assert "left the game, with no goodbye signed by" in verdict.verdict, verdict
        stopped = [e for e in table.seats[s].events if isinstance(e, ev.GameStopped)]
        assert stopped and all(e.culprit == HOST for e in stopped), (s, stopped)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_honest_leaver_stops_the_game_fair_naming_nobody(players: int) -> None:
    table = _playing(70 + players, players)
    leaver = players - 1
    table.seats[leaver].session.close(table.net.now, "dinner")
    others = [s for s in range(players) if s != leaver]
    for verdict in _verdicts(table, others):
        assert verdict.fair and verdict.culprit is None, verdict
    for s in others:
        stop = table.seats[s].session.outcomes.stops[1]
        assert (stop.seat, stop.reason, stop.claim) == (leaver, "left the game", False)
    assert table.host.drops["bye_unsigned"] == 0
    for s in others[1:]:  # the host passed the leaver's own signed Bye on
        said = [(e.seat, e.state, e.detail) for e in table.seats[s].events
                if isinstance(e, ev.SeatStatus)]
        assert said == [(leaver, "left", "dinner")], said


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_that_says_a_playing_seat_left_is_named_at_every_seat_the_victim_too(
        players: int) -> None:
    table = _playing(80 + players, players)
    victim = 1
    seats = list(range(1, players))  # every seat, the one said to have left included
    _say_left(table, victim, b"", seats)
    _host_named(table, seats)
    for s in seats:
        assert 1 in table.seats[s].session.outcomes.proven


def _bye_of(at: Table, signer: int, **changes: Any) -> bytes:
    """Seat ``signer``'s Bye of the game in play (as its session would sign it), with
    ``changes`` to what it signs."""
    session = at.seats[signer].session
    index, prev = session.game_log.head(session.game_no)
    fields: dict[str, Any] = dict(table=session.table, seat=signer, game=session.game_no,
                                  index=index, prev=prev, reason="dinner")
    fields.update(changes)
    return leaving.encode(leaving.signed_bye(session.identity, **fields))


FORGERIES: dict[str, Callable[[Table], bytes]] = {
    # seat 1 signs a goodbye that says it is seat 2's
    "another seat's": lambda t: _bye_of(t, 1, seat=2),
    # seat 2's own goodbye from another table it sat at
    "another table's": lambda t: _bye_of(t, 2, table=t.host.table ^ 1),
    # seat 2's own goodbye with a link hash of a log it never left
    "another log's": lambda t: _bye_of(t, 2, index=1, prev=bytes(32)),
    "unreadable": lambda t: b"\xc1" * 40,
}


@pytest.mark.parametrize("how", sorted(FORGERIES))
def test_a_left_backed_by_a_forged_or_replayed_bye_names_the_host(how: str) -> None:
    table = _playing(90, 3)
    _say_left(table, 2, FORGERIES[how](table), [1, 2])
    _host_named(table, [1, 2])


def test_a_bye_of_the_previous_game_is_no_evidence_for_this_one() -> None:
    """Seat 2's own signed goodbye from game 1, on game 1's log, shown in game 2."""
    table = make_table(93, Rules(players=3, deck_size=24), games=2, direct=False)
    net, seat2 = table.net, table.seats[2].session
    assert net.run(lambda: seat2.game_no == 1 and seat2.game is not None
                   and seat2.game.is_over, limit=600.0)
    index, prev = seat2.game_log.head(1)
    old = leaving.encode(leaving.signed_bye(seat2.identity, table=seat2.table, seat=2,
                                            game=1, index=index, prev=prev, reason="dinner"))
    assert net.run(lambda: all(s.session.game_no == 2 and len(s.session.log) >= 2
                               for s in table.seats), limit=net.now + 600.0)
    _say_left(table, 2, old, [1, 2])
    _host_named(table, [1, 2])


def test_a_bye_the_seat_did_not_sign_is_dropped_by_the_host_and_told_to_nobody() -> None:
    table = _playing(91, 3)
    host, net = table.host, table.net
    forger = table.seats[1].session
    bye = leaving.decode(_bye_of(table, 1, seat=2))  # seat 1 signs as seat 2 would
    assert bye is not None
    forger.links[HOST].push(bye, net.now)  # (on its own link: it claims to leave)
    net.touch(table.addrs[1])
    assert net.run(lambda: host.drops["bye_unsigned"] == 1, limit=net.now + 10.0)
    assert not [e for e in table.seats[2].events
                if isinstance(e, ev.SeatStatus) and e.state == "left"]
    assert 1 not in host.outcomes.stops


def test_a_leaver_still_heard_after_its_signed_bye_gets_no_honest_host_named() -> None:
    """Where seats hear each other directly: a leaver that sends its signed Bye without
    its seed, and goes on sending heartbeats (as its signed ones would arrive), does not
    make the seat that hears it name the host that passed its Bye on (version 5 named
    it ``said_left`` while the audit waited for the seed); its signature says it left,
    and the seed it kept back names it."""
    table = _playing(94, 3, direct=True)
    net, bystander, leaver = table.net, table.seats[1].session, table.seats[2].session

    def heartbeats(now: float) -> None:
        bystander.presence.heard_from(2, now)

    net.hooks.append(heartbeats)
    bye = leaver.leaving.goodbye("dinner", started=True, game_no=1, in_game=True)
    leaver.links[HOST].push(bye, net.now)  # (no seed published first)
    net.touch(table.addrs[2])
    (verdict,) = _verdicts(table, [1])
    assert verdict.culprit in (None, 2), verdict  # never the honest host
    assert table.seats[1].session.outcomes.stops[1].claim is False


def test_a_restored_seat_reaches_the_same_verdict_on_an_unbacked_left() -> None:
    table = _playing(92, 3)
    _say_left(table, 2, b"", [1, 2])
    seat = table.seats[1]
    assert table.net.run(lambda: 1 in seat.session.outcomes.stops, limit=table.net.now + 10)
    seat.collect()
    restored = table.restart(1)
    assert 1 in restored.outcomes.proven
    assert restored.outcomes.stops[1].code == "forged"
    _host_named(table, [1, 2])
