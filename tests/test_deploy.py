"""The docker-free recipe in deploy/ (docs/web.md, "Running several server processes"),
tried as an operator would run it: the Procfile's processes (their ports moved to free
ones), Redis, and nginx with deploy/nginx.conf in front. Http nginx, games made on
any process are joined, played to the end over WebSockets and their records fetched:
each request that names a game reaches the process of its id's prefix."""

from __future__ import annotations

import random
import re
import shlex
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import need, need_module

need_module("redis", "the scale extra")
need_module("websockets", "the test extra")

from server_support import Http, Server, finished, free_port, real_seat  # noqa: E402

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Http]:
    nginx, redis_server = shutil.which("nginx") or "/usr/sbin/nginx", shutil.which("redis-server")
    need(Path(nginx).exists(), "no nginx (.ci/run installs Debian's)")
    need(redis_server is not None, "no redis-server (.ci/run installs Debian's)")
    assert redis_server is not None
    folder = tmp_path_factory.mktemp("deploy")
    redis_port = free_port()
    redis = subprocess.Popen([redis_server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                              "--appendonly", "no", "--dir", str(folder)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = {"DATABASE_URL": f"sqlite:///{folder / 'games.db'}", "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0"}
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
            server = Server(env["DATABASE_URL"], folder / f"{name}.log", *args)
            servers.append(server)
            config = config.replace(f"127.0.0.1:{port};", f"127.0.0.1:{server.port};")
        assert len(servers) == 3 and not re.search(r"127\.0\.0\.1:810\d;", config)
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
        yield Http(base)
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(timeout=30)
        for server in servers:
            server.kill()
        redis.kill()
        redis.wait(timeout=30)


def test_games_made_anywhere_are_played_through_nginx_on_their_process(stack: Http) -> None:
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
