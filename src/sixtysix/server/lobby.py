"""The lobby over HTTP: the lists of games, its live feed, quick pairing, a player's
challenges and the computer opponents offered. A FastAPI router.

- ``GET /api/games``: the lobby (open games, games being played) and recently finished
  and abandoned games, games between people only.
- ``GET /api/lobby/events``: server-sent ``lobby`` events, one when the lobby changed
  (:mod:`sixtysix.server.feed`): the page then reads ``/api/games`` again.
- ``POST /api/pairing``: wait for a person who wants the same game, else the computer
  (:mod:`sixtysix.server.pairing`).
- ``GET /api/challenges``: the logged-in player's challenges waiting for an answer.
- ``GET /api/opponents``: the computer opponents offered (the levels, then the
  operator's engines by name) and the default one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.background import BackgroundTask

from sixtysix.rules import Rules
from sixtysix.server.account_api import ActingUser, CurrentUser
from sixtysix.server.depends import Client, Served
from sixtysix.server.errors import GameError, Reason
from sixtysix.server.fairplay import Starter
from sixtysix.server.games import parse_clock, parse_rules
from sixtysix.server.messages import Seated
from sixtysix.server.pairing import MAX_WAIT
from sixtysix.server.pairing import Request as PairingWish
from sixtysix.server.status import GameKind, GameStatus
from sixtysix.server.storage import GameRow

__all__ = ["PairingRequest", "router", "rules_parts"]

router = APIRouter()


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


#: The lobby's lists: each status, and how many of its latest games are listed.
LISTS = (("open", GameStatus.WAITING, 50), ("playing", GameStatus.PLAYING, 50),
         ("finished", GameStatus.FINISHED, 20), ("abandoned", GameStatus.ABANDONED, 10))


@router.get("/api/games")
async def lobby(services: Served) -> dict[str, Any]:
    # From the database, not from memory: with several server processes each
    # holds only its own games, but every lobby lists them all. Games between people
    # only: a game against the computer is its player's, watched only by its link.
    listing = services.storage.listing
    return {name: [listed(row) for row in listing(status=(status,), limit=limit, kind=GameKind.PERSON)]
            for name, status, limit in LISTS}


def listed(row: GameRow) -> dict[str, Any]:
    """A game as the lobby lists it."""
    return {"id": row.id, "kind": row.kind, "level": row.level, "rules": _rules_text(row.rules),
            # The rules as the record holds them and the match's length: the page
            # names them in words, in its language ("Classic, a match to 7 ...").
            **rules_parts(row.rules),
            "players": [row.name0, row.name1], "score": [row.score0, row.score1],
            "status": row.status, "winner": row.winner, "clock": row.clock, "ended": row.ended,
            "rated": bool(row.rated)}


@router.get("/api/lobby/events")
async def lobby_events(services: Served, client: Client) -> Response:
    """The lobby's live feed (sixtysix.server.feed): server-sent events."""
    connections = services.connections
    if services.feed.full() or not connections.acquire(client):
        raise GameError(Reason.TOO_MANY_PAGES)
    # No buffering on the way (nginx would hold the events back), no caching; the
    # connection counted until the stream ends, however it ends.
    return StreamingResponse(services.feed.stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
                             background=BackgroundTask(connections.release, client))


@router.post("/api/pairing", response_model=None)
async def quick_pairing(body: PairingRequest, request: Request, user: ActingUser, services: Served,
                        client: Client) -> Seated:
    """Wait for a person who wants the same game, else the computer (the answer comes
    when the game exists). A client that goes away leaves the queue."""
    # Counted now (waiting requests too); the game made for it is not counted again.
    admission = services.manager.admission
    if admission is not None:
        admission.admit(Starter(client, None if user is None else user.id))
    wish = PairingWish(rules=parse_rules(body.rules, body.target), clock=parse_clock(body.clock),
                       rated=body.rated, user=None if user is None else (user.id, user.name),
                       name=body.name, creator=client)
    seeking = asyncio.get_running_loop().create_task(services.pairing.seek(wish, body.wait))
    while not seeking.done():
        await asyncio.wait({seeking}, timeout=0.5)
        if not seeking.done() and await request.is_disconnected():
            seeking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await seeking
            raise GameError(Reason.GONE)
    paired = seeking.result()
    return Seated(id=paired.game.id, seat=paired.seat, token=paired.token, link=f"/game/{paired.game.id}",
                  opponent=paired.opponent, game=paired.game.info())


@router.get("/api/pairing/outlook")
async def pairing_outlook(user: CurrentUser, services: Served, client: Client,
                          rules: str = Query("classic", max_length=200),
                          target: int | None = Query(None, ge=1, le=100),
                          clock: str | None = Query(None, max_length=16), rated: bool = False,
                          waited: float = Query(0.0, ge=0, le=MAX_WAIT)) -> dict[str, Any]:
    """What a player waiting ``waited`` seconds for quick pairing is told: the ratings he
    is paired across now (wider the longer he waits), how many others wait for the same
    game, and the computer level he gets if nobody comes."""
    wish = PairingWish(rules=parse_rules(rules, target), clock=parse_clock(clock), rated=rated,
                       user=None if user is None else (user.id, user.name), name="", creator=client)
    return services.pairing.outlook(wish, waited)


@router.get("/api/challenges")
async def challenges(user: CurrentUser, services: Served) -> dict[str, Any]:
    """The logged-in player's challenges waiting for an answer: to him, and his own."""
    if user is None:
        raise GameError(Reason.CHALLENGES_NEED_LOGIN)
    incoming, outgoing = services.storage.challenges(user.id)
    return {"incoming": [challenge(r) for r in incoming], "outgoing": [challenge(r) for r in outgoing]}


def challenge(row: GameRow) -> dict[str, Any]:
    """A challenge as its two players see it listed."""
    return {"id": row.id, "players": [row.name0, row.name1], **rules_parts(row.rules),
            "clock": row.clock, "rated": bool(row.rated)}


@router.get("/api/opponents")
async def computer_opponents(services: Served) -> dict[str, Any]:
    return services.opponents.to_json()


def rules_parts(stored: str) -> dict[str, Any]:
    """The rules a game row holds, as a record writes them, and the match's target
    (both ``None`` for rules this version cannot read).

    >>> rules_parts("not json")
    {'rules_json': None, 'target': None}
    """
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
