"""Refusals every seat can check: the host may refuse only a proposal the table has
moved past.

A refusal says the length of the host's log when it was made (``at``).  The entries
that moved the log on travel before the refusal on the same ordered stream, so the
proposer checks it at once: a refusal of a move made on the host's own log (legal in
the proposer's view, signed by it), or one that claims entries never sent, is a fault
of the host, named by the proposer at the first one.  So a host cannot refuse every
defence to force takes, nor read the proposals it refuses one after another.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from durak_core import Attack, Defend, Game, IllegalAction, Pass, Rules
from durak_net import events as ev
from durak_net.botplay import BotDriver
from durak_net.node import SessionView
from durak_net.session import Session
from durak_net.wire import Propose
from durak_widgets.handoff import Handoff
from durak_widgets.lan_table import LanBackend

from .helpers import FAST, Pair, make_pair
from .secrets_scan import hidden_positions, opened_by, pickled_candidates
from .tables import Table, make_table
from .test_net_cli_events import FailingNode, _peer


class _RefusingHost(Session):
    """A host that refuses every proposal of ``victim`` and looks, each time, at what
    its own memory then opens of the victim's hidden cards."""

    victim = 1
    looks: list[dict[int, int]]

    def _on_propose(self, link, frame: Propose, now: float) -> None:  # type: ignore[no-untyped-def]
        if link.peer_seat != self.victim:
            super()._on_propose(link, frame, now)
            return
        self._refuse(link, frame.pid, "not now", now)
        self.looks.append(self._look())

    def _look(self) -> dict[int, int]:
        dealer = self.dealer
        assert dealer is not None
        hidden = hidden_positions(dealer, self.victim)
        return opened_by(dealer, hidden, pickled_candidates(self))


class _PeekingHost(_RefusingHost):
    """A host that places the victim's proposal, reads it when it is opened, and then
    refuses it."""


    def _on_propose(self, link, frame: Propose, now: float) -> None:  # type: ignore[no-untyped-def]
        Session._on_propose(self, link, frame, now)

    def _on_open(self, link, frame, now: float) -> None:  # type: ignore[no-untyped-def]
        slot = self.proposals.slot
        if link.peer_seat != self.victim or slot is None:
            super()._on_open(link, frame, now)
            return
        self.proposals.slot = None
        self._refuse(link, frame.pid, "not now", now)
        self.looks.append(self._look())


def _refusing_table(seed: int, players: int, cls: type[_RefusingHost] = _RefusingHost,
                    **attrs: Any) -> Table:
    table = make_table(seed, Rules(players=players, deck_size=36), start=False)
    host = table.host
    host.__class__ = cls
    host.looks = []  # type: ignore[attr-defined]
    for name, value in attrs.items():
        setattr(host, name, value)
    assert table.net.run(lambda: all(p.sign_key for p in host.players.values()), limit=30.0)
    host.start(table.net.now)
    assert table.net.run(lambda: all(s.audited for s in table.seats), limit=300.0)
    return table


def test_a_host_that_refuses_every_move_of_a_seat_is_named_by_it_at_the_first() -> None:
    for players in (2, 3):
        table = _refusing_table(60 + players, players)
        host = table.host
        assert len(host.looks) == 1  # one refusal, then the game stops
        (stopped,) = [e for e in table.seats[1].events if isinstance(e, ev.GameStopped)]
        assert stopped.culprit == 0 and "made on its own log" in stopped.detail
        assert (table.seats[1].audited[0].code, table.seats[1].audited[0].culprit) == (
            "bad_refusal", 0)
        for seat in range(2, players):  # a bystander checks the evidence itself
            verdict = table.seats[seat].audited[0]
            assert (verdict.code, verdict.culprit) == ("bad_refusal", 0), verdict
            assert "own signature" in verdict.verdict
        assert not [e for e in table.seats[1].events if isinstance(e, ev.ActionRefused)]
        assert host.looks == [{}]  # and the one refusal showed it no card


