"""Two server processes and Redis (docs/web.md, "Running several server processes"): the
players and a spectator of one game, connected to different processes, play a match to
its end; the relayed spectator sees no hidden card, the relayed player only his own."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import urllib.error
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import need_module

need_module("redis", "the scale extra")
need_module("websockets", "the test extra")

from server_support import (  # noqa: E402
    Client,
    LobbyEvents,
    Server,
    cards_mentioned,
    closed_with,
    finished,
    play,
    position,
    real_client,
    real_seat,
    real_socket,
    redis_server,
    seated,
)
from sixtysix.game.cards import Card  # noqa: E402
from sixtysix.game.record import from_json, replay  # noqa: E402


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(scope="module")
def servers(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    folder = tmp_path_factory.mktemp("two")
    database = f"sqlite:///{folder / 'games.db'}"
    first = Server(database, folder / "one.log", "--shard", "1", "--redis-url", redis_url)
    second = Server(database, folder / "two.log", "--shard", "2", "--redis-url", redis_url)
    yield first, second
    first.kill()
    second.kill()


def test_players_and_a_spectator_on_two_processes_play_one_match(servers: tuple[Server, Server],
                                                                  tmp_path: Path) -> None:
    one, two = servers
    game = one.post("/api/games", {"kind": "person", "rules": "classic,target=3", "name": "Ann"})
    assert game["id"].startswith("s1-")
    joined = one.post(f"/api/games/{game['id']}/join", {"name": "Bob"})
    gid = game["id"]
    with real_seat(one, gid, game["token"], 0) as ann, real_seat(two, gid, joined["token"], 1) as bob, \
            real_seat(two, gid, None, None) as watcher:
        assert bob.state is not None and bob.state["you"] == 1  # seated through process 2
        # Chat and errors cross too.
        assert bob.request({"type": "act", "action": "66", "hand": 99})["code"] == "stale"
        bob.send({"type": "chat", "text": "hello from the other process"})
        bob.sync()  # its answer comes after the chat was handled by the owner
        ann.sync()
        assert [m["text"] for m in ann.messages if m["type"] == "chat"] == ["hello from the other process"]
        rng = random.Random(5)
        mover = ann
        for _ in range(3000):
            # The last mover first: his answer comes once the owner has applied his action
            # (a relayed player's messages take the longer way); then the others.
            for p in (mover, *(q for q in (ann, bob, watcher) if q is not mover)):
                p.sync()
            assert watcher.state is not None and bob.state is not None
            # The relayed spectator sees no card in a hand; the relayed player only his own.
            hidden = {Card.parse(c) for c in ann.view["hand"] + bob.view["hand"]}
            public = {k: v for k, v in watcher.state.items() if k != "last_hand"}
            dealt = watcher.view["dealt_trump_card"]
            trump = {Card.parse(dealt)} if dealt else set()
            assert not (cards_mentioned(public) & hidden) - trump
            assert not (cards_mentioned(bob.view["hand"]) & {Card.parse(c) for c in ann.view["hand"]})
            if finished(ann.state or {}):
                break
            mover = ann if ann.my_turn else bob
            assert mover.my_turn
            mover.act_random(rng)
        assert finished(bob.state or {}) and finished(watcher.state or {})
        assert bob.state is not None and bob.state["game"]["winner"] in (0, 1)
    # Both processes list it as finished (one database).
    assert game["id"] in [g["id"] for g in two.get("/api/games")["finished"]]


def test_a_bad_token_through_the_other_process_is_refused(servers: tuple[Server, Server]) -> None:
    one, two = servers
    game = one.post("/api/games", {"kind": "person", "name": "Ann"})
    from websockets.exceptions import ConnectionClosed

    with real_socket(two.base, game["id"]) as sock:
        sock.send_json({"type": "hello", "token": "forged-token"})
        assert sock.receive_json()["code"] == "bad_token"
        with pytest.raises(ConnectionClosed) as closed:
            sock.receive_json()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_a_game_of_a_shard_nobody_serves_that_was_never_made_is_refused_at_once(
        servers: tuple[Server, Server]) -> None:
    one, _ = servers
    from websockets.exceptions import ConnectionClosed

    with real_socket(one.base, "s7-nosuchgame") as sock:  # no process holds shard 7
        sock.send_json({"type": "hello", "token": None})
        assert sock.receive_json()["code"] == "no_game"  # not kept waiting for a takeover
        with pytest.raises(ConnectionClosed) as closed:
            sock.receive_json()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


# A process killed, its games taken over, then handed back --------------------------------

@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[str]:
    """A Redis of the test's own: the module's processes listen on the same shards' channels."""
    with redis_server(tmp_path) as url:
        yield url


