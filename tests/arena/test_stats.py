"""Wilson intervals and Bradley-Terry ratings against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from durak_arena.stats import Z95, bradley_terry, expected_score, wilson


def test_wilson_eight_of_ten():
    # p = 0.8, z^2 = 3.8415: centre = (0.8 + 0.19207) / 1.38415 = 0.71674,
    # half = 1.95996 * sqrt(0.016 + 0.0096037) / 1.38415 = 0.22658.
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.49016, abs=5e-5)
    assert hi == pytest.approx(0.94331, abs=5e-5)


def test_wilson_none_of_ten_starts_at_zero():
    # p = 0: centre = half = 0.19207 / 1.38415 = 0.13876.
    lo, hi = wilson(0, 10)
    assert lo == 0.0
    assert hi == pytest.approx(0.27753, abs=5e-5)


def test_wilson_is_symmetric_and_narrows_with_more_games():
    lo, hi = wilson(30, 40)
    lo2, hi2 = wilson(10, 40)
    assert (lo, hi) == pytest.approx((1 - hi2, 1 - lo2))
    assert wilson(300, 400)[1] - wilson(300, 400)[0] < hi - lo


def test_wilson_without_games_knows_nothing_and_refuses_nonsense():
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(5, 4)


def test_z95_is_the_normal_quantile():
    assert 0.5 * math.erfc(-Z95 / math.sqrt(2)) == pytest.approx(0.975, abs=1e-12)


def test_two_bots_without_prior_give_the_log_odds():
    # 30 wins to 10: strength ratio 3, so 400 * log10(3) = 190.85 points apart, centred on 1500.
    r = bradley_terry({("a", "b"): (30, 10, 0)}, prior=0)
    assert r["a"] - r["b"] == pytest.approx(190.85, abs=0.01)
    assert (r["a"] + r["b"]) / 2 == pytest.approx(1500)


def test_the_prior_adds_one_virtual_draw_per_pair():
    # (30 + 0.5) / (10 + 0.5) = 2.9048: 400 * log10(2.9048) = 185.24.
    r = bradley_terry({("a", "b"): (30, 10, 0)})
    assert r["a"] - r["b"] == pytest.approx(185.24, abs=0.01)


def test_draws_count_half_a_win_each():
    # 10 wins, 10 losses, 20 draws: even.  6 wins, 2 losses, 4 draws: (8 + .5) / (4 + .5).
    even = bradley_terry({("a", "b"): (10, 10, 20)})
    assert even["a"] == pytest.approx(even["b"])
    r = bradley_terry({("a", "b"): (6, 2, 4)})
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(8.5 / 4.5), abs=1e-6)


def test_a_bot_that_won_everything_gets_a_finite_rating():
    r = bradley_terry({("a", "b"): (50, 0, 0)})
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(50.5 / 0.5), abs=1e-6)


def test_a_rock_paper_scissors_cycle_rates_everybody_equal():
    r = bradley_terry({("a", "b"): (3, 1, 0), ("b", "c"): (3, 1, 0), ("a", "c"): (1, 3, 0)})
    assert r["a"] == pytest.approx(1500) and r["b"] == pytest.approx(1500)
    assert r["c"] == pytest.approx(1500)


def test_three_bots_satisfy_the_likelihood_equations():
    """At the maximum, each bot's expected score equals its actual score (prior included)."""
    results = {("a", "b"): (7, 3, 0), ("b", "c"): (6, 2, 2), ("a", "c"): (9, 1, 0)}
    r = bradley_terry(results)
    actual = {"a": 0.0, "b": 0.0, "c": 0.0}
    expected = {"a": 0.0, "b": 0.0, "c": 0.0}
    for (x, y), (xw, yw, d) in results.items():
        n = xw + yw + d + 1
        actual[x] += xw + d / 2 + 0.5
        actual[y] += yw + d / 2 + 0.5
        expected[x] += n * expected_score(r[x], r[y])
        expected[y] += n * expected_score(r[y], r[x])
    for bot in actual:
        assert expected[bot] == pytest.approx(actual[bot], abs=1e-6)
    assert r["a"] > r["b"] > r["c"]


def test_expected_score_of_a_200_point_gap():
    assert expected_score(1700, 1500) == pytest.approx(1 / (1 + 10**-0.5))


def test_bradley_terry_refuses_self_play_and_negative_counts():
    with pytest.raises(ValueError):
        bradley_terry({("a", "a"): (1, 1, 0)})
    with pytest.raises(ValueError):
        bradley_terry({("a", "b"): (-1, 1, 0)})
