"""Who is told when games change: the lobby (its lists changed) and whoever scores the
matches that end (tournaments). A hook that fails is logged and never stops a game."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtysix.server.status import GameKind

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["Notices"]

log = logging.getLogger("sixtysix.server")


class Notices:
    """The hooks told of changes."""

    def __init__(self) -> None:
        #: Called with each game whose match has ended (by the rules or called off), after
        #: it is stored and rated: tournaments score their matches so.
        self.finished_hooks: list[Callable[[Game], None]] = []
        #: Called when the lobby's lists change: a game between people made, joined, its
        #: score changed, ended or abandoned (the lobby pushes it to its pages: it says
        #: only that something changed, never what).
        self.lobby_hooks: list[Callable[[], None]] = []

    def lobby_changed(self, game: Game | None = None) -> None:
        """Tell the lobby hooks (``game``: the one that changed; only games between people
        are listed)."""
        if game is not None and game.kind is not GameKind.PERSON:
            return
        for hook in self.lobby_hooks:
            try:
                hook()
            except Exception:  # a boundary: whatever a hook does, the lobby never stops a game
                log.exception("a lobby hook failed")

    def finished(self, game: Game) -> None:
        """The match of ``game`` ended: the lobby and the finished hooks told."""
        self.lobby_changed(game)
        for hook in self.finished_hooks:
            try:
                hook(game)
            except Exception:  # a boundary: a tournament's bookkeeping never stops a game
                log.exception("a hook failed at the end of game %s", game.id)
