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

from durak_core import Game, IllegalAction, Pass, Rules, parse_action
from durak_net import events as ev
from durak_net.botplay import BotDriver
from durak_net.node import SessionView
from durak_net.session import Session, action_cards
from durak_net.wire import Propose
from durak_widgets.handoff import Handoff
from durak_widgets.lan_table import LanBackend

from .helpers import FAST
from .secrets_scan import hidden_positions, opened_by, pickled_candidates
from .tables import Table, make_table
from .test_net_cli_events import FailingNode, _peer


class _RefusingHost(Session):
    """A host that refuses every proposal of ``victim`` and looks, each time, at what
    its own memory then opens of the victim's hidden cards."""

    victim = 1
    looks: list[tuple[str, dict[int, int]]]

    def _on_propose(self, link, frame: Propose, now: float) -> None:  # type: ignore[no-untyped-def]
        if link.peer_seat != self.victim:
            super()._on_propose(link, frame, now)
            return
        self._refuse(link, frame.pid, frame.action, "not now", now)
        dealer = self.dealer
        assert dealer is not None
        hidden = hidden_positions(dealer, self.victim)
        self.looks.append((frame.action, opened_by(dealer, hidden, pickled_candidates(self))))


def _refusing_table(seed: int, players: int) -> Table:
    table = make_table(seed, Rules(players=players, deck_size=36), start=False)
    host = table.host
    host.__class__ = _RefusingHost
    host.looks = []  # type: ignore[attr-defined]
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
        for seat in range(2, players):  # a bystander cannot check: it names nobody
            verdict = table.seats[seat].audited[0]
            assert verdict.culprit is None and verdict.code == "disputed", verdict
        assert not [e for e in table.seats[1].events if isinstance(e, ev.ActionRefused)]


def test_a_refusing_host_learns_no_card_but_those_of_the_one_move_it_refused() -> None:
    for seed in (71, 72, 73):
        table = _refusing_table(seed, 2)
        ((action, opened),) = table.host.looks  # type: ignore[attr-defined]
        # Its memory opens no hidden card of seat 1 beyond the one proposal (the move
        # names its cards; commit-first proposals that hide them are future work).
        assert len(opened) <= len(action_cards(parse_action(action)))


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


def _notebook_lines(events: list[Any], seat: int) -> list[str]:
    """The log lines a notebook's table shows for ``events`` (seat ``seat``'s)."""
    rules = Rules(players=3)
    view = SessionView(1, seat, "Host", 1, Game.new(rules, seed=3).view(seat), True, {},
                       False, False, names=("Ann", "Ben", "Cid"),
                       kinds=("host", "player", "player"), table=1, rules=rules)
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


def test_a_seat_restored_from_its_journal_still_knows_its_automatic_pass_on_its_way() -> None:
    """The journal says which proposal was the automatic pass (``auto``), so a seat
    whose kernel restarts while it is on its way still shows no line if it is refused."""
    table = make_table(3, Rules(players=3), games=1)
    side = table.seats[1]
    assert table.net.run(lambda: bool(side.session._automatic), limit=60.0)
    side.collect()
    restored = Session.restore(side.journal, table.net.now, config=FAST)
    assert restored._automatic == side.session._automatic
    assert set(restored.pending) == set(side.session.pending) >= restored._automatic
    assert all(isinstance(restored.pending[pid], Pass) for pid in restored._automatic)
