"""The bot protocol (DESIGN.md §4).

A bot is given a :class:`~sixtysix.views.View` (what its seat may know, R11)
and the legal actions, and returns one of them. It never sees a
:class:`~sixtysix.hand.Hand`.
"""

from __future__ import annotations

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


class BaseBot:
    """A convenient base: the optional hooks do nothing."""

    name = "bot"

    def new_hand(self, view: View) -> None:
        """Called at the start of every hand with the bot's first view."""

    def observe(self, event: Event) -> None:
        """Called after every action, by either seat."""

    def choose(self, view: View, legal: Sequence[Action]) -> Action:  # pragma: no cover
        raise NotImplementedError
