"""The leaving part on its own (no session, no network): our signed Bye, the host's
Status "left" that passes a seat's Bye on, and a seat that takes "left" only with that
seat's own signature for the game in play; driven with hand-made signed frames and a
recorder for its effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from durak_net import events as ev
from durak_net import leaving
from durak_net.audit import Stop
from durak_net.gamelog import GameLog
from durak_net.handover import HandOver
from durak_net.identity import Identity
from durak_net.leaving import Leaving
from durak_net.notes import Note
from durak_net.outcomes import HOST, Outcomes
from durak_net.presence import Presence
from durak_net.seating import Player, SeatingChart
from durak_net.wire import BYE_EVIDENCE_BYTES, Bye, Status, encoded_size

from .recorders import Broadcasts

TABLE = 0x1EAF


def _identity(seat: int) -> Identity:
    return Identity.generate(lambda size: bytes([seat + 40]) * size)


@dataclass
class Recorder(Broadcasts):
    """The effects a leaving part asks for, kept to look at."""

    stops: list[tuple[int, int, str, Note]] = field(default_factory=list)
    set_stops: list[tuple[int, Stop]] = field(default_factory=list)
    published: list[int] = field(default_factory=list)
    opened: list[int] = field(default_factory=list)
    seatings: int = 0
    ending: str = ""
    closed: list[str] = field(default_factory=list)
    under_way: bool = False

    def stop(self, number: int, culprit: int, code: str, note: Note, now: float, /) -> None:
        self.stops.append((number, culprit, code, note))

    def set_stop(self, number: int, stop: Stop, /) -> None:
        self.set_stops.append((number, stop))

    def publish_seed(self, number: int, now: float, /) -> None:
        self.published.append(number)

    def open_seat_again(self, seat: int, /) -> None:
        self.opened.append(seat)

    def seating_changed(self, now: float, /) -> None:
        self.seatings += 1

    def end_table(self, reason: str, /) -> None:
        self.ending = reason

    def audit_under_way(self, number: int, /) -> bool:
        return self.under_way

    def close(self, now: float, reason: str, /) -> None:
        self.closed.append(reason)


def _part(seat: int, entries: int = 3, game: int = 1) -> Leaving:
    """Seat ``seat``'s leaving part at a table of three whose game ``game`` has
    ``entries`` entries (their link hashes made up: every seat holds the same)."""
    seating = SeatingChart(TABLE, 3, seat, Player(seat, f"P{seat}", _identity(seat).public,
                                                  "host" if seat == HOST else "player"))
    for s in range(3):
        if s != seat:
            seating.players[s] = Player(s, f"P{s}", _identity(s).public, "player")
    log = GameLog()
    log.begin(game)
    log.links[game] = [bytes([i]) * 32 for i in range(1, entries + 1)]
    log.logs[game] = [None] * entries  # type: ignore[list-item]  # (only their number)
    return Leaving(TABLE, seat, _identity(seat), seating=seating, game_log=log,
                   outcomes=Outcomes(), handover=HandOver(3, host=seat == HOST),
                   presence=Presence())


def _bye(signer: int, **changes: Any) -> Bye:
    """Seat ``signer``'s Bye of game 1 at its log of three entries, with ``changes``."""
    fields: dict[str, Any] = dict(table=TABLE, seat=signer, game=1, index=3,
                                  prev=bytes([3]) * 32, reason="dinner")
    fields.update(changes)
    return leaving.signed_bye(_identity(signer), **fields)


def test_a_seated_player_signs_its_bye_once_play_has_begun_for_the_game_it_leaves() -> None:
    part = _part(2)
    assert part.goodbye("tea", started=False, game_no=0, in_game=False) == Bye(0, "tea")
    bye = part.goodbye("tea", started=True, game_no=1, in_game=True)
    assert (bye.game, bye.index, bye.prev) == (1, 3, bytes([3]) * 32)
    assert leaving.backs(bye, table=TABLE, seat=2, game=1, key=_identity(2).public,
                         link=lambda n: bytes([n]) * 32)
    between = part.goodbye("tea", started=True, game_no=1, in_game=False)
    assert (between.game, between.index, between.prev) == (2, 0, b"")  # the next game
    assert _part(HOST).goodbye("tea", started=True, game_no=1, in_game=True).sig == b""


def test_the_host_passes_a_seats_own_bye_on_as_the_evidence_of_left() -> None:
    host, fx = _part(HOST), Recorder()
    bye = _bye(2)
    assert host.on_bye(fx, 2, bye, 5.0, started=True, in_game=True, game_no=1)
    ((status, but),) = fx.sent
    assert isinstance(status, Status) and but == 2
    assert (status.seat, status.state, status.detail) == (2, "left", "dinner")
    assert leaving.decode(status.evidence) == bye
    assert fx.set_stops == [(1, Stop(2, 3, "left the game", False))] and fx.published == [1]
    assert fx.ending == "P2 left the table" and fx.records == [
        {"t": "gone", "seat": 2, "reason": "dinner"}]
    assert host.handover.seat_state == {2: "left"}


