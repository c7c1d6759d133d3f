"""Rate limits: token buckets for messages, game creation and logins, a cap on connections.

A bucket's clock can be given, so that a test moves time on by hand instead of sleeping:

>>> now = [0.0]
>>> buckets = BucketsByKey(rate=0.25, burst=2, clock=lambda: now[0])
>>> buckets.take("ann"), buckets.take("ann"), buckets.take("ann")
(0.0, 0.0, 4.0)
>>> now[0] = 3.0
>>> buckets.take("ann")
1.0
>>> buckets.give_back("ann"); buckets.take("ann")
0.0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["ConnectionCounter", "TokenBucket", "BucketsByKey"]


@dataclass
class TokenBucket:
    """Allows ``burst`` events at once and ``rate`` a second on average."""

    rate: float
    burst: float
    clock: Callable[[], float] = time.monotonic
    _tokens: float = field(init=False)
    _last: float = field(init=False)

    def __post_init__(self) -> None:
        self._tokens = self.burst
        self._last = self.clock()

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def allow(self) -> bool:
        """Take one token if there is one."""
        self._refill()
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until a token is there (``0.0`` when one is; nothing is taken)."""
        self._refill()
        if self._tokens >= 1:
            return 0.0
        return (1 - self._tokens) / self.rate if self.rate > 0 else float("inf")

    def give_back(self) -> None:
        """Return a token taken by :meth:`allow` (what it was taken for did not count)."""
        self._refill()
        self._tokens = min(self.burst, self._tokens + 1)


class BucketsByKey:
    """One token bucket per key (a client address), forgetting the oldest past ``size`` keys."""

    def __init__(self, rate: float, burst: float, *, size: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.size = size
        self.clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst, self.clock)
            if len(self._buckets) >= self.size:
                del self._buckets[next(iter(self._buckets))]
        self._buckets[key] = bucket  # most recently used last
        return bucket

    def allow(self, key: str) -> bool:
        return self._bucket(key).allow()

    def take(self, key: str) -> float:
        """Take a token of ``key``'s bucket: ``0.0`` if there was one, else the seconds
        until there is (and nothing is taken)."""
        bucket = self._bucket(key)
        wait = bucket.wait()
        if wait == 0.0:
            bucket.allow()
        return wait

    def wait(self, key: str) -> float:
        """Seconds until ``key``'s bucket has a token (``0.0`` when it has one; nothing is taken)."""
        return self._bucket(key).wait()

    def give_back(self, key: str) -> None:
        """Return the token :meth:`take` took for ``key`` (a forgotten key has a full bucket)."""
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.give_back()


class ConnectionCounter:
    """Open connections per key, at most ``limit`` each."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def acquire(self, key: str) -> bool:
        n = self._open.get(key, 0)
        if n >= self.limit:
            return False
        self._open[key] = n + 1
        return True

    def release(self, key: str) -> None:
        n = self._open.get(key, 0) - 1
        if n <= 0:
            self._open.pop(key, None)
        else:
            self._open[key] = n
