"""External engines as the web server's computer opponents (issue 6, part 1).

``sixtysix serve --engine NAME=COMMAND`` offers an engine (docs/protocol.md)
next to the levels. Games against it are played here over the WebSocket, in
process and against a real server process: a whole match against the bash
engine; an engine that crashes forfeits the hand (the player is told, the
record says so, a restart resumes it exactly); the lobby lists the engine by
name only; wrong ``--engine`` values are refused; the player's messages never
show the engine's cards; and no engine program outlives its game or the server.
"""

from __future__ import annotations

import logging
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from helpers import alive, need, need_module, start_time, started, wait_until_gone

need_module("fastapi", "the web extra")
from fastapi.testclient import TestClient  # noqa: E402

from server_support import (  # noqa: E402
    Client,
    Server,
    connect,
    finished,
    real_client,
)
from sixtysix.cli import main  # noqa: E402
from sixtysix.game.record import MatchRecord, loads, replay_json  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.opponents import COMPUTER_LEVELS, EngineOptionError  # noqa: E402
from test_server_hidden import check  # noqa: E402

player = contextmanager(connect)  # a connected client, closed at the end of a with block

ROOT = Path(__file__).resolve().parents[1]
BASH_SCRIPT = ROOT / "examples" / "random_engine.sh"
FAULTY = Path(__file__).resolve().parent / "engines" / "faulty_engine.py"
SETSID_CHILD = Path(__file__).resolve().parent / "engines" / "setsid_child.py"


def bash_engine(pids: Path | None = None) -> str:
    """The bash engine's command; with ``pids``, each program started appends its process id there."""
    need(shutil.which("bash") is not None, "bash is not installed")
    if pids is None:
        return shlex.join(["bash", str(BASH_SCRIPT)])
    script = f"echo $$ >> {shlex.quote(str(pids))}; exec bash {shlex.quote(str(BASH_SCRIPT))}"
    return shlex.join(["bash", "-c", script])


def setsid_engine(pids: Path, children: Path) -> str:
    """The bash engine, which first starts a child that leaves its session (``setsid``) and
    sleeps; the engine's process id goes to ``pids``, the child's to ``children``."""
    need(shutil.which("bash") is not None, "bash is not installed")
    child = shlex.join([sys.executable, str(SETSID_CHILD), str(children)])
    script = f"{child} & echo $$ >> {shlex.quote(str(pids))}; exec bash {shlex.quote(str(BASH_SCRIPT))}"
    return shlex.join(["bash", "-c", script])


def child_of_the_engine(children: Path) -> tuple[int, int | None]:
    """The process id of the child the engine started, once it wrote it (bounded), and when
    it started."""
    deadline = time.monotonic() + 30
    while not started(children):
        assert time.monotonic() < deadline, "the engine's child never wrote its process id"
        time.sleep(0.05)
    child = started(children)[0]
    return child, start_time(child)


def faulty_engine(mode: str, go: int, tmp_path: Path) -> str:
    """The test engine that misbehaves (``mode``) once, at its ``go``-th action."""
    return shlex.join([sys.executable, str(FAULTY), mode, str(go), str(tmp_path / f"{mode}.marker")])


def app_with(*engines: tuple[str, str]) -> TestClient:
    return TestClient(create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6,
                                          create_rate=1e6, create_burst=1e6, engines=engines)))


def new_game(c: TestClient, level: str, rules: str = "classic,target=3") -> dict[str, Any]:
    response = c.post("/api/games", json={"kind": "computer", "level": level, "rules": rules, "name": "Ann"})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def my_turn_or_over(state: dict[str, Any]) -> bool:
    return finished(state) or state["view"]["to_act"] == 0


def play_to_the_end(me: Client, rng: random.Random) -> dict[str, Any]:
    """The human (seat 0) plays random legal actions until the match is over."""
    while not finished(me.until(my_turn_or_over)):
        me.act_random(rng)
        me.sync()
    assert me.state is not None
    return me.state


def play_until_the_engine_started(me: Client, rng: random.Random, pids: Path, count: int) -> None:
    """Play until ``count`` engine programs were started in all (one starts at its seat's first turn)."""
    me.until(my_turn_or_over)
    while len(started(pids)) < count:
        me.act_random(rng)
        me.sync()
        me.until(my_turn_or_over)


# The lobby and the options -----------------------------------------------------------

