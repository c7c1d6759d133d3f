"""Play over a WebSocket: ``/ws/{id}``. A FastAPI router.

The client first sends ``{"type": "hello", "token": ...}`` (no token, or ``null``, to
watch; a logged-in player's session cookie seats him in his account's seat whatever the
token), then the messages of :mod:`sixtysix.server.protocol`. Each connection is a
:class:`~sixtysix.server.games.Connection` of the game (its seat, or a spectator); a
client of a game another server process holds is relayed to it
(:mod:`sixtysix.server.relay`).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from sixtysix.server.account_api import socket_user
from sixtysix.server.connection import Sendable
from sixtysix.server.depends import Services, client_address, services_of
from sixtysix.server.errors import GameError, Reason, error, protocol_error, refusal_message
from sixtysix.server.games import Connection, Game, GameManager, encode
from sixtysix.server.limits import TokenBucket
from sixtysix.server.messages import ErrorMessage, Reply
from sixtysix.server.protocol import Chat, Hello, Hint, ProtocolError, parse_message
from sixtysix.server.serving import owner_shard

__all__ = ["answer", "router"]

router = APIRouter()


def answer(manager: GameManager, game: Game, seat: int | None, conn: Connection,
           data: str | bytes) -> Reply | None:
    """What one message of a client does (a connection of this process's, or one
    relayed from another): an error or a direct reply, or ``None``."""
    try:
        parsed = parse_message(data)
    except ProtocolError as exc:
        return protocol_error(exc)
    if isinstance(parsed, Hint):
        return manager.ask_hint(game, seat, conn)
    if isinstance(parsed, Chat):
        return manager.say(game, seat, conn, parsed)
    return manager.handle(game, seat, parsed)


@router.websocket("/ws/{game_id}")
async def play(websocket: WebSocket, game_id: str) -> None:
    services = services_of(websocket)
    client = client_address(websocket.client)
    if not services.connections.acquire(client):
        # Accepted only to say why (a refusal before accepting is a bare HTTP 403).
        await websocket.accept()
        await refuse(websocket, error(Reason.TOO_MANY_CONNECTIONS), 1013)
        return
    try:
        await websocket.accept()
        await session(websocket, services, game_id)
    except WebSocketDisconnect:
        pass
    finally:
        services.connections.release(client)


async def refuse(websocket: WebSocket, why: ErrorMessage, close_code: int) -> None:
    """Tell the client why, and close its connection with ``close_code``."""
    await websocket.send_json(why)
    await websocket.close(code=close_code)


async def hello(websocket: WebSocket, timeout: float) -> Hello | None:
    """The client's first message, which must be a hello; ``None`` once refused."""
    try:
        first = await asyncio.wait_for(websocket.receive(), timeout)
    except TimeoutError:
        await refuse(websocket, error(Reason.NO_HELLO), 4408)
        return None
    if first["type"] == "websocket.disconnect":
        return None
    try:
        said = parse_message(_data(first))
    except ProtocolError as exc:
        await refuse(websocket, protocol_error(exc), 4400)
        return None
    if not isinstance(said, Hello):
        await refuse(websocket, error(Reason.NO_HELLO), 4400)
        return None
    return said


def _data(message: Any) -> str | bytes:
    data: str | bytes | None = message.get("text")
    return data if data is not None else message.get("bytes") or b""


async def session(websocket: WebSocket, services: Services, game_id: str) -> None:
    """One client's connection to a game, from its hello to its end."""
    manager = services.manager
    owner = owner_shard(game_id)
    if services.relay is not None and owner is not None and not manager.holds(owner):
        # Another process's game: this one carries the client's messages to it.
        said = await hello(websocket, services.settings.hello_timeout)
        if said is not None:
            await services.relay.relay(websocket, game_id, said.token, owner,
                                       address=client_address(websocket.client),
                                       user=socket_user(websocket, services.accounts))
        return
    seated = await take_seat(websocket, services, game_id)
    if seated is not None:
        await converse(websocket, services, *seated)


async def take_seat(websocket: WebSocket, services: Services, game_id: str) -> tuple[Game, int | None] | None:
    """The game and the seat the client's hello holds (``None``: a spectator); ``None``
    once the client is refused or gone."""
    manager = services.manager
    try:
        manager.get(game_id)  # an unknown game is refused at once
        # Kept in memory while the client says hello (see GameManager.arriving).
        with manager.arriving(game_id):
            said = await hello(websocket, services.settings.hello_timeout)
        # Looked up again (the same object: it was kept), and attached before anything
        # else can run: a connection attached to a copy dropped from memory would miss
        # every move made on the live game.
        game = manager.get(game_id)
    except GameError as exc:
        await refuse(websocket, refusal_message(exc), 4404)
        return None
    if said is None:
        manager.release(game)
        return None
    seat = game.seat_for(said.token, socket_user(websocket, services.accounts))
    if said.token is not None and seat is None:
        manager.release(game)
        await refuse(websocket, error(Reason.BAD_TOKEN), 4403)
        return None
    try:
        manager.admit(game, seat)
    except GameError as exc:  # as many spectators as the game takes: try again later
        manager.release(game)
        await refuse(websocket, refusal_message(exc), 1013)
        return None
    return game, seat


async def converse(websocket: WebSocket, services: Services, game: Game, seat: int | None) -> None:
    """Attach the client's connection to the game, answer its messages until it goes (or
    is closed for its refused messages), then detach it."""
    manager = services.manager

    async def hang_up() -> None:
        await websocket.close(code=1008, reason="too far behind")

    async def end(code: int) -> None:
        await websocket.close(code=code)

    async def send(message: Sendable) -> None:
        await websocket.send_text(encode(message))  # a message shared by many: written once

    conn = Connection(send, seat, hang_up, end, address=client_address(websocket.client))
    writer = asyncio.get_running_loop().create_task(conn.run_writer())
    manager.attach(game, conn)
    try:
        await listen(websocket, services, game, conn)
    finally:
        manager.detach(game, conn)
        # This is the connection's last word: whatever went wrong in the writer or in
        # closing (the client gone meanwhile) was the client's, and ends nothing else.
        with contextlib.suppress(Exception):
            await writer
        if websocket.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):  # the client's, as above
                await websocket.close(code=1000)


async def listen(websocket: WebSocket, services: Services, game: Game, conn: Connection) -> None:
    """The client's messages, each answered, at most as fast as the limits allow; a
    client whose refused messages pass ``max_strikes`` is told and let go."""
    settings = services.settings
    bucket = TokenBucket(settings.message_rate, settings.message_burst)
    strikes = 0
    while not conn.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        reply: Reply | None
        if not bucket.allow():
            reply = error(Reason.TOO_MANY_MESSAGES)
        else:
            reply = answer(services.manager, game, conn.seat, conn, _data(message))
        if reply is not None:
            if reply["type"] == "error":
                strikes += 1
            conn.push(reply)
        if strikes > settings.max_strikes:
            conn.push(error(Reason.TOO_MANY_ERRORS))
            return
