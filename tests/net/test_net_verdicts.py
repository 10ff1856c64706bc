"""Every game ends with a verdict, whoever vanishes and whenever.

A peer that disappears (its kernel killed, its cable pulled) without a goodbye cannot
publish its seed, so its game cannot be audited.  The others wait for it the table's
grace period (a seat may come back from its journal); then the game is settled without
it: ``abandoned``, naming the seat that went silent and since when, or the fault a seat
saw itself if it had already stopped the game on evidence.  Nobody waits for ever.
In simulated time, so the grace period is exact.
"""

from __future__ import annotations

import pytest

from durak_core import Rules
from durak_net import events as ev
from durak_net.dealer import MentalDealer
from durak_net.presence import DEFAULT_GRACE
from durak_net.session import mental_dealer

from .helpers import FAST, FOL_ADDR, SEQ_ADDR, Pair, Side, make_pair
from .tables import Table, make_table, seat_addr


def _verdicts(side: Side) -> list[ev.GameAudited]:
    return [e for e in side.events if isinstance(e, ev.GameAudited)]


def _closed(side: Side) -> bool:
    return any(isinstance(e, ev.SessionClosed) for e in side.events)


class _KilledDealer(MentalDealer):
    """The dealer of a peer whose process is killed in the instant after the last move:
    its seed never leaves."""

    def publish_seed(self) -> list[bytes]:
        return []


def _killed(context, seed=None):  # type: ignore[no-untyped-def]
    return _KilledDealer(context, seed)


def _kill_after_last_move(pair: Pair, victim: Side) -> float:
    """Run until the host's game is over, then remove ``victim`` from the network
    before it can publish its seed; returns when."""
    net = pair.net
    assert net.run(lambda: pair.seq.session.game is not None and pair.seq.session.game.is_over,
                   limit=600.0)
    net.remove(SEQ_ADDR if victim is pair.seq else FOL_ADDR)
    return net.now


def test_a_peer_killed_after_the_last_move_leaves_an_abandoned_verdict_not_a_hang() -> None:
    for victim_is_host in (False, True):
        # (The host applies the last entry and publishes its seed in one step: its
        # dealer stands for the instant it is killed in.)
        pair = make_pair(7, config=FAST, seq_dealer=_killed if victim_is_host else mental_dealer)
        victim, honest = (pair.seq, pair.fol) if victim_is_host else (pair.fol, pair.seq)
        killed = _kill_after_last_move(pair, victim)
        assert 1 not in honest.session.audits
        assert pair.net.run(lambda h=honest: bool(_verdicts(h)) and _closed(h),
                            limit=killed + DEFAULT_GRACE + 30.0)
        (verdict,) = _verdicts(honest)
        silent = 0 if victim_is_host else 1
        name = "Alice" if victim_is_host else "Bob"
        assert (verdict.fair, verdict.code, verdict.culprit) == (False, "abandoned", silent)
        assert verdict.verdict.startswith(f"audit: {name} went silent")
        # Waited for the grace period from the last packet heard (one still on the
        # wire when it was killed may arrive), not a moment less.
        assert verdict.silent_since is not None and verdict.silent_since < killed + 0.01
        assert DEFAULT_GRACE <= verdict.at - verdict.silent_since < DEFAULT_GRACE + 1.0
        assert verdict.at - killed < DEFAULT_GRACE + FAST.lost_after


def test_a_peer_that_vanishes_mid_game_at_a_table_of_two_forfeits_after_the_grace_period(
) -> None:
    pair = make_pair(8, config=FAST)
    net = pair.net
    assert net.run(lambda: len(pair.seq.session.log) >= 6, limit=60.0)
    net.remove(FOL_ADDR)
    gone = net.now
    # Before the grace period it is only lost: the game waits (it may come back).
    net.run(lambda: False, limit=gone + DEFAULT_GRACE - 5.0)
    assert not _verdicts(pair.seq) and pair.seq.session.seat_state.get(1) == "lost"
    assert net.run(lambda: _closed(pair.seq), limit=gone + DEFAULT_GRACE + 30.0)
    (verdict,) = _verdicts(pair.seq)
    assert (verdict.code, verdict.culprit) == ("abandoned", 1)
    # No hand-over to the other player at a table of two: Bob's hand stayed hidden.
    assert pair.seq.session.dealers[1].hand_of(1) == []


class _DuplicatingDealer(MentalDealer):
    def _compute(self, step: int) -> list[bytes]:
        deck = super()._compute(step)
        if step == self.seat:
            deck[1] = deck[0]
        return deck


