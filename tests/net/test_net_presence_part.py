"""The presence part on its own (no session, no network): since when seats are silent,
whom we hear directly, and when our share of a handed-over seat may be released."""

from __future__ import annotations

from durak_net.presence import DEFAULT_GRACE, MIN_ABANDON, Presence, abandon_after


def test_a_share_is_released_only_a_grace_period_after_we_last_heard_the_seat() -> None:
    presence = Presence(heard_since=5.0)
    assert presence.release_time(2, grace=20, has_addr=True) == 25.0  # never heard
    presence.heard_from(2, 40.0)
    assert presence.release_time(2, grace=20, has_addr=True) == 60.0
    presence.heard_from(2, 45.0)  # still there: the release moves on
    assert presence.release_time(2, grace=20, has_addr=True) == 65.0
    assert presence.release_time(2, grace=20, has_addr=False) == float("inf")


def test_the_hosts_reports_and_our_own_links_are_kept_apart() -> None:
    presence = Presence()
    presence.lost(0, 3.0)
    presence.reported(2, "lost", 7.0)
    presence.reported(2, "lost", 9.0)  # again: still since the first report
    assert presence.lost_since == {0: 3.0} and presence.reported_lost == {2: 7.0}
    presence.reported(2, "back", 10.0)
    presence.back(0)
    assert presence.lost_since == {} and presence.reported_lost == {}


def test_a_game_is_abandoned_after_the_grace_period_never_sooner_than_the_minimum() -> None:
    assert abandon_after(0) == DEFAULT_GRACE
    assert abandon_after(1) == MIN_ABANDON
    assert abandon_after(90) == 90.0
