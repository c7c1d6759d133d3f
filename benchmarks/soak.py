"""Soak: the game server under attack beside normal players (issue 17).

Run:  python benchmarks/soak.py [--games 50] [--minutes 5] [--warmup 30] [--cooldown 30] [--no-attack]
                                [--attacks forged,bodies,junk,churn,slow,farming,tournaments,lockout]
                                [--attacker-nice N]

Starts ``sixtysix serve`` (its default limits, a SQLite file in a temporary
folder) with an engine opponent ``junkbot`` that floods its host at every first
``go`` (``tests/engines/flooding_engine.py junk``, time 0.5 s). Then:

- **normal players**: ``--games`` people (each from an address of its own,
  127.0.1.N on loopback) play the ``easy`` computer, thinking 0.2 to 1 s a move
  and starting a rematch when a match ends; they play through the whole run;
- **the attack**, from 127.0.0.1 and 127.0.0.2, for ``--minutes`` after the
  warm-up: WebSocket connections opened up to 300 at a time, and games created
  as fast as answered, each with a forged ``X-Forwarded-For``; 100 MB bodies
  (half with a ``Content-Length``, half chunked); games against ``junkbot``
  played to the end, one after the other;
- **rating farming** (issue 34), from 127.0.0.3: account ``farmer`` makes rated
  matches to 1 and five second accounts take the seat and resign at once, as fast
  as answered (the farmer's rating is read before and after);
- **tournament spam**, from 127.0.0.4: account ``spammer`` makes arenas (each with a
  computer entrant) as fast as answered and asks for his next match in each, holding
  every game he gets; beforehand, from 127.0.0.5, a real arena with two people
  entered is made (is it still first in the list at the end?);
- **the lockout** (issue 34): an account's owner, registered from 127.0.4.1 before the attack, logs in every
  10 s from his browser (its cookies kept) while logins for his name fail once a
  second, each from another address (127.0.5.N, 127.0.6.N ...); every 10 s the
  owner also tries from a browser new to the account (the control: it meets the
  name's own limit, which the attack keeps empty);
- **spectator churn** (issue 34): 450 spectators from 15 addresses (127.0.2.1-15,
  30 each, under the per-address limits) of one game between two people (the
  *seated players*, 127.0.2.201 and .202, playing a match to 100 throughout), each
  reconnecting every 1 to 3 s;
- **slow requests** (issue 34): from 20 addresses (127.0.3.1-20), connections
  that send half a request line and wait, 80 at a time from each address.

Reported: the normal players' latency (from sending an action to receiving the
state that shows it; and ping to pong) during the attack, p50/p99/max, the
seated players' likewise, a normal REST request's (``GET /api/games`` once a
second from 127.0.0.1), and the players dropped (a connection the server
closed); what the attack got (connections and games accepted and refused, bodies refused,
hands the engine forfeited; farming games made and refused, the farmer's
rating before and after; tournaments made and refused, the spammer's
tournament matches held and refused, the real arena's place in the list;
failed logins answered and refused, the owner's logins that went through and
were refused); the server's resident memory at the end of the
warm-up (before), its peak, and at the end of the cool-down (after: the attack
over, the normal players still playing); engine programs left running.
Targets: p99 at most 100 ms on 2 cores, no player dropped, memory after within 10% of before.
``--no-attack`` runs the normal players alone for as long: what their own play
adds to the server's memory, the control for the figure above.
A benchmark, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import multiprocessing
import os
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from machine import machine  # benchmarks/machine.py
from server_load import free_port, percentile  # benchmarks/server_load.py

ROOT = Path(__file__).resolve().parents[1]
FLOODING = ROOT / "tests" / "engines" / "flooding_engine.py"


def rss(pid: int) -> int:
    """Resident memory of a process in bytes (Linux)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


# Normal players -------------------------------------------------------------------------

class Stats:
    def __init__(self) -> None:
        self.recording = False
        self.acts: list[float] = []
        self.pings: list[float] = []
        self.errors: dict[str, int] = {}
        self.matches = 0
        #: Connections the server closed under a player (too far behind, 1008, or any other).
        self.dropped = 0


