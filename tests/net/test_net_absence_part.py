"""The absence part on its own (no session, no network): a lost seat handed to a bot,
a share of its seed published only on our own hearing, a seat heard again taken back,
a silent seat's game abandoned naming it, and the unheard ending naming nobody; driven
with a game dealt in memory, hand-made Status frames and a recorder for its effects."""

from __future__ import annotations

from dataclasses import dataclass, field

from durak_core import Rules
from durak_net import events as ev
from durak_net.absence import Absence
from durak_net.audit import Stop, Verdict
from durak_net.dealing import Dealing
from durak_net.gamelog import GameLog
from durak_net.handover import HandOver
from durak_net.identity import Identity
from durak_net.outcomes import HOST, Outcomes
from durak_net.play import Play
from durak_net.presence import Presence, abandon_after
from durak_net.proposals import Proposals
from durak_net.seating import Player, SeatingChart
from durak_net.wire import Frame, Propose, Status

from .dealt import dealt
from .recorders import Broadcasts

TABLE = 0xAB5E
RULES = Rules(players=3, deck_size=36)
GRACE = 20
AUDIT_TIMEOUT = 30.0


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n + 60]) * size)


IDS = [_identity(s) for s in range(3)]
KEYS = [i.public for i in IDS]


@dataclass
class Recorder(Broadcasts):
    """The effects an absence part asks for, kept to look at (and the session's state
    it reads: a game in play, the session closing, the grace period, our links)."""

    #: The outcomes part whose stops ``set_stop`` keeps (as the session's does).
    outcomes: Outcomes | None = None
    in_game: bool = True
    closing: bool = False
    grace: int = GRACE
    links: set[int] = field(default_factory=set)
    pushed: list[tuple[int, Frame]] = field(default_factory=list)
    dealt: list[tuple[int, list[bytes]]] = field(default_factory=list)
    set_stops: list[tuple[int, Stop]] = field(default_factory=list)
    published: list[int] = field(default_factory=list)
    settled: list[tuple[int, Verdict, tuple[int, float] | None]] = field(
        default_factory=list)
    ending: str = ""
    drained: int = 0
    revealed: int = 0
    changed: int = 0

    def linked(self, seat: int, /) -> bool:
        return seat in self.links

    def push(self, seat: int, frame: Frame, now: float, /) -> None:
        self.pushed.append((seat, frame))

    def deal_out(self, number: int, messages: list[bytes], now: float, /) -> None:
        self.dealt.append((number, messages))

    def set_stop(self, number: int, stop: Stop, /) -> None:
        self.set_stops.append((number, stop))
        if self.outcomes is not None:
            self.outcomes.stops[number] = stop

    def publish_seed(self, number: int, now: float, /) -> None:
        self.published.append(number)

    def settle(self, number: int, verdict: Verdict, now: float, /,
               silent: tuple[int, float] | None = None) -> None:
        self.settled.append((number, verdict, silent))

    def end_table(self, reason: str, /) -> None:
        self.ending = reason

    def drain(self, now: float, /) -> None:
        self.drained += 1

    def reveal_open_hands(self, now: float, /) -> None:
        self.revealed += 1

    def after_change(self, now: float, /) -> None:
        self.changed += 1


@dataclass
class Part:
    """Seat ``me``'s absence part at a table of three whose game 1 is dealt in memory,
    with the other seats' deal parts (to publish their shares too)."""

    absence: Absence
    deals: list[Dealing]

    def share_of(self, by: int, seat: int) -> None:
        """Seat ``by`` publishes its share of ``seat``'s seed and we take it in."""
        me = self.absence.seat
        for data in self.deals[by].dealers[1].share(seat):
            self.deals[me].dealers[1].receive(data, by)