def _racing_pair(seed: int) -> Pair:
    """A dealt game of two without bots where Alice (the host) has attacked and can
    throw in more, and Bob can beat her card with one of his hidden cards."""
    for attempt in range(seed, seed + 200):
        pair = make_pair(attempt, bots=False, config=FAST)
        assert pair.net.run(lambda p=pair: p.seq.session.game is not None
                            and p.fol.session.game is not None, limit=10.0)
        seq, fol = pair.seq.session, pair.fol.session
        if seq.game.attacker != 0:
            continue
        seq.act(next(a for a in seq.game.legal_actions(0) if isinstance(a, Attack)),
                pair.net.now)
        assert pair.net.run(lambda p=pair: len(p.fol.session.log) == 1, limit=10.0)
        more = [a for a in seq.game.legal_actions(0) if isinstance(a, Attack)]
        beats = [a for a in fol.game.legal_actions(1) if isinstance(a, Defend)]
        if more and beats:
            return pair
    raise AssertionError("no deal where Alice can throw in while Bob beats")


def test_a_host_that_races_the_proposal_it_refuses_learns_no_hidden_card() -> None:
    """The attack of issue 31 that checked refusals left open: Bob beats Alice's card,
    and Alice's host, holding his proposal, throws in another card first and refuses the
    beat as overtaken.  The rules allow that race, so nobody is named; but a proposal is
    a commitment until the host places it: the host's whole memory then opens none of
    Bob's hidden cards (with the move and its key in the proposal, it opened the card he
    beat with, every time; a host that refused all of a player's moves read 11 of that
    player's hidden cards in one game)."""
    for seed in (3, 40, 90):
        pair = _racing_pair(seed)
        seq, fol = pair.seq.session, pair.fol.session
        looks: list[dict[int, int]] = []
        on_propose = seq._on_propose

        def race(link, frame, now, seq=seq, on_propose=on_propose,  # type: ignore[no-untyped-def]
                 looks=looks):
            seq._on_propose = on_propose  # type: ignore[method-assign]
            seq.act(next(a for a in seq.game.legal_actions(0) if isinstance(a, Attack)), now)
            on_propose(link, frame, now)  # made on the log before the throw-in: refused
            hidden = hidden_positions(seq.dealer, 1)
            looks.append(opened_by(seq.dealer, hidden, pickled_candidates(seq)))

        seq._on_propose = race  # type: ignore[method-assign]
        beat = next(a for a in fol.game.legal_actions(1) if isinstance(a, Defend))
        assert fol.dealer.hidden_position(beat.card) is not None
        fol.act(beat, pair.net.now)
        assert pair.net.run(lambda p=pair: not p.fol.session.pending, limit=pair.net.now + 5)
        assert looks == [{}]
        refused = [e for e in pair.fol.collect() + pair.fol.events
                   if isinstance(e, ev.ActionRefused)]
        assert [e.action for e in refused] == [beat]
        assert not [e for e in pair.fol.events + pair.seq.collect() + pair.seq.events
                    if isinstance(e, ev.GameStopped)]
        assert beat.card not in seq.game.hand(1)  # still hidden from Alice


