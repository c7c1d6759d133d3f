"""What the fuzzers feed, and what must hold for every input.

A target is a Hypothesis strategy of inputs that are plain JSON values (so that
a failing one can be kept in ``fuzz/corpus/TARGET/`` and replayed as a test)
and a ``check`` that raises ``AssertionError`` (or anything else) when the code
under test misbehaves on that input:

- ``records``: the text of a game record (a real one, mutated, or any text):
  ``record.loads`` and ``replay`` give a result or an ``InvalidRecordError``
  naming what is wrong, and ``sixtysix replay`` exits 0 or 2 without a traceback;
- ``rest``: a request to the server's REST routes with any body: never a 500,
  every refusal in the one error format ``{"error", "code"}`` (with ``"text"`` and ``"args"``,
  the sentence a page words, where the server has them);
- ``websocket``: messages of two players over the WebSocket: each is applied
  (if it is a legal action of the seat to act) or refused with an error that
  changes nothing, and the connection keeps answering;
- ``engine``: lines from a host to ``sixtysix engine``: every line it writes
  back is a protocol message, and an ``action`` only answers a ``go``;
- ``host``: lines from an engine to its host: the host gets an action, an
  ``IllegalReply`` or an ``EngineError``, within the time it allows.

Standard library, Hypothesis and the package; the web targets need the web extra.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import shlex
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from sixtysix.bots import RandomBot
from sixtysix.errors import InvalidRecordError
from sixtysix.game.actions import Action
from sixtysix.game.match import Match
from sixtysix.game.record import dumps, loads, record_from_hand, record_from_match, replay
from sixtysix.play.runner import play_hand, play_match
from sixtysix.rules import Rules

__all__ = ["TARGETS", "Target"]


@dataclass(frozen=True)
class Target:
    """A fuzzing target: its inputs and what must hold for each."""

    name: str
    inputs: st.SearchStrategy[Any]
    check: Callable[[Any], None]
    #: What the target needs beyond the core (``web``), if anything.
    needs: str | None = None


# Pieces ---------------------------------------------------------------------------------

TOKENS = ["KH", "KH+", "QS", "X", "C", "D", "66", "66+H", "9C", "TD", "AS", "kh", "", "ZZ", "66+", "+",
          "KH++", "10H", "JD", "QD+", "66+C"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.integers(),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=12),
                    st.sampled_from(TOKENS))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def nested(depth: int, leaf: Any = 0) -> Any:
    """A list nested ``depth`` deep."""
    value: Any = leaf
    for _ in range(depth):
        value = [value]
    return value


def nested_text(depth: int) -> str:
    """JSON text nested ``depth`` deep (the shape that once crashed ``replay``), written
    out directly: no encoder recursion."""
    return "[" * depth + "0" + "]" * depth


#: A message as sent: text (JSON or not), or bytes kept in JSON as ``{"bytes": base64}``.
def as_wire(message: str | dict[str, str]) -> str | bytes:
    if isinstance(message, dict):
        return base64.b64decode(message["bytes"])
    return message


wire = st.one_of(
    values.map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=200).map(lambda b: {"bytes": base64.b64encode(b).decode()}),
    st.integers(0, 40).map(lambda n: nested_text(n * 25)),
)


# Records --------------------------------------------------------------------------------

@cache
def real_records() -> tuple[Any, ...]:
    """Records of real games (JSON objects): matches and single hands, under several rules."""
    found: list[Any] = []
    for seed, preset in enumerate(["classic", "santase", "schnapsen", "classic,target=3"]):
        rules = Rules.parse(preset)
        match = play_match([RandomBot(seed=seed), RandomBot(seed=seed + 9)], seed=seed, rules=rules)
        found.append(json.loads(dumps(record_from_match(match))))
        hand = play_hand(Match(rules, seed=seed).deal(), [RandomBot(seed=1), RandomBot(seed=2)])
        found.append(json.loads(dumps(record_from_hand(hand))))
    return tuple(found)


#: One change to a JSON value: a path (indices taken modulo what is there) and what to do.
mutations = st.tuples(st.lists(st.integers(0, 50), max_size=5),
                      st.sampled_from(["set", "delete", "insert", "append", "swap", "truncate", "nest"]),
                      values)


def mutate(obj: Any, path: list[int], op: str, value: Any) -> Any:
    """``obj`` with one change at ``path`` (a copy where it changed)."""
    if path and isinstance(obj, (list, dict)) and obj:
        keys = list(range(len(obj))) if isinstance(obj, list) else list(obj)
        key = keys[path[0] % len(keys)]
        copy = list(obj) if isinstance(obj, list) else dict(obj)
        if len(path) == 1 and op == "delete":
            del copy[key]
            return copy
        copy[key] = mutate(copy[key], path[1:], op, value)
        return copy
    if op == "append" and isinstance(obj, list):
        return [*obj, value]
    if op == "insert" and isinstance(obj, dict):
        return {**obj, str(value)[:12]: value}
    if op == "swap" and isinstance(obj, list) and len(obj) > 1:
        i, j = (len(path) * 7) % len(obj), len(obj) - 1
        copy = list(obj)
        copy[i], copy[j] = copy[j], copy[i]
        return copy
    if op == "truncate" and isinstance(obj, (list, str)):
        return obj[: len(obj) // 2]
    if op == "nest":
        return nested(40, obj)
    return value


record_texts = st.one_of(
    st.tuples(st.integers(0, 7), st.lists(mutations, min_size=1, max_size=4), st.integers(-1, 2000)).map(
        lambda t: _mutated_text(*t)),
    values.map(json.dumps),
    st.text(max_size=300),
    st.integers(1, 100).map(lambda n: nested_text(n * 30)),
)


def _mutated_text(which: int, changes: list[tuple[list[int], str, Any]], cut: int) -> str:
    records = real_records()
    obj = records[which % len(records)]
    for path, op, value in changes:
        obj = mutate(obj, path, op, value)
    text = json.dumps(obj)
    return text[:cut] if 0 <= cut < len(text) else text


def check_record(text: str) -> None:
    try:
        record = loads(text)
    except InvalidRecordError as exc:
        assert str(exc), "an InvalidRecordError without a message"
        return
    try:
        result = replay(record)
    except InvalidRecordError as exc:
        assert str(exc), "an InvalidRecordError without a message"
        return
    # A record that replays reads back the same after writing.
    assert replay(loads(dumps(record))).to_json() == result.to_json()


def check_replay_command(text: str) -> None:
    """``sixtysix replay FILE``: exit 0 or 2, no traceback, the file named in an error."""
    from sixtysix.cli import main

    check_record(text)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "fuzzed.json"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["replay", str(path)])
    assert status in (0, 2), f"exit status {status}"
    assert "Traceback" not in err.getvalue()
    if status == 2:
        assert "fuzzed.json" in err.getvalue(), err.getvalue()


# The server: REST and WebSocket ---------------------------------------------------------

@contextlib.contextmanager
def _open_app() -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from sixtysix.server import Settings, create_app

    settings = Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6, create_rate=1e6,
                        create_burst=1e6, unfinished_per_client=1_000_000)
    app = create_app(settings)
    # Accounts' hashes with cheap argon2 parameters: the fuzzer registers and logs in a lot.
    from argon2 import PasswordHasher

    app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    with TestClient(app, raise_server_exceptions=True) as client:
        yield client


_APP: list[Any] = []


def app() -> Any:
    """One in-memory server for every input of a run (entered once, closed at exit)."""
    if not _APP:
        import atexit

        manager = _open_app()
        _APP.append(manager.__enter__())
        atexit.register(manager.__exit__, None, None, None)
    return _APP[0]


REST_PATHS = ["/api/games", "/api/games/{id}/join", "/api/games/{id}", "/api/games/{id}/record",
              "/api/games/{id}/replay", "/api/games/nope/join", "/api/games/{id}x", "/api/opponents",
              "/cards/AS.svg", "/cards/../x.svg", "/api/account", "/api/account/register",
              "/api/account/login", "/api/account/logout", "/api/account/password"]
#: Names and passwords, some of them valid (the accounts' routes), some not.
account_texts = st.sampled_from(["Ann", "ann", "Ａｎｎ", "guest", "correct horse", "x", "Ann\u0301"]) | \
    st.text(max_size=30)
CONTENT_TYPES = ["application/json", "text/plain", "application/x-www-form-urlencoded", ""]

rest_requests = st.fixed_dictionaries({
    "method": st.sampled_from(["POST", "POST", "GET", "PUT", "DELETE"]),
    "path": st.sampled_from(REST_PATHS),
    "content_type": st.sampled_from(CONTENT_TYPES),
    "body": st.one_of(
        st.fixed_dictionaries({}, optional={
            "kind": st.sampled_from(["person", "computer", "x"]) | values,
            "level": st.sampled_from(["easy", "hard", "nope"]) | values,
            "rules": st.sampled_from(["classic", "santase,target=3", "x"]) | values,
            "target": values, "name": values | account_texts, "seat": values,
            "password": values | account_texts, "old": account_texts, "new": account_texts}).map(json.dumps),
        values.map(json.dumps),
        st.text(max_size=200),
        st.integers(1, 60).map(lambda n: nested_text(n * 20)),
        st.integers(1, 40).map(lambda n: json.dumps({"name": "x" * (n * 1000)})),
    ),
})


def check_rest(request: dict[str, Any]) -> None:
    client = app()
    game = client.post("/api/games", json={"kind": "person"}).json()
    path = request["path"].replace("{id}", game["id"])
    headers = {"Content-Type": request["content_type"]} if request["content_type"] else {}
    body = request["body"].encode("utf-8", "surrogatepass")
    response = client.request(request["method"], path, content=body, headers=headers)
    assert response.status_code < 500, f"{response.status_code}: {response.text[:200]}"
    if response.status_code >= 400 and not path.startswith("/cards/"):
        body = response.json()
        assert {"error", "code"} <= set(body) <= {"error", "code", "text", "args"}, body
        assert isinstance(body["error"], str) and body["error"]
        assert isinstance(body["code"], str) and body["code"]
        assert isinstance(body.get("text", ""), str) and isinstance(body.get("args", {}), dict), body


websocket_steps = st.lists(st.tuples(st.booleans(), st.booleans(), wire), min_size=1, max_size=8)


def check_websocket(steps: list[tuple[bool, bool, Any]]) -> None:
    """Two players; each step: which seat sends, whether it plays a legal action
    instead (to meet many states), the message."""
    from server_support import connect  # type: ignore[import-not-found,unused-ignore]  # tests/

    client = app()
    created = client.post("/api/games", json={"kind": "person", "rules": "classic"}).json()
    joined = client.post(f"/api/games/{created['id']}/join", json={}).json()
    gens = [connect(client, created["id"], created["token"], 0),
            connect(client, created["id"], joined["token"], 1)]
    players = [next(g) for g in gens]
    try:
        for p in players:
            p.sync()
        for second, legal, message in steps:
            p = players[int(second)]
            p.sync()  # up to date: the other seat's last message may have moved the game
            if legal and p.my_turn:
                p.act(p.view["legal"][0])
                p.sync()
                continue
            before, errors = p.state, len(p.errors)
            p.send(as_wire(message))
            p.sync()  # still open and answering
            if len(p.errors) > errors:
                error = p.errors[-1]
                assert isinstance(error["reason"], str) and error["reason"] and error["code"]
                assert p.state == before, "a refused message changed the game"
    finally:
        for g in gens:
            g.close()


# The bot protocol -----------------------------------------------------------------------

HOST_COMMANDS = ["sixtysix 1", "sixtysix 2", "isready", "setoption seed 3", "setoption nope 1",
                 "newmatch seat 0 target 7 rules classic", "newmatch seat 1 target 7 rules santase",
                 "newhand seat 0 dealer 1 trump QD stock 12 hand AC JD TD AD 9S QS",
                 "event 0 9H", "event 1 9S", "drew AH", "go time 100 legal AC JD", "go legal 9S",
                 "result 0 2 declared points 75 26", "matchresult 0 7 3", "quit", "view {}",
                 "view {\"seat\": 0}", "go", "event", "newhand", ""]

host_lines = st.lists(st.one_of(st.sampled_from(HOST_COMMANDS), st.text(max_size=80),
                                 st.lists(st.sampled_from(TOKENS + HOST_COMMANDS), max_size=8).map(" ".join)),
                      max_size=25)


def check_engine(lines: list[str]) -> None:
    """Our engine (``sixtysix engine random``) fed any host lines."""
    from sixtysix.protocol import ProtocolError, parse
    from sixtysix.protocol.engine import serve
    from sixtysix.protocol.messages import ActionReply

    clean = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    stdin = io.StringIO("".join(f"{line}\n" for line in clean))
    stdout = io.StringIO()
    serve("random", stdin, stdout)
    goes = sum(1 for line in clean if line.split()[:1] == ["go"])
    actions = 0
    for line in stdout.getvalue().split("\n")[:-1]:
        try:
            message = parse(line)
        except ProtocolError as exc:
            raise AssertionError(f"the engine wrote a line that is no message: {line!r} ({exc})") from None
        actions += isinstance(message, ActionReply)
    assert actions <= goes, "an action that answers no go"


engine_lines = st.lists(st.one_of(
    st.sampled_from(["action 9C", "action AS", "action ZZ", "action", "readyok", "info x", "error x y",
                     "id name x", "ready", "option seed none", "", "action 9C 9C"]),
    st.text(max_size=60),
    st.integers(1, 100).map(lambda n: "x" * (n * 1000)),
), max_size=30)

_FAKE_ENGINE = """
import json, sys
lines = json.loads(sys.argv[1])
for line in sys.stdin:
    if line.startswith("sixtysix"):
        print("id name fuzz\\nready", flush=True)
    elif line.startswith("isready"):
        print("readyok", flush=True)
    elif line.startswith("go"):
        sys.stdout.write("".join(l + "\\n" for l in lines) + "action 9C\\n")
        sys.stdout.flush()
    elif line.startswith("quit"):
        break