def test_a_killed_process_s_games_are_taken_over_and_handed_back(database_url: str, own_redis: str,
                                                                tmp_path: Path) -> None:
    args = ("--redis-url", own_redis, "--lease", "3")
    one = Server(database_url, tmp_path / "one.log", "--shard", "1", *args)
    two = Server(database_url, tmp_path / "two.log", "--shard", "2", *args)
    try:
        game = one.post("/api/games", {"kind": "person", "rules": "classic,target=3", "name": "Ann",
                                       "clock": "5+3"})
        gid = game["id"]
        joined = one.post(f"/api/games/{gid}/join", {"name": "Bob"})
        tokens = (game["token"], joined["token"])
        computer = one.post("/api/games", {"kind": "computer", "level": "random",
                                           "rules": "classic,target=3", "name": "Cleo"})
        rng = random.Random(11)
        ann = real_client(one.base, gid, tokens[0], 0)
        bob = real_client(two.base, gid, tokens[1], 1)  # relayed by process 2
        play((ann, bob), rng, 6)
        ann.send({"type": "chat", "text": "well played"})
        bob.sync()
        assert [m["text"] for m in bob.messages if m["type"] == "chat"] == ["well played"]
        before = (position(ann), position(bob))

        one.kill()  # kill -9: nothing released, nothing said
        assert closed_with(ann) in (None, 1006, 1011, 1012)
        # Process 2 takes shard 1 over once the lease runs out, and closes the clients it
        # relayed to the killed process (1012: they reconnect).
        assert closed_with(bob) == 1012
        ann, bob = seated(two, gid, tokens[0], 0), seated(two, gid, tokens[1], 1)
        assert (position(ann), position(bob)) == before  # where it stood, nothing lost
        bob.sync()
        assert [m["text"] for m in bob.messages if m["type"] == "chat"] == ["well played"]  # chat too
        assert two.get(f"/api/games/{gid}")["status"] == "playing"  # served by process 2 now
        play((ann, bob), rng, 6)

        # Process 1 comes back: process 2 hands shard 1 back (its clients reconnect).
        one = Server(database_url, tmp_path / "one-again.log", "--shard", "1", *args)
        assert closed_with(ann) == 1012 and closed_with(bob) == 1012
        ann, bob = seated(two, gid, tokens[0], 0), seated(one, gid, tokens[1], 1)
        play((ann, bob), rng, 3000)
        assert finished(ann.state or {}) and finished(bob.state or {})
        with pytest.raises(urllib.error.HTTPError) as refused:
            two.get(f"/api/games/{gid}/record")  # not process 2's any more: the next one is tried
        assert refused.value.code == 503 and json.load(refused.value)["code"] == "misdirected"
        record = one.get(f"/api/games/{gid}/record")
        replayed = replay(from_json(record))
        assert ann.state is not None
        assert list(replayed.score) == ann.state["game"]["score"] and replayed.winner in (0, 1)
        assert record["clock"] == "5+3"

        # The game against the computer went with its shard: it is played to its end.
        alone = seated(two, computer["id"], computer["token"], 0)
        for _ in range(3000):
            alone.sync()
            if finished(alone.state or {}):
                break
            if alone.my_turn:
                alone.act_random(rng)
            else:
                alone.recv()  # the computer's move comes
        assert finished(alone.state or {})
        for client in (ann, bob, alone):
            client.ws.close()
    finally:
        one.kill()
        two.kill()


@contextlib.contextmanager
def shards_1_and_2(database_url: str, tmp_path: Path, *args: str,
                   second: tuple[str, ...] = ()) -> Iterator[list[Server]]:
    """Processes serving shards 1 and 2 (``args`` to both, ``second`` to the second only);
    every server in the list is killed at the end, also one a test starts and adds."""
    servers = [Server(database_url, tmp_path / "one.log", "--shard", "1", *args)]
    try:
        servers.append(Server(database_url, tmp_path / "two.log", "--shard", "2", *args, *second))
        yield servers
    finally:
        for server in servers:
            server.kill()