@pytest.mark.parametrize("bye", [
    Bye(0, "dinner"),  # unsigned
    _bye(1, seat=2),  # seat 1's signature, as seat 2's
    _bye(2, game=2),  # another game's
    _bye(2, index=2, prev=bytes(32)),  # made on another log
])
def test_the_host_drops_a_bye_that_is_not_the_seats_own_for_the_game_in_play(
        bye: Bye) -> None:
    host, fx = _part(HOST), Recorder()
    assert not host.on_bye(fx, 2, bye, 5.0, started=True, in_game=True, game_no=1)
    assert fx.sent == [] and fx.set_stops == [] and fx.ending == ""


def test_before_play_a_bye_opens_the_seat_again() -> None:
    host, fx = _part(HOST, entries=0), Recorder()
    assert host.on_bye(fx, 1, Bye(0, "later"), 1.0, started=False, in_game=False, game_no=0)
    assert fx.opened == [1] and fx.seatings == 1
    assert fx.sent == [(Status(0, 1, "left", "later"), None)]
    assert fx.records == [{"t": "left", "seat": 1, "reason": "later"}]


def test_between_games_the_table_ends_at_once_with_no_audit_under_way() -> None:
    host, fx = _part(HOST), Recorder()
    assert host.on_bye(fx, 2, _bye(2, game=2, index=0, prev=b""), 1.0, started=True,
                       in_game=False, game_no=1)
    assert fx.set_stops == [] and fx.closed == ["P2 left the table"]


def test_a_seat_takes_left_with_the_leavers_signed_bye_and_stops_the_game_fair() -> None:
    seat, fx = _part(1), Recorder()
    status = Status(0, 2, "left", "whatever", leaving.encode(_bye(2)))
    seat.on_status(fx, status, 5.0, started=True, in_game=True, game_no=1)
    assert fx.stops == []
    assert fx.set_stops == [(1, Stop(2, 3, "left the game", False))] and fx.published == [1]
    (said,) = fx.events
    assert isinstance(said, ev.SeatStatus) and (said.seat, said.state, said.detail) == (
        2, "left", "dinner")  # the words it signed, not the host's
    assert seat.handover.seat_state == {2: "left"} and seat.outcomes.proven == set()


WITHOUT: dict[str, Status] = {
    "no bye": Status(0, 2, "left", "dinner"),
    "another seat's": Status(0, 2, "left", "", leaving.encode(_bye(1, seat=2))),
    "another table's": Status(0, 2, "left", "", leaving.encode(_bye(2, table=TABLE ^ 1))),
    "the previous game's": Status(0, 2, "left", "", leaving.encode(_bye(2, game=0))),
    "another log's": Status(0, 2, "left", "", leaving.encode(_bye(2, prev=bytes(32)))),
    "unreadable": Status(0, 2, "left", "", b"\xc1" * 30),
    "about us": Status(0, 1, "left", "", leaving.encode(_bye(1))),
}


@pytest.mark.parametrize("how", sorted(WITHOUT))
def test_left_without_the_seats_own_bye_of_this_game_names_the_host_proven(how: str) -> None:
    seat, fx = _part(1), Recorder()
    status = WITHOUT[how]
    seat.on_status(fx, status, 5.0, started=True, in_game=True, game_no=1)
    ((number, culprit, code, note),) = fx.stops
    assert (number, culprit, code) == (1, HOST, "forged")
    assert note.code == "left_unbacked"
    assert seat.outcomes.proven == {1} and fx.records == [{"t": "proven", "game": 1}]
    assert fx.set_stops == [] and fx.events == [] and seat.handover.seat_state == {}


def test_left_between_games_stops_nothing_and_needs_no_evidence() -> None:
    seat, fx = _part(1), Recorder()
    seat.on_status(fx, Status(0, 2, "left", "dinner"), 5.0, started=True, in_game=False,
                   game_no=1)
    assert fx.stops == [] and fx.set_stops == [] and len(fx.events) == 1


def test_a_signed_bye_with_the_longest_reason_fits_as_evidence_and_in_a_datagram() -> None:
    bye = _bye(2, reason="ж" * 300)
    assert len(bye.reason.encode()) <= 200 and bye.reason == "ж" * 100
    evidence = leaving.encode(bye)
    assert len(evidence) <= BYE_EVIDENCE_BYTES
    assert leaving.backs(bye, table=TABLE, seat=2, game=1, key=_identity(2).public,
                         link=lambda n: bytes([n]) * 32)
    assert encoded_size(Status(2**63, 2, "left", bye.reason, evidence)) <= 820


def test_replaying_the_hosts_journal_ends_the_table_as_it_was_ending() -> None:
    host, fx = _part(HOST), Recorder()
    host.replay_gone(fx, 2)
    host.replay_left(fx, 1)
    assert fx.ending == "P2 left the table" and fx.opened == [1] and fx.sent == []
