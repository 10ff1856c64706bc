"""Tables of 3 to 6 seats in the notebook lobby (``lan(table=...)``), over real UDP here.

As in test_net_lan_widgets.py, each lobby gets a ``Handoff(mode="manual")`` standing in
for its kernel's event loop: the network threads post to it and the test pumps it on
its own thread, as the kernel would; so every widget changes on one thread, and a
click is a widget ``click()``.  Waiting is for what the test expects to see.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import html
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tornado.ioloop import IOLoop
from widgets.seat_oracle import box_of as seat_box
from widgets.seat_oracle import check_roles, role_of

from durak_core import Attack, Game, Pass, Rules, Take
from durak_net import events as ev
from durak_net.node import SessionView
from durak_widgets import lan
from durak_widgets.controller import TableController, describe
from durak_widgets.handoff import Handoff
from durak_widgets.lan import LanLobby
from durak_widgets.lan_table import LanBackend

from .test_net_lan_widgets import pump_until
from .test_net_udp import free_udp_port

pytestmark = pytest.mark.waits

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def lobbies() -> Iterator[Callable[..., LanLobby]]:
    """Open lobbies on one fresh discovery port; all are closed after the test."""
    made: list[LanLobby] = []
    port = free_udp_port()

    def make(name: str, **kw: Any) -> LanLobby:
        kw.setdefault("journal_dir", None)
        lobby = lan(name, port=port, handoff=Handoff(mode="manual"), **kw)
        made.append(lobby)
        return lobby

    yield make
    for lobby in made:
        lobby.close()


def at(host: LanLobby) -> str:
    """The host's game port as ``connect=`` takes it: a lobby that announces itself
    there hears the host's table at once, without waiting for its next broadcast (the
    tests of the lobby's list by broadcast do not use it)."""
    return f"127.0.0.1:{host.node.game_port}"


def join_button(lobby: LanLobby, host: str):
    for row in lobby._peer_rows.values():
        if f"<b>{host}</b>" in row[1].value:
            return row[4]
    return None


def text(widget) -> str:
    return html.unescape(widget.value)


def box_of(lobby: LanLobby, seat: int) -> str:
    assert lobby.controller is not None, lobby.node.name
    return seat_box(lobby.controller.view, seat)


def check_table(lobby: LanLobby) -> None:
    """The table as this seat shows it agrees with its seat's view of the game: the
    opponents in seat order from our left, each with its card count, and the role and
    throw-in right the rules give it (the same oracle as the local tables')."""
    backend = lobby.backend
    assert backend is not None and lobby.controller is not None
    game: Game = backend.game
    me, n = backend.seat, game.players
    view = lobby.controller.view
    order = [int(next(c for c in b._dom_classes if c.startswith("durak-seat-"))[11:])
             for b in view.opponent_boxes]
    assert order == [(me + k) % n for k in range(1, n)]  # from our left, clockwise
    counts = [h["count"] for h in game.observation(me)["hands"]]
    for seat in order:
        box = box_of(lobby, seat)
        assert f'<span class="durak-count">{counts[seat]}</span>' in box, box
        assert backend.names[seat] in box
    check_roles(view, game, order)


def three_at_a_table(lobbies, ann: dict[str, Any], ben: dict[str, Any],
                     cid: dict[str, Any]) -> tuple[LanLobby, LanLobby, LanLobby]:
    """Ann hosts a table of three (these options added) and starts it once Ben (who
    asks by name) and Cid (who clicks Join) sit down; returns their lobbies, tables
    open."""
    host = lobbies("Ann", table=Rules(players=3), auto_start=True, **ann)
    first = lobbies("Ben", join="Ann", connect=at(host), **ben)
    second = lobbies("Cid", connect=at(host), **cid)
    pump_until([host, first, second], lambda: first.sid is not None
               and join_button(second, "Ann") is not None
               and not join_button(second, "Ann").disabled)
    join_button(second, "Ann").click()
    everyone = [host, first, second]
    pump_until(everyone, lambda: all(lb.controller is not None for lb in everyone))
    return host, first, second


