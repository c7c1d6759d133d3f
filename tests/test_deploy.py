"""The docker-free recipe in deploy/ (docs/web.md, "Running several server processes"),
tried as an operator would run it: the Procfile's processes (their ports moved to free
ones), Redis, and nginx with deploy/nginx.conf in front. Through nginx, games made on
any process are joined, played to the end over WebSockets and their records fetched:
each request that names a game reaches the process of its id's prefix."""

from __future__ import annotations

import random
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import need, need_module

need_module("redis", "the scale extra")
need_module("websockets", "the test extra")

from server_support import (  # noqa: E402
    Http,
    LobbyEvents,
    Server,
    closed_with,
    finished,
    free_port,
    play,
    position,
    real_seat,
    redis_server,
    seated,
)
from sixtysix.game.record import from_json, replay  # noqa: E402

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


class Front(Http):
    """nginx in front, and the server processes behind it (in deploy/Procfile's order)."""

    def __init__(self, base: str, servers: list[Server]) -> None:
        super().__init__(base)
        self.servers = servers


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    need(Path(nginx).exists(), "no nginx (.ci/run installs Debian's)")
    folder = tmp_path_factory.mktemp("deploy")
    with redis_server(folder) as redis_url:
        yield from _stack(nginx, folder, redis_url)


