"""``sixtysix serve``: the game server for the browser and online play (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import faulthandler
import io
import logging
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from sixtysix.extras import install_command

if TYPE_CHECKING:
    import uvicorn

__all__ = ["register", "run"]

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="start the web server: play in the browser and online",
        description="Start the game server. Open the printed address in a browser to play against "
                    "the computer, or create a game and send its link to a friend.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)")
    parser.add_argument("--port", type=int, default=8066, help="port to listen on (default 8066)")
    parser.add_argument("--database-url", default=None, metavar="URL",
                        help="SQLAlchemy database URL, e.g. postgresql+psycopg://user@host/db "
                             "(default: $SIXTYSIX_DATABASE_URL, else a SQLite file in your data directory)")
    parser.add_argument("--message-rate", type=float, default=20.0, metavar="N",
                        help="messages a second one connection may send, on average (default 20; "
                             "twice as many at once)")
    parser.add_argument("--connections-per-client", type=int, default=32, metavar="N",
                        help="open WebSocket connections allowed from one address (default 32)")
    parser.add_argument("--sockets-per-client", type=int, default=64, metavar="N",
                        help="open TCP connections of any kind (HTTP, WebSocket) allowed from one address, "
                             "not counting trusted proxies (default 64; the next is answered 429)")
    parser.add_argument("--websockets-per-second", type=float, default=2.0, metavar="N",
                        help="WebSockets one address may open a second, on average, not counting trusted "
                             "proxies (default 2; ten times as many at once; a faster one is answered 429)")
    parser.add_argument("--request-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="seconds a request's head and body have to arrive, from its first byte; "
                             "a slower one is answered 408 and closed (default 10)")
    parser.add_argument("--keep-alive", type=float, default=5.0, metavar="SECONDS",
                        help="seconds an HTTP connection may stay idle between requests (default 5)")
    parser.add_argument("--spectators-per-game", type=int, default=200, metavar="N",
                        help="spectators one game takes at once; its players are always taken (default 200)")
    parser.add_argument("--create-rate", type=float, default=0.5, metavar="N",
                        help="new games a second one address may create, after a burst of 40 "
                             "(default 0.5)")
    parser.add_argument("--shard", type=int, default=None, metavar="K",
                        help="this process's number when several processes share one database behind a "
                             "load balancer that routes /s{K}-... game ids to process K (see docs/web.md)")
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                        help="offer an external engine (docs/protocol.md) as a computer opponent named "
                             "NAME, next to the levels; COMMAND as in an engine:COMMAND bot spec, e.g. "
                             "--engine mybot=\"python mybot.py\" or "
                             "--engine fast=\"cmd='python mybot.py',time=0.5\" (repeatable)")
    parser.add_argument("--abandon-after", type=float, default=24.0, metavar="HOURS",
                        help="mark a game nobody has moved in for this many hours abandoned: it is "
                             "listed so and can no longer be played (default 24; 0: never)")
    parser.add_argument("--redis-url", default=None, metavar="URL",
                        help="with several processes (--shard), Redis for clients of one game on "
                             "different processes: redis://host:6379/0 (docs/web.md)")
    parser.add_argument("--lease", type=float, default=10.0, metavar="SECONDS",
                        help="with --shard: how long a process's hold on its games lasts unrenewed, so how "
                             "soon another process takes the games of one that was killed (default 10)")
    parser.add_argument("--stop-wait", type=float, default=3.0, metavar="SECONDS",
                        help="how long a stopping server waits for open requests (lobby event streams, "
                             "quick-pairing waits) before cutting them; with --shard its games go to the "
                             "other processes first (default 3)")
    parser.add_argument("--unfinished-per-client", type=int, default=20, metavar="N",
                        help="games waiting or being played that one address may have made at once "
                             "(default 20)")
    parser.add_argument("--grace", type=float, default=60.0, metavar="SECONDS",
                        help="in a game between people, how long a player may be away (no connection) "
                             "while the opponent waits, before losing the match (default 60)")
    parser.add_argument("--seed", type=int, default=None, metavar="N",
                        help="deal and let the computer choose from seed N: the same games again, for tests "
                             "and demonstrations only (whoever knows N knows every deck; default: "
                             "unpredictable deals)")
    parser.add_argument("--forwarded-allow-ips", default="", metavar="IPS",
                        help="comma-separated addresses of reverse proxies whose X-Forwarded-For and "
                             "X-Forwarded-Proto headers are trusted to give the client's address "
                             "(default: none, so every limit counts the connecting address; '*' "
                             "trusts everyone, only behind a proxy that sets the header itself)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from sixtysix.server import Settings, create_app, default_database_url
        from sixtysix.server.guard import Guard, protocols
        from sixtysix.server.opponents import Opponents, parse_engine
    except ImportError as exc:
        raise OSError(f"the web server needs the web extra ({install_command('web')}): {exc}") from None
    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be from 1 to 65535, not {args.port}")
    if args.shard is not None and not 0 <= args.shard < 1000:
        raise ValueError("--shard must be a number from 0 to 999")
    if args.message_rate <= 0 or args.connections_per_client < 1 or args.create_rate <= 0:
        raise ValueError("--message-rate, --connections-per-client and --create-rate must be positive")
    if args.unfinished_per_client < 1:
        raise ValueError("--unfinished-per-client must be at least 1")
    if not args.websockets_per_second > 0:
        raise ValueError("--websockets-per-second must be more than 0")
    if args.sockets_per_client < 1 or args.spectators_per_game < 0:
        raise ValueError("--sockets-per-client must be at least 1, --spectators-per-game at least 0")
    if not 0 < args.request_timeout <= 3600 or not 0 < args.keep_alive <= 3600:
        raise ValueError("--request-timeout and --keep-alive must be more than 0 and at most 3600 seconds")
    if not 0.5 <= args.lease <= 3600:
        raise ValueError("--lease must be from 0.5 to 3600 seconds")
    if not 0 <= args.stop_wait <= 3600:
        raise ValueError("--stop-wait must be from 0 to 3600 seconds")
    if not 0 < args.grace <= 86_400:
        raise ValueError("--grace must be more than 0 and at most 86400 seconds")
    engines = tuple(parse_engine(text) for text in args.engine)
    Opponents(engines)  # each engine checked (a clear EngineOptionError) before anything is opened
    url = args.database_url or default_database_url()
    app = create_app(Settings(database_url=url, message_rate=args.message_rate,
                              message_burst=2 * args.message_rate,
                              connections_per_client=args.connections_per_client,
                              create_rate=args.create_rate, create_burst=max(40.0, args.create_rate),
                              shard=args.shard, engines=engines, grace=args.grace, redis_url=args.redis_url,
                              lease=args.lease,
                              unfinished_per_client=args.unfinished_per_client,
                              spectators_per_game=args.spectators_per_game, seed=args.seed,
                              abandoned_after=args.abandon_after * 3600 if args.abandon_after > 0 else None))
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"Sixty-six server: open http://{shown}:{args.port}/ in a browser "
          f"(database: {_safe_url(url)}). Stop with Ctrl-C.", flush=True)
    # Frames larger than 64 KiB are refused by the WebSocket layer; smaller
    # oversized messages get an error reply from the protocol.
    # States are a few kilobytes: compressing each costs more CPU than it saves.
    # Forwarded headers are believed only from the proxies named: by default a client
    # cannot pose as other addresses to escape the per-address limits.
    proxies = args.forwarded_allow_ips.strip()
    limit_malloc_arenas()
    dump_stacks_on_signal()
    # Facing clients directly, the server guards itself (sixtysix.server.guard): a time for
    # each request to arrive, a size for its head, connections per address (a trusted
    # proxy's not counted: the application counts each client behind it).
    http, ws = protocols(Guard(per_address=args.sockets_per_client, request_timeout=args.request_timeout,
                               upgrade_rate=args.websockets_per_second,
                               upgrade_burst=max(1.0, 10 * args.websockets_per_second),
                               exempt=frozenset(a.strip() for a in proxies.split(",") if a.strip())))
    config = uvicorn.Config(app, host=args.host, port=args.port, ws_max_size=65536,
                            ws_per_message_deflate=False, http=http, ws=ws if ws is not None else "none",
                            timeout_keep_alive=args.keep_alive,
                            proxy_headers=bool(proxies), forwarded_allow_ips=proxies or None,
                            log_level=os.environ.get("SIXTYSIX_LOG_LEVEL", "warning"),
                            # Lobby pages' event streams and quick-pairing waits never end by
                            # themselves: a stop waits this long for them, then cuts them.
                            timeout_graceful_shutdown=args.stop_wait)
    server = _hand_over_first(config, app.state.hand_over)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0 if server.started else 3  # 3: uvicorn's code for a server that could not start


def _hand_over_first(config: uvicorn.Config, hand_over: Callable[[], Awaitable[None]]) -> uvicorn.Server:
    """uvicorn's server, whose stop hands the games to the other processes before it
    waits for the open requests: a stopped process's players are not kept waiting by
    the grace (the lobby pages' event streams hold it to its end)."""
    import uvicorn

    class HandOverFirst(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            for listening in self.servers:
                listening.close()  # no new connections while the games go
            try:
                await hand_over()
            except Exception:
                log.exception("the games could not be handed over before the stop")
            await super().shutdown(sockets)

    return HandOverFirst(config)


#: glibc's M_ARENA_MAX option of mallopt(3).
_M_ARENA_MAX = -8


def limit_malloc_arenas(count: int = 2) -> bool:
    """Let the C allocator keep at most ``count`` arenas (glibc; elsewhere nothing).

    glibc gives threads that allocate at once arenas of their own, up to eight per
    core, and keeps what each once held: the server's worker threads (one for each
    game's computer player) left it 6 MiB larger after ``benchmarks/soak.py`` (+14.8%
    against +9.3% with two arenas). Returns whether the limit was set.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_ARENA_MAX, count))


def dump_stacks_on_signal() -> bool:
    """Let an operator see what a server that does not answer, or does not stop, is
    doing (POSIX): ``kill -USR1`` writes every thread's stack to standard error,
    ``kill -USR2`` every asyncio task's. Returns whether the signals were set up.

    Both dumps run in the main thread between two of its steps (within a tenth of a
    second: uvicorn's loop ticks), holding the interpreter: the other threads' frames
    stand still while they are read. ``faulthandler.register`` would answer even a
    loop stuck in a C call, but its handler reads the frames from whichever thread the
    signal reaches while they change: it crashed the server (SIGSEGV) once in 60 dumps.
    """
    if not hasattr(signal, "SIGUSR1"):
        return False
    signal.signal(signal.SIGUSR1, _dump_threads)
    signal.signal(signal.SIGUSR2, _dump_tasks)
    return True


def _dump_threads(_signum: int, _frame: object) -> None:
    sys.stderr.flush()
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)


#: The last line of the asyncio tasks' dump (``kill -USR2``).
TASKS_DUMPED = "(end of the asyncio tasks)"


def _dump_tasks(_signum: int, _frame: object) -> None:
    try:
        tasks = asyncio.all_tasks()
    except RuntimeError:  # no event loop running (yet)
        print("no event loop running", file=sys.stderr, flush=True)
        return
    text = io.StringIO()  # written at once, so a reader never sees half of it
    print(f"{len(tasks)} asyncio task(s):", file=text)
    for task in tasks:
        task.print_stack(limit=20, file=text)
    print(TASKS_DUMPED, file=text)
    sys.stderr.write(text.getvalue())
    sys.stderr.flush()


def _safe_url(url: str) -> str:
    """The URL without a password, for printing."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
