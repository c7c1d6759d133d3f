"""Players of one game on different server processes: Redis pub/sub between them.

With several processes (``sixtysix serve --shard K``), each game belongs to the
shard of its id's prefix, and the process holding that shard's lease (its own
process, or the one that took it over: sixtysix.server.shards) alone applies its
actions. With ``--redis-url``, a client may connect to *any* process: one that does
not hold the game's shard relays.

- The relaying process checks nothing of the game itself. It reads the client's hello
  and publishes ``open`` (the connection's id, the token) on the owner's inbox
  channel, ``sixtysix:inbox:K``; then every message of the client as ``message``, and
  ``close`` when the client goes. It enforces the message rate and size limits, as
  for a game of its own.
- The owner treats each relayed client as a connection of its own: it checks the
  token, seats it (or makes it a spectator, if the game takes one more: the cap
  counts every process's spectators; the ``open`` names the client's address, which
  a spectator's chat counts against), and queues for it exactly the messages a
  local connection gets: its own seat's view, replies, chat. They go to the relaying
  process's own channel, ``sixtysix:relay:PROCESS``, each marked with the connection
  it is for, and that process hands each to its client alone. Each process holds one
  subscription for all of this, however many clients it relays.
- If no process listens on the inbox (the shard is being taken over), the client is
  told (``unavailable``) and waits on its open connection until a process says it took
  the shard over, then the ``open`` is sent again: hundreds of players of a killed
  process wait quietly rather than reconnecting again and again. If nobody takes it
  over in time, or the owner does not answer the ``open`` within the hello timeout,
  the relaying process closes the client's connection with 1013 ("try again later");
  the page reconnects by itself.
- Any process whose lobby changed says so on ``sixtysix:lobby``, and every process
  tells its lobby pages (sixtysix.server.feed).
- A process that takes a shard over says so on ``sixtysix:moved``: every process
  closes (1012) the clients it relayed to that shard's previous holder, which
  reconnect and reach the new holder. A process handing a shard back closes its own
  clients of it alike. The owner's first word to a relayed client names the owner,
  so that a client that reached the new holder before its word on ``sixtysix:moved``
  arrived is left alone (a client waiting for a holder may ask it in between); one
  nobody answered yet asks again (the new holder takes a client once).

Redis is only a pipe here: the database is still the one source of truth, and every
game is still written by one process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from sixtysix.extras import install_command
from sixtysix.server.connection import Sendable, close_code
from sixtysix.server.errors import GameError, Reason, error, refusal_message
from sixtysix.server.games import Connection, Game, GameManager, encode
from sixtysix.server.limits import TokenBucket
from sixtysix.server.messages import ErrorMessage, Reply
from sixtysix.server.redis_errors import REDIS_FAILURES

try:  # the scale extra's: only a server given a Redis needs it
    import redis.asyncio as aioredis
except ImportError:  # pragma: no cover (a Relay then says what is missing)
    aioredis = None  # type: ignore[assignment]

__all__ = ["Relay"]

log = logging.getLogger("sixtysix.server")

PREFIX = "sixtysix"
#: How many closed relayed clients an owner remembers.
ENDED_KEPT = 10_000
#: What the owner does with one message of a client: an error or a reply, or ``None``.
Answer = Callable[[Game, int | None, Connection, str | bytes], "Reply | None"]


class Relay:
    """This process's side of the pub/sub: the owner of the games of ``shard``, and the
    relay for clients of other processes' games."""

    #: Seconds the relayed clients' writers are given at shutdown to send what they hold.
    closing_time = 2.0

    def __init__(self, url: str, manager: GameManager, shard: int | None, answer: Answer, *,
                 max_strikes: int = 200, message_rate: float = 20.0, message_burst: float = 40.0,
                 hello_timeout: float = 10.0, takeover_wait: float = 30.0,
                 on_lobby: Callable[[], None] | None = None,
                 exists: Callable[[str], bool] | None = None) -> None:
        if aioredis is None:
            raise RuntimeError("relaying between server processes needs the redis package: "
                               + install_command("scale"))
        # Callers wait for a free connection rather than fail when many publish at once.
        pool = aioredis.BlockingConnectionPool.from_url(url, max_connections=64, timeout=30)
        self.redis = aioredis.Redis(connection_pool=pool)
        #: This process's name on the relay channels.
        self.process = secrets.token_hex(8)
        self.manager = manager
        self.shard = shard
        self.answer = answer
        self.max_strikes = max_strikes
        self.message_rate = message_rate
        self.message_burst = message_burst
        self.hello_timeout = hello_timeout
        #: Relayed clients this process owns the games of: connection id -> (game, connection,
        #: refused messages, the relaying process's channel).
        self.remote: dict[str, tuple[Game, Connection, list[int], str]] = {}
        #: The latest relayed clients that closed (never seated again).
        self._ended: OrderedDict[str, None] = OrderedDict()
        #: Clients this process relays: connection id -> the owner's messages for it (JSON
        #: text, a close code, or ``None``: ask the shard's new holder), and the shard of the
        #: client's game.
        self.local: dict[str, asyncio.Queue[str | int | None]] = {}
        self.local_shard: dict[str, int] = {}
        #: The process that answered each relayed client (its owner), once it said so.
        self.local_owner: dict[str, str] = {}
        self._listener: asyncio.Task[None] | None = None
        self._pubsub: Any = None
        #: The writers of the relayed clients' connections (sending their messages on):
        #: given a moment at shutdown to send what they hold, a close above all.
        self._writers: set[asyncio.Task[None]] = set()
        #: Shards that relayed clients wait for a holder of (set when one takes it over).
        self._taken: dict[int, asyncio.Event] = {}
        #: Seconds a relayed client waits, connected, for a process to take its game's shard over.
        self.takeover_wait = takeover_wait
        #: Whether a game was ever made (asked only of a game nobody serves: a client of a
        #: game that does not exist is refused at once, not kept waiting).
        self.exists = exists
        #: Called when any process's lobby changed (sixtysix.server.feed).
        self.on_lobby = on_lobby
        #: Called when another process released its shards or wants its own back
        #: (sixtysix.server.shards).
        self.on_shards: Callable[[], None] | None = None

    @property
    def channel(self) -> str:
        return f"{PREFIX}:relay:{self.process}"

    async def start(self) -> None:
        """Listen on this process's channel; the inboxes of the shards it serves are added
        by :meth:`take` as this process takes each (sixtysix.server.shards)."""
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(self.channel, self.moved_channel, self.lobby_channel,
                                     self.shards_channel)
        self._listener = asyncio.get_running_loop().create_task(self._listen(self._pubsub))

    @property
    def moved_channel(self) -> str:
        return f"{PREFIX}:moved"

    @property
    def lobby_channel(self) -> str:
        return f"{PREFIX}:lobby"

    @property
    def shards_channel(self) -> str:
        return f"{PREFIX}:shards"

    async def publish_shards(self) -> None:
        """Tell the other processes that this one released its shards (it is stopping) or
        wants its own back (it started again): they look at the shards at once rather than
        at their next heartbeat."""
        await self._publish(self.shards_channel, json.dumps({"process": self.process}))

    async def _publish(self, channel: str, text: str) -> int:
        """Publish; returns how many processes listen on ``channel``.

        redis-py may finish a command its task was cancelled in and return as if nothing
        happened, the cancellation lost (measured: about one cancellation in five that
        lands in a ``PUBLISH``); a task then never ends, and holds up the process's stop.
        The cancellation is raised here as asyncio expects."""
        listening: int = await self.redis.publish(channel, text)
        _raise_if_cancelled()
        return listening

    async def publish_lobby(self) -> None:
        """Tell every process (this one too) that the lobby changed."""
        await self._publish(self.lobby_channel, "{}")

    async def take(self, shard: int) -> None:
        """Receive the clients of the games of ``shard``, now served here. Every process
        is told, and closes the clients it relayed to the shard's previous holder (a killed
        process never answers them again): they reconnect, and reach this one."""
        await self._pubsub.subscribe(f"{PREFIX}:inbox:{shard}")
        await self._publish(self.moved_channel, json.dumps({"shard": shard, "to": self.process}))

    async def leave(self, shard: int) -> None:
        """Stop receiving the clients of ``shard`` (handed over): the games left memory,
        and their relayed clients were told to reconnect."""
        try:
            await self._pubsub.unsubscribe(f"{PREFIX}:inbox:{shard}")
        except REDIS_FAILURES:  # its notes find no game here any more, and are let go
            log.warning("could not stop listening to the clients of shard %d", shard, exc_info=True)
        prefix = f"s{shard}-"
        for conn_id, (game, _, _, _) in list(self.remote.items()):
            if game.id.startswith(prefix):
                del self.remote[conn_id]

    async def close(self) -> None:
        if self._listener is not None:
            await stop([self._listener], self.closing_time)
        if self._pubsub is not None:
            try:
                await self._pubsub.aclose()
            except REDIS_FAILURES:  # the connection is dropped with the process
                log.warning("the relay's subscription could not be closed", exc_info=True)
        for game, conn, _, _ in list(self.remote.values()):
            self.manager.detach(game, conn)
        self.remote.clear()
        if self._writers:
            # Each ends after its last message (a close, or the end detach queued); one that
            # Redis holds up is cut, never left to hold up the process's exit.
            _, late = await asyncio.wait(set(self._writers), timeout=self.closing_time)
            await stop(late, self.closing_time)
        await self.redis.aclose()

    # The owner's side -------------------------------------------------------------------
    async def _listen(self, pubsub: Any) -> None:
        async for item in pubsub.listen():
            _raise_if_cancelled()  # one redis-py lost (see _publish)
            if item.get("type") != "message":
                continue
            try:
                channel = item["channel"].decode() if isinstance(item["channel"], bytes) else item["channel"]
                data = item["data"].decode() if isinstance(item["data"], bytes) else str(item["data"])
                if channel == self.channel:
                    # "CONN TEXT": the message's JSON text, handed to the client as it is,
                    # "CONN !CODE": close the client's connection with that code, or
                    # "CONN @PROCESS": that process owns the client's game (its first word).
                    conn_id, _, text = data.partition(" ")
                    queue = self.local.get(conn_id)
                    if queue is not None and text.startswith("@"):
                        self.local_owner[conn_id] = text[1:]
                    elif queue is not None:
                        queue.put_nowait(int(text[1:]) if text.startswith("!") else text)
                    continue
                note = json.loads(data)
                if channel == self.moved_channel:
                    self._moved(int(note["shard"]), str(note.get("to", "")))
                elif channel == self.lobby_channel:
                    if self.on_lobby is not None:
                        self.on_lobby()
                elif channel == self.shards_channel:
                    if self.on_shards is not None and note.get("process") != self.process:
                        self.on_shards()
                else:
                    await self._on_note(note)
            except Exception:
                # A boundary: a note comes from another process (or another version of this
                # one), and whatever handling it raises, the listener goes on with the next.
                log.exception("a relayed message could not be handled")

    def _moved(self, shard: int, to: str) -> None:
        """Process ``to`` took ``shard`` over: the clients relayed to its previous holder
        reconnect, and those waiting for a holder go on.

        A client the new holder answered already stays: it asked after the holder began
        to listen, before this word arrived. One nobody answered yet asks the new holder
        again: its first ask reached either the previous holder, which never answers,
        or the new one, which takes a client once."""
        for conn_id, queue in self.local.items():
            if self.local_shard.get(conn_id) != shard:
                continue
            owner = self.local_owner.get(conn_id)
            if owner is None:
                queue.put_nowait(None)
            elif owner != to:
                queue.put_nowait(1012)
        taken = self._taken.pop(shard, None)
        if taken is not None:
            taken.set()

    async def _holder_of(self, shard: int, timeout: float) -> None:
        """Wait until a process says it took ``shard`` over, at most ``timeout`` seconds."""
        taken = self._taken.setdefault(shard, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(taken.wait(), timeout)

    async def _send_to(self, reply: str, conn_id: str, message: Sendable) -> None:
        # A close as its code, else the text the client's own process would send.
        code = close_code(message)
        text = encode(message) if code is None else f"!{code}"
        await self._publish(reply, f"{conn_id} {text}")

    async def _on_note(self, note: dict[str, Any]) -> None:
        kind, conn_id = note.get("kind"), str(note.get("conn", ""))
        if kind == "open":
            channel, game_id = str(note.get("reply", "")), str(note.get("game", ""))
            address = note.get("address")
            user = note.get("user")
            await self._open(conn_id, channel, game_id, note.get("token"),
                             address if isinstance(address, str) else None,
                             user if isinstance(user, int) and not isinstance(user, bool) else None)
        elif kind == "message" and conn_id in self.remote:
            game, conn, strikes, _ = self.remote[conn_id]
            reply = self.answer(game, conn.seat, conn, note.get("text", ""))
            if reply is not None:
                if reply.get("type") == "error":
                    strikes[0] += 1
                conn.push(reply)
            if strikes[0] > self.max_strikes:
                conn.push(error(Reason.TOO_MANY_ERRORS))
                conn.push({"type": "_close", "code": 1008})
        elif kind == "close":
            # Remembered: an ask sent again when the shard moved may come after the close
            # (each on its own Redis connection), and must not seat a client that is gone.
            self._ended[conn_id] = None
            while len(self._ended) > ENDED_KEPT:
                self._ended.popitem(last=False)
            if conn_id in self.remote:
                game, conn, _, _ = self.remote.pop(conn_id)
                self.manager.detach(game, conn)

    async def _open(self, conn_id: str, reply: str, game_id: str, token: Any,
                    address: str | None = None, user: int | None = None) -> None:
        if not reply.startswith(f"{PREFIX}:relay:") or conn_id in self.remote or conn_id in self._ended:
            return  # (a client asks again when a shard moves before its holder answered)
        try:
            game = self.manager.get(game_id)
        except GameError as exc:
            if exc.code == "misdirected":
                # Asked while this process hands the shard over: the client asks the next
                # holder when it says so (see _moved), or reconnects after the hello timeout.
                return
            await self._send_to(reply, conn_id, refusal_message(exc))
            await self._send_to(reply, conn_id, {"type": "_close", "code": 4404})
            return
        token = token if isinstance(token, str) else None
        seat = game.seat_of(token) if user is None else game.seat_for(token, user)
        if token is not None and seat is None:
            self.manager.release(game)
            await self._send_to(reply, conn_id, error(Reason.BAD_TOKEN))
            await self._send_to(reply, conn_id, {"type": "_close", "code": 4403})
            return
        try:
            self.manager.admit(game, seat)
        except GameError as exc:  # as many spectators as the game takes: try again later
            self.manager.release(game)
            await self._send_to(reply, conn_id, refusal_message(exc))
            await self._send_to(reply, conn_id, {"type": "_close", "code": 1013})
            return

        # Who answers comes first: the relaying process then knows whose client it is
        # when a shard moves (see _moved).
        await self._publish(reply, f"{conn_id} @{self.process}")

        async def send(message: Sendable) -> None:
            await self._send_to(reply, conn_id, message)

        conn = Connection(send, seat, address=address)
        writer = asyncio.get_running_loop().create_task(conn.run_writer())
        self._writers.add(writer)
        writer.add_done_callback(self._writers.discard)
        self.remote[conn_id] = (game, conn, [0], reply)
        self.manager.attach(game, conn)

    # The relaying side ---------------------------------------------------------------
    async def relay(self, websocket: Any, game_id: str, token: str | None, owner: int,
                    address: str | None = None, user: int | None = None) -> None:
        """Carry a client's connection to a game another process owns, until either side
        ends it. ``address``: the client's, told to the owner (a spectator's chat counts
        against it); ``user``: the client's account, whose seat it takes."""
        await Relayed(self, websocket, game_id, token, owner, address, user).run()


class Relayed:
    """One client this process relays to the process that holds its game's shard (``owner``):
    the relay's own helper, which shares its channels and tables."""

    def __init__(self, relay: Relay, websocket: Any, game_id: str, token: str | None, owner: int,
                 address: str | None, user: int | None = None) -> None:
        self.relay = relay
        self.user = user
        self.websocket = websocket
        self.game_id = game_id
        self.token = token
        self.owner = owner
        self.address = address
        self.conn_id = secrets.token_hex(12)
        #: The owner's messages for the client (see :attr:`Relay.local`).
        self.queue: asyncio.Queue[str | int | None] = asyncio.Queue()
        self.inbox = f"{PREFIX}:inbox:{owner}"

    async def note(self, kind: str, **fields: Any) -> int:
        """Publish; returns how many processes listen on the inbox (its holder: 1)."""
        text = json.dumps({"kind": kind, "conn": self.conn_id, **fields})
        return await self.relay._publish(self.inbox, text)

    async def ask(self) -> int:
        """Ask the shard's holder to take the client; how many listen (the holder: 1)."""
        return await self.note("open", game=self.game_id, token=self.token, reply=self.relay.channel,
                               address=self.address, **({} if self.user is None else {"user": self.user}))

    async def open(self) -> bool:
        """:meth:`ask`, the client from now on concerned by a move of the shard; whether
        a holder listens."""
        self.relay.local_shard[self.conn_id] = self.owner
        if await self.ask():
            return True
        self.relay.local_shard.pop(self.conn_id, None)
        return False

    async def run(self) -> None:
        self.relay.local[self.conn_id] = self.queue
        if await self.reach():
            await self.carry()
        else:
            self.relay.local.pop(self.conn_id, None)

    async def reach(self) -> bool:
        """Whether the game's holder took the client: at once, or (the shard being taken
        over) once a process took it over in time; the client is told why not."""
        if await self.open():
            return True
        if self.relay.exists is not None and not self.relay.exists(self.game_id):
            # Not a game being taken over: no such game (the prefix of a shard nobody serves).
            await self.tell(error(Reason.NO_GAME), 4404)
            return False
        # No process serves the game's shard at this moment (one stopped or was killed, and
        # its games are being taken over): the client is told, and waits here on its open
        # connection for the process that takes the shard over (its word on
        # sixtysix:moved, or a look every second), rather than every page trying again
        # and again meanwhile.
        await self.tell(error(Reason.UNAVAILABLE))
        deadline = time.monotonic() + self.relay.takeover_wait
        while (left := deadline - time.monotonic()) > 0:
            await self.relay._holder_of(self.owner, min(left, 1.0))
            if await self.open():
                return True
        await self.tell(None, 1013)  # nobody took it over in time: the page tries again by itself
        return False

    async def tell(self, message: ErrorMessage | None, close: int | None = None) -> None:
        """Send the client ``message`` and close its connection with ``close``; a client
        gone meanwhile is let go (the WebSocket's errors are its own)."""
        with contextlib.suppress(Exception):
            if message is not None:
                await self.websocket.send_json(message)
            if close is not None:
                await self.websocket.close(code=close)

    async def downstream(self) -> int:
        """The owner's messages to the client; returns the close code it asked for."""
        first = True
        while True:
            timeout = self.relay.hello_timeout if first else None
            message = await asyncio.wait_for(self.queue.get(), timeout)
            if message is None:  # the shard moved before its holder answered
                await self.ask()
                continue
            first = False
            if isinstance(message, int):
                return message
            await self.websocket.send_text(message)

    async def upstream(self) -> None:
        """The client's messages to the owner, at most as fast as the limits allow."""
        bucket = TokenBucket(self.relay.message_rate, self.relay.message_burst)
        while True:
            received = await self.websocket.receive()
            if received["type"] == "websocket.disconnect":
                return
            data = received.get("text")
            if data is None:
                data = (received.get("bytes") or b"").decode("utf-8", "replace")
            if not bucket.allow():
                await self.websocket.send_json(error(Reason.TOO_MANY_MESSAGES))
                continue
            await self.note("message", text=data)

    async def carry(self) -> None:
        """Both ways at once, until either ends; then the owner told and the client closed."""
        loop = asyncio.get_running_loop()
        down, up = loop.create_task(self.downstream()), loop.create_task(self.upstream())
        code = 1000
        try:
            done, _ = await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
            if down in done:
                try:
                    code = down.result()
                except TimeoutError:
                    code = 1013
                    await self.tell(error(Reason.UNAVAILABLE))
        finally:
            relay = self.relay
            relay.local.pop(self.conn_id, None)
            relay.local_shard.pop(self.conn_id, None)
            relay.local_owner.pop(self.conn_id, None)
            # Bounded: one that lost its cancellation in Redis still waits on the client, whose
            # connection is closed below.
            await stop([down, up], relay.closing_time)
            try:
                await self.note("close")
            except REDIS_FAILURES:  # the owner lets the client go when its writes fail
                log.warning("could not tell the owner of game %s that a client left", self.game_id)
            await self.tell(None, code)


def _raise_if_cancelled() -> None:
    """Raise :class:`asyncio.CancelledError` if the current task was asked to stop and the
    request got lost on the way (see :meth:`Relay._publish`)."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError


async def stop(tasks: Iterable[asyncio.Task[Any]], timeout: float) -> bool:
    """Cancel ``tasks`` and wait for them to end, at most ``timeout`` seconds: a task
    in a Redis call may outlive its cancellation, and must not hold up its caller.
    Returns whether all ended; one still running is logged."""
    tasks = set(tasks)
    for task in tasks:
        task.cancel()
    if not tasks:
        return True
    _, running = await asyncio.wait(tasks, timeout=timeout)
    for task in tasks - running:
        if not task.cancelled() and task.exception() is not None:
            log.debug("a relay task ended with %r", task.exception())
    for task in running:
        log.warning("a relay task did not stop when cancelled: %r", task)
    return not running
