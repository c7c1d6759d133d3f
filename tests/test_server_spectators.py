"""Spectators (issue 34, "spectator churn"): spectators coming and going cost the players
nothing. Each arrival or departure once sent the whole state to every connection of the
game, each spectator's public view worked out for it alone: 450 spectators reconnecting
every ~2 s closed the seated player ("too far behind"). Now they make one small presence
message (gathered over a moment), the public view is worked out once for each change
and shared, a game takes a limited number of spectators, and a player's connection is
never closed for the gallery's traffic."""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

import sixtysix.server.games as games  # noqa: E402
from server_support import Client, connect  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.games import Connection  # noqa: E402

seat = contextlib.contextmanager(connect)


def person_game(client: TestClient) -> tuple[str, str, str]:
    game = client.post("/api/games", json={"kind": "person", "name": "Ann"}).json()
    joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Bob"}).json()
    return game["id"], game["token"], joined["token"]


@pytest.fixture
def public_views(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the spectators' views the server works out (each call of the wire function)."""
    calls: list[int] = []
    real = games.public_view_json

    def counted(hand: Any) -> dict[str, Any]:
        calls.append(1)
        return real(hand)

    monkeypatch.setattr(games, "public_view_json", counted)
    return calls


def states(client: Client, since: int) -> list[dict[str, Any]]:
    return [m for m in client.messages[since:] if m["type"] == "state"]


def test_spectators_coming_and_going_send_the_players_no_state_and_one_view_per_change(
        public_views: list[int]) -> None:
    settings = Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6)
    with TestClient(create_app(settings)) as client:
        gid, ann_token, bob_token = person_game(client)
        with seat(client, gid, ann_token, 0) as ann, seat(client, gid, bob_token, 1) as bob, \
                contextlib.ExitStack() as watching:
            ann.sync()
            bob.sync()
            marks = len(ann.messages), len(bob.messages)
            before = len(public_views)
            gallery = [watching.enter_context(seat(client, gid, None, None)) for _ in range(8)]
            for _ in range(60):  # spectators reconnecting again and again
                with seat(client, gid, None, None) as passing:
                    assert passing.state is not None and passing.state["view"] is not None
            # The churn worked out the public view at most once (no move was made), and sent
            # the players no state (nor anything that would fill their queues).
            assert len(public_views) - before <= 1
            for player, mark in zip((ann, bob), marks, strict=True):
                player.sync()
                assert states(player, mark) == []
            # One move: one public view for every spectator (the same message for all), and
            # each player and spectator told.
            before = len(public_views)
            (ann if ann.my_turn else bob).act_random(random.Random(1))
            for watcher in (*gallery, ann, bob):
                watcher.until(lambda s: s["game"]["actions"] == 1)
            assert len(public_views) - before == 1
            assert not any(e["code"] == "too_many_errors" for e in ann.errors + bob.errors)


def test_the_players_hear_how_many_watch_in_a_presence_message() -> None:
    settings = Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6)
    app = create_app(settings)
    app.state.manager.presence_interval = 0.0  # told at the loop's next turn, not a second later
    with TestClient(app) as client:
        gid, ann_token, _ = person_game(client)
        with seat(client, gid, ann_token, 0) as ann, contextlib.ExitStack() as watching:
            ann.sync()
            for _ in range(3):
                watching.enter_context(seat(client, gid, None, None))
            mark = len(ann.messages)
            for _ in range(10):
                with seat(client, gid, None, None):
                    pass
            told = []
            for _ in range(100):  # bounded: told within a round or two once the departures are in
                ann.sync()  # (the presence message waits for an empty queue: it comes between)
                told = [m for m in ann.messages[mark:] if m["type"] == "presence"]
                if told and told[-1]["spectators"] == 3:
                    break
            assert told and told[-1] == {"type": "presence", "spectators": 3}
            assert states(ann, mark) == []


def test_a_game_takes_as_many_spectators_as_allowed_and_always_its_players() -> None:
    settings = Settings(database_url="sqlite://", spectators_per_game=3)
    with TestClient(create_app(settings)) as client:
        gid, ann_token, bob_token = person_game(client)
        with contextlib.ExitStack() as watching:
            for _ in range(3):
                watching.enter_context(seat(client, gid, None, None))
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(f"/ws/{gid}") as ws:
                ws.send_json({"type": "hello", "token": None})
                refusal = ws.receive_json()
                assert refusal["type"] == "error" and refusal["code"] == "too_many_spectators"
                assert refusal["reason"] == ("This game has as many spectators as it takes (3): "
                                             "try again later.") and refusal["args"] == {"n": 3}
                ws.receive_json()
            assert refused.value.code == 1013  # try again later
            # The players are never refused for the gallery.
            with seat(client, gid, ann_token, 0) as ann, seat(client, gid, bob_token, 1) as bob:
                assert ann.state is not None and ann.state["you"] == 0
                assert bob.state is not None and bob.state["you"] == 1


def test_a_connection_is_closed_for_its_own_lag_never_for_presence() -> None:
    async def scenario(presence: int, own: int) -> tuple[bool, int, list[dict[str, Any]]]:
        sent: list[dict[str, Any]] = []
        gate, told = asyncio.Event(), asyncio.Event()

        async def slow_send(message: dict[str, Any]) -> None:
            await gate.wait()  # a player whose socket takes nothing for a while
            sent.append(message)
            if message["type"] == "presence":
                told.set()

        conn = Connection(slow_send, 0)
        writer = asyncio.create_task(conn.run_writer())
        conn.push({"type": "state", "n": 0})
        await asyncio.sleep(0)  # the writer holds the first message
        for n in range(presence):
            conn.tell_presence({"type": "presence", "spectators": n})
        for n in range(own):
            conn.push({"type": "state", "n": n + 1})
        closed, queued = conn.closed, conn.queue.qsize()
        gate.set()
        if not closed:
            await asyncio.wait_for(told.wait(), 30)  # bounded: a broken writer fails here
        conn.close()
        await writer
        return closed, queued, sent

    # 100,000 presence messages while the socket is stuck: one waits, sent after the states.
    closed, queued, sent = asyncio.run(scenario(100_000, 3))
    assert not closed and queued <= 4
    assert [m["type"] for m in sent] == ["state"] * 4 + ["presence"]
    assert sent[-1]["spectators"] == 99_999
    # Its own messages beyond the queue do close it (the control).
    closed, _, _ = asyncio.run(scenario(0, Connection.QUEUE + 1))
    assert closed

