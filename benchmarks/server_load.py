"""Load on the game server: many games of bots playing over real WebSockets on loopback.

Run:  python benchmarks/server_load.py [--games 200] [--seconds 30] [--think 0.5]
          [--database-url URL [--fresh]] [--url http://127.0.0.1:PORT]
          [--processes N [--redis-url URL [--cross]] [--kill SECONDS | --stop SECONDS]]

Without ``--url`` the script starts ``sixtysix serve`` as a child process on a
free port (a SQLite file in a temporary folder unless ``--database-url`` is
given) with the limits raised for one address, and stops it at the end. Each
game gets two WebSocket connections; each seat plays a random legal action
when it is to act, after thinking ``--think`` seconds (a random time between
half and one and a half times that; 0 plays as fast as the server answers).

With ``--processes N`` it starts N processes (``--shard 1`` to ``N``) on one
database (give a PostgreSQL ``--database-url``: SQLite serialises the writers;
``--fresh`` first marks the unfinished games earlier runs left in it abandoned, so
that a takeover resumes only this run's),
each with ``--redis-url`` if given; games are made on the processes in turn, and
each seat connects to its game's process, as a load balancer routing by the
id's prefix would send it; with ``--cross`` the second seat connects to the next
process instead, so that every game's actions also cross Redis. With ``--kill S``,
the first process is killed (SIGKILL) S seconds into the measured time: its games
are taken over by the others (sixtysix.server.shards), and each of their seats
reconnects to the next process, as the page does; reported is how long each such
seat waited from the kill to its game's state again (start the processes with a
``--lease``: the script passes ``--lease 5``). ``--stop S`` stops the first process
properly instead (SIGTERM, as a deploy does): it releases its shard and says so, and
the others take its games over at once.

Reported: actions per second over the run, and the latency of an action:
from sending it to receiving the state that shows it (p50, p99, max). Games
that end are replaced by a rematch, so the number of games stays constant.
This is a benchmark, not a test: it asserts nothing and is not run by pytest.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

from machine import machine  # benchmarks/machine.py


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        data: dict[str, Any] = json.load(r)
        return data


def cpu_seconds(pid: int | None) -> float | None:
    """User plus system CPU time of a process (Linux), or ``None``."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Stats:
    def __init__(self) -> None:
        self.server_cpu: float | None = None
        self.latencies: list[float] = []
        self.errors = 0
        self.matches = 0
        self.recording = False
        #: When the first process was killed (``--kill``), and each reconnected seat's wait.
        self.killed_at: float | None = None
        self.outages: list[float] = []
        self.stuck = 0


async def seat(bases: list[str], base: str, game_id: str, token: str, me: int, args: argparse.Namespace,
               stats: Stats, rng: random.Random, stop: asyncio.Event) -> str | None:
    """Play one seat until the match ends (returns the rematch's id) or the run stops; a
    connection lost (its process killed, its game moved) is made again, to the next process."""
    import websockets

    lost_at: float | None = None
    for attempt in range(2000):
        try:
            return await play_seat(base, game_id, token, me, args, stats, rng, stop, lost_at)
        except (OSError, websockets.exceptions.ConnectionClosed, websockets.exceptions.InvalidHandshake):
            if stop.is_set():
                return None
            if lost_at is None:
                lost_at = time.perf_counter()
            base = bases[(bases.index(base) + 1) % len(bases)] if attempt % 3 == 2 else base
            await asyncio.sleep(0.2)
    stats.stuck += 1
    return None


