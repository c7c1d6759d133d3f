"""Support for the server tests: optional components, a test client per app, players over WebSockets."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from helpers import need, need_module
from sixtysix.cli.serve import TASKS_DUMPED
from sixtysix.game.cards import CARDS, Card

CARD_TOKEN = re.compile(r"^([9TJQKA][CDHS])\+?$")
SEPARATORS = re.compile(r"[\s;:,()\[\]'\"]+")




DATABASES = ["sqlite", "postgresql"]


class ManualTime:
    """A clock a test moves by hand: the server reads the time by calling it, and the
    test advances ``t`` (seconds)."""

    def __init__(self, t: float = 1_800_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def worker_database_url(url: str, worker: str) -> str:
    """``url`` with a PostgreSQL schema of its own for the pytest-xdist worker ``worker``
    (``gw0``, ...), created if need be: workers running at once drop and create their
    tables each in their own schema, never in another's."""
    import sqlalchemy

    schema = f"xdist_{worker}"
    engine = sqlalchemy.create_engine(url)
    with engine.begin() as connection:
        connection.execute(sqlalchemy.text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
    engine.dispose()
    options = sqlalchemy.engine.make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
    return options.render_as_string(hide_password=False)


def database_for(kind: str, tmp_path: Any) -> Iterator[str]:
    """A database for one test (a fixture's body): a SQLite file, or PostgreSQL if
    ``SIXTYSIX_TEST_POSTGRES_URL`` is set (required in CI, where ``.ci/run`` starts a
    server), its tables dropped first."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    url = os.environ.get("SIXTYSIX_TEST_POSTGRES_URL")
    need(bool(url), "no PostgreSQL server: set SIXTYSIX_TEST_POSTGRES_URL (.ci/run starts one)")
    need_module("psycopg", "the postgres extra")
    assert url is not None
    import sqlalchemy

    from sixtysix.server.storage import Storage

    storage = Storage(url)
    # Every table there, not only ours: a database left by another version of the
    # schema (with a table that refers to ours) must not break the test.
    tables = sqlalchemy.MetaData()
    tables.reflect(storage.engine)
    tables.drop_all(storage.engine)
    storage.close()
    yield url


def cards_mentioned(message: Any, skip_keys: frozenset[str] = frozenset({"id", "rematch", "link", "token"})
                    ) -> set[Card]:
    """Every card named anywhere in a JSON message (keys holding ids are left out)."""
    found: set[Card] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in skip_keys:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str):
            for token in SEPARATORS.split(value):
                match = CARD_TOKEN.match(token)
                if match:
                    found.add(Card.parse(match.group(1)))

    walk(message)
    return found


ALL_CARDS = frozenset(CARDS)


class Client:
    """One WebSocket connection of a test: it keeps every message it was sent."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        elif message["type"] == "error":
            self.errors.append(message)
        return message

    def send(self, message: Any) -> None:
        if isinstance(message, str | bytes):
            if isinstance(message, bytes):
                self.ws.send_bytes(message)
            else:
                self.ws.send_text(message)
        else:
            self.ws.send_json(message)

    def sync(self) -> None:
        """Read everything sent before the answer to a ping of our own: the connection is then
        up to date (a ping sent by a test itself gets its own, different answer)."""
        self._pings = getattr(self, "_pings", 0) + 1
        mark = f"sync-{self._pings}"
        self.send({"type": "ping", "id": mark})
        while True:
            message = self.recv()
            if message["type"] == "pong" and message.get("id") == mark:
                return

    def request(self, message: Any) -> dict[str, Any]:
        """Send a message that gets a direct reply (an error); returns the reply."""
        before = len(self.errors)
        self.send(message)
        self.sync()
        assert len(self.errors) == before + 1, f"expected one error reply to {message!r}"
        return self.errors[-1]

    def until(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Read until the latest state satisfies ``predicate``."""
        while self.state is None or not predicate(self.state):
            self.recv()
        assert self.state is not None
        return self.state

    @property
    def view(self) -> dict[str, Any]:
        assert self.state is not None and self.state["view"] is not None
        return self.state["view"]

    @property
    def my_turn(self) -> bool:
        return self.state is not None and self.state["game"]["status"] == "playing" and \
            self.view["to_act"] == self.seat

    def act(self, action: str) -> None:
        assert self.state is not None
        game = self.state["game"]
        self.send({"type": "act", "action": action, "hand": game["hand_number"], "index": game["actions"]})

    def act_random(self, rng: random.Random) -> str:
        action = rng.choice(self.view["legal"])
        self.act(action)
        return action


def connect(client: Any, game_id: str, token: str | None, seat: int | None) -> Iterator[Client]:
    """A connected client (a context manager's generator)."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        conn = Client(ws, seat)
        conn.recv()
        yield conn


@contextlib.contextmanager
def real_socket(base: str, game_id: str) -> Iterator[RealSocket]:
    """A WebSocket to ``/ws/GAME`` of the server at ``base`` (``http://host:port``)."""
    sock = RealSocket(base.replace("http://", "ws://") + f"/ws/{game_id}")
    try:
        yield sock
    finally:
        sock.close()


@contextlib.contextmanager
def real_seat(server: Any, game_id: str, token: str | None, seat: int | None) -> Iterator[Client]:
    """A :class:`Client` over a real WebSocket to ``server`` (a :class:`Server`, or
    anything with a ``base``), introduced with ``token``."""
    with real_socket(server.base, game_id) as sock:
        sock.send_json({"type": "hello", "token": token})
        client = Client(sock, seat)
        client.recv()
        yield client


def finished(state: dict[str, Any]) -> bool:
    return bool(state["game"]["status"] == "finished")


class RealSocket:
    """A WebSocket to a real server (the ``websockets`` client), with the test client's methods."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect as ws_connect

        self._ws = ws_connect(url, open_timeout=30, max_size=2**22).__enter__()  # closed by close()

    def receive_json(self) -> Any:
        # The timeout only stops a broken test from hanging; nothing is timed.
        return json.loads(self._ws.recv(timeout=float(os.environ.get("WS_TIMEOUT", "60"))))

    def send_json(self, obj: Any) -> None:
        self._ws.send(json.dumps(obj))

    def send_text(self, text: str) -> None:
        self._ws.send(text)

    def send_bytes(self, data: bytes) -> None:
        self._ws.send(data)

    def close(self) -> None:
        self._ws.close()


def real_client(base: str, game_id: str, token: str | None, seat: int | None) -> Client:
    """A connected client of a server running at ``base`` (``http://host:port``)."""
    ws = RealSocket(base.replace("http://", "ws://") + f"/ws/{game_id}")
    ws.send_json({"type": "hello", "token": token})
    client = Client(ws, seat)
    client.recv()
    return client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Http:
    """JSON over HTTP to a server at ``base`` (``http://host:port``): a process, or a proxy."""

    def __init__(self, base: str) -> None:
        self.base = base

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(self.base + path, json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            data: dict[str, Any] = json.load(r)
            return data

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=30) as r:
            return json.load(r)


class Server(Http):
    """``sixtysix serve`` as a child process."""

    def __init__(self, database_url: str, log: Path, *extra: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = dict(os.environ, SIXTYSIX_LOG_LEVEL="warning")
        with open(log, "w") as out:  # a file, not a pipe: a chatty server never blocks on it
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "sixtysix", "serve", "--port", str(self.port),
                 "--database-url", database_url, "--message-rate", "10000", *extra],
                env=env, stdout=out, stderr=subprocess.STDOUT, text=True)
        self._wait_ready()
        assert f"http://localhost:{self.port}/" in log.read_text()

    def _wait_ready(self) -> None:
        # Poll until the socket answers (bounded): the process prints before it listens.
        for _ in range(600):
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(self.base + "/api/games", timeout=5) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.05)
        raise AssertionError("the server did not start")

    def get_text(self, path: str) -> str:
        with urllib.request.urlopen(self.base + path, timeout=30) as r:
            return str(r.read().decode("utf-8"))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        """Stop the process as an operator does (SIGTERM): it ends properly. One that
        does not fails the test with its threads' and tasks' stacks."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server did not stop:\n{self.stacks()}") from None

    def stacks(self) -> str:
        """What the running process is doing (``serve`` dumps its stacks on SIGUSR1 and
        SIGUSR2), then killed: the end of its log."""
        for sig in (signal.SIGUSR1, signal.SIGUSR2):
            self.proc.send_signal(sig)
        for _ in range(600):  # bounded: the dumps are written within moments
            if TASKS_DUMPED in self.log.read_text():  # the threads' dump comes first
                break
            time.sleep(0.05)
        self.kill()
        return self.log.read_text()[-20_000:]


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A ``redis-server`` of its own for a test (Debian's, installed by ``.ci/run``): its URL."""
    import shutil

    binary = shutil.which("redis-server")
    need(binary is not None, "no redis-server (.ci/run installs Debian's)")
    assert binary is not None
    need_module("redis", "the scale extra")
    import redis

    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", str(folder)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client = redis.Redis(port=port)
        for _ in range(600):  # until it answers (bounded)
            try:
                if client.ping():
                    break
            except redis.ConnectionError:
                time.sleep(0.05)
        else:
            raise AssertionError("redis-server did not start")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.kill()
        proc.wait(timeout=30)


# Processes stopping and games taken over (sixtysix.server.shards) -------------------------
def seated(server: Http, game_id: str, token: str | None, seat: int | None) -> Client:
    """A client seated through ``server`` once some process serves the game: while its shard
    is being taken over the process says so and the client waits (with Redis, the process
    holds the connection until a process takes the shard over), or the process closes and
    the client tries again (as the page does)."""
    from websockets.exceptions import ConnectionClosed

    for _ in range(600):
        client = real_client(server.base, game_id, token, seat)
        with contextlib.suppress(ConnectionClosed):
            while client.state is None and client.errors[-1:] and client.errors[-1]["code"] == "unavailable":
                client.recv()
        if client.state is not None:
            return client
        assert client.errors and client.errors[-1]["code"] in ("unavailable", "misdirected"), client.messages
        client.ws.close()
        time.sleep(0.05)
    raise AssertionError(f"nobody serves game {game_id}")


def closed_with(client: Client) -> int | None:
    """Read until the server closes the connection; its close code (``None``: no close frame)."""
    from websockets.exceptions import ConnectionClosed

    try:
        for _ in range(10_000):
            client.recv()
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code
    raise AssertionError("the connection stayed open")


def play(clients: tuple[Client, Client], rng: random.Random, moves: int) -> None:
    """Up to ``moves`` actions by whoever is to act (fewer if the match ends)."""
    mover: Client | None = None
    for _ in range(moves + 1):
        # The last mover first: his answer comes once the owner has applied his action (a
        # relayed player's messages take the longer way); then the other.
        for client in sorted(clients, key=lambda c: c is not mover):
            client.sync()
        if finished(clients[0].state or {}) or _ == moves:
            return
        mover = clients[0] if clients[0].my_turn else clients[1]
        assert mover.my_turn
        # No declaring at random: a false declaration ends a hand at once.
        legal = mover.view["legal"]
        mover.act(rng.choice([a for a in legal if a != "66"] or legal))


def position(client: Client) -> tuple[Any, ...]:
    assert client.state is not None
    game = client.state["game"]
    return game["hand_number"], game["actions"], tuple(client.view["hand"]), tuple(game["score"])


class LobbyEvents:
    """``GET /api/lobby/events`` of a server at ``base``, read as a browser's EventSource does."""

    def __init__(self, base: str) -> None:
        self.response = urllib.request.urlopen(base + "/api/lobby/events", timeout=60)
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        assert self.next_event() == "retry"

    def next_event(self) -> str:
        """The next event's name (``retry`` for the first, reconnection delay), skipping
        comments; the socket's timeout only stops a broken test from hanging."""
        lines: list[str] = []
        while True:
            line = self.response.readline().decode("utf-8")
            assert line, "the stream ended"
            if line.strip():
                lines.append(line.strip())
                continue
            if lines and not all(x.startswith(":") for x in lines):
                named = [x.partition(":")[2].strip() for x in lines if x.startswith("event:")]
                return named[0] if named else lines[0].partition(":")[0]
            lines = []

    def read_to_end(self) -> None:
        """Read until the server ends the stream (comments and events skipped). Bounded
        (a keep-alive comment comes every 25 s): a stream that does not end fails the test."""
        deadline = time.monotonic() + 60
        while self.response.readline():
            assert time.monotonic() < deadline, "the stream did not end"

    def close(self) -> None:
        self.response.close()
