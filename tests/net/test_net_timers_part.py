"""The timers part on its own (no session, no network): when a session next has work,
which audits are overdue, when a placed proposal is, and which game a silence ends."""

from __future__ import annotations

from durak_net.timers import (
    Deadlines,
    abandoned,
    audits_due,
    game_to_abandon,
    open_due,
)


def test_the_next_timer_is_the_earliest_deadline_of_any_kind() -> None:
    assert Deadlines().next() is None
    base = Deadlines(links=(20.0, 21.0), audits=(30.0,), closing=25.0, beacon=19.5)
    assert base.next() == 19.5
    kinds = [Deadlines(links=(20.0,), clock=5.0), Deadlines(links=(20.0,), handover=(2, 5.0)),
             Deadlines(links=(20.0,), opened_by=5.0),
             Deadlines(links=(20.0,), abandon={1: (5.0, 1.0), 2: (9.0, 0.0)}),
             Deadlines(links=(20.0,), releases=(7.0, 5.0)),
             Deadlines(links=(20.0,), audits=(9.0, 5.0)), Deadlines(links=(20.0, 5.0))]
    assert [d.next() for d in kinds] == [5.0] * len(kinds)


def test_an_audit_is_overdue_at_its_deadline_unless_a_seat_is_waited_for() -> None:
    due, overdue = audits_due({1: 10.0, 2: 30.0}, 10.0, waiting=False, timeout=30.0)
    assert overdue == [1] and due == {1: 10.0, 2: 30.0}
    assert audits_due({1: 10.0}, 9.9, waiting=False, timeout=30.0)[1] == []
    # A lost seat may resume: nothing is overdue, and the deadline moves on.
    due, overdue = audits_due({1: 10.0, 2: 50.0}, 12.0, waiting=True, timeout=30.0)
    assert overdue == [] and due == {1: 42.0, 2: 50.0}


def test_a_placed_proposal_is_overdue_only_in_our_game_in_play_with_its_seat_connected() -> None:
    kwargs = {"placed_game": 2, "game_no": 2, "in_game": True, "seat_lost": False}
    assert open_due(70.0, **kwargs) == 70.0
    assert open_due(None, **kwargs) is None
    assert open_due(70.0, **{**kwargs, "seat_lost": True}) is None  # hand-over or abandon
    assert open_due(70.0, **{**kwargs, "in_game": False}) is None
    assert open_due(70.0, **{**kwargs, "placed_game": 1}) is None


def test_the_seat_silent_longest_is_abandoned_once_its_time_has_come() -> None:
    times = {1: (100.0, 40.0), 2: (90.0, 30.0)}
    assert abandoned(times, 89.0) is None
    assert abandoned(times, 95.0) == (30.0, 2)
    assert abandoned(times, 100.0) == (30.0, 2)
    assert abandoned({}, 1000.0) is None


def _game(**overrides: object) -> int | None:
    state: dict[str, object] = {"game_no": 1, "in_game": True, "over": False, "audited": (),
                                "audit_due": (), "stopped": (), "began": {1: True}}
    state.update(overrides)
    dealt = state.pop("dealt", (1,))
    return game_to_abandon(dealt, **state)  # type: ignore[arg-type]


def test_a_silence_ends_the_game_in_play_or_being_dealt_and_nothing_already_settled() -> None:
    assert _game() == 1
    assert _game(dealt=()) is None  # nothing dealt yet
    assert _game(audited=(1,)) is None  # its verdict is in
    assert _game(in_game=False, over=True) == 1  # waiting for seeds for the audit
    assert _game(in_game=False, stopped=(1,)) == 1
    assert _game(in_game=False) is None  # (no such state)
    # Game 2 being dealt: ours if we agreed to it, else only the silent seat asked.
    assert _game(dealt=(1, 2), in_game=False, over=True,
                 began={1: True, 2: True}) == 2
    assert _game(dealt=(1, 2), in_game=False, over=True,
                 began={1: True, 2: False}) is None
    assert _game(dealt=(1, 2), in_game=False, over=True, began={1: True, 2: False},
                 stopped=(2,)) == 2