def test_the_lobby_offers_the_levels_and_the_engines_by_name_only() -> None:
    command = bash_engine()
    with app_with(("bashbot", command)) as c:
        offered = c.get("/api/opponents")
        assert offered.status_code == 200
        data = offered.json()
        assert [o["name"] for o in data["opponents"]] == [*COMPUTER_LEVELS, "bashbot"]
        assert [o["kind"] for o in data["opponents"]][-1] == "engine"
        assert data["default"] in COMPUTER_LEVELS
        assert "random_engine" not in offered.text  # the command stays with the operator
        # The page has no list of its own: it asks the server.
        page = c.get("/").text
        assert "expert" not in page and "/api/opponents" in c.get("/static/lobby.js").text
        game = new_game(c, "bashbot")
        assert game["game"]["level"] == "bashbot" and game["game"]["players"][1] == "Computer (bashbot)"
        # Only the names can be picked: a command typed by a web user is no opponent.
        for level in ("engine:bash x.sh", "bash x.sh", "engine", "BASHBOT"):
            refused = c.post("/api/games", json={"kind": "computer", "level": level})
            assert refused.status_code == 400 and refused.json()["code"] == "bad_level", level
        assert c.post("/api/games", json={"kind": "computer", "level": "engine:" + command}).status_code \
            in (400, 422)
    with app_with() as c:  # without --engine: the levels only
        assert [o["name"] for o in c.get("/api/opponents").json()["opponents"]] == list(COMPUTER_LEVELS)
        assert c.post("/api/games", json={"kind": "computer", "level": "bashbot"}).status_code == 400