def test_a_cheater_that_duplicates_a_card_and_vanishes_is_still_named() -> None:
    def cheat(context, seed=None):  # type: ignore[no-untyped-def]
        return _DuplicatingDealer(context, seed)

    pair = make_pair(1, fol_dealer=cheat, config=FAST)
    net = pair.net
    assert net.run(lambda: any(isinstance(e, ev.GameStopped) for e in pair.seq.events),
                   limit=30.0)
    net.remove(FOL_ADDR)  # ... and Bob is gone before publishing his seed
    assert net.run(lambda: bool(_verdicts(pair.seq)), limit=net.now + DEFAULT_GRACE + 30.0)
    (verdict,) = _verdicts(pair.seq)
    assert (verdict.code, verdict.culprit) == ("duplicate_card", 1)
    assert verdict.verdict.startswith("audit: Bob cheated: duplicated a card in deal step 1")
    assert "Bob went silent" in verdict.verdict


RULES3 = Rules(players=3, deck_size=24)


def _table_over(seed: int, rules: Rules = RULES3) -> Table:
    table = make_table(seed, rules)
    assert table.net.run(lambda: table.host.game is not None and table.host.game.is_over,
                         limit=600.0)
    return table


@pytest.mark.parametrize("players", [3, 4])
def test_a_host_killed_after_the_last_move_is_named_by_every_seat(players: int) -> None:
    table = make_table(48 + players, Rules(players=players, deck_size=24))
    # It dies before its seed is out.  (A host killed once its seed is out has left
    # nothing undone: the seats' seeds reach each other on their heartbeats, and the
    # audit is fair.)
    table.host.endings.publish_seed = lambda *_: None  # type: ignore[method-assign]
    net = table.net
    assert net.run(lambda: table.host.game is not None and table.host.game.is_over,
                   limit=600.0)
    net.remove(seat_addr(0))
    killed = net.now
    others = table.seats[1:]
    assert net.run(lambda: all(_verdicts(s) for s in others), limit=killed + 120.0)
    for side in others:
        (verdict,) = _verdicts(side)
        assert (verdict.code, verdict.culprit) == ("abandoned", 0), verdict


@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_killed_after_the_last_move_is_named_by_the_host_and_the_others(
        players: int) -> None:
    table = _table_over(49 + players, Rules(players=players, deck_size=24))
    net = table.net
    net.remove(seat_addr(2))
    killed = net.now
    others = [s for s in table.seats if s.session.seat != 2]
    assert net.run(lambda: all(_verdicts(s) for s in others), limit=killed + 120.0)
    for side in others:
        (verdict,) = _verdicts(side)
        assert (verdict.code, verdict.culprit) == ("abandoned", 2), verdict


@pytest.mark.parametrize("older_peer", [False, True])
def test_a_host_that_withholds_a_connected_seats_seed_gets_nobody_named(
        older_peer: bool) -> None:
    """After the last move the host tells seat 1 that seat 2 is lost and keeps seat 2's
    seed from it.  Seat 1 still hears seat 2's own heartbeats, and they carry seat 2's
    seed: the audit is whole, and fair (never the honest seat 2 named).  An older peer's
    heartbeats carry no seed: seat 1 cannot tell which of the two withholds the game,
    and names nobody."""
    from durak_net.wire import Deal, Status

    table = make_table(53, RULES3, start=False)
    net, host = table.net, table.host
    if older_peer:
        table.seats[2].session.dealing.own_seed = (  # type: ignore[method-assign]
            lambda _: None)
    assert net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    link = host.links[1]
    honest_push = link.push

    def push(frame, now):  # type: ignore[no-untyped-def]
        over = host.game is not None and host.game.is_over
        if over and isinstance(frame, Deal) and frame.seat == 2:
            return  # seat 2's seed never reaches seat 1
        if over and isinstance(frame, Deal) and frame.seat == 0 and not told:
            told.append(True)
            honest_push(Status(0, 2, "lost"), now)
        honest_push(frame, now)

    told: list[bool] = []
    link.push = push  # type: ignore[method-assign]
    host.start(net.now)
    assert net.run(lambda: bool(_verdicts(table.seats[1])), limit=900.0)
    (verdict,) = _verdicts(table.seats[1])
    assert told and verdict.culprit is None, verdict
    if older_peer:
        assert verdict.code == "abandoned" and "still heard here" in verdict.verdict
    else:
        assert verdict.fair, verdict
    assert _verdicts(table.seats[2])[0].fair  # seat 2 itself got everything
