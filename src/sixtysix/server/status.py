"""What a game on the server is, where it stands, and how a match ended other than by
its target: enumerations whose values are the strings the database and the wire carry.

Each member is a :class:`str` (:class:`enum.StrEnum`), so that a stored row or a JSON
message holds the same text as before and a comparison with that text still holds.

>>> GameStatus("playing") is GameStatus.PLAYING, GameStatus.PLAYING == "playing"
(True, True)
>>> [status.value for status in GameStatus if status.live]
['waiting', 'playing']
>>> GameKind.PERSON, Ending.ABORTED.status
(<GameKind.PERSON: 'person'>, <GameStatus.ABORTED: 'aborted'>)
"""

from __future__ import annotations

import enum

__all__ = ["Ending", "GameKind", "GameStatus", "Offer"]


class GameStatus(enum.StrEnum):
    """Where a game stands."""

    #: A seat is free: the second player has not joined yet.
    WAITING = "waiting"
    PLAYING = "playing"
    #: Over: a player reached the target, resigned, ran out of time or left.
    FINISHED = "finished"
    #: Called off before its first trick was complete: nobody won.
    ABORTED = "aborted"
    #: Nobody moved in it for too long: kept, but never played again.
    ABANDONED = "abandoned"

    @property
    def live(self) -> bool:
        """Whether the game is waiting or being played (resumed after a restart)."""
        return self in (GameStatus.WAITING, GameStatus.PLAYING)


class GameKind(enum.StrEnum):
    """Who plays the second seat."""

    COMPUTER = "computer"
    PERSON = "person"


class Offer(enum.StrEnum):
    """What a player of a game between people asks and the other accepts or declines
    (against the computer it is done at once: the computer accepts)."""

    REMATCH = "rematch"
    #: Take back the asking player's last action of the hand, and those after it.
    TAKEBACK = "takeback"
    #: Call the match off, before its first trick is complete.
    ABORT = "abort"


class Ending(enum.StrEnum):
    """How a match ended other than by a player reaching the target."""

    RESIGNED = "resigned"
    #: A match clock ran out.
    TIME = "time"
    #: A player did not come back in time (a game between people).
    LEFT = "left"
    #: Called off before the first trick was complete.
    ABORTED = "aborted"

    @property
    def status(self) -> GameStatus:
        """The status of a game that ended so."""
        return GameStatus.ABORTED if self is Ending.ABORTED else GameStatus.FINISHED