async def create(http: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = await http.post("/api/games", json=body)
    response.raise_for_status()
    data: dict[str, Any] = response.json()
    return data


async def play_game(base: str, address: str, game_id: str, token: str, stats: Stats | None,
                    rng: random.Random, stop: asyncio.Event,
                    think: tuple[float, float], seat: int = 0) -> tuple[str | None, int]:
    """Play ``seat`` until the match ends: (the rematch's id or None, hands forfeited by
    the computer)."""
    import websockets

    url = base.replace("http://", "ws://") + f"/ws/{game_id}"
    async with websockets.connect(url, local_addr=(address, 0), max_size=2**22) as ws:
        # Messages are read, and their arrival timed, as they come: not after a think.
        inbox: asyncio.Queue[tuple[float, dict[str, Any]] | None] = asyncio.Queue()

        async def read() -> None:
            try:
                async for raw in ws:
                    inbox.put_nowait((time.perf_counter(), json.loads(raw)))
            finally:
                inbox.put_nowait(None)

        reader = asyncio.create_task(read())
        try:
            return await _play(ws, inbox, stats, rng, stop, think, token, seat)
        finally:
            reader.cancel()


async def _play(ws: Any, inbox: asyncio.Queue[tuple[float, dict[str, Any]] | None], stats: Stats | None,
                rng: random.Random, stop: asyncio.Event, think: tuple[float, float],
                token: str, seat: int = 0) -> tuple[str | None, int]:
    await ws.send(json.dumps({"type": "hello", "token": token}))
    sent_at: float | None = None
    sent_for: tuple[int, int] | None = None
    pings: dict[str, float] = {}
    next_ping = time.perf_counter() + rng.uniform(1, 3)
    while True:
        item = await inbox.get()
        if item is None:
            if stats is not None and not stop.is_set():
                stats.dropped += 1  # the server closed the connection
            return None, 0
        arrived, message = item
        kind = message["type"]
        if kind == "pong" and message.get("id") in pings:
            if stats is not None and stats.recording:
                stats.pings.append(arrived - pings.pop(message["id"]))
            continue
        if kind == "rematch":
            return str(message["game"]), 0
        if kind == "error":
            if stats is not None:
                code = message.get("code", "?")
                stats.errors[code] = stats.errors.get(code, 0) + 1
            sent_at = None
            continue
        if kind != "state":
            continue
        game, view = message["game"], message["view"]
        position = (game["hand_number"], game["actions"])
        if sent_at is not None and position != sent_for:
            if stats is not None and stats.recording:
                stats.acts.append(arrived - sent_at)
            sent_at = None
        if stop.is_set():
            return None, 0
        now = time.perf_counter()
        if now > next_ping and stats is not None:
            mark = f"p{now}"
            pings[mark] = now
            await ws.send(json.dumps({"type": "ping", "id": mark}))
            next_ping = now + rng.uniform(1, 3)
        if game["status"] == "finished":
            forfeits = sum(1 for r in game["results"] if r["reason"] == "forfeit")
            if stats is None:
                return None, forfeits
            stats.matches += 1
            await ws.send(json.dumps({"type": "rematch"}))
            continue
        if view is None or view["to_act"] != seat or not view["legal"] or position == sent_for:
            continue
        await asyncio.sleep(rng.uniform(*think))
        action = rng.choice(view["legal"])
        sent_at, sent_for = time.perf_counter(), position
        await ws.send(json.dumps({"type": "act", "action": action, "hand": game["hand_number"],
                                  "index": game["actions"]}))


async def normal_player(base: str, n: int, stats: Stats, stop: asyncio.Event) -> None:
    import httpx

    address = f"127.0.1.{n + 1}"
    rng = random.Random(n)
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
        created = await create(http, {"kind": "computer", "level": "easy", "name": f"player{n}"})
    game_id: str | None = created["id"]
    while game_id is not None and not stop.is_set():
        try:
            game_id, _ = await play_game(base, address, game_id, created["token"], stats, rng, stop,
                                         (0.2, 1.0))
        except Exception as exc:  # a dropped connection: count it, play on
            stats.errors[type(exc).__name__] = stats.errors.get(type(exc).__name__, 0) + 1


async def seated_player(base: str, address: str, game_id: str, token: str, seat: int, stats: Stats,
                        stop: asyncio.Event) -> None:
    """A seat of the game the spectators churn around, played until the run ends."""
    rng = random.Random(1000 + seat)
    try:
        await play_game(base, address, game_id, token, stats, rng, stop, (0.2, 1.0), seat)
    except Exception as exc:
        stats.errors[type(exc).__name__] = stats.errors.get(type(exc).__name__, 0) + 1


async def rest_probe(base: str, stats: Stats, stop: asyncio.Event) -> None:
    """A normal REST request once a second: how long ``GET /api/games`` takes (in ``acts``)."""
    import httpx

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            began = time.perf_counter()
            try:
                (await http.get("/api/games")).raise_for_status()
                if stats.recording:
                    stats.acts.append(time.perf_counter() - began)
            except httpx.HTTPError as exc:
                stats.errors[type(exc).__name__] = stats.errors.get(type(exc).__name__, 0) + 1
            await asyncio.sleep(1)


# The attack (in a process of its own, so that its work does not delay the players' clients) ----

async def forged_connections(base: str, game_id: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    import websockets

    url = base.replace("http://", "ws://") + f"/ws/{game_id}"
    rng = random.Random(1)
    while not stop.is_set():
        open_: list[Any] = []
        for _ in range(300):
            if stop.is_set():
                break
            forged = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}"
            try:
                ws = await websockets.connect(url, additional_headers={"X-Forwarded-For": forged})
                await ws.send(json.dumps({"type": "hello"}))
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if reply["type"] == "state":
                    counts["connections accepted"] += 1
                    open_.append(ws)
                else:
                    counts["connections refused"] += 1
                    await ws.close()
            except Exception:
                counts["connections refused"] += 1
        await asyncio.sleep(1)
        for ws in open_:
            with contextlib.suppress(Exception):
                await ws.close()


async def forged_creates(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    import httpx

    rng = random.Random(2)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while not stop.is_set():
            forged = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)}"
            try:
                response = await http.post("/api/games", json={"kind": "person"},
                                           headers={"X-Forwarded-For": forged})
                counts["games accepted" if response.status_code == 201 else "games refused"] += 1
            except httpx.HTTPError:
                counts["games refused"] += 1


