"""The chat of a game: the players' room (only in a game between people) and the
spectators' room, which players never see, so that nobody at the table hears help from
the gallery. Every line is stored, and each seat (or each spectator's address) says
at most so many lines."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtysix.server.connection import Connection
from sixtysix.server.errors import GameError, Reason, error, refusal_message
from sixtysix.server.limits import BucketsByKey
from sixtysix.server.messages import ChatLine, ErrorMessage
from sixtysix.server.protocol import Chat
from sixtysix.server.serving import Serving
from sixtysix.server.status import GameKind
from sixtysix.server.storage import FAILURES, Storage

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["CHAT_BURST", "CHAT_RATE", "ChatDesk", "chat_key"]

log = logging.getLogger("sixtysix.server")

#: Lines of chat one seat of a game (however many connections hold it), or the spectators
#: of a game from one address, may send: a burst, then one every ``1 / CHAT_RATE`` seconds.
CHAT_BURST = 5.0
CHAT_RATE = 0.5


class ChatDesk:
    """The lines of chat said in the games this process serves."""

    def __init__(self, storage: Storage, serving: Serving, clock: Callable[[], float]) -> None:
        self.storage = storage
        self.serving = serving
        #: Each seat of a game, and each address among a game's spectators, has its budget
        #: (:data:`CHAT_BURST`, :data:`CHAT_RATE`), however many connections it holds.
        #: ``clock``: seconds that only go forward (a test moves them by hand).
        self.limit = BucketsByKey(CHAT_RATE, CHAT_BURST, size=100_000, clock=clock)

    def say(self, game: Game, seat: int | None, conn: Connection, message: Chat) -> ErrorMessage | None:
        """A line of chat from ``conn``: a player's goes to the two players (only in a game
        between people), a spectator's to the spectators. Returns an error reply, or ``None``."""
        if seat is not None and game.kind is not GameKind.PERSON:
            return error(Reason.NO_CHAT)
        if not self.limit.allow(chat_key(game, conn)):
            return error(Reason.CHAT_RATE)
        try:
            self.serving.check(game)
        except GameError as exc:
            return refusal_message(exc)
        room = "players" if seat is not None else "spectators"
        name = game.names[seat] if seat is not None else None
        line = ChatLine(type="chat", room=room, seat=seat, name=name, text=message.text)
        try:  # kept for a restart or another process taking the game over
            self.storage.add_chat(game.id, room, seat, name, message.text)
        except FAILURES:  # said all the same: a line of chat is not worth a refusal
            log.exception("could not store a line of chat of game %s", game.id)
        game.chat[room].append(line)
        for other in list(game.connections):
            if (other.seat is not None) == (seat is not None):
                other.push(line)
        return None


def chat_key(game: Game, conn: Connection) -> str:
    """Whose budget a line of chat counts against: the seat's (every connection holding it),
    or a spectator's address's in this game (one with no known address: its own).

    >>> game = type("G", (), {"id": "g1"})()
    >>> chat_key(game, Connection(None, 1)), chat_key(game, Connection(None, None, address="10.0.0.7"))
    ('g1 seat 1', 'g1 watching from 10.0.0.7')
    """
    if conn.seat is not None:
        return f"{game.id} seat {conn.seat}"
    return f"{game.id} watching from {conn.address or f'connection {id(conn)}'}"
