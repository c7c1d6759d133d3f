"""The bot protocol (docs/design.md §7) and a convenient base class for bots.

The protocol itself (:class:`Bot`, the optional hooks, :class:`Event`) lives in
:mod:`sixtysix.game.player`, below the bots; it is re-exported here.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence

from sixtysix.game.actions import Action
from sixtysix.game.player import Bot, Event, Hooks, MatchOverHook, NewHandHook, ObserveHook, SeenHook
from sixtysix.game.views import View

__all__ = ["BaseBot", "Bot", "Event", "Hooks", "MatchOverHook", "NewHandHook", "ObserveHook", "SeenHook"]


class BaseBot(abc.ABC):
    """A convenient base: the optional hooks do nothing; subclasses define :meth:`choose`."""

    name = "bot"

    def new_hand(self, view: View) -> None:  # noqa: B027  (an optional hook)
        """Called at the start of every hand with the bot's first view."""

    def observe(self, event: Event) -> None:  # noqa: B027  (an optional hook)
        """Called after every action, by either seat."""

    @abc.abstractmethod
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` for the seat of ``view``."""
