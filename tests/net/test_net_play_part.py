"""The play part on its own (no session, no network): the host's ordering and a seat's
side of appending, driven with hand-made signed frames and a recorder for its effects."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest

from durak_core import Action, Attack, Defend, Pass, Rules, Take
from durak_net import events as ev
from durak_net.dealer import DealFault
from durak_net.dealing import action_cards
from durak_net.gamelog import GameLog, LogEntry
from durak_net.identity import Identity
from durak_net.notes import Note
from durak_net.play import Play
from durak_net.proposals import Proposals, refused_signed
from durak_net.wire import Entry, Frame, Open, Order, Propose, Refused

from .dealt import dealt
from .recorders import Recorded

TABLE = 0xA11
RULES = Rules(players=2, deck_size=36)
SEED = 2  # (the host, seat 0, attacks first)


def _identity(n: int) -> Identity:
    return Identity.generate(lambda size: bytes([n]) * size)


IDS = [_identity(1), _identity(2)]
KEYS = [i.public for i in IDS]


@dataclass
class Recorder(Recorded):
    """The effects a play part asks for, kept to look at (what a session would do)."""

    sent: list[tuple[int | None, Frame]] = field(default_factory=list)
    stops: list[tuple[int, int, str, Note]] = field(default_factory=list)
    desyncs: list[Note] = field(default_factory=list)
    applied: int = 0
    dealt: list[bytes] = field(default_factory=list)

    def linked(self, seat: int, /) -> bool:
        return True

    def push(self, seat: int, frame: Frame, now: float, /) -> None:
        self.sent.append((seat, frame))

    def broadcast(self, frame: Frame, now: float, /) -> None:
        self.sent.append((None, frame))

    def deal_out(self, number: int, messages: list[bytes], now: float, /) -> None:
        self.dealt += messages

    def stop(self, number: int, culprit: int, code: str, note: Note, now: float, /, *,
             proof: list[bytes] | None = None) -> None:
        self.stops.append((number, culprit, code, note))

    def fault(self, number: int, fault: DealFault, now: float,
              proof: list[bytes] | None = None, /) -> None:
        self.stops.append((number, fault.seat, fault.code, fault.note))

    def desync(self, game: int, index: int, note: Note, now: float, /) -> None:
        self.desyncs.append(note)

    def violation(self, note: Note, now: float, /) -> None:
        raise AssertionError(note)

    def entry_applied(self, now: float, /) -> None:
        self.applied += 1

    def last(self, kind: type) -> Any:
        return next(f for _, f in reversed(self.sent) if isinstance(f, kind))


def _table() -> tuple[Play, Play]:
    """The host's and the seated player's play parts of a dealt game 1 (the deal done in
    memory between their deal parts)."""
    deals = dealt(TABLE, IDS, SEED)
    plays = [Play(TABLE, s, 2, IDS[s], GameLog(), Proposals(), deals[s]) for s in range(2)]
    for play in plays:
        play.begin(1, play.dealing.dealers[1].deal(RULES))
    return plays[0], plays[1]


def _host_attacks(host: Play, fx: Recorder) -> Entry:
    """The host leads its first legal attack; returns the entry it broadcast."""
    assert host.game is not None and host.dealer is not None
    action = next(a for a in host.game.legal_actions(0) if isinstance(a, Attack))
    reveals = [(r.position, r.key) for r in (host.dealer.reveal(c, True)
                                              for c in action_cards(action)) if r]
    host.append(fx, action, 0, reveals, 0.0)
    entry = fx.last(Entry)
    assert isinstance(entry, Entry)
    return entry


def _seat_move(seat: Play) -> Action:
    assert seat.game is not None
    legal = seat.game.legal_actions(1)
    return next((a for a in legal if isinstance(a, Defend)), Take(1))


def _seat_proposes(seat: Play, fx: Recorder, action: Action) -> Propose:
    assert seat.dealer is not None
    reveals = [(r.position, r.key) for r in (seat.dealer.reveal(c, False)
                                              for c in action_cards(action)) if r]
    seat.propose(fx, action, reveals, 0.0)
    frame = fx.last(Propose)
    assert isinstance(frame, Propose)
    return frame


def _apply(seat: Play, fx: Recorder, entry: Entry) -> str:
    return seat.on_entry(fx, entry, 0.0, host_key=KEYS[0], clock=0, clock_early=lambda now: None)


def test_the_hosts_own_move_is_logged_signed_and_applied_by_the_seat() -> None:
    host, seat = _table()
    hfx, sfx = Recorder(), Recorder()
    entry = _host_attacks(host, hfx)
    assert len(host.log) == 1 and hfx.applied == 1
    assert [r["t"] for r in hfx.records] == ["entry"]
    assert _apply(seat, sfx, entry) == ""
    assert not sfx.stops and not sfx.desyncs and sfx.applied == 1
    assert seat.log == host.log  # the same entry, with the host's signature
    assert seat.game is not None and host.game is not None
    assert seat.game.public_hash() == host.game.public_hash()
    (applied,) = [e for e in sfx.events if isinstance(e, ev.ActionApplied)]
    assert (applied.index, str(applied.action), applied.by_me) == (0, str(host.log[0].action),
                                                                 False)
    assert _apply(seat, sfx, entry) == "" and len(seat.log) == 1  # a copy: already applied


def test_a_seats_move_is_committed_placed_opened_then_logged() -> None:
    host, seat = _table()
    hfx, sfx = Recorder(), Recorder()
    _apply(seat, sfx, _host_attacks(host, hfx))
    action = _seat_move(seat)
    propose = _seat_proposes(seat, sfx, action)
    assert str(action).encode() not in msgspec.msgpack.encode(propose)  # a commitment
    host.on_propose(hfx, 1, propose, 0.0, key=KEYS[1], in_game=True)
    order = hfx.last(Order)
    assert host.proposals.slot is not None and order.index == 1 == len(host.log)
    assert hfx.records[-1]["t"] == "proposal"
    seat.on_order(sfx, order, 0.0, host_key=KEYS[0], in_game=True)
    opening = sfx.last(Open)
    assert opening.action == str(action)
    assert host.on_open(hfx, 1, opening, 0.0, in_game=True,
                        was_nudged=lambda seat, state: False)
    assert host.proposals.slot is None and len(host.log) == 2
    entry = hfx.last(Entry)
    assert (entry.pid, entry.action) == (propose.pid, str(action))
    assert _apply(seat, sfx, entry) == "" and not sfx.stops
    assert not seat.proposals.pending  # ours is logged
    assert seat.game is not None and host.game is not None
    assert seat.game.public_hash() == host.game.public_hash()


def test_an_entry_the_host_did_not_sign_is_dropped_and_changes_nothing() -> None:
    host, seat = _table()
    entry = _host_attacks(host, Recorder())
    sfx = Recorder()
    forged = msgspec.structs.replace(entry, sig=IDS[1].sign(b"not the host"))
    assert _apply(seat, sfx, forged) == "unsigned_entry"
    assert seat.log == [] and sfx.applied == 0 and not sfx.stops


def test_an_entry_whose_hash_differs_from_ours_is_a_desync() -> None:
    host, seat = _table()
    assert host.game is not None and host.dealer is not None
    action = next(a for a in host.game.legal_actions(0) if isinstance(a, Attack))
    reveals = tuple((r.position, r.key) for r in (host.dealer.reveal(c, True)
                                                   for c in action_cards(action)) if r)
    # The host signs an entry whose hash says another state than the move makes.
    entry = host.game_log.signed(1, LogEntry(str(action), bytes(32), 0, reveals), IDS[0],
                                 TABLE)
    sfx = Recorder()
    assert _apply(seat, sfx, entry.frame(1, 0)) == ""
    assert [n.code for n in sfx.desyncs] == ["desync_hash"] and sfx.applied == 0


def test_a_refusal_of_a_move_made_on_the_hosts_own_log_names_the_host() -> None:
    host, seat = _table()
    sfx = Recorder()
    _apply(seat, sfx, _host_attacks(host, Recorder()))
    propose = _seat_proposes(seat, sfx, _seat_move(seat))
    at = len(host.log)  # nothing moved past it
    sig = IDS[0].sign(*refused_signed(TABLE, 1, 1, propose.pid, at))
    assert not seat.on_refused(sfx, Refused(0, propose.pid, "not now", at, sig), 0.0,
                               host_key=KEYS[0], in_game=True)
    ((_, culprit, code, _),) = sfx.stops
    assert (culprit, code) == (0, "bad_refusal")
    assert not [e for e in sfx.events if isinstance(e, ev.ActionRefused)]


def test_a_proposal_the_table_moved_past_is_refused_unopened_and_not_held_later() -> None:
    host, seat = _table()
    hfx, sfx = Recorder(), Recorder()
    # The seat proposes on the empty log while the host's lead is on its way to it.
    propose = _seat_proposes(seat, sfx, Take(1))
    entry = _host_attacks(host, hfx)
    host.on_propose(hfx, 1, propose, 0.0, key=KEYS[1], in_game=True)
    refused = hfx.last(Refused)
    assert host.proposals.slot is None and refused.at == 1 > propose.seen
    assert not [f for _, f in hfx.sent if isinstance(f, Order)]  # never placed, never opened
    assert [e.pid for e in hfx.events if isinstance(e, ev.PeerActionRefused)] == [propose.pid]
    assert hfx.records[-1] == {"t": "refused", "seat": 1, "pid": propose.pid,
                               "reason": refused.reason, "at": 1}
    # The seat takes the entry it had not seen, then the refusal, which checks out.
    _apply(seat, sfx, entry)
    assert seat.on_refused(sfx, refused, 0.0, host_key=KEYS[0], in_game=True)
    assert not sfx.stops and not seat.proposals.pending
    assert [str(e.action) for e in sfx.events if isinstance(e, ev.ActionRefused)] == ["1 take"]
    assert seat.refused == {}  # made on an older log: not held against the move now


def test_a_timed_out_entry_before_our_own_clock_ran_out_names_the_host() -> None:
    host, seat = _table()
    sfx = Recorder()
    _apply(seat, sfx, _host_attacks(host, Recorder()))
    hfx = Recorder()
    host.append(hfx, Take(1), 0, [], 0.0, forced="timeout")
    entry = hfx.last(Entry)
    assert seat.on_entry(sfx, entry, 0.0, host_key=KEYS[0], clock=30,
                         clock_early=lambda now: 25.0) == ""
    ((_, culprit, code, _),) = sfx.stops
    assert (culprit, code) == (0, "early_clock") and len(seat.log) == 1


def test_a_journal_entry_that_does_not_replay_is_refused() -> None:
    host, seat = _table()
    hfx = Recorder()
    _host_attacks(host, hfx)
    (rec,) = [r for r in hfx.records if r["t"] == "entry"]
    with pytest.raises(ValueError, match="does not replay"):
        seat.replay_entry(Recorder(), {**rec, "hash": "00" * 32}, 0.0)
    _, again = _table()
    fx = Recorder()
    again.replay_entry(fx, rec, 0.0)
    assert len(again.log) == 1 and fx.applied == 1  # (then what follows any entry)
    assert fx.records == [] and fx.sent == []  # a journal's entry is not journalled again
    with pytest.raises(ValueError, match="entry 1 is missing"):
        again.replay_entry(Recorder(), {**rec, "index": 2}, 0.0)


def test_the_parts_with_effects_import_nothing_of_the_session() -> None:
    """A part holds no session: it is passed one as its effects (typed by its own
    Protocol), so no such module imports durak_net.session, even for its types."""
    import ast
    import inspect

    from durak_net import absence, dealflow, endings, joining, leaving, play, resync, waits

    for module in (play, endings, dealflow, joining, resync, waits, leaving, absence):
        tree = ast.parse(inspect.getsource(module))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "session" not in imported and "durak_net.session" not in imported, module


def test_our_drawn_cards_open_in_our_view_once_the_others_keys_are_in() -> None:
    host, seat = _table()
    hfx, sfx = Recorder(), Recorder()
    _apply(seat, sfx, _host_attacks(host, hfx))
    for action in (Take(1), Pass(0)):  # the seat takes (its clock ran out); the host draws
        host.append(hfx, action, 0, [], 0.0, forced="timeout" if action.player else "")
        assert seat.on_entry(sfx, hfx.last(Entry), 0.0, host_key=KEYS[0], clock=30,
                             clock_early=lambda now: None) == ""
    assert host.game is not None and host.game.unknown_count(0) == 1  # drawn, not yet seen
    host.take_new_cards(hfx, 0.0)
    assert not [e for e in hfx.events if isinstance(e, ev.CardsRevealed)]  # (no key yet)
    assert host.dealer is not None and sfx.dealt  # the seat's key for the card we drew
    for message in sfx.dealt:
        hfx.dealt += host.dealer.receive(message, 1)
    host.take_new_cards(hfx, 0.0)
    (revealed,) = [e for e in hfx.events if isinstance(e, ev.CardsRevealed)]
    assert revealed.seat == 0 and len(revealed.cards) == 1
    assert host.game.unknown_count(0) == 0 and revealed.cards[0] in host.game.hand(0)