@pytest.mark.parametrize("value, why", [
    ("mybot", "expected NAME=COMMAND"),
    ("mybot=", "expected NAME=COMMAND"),
    ("=bash x.sh", "expected NAME=COMMAND"),
    ("expert=bash x.sh", "is a computer level"),
    ("Random=bash x.sh", "is a computer level"),
    ("my bot=bash x.sh", "a name is 1 to 32"),
    ("mybot=no-such-program-66 --fast", "no program 'no-such-program-66'"),
    ("mybot=bash 'unclosed", "bad engine command"),
    ("mybot=cmd=bash x.sh,time=-1", "time must be positive"),
])
def test_a_bad_engine_option_is_a_one_line_error(value: str, why: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--engine", value, "--database-url", "sqlite://"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sixtysix: error: --engine") and why in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_an_engine_name_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    need(shutil.which("bash") is not None, "bash is not installed")
    assert main(["serve", "--engine", "a=bash x.sh", "--engine", "A=bash y.sh"]) == 2
    assert "given twice" in capsys.readouterr().err
    with pytest.raises(EngineOptionError, match="computer level"):
        create_app(Settings(engines=(("hard", "bash x.sh"),)))


# Playing -------------------------------------------------------------------------------

def test_a_whole_match_against_the_bash_engine_and_its_program_ends_with_the_game(tmp_path: Path) -> None:
    rng = random.Random(6)
    pids = tmp_path / "pids"
    with app_with(("bashbot", bash_engine(pids))) as c:
        game = new_game(c, "bashbot", "classic,target=7")
        with player(c, game["id"], game["token"], 0) as me:
            state = play_to_the_end(me, rng)
        assert state["game"]["winner"] in (0, 1) and max(state["game"]["score"]) >= 7
        assert len(state["game"]["results"]) >= 3  # at least three hands to 7 points
        assert all(r["reason"] != "forfeit" for r in state["game"]["results"])
        # The engine played its seat: its program was started, and stopped when the match ended.
        assert started(pids)
        wait_until_gone(started(pids))
        record = loads(c.get(f"/api/games/{game['id']}/record").text)
        assert isinstance(record, MatchRecord)
        assert all("forfeit" not in h.extra for h in record.hands)
        assert replay_json(record.to_json())["score"] == state["game"]["score"]


def test_a_crashing_engine_forfeits_the_hand_the_player_is_told_and_the_record_keeps_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(7)
    caplog.set_level(logging.WARNING, logger="sixtysix")
    with app_with(("crashbot", faulty_engine("crash", 2, tmp_path))) as c:
        game = new_game(c, "crashbot", "classic,target=7")
        with player(c, game["id"], game["token"], 0) as me:
            state = play_to_the_end(me, rng)
        results = state["game"]["results"]
        forfeits = [i for i, r in enumerate(results) if r["reason"] == "forfeit"]
        assert len(forfeits) == 1  # the engine crashes once; it is started again for the next hand
        lost = results[forfeits[0]]
        assert lost["winner"] == 0 and lost["game_points"] == 3  # like a Schwarz (R9.1)
        assert len(results) > forfeits[0] + 1  # the match went on
        # The player was sent the result as it happened, in a state of its own.
        told = [m for m in me.messages
                if m["type"] == "state" and len(m["game"]["results"]) == forfeits[0] + 1]
        assert told and told[0]["game"]["results"][-1]["reason"] == "forfeit"
        # One log line names the game, the engine, its seat and what went wrong.
        lines = [r.getMessage() for r in caplog.records if "forfeits hand" in r.getMessage()]
        assert len(lines) == 1 and game["id"] in lines[0] and "(seat 1)" in lines[0] and "died" in lines[0]
        # It numbers the hand once, as the results do, from 1 (issue 34: "hand 2: ... hand 1").
        assert re.findall(r"hand (\d+)", lines[0]) == [str(forfeits[0] + 1)]
        # The stored record marks the hand, and replays to the same score.
        raw = c.get(f"/api/games/{game['id']}/record").json()
        assert [i for i, h in enumerate(raw["hands"]) if "forfeit" in h] == forfeits
        assert raw["hands"][forfeits[0]]["forfeit"] == 1
        assert replay_json(raw)["score"] == state["game"]["score"]
        # The replay page's last frame of that hand shows the forfeit.
        frames = [f for f in c.get(f"/api/games/{game['id']}/replay").json()["frames"]
                  if f["hand"] == forfeits[0] + 1]
        assert frames[-1]["view"]["result"]["reason"] == "forfeit"


def test_the_human_never_sees_the_engines_cards(tmp_path: Path) -> None:
    """The hidden-card check of test_server_hidden, over games against engines (one with a forfeit)."""
    rng = random.Random(8)
    checked = 0
    with app_with(("bashbot", bash_engine()), ("illegalbot", faulty_engine("illegal", 3, tmp_path))) as c:
        for level in ("bashbot", "illegalbot", "bashbot"):
            game = new_game(c, level, "santase,target=4")
            with player(c, game["id"], game["token"], 0) as me, player(c, game["id"], None, None) as watcher:
                play_to_the_end(me, rng)
                watcher.until(finished)
            record = loads(c.get(f"/api/games/{game['id']}/record").text)
            assert isinstance(record, MatchRecord)
            checked += check(me.messages, 0, record) + check(watcher.messages, None, record)
    assert checked > 50
    assert (tmp_path / "illegal.marker").exists()  # the illegal action was sent (and forfeited)


def test_no_engine_program_outlives_its_game(tmp_path: Path) -> None:
    """A game dropped in the middle (its last connection gone) stops its engine (the
    end of the server with games connected is tested on a real server below).

    Each game waits for its own programs only, each known by its id and its start time:
    on a busy machine process ids come round within seconds, and an id of an earlier
    game's program, given to another process, is no program of ours."""
    rng = random.Random(9)
    pids = tmp_path / "pids"
    with app_with(("bashbot", bash_engine(pids))) as c:
        for _ in (1, 2, 3):
            before = len(started(pids))
            game = new_game(c, "bashbot", "classic,target=11")
            with player(c, game["id"], game["token"], 0) as me:
                play_until_the_engine_started(me, rng, pids, before + 1)
                mine = started(pids)[before:]
                born = {pid: start_time(pid) for pid in mine}
                assert alive(mine[-1])
            wait_until_gone(mine, born)
        assert len(started(pids)) >= 3


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="start times come from /proc")
def test_a_process_id_given_again_is_not_the_program_waited_for() -> None:
    """What made the test above fail once on a loaded machine: it waited for every earlier
    game's program by id alone, and a finished program's id, given to another process
    (ids come round at 32,768 here), looked like a program still running."""
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        born = start_time(other.pid)
        assert born is not None and alive(other.pid)
        wait_until_gone([other.pid], {other.pid: born - 1})  # an earlier program had the id: gone
        with pytest.raises(AssertionError, match="still running"):
            wait_until_gone([other.pid], {other.pid: born}, attempts=2)  # the same program
    finally:
        other.kill()
        other.wait()


