"""The FastAPI application: ``create_app(Settings(database_url=...))`` makes the
services once and assembles the routers of each concern; ``sixtysix serve`` runs one
with uvicorn.

- pages, the manifest, messages and card pictures: :mod:`sixtysix.server.pages`;
- games (made, joined, their facts, records, replays, analysis): :mod:`sixtysix.server.game_api`;
- the lobby (its lists and feed, quick pairing, challenges, opponents): :mod:`sixtysix.server.lobby`;
- accounts: :mod:`sixtysix.server.account_api`; players: :mod:`sixtysix.server.profiles`;
- tournaments: :mod:`sixtysix.server.tournaments`; lessons: :mod:`sixtysix.server.lesson_api`;
- puzzles and their ratings: :mod:`sixtysix.server.puzzle_api`;
- play, over the WebSocket ``/ws/{id}``: :mod:`sixtysix.server.play`.

The routes reach the services through FastAPI dependencies (:mod:`sixtysix.server.depends`).
"""

from __future__ import annotations

import functools
import random

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from sixtysix.server import game_api, lesson_api, lobby, pages, play
from sixtysix.server.account_api import Keepers, account_router
from sixtysix.server.accounts import Accounts
from sixtysix.server.boards import Analyses, analyse_hand
from sixtysix.server.depends import Services
from sixtysix.server.fairplay import Admission, GameLimits, RatedLimits, RatedPlay
from sixtysix.server.feed import LobbyFeed
from sixtysix.server.games import GameManager
from sixtysix.server.http_errors import install_error_handlers
from sixtysix.server.lifespan import Lifespan
from sixtysix.server.limits import ConnectionCounter
from sixtysix.server.middleware import BodyLimit, SecurityHeaders
from sixtysix.server.opponents import Opponents
from sixtysix.server.pages import STATIC
from sixtysix.server.pairing import Pairing
from sixtysix.server.profiles import profile_router
from sixtysix.server.puzzle_api import puzzle_router
from sixtysix.server.puzzle_desk import PuzzleDesk
from sixtysix.server.ratings import Ratings
from sixtysix.server.relay import Relay
from sixtysix.server.settings import Settings, default_database_url
from sixtysix.server.storage import Storage
from sixtysix.server.tournaments import TournamentLimits, Tournaments, tournament_router

# ``STATIC`` and ``analyse_hand`` are named here for the tests that read them from this module.
__all__ = ["STATIC", "Settings", "analyse_hand", "create_app", "default_database_url"]


def make_manager(settings: Settings, storage: Storage, opponents: Opponents, ratings: Ratings) -> GameManager:
    """The game manager with the limits and ratings ``settings`` asks for."""
    admission = Admission(storage, GameLimits(
        rate=settings.create_rate, burst=settings.create_burst, per_address=settings.unfinished_per_client,
        per_account=settings.unfinished_per_account))
    rated_play = RatedPlay(storage.engine, RatedLimits(
        per_pair=settings.rated_per_pair, per_address=settings.rated_per_address,
        abort_budget=settings.abort_budget, bar=settings.abort_bar))
    return GameManager(storage, shard=settings.shard, opponents=opponents, grace=settings.grace,
                       hand_break=settings.hand_break, ratings=ratings, admission=admission,
                       rated_play=rated_play, spectators=settings.spectators_per_game,
                       rng=None if settings.seed is None else random.Random(settings.seed))


def make_relay(settings: Settings, manager: GameManager, storage: Storage, feed: LobbyFeed) -> Relay | None:
    """The pub/sub between server processes, if ``settings`` names a Redis."""
    if settings.redis_url is None:
        return None
    return Relay(settings.redis_url, manager, settings.shard, functools.partial(play.answer, manager),
                 max_strikes=settings.max_strikes, message_rate=settings.message_rate,
                 message_burst=settings.message_burst, hello_timeout=settings.hello_timeout,
                 on_lobby=feed.deliver,
                 # Long enough for a killed process's lease to run out and its shard to be taken over.
                 takeover_wait=2 * settings.lease + 5, exists=storage.exists)


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new application with its own storage and games."""
    settings = settings or Settings()
    opponents = Opponents(settings.engines)  # checked before anything is opened
    storage = Storage(settings.database_url)
    ratings = Ratings(storage.engine)
    puzzles = PuzzleDesk(storage.engine)
    manager = make_manager(settings, storage, opponents, ratings)
    feed = LobbyFeed()
    manager.lobby_hooks.append(feed.changed)
    accounts = Accounts(storage.engine, session_lifetime=settings.session_lifetime)
    tournaments = Tournaments(storage.engine, manager, limits=TournamentLimits(
        rate=settings.tournament_rate, burst=settings.tournament_burst,
        per_account=settings.tournaments_per_account, per_address=settings.tournaments_per_address))
    services = Services(settings=settings, storage=storage, manager=manager, accounts=accounts,
                        opponents=opponents, feed=feed, pairing=Pairing(manager),
                        connections=ConnectionCounter(settings.connections_per_client), analyses=Analyses(),
                        relay=make_relay(settings, manager, storage, feed))
    life = Lifespan(settings, storage, manager, feed, services.pairing, tournaments, services.relay)

    app = FastAPI(title="sixtysix", lifespan=life, docs_url=None, redoc_url=None)
    # Bodies over the limit are refused with 413 as they come in, never read whole.
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    install_error_handlers(app)
    app.state.services = services
    # Named one by one for the operator's tools and the tests; ``hand_over`` is called by
    # ``sixtysix serve`` when it stops (sixtysix.cli.serve).
    app.state.manager, app.state.settings, app.state.hand_over = manager, settings, life.hand_over
    app.state.accounts, app.state.tournaments, app.state.pairing = accounts, tournaments, services.pairing
    keepers = Keepers(live_games=storage.unfinished_of,
                      forget=(storage.forget_user, ratings.forget, tournaments.forget, puzzles.forget))
    app.state.puzzles = puzzles
    for router in (pages.router, account_router(accounts, keepers),
                   profile_router(accounts, ratings, storage, puzzles), tournament_router(tournaments),
                   game_api.router, lobby.router, lesson_api.router,
                   puzzle_router(puzzles, rate=settings.puzzle_rate, burst=settings.puzzle_burst),
                   play.router):
        app.include_router(router)
    # After the pages' routes: ``/static/{name}.html`` is assembled, not served as it is.
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
