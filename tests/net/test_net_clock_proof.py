"""A clock move is provable: a seat accepts a "timed out" entry for itself only when its
own move clock has run out.

The seat starts its clock when it sees the entry that puts it on move; the host starts
its own when it logs that entry, so the host's may run out a little earlier (the
entry's delay on the way): the seat allows :data:`~durak_net.clock.CLOCK_ALLOWANCE`.
A host that times a thinking seat out earlier is caught by that seat, which names it;
no other seat can check a clock, so the others name nobody (never the honest seat).  In
simulated time.
"""

from __future__ import annotations

import pytest

from durak_core import Attack, Rules, Take
from durak_net import entry_sig
from durak_net import events as ev
from durak_net.clock import CLOCK_ALLOWANCE
from durak_net.notes import Note

from .tables import Table, make_table

CLOCK = 600


def _verdicts(table: Table, seat: int) -> list[ev.GameAudited]:
    return [e for e in table.seats[seat].events if isinstance(e, ev.GameAudited)]


def _force_take_early(table: Table, victim: int, done: list[float]) -> None:
    """The cheating host: as soon as ``victim`` must take or beat a card, it logs the
    victim's take as "timed out" (the victim has had seconds of its 600)."""
    host = table.host
    game = host.game
    if done or game is None or not host.in_game or host.due(victim) != "take":
        return
    if game.why_illegal(Take(victim)) is not None:
        return
    done.append(table.net.now)
    host._append(Take(victim), 0, [], table.net.now, forced="timeout")


def _early_take(seed: int, players: int) -> tuple[Table, int]:
    for attempt in range(seed, seed + 40):
        table = make_table(attempt, Rules(players=players, deck_size=36), clock=CLOCK,
                           idle=(1,))
        done: list[float] = []
        table.net.hooks.insert(0, lambda now, t=table, d=done: _force_take_early(t, 1, d))
        if table.net.run(lambda t=table: all(_verdicts(t, s) for s in range(players)),
                         limit=400.0) and done:
            return table, attempt
    raise AssertionError("seat 1 never had to take")  # pragma: no cover


def test_a_host_that_times_out_a_thinking_seat_is_named_by_it_at_a_table_of_two() -> None:
    table, _ = _early_take(60, 2)
    (verdict,) = _verdicts(table, 1)
    assert (verdict.code, verdict.culprit) == ("early_clock", 0), verdict
    assert "before our move clock ran out" in verdict.verdict
    mine, hosts = table.seats[1].session.logs[1], table.host.logs[1]
    assert mine == hosts[:len(mine)] and hosts[len(mine)].forced == "timeout"  # not applied


def test_at_a_table_of_three_the_victim_names_the_host_and_nobody_names_the_victim() -> None:
    table, _ = _early_take(70, 3)
    (mine,) = _verdicts(table, 1)
    assert (mine.code, mine.culprit) == ("early_clock", 0), mine
    for seat in (0, 2):  # the bystander (and the host) cannot check seat 1's clock
        (theirs,) = _verdicts(table, seat)
        assert (theirs.code, theirs.culprit) == ("clock_disputed", None), theirs
        assert not theirs.fair


def test_at_a_table_of_four_only_the_victim_names_the_host_and_nobody_names_it() -> None:
    table, _ = _early_take(110, 4)
    (mine,) = _verdicts(table, 1)
    assert (mine.code, mine.culprit) == ("early_clock", 0), mine
    for seat in (0, 2, 3):
        (theirs,) = _verdicts(table, seat)
        assert (theirs.code, theirs.culprit) == ("clock_disputed", None), (seat, theirs)


@pytest.mark.parametrize("about", ["its own timed-out move", "a move the clock never made"])
def test_a_seat_that_says_the_host_timed_it_out_early_gets_no_honest_seat_named(
        about: str) -> None:
    """The malicious seat: seat 2, timed out in time by an honest host, stops the game
    saying the host timed it out early, carrying the host's signed entry as an honest
    seat would.  About its own "timed out" move nobody else can check its clock: the
    others name nobody.  About a move the clock never made, its own evidence shows the
    claim is made up: the others name it."""
    table = make_table(31, Rules(players=3, deck_size=24), clock=5, idle=(2,))
    net, liar = table.net, table.seats[2].session

    def timed_out() -> list[int]:
        return [i for i, e in enumerate(liar.log)
                if e.forced == "timeout" and e.action.startswith("2 ")]

    assert net.run(lambda: bool(timed_out()), limit=600.0)
    index = timed_out()[0] if about == "its own timed-out move" else 0
    entry = liar.log[index]
    liar._stop(1, 0, "early_clock", Note.of("early_clock", index=index, move=entry.action,
                                            seconds=4.0), net.now, at=index,
               proof=[entry_sig.encode(entry.frame(1, index))])
    assert net.run(lambda: all(_verdicts(table, s) for s in (0, 1)), limit=net.now + 120.0)
    for seat in (0, 1):
        (verdict,) = _verdicts(table, seat)
        expected = (("clock_disputed", None) if about == "its own timed-out move"
                    else ("false_claim", 2))
        assert (verdict.code, verdict.culprit) == expected, (seat, verdict)


def test_a_timeout_in_time_is_accepted_and_marked_on_every_screen() -> None:
    table = make_table(31, Rules(players=3, deck_size=24), clock=5, idle=(2,))
    assert table.net.run(table.done, limit=3600.0)
    assert not table.bad()
    for side in table.seats:
        marked = [e for e in side.events if isinstance(e, ev.ActionApplied)
                  and e.forced == "timeout"]
        assert marked and all(e.action.player == 2 for e in marked)


def test_an_early_word_that_our_lead_timed_out_leads_nothing() -> None:
    for seed in range(80, 120):
        table = make_table(seed, Rules(players=3, deck_size=36), clock=CLOCK, idle=(1,))
        net = table.net
        assert net.run(lambda t=table: all(s.session.game is not None for s in t.seats),
                       limit=30.0)
        if table.host.game.attacker == 1:
            break
    else:  # pragma: no cover
        raise AssertionError("no deal where seat 1 leads")
    host, seat = table.host, table.seats[1].session
    host._clock_ran_out(1, net.now)  # told "your time is up" at once, not after 600 s
    net.run(lambda: False, limit=net.now + 5.0)
    assert seat.drops["early_clock"] == 1
    assert not [e for e in host.log if isinstance(e.action, Attack)] and host.in_game
    # When its own clock has run out (within the allowance), the same word leads.
    net.run(lambda: False, limit=seat.deadlines[1] - CLOCK_ALLOWANCE / 2)
    host._clock_ran_out(1, net.now)
    assert net.run(lambda: len(seat.log) >= 1, limit=net.now + 5.0)
    table.seats[1].collect()
    assert host.log[0].forced == "timeout" and host.log[0].action.startswith("1 ")
    led = [e for e in table.seats[1].events if isinstance(e, ev.ActionApplied)]
    assert led[0].forced == "timeout" and led[0].by_me


def test_an_honest_clock_over_a_lossy_link_is_never_disputed() -> None:
    """Lost and duplicated datagrams delay entries (retransmissions): within the
    allowance, so a seat timed out in time never blames the host."""
    for seed in (300, 303):
        table = make_table(seed, Rules(players=3, deck_size=24), clock=3, idle=(2,),
                           loss=0.3, duplicate=0.1)
        assert table.net.run(table.done, limit=3600.0)
        assert not table.bad()
        assert sum(e.forced == "timeout" for e in table.host.logs[1]) >= 10
