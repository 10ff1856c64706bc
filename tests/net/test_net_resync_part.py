"""The resync part on its own (no session, no network): whom we owe a catch-up, and
what each side resends a seat that came back from its journal."""

from __future__ import annotations

import random

from durak_core import Action, Pass, Take
from durak_net.dealing import Dealing
from durak_net.gamelog import GameLog, LogEntry
from durak_net.identity import Identity
from durak_net.proposals import OwnProposal, Proposals
from durak_net.resync import Resync, catch_up
from durak_net.wire import Entry, Fault, Order, Propose, SeatInfo, Seating, Sync

TABLE = 0x5C


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


IDS = [_identity(1), _identity(2), _identity(3)]
KEYS = [i.public for i in IDS]


def test_a_catch_up_is_owed_once_per_restart() -> None:
    part = Resync()
    assert not part.take(1)
    part.restarted(1)
    assert part.take(1) and not part.take(1)


def _dealt(players: int = 3) -> list[Dealing]:
    rng = random.Random(3)
    parts = [Dealing(TABLE, s, players, 36, IDS[s], rng.randbytes) for s in range(players)]
    queue = [f for p in parts for f in p.sign(1, p.make(1, None, KEYS[:players]).begin())]
    while queue:
        frame = queue.pop(0)
        for part in parts:
            if part.seat != frame.seat:
                part.keep(frame)
                queue += part.sign(1, part.dealers[1].receive(frame.data, frame.seat))
    return parts


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
    host = _dealt()[0]
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
    host = _dealt()[0]
    frames, desync = catch_up(Sync(0, 1, 5), me=0, peer=1, seating=_seating(), dealing=host,
                              game_log=_log(3), faults={}, proposals=Proposals())
    assert desync == (1, 3) and frames == [_seating()]


def test_a_seat_back_in_an_earlier_game_gets_every_game_from_it_on() -> None:
    host = _dealt()[0]
    frames, _ = catch_up(Sync(0, 2, 0), me=0, peer=1, seating=None, dealing=host,
                         game_log=_log(2), faults={}, proposals=Proposals())
    assert frames == []  # game 1 is before the peer's game 2: nothing of it


def test_a_seated_player_resends_its_own_deal_messages_and_opens_its_placed_proposal() -> None:
    ben = _dealt()[1]
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
