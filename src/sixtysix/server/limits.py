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

import heapq
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

    def tokens(self) -> float:
        """The tokens there are now (a fraction while one is coming back)."""
        self._refill()
        return self._tokens

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
    """One token bucket per key (a client address, a name), at most ``size`` keys.

    When a new key finds the table full, the buckets that have filled up again are
    forgotten first (a full bucket is what a forgotten key gets anyway); if too few did,
    the fullest are. A key that has used its tokens is thus the last to be forgotten: a
    flood of other keys (junk names, many addresses) cannot give it a fresh bucket unless
    it leaves a table of ``size`` buckets each emptier than that one.

    >>> now = [0.0]
    >>> table = BucketsByKey(rate=0.1, burst=5, size=4, clock=lambda: now[0])
    >>> [table.take("ann") for _ in range(5)][-1], table.take("ann")
    (0.0, 10.0)
    >>> for n in range(100): _ = table.take(f"junk{n}")
    >>> table.take("ann")  # still empty: the junk keys went first
    10.0
    """

    #: The share of the table forgotten at once when no full bucket can go.
    SWEEP = 8

    def __init__(self, rate: float, burst: float, *, size: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.size = size
        self.clock = clock
        self._buckets: dict[str, TokenBucket] = {}

    def __len__(self) -> int:
        return len(self._buckets)

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.size:
                self._make_room()
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket

    def _make_room(self) -> None:
        """Forget the full buckets; if that frees less than a :attr:`SWEEP`-th of the
        table, also the fullest buckets up to that share."""
        tokens = {key: bucket.tokens() for key, bucket in self._buckets.items()}
        full = [key for key, left in tokens.items() if left >= self.burst]
        for key in full:
            del self._buckets[key]
        wanted = max(1, self.size // self.SWEEP) - len(full)
        if wanted > 0:
            for key in heapq.nlargest(wanted, self._buckets, key=tokens.__getitem__):
                del self._buckets[key]

    def allow(self, key: str) -> bool:
        return self._bucket(key).allow()

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has a token (``0.0`` if it has one); nothing is taken,
        and a key not in the table is not added."""
        bucket = self._buckets.get(key)
        return 0.0 if bucket is None else bucket.wait()

    def take(self, key: str) -> float:
        """Take a token of ``key``'s bucket: ``0.0`` if there was one, else the seconds
        until there is (and nothing is taken, and a key not in the table is not added)."""
        wait = self.wait(key)
        if wait == 0.0:
            self._bucket(key).allow()
        return wait

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
