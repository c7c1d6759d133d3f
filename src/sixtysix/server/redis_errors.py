"""What a call to Redis raises when it fails: its own errors (a connection lost, none
free in time, a command refused) and the system's. Redis is the scale extra's: without
it nothing here calls Redis, and only the system's errors are named."""

from __future__ import annotations

try:
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover (without the scale extra no Redis is called)
    RedisError = OSError  # type: ignore[assignment,misc]

__all__ = ["REDIS_FAILURES"]

#: The exceptions a failed call to Redis raises.
REDIS_FAILURES: tuple[type[Exception], ...] = (RedisError, OSError)