def test_a_host_that_refuses_a_move_after_it_was_opened_is_named_by_its_proposer() -> None:
    """Once the host has placed a proposal (its signed Order) the move is opened; a host
    that then refuses it, or plays its own move at that place instead, has read the card
    and is named by the proposer at once (``bad_refusal``, ``bad_order``), and by every
    other seat, from the signed Order and Refused the proposer's Fault carries."""
    for players, seed in ((2, 82), (3, 83), (4, 84)):
        table = _refusing_table(seed, players, _PeekingHost)
        assert len(table.host.looks) == 1  # type: ignore[attr-defined]
        verdict = table.seats[1].audited[0]
        assert (verdict.code, verdict.culprit) == ("bad_refusal", 0), (players, verdict)
        assert "after placing it" in verdict.verdict
        for seat in range(2, players):  # the evidence convinces every seat
            other = table.seats[seat].audited[0]
            assert (other.code, other.culprit) == ("bad_refusal", 0), other
    for seed in (3, 40):  # the host reads Bob's beat, then throws in at its place
        pair = _racing_pair(seed)
        seq, fol = pair.seq.session, pair.fol.session
        on_open = seq._on_open

        def overwrite(link, frame, now, seq=seq, on_open=on_open):  # type: ignore[no-untyped-def]
            seq._on_open = on_open  # type: ignore[method-assign]
            seq.proposals.slot = None
            seq.act(next(a for a in seq.game.legal_actions(0) if isinstance(a, Attack)), now)
            seq._refuse(link, frame.pid, "the table moved on", now)

        seq._on_open = overwrite  # type: ignore[method-assign]
        fol.act(next(a for a in fol.game.legal_actions(1) if isinstance(a, Defend)),
                pair.net.now)
        assert pair.net.run(lambda p=pair: bool(p.fol.audited), limit=pair.net.now + 60)
        verdict = pair.fol.audited[0]
        assert (verdict.code, verdict.culprit) == ("bad_order", 0), verdict


class _Recording(BotDriver):
    """A seat's bot that notes every move it chose and the log it chose it on: the
    seat's other proposals are its session's automatic passes."""

    def __init__(self, driver: BotDriver) -> None:
        super().__init__(driver.bot)
        self.chosen: set[tuple[int, int, str]] = set()

    def choose(self, session):  # type: ignore[no-untyped-def]
        action = super().choose(session)
        if action is not None:
            self.chosen.add((session.game_no, len(session.log), str(action)))
        return action


class _StillNode:
    """What a notebook's LanBackend reads of a node: a view that does not move."""

    def __init__(self, view: SessionView) -> None:
        self.session_view = view

    def view(self, sid: int) -> SessionView:
        return self.session_view


def _notebook_lines(events: list[Any], seat: int, players: int = 3) -> list[str]:
    """The log lines a notebook's table shows for ``events`` (seat ``seat``'s)."""
    rules = Rules(players=players)
    names = ("Ann", "Ben", "Cid", "Dan", "Eve", "Fay")[:players]
    view = SessionView(1, seat, "Host", 1, Game.new(rules, seed=3).view(seat), True, {},
                       False, False, names=names,
                       kinds=("host",) + ("player",) * (players - 1), table=1, rules=rules)
    backend = LanBackend(_StillNode(view), 1, None, seat)  # type: ignore[arg-type]
    shown: list[Any] = []
    backend.attach(Handoff(mode="sync"), shown.extend)
    for event in events:
        backend.on_event(event)
    return [str(line) for line in shown]