def _part(me: int, *, name: str = "", addrs: tuple[str, ...] = ("", "10.0.0.1:5",
                                                                 "10.0.0.2:5")) -> Part:
    """Seat ``me``'s part; ``addrs``: where each seat takes heartbeats ("" none)."""
    deals = dealt(TABLE, IDS, 11)
    dealing, log, proposals = deals[me], GameLog(), Proposals()
    log.begin(1)
    play = Play(TABLE, me, 3, IDS[me], log, proposals, dealing)
    play.begin(1, dealing.dealers[1].deal(RULES))
    seating = SeatingChart(TABLE, 3, me, Player(me, name, KEYS[me],
                                                "host" if me == HOST else "player"))
    for s in range(3):
        if s != me:
            seating.players[s] = Player(s, f"P{s}", KEYS[s],
                                        "host" if s == HOST else "player", addrs[s])
    part = Absence(TABLE, me, name, audit_timeout=AUDIT_TIMEOUT,
                   handover=HandOver(3, host=me == HOST), presence=Presence(heard_since=0.0),
                   seating=seating, play=play, dealing=dealing, game_log=log,
                   outcomes=Outcomes(), proposals=proposals)
    return Part(part, deals)


def _host(**kwargs: object) -> tuple[Absence, Recorder, Part]:
    part = _part(HOST, name="Host", **kwargs)  # type: ignore[arg-type]
    return part.absence, _fx(part.absence, {1, 2}), part


def _fx(part: Absence, links: set[int], **state: bool) -> Recorder:
    """A recorder for ``part``'s effects, with links to ``links``."""
    return Recorder(outcomes=part.outcomes, links=links, **state)


def _seat(**kwargs: object) -> tuple[Absence, Recorder]:
    """Seat 1's part (a seated player: its one link is the host's), and its effects."""
    part = _part(1, **kwargs).absence  # type: ignore[arg-type]
    return part, _fx(part, {HOST})


# ------------------------------------------------------------------ hand-over


def test_a_lost_seat_is_handed_over_only_after_the_grace_period_on_our_own_hearing(
        ) -> None:
    host, fx, _ = _host()
    assert host.dealer is not None and host.dealer.can_rebuild(2)  # (its escrow is in)
    assert host.handover_due(fx) is None  # nobody is lost
    host.lost(fx, 2, 3.0, 100.0)  # our link to it silent since 97
    assert fx.events == [ev.PeerLost(TABLE, 3.0, 100.0, seat=2)]
    assert fx.sent == [(Status(0, 2, "lost"), 2)]  # the others are told
    assert host.handover.seat_state == {2: "lost"}
    assert host.handover_due(fx) == (2, 97.0 + GRACE)  # from when we last heard it
    fx.grace = 0
    assert host.handover_due(fx) is None  # a table with no grace hands nobody over
    fx.grace, fx.in_game = GRACE, False
    assert host.handover_due(fx) is None  # nor between games
    fx.in_game = True
    host.dealer.bad_escrows.add(2)
    assert host.handover_due(fx) is None  # its seed could not be rebuilt
    host.dealer.bad_escrows.discard(2)

    host.hand_over(fx, 2, 97.0 + GRACE)
    assert host.handover.bots == {2} and host.handover.seat_state == {2: "bot"}
    assert fx.records == [{"t": "handover", "seat": 2}, {"t": "share", "game": 1, "seat": 2}]
    assert fx.sent[-1] == (Status(0, 2, "bot", "1"), 2)
    assert fx.events[-1] == ev.SeatStatus(TABLE, 2, "bot", "", 97.0 + GRACE)
    ((number, messages),) = fx.dealt
    assert number == 1 and messages  # our share of its seed
    assert (fx.revealed, fx.changed, fx.drained) == (1, 1, 1)
    assert host.handover_due(fx) is None  # (a bot plays it already)


def test_a_lost_seat_that_gave_no_address_is_not_handed_over_but_abandoned() -> None:
    """The others could not check for themselves that it is gone."""
    host, fx, _ = _host(addrs=("", "10.0.0.1:5", ""))
    host.lost(fx, 2, 3.0, 100.0)
    assert host.handover_due(fx) is None
    when = 97.0 + abandon_after(GRACE) + AUDIT_TIMEOUT  # (the host may hand over: waits)
    assert host.abandon_times(fx) == {2: (when, 97.0)}


