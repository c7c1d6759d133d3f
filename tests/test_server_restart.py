"""Persistence across a crash (issue 5): the server runs as a real process
(``sixtysix serve``, uvicorn) on a SQLite file; games are played over real
WebSockets, the process is killed with SIGKILL in the middle of them, started
again, and every unfinished game resumes exactly where it was."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import need_module

need_module("uvicorn", "the web extra")
need_module("websockets", "the websockets client, in the test extra")
from server_support import Client, Server, finished, real_client  # noqa: E402


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        if s.proc.poll() is None:
            s.kill()


def play_some(players: list[Client], rng: random.Random, count: int) -> None:
    """``count`` random actions by whoever is to act (a person game: both seats connected)."""
    for _ in range(count):
        for p in players:
            p.sync()
        if finished(players[0].state or {}):
            return
        mover = next(p for p in players if p.my_turn)
        mover.act_random(rng)
    for p in players:
        p.sync()


def play_against_computer(me: Client, rng: random.Random, count: int) -> None:
    for _ in range(count):
        state = me.until(lambda s: finished(s) or s["view"]["to_act"] == 0)
        if finished(state):
            return
        me.act_random(rng)
        me.sync()
    me.until(lambda s: finished(s) or s["view"]["to_act"] == 0)


def test_unfinished_games_resume_exactly_after_the_server_is_killed(tmp_path: Path, database_url: str,
                                                                     servers: list[Server]) -> None:
    url = database_url
    rng = random.Random(5)
    first = Server(url, tmp_path / "first.log")
    servers.append(first)
    # Two games against the computer and two between people, each some way in
    # (the later ones into their second or third hand). The deals are the
    # server's own, so the target must be out of reach of the at most 43 random
    # actions played here whatever is dealt: a hand takes at least 6 plays and
    # earns at most 3 game points, or 1 more per tied hand before it (R9.1, R9.2).
    games: list[dict[str, Any]] = []
    for n, kind in enumerate(["computer", "person", "computer", "person"]):
        body = {"kind": kind, "rules": "classic,target=40", "name": f"P{n}"}
        if kind == "computer":
            body["level"] = "random"
        created = first.post("/api/games", body)
        seats = [(created["token"], 0)]
        if kind == "person":
            joined = first.post(f"/api/games/{created['id']}/join", {"name": f"Q{n}"})
            seats.append((joined["token"], 1))
        players = [real_client(first.base, created["id"], token, seat) for token, seat in seats]
        if kind == "computer":
            play_against_computer(players[0], rng, 5 + 10 * n)
        else:
            play_some(players, rng, 7 + 12 * n)
        before = [p.state for p in players]
        assert before[0] is not None and not finished(before[0])
        games.append({"id": created["id"], "seats": seats, "before": before})
        for p in players:
            p.ws.close()
    # A spectator's public view, too.
    watcher = real_client(first.base, games[1]["id"], None, None)
    watched = watcher.state
    watcher.ws.close()

    first.kill()
    second = Server(url, tmp_path / "second.log")
    servers.append(second)

    # The lobby lists the games between people (those against the computer are private),
    # and every game is being played again.
    people = {g["id"] for g, kind in zip(games, ["computer", "person", "computer", "person"], strict=True)
              if kind == "person"}
    assert {g["id"] for g in second.get("/api/games")["playing"]} == people
    assert all(second.get(f"/api/games/{g['id']}")["status"] == "playing" for g in games)
    for game in games:
        for (token, seat), before in zip(game["seats"], game["before"], strict=True):
            again = real_client(second.base, game["id"], token, seat)
            assert before is not None and again.state is not None
            assert again.state["you"] == seat
            assert again.state["view"] == before["view"]  # the same hand, cards, history, legal actions
            for key in ("score", "hand_number", "actions", "results", "players", "status", "pending_bonus"):
                assert again.state["game"][key] == before["game"][key], key
            again.ws.close()
    watcher = real_client(second.base, games[1]["id"], None, None)
    assert watcher.state is not None and watched is not None
    assert watcher.state["view"] == watched["view"]
    watcher.ws.close()

    # The games go on: a person game is played to its end and its record replays.
    game = games[3]
    players = [real_client(second.base, game["id"], token, seat) for token, seat in game["seats"]]
    play_some(players, rng, 5000)
    assert finished(players[0].state or {})
    record = second.get(f"/api/games/{game['id']}/record")
    from sixtysix.game.record import replay_json

    result = replay_json(record)
    assert result["score"] == players[0].state["game"]["score"]  # type: ignore[index]
    for p in players:
        p.ws.close()


def test_an_oversized_frame_closes_only_its_own_connection(tmp_path: Path, servers: list[Server]) -> None:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log")
    servers.append(server)
    created = server.post("/api/games", {"kind": "computer", "level": "random"})
    me = real_client(server.base, created["id"], created["token"], 0)
    other = real_client(server.base, created["id"], None, None)
    from websockets.exceptions import ConnectionClosed

    other.send("x" * 200_000)  # beyond the 64 KiB the server accepts
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            other.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big
    me.sync()  # the player's connection and the game are untouched
    assert me.state is not None and me.state["game"]["status"] == "playing"
    me.ws.close()


def test_a_running_server_shows_its_threads_and_tasks_on_a_signal(tmp_path: Path,
                                                                  servers: list[Server]) -> None:
    # How an operator (and a test whose server does not stop) sees what a server is doing.
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log")
    servers.append(server)
    server.post("/api/games", {"kind": "computer", "level": "random"})
    shown = server.stacks()
    assert "Current thread" in shown or "Thread 0x" in shown  # faulthandler's dump of the threads
    assert "asyncio task(s):" in shown
    assert "expire_idle_games" in shown  # the server's own background task, with its stack
