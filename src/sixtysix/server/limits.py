"""Rate limits: token buckets for messages and game creation, a cap on connections."""

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

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self.clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False


class BucketsByKey:
    """One token bucket per key (a client address), forgetting the oldest past ``size`` keys."""

    def __init__(self, rate: float, burst: float, *, size: int = 10_000) -> None:
        self.rate = rate
        self.burst = burst
        self.size = size
        self._buckets: dict[str, TokenBucket] = {}

    def allow(self, key: str) -> bool:
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = TokenBucket(self.rate, self.burst)
            if len(self._buckets) >= self.size:
                del self._buckets[next(iter(self._buckets))]
        self._buckets[key] = bucket  # most recently used last
        return bucket.allow()


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
