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
import json
from collections.abc import Callable
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


class RecordingRedis(LosingRedis):
    """A Redis client that keeps what is published, at once."""

    async def publish(self, channel: str, text: str) -> int:
        self.published.append((channel, text))
        return 1


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


class Feed:
    """A pubsub that hands the relay's listener the given messages, then ends."""

    def __init__(self, items: list[tuple[str, str]]) -> None:
        self.items = items

    async def listen(self) -> Any:
        for channel, data in self.items:
            yield {"type": "message", "channel": channel.encode(), "data": data.encode()}


def test_a_move_of_a_shard_closes_only_the_clients_its_previous_holder_answered() -> None:
    # Found in CI: a client waiting for a holder asked the new one between its starting to
    # listen and its word on sixtysix:moved; that word closed the client (1012) the new holder
    # had just taken.
    async def scenario() -> None:
        relay = relay_with(LosingRedis())
        relay.process = "relaying"
        clients = {name: asyncio.Queue[str | int | None]() for name in ("old", "new", "unanswered", "other")}
        for name, queue in clients.items():
            relay.local[name] = queue
            relay.local_shard[name] = 3 if name == "other" else 2
        moved = json.dumps({"shard": 2, "to": "taker"})
        await relay._listen(Feed([
            (relay.channel, "old @killed"), (relay.channel, 'old {"type":"state"}'),
            (relay.channel, "other @killed"),
            (relay.channel, "new @taker"),
            (relay.moved_channel, moved),
            (relay.channel, 'new {"type":"state"}'),
        ]))
        got = {name: [queue.get_nowait() for _ in range(queue.qsize())] for name, queue in clients.items()}
        assert got == {"old": ['{"type":"state"}', 1012], "new": ['{"type":"state"}'],
                       "unanswered": [None], "other": []}  # None: it asks the new holder again
        assert relay.local_owner == {"old": "killed", "other": "killed", "new": "taker"}

    asyncio.run(scenario())


def test_the_owner_names_itself_first_takes_a_client_once_and_leaves_one_of_a_shard_it_hands_over() -> None:
    from sixtysix.server.errors import GameError, Reason
    from sixtysix.server.games import Connection

    class Game:
        id = "s2-abc"

        def seat_of(self, token: str | None) -> int | None:
            return 0 if token == "good" else None

    class Manager:
        def get(self, game_id: str) -> Game:
            if game_id == "s3-handed-over":
                raise GameError(Reason.MISDIRECTED)
            return Game()

        def admit(self, game: Game, seat: int | None) -> None:
            if seat is None:  # as a game with as many spectators as it takes
                raise GameError(Reason.TOO_MANY_SPECTATORS, n=0)

        def release(self, game: Game) -> None:
            pass

        def attach(self, game: Game, conn: Connection) -> None:
            conn.push({"type": "state"})

    async def scenario() -> None:
        relay = relay_with(RecordingRedis())
        relay.manager = Manager()  # type: ignore[assignment]
        relay.process = "owner"
        # A spectator beyond the game's cap is told so and closed (1013: try again later).
        await relay._open("c9", "sixtysix:relay:elsewhere", "s2-abc", None, "10.0.0.9")
        assert relay.remote == {} and relay.redis.published[-1] == ("sixtysix:relay:elsewhere", "c9 !1013")
        assert '"code":"too_many_spectators"' in relay.redis.published[-2][1]
        relay.redis.published.clear()
        # Asked while this process hands the game's shard over: no answer (the client asks the
        # next holder), neither a refusal.
        await relay._open("c0", "sixtysix:relay:elsewhere", "s3-handed-over", "good")
        await relay._open("c1", "sixtysix:relay:elsewhere", "s2-abc", "good")
        await relay._open("c1", "sixtysix:relay:elsewhere", "s2-abc", "good")  # asked again: taken once
        # A client that closed before its second ask arrived is not seated by it.
        await relay._on_note({"kind": "close", "conn": "c2"})
        await relay._open("c2", "sixtysix:relay:elsewhere", "s2-abc", "good")
        assert list(relay.remote) == ["c1"]
        _, conn, _, _ = relay.remote["c1"]
        conn.push({"type": "_close", "code": 1000})  # the writer ends after it
        await asyncio.wait_for(asyncio.gather(*relay._writers), 30)
        assert relay.redis.published == [("sixtysix:relay:elsewhere", "c1 @owner"),
                                         ("sixtysix:relay:elsewhere", 'c1 {"type":"state"}'),
                                         ("sixtysix:relay:elsewhere", "c1 !1000")]

    asyncio.run(scenario())


async def until(condition: Callable[[], bool]) -> None:
    """Let the loop run until ``condition`` holds (at most 30 s: a failure, not a hang)."""
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0)
    await asyncio.wait_for(wait(), 30)


def test_a_client_nobody_answered_asks_the_shard_s_new_holder_again() -> None:
    # Its first ask may have gone to a holder killed in that moment, which never answers.
    class Socket:
        def __init__(self) -> None:
            self.sent: list[str] = []
            self.closed = asyncio.Event()
            self.code: int | None = None

        async def receive(self) -> dict[str, Any]:
            await self.closed.wait()  # the client says nothing
            return {"type": "websocket.disconnect"}

        async def send_text(self, text: str) -> None:
            self.sent.append(text)

        async def close(self, code: int) -> None:
            self.code = code
            self.closed.set()

    async def scenario() -> None:
        relay = relay_with(RecordingRedis())
        socket = Socket()
        relayed = relay.relay(socket, "s2-abc", "tok", 2, address="10.0.0.5")
        task = asyncio.get_running_loop().create_task(relayed)
        await until(lambda: len(relay.redis.published) == 1)  # its first ask
        (conn_id,) = relay.local
        relay._moved(2, "taker")
        await until(lambda: len(relay.redis.published) == 2)
        relay.local[conn_id].put_nowait('{"type":"state"}')
        relay.local[conn_id].put_nowait(1000)
        await asyncio.wait_for(task, 30)
        opens = [json.loads(text) for channel, text in relay.redis.published if channel == "sixtysix:inbox:2"]
        assert [note["kind"] for note in opens] == ["open", "open", "close"]
        assert opens[0] == opens[1] == {"kind": "open", "conn": conn_id, "game": "s2-abc", "token": "tok",
                                        "reply": relay.channel, "address": "10.0.0.5"}
        assert socket.sent == ['{"type":"state"}'] and socket.code == 1000

    asyncio.run(scenario())
