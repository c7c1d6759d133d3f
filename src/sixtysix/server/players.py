"""A game's computer player on the server: its bot, and the one thread that talks to it.

Every call to the bot (the hooks ``new_hand``, ``observe``, ``seen`` and
``match_over``, then ``choose`` and ``close``) runs in a worker thread of the
game's own, one call after the other in the order the server made them. So
the event loop never waits for a bot (an external engine's calls write to a
pipe, may start a program and wait for its answer up to its time budget), a
bot is never called from two threads at once, and it has heard of every
action before it is asked to choose.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from sixtysix.game.actions import Action
from sixtysix.game.player import Bot, Hooks
from sixtysix.game.views import View
from sixtysix.protocol.bot import EngineBot

__all__ = ["ComputerPlayer"]

log = logging.getLogger("sixtysix.server")


class ComputerPlayer:
    """``bot`` playing ``seat``; ``label`` names the game in log lines."""

    def __init__(self, bot: Bot, seat: int, label: str) -> None:
        self.bot = bot
        self.seat = seat
        self.label = label
        self._lane = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sixtysix-computer")
        self._closed: Future[None] | None = None

    @property
    def closed(self) -> bool:
        return self._closed is not None

    @property
    def hooks(self) -> Hooks:
        """The bot's optional hooks, each queued to run in the worker thread (for the
        game's :class:`~sixtysix.game.table.Table`); nothing is queued once closed."""
        return Hooks.of(self.bot).through(self._queue)

    def _queue(self, hook: Callable[[Any], None], arg: object) -> None:
        if self._closed is None:
            self._lane.submit(self._hook, hook, arg)

    def _hook(self, hook: Callable[[Any], None], arg: object) -> None:
        try:
            hook(arg)
        except Exception:
            # A boundary: a bot is code of its own; logged here, as nobody waits for the
            # result of a hook.
            log.exception("the computer's %s failed in %s", getattr(hook, "__name__", "hook"), self.label)

    async def choose(self, view: View) -> Action:
        """The bot's action for ``view``, after every call queued before.

        Raises what ``choose`` raises: :class:`~sixtysix.errors.Forfeit` when an
        engine failed. Cancelling the wait leaves a choice already begun to end
        in its thread (a bot cannot be interrupted); its result is dropped.
        """
        if self._closed is not None:
            raise RuntimeError("the computer player is closed")
        return await asyncio.wrap_future(self._lane.submit(self.bot.choose, view, view.legal))

    def interrupt(self) -> None:
        """Stop an engine's program now, from the event loop (the server shuts down): a
        ``choose`` waiting for it ends at once. Other bots finish what they do."""
        if isinstance(self.bot, EngineBot):
            self.bot.interrupt()

    def close(self) -> Future[None]:
        """Close the bot after every call queued before (an engine's program is
        stopped); the thread ends then. Returns a future done when it is; safe twice."""
        if self._closed is None:
            self._closed = self._lane.submit(self._close)
            self._lane.shutdown(wait=False)
        return self._closed

    def _close(self) -> None:
        try:
            if isinstance(self.bot, EngineBot):
                self.bot.close(keep=False)  # no idle program left behind for a later game
            else:
                close = getattr(self.bot, "close", None)
                if close is not None:
                    close()
        except Exception:  # a boundary: a bot (or an engine's program) is code of its own
            log.exception("the computer could not be closed in %s", self.label)