@pytest.mark.parametrize("throw_in", ["all", "neighbours"])
def test_a_host_with_two_bots_and_a_joiner_fill_a_table_start_and_play_it(
    lobbies, throw_in: str
) -> None:
    rules = Rules(players=4, throw_in=throw_in)
    ann = lobbies("Ann", table=rules, add_bots=["random", "greedy"], bot="random", seed=1)
    ben = lobbies("Ben", bot="random", seed=2)
    # The host's lobby shows the table filling: its bots labelled, one seat open.
    rows = [text(r[1]) for r in ann.seating.rows[:4]]
    assert rows[0].startswith("<b>Ann</b> (you, host)")
    assert rows[1] == "<b>random bot</b> (bot, runs in your kernel)"
    assert rows[2] == "<b>greedy bot</b> (bot, runs in your kernel)"
    assert rows[3] == "<i>an open seat</i>"
    assert ann.seating.rows[3][3].layout.display == "" and ann.seating.start_button.disabled
    assert ann.seating.rows[4][0].layout.display == "none"  # a table of four has four rows
    # Ben's lobby lists Ann's table with its rules in words, free seats and Join.
    pump_until([ann, ben], lambda: join_button(ben, "Ann") is not None)
    listed = next(text(r[1]) for r in ben._peer_rows.values())
    words = "only the defender's neighbours throw in" if throw_in == "neighbours" else (
        "everyone throws in")
    assert f"<b>Ann</b>'s table of 4 · podkidnoy, 36 cards, {words}" in listed
    assert "3 of 4 seats taken, 1 free" in listed and "no move clock" in listed
    join_button(ben, "Ann").click()
    # (The seating is drawn from the node's live view, which may run ahead of the events
    # the hand-off has delivered: wait for the host's screen to show Ben's words.)
    pump_until([ann, ben], lambda: ben.sid is not None and not ann.seating.start_button.disabled
               and bool(ben.sas) and ben.sas in text(ann.seating.rows[3][1])
               and all("open" not in text(r[1]) for r in ben.seating.rows[:4]))
    # Both show the same seating and the same table words, and say what to do with them.
    assert text(ben.seating.rows[3][1]) == "<b>Ben</b> (you)"
    assert "bot, runs in Ann's kernel" in text(ben.seating.rows[1][1])
    assert ben.seating.start_button.layout.display == "none"  # only the host starts
    assert ann.table_words.value == ben.table_words.value
    assert "every screen at this table must show the same four words" in ben.table_words.value
    # Ben's pairing words with the host are the ones the host shows beside his seat.
    assert ben.sas and f"pairing words <b>{ben.sas}</b>" in text(ann.seating.rows[3][1])
    assert ben.sas in ben.sas_label.value
    ann.seating.start_button.click()
    pump_until([ann, ben], lambda: ann.controller is not None and ben.controller is not None)
    assert ann.seating.root.layout.display == "none" and ann.lobby_box.layout.display == "none"
    assert "durak-lan-table-words" in ann.table_words._dom_classes
    assert ann.table_words.layout.display is None  # still shown during play
    # Every state each screen shows is checked once, as the moves arrive.
    def state() -> tuple[Any, ...]:
        return tuple((len(lb.backend.game.log), len(lb.backend.verdicts),
                      lb.controller._refresh_posted) for lb in (ann, ben))

    checked = 0
    while not all(lb.backend.verdicts for lb in (ann, ben)):
        before = state()
        pump_until([ann, ben], lambda b=before: state() != b
                   or all(lb.backend.verdicts for lb in (ann, ben)))
        for lobby in (ann, ben):
            if lobby.controller._refresh_posted:
                continue  # a refresh is queued: the widgets lag the mirror until it runs
            check_table(lobby)
            checked += 1
    assert checked > 10
    for lobby in (ann, ben):
        check_table(lobby)
        assert "audited: fair" in lobby.badge.value
        assert not lobby.node.handler_errors
    (a,), (b,) = ann.results, ben.results
    assert (a.state_hash, a.log_hash, a.durak) == (b.state_hash, b.log_hash, b.durak)
    # The score counts every seat; the durak is named on the table.
    for lobby in (ann, ben):
        score = text(lobby.controller.view.score)
        assert all(f"{name} " in score for name in lobby.backend.names)
        if a.durak is not None and a.durak != lobby.backend.seat:
            assert role_of(box_of(lobby, a.durak)) == "durak"


