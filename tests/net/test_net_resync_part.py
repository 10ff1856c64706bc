"""The resync part on its own (no session, no network): whom we owe a catch-up, and
what each side resends a seat that came back from its journal."""

from __future__ import annotations

from dataclasses import dataclass, field

from durak_core import Action, Pass, Take
from durak_net.clock import MoveClock
from durak_net.dealing import Dealing
from durak_net.gamelog import GameLog, LogEntry
from durak_net.identity import Identity
from durak_net.joining import Joining
from durak_net.notes import Note
from durak_net.outcomes import Outcomes
from durak_net.play import Play
from durak_net.proposals import OwnProposal, Proposals
from durak_net.resync import Resync, catch_up
from durak_net.seating import Player, SeatingChart
from durak_net.wire import Entry, Fault, Frame, Hello, Order, Propose, SeatInfo, Seating, Sync

from .dealt import dealt

TABLE = 0x5C


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


IDS = [_identity(1), _identity(2), _identity(3)]
KEYS = [i.public for i in IDS]


def test_a_catch_up_is_owed_once_per_restart() -> None:
    part = _part(1, dealt(TABLE, IDS, 3)[1], _log(0))
    assert not part.take(1)
    part.restarted(1)
    assert part.take(1) and not part.take(1)


def _log(count: int) -> GameLog:
    log = GameLog()
    log.begin(1)
    moves: list[Action] = [Take(1), Pass(0), Pass(2)]
    for i in range(count):
        log.add(1, LogEntry(str(moves[i % 3]), bytes([i]) * 32, 0, (), 0, b"", b""))
    return log


def _seating() -> Seating:
    return Seating(0, TABLE, [SeatInfo(s, f"p{s}", KEYS[s], "player") for s in range(3)],
                   0, 60, True)


def test_the_host_resends_its_seating_the_others_deal_messages_and_the_missing_entries() -> None:
    host = dealt(TABLE, IDS, 3)[0]
    log = _log(3)
    fault = Fault(0, 1, 3, 2, "illegal", "x", 0, b"s")
    frames, desync = catch_up(Sync(0, 1, 1), me=0, peer=1, seating=_seating(), dealing=host,
                              game_log=log, faults={1: fault}, proposals=Proposals())
    assert desync is None
    assert frames[0] == _seating()
    deals = [f for f in frames if f.__class__.__name__ == "Deal"]
    assert deals and {d.seat for d in deals} == {0, 2}  # never the peer's own
    entries = [f for f in frames if isinstance(f, Entry)]
    assert [e.index for e in entries] == [1, 2]  # from the peer's log length on
    assert frames[-1] == fault


def test_a_seat_that_claims_entries_the_host_never_sent_is_a_desync() -> None:
    host = dealt(TABLE, IDS, 3)[0]
    frames, desync = catch_up(Sync(0, 1, 5), me=0, peer=1, seating=_seating(), dealing=host,
                              game_log=_log(3), faults={}, proposals=Proposals())
    assert desync == (1, 3) and frames == [_seating()]


def test_a_seat_back_in_an_earlier_game_gets_every_game_from_it_on() -> None:
    host = dealt(TABLE, IDS, 3)[0]
    frames, _ = catch_up(Sync(0, 2, 0), me=0, peer=1, seating=None, dealing=host,
                         game_log=_log(2), faults={}, proposals=Proposals())
    assert frames == []  # game 1 is before the peer's game 2: nothing of it


def test_a_seated_player_resends_its_own_deal_messages_and_opens_its_placed_proposal() -> None:
    ben = dealt(TABLE, IDS, 3)[1]
    proposals = Proposals()
    for pid in (1, 2):
        frame = Propose(0, pid, 1, bytes(32), 0, b"", b"sig")
        proposals.sent(OwnProposal(Take(1), [], bytes(16), frame))
    proposals.replay_order(2, 0, b"order")
    frames, desync = catch_up(Sync(0, 1, 0), me=1, peer=0, seating=None, dealing=ben,
                              game_log=_log(1), faults={}, proposals=proposals)
    assert desync is None
    deals = [f for f in frames if f.__class__.__name__ == "Deal"]
    assert deals and {d.seat for d in deals} == {1}
    assert not any(isinstance(f, Entry | Order) for f in frames)  # the host's to send
    tail = frames[len(deals):]
    assert [type(f).__name__ for f in tail] == ["Propose", "Propose", "Open"]
    assert tail[2].pid == 2  # only the placed one is opened


