"""Two server processes and Redis (docs/web.md, "Running several server processes"): the
players and a spectator of one game, connected to different processes, play a match to
its end; the relayed spectator sees no hidden card, the relayed player only his own."""

from __future__ import annotations

import random
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import need, need_module

need_module("redis", "the scale extra")
need_module("websockets", "the test extra")

from server_support import Server, cards_mentioned, finished, free_port, real_seat, real_socket  # noqa: E402
from sixtysix.cards import Card  # noqa: E402


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    binary = shutil.which("redis-server")
    need(binary is not None, "no redis-server (.ci/run installs Debian's)")
    assert binary is not None
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import redis

    client = redis.Redis(port=port)
    for _ in range(600):  # until it answers (bounded)
        try:
            if client.ping():
                break
        except redis.ConnectionError:
            time.sleep(0.05)
    else:
        proc.kill()
        raise AssertionError("redis-server did not start")
    yield f"redis://127.0.0.1:{port}/0"
    proc.kill()
    proc.wait(timeout=30)


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