@pytest.mark.skipif(sys.platform != "linux", reason="engines catch every descendant on Linux only")
def test_a_child_of_an_engine_in_a_session_of_its_own_ends_with_the_game(tmp_path: Path) -> None:
    """Issue 34, item 11: the engine's child calls ``setsid`` (a kill of the engine's
    process group misses it) and sleeps; when the match is over, it is gone."""
    rng = random.Random(12)
    pids, children = tmp_path / "pids", tmp_path / "children"
    with app_with(("setsidbot", setsid_engine(pids, children))) as c:
        game = new_game(c, "setsidbot", "classic,target=3")
        with player(c, game["id"], game["token"], 0) as me:
            play_until_the_engine_started(me, rng, pids, 1)
            child, born = child_of_the_engine(children)
            assert alive(child) and os.getsid(child) != os.getsid(started(pids)[0])
            assert finished(play_to_the_end(me, rng))
            wait_until_gone([child], {child: born})
            wait_until_gone(started(pids))


# A real server process ---------------------------------------------------------------------


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    running: list[Server] = []
    yield running
    for s in running:
        if s.proc.poll() is None:
            s.kill()


def test_a_game_resumes_exactly_after_a_restart_that_follows_a_forfeit(
        tmp_path: Path, database_url: str, servers: list[Server]) -> None:
    rng = random.Random(10)
    engine = ["--engine", "crashbot=" + faulty_engine("crash", 1, tmp_path)]
    first = Server(database_url, tmp_path / "first.log", *engine)
    servers.append(first)
    created = first.post("/api/games", {"kind": "computer", "level": "crashbot", "rules": "classic,target=11",
                                        "name": "Ann"})
    me = real_client(first.base, created["id"], created["token"], 0)
    # Play until the engine has crashed (its first go) and a few actions of the next hand.
    while not any(r["reason"] == "forfeit" for r in me.until(my_turn_or_over)["game"]["results"]):
        me.act_random(rng)
        me.sync()
    for _ in range(3):
        me.act_random(rng)
        me.sync()
        me.until(my_turn_or_over)
    before = me.state
    assert before is not None and not finished(before)
    me.ws.close()
    assert "forfeits hand" in (tmp_path / "first.log").read_text()

    first.kill()
    second = Server(database_url, tmp_path / "second.log", *engine)
    servers.append(second)
    again = real_client(second.base, created["id"], created["token"], 0)
    assert again.state is not None
    assert again.state["view"] == before["view"]
    for key in ("score", "hand_number", "actions", "results", "status", "pending_bonus", "players"):
        assert again.state["game"][key] == before["game"][key], key
    # The match goes on against the engine (started again) to its end; the record keeps the forfeit.
    state = play_to_the_end(again, rng)
    again.ws.close()
    record = second.get(f"/api/games/{created['id']}/record")
    assert sum(1 for h in record["hands"] if h.get("forfeit") == 1) == 1
    assert replay_json(record)["score"] == state["game"]["score"]


def test_a_stopped_server_leaves_no_engine_running(tmp_path: Path, servers: list[Server]) -> None:
    rng = random.Random(11)
    pids = tmp_path / "pids"
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log",
                    "--engine", "bashbot=" + bash_engine(pids))
    servers.append(server)
    clients = []
    for n in (1, 2):
        created = server.post("/api/games", {"kind": "computer", "level": "bashbot"})
        me = real_client(server.base, created["id"], created["token"], 0)
        play_until_the_engine_started(me, rng, pids, n)
        clients.append(me)
    running = started(pids)
    assert len(running) == 2 and all(alive(p) for p in running)
    server.proc.send_signal(signal.SIGTERM)  # as Ctrl-C or a service manager stops it
    server.proc.wait(timeout=60)
    assert not [p for p in running if alive(p)]


@pytest.mark.skipif(sys.platform != "linux", reason="engines catch every descendant on Linux only")
def test_a_child_of_an_engine_in_a_session_of_its_own_ends_with_a_killed_server(
        tmp_path: Path, servers: list[Server]) -> None:
    """Issue 34, item 11: killed with SIGKILL (nothing of it runs to clean up), the server
    leaves neither its engine nor the child that left the engine's session."""
    rng = random.Random(13)
    pids, children = tmp_path / "pids", tmp_path / "children"
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log",
                    "--engine", "setsidbot=" + setsid_engine(pids, children))
    servers.append(server)
    created = server.post("/api/games", {"kind": "computer", "level": "setsidbot"})
    me = real_client(server.base, created["id"], created["token"], 0)
    play_until_the_engine_started(me, rng, pids, 1)
    child, born = child_of_the_engine(children)
    engine = started(pids)[0]
    running = {child: born, engine: start_time(engine)}
    assert alive(child) and alive(engine)
    server.kill()
    server.proc.wait(timeout=60)
    wait_until_gone(list(running), running)


