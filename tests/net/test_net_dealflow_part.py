"""The deal-flow part on its own (no session, no network): deal messages in and out
between seats wired in memory, the next game agreed to and asked for, each game begun
once it is dealt, and a journal's deal records replayed through the same methods."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from durak_core import Rules
from durak_net import events as ev
from durak_net.dealer import DealFault
from durak_net.dealflow import DealFlow
from durak_net.dealing import Dealing
from durak_net.gamelog import GameLog
from durak_net.identity import Identity
from durak_net.notes import Note
from durak_net.outcomes import HOST, Outcomes, deal_signed
from durak_net.play import Play
from durak_net.proposals import Proposals
from durak_net.seating import Player, SeatingChart
from durak_net.wire import Deal, Frame

TABLE = 0xDF10


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


IDS = [_identity(1), _identity(2), _identity(3)]
KEYS = [i.public for i in IDS]


@dataclass
class Seat:
    """One seat's deal-flow part with its siblings, and a recorder of its effects that
    puts what it sends on the table's queue (a seated player's frames go to the host;
    the host's to every seat)."""

    flow: DealFlow
    play: Play
    outcomes: Outcomes
    queue: list[tuple[int, int, Deal]]  # (to, over the link of, frame)
    players: int
    events: list[Any] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    violations: list[Note] = field(default_factory=list)
    faults: list[DealFault] = field(default_factory=list)
    begun: int = 0
    cards: int = 0
    audits: list[int] = field(default_factory=list)
    ending: bool = False
    sending: bool = True  # (False: replaying a journal, nothing leaves)

    @property
    def seat(self) -> int:
        return self.flow.seat

    # --- the effects ---

    @property
    def in_game(self) -> bool:
        game = self.play.game
        return game is not None and not game.is_over and not self.outcomes.stopped(
            self.play.game_no)

    def dealing_stopped(self) -> bool:
        return self.ending

    def broadcast(self, frame: Frame, now: float, /, but: int | None = None) -> None:
        assert isinstance(frame, Deal)
        if not self.sending:
            return
        targets = range(self.players) if self.seat == HOST else [HOST]
        for to in targets:
            if to not in (self.seat, but):
                self.queue.append((to, self.seat, frame))

    def emit(self, event: Any, /) -> None:
        self.events.append(event)

    def record(self, **record: Any) -> None:
        self.records.append(record)

    def deal_out(self, number: int, messages: list[bytes], now: float, /) -> None:
        for frame in self.flow.dealing.sign(number, messages):
            self.broadcast(frame, now)

    def violation(self, note: Note, now: float, /) -> None:
        self.violations.append(note)

    def fault(self, number: int, fault: DealFault, now: float,
              proof: list[bytes] | None = None, /) -> None:
        self.faults.append(fault)

    def cards_in(self, now: float, /) -> None:
        self.cards += 1

    def game_begun(self, now: float, /) -> None:
        self.begun += 1

    def audit_if_ready(self, number: int, now: float, /) -> None:
        self.audits.append(number)


def _seat(seat: int, players: int, queue: list[tuple[int, int, Deal]], rng: random.Random
          ) -> Seat:
    rules = Rules(players=players, deck_size=36)
    chart = SeatingChart(TABLE, players, seat, Player(seat, f"p{seat}", KEYS[seat],
                                                       "host" if seat == HOST else "player"))
    for other in range(players):
        if other != seat:
            chart.players[other] = Player(other, f"p{other}", KEYS[other],
                                          "host" if other == HOST else "player")
    dealing = Dealing(TABLE, seat, players, 36, IDS[seat], rng.randbytes)
    play = Play(TABLE, seat, players, IDS[seat], GameLog(), Proposals(), dealing)
    outcomes = Outcomes()
    flow = DealFlow(TABLE, seat, rules, dealing=dealing, play=play, outcomes=outcomes,
                    seating=chart)
    return Seat(flow, play, outcomes, queue, players)


def _table(players: int = 2, seed: int = 4) -> list[Seat]:
    rng = random.Random(seed)
    queue: list[tuple[int, int, Deal]] = []
    return [_seat(s, players, queue, rng) for s in range(players)]


def _run(seats: list[Seat]) -> int:
    """Deliver every queued frame (each seat answering at once); returns how many."""
    queue = seats[0].queue
    count = 0
    while queue:
        to, link, frame = queue.pop(0)
        seats[to].flow.on_deal(seats[to], link, frame, 0.0)
        count += 1
    return count


