"""The relay's tasks end when asked, whatever the Redis client does with a cancellation.

redis-py may finish a command its task was cancelled in and return normally, the
cancellation lost (found when a stopping server process hung in CI: a relayed client's
writer went on waiting for messages). These tests stand in for Redis with a client that
always loses the cancellation, so that they fail without the relay's guard every time,
not one time in five.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from helpers import need_module

need_module("redis", "the scale extra")

from sixtysix.server.relay import Relay, stop  # noqa: E402


class LosingRedis:
    """A Redis client whose first command, cancelled, finishes anyway and returns normally."""

    def __init__(self) -> None:
        self.published: list[tuple[str, str]] = []

    async def publish(self, channel: str, text: str) -> int:
        if not self.published:
            # The server's answer, slow in coming; cancelled, the command completes all the
            # same and the cancellation is dropped.
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(3600)
        self.published.append((channel, text))
        return 1

    async def aclose(self) -> None:
        pass


def relay_with(client: Any) -> Relay:
    relay = Relay("redis://127.0.0.1:1/0", manager=None, shard=1,  # type: ignore[arg-type]
                  answer=lambda *_: None)
    relay.redis = client
    return relay


def test_a_publishing_loop_ends_when_cancelled_though_redis_dropped_the_cancellation() -> None:
    async def scenario() -> None:
        relay = relay_with(LosingRedis())

        async def keep_publishing() -> None:
            for _ in range(100):  # (bounded: without the guard, the test fails rather than hangs)
                await relay._publish("sixtysix:lobby", "{}")

        task = asyncio.get_running_loop().create_task(keep_publishing())
        await asyncio.sleep(0)  # the task is in its first publish
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=30)
        assert task in done and task.cancelled()
        assert relay.redis.published == [("sixtysix:lobby", "{}")]  # that publish went out; no other

    asyncio.run(scenario())


def test_stop_waits_for_tasks_a_bounded_time_and_says_whether_they_ended() -> None:
    async def scenario() -> None:
        async def obeys() -> None:
            await asyncio.sleep(3600)

        done_ignoring = asyncio.Event()

        async def ignores() -> None:
            while not done_ignoring.is_set():
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.sleep(3600)

        loop = asyncio.get_running_loop()
        good = [loop.create_task(obeys()) for _ in range(3)]
        await asyncio.sleep(0)
        assert await stop(good, 30)
        assert all(task.cancelled() for task in good)
        stubborn = loop.create_task(ignores())
        await asyncio.sleep(0)
        assert not await stop([stubborn, loop.create_task(obeys())], 0.05)
        assert not stubborn.done()  # still running: the caller went on all the same
        done_ignoring.set()
        stubborn.cancel()
        await stubborn

    asyncio.run(scenario())


def test_a_relayed_client_s_writer_ends_after_sending_its_close() -> None:
    # The owner's side of a relayed client has no socket to close: the close is sent on
    # (its own process closes the client), and nothing can follow it.
    from sixtysix.server.games import Connection

    async def scenario() -> None:
        sent: list[dict[str, Any]] = []

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        conn = Connection(send, 0)
        writer = asyncio.get_running_loop().create_task(conn.run_writer())
        conn.push({"type": "error", "code": "moved"})
        conn.push({"type": "_close", "code": 1012})
        conn.push({"type": "state"})  # too late: the connection is closed
        await asyncio.wait_for(writer, 30)
        assert sent == [{"type": "error", "code": "moved"}, {"type": "_close", "code": 1012}]
        assert conn.closed

    asyncio.run(scenario())
