"""One client's connection to a game, and the messages queued for it.

Messages to a connection go through its queue, in the order the changes happened; a
message that goes alike to many connections (:class:`Shared`) is written as JSON once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sixtysix.server.messages import Outgoing

__all__ = ["Connection", "Sendable", "Shared", "close_code", "encode"]


class Shared(dict[str, Any]):
    """A message that goes alike to many connections (the spectators' state, a presence
    message): written as JSON once (:func:`encode`), however many it goes to. Nobody
    changes it once it is queued.

    >>> from sixtysix.server.messages import Presence
    >>> message = Shared(Presence(type="presence", spectators=3))
    >>> encode(message), encode(message) is encode(message)
    ('{"type":"presence","spectators":3}', True)
    """

    _text: str | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = _dumps(self)
        return self._text


#: What a connection sends: a message of its own, or one shared by many.
Sendable = Outgoing | Shared


def close_code(message: Sendable) -> int | None:
    """The WebSocket close code a close order asks for (``None``: a message to send).

    >>> from sixtysix.server.messages import CloseOrder, Presence
    >>> close_code(CloseOrder(type="_close", code=1012)), close_code(Presence(type="presence", spectators=1))
    (1012, None)
    """
    if message["type"] != "_close":
        return None
    code = message.get("code")
    return code if isinstance(code, int) else 1000


def encode(message: Sendable) -> str:
    """A message as a WebSocket carries it: compact JSON text, UTF-8 unescaped. The one
    serialiser of what the server sends (sixtysix.server.messages)."""
    return message.text() if isinstance(message, Shared) else _dumps(message)


def _dumps(message: Mapping[str, object]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


class Connection:
    """One client's connection to a game: a seat (0 or 1) or a spectator (``None``).

    Messages are queued and sent in order by :meth:`run_writer`; a client that
    falls too far behind is dropped (``hang_up`` is called) rather than holding
    up the game. Who is watching (:meth:`tell_presence`) is not queued: only the
    latest count is kept, in a slot of its own, and sent once the queue is empty, so
    that spectators coming and going never fill a connection's queue (a player's
    connection is closed only for its own lag, never for the gallery's traffic).
    """

    QUEUE = 256

    def __init__(self, send: Callable[[Sendable], Awaitable[None]], seat: int | None,
                 hang_up: Callable[[], Awaitable[None]] | None = None,
                 end: Callable[[int], Awaitable[None]] | None = None, *,
                 address: str | None = None) -> None:
        self._send = send
        self._hang_up = hang_up
        #: Closes the client's connection with a WebSocket close code, when the server
        #: queues ``{"type": "_close", "code": ...}``; without it, that message is sent on
        #: (a relayed client's process closes it: sixtysix.server.relay).
        self._end = end
        self.seat = seat
        #: The client's address (a spectator's lines of chat count against it), if known.
        self.address = address
        self.queue: asyncio.Queue[Sendable | None] = asyncio.Queue(self.QUEUE)
        self.closed = False
        self.overflowed = False
        #: The latest presence message not sent yet (see :meth:`tell_presence`).
        self._presence: Shared | None = None

    def push(self, message: Sendable) -> None:
        if self.closed:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            self.closed = True
            self._drain()
            self.queue.put_nowait(None)

    def tell_presence(self, message: Shared) -> None:
        """Who is watching now: replaces a presence message not sent yet, and goes after
        everything queued (it never takes a place in the queue but to wake the writer)."""
        if self.closed:
            return
        self._presence = message
        if self.queue.empty():
            self.queue.put_nowait(_WAKE)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    def _drain(self) -> None:
        while not self.queue.empty():
            self.queue.get_nowait()

    async def _next(self) -> Sendable | None:
        """The next message to send: the queue's, else the presence message waiting."""
        while True:
            presence = self._presence
            if presence is not None and self.queue.empty() and not self.closed:
                self._presence = None
                return presence
            message = await self.queue.get()
            if message is not _WAKE:
                return message

    async def run_writer(self) -> None:
        while True:
            message = await self._next()
            if message is None:
                if self.overflowed and self._hang_up is not None:
                    # The client's connection (a WebSocket, a relay's pub/sub): whatever
                    # closing it raises, it is gone for this game.
                    with contextlib.suppress(Exception):
                        await self._hang_up()
                return
            code = close_code(message)
            if code is not None:
                # Nothing follows a close: the writer ends (also for a relayed client, whose
                # process is sent the close and closes it).
                self.closed = True
                with contextlib.suppress(Exception):  # the client's connection, as above
                    if self._end is not None:
                        await self._end(code)
                    else:
                        await self._send(message)
                return
            try:
                await self._send(message)
            except Exception:
                # A boundary: the client's connection failed (it went away, its pub/sub is
                # down); whatever it raised, this writer stops, and the game goes on.
                self.closed = True
                return


#: Put in a connection's empty queue to wake its writer for a presence message.
_WAKE = Shared(type="_wake")
