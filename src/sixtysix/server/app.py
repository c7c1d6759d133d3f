"""The FastAPI application: pages, the REST API for games, and the WebSocket for play.

``create_app(Settings(database_url=...))`` builds an app; ``sixtysix serve``
runs one with uvicorn. Pages and scripts are package data served as they
are (no build step); card pictures come from :mod:`sixtysix.svg` (shared with the Jupyter display).

REST (JSON):

- ``POST /api/games`` ``{"kind": "computer"|"person", "level", "rules", "target", "name"}``:
  a new game; the answer holds its ``id``, the creator's seat ``token`` and the link to share.
- ``POST /api/games/{id}/join`` ``{"name"}``: take the free seat of a game against a person.
- ``GET /api/opponents``: the computer opponents offered (the levels, then the
  operator's engines by name) and the default one.
- ``GET /api/games``: the lobby (open games, games being played) and recently finished games.
- ``GET /api/lobby/events``: server-sent ``lobby`` events, one when the lobby changed
  (:mod:`sixtysix.server.feed`): the page then reads ``/api/games`` again.
- ``GET /api/games/{id}``: a game's public facts.
- ``GET /api/games/{id}/record``: the record (docs/design.md §4) of a finished game.
- ``GET /api/games/{id}/replay``: every position of a finished game, cards face up, for the replay page.
- ``/api/account/...``: optional player accounts (:mod:`sixtysix.server.account_api`).
- ``GET /api/lessons/{name}?step=N&lang=de``: a guided game (:mod:`sixtysix.lessons`) after
  ``N`` scripted actions, as the learner's seat sees it, with the narration and the next prompt.
- ``GET /api/lessons/{name}/check?step=N&action=KH&lang=de``: whether the learner's choice is
  the scripted one, else why the lesson asks for another.

WebSocket ``/ws/{id}``: the client first sends ``{"type": "hello", "token": ...}``
(no token, or ``null``, to watch), then the messages of :mod:`sixtysix.server.protocol`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import json
import logging
import os
import random
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketState

from sixtysix import i18n
from sixtysix.analysis import Budget
from sixtysix.cards import Card
from sixtysix.hand import Hand
from sixtysix.lessons import LESSONS, Lesson, LessonError, check_json, step_json
from sixtysix.record import MatchReplay, dumps, replay
from sixtysix.review import judge
from sixtysix.rules import Rules
from sixtysix.server.account_api import ActingUser, CurrentUser, account_error, account_router
from sixtysix.server.accounts import AccountError, Accounts
from sixtysix.server.fairplay import Admission, GameLimits, LimitError, RatedLimits, RatedPlay, Starter
from sixtysix.server.feed import LobbyFeed
from sixtysix.server.games import (
    GRACE,
    HAND_BREAK,
    SPECTATORS,
    Connection,
    Game,
    GameError,
    GameManager,
    encode,
    owner_shard,
    parse_clock,
    parse_rules,
)
from sixtysix.server.limits import ConnectionCounter, TokenBucket
from sixtysix.server.middleware import BodyLimit, SecurityHeaders
from sixtysix.server.opponents import Opponents
from sixtysix.server.pairing import MAX_WAIT, Pairing
from sixtysix.server.pairing import Request as PairingWish
from sixtysix.server.profiles import profile_router
from sixtysix.server.protocol import Chat, Hello, Hint, ProtocolError, error, parse_message
from sixtysix.server.ratings import Ratings
from sixtysix.server.relay import Relay
from sixtysix.server.shards import Keeper, Shards
from sixtysix.server.status import GameKind, GameStatus
from sixtysix.server.storage import Storage
from sixtysix.server.tournaments import TournamentLimits, Tournaments, tournament_router
from sixtysix.svg import back_svg, card_svg
from sixtysix.userdata import data_dir
from sixtysix.wire import public_view_json

__all__ = ["Settings", "create_app", "default_database_url"]

log = logging.getLogger("sixtysix.server")

STATIC = Path(str(resources.files("sixtysix.server") / "static"))
#: The pages, each written once with its own title and body; the lines every page's
#: head shares are in ``static/head.part.html``, put in where the page says.
PAGES = ("index", "game", "replay", "lesson", "rules", "player", "tournaments", "tournament")
_HEAD_MARK = "<!-- head.part.html -->"


@functools.cache
def page(name: str) -> str:
    """The page ``name`` (one of :data:`PAGES`) as served: its file with the shared head put in.

    >>> "<meta charset" in page("rules") and "<title" in page("rules")
    True
    """
    text = (STATIC / f"{name}.html").read_text(encoding="utf-8")
    if _HEAD_MARK not in text:
        raise ValueError(f"static/{name}.html has no {_HEAD_MARK}")
    return text.replace(_HEAD_MARK, (STATIC / "head.part.html").read_text(encoding="utf-8").rstrip())
#: The web app manifest: the game installs as an app of its own (a phone's home screen).
MANIFEST = {
    "name": "Sixty-six",
    "short_name": "Sixty-six",
    "description": "The card game Sixty-six: against the computer or a friend.",
    "start_url": "/",
    "scope": "/",
    "display": "standalone",
    "orientation": "any",
    "background_color": "#1e6b45",
    "theme_color": "#1e6b45",
    "icons": [
        {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
    ],
}


def default_database_url() -> str:
    """``SIXTYSIX_DATABASE_URL`` if set, else a SQLite file in the user's data
    directory (:func:`sixtysix.userdata.data_dir`, shared with the terminal game)."""
    url = os.environ.get("SIXTYSIX_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{data_dir() / 'games.db'}"


@dataclass
class Settings:
    """How the server runs; the limits protect it from a misbehaving client."""

    database_url: str = "sqlite://"
    #: Messages a connection may send: ``message_burst`` at once, ``message_rate`` a second.
    message_rate: float = 20.0
    message_burst: float = 40.0
    #: Refused messages after which a connection is closed.
    max_strikes: int = 200
    #: Open WebSocket connections per client address.
    connections_per_client: int = 32
    #: Spectators one game takes at once (``None``: no limit); the next is refused
    #: (``too_many_spectators``). Seats are always taken.
    spectators_per_game: int | None = SPECTATORS
    #: Games a client address (and an account) may start, every way games start (the lobby,
    #: a seat taken, quick pairing, a rematch, a tournament's match: sixtysix.server.fairplay):
    #: a burst, then one every ``1 / create_rate`` seconds.
    create_rate: float = 0.5
    create_burst: float = 40.0
    #: Seconds a new connection has to introduce itself.
    hello_timeout: float = 10.0
    #: The largest request body taken, in bytes (refused with 413 before it is read).
    max_body_bytes: int = 16 * 1024
    #: Seconds after which a game nobody has moved in is marked abandoned (checked at
    #: start-up and every ``abandon_check_every`` seconds): it stays in storage and in the
    #: lobby's list of abandoned games, but nobody can play it any more (``None``: never).
    abandoned_after: float | None = 24 * 3600.0
    abandon_check_every: float = 600.0
    #: Games waiting or being played that one client address may have made or sat down in at once.
    unfinished_per_client: int = 20
    #: Games waiting or being played that one account may hold a seat in at once.
    unfinished_per_account: int = 10
    #: Rated games a day between the same two accounts, and between people with a seat held
    #: from one client address (``too_many_rated``).
    rated_per_pair: int = 10
    rated_per_address: int = 50
    #: Rated matches a player may call off (before the first trick is complete) in a day;
    #: the next bars him from rated play for ``abort_bar`` seconds, each further bar within
    #: a day twice as long (``rated_barred``).
    abort_budget: int = 3
    abort_bar: float = 15 * 60.0
    #: Tournaments an account (and an address) may make: a burst, then one every
    #: ``1 / tournament_rate`` seconds; and how many of its own may be coming or played at once.
    tournament_rate: float = 1 / 600
    tournament_burst: float = 3.0
    tournaments_per_account: int = 3
    tournaments_per_address: int = 5
    #: This process's number when several serve one database (see docs/web.md), else ``None``.
    shard: int | None = None
    #: External engines offered as computer opponents, ``(name, command)`` (``sixtysix serve
    #: --engine NAME=COMMAND``); each game against one runs ``make_bot("engine:" + command)``.
    engines: tuple[tuple[str, str], ...] = ()
    #: Seconds a player of a game against a person may be away (no connection) while the
    #: opponent is at the table before losing the match (``sixtysix serve --grace``).
    grace: float = GRACE
    #: Seconds after a deal before the first player's clock starts.
    hand_break: float = HAND_BREAK
    #: Redis, for clients of one game on different processes (sixtysix.server.relay).
    redis_url: str | None = None
    #: With a ``shard``: seconds a shard's lease lasts unrenewed (it is renewed five times
    #: in that time), so how long the games of a killed process wait before another
    #: process takes them over (sixtysix.server.shards).
    lease: float = 10.0
    #: Seconds a login lasts (accounts: sixtysix.server.account_api): 30 days.
    session_lifetime: float = 30 * 24 * 3600.0


#: Error codes of the framework's own refusals, by HTTP status.
HTTP_CODES = {404: "not_found", 405: "bad_method", 413: "too_large", 415: "bad_request"}


class NewGame(BaseModel):
    # Strict: ``true`` is not the target 1, nor ``"7"`` the number 7.
    model_config = ConfigDict(strict=True)

    kind: str = Field("computer", max_length=16)
    level: str | None = Field(None, max_length=32)
    rules: str = Field("classic", max_length=200)
    target: int | None = Field(None, ge=1, le=100)
    name: str = Field("", max_length=100)
    #: Against the computer: the player may take actions back (the record says so).
    takeback: bool = False
    #: A time control (``5+3``, ``20/move``: sixtysix.clock), or none.
    clock: str | None = Field(None, max_length=16)
    #: Whether the match counts for the ratings (needs an account: sixtysix.server.ratings).
    rated: bool = False
    #: A challenge: the name of the only player (an account) who may take the free seat.
    opponent: str | None = Field(None, max_length=64)


class PairingRequest(BaseModel):
    """A quick pairing (sixtysix.server.pairing): the game wanted, and how long to wait
    for a person before the computer is given."""

    model_config = ConfigDict(strict=True)

    rules: str = Field("classic", max_length=200)
    target: int | None = Field(None, ge=1, le=100)
    clock: str | None = Field(None, max_length=16)
    rated: bool = False
    name: str = Field("", max_length=100)
    wait: float = Field(60.0, ge=0, le=MAX_WAIT)


class JoinGame(BaseModel):
    model_config = ConfigDict(strict=True)

    name: str = Field("", max_length=100)


def _client(host: Any) -> str:
    return str(getattr(host, "host", None) or "unknown")


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new application with its own storage and games."""
    settings = settings or Settings()
    opponents = Opponents(settings.engines)  # checked before anything is opened
    storage = Storage(settings.database_url)
    ratings = Ratings(storage.engine)
    admission = Admission(storage, GameLimits(
        rate=settings.create_rate, burst=settings.create_burst, per_address=settings.unfinished_per_client,
        per_account=settings.unfinished_per_account))
    rated_play = RatedPlay(storage.engine, RatedLimits(
        per_pair=settings.rated_per_pair, per_address=settings.rated_per_address,
        abort_budget=settings.abort_budget, bar=settings.abort_bar))
    manager = GameManager(storage, shard=settings.shard, opponents=opponents, grace=settings.grace,
                          hand_break=settings.hand_break, ratings=ratings, admission=admission,
                          rated_play=rated_play, spectators=settings.spectators_per_game)
    feed = LobbyFeed()

    async def adopt(shard: int) -> None:
        started = time.perf_counter()
        # Read in a thread (hundreds of games' records): the games already here go on meanwhile.
        stored = manager.take_shard(shard, stored=await asyncio.to_thread(
            manager.read_shard, shard, settings.abandoned_after))
        read = time.perf_counter() - started
        for n, one in enumerate(stored):
            game = manager.resume(one)
            if game is not None:
                manager.wake_bot(game)
            if n % 10 == 9:
                await asyncio.sleep(0)  # the clients of the games already here are answered between
        if stored:
            log.log(logging.INFO if shard == settings.shard else logging.WARNING,
                    "shard %d: %d unfinished game(s) resumed in %.2f s (%.2f s reading them)",
                    shard, len(stored), time.perf_counter() - started, read)
        if relay is not None:
            # Only now: hundreds of relayed clients arriving at once would each have their game
            # loaded from the database on its own while the whole shard is being read.
            await relay.take(shard)

    async def give_up(shard: int) -> None:
        if relay is not None:
            await relay.leave(shard)
        manager.give_up(shard)

    manager.lobby_hooks.append(feed.changed)

    keeper = None
    if settings.shard is not None:
        manager.held.clear()  # each shard served only while its lease says so
        keeper = Keeper(Shards(storage.engine), settings.shard, adopt=adopt, give_up=give_up,
                        valid=manager.held.__setitem__, heartbeat=settings.lease / 5, lease=settings.lease)

    async def hand_over() -> None:
        """The server stops: its games go to the other processes, its lobby pages' streams
        end and its players waiting for an opponent are answered, now (before the open
        requests' grace: the lifespan's end comes after it)."""
        if keeper is not None:
            await keeper.close()
        feed.close()
        app.state.pairing.stop()
        app.state.tournaments.stop()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if relay is not None:
            await relay.start()
        if keeper is not None:
            await keeper.start()  # its own shard's games resumed once it holds the lease
        else:
            resumed = manager.resume_all(settings.abandoned_after)
            if resumed:
                log.info("resumed %d unfinished game(s)", resumed)
            for game in list(manager.games.values()):
                manager.wake_bot(game)
        sweeper = asyncio.get_running_loop().create_task(expire_idle_games())
        feeder = asyncio.get_running_loop().create_task(
            feed.run(None if relay is None else relay.publish_lobby))
        yield
        feeder.cancel()
        await hand_over()  # done already when `sixtysix serve` stops (before the open requests' grace)
        if relay is not None:
            await relay.close()
        sweeper.cancel()
        await manager.close()
        storage.close()

    async def expire_idle_games() -> None:
        age = settings.abandoned_after
        if age is None:
            return
        while True:
            await asyncio.sleep(min(settings.abandon_check_every, age))
            try:
                manager.expire_idle(age)
            except Exception:  # a database hiccup: the next round tries again
                log.exception("the check for abandoned games failed")

    app = FastAPI(title="sixtysix", lifespan=lifespan, docs_url=None, redoc_url=None)
    # Bodies over the limit are refused with 413 as they come in, never read whole.
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.state.manager = manager
    app.state.settings = settings
    app.state.hand_over = hand_over
    app.state.accounts = Accounts(storage.engine, session_lifetime=settings.session_lifetime)
    app.exception_handler(AccountError)(account_error)
    app.include_router(account_router(app.state.accounts))
    app.include_router(profile_router(app.state.accounts, ratings, storage))
    app.state.tournaments = Tournaments(storage.engine, manager, limits=TournamentLimits(
        rate=settings.tournament_rate, burst=settings.tournament_burst,
        per_account=settings.tournaments_per_account, per_address=settings.tournaments_per_address))
    app.include_router(tournament_router(app.state.tournaments))
    connections = ConnectionCounter(settings.connections_per_client)

    @app.exception_handler(GameError)
    async def game_error(request: Request, exc: GameError) -> JSONResponse:
        return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status)

    @app.exception_handler(LimitError)
    async def limit_error(request: Request, exc: LimitError) -> JSONResponse:
        return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status)

    @app.exception_handler(LessonError)
    async def lesson_error(request: Request, exc: LessonError) -> JSONResponse:
        return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # The framework's own refusals (no such route, a body too large or unreadable)
        # in the same form as ours.
        code = HTTP_CODES.get(exc.status_code, "bad_request")
        detail = str(exc.detail)
        if exc.status_code == 400 and "parsing the body" in detail:
            detail = "the body is not valid JSON (or is nested too deeply)"
        return JSONResponse({"error": detail, "code": code}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        # One sentence naming each wrong field, in the same form as every other error.
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            problems = "the body is not valid JSON"
        else:
            problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: "
                                 f"{e.get('msg', 'invalid')}" for e in errors[:5])
        return JSONResponse({"error": f"bad request: {problems}", "code": "bad_request"}, status_code=422)

    # Pages ------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return HTMLResponse(page("index"))

    @app.get("/manifest.webmanifest", include_in_schema=False)
    async def manifest() -> JSONResponse:
        return JSONResponse(MANIFEST, media_type="application/manifest+json")

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker() -> FileResponse:
        # Served from the root, so that it may look after every page of the site.
        return FileResponse(STATIC / "sw.js", media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> HTMLResponse:
        return HTMLResponse(page("game"))

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> HTMLResponse:
        return HTMLResponse(page("replay"))

    @app.get("/tournaments", include_in_schema=False)
    async def tournaments_page() -> HTMLResponse:
        return HTMLResponse(page("tournaments"))

    @app.get("/tournament/{tid}", include_in_schema=False)
    async def tournament_page(tid: str) -> HTMLResponse:
        return HTMLResponse(page("tournament"))

    @app.get("/player/{name}", include_in_schema=False)
    async def player_page(name: str) -> HTMLResponse:
        return HTMLResponse(page("player"))

    @app.get("/learn", include_in_schema=False)
    async def lesson_page() -> HTMLResponse:
        return HTMLResponse(page("lesson"))

    @app.get("/rules", include_in_schema=False)
    async def rules_page() -> HTMLResponse:
        # How to play, for players (the lobby's and the table's "How to play").
        return HTMLResponse(page("rules"))

    @app.get("/static/{name}.html", include_in_schema=False)
    async def static_page(name: str) -> HTMLResponse:
        # A page by its file's name (the service worker keeps these for offline play),
        # assembled like the routes above; before the static files, which hold the parts.
        if name not in PAGES:
            raise StarletteHTTPException(404)
        return HTMLResponse(page(name))

    @app.get("/i18n/{wanted}.json", include_in_schema=False)
    async def messages(wanted: str) -> JSONResponse:
        # ``wanted``: the page's languages in order of preference, comma-separated
        # (``de-AT,en``); the first with a catalog, else English.
        codes = [code for code in wanted.split(",")[:20] if i18n.normalize(code) != i18n.DEFAULT]
        body = i18n.catalog(codes[0] if codes else i18n.DEFAULT)
        body["languages"] = i18n.LANGUAGES
        return JSONResponse(body, headers={"Cache-Control": "no-cache"})

    @app.get("/cards/{name}.svg", include_in_schema=False)
    async def card_picture(name: str, lang: str = i18n.DEFAULT, deck: str = "two") -> Response:
        # ``lang``: the letters on the card (``D`` for a German queen); ``deck=four``: four colours.
        with i18n.use(lang):
            if name == "back":
                svg = back_svg()
            else:
                try:
                    svg = card_svg(Card.parse(name), four_colours=deck == "four")
                except ValueError:
                    return JSONResponse({"error": "no such card", "code": "no_card"}, status_code=404)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # REST -------------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    async def create_game(body: NewGame, request: Request, user: ActingUser) -> dict[str, Any]:
        rules = parse_rules(body.rules, body.target)
        clock = parse_clock(body.clock)
        invited = None
        if body.opponent is not None:
            found = app.state.accounts.user_by_name(body.opponent)
            if found is None:
                raise GameError("no player has that name", "no_player", 404)
            invited = (found.id, found.name)
        game, token = manager.create(rules=rules, kind=body.kind, level=body.level, name=body.name,
                                     creator=_client(request.client),
                                     takeback=body.takeback, clock=clock, rated=body.rated,
                                     user=None if user is None else (user.id, user.name), invited=invited)
        manager.wake_bot(game)
        return {"id": game.id, "seat": 0, "token": token, "link": f"/game/{game.id}", "game": game.info()}

    def answer(game: Game, seat: int | None, conn: Connection, data: str | bytes) -> dict[str, Any] | None:
        """What one message of a client does (a connection of this process's, or one
        relayed from another): an error or a direct reply, or ``None``."""
        try:
            parsed = parse_message(data)
        except ProtocolError as exc:
            return error(str(exc), exc.code)
        if isinstance(parsed, Hint):
            return manager.ask_hint(game, seat, conn)
        if isinstance(parsed, Chat):
            return manager.say(game, seat, conn, parsed)
        return manager.handle(game, seat, parsed)

    relay = None if settings.redis_url is None else Relay(
        settings.redis_url, manager, settings.shard, answer, max_strikes=settings.max_strikes,
        message_rate=settings.message_rate, message_burst=settings.message_burst,
        hello_timeout=settings.hello_timeout, on_lobby=feed.deliver,
        # Long enough for a killed process's lease to run out and its shard to be taken over.
        takeover_wait=2 * settings.lease + 5, exists=storage.exists)

    if relay is not None and keeper is not None:
        relay.on_shards = keeper.wake
        keeper.announce = relay.publish_shards

    pairing = Pairing(manager)
    app.state.pairing = pairing

    @app.post("/api/pairing")
    async def quick_pairing(body: PairingRequest, request: Request, user: ActingUser) -> dict[str, Any]:
        """Wait for a person who wants the same game, else the computer (the answer comes
        when the game exists). A client that goes away leaves the queue."""
        client = _client(request.client)
        # Counted now (waiting requests too); the game made for it is not counted again.
        admission.admit(Starter(client, None if user is None else user.id))
        wish = PairingWish(rules=parse_rules(body.rules, body.target), clock=parse_clock(body.clock),
                           rated=body.rated, user=None if user is None else (user.id, user.name),
                           name=body.name, creator=client)
        seeking = asyncio.get_running_loop().create_task(pairing.seek(wish, body.wait))
        while not seeking.done():
            await asyncio.wait({seeking}, timeout=0.5)
            if not seeking.done() and await request.is_disconnected():
                seeking.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await seeking
                raise GameError("the client went away", "gone", 499)
        paired = seeking.result()
        return {"id": paired.game.id, "seat": paired.seat, "token": paired.token,
                "link": f"/game/{paired.game.id}", "opponent": paired.opponent, "game": paired.game.info()}

    @app.get("/api/challenges")
    async def challenges(user: CurrentUser) -> dict[str, Any]:
        """The logged-in player's challenges waiting for an answer: to him, and his own."""
        if user is None:
            raise GameError("log in to see your challenges", "not_logged_in", 401)
        incoming, outgoing = storage.challenges(user.id)

        def shown(row: Any) -> dict[str, Any]:
            return {"id": row.id, "players": [row.name0, row.name1], **_rules_parts(row.rules),
                    "clock": row.clock, "rated": bool(row.rated)}

        return {"incoming": [shown(r) for r in incoming], "outgoing": [shown(r) for r in outgoing]}

    @app.post("/api/games/{game_id}/decline")
    async def decline(game_id: str, user: ActingUser) -> dict[str, Any]:
        """The player challenged says no, or the challenger takes it back."""
        if user is None:
            raise GameError("log in to answer a challenge", "not_logged_in", 401)
        game = manager.get(game_id)
        manager.decline(game, user.id)
        info = game.info()
        manager.release(game)
        return info

    @app.post("/api/games/{game_id}/join")
    async def join_game(game_id: str, body: JoinGame, request: Request, user: ActingUser) -> dict[str, Any]:
        account = None if user is None else (user.id, user.name)
        game, seat, token = manager.join(game_id, body.name, user=account, address=_client(request.client))
        answer = {"id": game.id, "seat": seat, "token": token, "link": f"/game/{game.id}",
                  "game": game.info()}
        manager.release(game)
        return answer

    @app.get("/api/opponents")
    async def computer_opponents() -> dict[str, Any]:
        return opponents.to_json()

    @app.get("/api/lobby/events")
    async def lobby_events(request: Request) -> Response:
        """The lobby's live feed (sixtysix.server.feed): server-sent events."""
        client = _client(request.client)
        if feed.full() or not connections.acquire(client):
            raise GameError("too many open pages: close one and try again", "too_many_connections", 429)

        # No buffering on the way (nginx would hold the events back), no caching; the
        # connection counted until the stream ends, however it ends.
        return StreamingResponse(feed.stream(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
                                 background=BackgroundTask(connections.release, client))

    @app.get("/api/games")
    async def lobby() -> dict[str, Any]:
        # From the database, not from memory: with several server processes each
        # holds only its own games, but every lobby lists them all. Games between people
        # only: a game against the computer is its player's, watched only by its link.
        def rows(status: GameStatus, limit: int) -> list[dict[str, Any]]:
            return [{"id": row.id, "kind": row.kind, "level": row.level, "rules": _rules_text(row.rules),
                     # The rules as the record holds them and the match's length: the page
                     # names them in words, in its language ("Classic, a match to 7 ...").
                     **_rules_parts(row.rules),
                     "players": [row.name0, row.name1], "score": [row.score0, row.score1],
                     "status": row.status, "winner": row.winner, "clock": row.clock, "ended": row.ended,
                     "rated": bool(row.rated)}
                    for row in storage.listing(status=(status,), limit=limit, kind=GameKind.PERSON)]

        return {"open": rows(GameStatus.WAITING, 50), "playing": rows(GameStatus.PLAYING, 50),
                "finished": rows(GameStatus.FINISHED, 20), "abandoned": rows(GameStatus.ABANDONED, 10)}

    @app.get("/api/games/{game_id}")
    async def game_info(game_id: str) -> dict[str, Any]:
        game = manager.get(game_id)
        info = game.info()
        manager.release(game)  # kept in memory only while someone is connected
        return info

    def finished(game_id: str) -> Game:
        game = manager.get(game_id)
        if not game.over:
            manager.release(game)
            # An unfinished record would show the decks: the hidden cards of the hand in play.
            raise GameError("the game is not finished: its record is given out when it is", "not_finished",
                            409)
        return game

    @app.get("/api/games/{game_id}/record")
    async def game_record(game_id: str) -> Response:
        game = finished(game_id)
        manager.release(game)
        return Response(dumps(game.record(), indent=2) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="sixtysix-{game.id}.json"'})

    # The analysis board: every action of a finished hand rated (sixtysix.review.judge:
    # the exact solver once the stock is small or closed, else the search from the actor's
    # own view). Worked out on first demand in a thread, one hand at a time, and kept.
    analyses: collections.OrderedDict[tuple[str, int], dict[str, Any]] = collections.OrderedDict()
    analysing = asyncio.Lock()

    @app.get("/api/games/{game_id}/analysis/{number}")
    async def game_analysis(game_id: str, number: int) -> dict[str, Any]:
        game = finished(game_id)
        manager.release(game)
        if not 1 <= number <= len(game.match.hands):
            raise GameError(f"no hand {number}: the game has {len(game.match.hands)}", "no_hand", 404)
        key = (game.id, number)
        async with analysing:
            if key not in analyses:
                analyses[key] = await asyncio.to_thread(analyse_hand, game.match.hands[number - 1], number)
                while len(analyses) > ANALYSES_KEPT:
                    analyses.popitem(last=False)
        return analyses[key]

    @app.get("/api/games/{game_id}/replay")
    async def game_replay(game_id: str) -> dict[str, Any]:
        game = finished(game_id)
        manager.release(game)
        return {"game": game.info(), "frames": _frames(game)}

    # Lessons: stateless, the step is in each request ------------------------------
    def lesson(name: str) -> Lesson:
        found = LESSONS.get(name)
        if found is None:
            raise LessonError(f"there is no lesson {name!r}", "no_lesson", 404)
        return found

    @app.get("/api/lessons/{name}")
    async def lesson_step(name: str, step: int = 0,
                          lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
        return step_json(lesson(name), step, lang)

    @app.get("/api/lessons/{name}/check")
    async def lesson_check(name: str, step: int, action: str = Query(max_length=8),
                           lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
        return check_json(lesson(name), step, action, lang)

    # Play -------------------------------------------------------------------------
    @app.websocket("/ws/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        client = _client(websocket.client)
        if not connections.acquire(client):
            # Accepted only to say why (a refusal before accepting is a bare HTTP 403).
            await websocket.accept()
            await _refuse(websocket, "too many connections from your address: close one and try again",
                          "too_many_connections", 1013)
            return
        try:
            await websocket.accept()
            await _session(websocket, game_id)
        except WebSocketDisconnect:
            pass
        finally:
            connections.release(client)

    async def _refuse(websocket: WebSocket, reason: str, code: str, close_code: int) -> None:
        await websocket.send_json(error(reason, code))
        await websocket.close(code=close_code)

    async def _hello(websocket: WebSocket) -> Hello | None:
        """The client's first message, which must be a hello; ``None`` once refused."""
        try:
            first = await asyncio.wait_for(websocket.receive(), settings.hello_timeout)
        except TimeoutError:
            await _refuse(websocket, "no hello: send {\"type\": \"hello\", \"token\": ...} first",
                          "no_hello", 4408)
            return None
        if first["type"] == "websocket.disconnect":
            return None
        raw = first.get("text")
        if raw is None:
            raw = first.get("bytes") or b""
        try:
            hello = parse_message(raw)
        except ProtocolError as exc:
            await _refuse(websocket, str(exc), exc.code, 4400)
            return None
        if not isinstance(hello, Hello):
            await _refuse(websocket, "the first message must be a hello", "no_hello", 4400)
            return None
        return hello

    async def _session(websocket: WebSocket, game_id: str) -> None:
        owner = owner_shard(game_id)
        if relay is not None and owner is not None and not manager.holds(owner):
            # Another process's game: this one carries the client's messages to it.
            hello = await _hello(websocket)
            if hello is not None:
                await relay.relay(websocket, game_id, hello.token, owner, address=_client(websocket.client))
            return
        try:
            manager.get(game_id)  # an unknown game is refused at once
        except GameError as exc:
            await _refuse(websocket, str(exc), exc.code, 4404)
            return
        # Kept in memory while the client says hello (see GameManager.arriving).
        with manager.arriving(game_id):
            hello = await _hello(websocket)
        # Looked up again (the same object: it was kept), and attached before anything
        # else can run: a connection attached to a copy dropped from memory would miss
        # every move made on the live game.
        try:
            game = manager.get(game_id)
        except GameError as exc:
            await _refuse(websocket, str(exc), exc.code, 4404)
            return
        if hello is None:
            manager.release(game)
            return
        seat = game.seat_of(hello.token)
        if hello.token is not None and seat is None:
            manager.release(game)
            await _refuse(websocket, "this token holds no seat in this game", "bad_token", 4403)
            return
        try:
            manager.admit(game, seat)
        except GameError as exc:  # as many spectators as the game takes: try again later
            manager.release(game)
            await _refuse(websocket, str(exc), exc.code, 1013)
            return

        async def hang_up() -> None:
            await websocket.close(code=1008, reason="too far behind")

        async def end(code: int) -> None:
            await websocket.close(code=code)

        async def send(message: dict[str, Any]) -> None:
            await websocket.send_text(encode(message))  # a message shared by many: written once

        conn = Connection(send, seat, hang_up, end, address=_client(websocket.client))
        writer = asyncio.get_running_loop().create_task(conn.run_writer())
        manager.attach(game, conn)
        bucket = TokenBucket(settings.message_rate, settings.message_burst)
        strikes = 0
        try:
            while not conn.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                reply: dict[str, Any] | None
                if not bucket.allow():
                    reply = error("too many messages: slow down", "rate_limited")
                else:
                    reply = answer(game, seat, conn, data)
                if reply is not None:
                    if reply["type"] == "error":
                        strikes += 1
                    conn.push(reply)
                if strikes > settings.max_strikes:
                    conn.push(error("too many refused messages: closing", "too_many_errors"))
                    break
        finally:
            manager.detach(game, conn)
            with contextlib.suppress(Exception):
                await writer
            if websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close(code=1000)

    return app


def _rules_parts(stored: str) -> dict[str, Any]:
    try:
        rules = Rules.from_json(json.loads(stored))
    except ValueError:
        return {"rules_json": None, "target": None}
    return {"rules_json": rules.to_json(), "target": rules.target}


def _rules_text(stored: str) -> str:
    try:
        return str(Rules.from_json(json.loads(stored)))
    except ValueError:
        return "?"


#: Analysed hands kept in memory (each a few kilobytes).
ANALYSES_KEPT = 256
#: The search's budget for a position with a large open stock: a quarter of a second.
ANALYSIS_BUDGET = Budget(worlds=24, time=0.25)


def analyse_hand(played: Hand, number: int) -> dict[str, Any]:
    """Every action of the finished hand ``played`` rated for the player who took it: its
    value, the best value and action(s), what it gave away; a forced action (the only
    legal one) is not rated. The search is seeded by the hand: the same board every time."""
    hand = Hand.deal(played.deck, played.dealer, played.rules)
    rated: list[dict[str, Any]] = []
    for index, action in enumerate(played.actions):
        seat = hand.to_act
        if len(hand.legal_actions()) > 1:
            verdict = judge(hand, action, budget=ANALYSIS_BUDGET,
                            rng=random.Random(f"sixtysix-analysis-{number}-{index}"))
            rated.append({"index": index, "seat": seat, "action": str(action),
                          "value": round(verdict.value, 3), "best": [str(a) for a in verdict.best],
                          "best_value": round(verdict.best_value, 3), "loss": round(verdict.loss, 3),
                          "exact": verdict.exact})
        else:
            rated.append({"index": index, "seat": seat, "action": str(action), "forced": True})
        hand.push(action)
    return {"hand": number, "actions": rated}


def _frames(game: Game) -> list[dict[str, Any]]:
    """Every position of a finished game with both hands face up (nothing is hidden any more)."""
    replayed = replay(json.loads(dumps(game.record())))
    assert isinstance(replayed, MatchReplay)
    frames: list[dict[str, Any]] = []
    for number, played in enumerate(replayed.match.hands, start=1):
        hand = Hand.deal(played.deck, played.dealer, played.rules)
        result = played.result()
        for i in range(len(played.actions) + 1):
            if i == len(played.actions) and result is not None and result.reason == "forfeit" and \
                    result.winner is not None:
                hand.forfeit(1 - result.winner)  # the last frame shows the forfeit's result
            view = public_view_json(hand)
            view["hands"] = [sorted(str(c) for c in hand.cards(s)) for s in (0, 1)]
            view["stock"] = [str(c) for c in hand.stock] if hand.stock_size else []
            frames.append({"hand": number, "index": i, "view": view})
            if i < len(played.actions):
                hand.push(played.actions[i])
    return frames