def _stack(nginx: str, folder: Path, redis_url: str) -> Iterator[Front]:
    env = {"DATABASE_URL": f"sqlite:///{folder / 'games.db'}", "REDIS_URL": redis_url}
    config = (DEPLOY / "nginx.conf").read_text()
    servers: list[Server] = []
    proxy: subprocess.Popen[bytes] | None = None
    try:
        for line in (DEPLOY / "Procfile").read_text().splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            name, _, command = line.partition(":")
            words = shlex.split(command)
            assert words[:2] == ["sixtysix", "serve"], line
            port = words[words.index("--port") + 1]
            args = [env.get(w[1:], w) if w.startswith("$") else w for w in words[2:]]
            del args[args.index("--port"):args.index("--port") + 2]
            del args[args.index("--database-url"):args.index("--database-url") + 2]
            # A short lease: the test below waits for a killed process's games to be taken over.
            server = Server(env["DATABASE_URL"], folder / f"{name}.log", *args, "--lease", "1")
            servers.append(server)
            config = re.sub(rf"127\.0\.0\.1:{port}\b", f"127.0.0.1:{server.port}", config)
        assert len(servers) == 3 and not re.search(r"127\.0\.0\.1:810\d\b", config)
        listen = free_port()
        config = config.replace("listen 8066;", f"listen 127.0.0.1:{listen};")
        (folder / "sixtysix.conf").write_text(config)
        for sub in ("body", "proxy"):
            (folder / sub).mkdir()
        (folder / "main.conf").write_text(
            f"worker_processes 1;\nerror_log {folder / 'error.log'};\npid {folder / 'nginx.pid'};\n"
            "events { worker_connections 256; }\n"
            f"http {{ access_log off; client_body_temp_path {folder / 'body'}; "
            f"proxy_temp_path {folder / 'proxy'}; include {folder / 'sixtysix.conf'}; }}\n")
        if sys.platform.startswith("linux"):
            subprocess.run(["chmod", "-R", "a+rwx", str(folder)], check=True)
        proxy = subprocess.Popen([nginx, "-p", str(folder), "-c", str(folder / "main.conf"),
                                  "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{listen}"
        for _ in range(600):  # until nginx answers (bounded)
            if proxy.poll() is not None:
                raise AssertionError(f"nginx exited: {(folder / 'error.log').read_text()}")
            try:
                with urllib.request.urlopen(base + "/api/games", timeout=5):
                    break
            except (urllib.error.URLError, OSError):
                time.sleep(0.05)
        yield Front(base, servers)
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=30)
        for server in servers:
            server.kill()


def test_games_made_anywhere_are_played_through_nginx_on_their_process(stack: Front) -> None:
    games = [stack.post("/api/games", {"kind": "person", "rules": "classic,target=1", "name": f"A{n}"})
             for n in range(6)]
    shards = {g["id"].split("-")[0] for g in games}
    assert len(shards) >= 2  # nginx spread the new games over the processes
    rng = random.Random(6)
    for game in games[:3]:
        gid = game["id"]
        joined = stack.post(f"/api/games/{gid}/join", {"name": "B"})  # routed to the owner
        with real_seat(stack, gid, game["token"], 0) as ann, real_seat(stack, gid, joined["token"], 1) as bob:
            for _ in range(3000):
                ann.sync()
                bob.sync()
                if finished(ann.state or {}):
                    break
                (ann if ann.my_turn else bob).act_random(rng)
            assert finished(bob.state or {})
        record = stack.get(f"/api/games/{gid}/record")
        assert record["players"] == [f"A{games.index(game)}", "B"]
    # Every process's games are in every lobby.
    assert {g["id"] for g in games[:3]} <= {g["id"] for g in stack.get("/api/games")["finished"]}


def test_two_players_asking_for_a_quick_pairing_meet_whichever_process_they_reach(stack: Front) -> None:
    """Players waiting for an opponent are sent to one process (deploy/nginx.conf), so two
    arriving through nginx are paired together, not each with the computer."""
    answers: list[dict[str, object]] = []

    def ask(name: str) -> None:
        answers.append(stack.post("/api/pairing", {"name": name, "rules": "classic", "wait": 30.0}))

    threads = [threading.Thread(target=ask, args=(name,)) for name in ("Ann", "Bob")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert len(answers) == 2
    assert answers[0]["id"] == answers[1]["id"] and {a["opponent"] for a in answers} == {"person"}
    assert {a["seat"] for a in answers} == {0, 1}
    if stack.servers[0].proc.poll() is None:  # made by the process they waited on: the first
        assert str(answers[0]["id"]).startswith("s1-")


def test_lobby_pages_behind_nginx_hear_of_games_made_on_any_process(stack: Front) -> None:
    pages = [LobbyEvents(stack.base) for _ in range(3)]  # nginx spreads them over the processes
    try:
        for n in range(3):  # and the games too
            stack.post("/api/games", {"kind": "person", "name": f"Lobby{n}"})
            for page in pages:  # nothing held back by nginx; every process tells its pages
                assert page.next_event() == "lobby"
    finally:
        for page in pages:
            page.close()


def test_a_killed_process_s_game_goes_on_through_nginx(stack: Front) -> None:
    """Last in this file: it kills the first process for good."""
    for _ in range(60):  # new games go to any process: make one on the first
        game = stack.post("/api/games", {"kind": "person", "rules": "classic,target=3", "name": "Ann"})
        if game["id"].startswith("s1-"):
            break
    else:
        raise AssertionError("nginx never chose the first process")
    gid = game["id"]
    joined = stack.post(f"/api/games/{gid}/join", {"name": "Bob"})
    tokens = (game["token"], joined["token"])
    rng = random.Random(8)
    ann, bob = seated(stack, gid, tokens[0], 0), seated(stack, gid, tokens[1], 1)
    play((ann, bob), rng, 5)
    at = (position(ann), position(bob))
    stack.servers[0].kill()
    closed_with(ann), closed_with(bob)
    # Through nginx again: process 1 refuses the connection, the next process serves the
    # game once its lease ran out, or relays to the one that does.
    ann, bob = seated(stack, gid, tokens[0], 0), seated(stack, gid, tokens[1], 1)
    assert (position(ann), position(bob)) == at
    play((ann, bob), rng, 3000)
    assert finished(ann.state or {}) and finished(bob.state or {})
    record = stack.get(f"/api/games/{gid}/record")  # nginx tries the processes until one serves it
    assert record["players"] == ["Ann", "Bob"] and replay(from_json(record)).finished
    for client in (ann, bob):
        client.ws.close()



def test_players_waiting_for_an_opponent_meet_while_their_process_is_down(stack: Front) -> None:
    """After the kill above: the first process, where waiting players are sent, is down.
    nginx must then send every one of them to the same other process (deploy/nginx.conf's
    sixtysix_waiting); backup servers would take turns, and the two would never meet."""
    assert stack.servers[0].proc.poll() is not None
    test_two_players_asking_for_a_quick_pairing_meet_whichever_process_they_reach(stack)