def at_her_turn(owner: Server, via: Server) -> tuple[dict[str, Any], Client, tuple[Any, ...]]:
    """A game against the computer made on ``owner``, its player connected through ``via``
    and waiting at her turn (the computer may lead first), where nothing moves until she
    does: the game, her client and the position."""
    game = owner.post("/api/games", {"kind": "computer", "level": "random", "name": "Ann"})
    ann = real_client(via.base, game["id"], game["token"], 0)
    ann.until(lambda state: state["view"]["to_act"] == 0)
    return game, ann, position(ann)


def test_a_stopped_process_s_games_are_taken_over_at_once_and_handed_back_at_once(
        database_url: str, own_redis: str, tmp_path: Path) -> None:
    # Leases of an hour (a heartbeat every 12 minutes): only the processes' word on Redis
    # (a shard released, a shard wanted back) can move the game in time.
    args = ("--redis-url", own_redis, "--lease", "3600")
    with shards_1_and_2(database_url, tmp_path, *args) as servers:
        one, two = servers
        game, ann, at = at_her_turn(two, one)  # relayed to process 2
        two.stop()  # SIGTERM: its shard is released, its clients told to reconnect
        assert closed_with(ann) == 1012
        ann = seated(one, game["id"], game["token"], 0)
        assert position(ann) == at

        # Process 2 starts again (it is ready only once it holds its shard): process 1
        # hands the game back, and its player reconnects to where it stood.
        two = Server(database_url, tmp_path / "two-again.log", "--shard", "2", *args)
        servers.append(two)
        assert closed_with(ann) == 1012
        ann = seated(one, game["id"], game["token"], 0)  # relayed to process 2 again
        assert position(ann) == at
        with pytest.raises(urllib.error.HTTPError) as refused:
            one.get(f"/api/games/{game['id']}/record")
        assert json.load(refused.value)["code"] == "misdirected"  # not process 1's any more
        ann.ws.close()


def test_a_stopping_process_hands_its_games_over_and_ends_its_lobby_streams_at_once(
        database_url: str, own_redis: str, tmp_path: Path) -> None:
    # A lobby page's event stream never ends by itself, and the stopping process would
    # wait for it (here up to ten minutes) before its lifespan ends: its games must not
    # wait with it, and the stream is ended by the process itself.
    with shards_1_and_2(database_url, tmp_path, "--redis-url", own_redis, "--lease", "3600",
                        second=("--stop-wait", "600")) as (one, two):
        events = LobbyEvents(two.base)
        try:
            game, ann, at = at_her_turn(two, one)
            two.proc.send_signal(signal.SIGTERM)
            assert closed_with(ann) == 1012
            events.read_to_end()  # the page reconnects, through nginx to another process
            ann = seated(one, game["id"], game["token"], 0)  # process 1 took the game over
            assert position(ann) == at
            assert two.proc.wait(timeout=60) == 0  # nothing left to wait for: well within its 600 s
            assert "Traceback" not in two.log.read_text()  # nothing cut
            ann.ws.close()
        finally:
            events.close()


def test_a_player_reaching_a_game_nobody_serves_waits_on_the_connection_until_it_is_taken_over(
        database_url: str, own_redis: str, tmp_path: Path) -> None:
    with shards_1_and_2(database_url, tmp_path, "--redis-url", own_redis, "--lease", "6") as (one, two):
        game, ann, at = at_her_turn(two, two)
        two.kill()  # nobody serves shard 2 until its lease runs out (6 s from its last renewal)
        ann = real_client(one.base, game["id"], game["token"], 0)
        assert ann.state is None and ann.errors[-1]["code"] == "unavailable"  # told, and kept waiting
        while ann.state is None:  # on the same connection: process 1 takes the shard over
            ann.recv()
        assert position(ann) == at
        ann.ws.close()


def test_a_game_made_on_one_process_is_pushed_to_lobbies_on_the_other(servers: tuple[Server, Server]) -> None:
    one, two = servers
    events = LobbyEvents(two.base)
    try:
        game = one.post("/api/games", {"kind": "person", "name": "Dora"})
        assert events.next_event() == "lobby"  # pushed, not polled: the page reads the lobby again
        assert game["id"] in [g["id"] for g in two.get("/api/games")["open"]]
    finally:
        events.close()
