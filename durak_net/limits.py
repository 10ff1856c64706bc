"""Bounded work for what strangers send: token buckets, and maps that forget their
oldest entries instead of growing.

Anyone on the LAN can send datagrams as fast as the wire allows, from any source
address and port it makes up, under as many node keys as it cares to generate.  The
lobby therefore spends a bounded amount of work per source and in total, and keeps
bounded state: every table of strangers here has a cap, and a full one forgets its
oldest entry.  Time is passed in (``now``), as everywhere in the protocol.

>>> bucket = Bucket(rate=2.0, burst=2.0)
>>> [bucket.take(0.0) for _ in range(3)], bucket.take(0.5)
([True, True, False], True)
>>> limits = PerKey(rate=1.0, burst=1.0, cap=2)
>>> limits.take("a", 0.0), limits.take("a", 0.0), limits.take("b", 0.0), len(limits)
(True, False, True, 2)
>>> limits.take("c", 0.0), len(limits), "a" in limits
(True, 2, False)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass
class Bucket:
    """A token bucket: ``burst`` tokens at most, refilled at ``rate`` a second."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = float("-inf")

    def take(self, now: float) -> bool:
        """Spend one token if there is one."""
        if self.tokens < 0:  # a new bucket starts full
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = max(self.stamp, now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


def put_capped(table: dict[K, V], key: K, value: V, cap: int) -> None:
    """``table[key] = value``, forgetting the oldest entries beyond ``cap`` (dicts keep
    insertion order; a key set again moves to the end)."""
    table.pop(key, None)
    table[key] = value
    while len(table) > cap:
        del table[next(iter(table))]


@dataclass
class PerKey(Generic[K]):
    """A bucket for each key (a source address), at most ``cap`` of them: the least
    recently used is forgotten (it comes back full, which only helps whoever it was)."""

    rate: float
    burst: float
    cap: int
    _buckets: dict[K, Bucket] = field(default_factory=dict)

    def take(self, key: K, now: float) -> bool:
        bucket = self._buckets.get(key) or Bucket(self.rate, self.burst)
        put_capped(self._buckets, key, bucket, self.cap)
        return bucket.take(now)

    def __len__(self) -> int:
        return len(self._buckets)

    def __contains__(self, key: object) -> bool:
        return key in self._buckets
