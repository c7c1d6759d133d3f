"""The bot protocol (docs/design.md §7).

A bot is given a :class:`~sixtysix.views.View` (what its seat may know, R11)
and the legal actions, and returns one of them. It never sees a
:class:`~sixtysix.hand.Hand`.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from sixtysix.actions import Action
from sixtysix.views import View

__all__ = ["BaseBot", "Bot", "Event"]


@dataclass(frozen=True)
class Event:
    """An action that was taken, as every player sees it (all actions are public)."""

    seat: int
    action: Action


@runtime_checkable
class Bot(Protocol):
    """What the game needs of a computer player."""

    name: str

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """Pick one of ``legal`` for the seat of ``view``."""
        ...


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