async def big_bodies(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    import httpx

    chunk = b"x" * (1 << 20)

    async def body() -> Any:
        for _ in range(100):
            yield chunk

    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        n = 0
        while not stop.is_set():
            n += 1
            headers = {"Content-Type": "application/json"}
            if n % 2:
                headers["Content-Length"] = str(100 << 20)
            try:
                response = await http.post("/api/games", content=body(), headers=headers)
                counts["bodies refused" if response.status_code == 413 else "bodies answered otherwise"] += 1
            except httpx.HTTPError:
                counts["bodies cut off"] += 1  # the server closed the connection mid-upload


async def junk_engine_games(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    import httpx

    rng = random.Random(3)
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
        while not stop.is_set():
            response = await http.post("/api/games", json={"kind": "computer", "level": "junkbot"})
            if response.status_code == 429:  # this address's games a second, or unfinished games
                counts["junk engine games refused"] += 1
                await asyncio.sleep(1)
                continue
            response.raise_for_status()
            created = response.json()
            _, forfeits = await play_game(base, "127.0.0.2", created["id"], created["token"], None, rng, stop,
                                          (0.0, 0.01))
            counts["junk engine games"] += 1
            counts["hands the engine forfeited"] += forfeits


async def spectator(base: str, address: str, game_id: str, rng: random.Random, stop: asyncio.Event,
                    counts: dict[str, int]) -> None:
    """One spectator of ``game_id`` from ``address``, reconnecting every 1 to 3 s."""
    import websockets

    url = base.replace("http://", "ws://") + f"/ws/{game_id}"
    while not stop.is_set():
        try:
            async with websockets.connect(url, local_addr=(address, 0), max_size=2**22) as ws:
                await ws.send(json.dumps({"type": "hello"}))
                first = json.loads(await asyncio.wait_for(ws.recv(), 30))
                counts["spectators accepted" if first["type"] == "state" else "spectators refused"] += 1
                if first["type"] == "state":
                    with contextlib.suppress(TimeoutError):  # read what comes, then go
                        async with asyncio.timeout(rng.uniform(1, 3)):
                            async for _ in ws:
                                pass
                else:
                    await asyncio.sleep(rng.uniform(1, 3))
        except Exception:
            counts["spectators refused"] += 1
            await asyncio.sleep(1)


async def spectator_churn(base: str, game_id: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    rng = random.Random(4)
    await asyncio.gather(*(spectator(base, f"127.0.2.{1 + n // 30}", game_id, random.Random(rng.random()),
                                     stop, counts) for n in range(450)))


async def slow_request(address: str, port: int, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Half a request line, then nothing: until the server answers or closes."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        except OSError:
            counts["slow requests not connected"] += 1
            await asyncio.sleep(1)
            continue
        try:
            writer.write(b"GET /api/games HT")
            await writer.drain()
            answer = await reader.read(64)
        except OSError:
            answer = b""
        finally:
            writer.close()
        status = answer[9:12]
        name = {b"408": "slow requests timed out (408)",
                b"429": "slow requests refused (429)"}.get(status, "slow requests cut otherwise")
        counts[name] += 1
        if status != b"408":
            await asyncio.sleep(1)


async def slow_requests(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    port = int(base.rsplit(":", 1)[1])
    await asyncio.gather(*(slow_request(f"127.0.3.{1 + n // 80}", port, stop, counts)
                           for n in range(20 * 80)))


PASSWORD = "soak-farm-password"


async def account(base: str, address: str, name: str) -> Any:
    """An HTTP client of ``address`` logged in to a new account ``name`` (its CSRF token
    sent with every request)."""
    import httpx

    http = httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address),
                             timeout=60)
    answer = await http.post("/api/account/register", json={"name": name, "password": PASSWORD})
    answer.raise_for_status()
    http.headers["X-CSRF-Token"] = answer.json()["csrf"]
    return http


async def rating(http: Any, name: str) -> int:
    """The player's classic rating as his page shows it (1500 before any rated match)."""
    ratings = (await http.get(f"/api/players/{name}")).json()["ratings"]
    return next((int(r["rating"]) for r in ratings if r["pool"] == "classic"), 1500)


async def end_at_once(base: str, game_id: str, token: str, how: str = "resign") -> None:
    """Resign (or call off: ``how="abort"``) a game from 127.0.0.3 at once."""
    import websockets

    url = base.replace("http://", "ws://") + f"/ws/{game_id}"
    async with websockets.connect(url, local_addr=("127.0.0.3", 0)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.send(json.dumps({"type": how}))
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "state" and message["game"]["status"] not in ("playing", "waiting"):
                return


async def farming(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """The issue's farming attack: a rated match to 1, taken and resigned at once."""
    import httpx

    farmer = await account(base, "127.0.0.3", "farmer")
    hands = [await account(base, "127.0.0.3", f"farmhand{n}") for n in range(5)]
    counts["farmer's rating before"] = await rating(farmer, "farmer")
    n = 0
    try:
        while not stop.is_set():
            try:
                await farm_once(base, farmer, hands, n, counts)
            except httpx.HTTPError:  # a connection the server closed under load: try again
                counts["farming requests failed"] += 1
            n += 1
    finally:
        counts["farmer's rating after"] = await rating(farmer, "farmer")
        for http in (farmer, *hands):
            await http.aclose()


async def farm_once(base: str, farmer: Any, hands: list[Any], n: int, counts: dict[str, int]) -> None:
    """One farmed match: made by the farmer, taken by the first second account whom no limit
    refuses (trying them from number ``n`` on), resigned at once."""
    rated = {"kind": "person", "rules": "classic,target=1", "rated": True}
    made = await farmer.post("/api/games", json=rated)
    if made.status_code != 201:
        counts["farming games refused"] += 1
        await asyncio.sleep(1)
        return
    game = made.json()
    for k in range(len(hands)):
        joined = await hands[(n + k) % len(hands)].post(f"/api/games/{game['id']}/join", json={})
        if joined.status_code == 200:
            await end_at_once(base, game["id"], joined.json()["token"])
            counts["farming games made"] += 1
            return
        counts["farming games refused"] += 1
    # Nobody may take the seat: the farmer calls his game off.
    await end_at_once(base, game["id"], game["token"], "abort")
    await asyncio.sleep(1)


async def tournament_spam(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """Arenas made as fast as answered, each entered and asked for a match (held unfinished)."""
    import httpx

    organiser = await account(base, "127.0.0.5", "organiser")
    entrant = await account(base, "127.0.0.5", "entrant")
    made = await organiser.post("/api/tournaments", json={"name": "The real one", "minutes": 60})
    real = made.json()["id"]
    for http in (organiser, entrant):
        await http.post(f"/api/tournaments/{real}/join")
    spammer = await account(base, "127.0.0.4", "spammer")
    try:
        while not stop.is_set():
            try:
                await spam_once(spammer, counts)
            except httpx.HTTPError:  # a connection the server closed under load: try again
                counts["tournament requests failed"] += 1
        listed = (await spammer.get("/api/tournaments")).json()["running"]
        counts["real tournament listed first"] = int(bool(listed) and listed[0]["id"] == real)
    finally:
        for http in (organiser, entrant, spammer):
            await http.aclose()


async def spam_once(spammer: Any, counts: dict[str, int]) -> None:
    """One arena made, entered, and a match asked for in it and held."""
    made = await spammer.post("/api/tournaments", json={"name": "spam", "minutes": 60, "computers": ["easy"]})
    if made.status_code != 201:
        counts["tournaments refused"] += 1
        await asyncio.sleep(0.2)
        return
    counts["tournaments made"] += 1
    tid = made.json()["id"]
    await spammer.post(f"/api/tournaments/{tid}/join")
    match = await spammer.post(f"/api/tournaments/{tid}/next", json={"wait": 0})
    counts["tournament matches held" if match.status_code == 200 and "id" in match.json()
           else "tournament matches refused"] += 1

async def lockout(base: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    import httpx

    credentials = {"name": "owner", "password": "the owner's own password"}

    def browser(address: str) -> Any:
        return httpx.AsyncClient(base_url=base, transport=httpx.AsyncHTTPTransport(local_address=address),
                                 timeout=60)

    async def fail(n: int) -> None:
        async with browser(f"127.0.{5 + n // 250}.{1 + n % 250}") as http:
            response = await http.post("/api/account/login", json={**credentials, "password": "a guess"})
            counts["lockout logins refused" if response.status_code == 429 else "lockout logins failed"] += 1

    async with browser("127.0.4.1") as owner:
        (await owner.post("/api/account/register", json=credentials)).raise_for_status()
        n = 0
        while not stop.is_set():
            if n % 10 == 0:
                ok = (await owner.post("/api/account/login", json=credentials)).status_code == 200
                counts["owner logins ok" if ok else "owner logins refused"] += 1
                async with browser("127.0.4.1") as new:
                    ok = (await new.post("/api/account/login", json=credentials)).status_code == 200
                counts["owner's new-browser logins ok" if ok else "owner's new-browser logins refused"] += 1
            try:
                await fail(n)
            except httpx.HTTPError:  # a connection the server closed under load
                counts["lockout requests failed"] += 1
            n += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)


#: The attacks, by the name ``--attacks`` takes.
ATTACKS = ("forged", "bodies", "junk", "churn", "slow", "farming", "tournaments", "lockout")


def attack(base: str, seconds: float, queue: Any, watched: str, attacks: tuple[str, ...] = ATTACKS,
           niceness: int = 0) -> None:
    """Run ``attacks`` for ``seconds`` and put their counts on ``queue``. With ``niceness``
    the attacking process yields the processor to the server and the players (the attackers
    of a real server run on machines of their own: their work is not the server's)."""
    if niceness:
        os.nice(niceness)

    async def main() -> dict[str, int]:
        import httpx

        counts: dict[str, int] = collections.Counter()
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            target = await create(http, {"kind": "person"})
        stop = asyncio.Event()
        chosen = {
            "forged": lambda: [forged_connections(base, target["id"], stop, counts),
                               forged_creates(base, stop, counts)],
            "bodies": lambda: [big_bodies(base, stop, counts)],
            "junk": lambda: [junk_engine_games(base, stop, counts)],
            "churn": lambda: [spectator_churn(base, watched, stop, counts)],
            "slow": lambda: [slow_requests(base, stop, counts)],
            "farming": lambda: [farming(base, stop, counts)],
            "tournaments": lambda: [tournament_spam(base, stop, counts)],
            "lockout": lambda: [lockout(base, stop, counts)]}
        tasks = [asyncio.create_task(t, name=name) for name in attacks for t in chosen[name]()]
        await asyncio.sleep(seconds)
        stop.set()
        done, pending = await asyncio.wait(tasks, timeout=30)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                counts[f"attack task {task.get_name()} failed: {task.exception()!r}"[:100]] = 1
        return dict(counts)

    queue.put(asyncio.run(main()))


# The run --------------------------------------------------------------------------------

async def watched_game(base: str, seated: Stats, stop: asyncio.Event) -> tuple[str, list[asyncio.Task[None]]]:
    """A match to 100 between two people (127.0.2.201 and .202), played throughout: the game
    the spectators churn around."""
    import httpx

    tokens = []
    for n, path in ((1, "/api/games"), (2, None)):
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.2.{200 + n}")
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
            if path is not None:
                game = await create(http, {"kind": "person", "name": "seated 0", "target": 100})
                tokens.append(game["token"])
            else:
                joined = await http.post(f"/api/games/{game['id']}/join", json={"name": "seated 1"})
                joined.raise_for_status()
                tokens.append(joined.json()["token"])
    players = [seated_player(base, f"127.0.2.{201 + seat}", game["id"], tokens[seat], seat, seated, stop)
               for seat in (0, 1)]
    return game["id"], [asyncio.create_task(player) for player in players]


async def run(base: str, server: subprocess.Popen[bytes], args: argparse.Namespace) -> dict[str, Any]:
    stats, seated, rest = Stats(), Stats(), Stats()
    stop = asyncio.Event()
    memory: list[int] = []

    async def sample() -> None:
        while not stop.is_set():
            memory.append(rss(server.pid))
            await asyncio.sleep(1)

    sampler = asyncio.create_task(sample())
    players = [asyncio.create_task(normal_player(base, n, stats, stop)) for n in range(args.games)]
    watched, seats = await watched_game(base, seated, stop)
    players += [*seats, asyncio.create_task(rest_probe(base, rest, stop))]
    await asyncio.sleep(args.warmup)
    before = rss(server.pid)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    attacker = context.Process(target=attack, args=(base, args.minutes * 60, queue, watched, args.attacks,
                                                    args.attacker_nice))
    stats.recording = seated.recording = rest.recording = True
    began = time.perf_counter()
    if args.attack:
        attacker.start()
        counts = await asyncio.to_thread(queue.get)
        await asyncio.to_thread(attacker.join)
    else:
        await asyncio.sleep(args.minutes * 60)
        counts = {}
    attacked = time.perf_counter() - began
    stats.recording = seated.recording = rest.recording = False
    peak = max(memory)
    await asyncio.sleep(args.cooldown)
    after = rss(server.pid)
    stop.set()
    for task in [*players, sampler]:
        task.cancel()
    await asyncio.gather(*players, sampler, return_exceptions=True)
    return {"stats": stats, "seated": seated, "rest": rest, "counts": counts, "before": before, "peak": peak,
            "after": after, "attacked": attacked}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="normal players (default 50)")
    parser.add_argument("--minutes", type=float, default=5.0, help="length of the attack (default 5)")
    parser.add_argument("--warmup", type=float, default=30.0, help="seconds before it (default 30)")
    parser.add_argument("--cooldown", type=float, default=30.0, help="seconds after it (default 30)")
    parser.add_argument("--no-attack", dest="attack", action="store_false",
                        help="the normal players alone, as long (the control for the memory figure)")
    parser.add_argument("--attacks", default=",".join(ATTACKS),
                        help=f"the attacks run, comma-separated (default all: {','.join(ATTACKS)})")
    parser.add_argument("--attacker-nice", type=int, default=0, metavar="N",
                        help="run the attacking process at niceness N (0 to 19): on a machine of two "
                             "cores the attackers' own work otherwise competes with the server's")
    args = parser.parse_args()
    if not 0 <= args.attacker_nice <= 19:
        parser.error("--attacker-nice takes 0 to 19")
    args.attacks = tuple(name.strip() for name in args.attacks.split(",") if name.strip())
    if not args.attacks or set(args.attacks) - set(ATTACKS):
        parser.error(f"--attacks takes names among {', '.join(ATTACKS)}")
    folder = tempfile.mkdtemp(prefix="sixtysix-soak-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    pids = Path(folder) / "engines"  # each engine program writes its id and its child's there
    junk = shlex.join([sys.executable, str(FLOODING), "junk", "1", str(pids)])
    log = open(os.path.join(folder, "server.log"), "w")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "sixtysix", "serve", "--port", str(port), "--database-url",
         f"sqlite:///{os.path.join(folder, 'games.db')}",
         "--engine", f"junkbot=cmd={shlex.quote(junk)},time=0.5"],
        stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, SIXTYSIX_LOG_LEVEL="error"))
    for _ in range(400):
        try:
            with urllib.request.urlopen(base + "/api/games", timeout=5):
                break
        except OSError:
            time.sleep(0.05)
    try:
        try:
            import uvloop

            result = uvloop.run(run(base, server, args))
        except ImportError:
            result = asyncio.run(run(base, server, args))
    finally:
        began = time.perf_counter()
        server.terminate()
        server.wait(timeout=60)
        stopping = time.perf_counter() - began
    stats: Stats = result["stats"]
    seated: Stats = result["seated"]
    print(f"machine: {machine()}")
    print(f"{args.games} normal players against the easy level; "
          f"{'attack (' + ', '.join(args.attacks) + ')' if args.attack else 'no attack (the control)'} "
          f"for {result['attacked']:.0f} s after {args.warmup:.0f} s of warm-up, then {args.cooldown:.0f} s "
          "of cool-down" + (f"; the attacker at niceness {args.attacker_nice}" if args.attacker_nice else ""))
    for name, values in (("normal players' action", stats.acts), ("normal players' ping", stats.pings),
                         ("seated players' action", seated.acts), ("seated players' ping", seated.pings),
                         ("a REST request's", result["rest"].acts)):
        if values:
            print(f"{name} latency: "
                  f"p50 {1000 * statistics.median(values):.1f} ms, "
                  f"p99 {1000 * percentile(values, 99):.1f} ms, max {1000 * max(values):.1f} ms "
                  f"({len(values):,} measured)")
    print(f"normal players: {stats.matches} matches finished; errors: {stats.errors or 'none'}")
    print(f"players dropped (connections the server closed): {stats.dropped + seated.dropped} "
          f"({seated.dropped} of the two seated players'); seated players' errors: {seated.errors or 'none'}")
    if args.attack:
        print("the attack: " + ", ".join(f"{k} {v:,}" for k, v in result["counts"].items()))
    mib = 1 << 20
    print(f"server memory: before {result['before'] / mib:.0f} MiB, peak {result['peak'] / mib:.0f} MiB, "
          f"after {result['after'] / mib:.0f} MiB ({100 * (result['after'] / result['before'] - 1):+.1f}%)")
    started = [int(word) for word in pids.read_text().split()] if pids.exists() else []
    print(f"server stopped by SIGTERM in {stopping:.1f} s; engine processes started "
          f"{len(started):,}, left running {sum(alive(p) for p in started)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
