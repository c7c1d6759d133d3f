"""Games nobody moves in: marked abandoned after a while (a setting,
``Settings.abandoned_after``), in storage, so that the lobby shows them so and they are
not resumed, and in memory, where their players see it at once."""

from __future__ import annotations

import logging

from sixtysix.server.clocks import ClockScheduler
from sixtysix.server.computers import ComputerPlayers
from sixtysix.server.hall import Hall
from sixtysix.server.notices import Notices
from sixtysix.server.serving import Serving, shard_prefix
from sixtysix.server.status import GameStatus

__all__ = ["Expiry"]

log = logging.getLogger("sixtysix.server")


class Expiry:
    """Marks the idle games of the shards ``serving`` holds abandoned."""

    def __init__(self, hall: Hall, serving: Serving, clocks: ClockScheduler, computers: ComputerPlayers,
                 notices: Notices) -> None:
        self.hall = hall
        self.serving = serving
        self.clocks = clocks
        self.computers = computers
        self.notices = notices

    def expire_idle(self, age: float) -> list[str]:
        """Mark the live games nobody has acted in for ``age`` seconds abandoned; returns their ids."""
        games = self.hall.games
        for game in list(games.values()):
            if game.last_action_at is not None and game.status.live:
                self.hall.touch(game)
        expired = []
        for shard in self.serving.shards():
            expired += self.hall.storage.expire(age, prefix=shard_prefix(shard))
        for game_id in expired:
            left = games.get(game_id)
            if left is not None and left.status.live:
                left.status = GameStatus.ABANDONED
                if left.bot_task is not None:
                    left.bot_task.cancel()
                self.computers.close(left)
                self.clocks.schedule(left)
                left.broadcast()
        if expired:
            log.info("%d games nobody moved in for %s s marked abandoned", len(expired), age)
            self.notices.lobby_changed()
        return expired