def test_the_hosts_placed_move_of_a_seat_handed_over_is_void_and_nothing_is_drained(
        ) -> None:
    host, fx, _ = _host()
    frame = Propose(0, 4, 1, bytes(32), 0, b"", bytes(64))
    host.proposals.place(2, frame, 0, 1)
    host.lost(fx, 2, 3.0, 100.0)
    host.hand_over(fx, 2, 200.0)
    assert host.proposals.slot is None and host.proposals.voided == [(2, frame)]
    assert fx.drained == 1
    other, ofx, _ = _host()
    other.proposals.place(1, frame, 0, 1)  # another seat's move is being opened
    other.hand_over(ofx, 2, 200.0)
    assert other.proposals.voided == [] and ofx.drained == 0


# ------------------------------------------------------------------ shares


def test_a_share_is_released_only_when_we_ourselves_have_not_heard_the_seat() -> None:
    seat, fx = _seat()
    seat.presence.heard_from(2, 95.0)  # its own heartbeat, straight from it
    seat.on_status(fx, Status(0, 2, "bot", "1"), 100.0)
    assert fx.events == [ev.SeatStatus(TABLE, 2, "bot", "", 100.0)]  # (no game number)
    assert seat.handover.seat_state == {2: "bot"} and seat.presence.share_wait == {2: 1}
    assert fx.dealt == []  # the host's word alone opens nothing
    assert seat.release_times(fx) == (95.0 + GRACE,)
    seat.presence.heard_from(2, 110.0)  # still there: the host's word is not borne out
    seat.release_shares(fx, 95.0 + GRACE)
    assert fx.dealt == [] and seat.presence.share_wait == {2: 1}
    seat.release_shares(fx, 110.0 + GRACE)
    assert seat.presence.share_wait == {} and len(fx.dealt) == 1
    assert fx.records == [{"t": "share", "game": 1, "seat": 2}]


def test_no_share_for_a_seat_we_cannot_hear_nor_of_another_game_nor_once_it_is_back(
        ) -> None:
    deaf, fx = _seat(addrs=("", "", ""))
    deaf.on_status(fx, Status(0, 2, "bot", "1"), 100.0)
    assert deaf.release_times(fx) == (float("inf"),)  # it gave us no address
    deaf.release_shares(fx, 10_000.0)
    assert fx.dealt == []
    seat, fx = _seat()
    seat.on_status(fx, Status(0, 2, "bot", "2"), 100.0)  # not the game in play
    assert seat.presence.share_wait == {}
    seat.presence.heard_from(2, 95.0)
    seat.on_status(fx, Status(0, 2, "bot", "1"), 100.0)
    seat.on_status(fx, Status(0, 2, "back"), 101.0)  # its player is back
    seat.release_shares(fx, 10_000.0)
    assert fx.dealt == [] and seat.presence.share_wait == {}
    assert seat.handover.seat_state == {}


# ------------------------------------------------------------------ back


def test_a_seat_heard_again_is_taken_back_and_told_its_hand_was_opened() -> None:
    host, fx, part = _host()
    host.lost(fx, 2, 3.0, 100.0)
    host.hand_over(fx, 2, 120.0)
    part.share_of(1, 2)  # seat 1's share too: its hand is open to all
    assert host.dealer is not None and 2 in host.dealer.adopted
    fx.records.clear()
    fx.sent.clear()
    host.back(fx, 2, 130.0)
    assert fx.events[-1] == ev.PeerBack(TABLE, 130.0, seat=2)
    assert host.handover.bots == set() and host.handover.seat_state == {}
    assert host.presence.lost_since == {}
    assert fx.records == [{"t": "back", "seat": 2}]
    assert fx.pushed == [(2, Status(0, 2, "opened", "1"))]
    assert fx.sent == [(Status(0, 2, "back"), 2)]


def test_a_seat_back_before_its_hand_over_is_simply_its_players_again() -> None:
    host, fx, _ = _host()
    host.lost(fx, 1, 3.0, 100.0)
    host.back(fx, 1, 101.0)
    assert host.handover.seat_state == {} and fx.records == [] and fx.pushed == []
    assert host.handover_due(fx) is None


# ------------------------------------------------------------------ abandoned