def test_a_game_every_seat_agreed_to_is_dealt_and_begun_once_at_every_seat() -> None:
    seats = _table(3)
    for seat in seats:
        seat.flow.agree(seat, 1, 0.0)
    assert _run(seats) > 0
    hashes = {seat.play.game.public_hash() for seat in seats if seat.play.game is not None}
    assert len(hashes) == 1 and all(seat.play.game_no == 1 for seat in seats)
    for seat in seats:
        started = [e for e in seat.events if isinstance(e, ev.GameStarted)]
        assert [(e.game, e.seat) for e in started] == [(1, seat.seat)]
        assert seat.begun == 1 and seat.violations == [] and seat.faults == []
        kinds = [r["t"] for r in seat.records]
        assert kinds[:2] == ["dealer", "begin"] and "dealmsg" in kinds
    # Agreeing again to a game already under way sends nothing more.
    seats[1].flow.agree(seats[1], 1, 0.0)
    assert seats[1].queue == [] and seats[1].records[-1]["t"] == "dealmsg"


def test_the_host_passes_a_seats_messages_on_to_every_other_seat_not_back() -> None:
    seats = _table(3)
    seats[1].flow.agree(seats[1], 1, 0.0)
    assert {(to, link) for to, link, _ in seats[1].queue} == {(HOST, 1)}
    frame = seats[1].queue[0][2]
    seats[1].queue.clear()
    seats[0].flow.on_deal(seats[0], 1, frame, 0.0)
    assert [(t, f) for t, _, f in seats[0].queue] == [(2, frame)]


def test_another_seat_asking_for_the_next_game_is_told_once_and_dealt_only_when_we_agree(
) -> None:
    seats = _table(2)
    seats[0].flow.agree(seats[0], 1, 0.0)
    _run(seats)
    requested = [e for e in seats[1].events if isinstance(e, ev.NextGameRequested)]
    assert [e.game for e in requested] == [1]
    assert seats[1].play.game is None and seats[1].begun == 0
    seats[1].flow.maybe_request(seats[1], 0.0)  # (asked again: nothing new)
    assert len([e for e in seats[1].events if isinstance(e, ev.NextGameRequested)]) == 1
    seats[1].flow.agree(seats[1], 1, 0.0)
    _run(seats)
    assert seats[0].begun == seats[1].begun == 1


def test_a_deal_message_as_another_seat_is_a_violation_neither_kept_nor_passed_on() -> None:
    seats = _table(3)
    seats[2].flow.agree(seats[2], 1, 0.0)
    frame = seats[2].queue[0][2]
    seats[2].queue.clear()
    seats[0].flow.on_deal(seats[0], 1, frame, 0.0)  # seat 2's message over seat 1's link
    assert [n.code for n in seats[0].violations] == ["deal_as_other"]
    assert seats[0].queue == [] and seats[0].flow.dealing.deal_log == {}
    assert seats[0].records == []


def test_a_message_the_dealer_cannot_read_stops_the_game_on_its_author() -> None:
    seats = _table(2)
    data = b"\xc1not a deal message"
    sig = IDS[1].sign(*deal_signed(TABLE, 1, 1, data))
    seats[0].flow.on_deal(seats[0], 1, Deal(0, 1, 1, data, sig), 0.0)
    assert [(f.seat, f.code) for f in seats[0].faults] == [(1, "protocol")]
    assert seats[0].play.game is None


def test_a_session_that_is_ending_begins_no_new_game() -> None:
    seats = _table(2)
    seats[1].ending = True
    for seat in seats:
        seat.flow.agree(seat, 1, 0.0)
    _run(seats)
    assert seats[0].begun == 1
    assert seats[1].begun == 0 and seats[1].play.game is None
    assert seats[1].flow.dealing.dealers[1].done  # dealt, but not begun


def test_a_journals_deal_records_replay_to_the_same_game_sending_the_same_messages() -> None:
    seats = _table(2)
    for seat in seats:
        seat.flow.agree(seat, 1, 0.0)
    _run(seats)
    ben = seats[1]
    assert ben.play.game is not None
    sent = list(ben.flow.dealing.deal_log[1])
    # Ben's journal, replayed into fresh parts (nothing leaves while replaying).
    again = _seat(1, 2, [], random.Random(99))
    again.sending = False
    for rec in ben.records:
        if rec["t"] == "dealer":
            again.flow.dealing.replay_dealer(rec["game"], rec["previous"], KEYS[:2],
                                             bytes.fromhex(rec["seed"]))
        elif rec["t"] == "begin":
            again.flow.replay_begin(again, rec["game"], 0.0)
        elif rec["t"] == "dealmsg":
            again.flow.replay_deal(again, Deal(0, rec["game"], rec["seat"],
                                               bytes.fromhex(rec["data"]),
                                               bytes.fromhex(rec["sig"])), 0.0)
    assert again.play.game is not None
    assert again.play.game.public_hash() == ben.play.game.public_hash()
    assert again.play.game.hand(1) == ben.play.game.hand(1)
    assert [f for f in again.flow.dealing.deal_log[1] if f.seat == 1] == [
        f for f in sent if f.seat == 1]
    assert again.begun == 1 and again.records == []
