"""The lobby's live feed (sixtysix.server.feed): pages told when the lobby changes,
gathered at most once a tick, counted against the connections a client may hold."""

from __future__ import annotations

import asyncio
import time
import urllib.error
from pathlib import Path

import pytest

from helpers import need_module

need_module("sqlalchemy", "the web extra")

from server_support import LobbyEvents, Server  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server.feed import LobbyFeed  # noqa: E402
from sixtysix.server.games import GameManager  # noqa: E402
from sixtysix.server.storage import Storage  # noqa: E402

EVENT = "event: lobby\ndata: {}\n\n"


def test_many_changes_make_one_event_for_each_page() -> None:
    async def scenario() -> None:
        feed = LobbyFeed(interval=0.01)
        pages = [feed.stream(), feed.stream()]
        for page in pages:
            assert await anext(page) == "retry: 3000\n\n"
        assert feed.pages == 2
        for _ in range(5):
            feed.changed()
        runner = asyncio.get_running_loop().create_task(feed.run())
        for page in pages:
            assert await asyncio.wait_for(anext(page), 30) == EVENT
        await asyncio.sleep(0.05)  # several ticks with nothing changed: nothing more is queued
        assert all(queue.empty() for queue in feed._pages)
        runner.cancel()
        for page in pages:
            await page.aclose()
        assert feed.pages == 0

    asyncio.run(scenario())


def test_a_stopping_server_ends_its_pages_streams() -> None:
    async def scenario() -> None:
        feed = LobbyFeed(interval=0.01)
        pages = [feed.stream(), feed.stream()]
        for page in pages:
            assert await anext(page) == "retry: 3000\n\n"
        feed.changed()
        feed.close()  # before the change was told: the streams end without it
        for page in pages:
            with pytest.raises(StopAsyncIteration):
                await asyncio.wait_for(anext(page), 30)
        assert feed.pages == 0

    asyncio.run(scenario())


def test_with_redis_a_change_is_published_instead_and_an_idle_page_kept_alive() -> None:
    async def scenario() -> None:
        feed = LobbyFeed(interval=0.01)
        feed.KEEP_ALIVE = 0.01
        published: list[int] = []

        async def publish() -> None:
            published.append(1)

        page = feed.stream()
        assert await anext(page) == "retry: 3000\n\n"
        feed.changed()
        feed.changed()
        runner = asyncio.get_running_loop().create_task(feed.run(publish))
        assert await asyncio.wait_for(anext(page), 30) == ": still here\n\n"  # told by Redis, not here
        assert published == [1]
        feed.deliver()  # what the relay does when the note comes back
        assert await asyncio.wait_for(anext(page), 30) == EVENT
        runner.cancel()
        await page.aclose()

    asyncio.run(scenario())


def test_with_redis_down_this_process_s_pages_are_still_told() -> None:
    async def scenario() -> None:
        feed = LobbyFeed(interval=0.01)

        async def publish() -> None:
            raise ConnectionError("Redis is down")

        page = feed.stream()
        assert await anext(page) == "retry: 3000\n\n"
        feed.changed()
        runner = asyncio.get_running_loop().create_task(feed.run(publish))
        assert await asyncio.wait_for(anext(page), 30) == EVENT
        runner.cancel()
        await page.aclose()

    asyncio.run(scenario())


def test_the_lobby_hooks_follow_games_between_people_only(tmp_path: Path) -> None:
    manager = GameManager(Storage(f"sqlite:///{tmp_path / 'games.db'}"))
    calls: list[int] = []
    manager.lobby_hooks.append(lambda: calls.append(1))
    manager.create(rules=Rules(), kind="computer", level="random")
    assert calls == []  # a game against the computer is never listed
    game, _ = manager.create(rules=Rules(), kind="person", name="Ann")
    assert len(calls) == 1
    manager.join(game.id, "Bob")
    assert len(calls) == 2
    manager.resign(game, 0)
    assert len(calls) == 3


def opened_again(server: Server) -> LobbyEvents:
    """A page's stream once the server has seen a closed one go (bounded)."""
    for _ in range(600):
        try:
            return LobbyEvents(server.base)
        except urllib.error.HTTPError as refused:
            assert refused.code == 429
            time.sleep(0.05)
    raise AssertionError("a closed page still counts")


def test_a_page_is_told_of_a_new_game_and_pages_count_as_connections(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log",
                    "--connections-per-client", "2")
    pages: list[LobbyEvents] = []
    try:
        pages = [LobbyEvents(server.base), LobbyEvents(server.base)]
        with pytest.raises(urllib.error.HTTPError) as refused:
            LobbyEvents(server.base)
        assert refused.value.code == 429
        server.post("/api/games", {"kind": "person", "name": "Ann"})
        assert [page.next_event() for page in pages] == ["lobby", "lobby"]
        pages.pop().close()
        pages.append(opened_again(server))  # a closed page no longer counts
    finally:
        for page in pages:
            page.close()
        server.kill()


def test_a_server_with_pages_following_its_lobby_stops_when_told(tmp_path: Path) -> None:
    """The event streams never end by themselves: a stop (SIGTERM) cuts them after a
    moment instead of waiting for them for ever."""
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log")
    page = LobbyEvents(server.base)
    try:
        server.stop()
        assert server.proc.returncode == 0
    finally:
        page.close()
        if server.proc.poll() is None:
            server.kill()