async def play_seat(base: str, game_id: str, token: str, me: int, args: argparse.Namespace, stats: Stats,
                    rng: random.Random, stop: asyncio.Event, lost_at: float | None) -> str | None:
    import websockets

    url = base.replace("http://", "ws://") + f"/ws/{game_id}"
    async with websockets.connect(url, max_size=2**22, open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_for: tuple[int, int] | None = None  # the position of the last action sent
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "rematch":
                return str(message["game"])
            if kind == "error":
                if message.get("code") in ("unavailable", "misdirected", "moved"):
                    continue  # the game is being taken over: the connection is closed next
                stats.errors += 1
                sent_at = None
                continue
            if kind != "state":
                continue
            if lost_at is not None:
                stats.outages.append(time.perf_counter() - lost_at)
                lost_at = None
            game, view = message["game"], message["view"]
            if sent_at is not None:
                if stats.recording:
                    stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if stop.is_set():
                return None
            if game["status"] == "finished":
                if me == 0:
                    stats.matches += 1
                    await ws.send(json.dumps({"type": "rematch"}))
                continue
            position = (game["hand_number"], game["actions"])
            if view is None or view["to_act"] != me or not view["legal"] or position == sent_for:
                continue  # not my turn, or a repeated state (a connection's arrival)
            if args.think > 0:
                await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
            if stop.is_set():
                return None
            action = rng.choice(view["legal"])
            sent_at = time.perf_counter()
            sent_for = position
            await ws.send(json.dumps({"type": "act", "action": action, "hand": game["hand_number"],
                                      "index": game["actions"]}))
    return None


async def game_loop(bases: list[str], n: int, args: argparse.Namespace, stats: Stats,
                    stop: asyncio.Event) -> None:
    rng = random.Random(n)
    home = bases[n % len(bases)]  # the process that owns the game (its id's prefix)
    other = bases[(n + 1) % len(bases)] if args.cross else home
    await asyncio.sleep(n * args.ramp / max(args.games, 1))  # the games arrive over the ramp
    created = await asyncio.to_thread(post, home, "/api/games",
                                      {"kind": "person", "rules": args.rules, "name": f"bot{n}a"})
    joined = await asyncio.to_thread(post, home, f"/api/games/{created['id']}/join", {"name": f"bot{n}b"})
    game_id: str | None = created["id"]
    tokens = (created["token"], joined["token"])
    while game_id is not None and not stop.is_set():
        results = await asyncio.gather(*(seat(bases, home if s == 0 else other, game_id, tokens[s], s, args,
                                              stats, rng, stop) for s in (0, 1)))
        game_id = results[0] or results[1]


async def run(bases: list[str], args: argparse.Namespace, server_pids: list[int]) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    tasks = [asyncio.create_task(game_loop(bases, n, args, stats, stop)) for n in range(args.games)]
    await asyncio.sleep(args.ramp + args.warmup)
    stats.recording = True
    started = time.perf_counter()
    cpu_before = [cpu_seconds(pid) for pid in server_pids]
    ended = args.kill if args.kill is not None else args.stop
    if ended is not None and server_pids:
        await asyncio.sleep(ended)
        os.kill(server_pids[0], signal.SIGKILL if args.kill is not None else signal.SIGTERM)
        stats.killed_at = time.perf_counter()
        await asyncio.sleep(max(args.seconds - ended, 0.0))
    else:
        await asyncio.sleep(args.seconds)
    stats.recording = False
    elapsed = time.perf_counter() - started
    cpu_after = [cpu_seconds(pid) for pid in server_pids]
    if stats.killed_at is not None:  # the killed process's time is gone with it
        cpu_before, cpu_after = cpu_before[1:], cpu_after[1:]
    if server_pids and None not in cpu_before and None not in cpu_after:
        stats.server_cpu = sum(b - a for a, b in zip(cpu_before, cpu_after, strict=True))  # type: ignore[operator]
    stop.set()
    for task in tasks:
        task.cancel()
    failures = [r for r in await asyncio.gather(*tasks, return_exceptions=True)
                if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]
    if failures:
        print(f"{len(failures)} games failed, the first: {failures[0]!r}")
    stats.elapsed = elapsed  # type: ignore[attr-defined]
    return stats


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time (default 30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="unmeasured start (default 5)")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a bot waits before acting (default 0.5)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--url", default=None, help="a running server (default: start one)")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--fresh", action="store_true",
                        help="first mark every unfinished game of --database-url abandoned (earlier runs' "
                             "games; only for a database kept for these runs)")
    parser.add_argument("--processes", type=int, default=0,
                        help="start this many server processes (shards 1..N) on one database")
    parser.add_argument("--redis-url", default=None, help="Redis for the processes (--processes)")
    parser.add_argument("--cross", action="store_true",
                        help="the second seat connects to another process than its game's (needs Redis)")
    parser.add_argument("--kill", type=float, default=None, metavar="SECONDS",
                        help="kill the first process this long into the measured time (--processes)")
    parser.add_argument("--stop", type=float, default=None, metavar="SECONDS",
                        help="stop (SIGTERM) the first process this long into the measured time")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="seconds over which the games arrive (default 0: all at once)")
    args = parser.parse_args()
    if args.kill is not None and args.stop is not None:
        parser.error("--kill or --stop, not both")
    ended = args.kill if args.kill is not None else args.stop
    # Thousands of sockets: as many open files as the system lets this process (and the
    # servers it starts, which inherit it) have.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    servers: list[subprocess.Popen[bytes]] = []
    bases = [args.url] if args.url else []
    if not bases:
        folder = tempfile.mkdtemp(prefix="sixtysix-load-")
        url = args.database_url or f"sqlite:///{os.path.join(folder, 'games.db')}"
        if args.fresh and args.database_url:
            from sixtysix.server.storage import Storage

            storage = Storage(url)
            print(f"--fresh: {len(storage.expire(0.0))} unfinished games of earlier runs marked abandoned")
            storage.close()
        shards = list(range(1, args.processes + 1)) or [None]
        for shard in shards:
            port = free_port()
            bases.append(f"http://127.0.0.1:{port}")
            extra = [] if shard is None else ["--shard", str(shard), "--lease", "5"]
            if shard is not None and args.redis_url:
                extra += ["--redis-url", args.redis_url]
            log = open(os.path.join(folder, f"server-{shard}.log"), "w")  # noqa: SIM115
            servers.append(subprocess.Popen(
                [sys.executable, "-m", "sixtysix", "serve", "--port", str(port), "--database-url", url,
                 "--message-rate", "100000", "--connections-per-client", "100000",
                 "--sockets-per-client", "100000", "--create-rate", "100000",
                 "--unfinished-per-client", "100000", *extra], stdout=log, stderr=subprocess.STDOUT))
        for base, server in zip(bases, servers, strict=True):
            for _ in range(400):
                if server.poll() is not None:
                    for other in servers:
                        if other.poll() is None:
                            other.terminate()
                    print(f"a server process exited at start (its log is in {folder})", file=sys.stderr)
                    return 1
                try:
                    with urllib.request.urlopen(base + "/api/games", timeout=5):
                        break
                except OSError:
                    time.sleep(0.05)
    pids = [server.pid for server in servers]
    try:
        try:  # the faster event loop that uvicorn[standard] brings, for the clients too
            import uvloop

            stats = uvloop.run(run(bases, args, pids))
        except ImportError:
            stats = asyncio.run(run(bases, args, pids))
    finally:
        for server in servers:
            if server.poll() is None:
                server.terminate()
        for server in servers:
            server.wait(timeout=60)
    elapsed: float = stats.elapsed  # type: ignore[attr-defined]
    lat = stats.latencies
    print(f"machine: {machine()}")
    print(f"{args.games} games, 2 WebSocket connections each, think {args.think} s, "
          f"{args.seconds:.0f} s measured, {max(len(bases), 1)} server process(es)"
          + (", second seats through another process (Redis)" if args.cross else ""))
    if not lat:
        print("no action was measured")
        return 1
    print(f"throughput: {len(lat) / elapsed:.0f} actions/s ({len(lat)} actions, {stats.matches} matches "
          f"finished, {stats.errors} error replies)")
    print(f"action latency: p50 {1000 * statistics.median(lat):.1f} ms, "
          f"p99 {1000 * percentile(lat, 99):.1f} ms, max {1000 * max(lat):.1f} ms")
    if stats.server_cpu is not None:
        print(f"server CPU (all processes{', the first one aside' if ended is not None else ''}): "
              f"{100 * stats.server_cpu / elapsed:.0f}% of one core, "
              f"{1000 * stats.server_cpu / len(lat):.2f} ms per action")
    if ended is not None:
        waits = stats.outages
        print(f"process 1 {'killed' if args.kill is not None else 'stopped'} {ended:.0f} s in: "
              f"{len(waits)} reconnections, "
              + (f"waiting p50 {statistics.median(waits):.1f} s, max {max(waits):.1f} s" if waits else "")
              + f"; {stats.stuck} seats never served again")
        print("(a reconnection's wait: from losing the connection to the game's state again)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