"""


def check_host(lines: list[str]) -> None:
    """The host's side (``AsyncEngine.go``, twice) against an engine that writes ``lines``
    at each ``go``: an action among the legal ones, or an engine error, in bounded time."""
    from sixtysix.protocol import AsyncEngine, EngineError, IllegalReply

    clean = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    legal = [Action.parse("9C"), Action.parse("AS")]

    async def scenario() -> None:
        engine = AsyncEngine([sys.executable, "-c", _FAKE_ENGINE, json.dumps(clean)], turn_lines=50,
                             turn_bytes=200_000, send_timeout=2)
        try:
            await engine.start()
            for _ in range(2):
                try:
                    action = await engine.go(legal, timeout=2)
                except IllegalReply as exc:
                    assert "legal: 9C AS" in str(exc)
                except EngineError:
                    return
                else:
                    assert action in legal
        except EngineError:
            pass
        finally:
            await engine.quit()

    asyncio.run(asyncio.wait_for(scenario(), 30))


TARGETS: dict[str, Target] = {t.name: t for t in [
    Target("records", record_texts, check_replay_command),
    Target("rest", rest_requests, check_rest, needs="web"),
    Target("websocket", websocket_steps, check_websocket, needs="web"),
    Target("engine", host_lines, check_engine),
    Target("host", engine_lines, check_host),
]}


def command_line(target: str) -> str:
    """How to fuzz ``target`` by hand (for messages)."""
    return shlex.join(["python", "fuzz/run.py", target, "--seconds", "600"])