def test_at_a_table_of_three_only_overtaken_moves_are_refused_and_no_automatic_pass_shows(
) -> None:
    """Seated players' moves cross the host's on the way: a seat says "Beaten" (its
    automatic pass, or its bot's) while the host throws in another card, and the pass
    reaches the host after it.  The host refuses it, rightly: the terminal printed
    ``refused: 2 pass (Wait for player 1 to beat the cards...)`` and the notebook
    ``Not played: 2 pass (...)``, a stray line about a move nobody made, in seat
    numbers.  In seeded games of three with bots, every refusal is of a move the table
    had moved past (made on a shorter log than the host's); an automatic pass is marked
    as one and shown nowhere; a move a player made reads "too late", with no seat
    number, in the terminal and the notebook; a bot's terminal says nothing."""
    automatic = chosen = 0
    for seed in (2, 3, 7):
        table = make_table(seed, Rules(players=3), games=1)
        drivers = {}
        for side in table.seats:
            assert side.driver is not None
            side.driver = drivers[side.session.seat] = _Recording(side.driver)
        assert table.net.run(table.done, limit=600.0)
        assert not table.bad(), table.bad()[:3]
        host_at = {(r["seat"], r["pid"]): r["at"] for r in table.seats[0].journal
                   if r.get("t") == "refused"}
        for side in table.seats[1:]:
            seat = side.session.seat
            proposed = {r["pid"]: r for r in side.journal if r.get("t") == "propose"}
            refused_pids = [r["pid"] for r in side.journal if r.get("t") == "refused"]
            events = [e for e in side.events if isinstance(e, ev.ActionRefused)]
            assert len(events) == len(refused_pids)
            for event, pid in zip(events, refused_pids, strict=True):
                made = proposed[pid]
                assert host_at[(seat, pid)] > made["seen"]  # the table had moved past it
                by_bot = (made["game"], made["seen"], made["action"]) in drivers[seat].chosen
                assert event.automatic is not by_bot, (seed, made)
                if event.automatic:
                    assert isinstance(event.action, Pass)
                automatic += event.automatic
                chosen += not event.automatic
            names = ("Ann", "Ben", "Cid")
            person = _peer(["--name", "Me"], FailingNode(IllegalAction("x"), names,
                                                         Game.new(Rules(players=3), seed=3)))
            bot = _peer(["--name", "Me", "--bot", "random"],
                        FailingNode(IllegalAction("x"), names, None))
            for event in events:
                person.step(event)
                bot.step(event)
            said = [line for line in person.out.getvalue().splitlines()
                    if line.startswith("too late") or "refused" in line]
            assert said == [f"too late for your {str(e.action).split(' ', 1)[1]}: the table "
                            "moved on before it reached \"Ann\"; it was not played"
                            for e in events if not e.automatic]
            assert bot.out.getvalue() == ""
            lines = _notebook_lines(events, seat)
            assert len(lines) == sum(not e.automatic for e in events)
            assert all(line.startswith("Too late to ") for line in lines), lines
            assert not [line for line in lines if re.search(r"\d+ (pass|attack)|player \d",
                                                            line)]
    assert automatic and chosen  # (the seeds still race both ways)


@pytest.mark.parametrize("players", [4, 5])
def test_at_tables_of_four_and_five_every_refusal_is_of_a_move_the_table_moved_past(
        players: int) -> None:
    """More seats, more crossings: at four and five seats with bots, every refusal is of
    a proposal made on a log shorter than the host's when it refused it (too late, never
    a move on the host's own log), an automatic pass is marked as one, a move a bot
    chose is not, and a notebook says each chosen one as "too late", never in seat
    numbers; the game ends fair."""
    table = make_table(4, Rules(players=players), games=1)
    drivers = {}
    for side in table.seats:
        assert side.driver is not None
        side.driver = drivers[side.session.seat] = _Recording(side.driver)
    assert table.net.run(table.done, limit=600.0)
    assert not table.bad(), table.bad()[:3]
    host_at = {(r["seat"], r["pid"]): r["at"] for r in table.seats[0].journal
               if r.get("t") == "refused"}
    automatic = chosen = 0
    for side in table.seats[1:]:
        seat = side.session.seat
        proposed = {r["pid"]: r for r in side.journal if r.get("t") == "propose"}
        refused_pids = [r["pid"] for r in side.journal if r.get("t") == "refused"]
        events = [e for e in side.events if isinstance(e, ev.ActionRefused)]
        assert len(events) == len(refused_pids)
        for event, pid in zip(events, refused_pids, strict=True):
            made = proposed[pid]
            assert host_at[(seat, pid)] > made["seen"]  # too late: the table moved past it
            by_bot = (made["game"], made["seen"], made["action"]) in drivers[seat].chosen
            assert event.automatic is not by_bot, made
            automatic += event.automatic
            chosen += not event.automatic
        lines = _notebook_lines(events, seat, players)
        assert len(lines) == sum(not e.automatic for e in events)
        assert all(line.startswith("Too late to ") for line in lines), lines
        assert not [line for line in lines if re.search(r"\d+ (pass|attack)|player \d", line)]
    assert automatic and chosen  # (the seed still races both ways)


