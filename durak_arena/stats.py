"""Win rates with Wilson intervals, and Bradley-Terry ratings on the Elo scale.

>>> lo, hi = wilson(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
>>> r = bradley_terry({("a", "b"): (30, 10, 0)})
>>> round(r["a"] - r["b"], 1)
185.2
"""

from __future__ import annotations

import math
from collections.abc import Mapping

#: The 97.5% quantile of the standard normal distribution (two-sided 95%).
Z95 = 1.959963984540054
#: Ratings are centred here (the geometric mean strength maps to it).
RATING_CENTRE = 1500.0


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when there are no trials.

    Unlike the normal approximation it stays inside 0..1 and behaves for
    rates near 0 or 1, which bot matches produce all the time.
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie in 0..trials, not {successes!r} of {trials!r}")
    p = successes / trials
    z2 = z * z
    denom = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry(
    results: Mapping[tuple[str, str], tuple[float, float, float]],
    prior: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 100_000,
) -> dict[str, float]:
    """Bradley-Terry strengths fitted to pairwise results, as Elo-scale ratings.

    results: ``(a, b) -> (a_wins, b_wins, draws)``.  A draw counts half a win
        to each side.
    prior: virtual draws added to every pair that played, so a bot that won
        every game gets a finite rating (a small, symmetric regularisation).

    The model: P(a beats b) = s_a / (s_a + s_b).  Strengths are fitted by
    Hunter's MM iteration, normalised to a geometric mean of 1, and reported
    as ``1500 + 400 * log10(s)``, so a 200-point gap means the stronger bot
    is expected to win 1 / (1 + 10**-0.5) = 76% of the time, as with Elo.
    """
    wins: dict[str, float] = {}
    games: dict[str, dict[str, float]] = {}
    for (a, b), (aw, bw, dr) in results.items():
        if a == b:
            raise ValueError(f"a bot cannot play itself in the ratings: {a!r}")
        if min(aw, bw, dr) < 0:
            raise ValueError(f"negative counts for {a!r} vs {b!r}")
        n = aw + bw + dr
        for x in (a, b):
            wins.setdefault(x, 0.0)
            games.setdefault(x, {})
        if n + prior <= 0:
            continue
        wins[a] += aw + dr / 2 + prior / 2
        wins[b] += bw + dr / 2 + prior / 2
        games[a][b] = games[a].get(b, 0.0) + n + prior
        games[b][a] = games[b].get(a, 0.0) + n + prior
    strength = dict.fromkeys(wins, 1.0)
    for _ in range(max_iterations):
        new: dict[str, float] = {}
        for x, opponents in games.items():
            denom = sum(n / (strength[x] + strength[y]) for y, n in opponents.items())
            new[x] = wins[x] / denom if denom > 0 and wins[x] > 0 else strength[x]
            if denom > 0 and wins[x] <= 0:
                new[x] = 1e-12  # lost everything and no prior: as weak as representable
        mean_log = sum(math.log(v) for v in new.values()) / max(len(new), 1)
        scale = math.exp(mean_log)
        new = {x: v / scale for x, v in new.items()}
        change = max((abs(math.log(new[x] / strength[x])) for x in new), default=0.0)
        strength = new
        if change < tolerance:
            break
    return {x: RATING_CENTRE + 400 * math.log10(s) for x, s in strength.items()}


def expected_score(rating_a: float, rating_b: float) -> float:
    """The share of points ``a`` is expected to score against ``b`` (Elo formula)."""
    return 1 / (1 + 10 ** ((rating_b - rating_a) / 400))