def test_a_game_whose_engine_is_no_longer_offered_waits_and_says_why(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    engines = (("bashbot", bash_engine()),)
    with TestClient(create_app(Settings(database_url=url, engines=engines))) as c:
        game = new_game(c, "bashbot", "classic,target=11")
    # Started again without --engine: the game is kept as it is, and its player is told why.
    with TestClient(create_app(Settings(database_url=url))) as c, \
            player(c, game["id"], game["token"], 0) as me:
        me.sync()
        assert [e["code"] for e in me.errors] == ["no_opponent"]
        assert me.errors[0]["args"] == {"level": "bashbot"}
        assert me.state is not None and me.state["game"]["status"] == "playing"
    with TestClient(create_app(Settings(database_url=url, engines=engines))) as c, \
            player(c, game["id"], game["token"], 0) as me:
        assert me.until(my_turn_or_over)["view"]["to_act"] == 0 and not me.errors  # offered again: on


# Engines that flood or hang (issue 17, item 1) --------------------------------------------

FLOODING = Path(__file__).resolve().parent / "engines" / "flooding_engine.py"


def flooding_engine(mode: str, go: int, pids: Path | None = None, options: str = "") -> str:
    words = [sys.executable, str(FLOODING), mode, str(go), *([str(pids)] if pids is not None else [])]
    return f"cmd={shlex.quote(shlex.join(words))}{options}"


def test_an_engine_that_floods_forfeits_its_hands_and_the_game_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(3)
    caplog.set_level(logging.WARNING, logger="sixtysix")
    pids = tmp_path / "pids"
    with app_with(("floodbot", flooding_engine("junk", 2, pids, ",time=0.5"))) as c:
        game = new_game(c, "floodbot", "classic,target=7")
        with player(c, game["id"], game["token"], 0) as me:
            state = play_to_the_end(me, rng)
    results = state["game"]["results"]
    assert finished(state) and any(r["reason"] == "forfeit" for r in results)
    lines = [r.getMessage() for r in caplog.records if "forfeits hand" in r.getMessage()]
    assert lines and all("it wrote more than" in line for line in lines)
    wait_until_gone(started(pids))  # every program and the child it started


def test_sigterm_stops_a_server_whose_engine_hangs_and_the_game_resumes_at_that_turn(
        tmp_path: Path, servers: list[Server]) -> None:
    rng = random.Random(5)
    pids = tmp_path / "pids"
    url = f"sqlite:///{tmp_path / 'games.db'}"
    # No time budget: the server would wait a minute for the hanging engine.
    engine = ("--engine", "hangbot=" + flooding_engine("hang", 2, pids))
    server = Server(url, tmp_path / "first.log", *engine)
    servers.append(server)
    created = server.post("/api/games", {"kind": "computer", "level": "hangbot", "rules": "classic"})
    me = real_client(server.base, created["id"], created["token"], 0)
    thinking = Path(f"{pids}.go")
    me.sync()
    deadline = time.monotonic() + 120
    while not thinking.exists():  # play until the engine hangs at its second go
        assert time.monotonic() < deadline, "the engine never got to think"
        if me.my_turn:
            me.act_random(rng)
        me.sync()
    assert me.state is not None and me.view["to_act"] == 1  # the engine's turn
    at = (me.state["game"]["hand_number"], me.state["game"]["actions"])
    sent = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(timeout=60)
    stopped = time.monotonic() - sent
    assert stopped < 10, f"the server took {stopped:.1f} s to stop"
    wait_until_gone(started(pids))
    # Started again, the game goes on from that turn (the engine, started anew, plays
    # it at once), and no hand was forfeited by the kill at shutdown.
    again = Server(url, tmp_path / "second.log", *engine)
    servers.append(again)
    me = real_client(again.base, created["id"], created["token"], 0)
    state = me.until(lambda s: (s["game"]["hand_number"], s["game"]["actions"]) > at)
    # The engine may act more than once before the client is up to date (a won trick: draw,
    # then lead), so the position is later, in the same hand or, if that ended, the next.
    assert state["game"]["hand_number"] in (at[0], at[0] + 1)
    assert all(r["reason"] != "forfeit" for r in state["game"]["results"])
    me.ws.close()
    # Stopped the same way, the second server leaves no engine and no engine's child behind.
    again.proc.send_signal(signal.SIGTERM)
    again.proc.wait(timeout=60)
    wait_until_gone(started(pids))