def test_seats_fill_by_clicking_add_bot_and_a_full_table_refuses_a_joiner(lobbies) -> None:
    ann = lobbies("Ann", table=Rules(players=3))
    ann.seating.rows[1][2].value = "ismcts"
    ann.seating.rows[1][3].click()
    ann.handoff.pump()
    assert text(ann.seating.rows[1][1]) == "<b>ismcts bot</b> (bot, runs in your kernel)"
    assert ann.seating.rows[1][3].layout.display == "none"
    assert ann.seating.start_button.disabled
    ann.seating.rows[2][3].click()
    ann.handoff.pump()
    assert "greedy bot" in text(ann.seating.rows[2][1]) and not ann.seating.start_button.disabled
    assert "click Start" in ann.seating.hint.value
    # Ben sees the table full: Join is disabled; asking anyway is refused with the reason.
    ben = lobbies("Ben")
    pump_until([ann, ben], lambda: join_button(ben, "Ann") is not None)
    assert join_button(ben, "Ann").disabled and "0 free" in text(
        next(iter(ben._peer_rows.values()))[1])
    join_button(ben, "Ann").click()  # as if the click raced the table filling up
    pump_until([ann, ben], lambda: "takes no more players" in text(ben.status))
    assert ben.sid is None and ben.joining is None


def team_choice(lobby: LanLobby, host: str):
    """The team choice beside Join in ``lobby``'s row of ``host``'s table."""
    return next(row[5] for row in lobby._peer_rows.values() if f"<b>{host}</b>" in row[1].value)