def test_a_game_is_abandoned_naming_the_silent_seat_once_the_table_has_waited() -> None:
    seat, fx = _seat(name="Ann")
    seat.lost(fx, HOST, 3.0, 100.0)  # our host, silent since 97
    assert fx.sent == []  # (a seated player tells nobody)
    when = 97.0 + abandon_after(GRACE)
    assert seat.abandon_times(fx) == {HOST: (when, 97.0)}
    seat.check_abandoned(fx, when - 0.01)
    assert fx.settled == [] and fx.records == []
    seat.check_abandoned(fx, when)
    assert fx.records == [{"t": "abandon", "game": 1, "seat": HOST,
                           "silent": abandon_after(GRACE)}]
    assert fx.set_stops == [(1, Stop(HOST, 0, "went silent", False))]
    assert fx.published == [1] and 1 in seat.outcomes.broken
    ((number, verdict, silent),) = fx.settled
    assert (number, verdict.code, verdict.culprit, silent) == (1, "abandoned", HOST, (HOST, 97.0))
    assert verdict.note is not None and verdict.note.code == "silent"
    assert "P0" in verdict.detail and fx.ending == "P0 went silent"


def test_no_game_is_abandoned_while_we_are_closing() -> None:
    seat, fx = _seat()
    fx.closing = True
    seat.lost(fx, HOST, 3.0, 100.0)
    assert seat.abandon_times(fx) == {}
    seat.check_abandoned(fx, 10_000.0)
    assert fx.settled == []


def test_a_seat_the_host_reported_lost_is_the_silent_one_when_the_host_gives_up() -> None:
    """We never heard it ourselves: only the host's word, so nobody is named."""
    seat, fx = _seat()
    seat.on_status(fx, Status(0, 2, "lost"), 50.0)
    seat.host_gave_up(fx, 1, 80.0)
    assert fx.records[0] == {"t": "abandon", "game": 1, "seat": 2, "silent": 30.0}
    ((_, verdict, silent),) = fx.settled
    assert (verdict.code, verdict.culprit, silent) == ("abandoned", None, (2, 50.0))
    assert verdict.note is not None and verdict.note.code == "silent_reported"
    quiet, qfx = _seat()
    quiet.host_gave_up(qfx, 1, 80.0)  # nobody reported lost: nothing to settle here
    assert qfx.settled == [] and qfx.records == []


def test_the_unheard_ending_names_nobody() -> None:
    seat, fx = _seat()
    idle = seat.handover.idle
    idle.seconds, idle.deadlines = 50.0, {2: 150.0}  # waited for since 100
    seat.unheard(fx, 2, 230.0)
    assert fx.records[0] == {"t": "abandon", "game": 1, "seat": 2, "silent": 130.0,
                             "what": "made no move"}
    assert fx.records[1] == {"t": "publish", "game": 1} and len(fx.dealt) == 1  # our seed
    assert fx.set_stops == [(1, Stop(2, 0, "made no move", False))]
    ((number, verdict, silent),) = fx.settled
    assert (number, verdict.code, verdict.culprit, silent) == (1, "abandoned", None,
                                                               (2, 100.0))
    assert verdict.note is not None and verdict.note.code == "idle_unheard"
    assert fx.ending == "P2 made no move"


def test_our_own_seat_reads_you_in_what_we_settle_when_we_have_no_name() -> None:
    seat = _part(1).absence
    assert seat._names() == ["P0", "you", "P2"]
    assert _part(1, name="Ann").absence._names() == ["P0", "Ann", "P2"]
    assert seat.seating.names() == ["P0", "seat 1", "P2"]  # (as the seating has it)


# ------------------------------------------------------------------ the journal


def test_the_journals_records_replay_through_the_part() -> None:
    host, fx, _ = _host()
    host.replay_handover(2)
    assert host.handover.bots == {2}
    host.replay_share(fx, 1, 2, 5.0)
    ((number, messages),) = fx.dealt
    assert number == 1 and messages and fx.revealed == 1 and fx.changed == 0
    assert fx.records == []  # (a replayed record is not journalled again)
    host.replay_back(2)
    assert host.handover.bots == set() and host.handover.seat_state == {}
    host.replay_abandon(fx, 2, "went silent")
    assert fx.ending == "P2 went silent"