def test_a_seat_restored_from_its_journal_still_knows_its_automatic_pass_on_its_way() -> None:
    """The journal says which proposal was the automatic pass (``auto``), so a seat
    whose kernel restarts while it is on its way still shows no line if it is refused."""
    table = make_table(3, Rules(players=3), games=1)
    side = table.seats[1]
    assert table.net.run(lambda: bool(side.session.proposals.automatic), limit=60.0)
    side.collect()
    restored = Session.restore(side.journal, table.net.now, config=FAST)
    assert restored.proposals.automatic == side.session.proposals.automatic
    assert set(restored.pending) == set(side.session.pending) >= restored.proposals.automatic
    assert all(isinstance(restored.pending[pid], Pass) for pid in restored.proposals.automatic)


def test_at_a_table_of_three_a_host_that_plays_its_own_move_at_a_placed_place_is_named_by_all(
) -> None:
    """Seat 1 beats the host's card; the host places the beat, reads it when it is
    opened, and throws in a card of its own at that place instead.  Seat 1 names it
    (``bad_order``) with the signed Propose and Order as evidence; seat 2 checks them
    against its own log (entry N is the host's throw-in, not seat 1's proposal) and
    names the host too."""
    for seed in range(300, 400):
        table = make_table(seed, Rules(players=3, deck_size=36), bots=False)
        net, host = table.net, table.host
        assert net.run(lambda t=table: all(s.session.game is not None for s in t.seats),
                       limit=30.0)
        seat1 = table.seats[1].session
        if host.game.attacker != 0 or host.game.defender != 1:
            continue
        host.act(next(a for a in host.game.legal_actions(0) if isinstance(a, Attack)), net.now)
        assert net.run(lambda s=seat1: len(s.log) == 1, limit=10.0)
        more = [a for a in host.game.legal_actions(0) if isinstance(a, Attack)]
        beats = [a for a in seat1.game.legal_actions(1) if isinstance(a, Defend)]
        if more and beats:
            break
    else:
        raise AssertionError("no deal where the host can throw in while seat 1 beats")
    on_open = host._on_open

    def overwrite(link, frame, now):  # type: ignore[no-untyped-def]
        host._on_open = on_open  # type: ignore[method-assign]
        host.proposals.slot = None
        host.act(next(a for a in host.game.legal_actions(0) if isinstance(a, Attack)), now)

    host._on_open = overwrite  # type: ignore[method-assign]
    seat1.act(beats[0], net.now)
    assert net.run(lambda: all(s.audited for s in table.seats[1:]), limit=net.now + 120)
    for seat in (1, 2):
        verdict = table.seats[seat].audited[0]
        assert (verdict.code, verdict.culprit) == ("bad_order", 0), (seat, verdict)


def test_while_a_placed_proposal_is_opened_the_host_appends_nothing_and_its_own_move_follows(
) -> None:
    """The place the host signed is the proposal's: a move the host makes meanwhile (its
    person's click, its bot's) is held, not appended, and follows the opened proposal."""
    pair = _racing_pair(3)
    seq, fol = pair.seq.session, pair.fol.session
    stashed: list[Any] = []
    on_open = seq._on_open
    seq._on_open = lambda link, frame, now: stashed.append((link, frame))  # type: ignore
    beat = next(a for a in fol.game.legal_actions(1) if isinstance(a, Defend))
    fol.act(beat, pair.net.now)
    assert pair.net.run(lambda: bool(stashed), limit=pair.net.now + 5)
    assert seq.proposals.slot is not None and len(seq.log) == 1
    throw = next(a for a in seq.game.legal_actions(0) if isinstance(a, Attack))
    seq.act(throw, pair.net.now)  # held: the place at entry 1 is seat 1's
    assert len(seq.log) == 1 and seq.pending == {0: throw}
    seq._on_open = on_open  # type: ignore[method-assign]
    link, frame = stashed[0]
    seq._on_open(link, frame, pair.net.now)
    assert [e.action for e in seq.log[1:]] == [str(beat), str(throw)]
    assert seq.log[1].pid == frame.pid and not seq.pending and seq.proposals.slot is None
    assert pair.net.run(lambda: len(fol.log) == 3, limit=pair.net.now + 5)
    assert not [e for e in pair.fol.collect() + pair.fol.events
                if isinstance(e, ev.GameStopped)]