# ------------------------------------------------------------------ the part, with effects


@dataclass
class Recorder:
    """The effects a resync part asks for, kept to look at."""

    sent: list[tuple[int, Frame]] = field(default_factory=list)
    desyncs: list[tuple[int, int, str]] = field(default_factory=list)

    def push(self, seat: int, frame: Frame, now: float, /) -> None:
        self.sent.append((seat, frame))

    def desync(self, game: int, index: int, note: Note, now: float, /) -> None:
        self.desyncs.append((game, index, note.code))


def _part(seat: int, dealing: Dealing, log: GameLog) -> Resync:
    chart = SeatingChart(TABLE, 3, seat, Player(seat, f"p{seat}", KEYS[seat],
                                                 "host" if seat == 0 else "player"))
    for other in range(3):
        if other != seat:
            chart.players[other] = Player(other, f"p{other}", KEYS[other],
                                          "host" if other == 0 else "player")
    joining = Joining(TABLE, seat, 3, seating=chart, clock=MoveClock())
    joining.started = True
    play = Play(TABLE, seat, 3, IDS[seat], log, Proposals(), dealing)
    play.game_no = 1
    return Resync(seat, f"p{seat}", seating=chart, joining=joining, play=play, game_log=log,
                  dealing=dealing, outcomes=Outcomes(), proposals=play.proposals)


def test_a_link_that_restarts_hears_where_we_stand_and_a_seated_player_says_hello() -> None:
    host, ben = dealt(TABLE, IDS, 3)[:2]
    part, fx = _part(0, host, _log(2)), Recorder()
    part.peer_restarted(fx, 1, 0.0)
    assert [(s, type(f)) for s, f in fx.sent] == [(1, Sync)]
    assert fx.sent[0][1] == Sync(0, 1, 2)
    player, pfx = _part(1, ben, _log(2)), Recorder()
    player.peer_restarted(pfx, 0, 0.0)
    assert [type(f) for _, f in pfx.sent] == [Sync, Hello]
    hello = pfx.sent[1][1]
    assert isinstance(hello, Hello) and (hello.seat, hello.sign_key) == (1, KEYS[1])
    # A new link hears the same, but owes no catch-up.
    fresh, ffx = _part(1, ben, _log(0)), Recorder()
    fresh.greet(ffx, 0, 0.0)
    assert [type(f) for _, f in ffx.sent] == [Sync, Hello] and not fresh.take(0)


def test_the_host_catches_a_restarted_seat_up_once_on_its_sync_with_its_seating() -> None:
    host = dealt(TABLE, IDS, 3)[0]
    part, fx = _part(0, host, _log(3)), Recorder()
    part.on_sync(fx, 1, Sync(0, 1, 1), 0.0)  # no restart heard: nothing owed
    assert fx.sent == []
    part.peer_restarted(fx, 1, 0.0)
    fx.sent.clear()
    part.on_sync(fx, 1, Sync(0, 1, 1), 0.0)
    frames = [f for s, f in fx.sent if s == 1]
    assert len(frames) == len(fx.sent)
    seating = frames[0]
    assert isinstance(seating, Seating) and seating.start and len(seating.seats) == 3
    assert [f.index for f in frames if isinstance(f, Entry)] == [1, 2]
    fx.sent.clear()
    part.on_sync(fx, 1, Sync(0, 1, 1), 0.0)  # a copy: caught up already
    assert fx.sent == [] and fx.desyncs == []


def test_a_sync_claiming_entries_the_host_never_sent_is_reported_as_a_desync() -> None:
    host = dealt(TABLE, IDS, 3)[0]
    part, fx = _part(0, host, _log(3)), Recorder()
    part.restarted(2)
    part.on_sync(fx, 2, Sync(0, 1, 5), 0.0)
    assert fx.desyncs == [(1, 3, "desync_unsent")]
    assert [type(f) for _, f in fx.sent] == [Seating]
