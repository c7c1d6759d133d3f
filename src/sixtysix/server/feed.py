"""The lobby's live feed: pages told when the lists of games change (server-sent events).

``GET /api/lobby/events`` is a stream of ``lobby`` events, each saying only that the
lobby changed (a game between people made, joined, its score changed, ended or
abandoned); the page then reads ``GET /api/games`` (and its challenges) again.
Nothing of a game is in an event, so every page may have every event.

Changes are gathered and sent at most once a :attr:`LobbyFeed.interval`: a busy server
changes its lobby many times a second, and each page reads the lobby once for all of
them. With several processes and Redis, each process publishes that its lobby changed
on ``sixtysix:lobby`` and every process tells its own pages (sixtysix.server.relay),
so a game made on one process shows at once in the lobbies of pages connected to
another.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

from sixtysix.server.redis_errors import REDIS_FAILURES

__all__ = ["LobbyFeed"]


class LobbyFeed:
    """This process's lobby pages, and the changes not yet told."""

    #: Seconds between keep-alive comments on an idle stream (proxies close silent ones).
    KEEP_ALIVE = 25.0

    def __init__(self, interval: float = 1.0, max_pages: int = 10_000) -> None:
        self.interval = interval
        self.max_pages = max_pages
        self._pages: set[asyncio.Queue[None]] = set()
        self._dirty = False
        self._closed = False

    @property
    def pages(self) -> int:
        return len(self._pages)

    def changed(self) -> None:
        """Something in the lobby changed (a games' manager hook): told at the next tick."""
        self._dirty = True

    def deliver(self) -> None:
        """Tell every page of this process now (one pending event per page at most)."""
        for queue in self._pages:
            if queue.empty():
                queue.put_nowait(None)

    async def run(self, publish: Callable[[], Awaitable[None]] | None = None) -> None:
        """Every :attr:`interval`, if the lobby changed: ``publish`` it to every process
        (which each :meth:`deliver`), or without it tell this process's pages."""
        while True:
            await asyncio.sleep(self.interval)
            if not self._dirty:
                continue
            self._dirty = False
            if publish is None:
                self.deliver()
                continue
            try:
                await publish()
            except REDIS_FAILURES:  # Redis down: at least this process's pages are told
                self.deliver()

    def full(self) -> bool:
        return len(self._pages) >= self.max_pages

    def close(self) -> None:
        """End every page's stream now (the server stops): the browsers reconnect, through
        a load balancer to another process, rather than keep the stop waiting."""
        self._closed = True
        self.deliver()

    async def stream(self) -> AsyncIterator[str]:
        """One page's event stream (the text of ``text/event-stream``), until it goes."""
        queue: asyncio.Queue[None] = asyncio.Queue(1)
        self._pages.add(queue)
        try:
            yield "retry: 3000\n\n"  # how long the browser waits before reconnecting
            while not self._closed:
                try:
                    await asyncio.wait_for(queue.get(), self.KEEP_ALIVE)
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                if self._closed:
                    return
                yield "event: lobby\ndata: {}\n\n"
        finally:
            self._pages.discard(queue)
