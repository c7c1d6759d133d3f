"""What the server refuses: :class:`GameError`, with the code and HTTP status a client
reads (the HTTP form is :mod:`sixtysix.server.http_errors`).

>>> exc = GameError("no such game", "no_game", 404)
>>> str(exc), exc.code, exc.status
('no such game', 'no_game', 404)
>>> stopping().status
503
"""

from __future__ import annotations

__all__ = ["GameError", "stopping"]


class GameError(ValueError):
    """A request the game refuses; ``code`` names the kind, ``status`` the HTTP status."""

    def __init__(self, reason: str, code: str, status: int = 400) -> None:
        super().__init__(reason)
        self.code = code
        self.status = status


def stopping() -> GameError:
    """The answer to a player waiting on a server that stops (for quick pairing, for a
    tournament's next match): 503, so that a load balancer asks another process."""
    return GameError("this server is stopping: ask again", "stopping", 503)