def test_joiners_choose_a_team_and_sit_opposite_their_partner_from_a_notebook_or_a_terminal(
    lobbies,
) -> None:
    """A table of six in teams: the host's seating names each seat's team and partner;
    Join offers the teams with a free seat; a notebook that picks a team and a terminal
    that asks with ``--team`` both get the seat the host's one rule gives (the free seat
    of that team, opposite the partner), and a full team is refused with the reason."""
    ann = lobbies("Ann", table=Rules(players=6, teams=True), add_bots=["random"])
    assert "in teams, partners opposite" in text(ann.seating.title)
    rows = [text(r[1]) for r in ann.seating.rows[:6]]
    assert rows[0] == "<b>Ann</b> (you, host) · team 0, the partner sits opposite (open)"
    assert rows[1].endswith("(bot, runs in your kernel) · team 1, the partner sits opposite (open)")
    assert rows[3] == "<i>an open seat</i> · team 0, Ann's partner"
    assert rows[4] == "<i>an open seat</i> · team 1, random bot's partner"
    assert rows[5] == "<i>an open seat</i> · team 2, the partner sits opposite (open)"
    # Ben's lobby: Join with the team choice, each team with a free seat and who is in it.
    ben = lobbies("Ben", connect=at(ann))
    pump_until([ann, ben], lambda: join_button(ben, "Ann") is not None)
    choice = team_choice(ben, "Ann")
    assert choice.layout.display is None
    assert list(choice.options) == [("any team", -1), ("team 0, with Ann", 0),
                                    ("team 1, with random bot", 1),
                                    ("team 2, both seats open", 2)]
    # A terminal asks for team 1 (durak-lan --team 1) while Ben picks team 0.
    dan = subprocess.Popen(
        [sys.executable, "-m", "durak_net", "--name", "Dan", "--port", str(ann.node.port),
         "--connect", at(ann), "--join", "Ann", "--team", "1", "--bot", "random",
         "--timeout", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True,
        env=dict(os.environ, PYTHONPATH=str(REPO)))
    said: list[str] = []
    reader = threading.Thread(target=lambda: said.extend(iter(dan.stdout.readline, "")),
                              daemon=True)
    reader.start()
    try:
        choice.value = 0
        join_button(ben, "Ann").click()
        pump_until([ann, ben], lambda: ben.sid is not None
                   and "Ben" in text(ann.seating.rows[3][1])
                   and "Ben" in text(ben.seating.rows[0][1]))
        assert text(ann.seating.rows[3][1]).startswith(
            "<b>Ben</b> · team 0, Ann's partner")
        assert text(ann.seating.rows[0][1]).endswith("· team 0, Ben's partner")
        assert text(ben.seating.rows[3][1]) == "<b>Ben</b> (you) · team 0, Ann's partner"
        # Team 0 is full: a notebook asking for it is refused with the reason.
        cid = lobbies("Cid", join="Ann", team=0, connect=at(ann))
        pump_until([ann, cid], lambda: "no free seat in that team" in text(cid.status))
        assert cid.sid is None and cid.joining is None
        # The terminal sits opposite the bot, as the notebook's choice of team 1 would.
        pump_until([ann, cid], lambda: "Dan" in text(ann.seating.rows[4][1])
                   and any("seated at" in line for line in said))
        assert text(ann.seating.rows[4][1]).startswith(
            "<b>Dan</b> · team 1, random bot's partner")
        assert ann.node.view(ann.sid).kinds == ("host", "bot", "open", "player", "player",
                                                "open")
        # Cid's lobby now offers the one team with free seats.
        pump_until([ann, cid], lambda: [t for _, t in team_choice(cid, "Ann").options]
                   == [-1, 2])
    finally:
        dan.terminate()
        dan.wait(timeout=10)
        reader.join(timeout=10)
    out = "".join(said)
    assert "for a seat in team 1" in out, out
    # Its team in words; never a seat number (the partner's name once the seating is known).
    assert re.search(r"seated at \"Ann\" \([^)]*\)'s table [0-9a-f]+ \(team 1\)", out), out
    assert not re.search(r"\bseat \d", out), out


def test_bad_table_arguments_are_refused_with_the_reason() -> None:
    with pytest.raises(TypeError, match=r"table takes durak_core\.Rules"):
        lan("Dan", table=4, journal_dir=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="host a table of 3"):
        lan("Dan", rules=Rules(players=3), journal_dir=None)
    with pytest.raises(ValueError, match="do not fit"):
        lan("Dan", table=Rules(players=3), add_bots=["random"] * 3, journal_dir=None)
    with pytest.raises(ValueError, match="unknown bot"):
        lan("Dan", table=Rules(players=3), add_bots=["nonsense"], journal_dir=None)
    with pytest.raises(ValueError, match="for a table you host"):
        lan("Dan", clock=30, journal_dir=None)
    with pytest.raises(ValueError, match="0 to 3600"):
        lan("Dan", table=Rules(players=3), clock=-1, journal_dir=None)
    with pytest.raises(ValueError, match=r"for joining a table of teams: lan\(join=NAME"):
        lan("Dan", team=1, journal_dir=None)
    with pytest.raises(ValueError, match="team is 0, 1 or 2"):
        lan("Dan", join="Ann", team=3, journal_dir=None)


def test_the_move_clock_counts_down_and_a_timed_out_move_is_shown_everywhere(lobbies) -> None:
    """A table of three with a 1 s clock: Ben never moves, so the host's clock plays his
    safe default (take, pass, or his cheapest card) and every screen logs "timed out"."""
    ann = lobbies("Ann", table=Rules(players=3, deck_size=24), clock=1, add_bots=["random"],
                  bot="random", seed=1, auto_start=True)
    ben = lobbies("Ben", join="Ann", connect=at(ann))  # seat 2: the host's bot took seat 1
    pump_until([ann, ben], lambda: ann.controller is not None and ben.controller is not None)
    assert "move clock 1 s" in ann.controller.view.table_line.value
    # The clock display: each seat's time left, from the session's deadlines.
    backend: LanBackend = ben.backend
    now = time.monotonic()
    backend.clock = lambda: now  # freeze time for the display
    assert backend.seat == 2
    backend.deadlines = [None, now + 7.0, now + 0.4]
    backend.tick()  # what the kernel's timer runs about once a second
    assert backend.clock_running() and backend.ticks == 1
    ben.controller.refresh()
    assert "⏱ 1 s" in ben.controller.view.me.value  # Ben's own line
    assert "durak-clock-low" in ben.controller.view.me.value
    assert "⏱ 7 s" in box_of(ben, 1) and "durak-clock-low" not in box_of(ben, 1)
    assert "durak-clock" not in box_of(ben, 0)  # the host's clock is not running
    backend.clock = time.monotonic
    # Ben does nothing: the clock moves for him, and all three tables say so.
    pump_until([ann, ben], lambda: all("timed out" in lb.controller.view.log.value
                                       for lb in (ann, ben)), timeout=30)
    line = next(li for li in ben.controller.view.log.value.split("<li>") if "timed out" in li)
    assert "you" in line or "Ben" in line
    forced = [e for e in ann.node.sessions[ann.sid].log if e.forced == "timeout"]
    assert forced and all(e.action.startswith("2 ") for e in forced)


def test_the_clock_redraws_itself_on_the_kernels_loop_while_it_runs(lobbies) -> None:
    """With a kernel's loop (here one that records its timers), the backend arms one
    timer at a time, at the next whole second of the soonest clock, and stops when no
    clock runs."""

    class Loop:
        def __init__(self) -> None:
            self.timers: list[tuple[float, Any]] = []
            self.ready: list[Any] = []

        def add_callback(self, fn, *args) -> None:  # queued, as a real loop does
            self.ready.append(lambda: fn(*args))

        def call_later(self, delay: float, fn, *args) -> None:
            self.timers.append((delay, lambda: fn(*args)))

        def fire(self) -> None:
            """The oldest timer runs out: it posts, and the loop runs what is ready."""
            self.timers.pop(0)[1]()
            while self.ready:
                self.ready.pop(0)()

    ann = lobbies("Ann", table=Rules(players=3), clock=30, add_bots=["random", "random"],
                  auto_start=True)
    pump_until([ann], lambda: ann.controller is not None)
    backend = ann.backend
    loop = Loop()
    backend._handoff = Handoff(mode="kernel", loop=loop)
    now = time.monotonic()
    backend.clock = lambda: now
    backend.deadlines = [now + 12.25, None, None]
    backend._schedule_tick()
    backend._schedule_tick()  # one timer at a time
    assert [round(d, 2) for d, _ in loop.timers] == [0.25]
    loop.fire()
    assert backend.ticks == 1 and [round(d, 2) for d, _ in loop.timers] == [0.25]
    backend.deadlines = [None, None, None]  # nobody's clock runs: no more timers
    loop.fire()
    assert backend.ticks == 1 and not loop.timers


class StillNode:
    """A node whose table never moves: its session's view is the one given (a real game
    dealt, seat 0's move clock running).  Only what a LanBackend reads of a node."""

    def __init__(self, view: SessionView) -> None:
        self.session_view = view

    def view(self, sid: int) -> SessionView:
        return self.session_view

    def leave(self, sid: int, reason: str = "") -> None:
        pass


def test_the_clock_counts_down_by_itself_on_a_real_tornado_loop() -> None:
    """The kernel's loop is tornado's IOLoop on asyncio: on one here (on a thread of its
    own, as a kernel's is, whatever loop this test's thread has), the table's clock
    redraws itself with no event from the network, one second less at each redraw, and
    arms no more timers once no clock runs.  Time is injected (each redraw is a second
    later, the deadline 50 ms past a whole second, so each timer waits 50 ms); every
    step waits for the redraw itself (the widget's value changing), bounded by a
    timeout, and nothing sleeps."""
    rules = Rules(players=3)
    start = 1000.0
    dealt = Game.from_observation(Game.new(rules, seed=1).observation(0))  # seat 0's view
    view = SessionView(sid=1, seat=0, peer_name="", game_no=1, game=dealt, in_game=True,
                       pending={}, lost=False, closed=False, names=("Ann", "Ben", "Cid"),
                       kinds=("host", "player", "player"), table=1, clock=30,
                       deadlines=(start + 3.05, None, None), seat_states=("", "", ""),
                       duraks=(0, 0, 0), rules=rules)
    backend = LanBackend(StillNode(view), 1, None, 0, clock=lambda: start + backend.ticks)

    async def count_down() -> list[str]:
        handoff = Handoff(mode="kernel", loop=IOLoop.current())
        assert handoff.timers
        ticked: asyncio.Queue[int] = asyncio.Queue()
        shown: asyncio.Queue[str] = asyncio.Queue()
        real_tick = backend.tick

        def tick() -> None:  # what the loop's timer runs
            real_tick()
            ticked.put_nowait(backend.ticks)

        def redrawn(change: dict[str, Any]) -> None:
            shown.put_nowait(change["new"])
            if "⏱ 1 s" in change["new"]:
                backend.deadlines = [None, None, None]  # the seat moves in its last second

        backend.tick = tick  # type: ignore[method-assign]
        table = TableController(backend, handoff)  # on the loop's thread, as in a kernel
        table.view.me.observe(redrawn, "value")
        clocks: list[str] = []
        for want in ("⏱ 3 s", "⏱ 2 s", "⏱ 1 s"):
            while want not in (value := await asyncio.wait_for(shown.get(), 5)):
                pass  # another redraw (the first shows 4 s)
            clocks.append(value[value.index("⏱"):].split("<")[0])
        # The timer armed by the last redraw fires once more, finds no clock running and
        # arms no other.
        while True:
            await asyncio.wait_for(ticked.get(), 5)
            if not backend._ticking and ticked.empty():
                break
        table.view.close()
        return clocks

    outcome: dict[str, Any] = {}

    def kernel_thread() -> None:
        io_loop = IOLoop()
        try:
            outcome["clocks"] = io_loop.run_sync(count_down, timeout=20)
        except BaseException as exc:  # handed to the test's thread below
            outcome["error"] = exc
        finally:
            io_loop.close(all_fds=False)

    thread = threading.Thread(target=kernel_thread, name="kernel loop")
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "the loop did not finish"
    if "error" in outcome:
        raise outcome["error"]
    assert outcome["clocks"] == ["⏱ 3 s", "⏱ 2 s", "⏱ 1 s"]
    assert backend.ticks == 3 and not backend._ticking


def test_a_lost_seat_is_shown_to_everyone_and_the_host_names_it(lobbies) -> None:
    """Ben's kernel dies (its lobby closes without a goodbye): 3 s later the host sees
    his seat's connection lost, and so does Cid, through the host's status."""
    ann, ben, cid = three_at_a_table(lobbies, {}, {}, {})
    ben_seat = ben.backend.seat
    ben.close(leave=False)
    pump_until([ann, cid], lambda: all("connection lost" in box_of(lb, ben_seat)
                                       for lb in (ann, cid)), timeout=15)
    for lobby in (ann, cid):
        assert "durak-away" in next(b for b in lobby.controller.view.opponent_boxes
                                    if f"durak-seat-{ben_seat}" in b._dom_classes)._dom_classes
        assert "Connection lost: Ben" in text(lobby.status)
        assert "Connection to Ben lost" in lobby.controller.view.log.value
        assert ben_seat not in lobby.backend.thinking()


def test_a_refusal_read_after_the_table_moved_on_does_not_hide_a_legal_move() -> None:
    """Ben's notebook reads its session's events in turn, while the session goes on.
    Here a gap makes his table copy the session's current game (two moves ahead of the
    events still queued), and then it reads the host's refusal of a take he proposed
    two moves ago.  The take is legal again now: his table (and his bot) must offer it;
    kept as "refused", it was the move that could not be made, and the table waited for
    Ben for ever."""
    rules = Rules(players=3)
    full = next(g for g in (Game.new(rules, seed=s) for s in range(1, 40)) if g.defender == 1)
    ben = 1
    view_at = {}
    for step in range(3):
        if step:  # an attack on Ben, then a card thrown in by another seat
            full.apply(next(a for a in full.legal_actions() if isinstance(a, Attack)
                            and a.player != ben))
        view_at[step] = SessionView(
            sid=1, seat=ben, peer_name="", game_no=1,
            game=full.view(ben), in_game=True, pending={},
            lost=False, closed=False, names=("Ann", "Ben", "Cid"),
            kinds=("host", "player", "player"), table=1, seat_states=("", "", ""),
            deadlines=(None, None, None), duraks=(0, 0, 0), rules=rules)
    node = StillNode(view_at[1])
    backend = LanBackend(node, 1, None, ben)
    backend.resync()  # Ben's table at the attack; he proposes to take it
    assert backend.why_illegal(Take(ben)) is None
    node.session_view = view_at[2]  # the session meanwhile: a card thrown in
    thrown = full.log[-1]
    backend.on_event(ev.ActionApplied(1, 1, 5, thrown, (), False, "", 0.0))  # a gap
    assert len(backend._game.log) == 2
    backend.on_event(ev.ActionRefused(1, Take(ben), "not in this state", 0.0))
    backend.on_event(ev.ActionApplied(1, 1, 1, thrown, (), False, "", 0.0))  # already in
    assert backend.why_illegal(Take(ben)) is None
    # A refusal in the state the table shows holds.
    node.session_view = dataclasses.replace(view_at[2], refused={str(Take(ben)): "no"})
    backend.on_event(ev.ActionRefused(1, Take(ben), "no", 0.0))
    # ("no" is no sentence of the rules engine: the host program's own words, quoted.)
    assert backend.why_illegal(Take(ben)) == "Ann refused this move, saying: “no”"


def test_seat_states_from_the_host_are_shown_including_a_bot_playing_for_a_player(
    lobbies,
) -> None:
    """The states the host reports for a seat, the fourth one ("bot": a bot plays it
    while its player is away) included, each shown beside the seat and in the log."""
    ann = lobbies("Ann", table=Rules(players=3), add_bots=["random"])
    ben = lobbies("Ben", join="Ann", connect=at(ann))
    # Until every seat has said hello the host cannot start (a seat taken is not yet
    # ready): wait for what the host sees, Start enabled.
    pump_until([ann, ben], lambda: ben.sid is not None
               and not ann.seating.start_button.disabled)
    ann.start()
    pump_until([ann, ben], lambda: ann.controller is not None and ben.controller is not None)
    backend = ben.backend
    # The host reports a state twice: a SeatStatus event and the session's view (which
    # the table re-reads whenever a move comes in); fake both, or a real move arriving
    # between would rightly put the true state back.
    reported = {"state": ""}
    true_view = ben.node.view

    def view_with_the_reported_state(sid: int) -> Any:
        view = true_view(sid)
        if view is None or not reported["state"]:
            return view
        states = list(view.seat_states)
        states[1] = reported["state"]
        return dataclasses.replace(view, seat_states=tuple(states))

    ben.node.view = view_with_the_reported_state
    for state, note, line in [("lost", "connection lost", "Connection to random bot lost"),
                              ("bot", "a bot plays for them", "A bot plays for random bot"),
                              ("back", "back", "random bot is back")]:
        reported["state"] = "" if state == "back" else state
        backend.on_event(ev.SeatStatus(ben.sid, 1, state, "", 0.0))
        ben.handoff.pump()
        assert note in box_of(ben, 1), state
        assert line in ben.controller.view.log.value


def log_lines(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[str]]:
    """Every line each table's log is given, by id of its controller: the log widget
    shows the last eight, and a burst of moves can push a line out before a test looks."""
    lines: dict[int, list[str]] = collections.defaultdict(list)
    refresh = TableController._refresh_from_backend

    def recording(self: TableController) -> None:
        with self._incoming_lock:
            incoming = list(self._incoming)
        lines[id(self)] += [describe(u, self.names, self._you()) for u in incoming]
        refresh(self)

    monkeypatch.setattr(TableController, "_refresh_from_backend", recording)
    return lines


def test_a_lost_seat_is_played_by_the_hosts_bot_and_taken_back_with_a_line_on_every_screen(
    lobbies, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The real hand-over: Ben's kernel dies mid-game at a table of three with a grace
    period of 1 s.  The host's stand-in bot takes his seat; Ann's and Cid's tables say
    so beside his seat, and log the moves it plays for him as such.  Then Ben's
    notebook comes back from its journal: every screen says he plays his seat again,
    and his own screen says what the bot did for him; his next move is his own."""
    lines = log_lines(monkeypatch)

    def said(lobby: LanLobby) -> str:
        assert lobby.controller is not None
        return "\n".join(lines[id(lobby.controller)])

    ann, ben, cid = three_at_a_table(
        lobbies, {"grace": 1, "bot": "random", "seed": 3},
        {"bot": "random", "seed": 4, "journal_dir": tmp_path}, {"bot": "random", "seed": 5})
    everyone = [ann, ben, cid]
    ben_seat = ben.backend.seat
    pump_until(everyone, lambda: ann.controller.moves >= 3)
    ben.close(leave=False)
    others = [ann, cid]
    host = ann.node.sessions[ann.sid]
    pump_until(others, lambda: any(e.forced == "bot" for e in host.log), timeout=20)
    # Ann's and Cid's bots pause (they move only when their notebooks are pumped), so
    # the game waits for them and is still on when Ben comes back.
    paused = {lb: lb.backend.bot for lb in others}
    for lobby in others:
        lobby.backend.bot = None
    pump_until(others, lambda: all("played by a bot for the absent player" in said(lb)
                                   and "a bot plays for them" in box_of(lb, ben_seat)
                                   for lb in others), timeout=20)
    for lobby in others:
        assert lobby.backend.seat_states[ben_seat] == "bot"
        where = "your kernel" if lobby is ann else "Ann's kernel"
        assert f"A bot in {where} plays for Ben until they are back." in text(lobby.status)
        log = said(lobby).splitlines()
        assert "A bot plays for Ben while they are away." in log, log  # (no stray detail)
        line = next(li for li in log if "played by a bot" in li)
        assert line.startswith("Ben ")
    assert all(e.action.startswith(f"{ben_seat} ") for e in host.log if e.forced == "bot")
    # Ben's kernel restarts: his new lobby offers the game back, and he takes his seat.
    back = lobbies("Ben", bot="random", seed=6, journal_dir=tmp_path, connect=at(ann))
    (resume,) = back.resume_box.children
    resume.click()
    again = [ann, cid, back]
    pump_until(again, lambda: back.controller is not None and ben_seat not in host.bots
               and all("the bot stops" in said(lb) for lb in others))
    for lobby in others:
        assert "Ben is back and plays their seat again: the bot stops." in said(lobby)
        assert text(lobby.status) == "Ben is back."
        assert "a bot plays for them" not in box_of(lobby, ben_seat)
    # Ben's screen accounts for every move the bot made for him: those his restored
    # session already held when his table opened in one line, any that came after one
    # by one, each marked.
    played = sum(1 for e in host.log if e.forced == "bot")  # (the stand-in has stopped)

    def told() -> int:
        log = said(back)
        summary = re.search(r"While you were away a bot in Ann's kernel played (\d+) moves? "
                            r"for you; the seat is yours again\.", log)
        return (int(summary.group(1)) if summary else 0) + log.count(
            " — played for you by a bot while you were away")

    pump_until(again, lambda: told() == played)
    # The others' bots go on; Ben's next move is his own (not marked as the bot's).
    for lobby, bot in paused.items():
        lobby.backend.bot = bot
        lobby.handoff.post(lobby.backend._schedule_bot)
    last_bot = max(i for i, e in enumerate(host.log) if e.forced == "bot")
    pump_until(again, lambda: any(e.action.startswith(f"{ben_seat} ") and not e.forced
                                  for e in host.log[last_bot + 1:]) or host.game.is_over,
               timeout=20)
    assert not any(e.forced == "bot" for e in host.log[last_bot + 1:])
    for lobby in again:
        assert not lobby.node.handler_errors


def test_play_again_at_three_seats_keeps_the_match_score(lobbies) -> None:
    """Match play at a table of three: after the first game is audited, New game in both
    notebooks (the host's bot agrees by itself) deals game 2, and the score line counts
    game 1's durak on both screens."""
    rules = Rules(players=3, deck_size=24, match=True)
    ann = lobbies("Ann", table=rules, add_bots=["greedy"], bot="random", seed=6,
                  auto_start=True)
    ben = lobbies("Ben", join="Ann", bot="random", seed=7, connect=at(ann))
    both = [ann, ben]
    pump_until(both, lambda: all(lb.controller is not None for lb in both))
    pump_until(both, lambda: all(lb.backend.verdicts for lb in both), timeout=60)
    durak = ann.results[0].durak
    for lobby in both:
        lobby.controller.view.new_game.click()
    pump_until(both, lambda: all(lb.backend.game is not None and lb.backend._game_no == 2
                                 for lb in both), timeout=30)
    for lobby in both:
        assert "audited: fair" in lobby.badge.value
        score = text(lobby.controller.view.score)
        assert score.startswith("<b>Match</b> · games 1 · times durak:"), score
        names = lobby.backend.names
        if durak is not None:
            assert lobby.backend.score().durak_counts[durak] == 1
            assert f"{names[durak]} 1" in score, score
        assert not lobby.node.handler_errors


class _ProposingNode(StillNode):
    """A StillNode that takes our moves (the host's answer comes as a test's event)."""

    def act(self, sid: int, action: Any) -> None:
        pass


def test_a_move_overtaken_on_its_way_reads_too_late_in_the_words_it_was_made_in() -> None:
    """Ben leads a card; before it reaches the host the table moves on (a restart, a
    bot that played for him), and the host refuses it.  His table says his lead came
    too late, as a lead (the words of the table he chose it on), with no seat number
    and not "refused"; his automatic pass refused the same way shows nothing."""
    rules = Rules(players=3)
    ben = 1
    game = next(g for g in (Game.new(rules, seed=s) for s in range(1, 60)) if g.attacker == ben)
    view = SessionView(sid=1, seat=ben, peer_name="", game_no=1, game=game.view(ben),
                       in_game=True, pending={}, lost=False, closed=False,
                       names=("Ann", "Ben", "Cid"), kinds=("host", "player", "player"),
                       table=1, seat_states=("", "", ""), deadlines=(None, None, None),
                       duraks=(0, 0, 0), rules=rules)
    backend = LanBackend(_ProposingNode(view), 1, None, ben)
    shown: list[Any] = []
    backend.attach(Handoff(mode="sync"), shown.extend)
    lead = next(a for a in game.legal_actions(ben) if isinstance(a, Attack))
    backend.submit(lead)
    backend.on_event(ev.ActionRefused(1, lead, "made before entry 3, which a bot played "
                                      "for this seat while it was away", 0.0))
    card = str(lead.card)
    assert [str(line) for line in shown] == [
        f"Too late to lead {card}: the table moved on while your move was on its way."]
    shown.clear()
    backend.on_event(ev.ActionRefused(1, Pass(ben), "Wait for player 2 to "
                                      "beat the cards", 0.0, automatic=True))
    assert shown == []
