"""The joining part on its own (no session, no network): the host's Seatings, a seat's
Hello, the host's Seating taken by a seated player, the table started, and the journal's
``seating`` and ``start`` records replayed."""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from durak_net import events as ev
from durak_net.clock import MoveClock
from durak_net.identity import Identity
from durak_net.joining import Joining
from durak_net.notes import Note
from durak_net.outcomes import HOST
from durak_net.seating import Player, SeatingChart
from durak_net.wire import Frame, Hello, Seating

from .recorders import Recorded

TABLE = 0x101


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


ANN, BEN, CAT = _identity(1), _identity(2), _identity(3)


@dataclass
class Recorder(Recorded):
    """The effects a joining part asks for, kept to look at."""

    sent: list[Frame] = field(default_factory=list)
    violations: list[Note] = field(default_factory=list)
    began: int = 0

    def broadcast(self, frame: Frame, now: float, /, but: int | None = None) -> None:
        self.sent.append(frame)

    def violation(self, note: Note, now: float, /) -> None:
        self.violations.append(note)

    def play_begins(self, now: float, /) -> None:
        self.began += 1


def _host(players: int = 3, clock: int = 30, grace: int = 45) -> Joining:
    chart = SeatingChart(TABLE, players, HOST, Player(HOST, "Ann", ANN.public, "host"))
    part = Joining(TABLE, HOST, players, seating=chart, clock=MoveClock())
    part.clock.seconds, part.grace = clock, grace
    return part


def _player(seat: int = 1, players: int = 3) -> Joining:
    who = [ANN, BEN, CAT][seat]
    chart = SeatingChart(TABLE, players, seat, Player(seat, "Ben", who.public, "player"))
    return Joining(TABLE, seat, players, seating=chart, clock=MoveClock())


def test_the_host_tells_every_seat_who_sits_where_with_the_clock_and_the_grace() -> None:
    host, fx = _host(), Recorder()
    host.seating.seat(1, "Ben", "player")
    host.tell(fx, 0.0)
    frame, = fx.sent
    assert isinstance(frame, Seating)
    assert (frame.table, frame.clock, frame.grace, frame.start) == (TABLE, 30, 45, False)
    assert [(i.seat, i.name, i.kind) for i in frame.seats] == [
        (0, "Ann", "host"), (1, "Ben", "player"), (2, "", "open")]
    assert fx.records == [] and fx.began == 0 and not host.started


def test_a_table_missing_a_hello_starts_only_when_the_last_hello_is_in_and_once() -> None:
    host, fx = _host(players=2), Recorder()
    host.seating.seat(1, "Ben", "player")
    host.tell(fx, 0.0, start=True)  # Ben's key is not in yet
    assert not host.started and fx.began == 0 and fx.sent[-1].start is False
    host.on_hello(fx, 1, Hello(0, 1, "Ben", BEN.public), 1.0)
    assert host.started and fx.began == 1
    last = fx.sent[-1]
    assert isinstance(last, Seating) and last.start and last.seats[1].sign_key == BEN.public
    assert [r["t"] for r in fx.records] == ["hello", "start"]
    assert [type(e) for e in fx.events] == [ev.SeatTaken]
    host.on_hello(fx, 1, Hello(0, 1, "Ben", BEN.public), 2.0)  # a copy: no second start
    assert fx.began == 1 and fx.records[-1]["t"] == "hello"


def test_a_hello_over_another_seats_link_is_a_violation_that_changes_nothing() -> None:
    host, fx = _host(), Recorder()
    host.seating.seat(1, "Ben", "player")
    host.on_hello(fx, 1, Hello(0, 2, "Cat", CAT.public), 0.0)
    assert [n.code for n in fx.violations] == ["hello_wrong_link"]
    assert fx.sent == [] and fx.records == [] and fx.events == []
    assert host.seating.missing() == [1, 2]


def test_a_seated_player_takes_the_hosts_seating_its_clock_and_grace_and_begins_on_start(
) -> None:
    ben, fx = _player(), Recorder()
    host = _host()
    for seat, who, name in ((1, BEN, "Ben"), (2, CAT, "Cat")):
        host.seating.seat(seat, name, "player")
        host.on_hello(Recorder(), seat, Hello(0, seat, name, who.public), 0.0)
    ben.on_seating(fx, host.frame(), 0.0)
    assert (ben.clock.seconds, ben.grace) == (30, 45) and not ben.started
    assert ben.seating.keys() == [ANN.public, BEN.public, CAT.public]
    ben.on_seating(fx, host.frame(start=True), 1.0)
    assert ben.started and fx.began == 1
    assert [r["t"] for r in fx.records] == ["seating", "seating"]
    assert [e.started for e in fx.events if isinstance(e, ev.TableChanged)] == [False, True]
    ben.on_seating(fx, host.frame(start=True), 2.0)  # (again: play began already)
    assert fx.began == 1


def test_a_seating_that_changes_a_known_key_or_reaches_the_host_is_a_violation() -> None:
    ben, fx = _player(), Recorder()
    host = _host()
    host.seating.seat(2, "Cat", "player")
    host.on_hello(Recorder(), 2, Hello(0, 2, "Cat", CAT.public), 0.0)
    ben.on_seating(fx, host.frame(), 0.0)
    honest = host.frame()
    forged = msgspec.structs.replace(honest, seats=[
        *honest.seats[:2], msgspec.structs.replace(honest.seats[2], sign_key=ANN.public)])
    ben.on_seating(fx, forged, 1.0)
    assert [n.code for n in fx.violations] == ["host_changed_key"]
    assert ben.seating.players[2].sign_key == CAT.public and len(fx.records) == 1
    other, ofx = _host(), Recorder()
    other.on_seating(ofx, host.frame(), 0.0)
    assert [n.code for n in ofx.violations] == ["seating_from_player"]


def test_the_journals_seating_and_start_records_replay_to_the_same_table() -> None:
    ben, fx = _player(), Recorder()
    host = _host()
    host.seating.seat(2, "Cat", "player")
    host.on_hello(Recorder(), 2, Hello(0, 2, "Cat", CAT.public), 0.0)
    ben.on_seating(fx, host.frame(start=True), 0.0)
    again = _player()
    again.replay_seating(fx.records[-1])
    assert again.started and (again.clock.seconds, again.grace) == (30, 45)
    assert again.seating.players == ben.seating.players
    hosted = _host(players=2)
    hosted.replay_start()
    assert hosted.started
    waiting = _host(players=2)
    waiting.resumed()  # a two-seat table not started yet starts on the next Hello
    assert waiting.seating.start_when_ready
    hosted.seating.start_when_ready = False
    hosted.resumed()
    assert not hosted.seating.start_when_ready
