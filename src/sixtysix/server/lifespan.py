"""A server process's life: what it does at start-up (its games resumed, or its shard's
lease sought), while it runs (games nobody moves in marked abandoned), when a shard
comes to it or goes to another process, and when it stops (its games handed over
before the open requests' grace, then everything closed)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator

from fastapi import FastAPI

from sixtysix.server.feed import LobbyFeed
from sixtysix.server.games import GameManager
from sixtysix.server.pairing import Pairing
from sixtysix.server.relay import Relay
from sixtysix.server.settings import Settings
from sixtysix.server.shards import Keeper, Shards
from sixtysix.server.storage import FAILURES, Storage
from sixtysix.server.tournaments import Tournaments

__all__ = ["Lifespan"]

log = logging.getLogger("sixtysix.server")


class Lifespan:
    """The start, the running and the stop of one application's services."""

    def __init__(self, settings: Settings, storage: Storage, manager: GameManager, feed: LobbyFeed,
                 pairing: Pairing, tournaments: Tournaments, relay: Relay | None = None) -> None:
        self.settings = settings
        self.storage = storage
        self.manager = manager
        self.feed = feed
        self.pairing = pairing
        self.tournaments = tournaments
        self.relay = relay
        #: With a shard: the lease of each shard this process serves (sixtysix.server.shards).
        self.keeper: Keeper | None = None
        if settings.shard is not None:
            manager.held.clear()  # each shard served only while its lease says so
            self.keeper = Keeper(Shards(storage.engine), settings.shard, adopt=self.adopt,
                                 give_up=self.give_up, valid=manager.held.__setitem__,
                                 heartbeat=settings.lease / 5, lease=settings.lease)
        if relay is not None and self.keeper is not None:
            relay.on_shards = self.keeper.wake
            self.keeper.announce = relay.publish_shards

    async def adopt(self, shard: int) -> None:
        """Serve the games of ``shard`` (its lease was just taken): each rebuilt, a few at
        a time, the clients of the games already here answered between."""
        manager = self.manager
        started = time.perf_counter()
        # Read in a thread (hundreds of games' records): the games already here go on meanwhile.
        stored = manager.take_shard(shard, stored=await asyncio.to_thread(
            manager.read_shard, shard, self.settings.abandoned_after))
        read = time.perf_counter() - started
        for n, one in enumerate(stored):
            game = manager.resume(one)
            if game is not None:
                manager.wake_bot(game)
            if n % 10 == 9:
                await asyncio.sleep(0)  # the clients of the games already here are answered between
        if stored:
            log.log(logging.INFO if shard == self.settings.shard else logging.WARNING,
                    "shard %d: %d unfinished game(s) resumed in %.2f s (%.2f s reading them)",
                    shard, len(stored), time.perf_counter() - started, read)
        if self.relay is not None:
            # Only now: hundreds of relayed clients arriving at once would each have their game
            # loaded from the database on its own while the whole shard is being read.
            await self.relay.take(shard)

    async def give_up(self, shard: int) -> None:
        """Stop serving the games of ``shard`` (another process holds its lease now)."""
        if self.relay is not None:
            await self.relay.leave(shard)
        self.manager.give_up(shard)

    async def hand_over(self) -> None:
        """The server stops: its games go to the other processes, its lobby pages' streams
        end and its players waiting for an opponent are answered, now (before the open
        requests' grace: the lifespan's end comes after it)."""
        if self.keeper is not None:
            await self.keeper.close()
        self.feed.close()
        self.pairing.stop()
        self.tournaments.stop()

    def start_games(self) -> None:
        """Without shards: every unfinished game resumed at once, its computer woken."""
        manager = self.manager
        resumed = manager.resume_all(self.settings.abandoned_after)
        if resumed:
            log.info("resumed %d unfinished game(s)", resumed)
        for game in list(manager.games.values()):
            manager.wake_bot(game)

    async def expire_idle_games(self) -> None:
        """Every ``abandon_check_every`` seconds, games nobody moved in marked abandoned."""
        age = self.settings.abandoned_after
        if age is None:
            return
        while True:
            await asyncio.sleep(min(self.settings.abandon_check_every, age))
            try:
                self.manager.expire_idle(age)
            except FAILURES:  # a database hiccup: the next round tries again
                log.exception("the check for abandoned games failed")

    @contextlib.asynccontextmanager
    async def __call__(self, app: FastAPI) -> AsyncIterator[None]:
        """The application's lifespan (FastAPI's ``lifespan``)."""
        relay = self.relay
        if relay is not None:
            await relay.start()
        if self.keeper is not None:
            await self.keeper.start()  # its own shard's games resumed once it holds the lease
        else:
            self.start_games()
        loop = asyncio.get_running_loop()
        sweeper = loop.create_task(self.expire_idle_games())
        feeder = loop.create_task(self.feed.run(None if relay is None else relay.publish_lobby))
        yield
        feeder.cancel()
        await self.hand_over()  # done already when `sixtysix serve` stops (before the open requests' grace)
        if relay is not None:
            await relay.close()
        sweeper.cancel()
        await self.manager.close()
        self.storage.close()
