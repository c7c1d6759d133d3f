"""What a player at the table is: the bot protocol, its optional hooks, and the
events it is told (docs/design.md §7).

A bot is given a :class:`~sixtysix.game.views.View` (what its seat may know, R11)
and the actions it may take, and returns one of them. It never sees a
:class:`~sixtysix.game.hand.Hand`. The game loop (:class:`sixtysix.game.table.Table`)
calls the optional hooks a player has, found once by :meth:`Hooks.of`.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from sixtysix.game.actions import Action
from sixtysix.game.views import View

__all__ = ["Bot", "Event", "Hooks", "MatchOverHook", "NewHandHook", "ObserveHook", "SeenHook"]


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


T = TypeVar("T")


# The optional hooks: a bot may have any of them; the game loop calls those it has.

@runtime_checkable
class NewHandHook(Protocol):
    """A bot told of each new hand."""

    def new_hand(self, view: View) -> None:
        """Called at the start of every hand (or when the hand is told afresh) with
        the bot's first view."""
        ...


@runtime_checkable
class ObserveHook(Protocol):
    """A bot told of every action, by either seat."""

    def observe(self, event: Event) -> None:
        """Called after every action."""
        ...


@runtime_checkable
class SeenHook(Protocol):
    """A bot shown its view after every action and forfeit (an external engine
    learns the card it drew and the hand's result so)."""

    def seen(self, view: View) -> None:
        """Called after every action and forfeit with the bot's view then."""
        ...


@runtime_checkable
class MatchOverHook(Protocol):
    """A bot told the final score of a match."""

    def match_over(self, score: tuple[int, int]) -> None:
        """Called once, when the match is over."""
        ...


def _skip(_: object) -> None:
    """A hook the player does not have."""


@dataclass(frozen=True)
class Hooks:
    """The optional hooks of one player, looked up once (a hook it lacks does nothing).

    >>> from sixtysix.bots.random_bot import RandomBot
    >>> hooks = Hooks.of(RandomBot())
    >>> hooks.has_seen, Hooks.of(None).has_seen
    (False, False)
    """

    new_hand: Callable[[View], None] = _skip
    observe: Callable[[Event], None] = _skip
    seen: Callable[[View], None] = _skip
    match_over: Callable[[tuple[int, int]], None] = _skip

    @classmethod
    def of(cls, player: object) -> Hooks:
        """The hooks ``player`` has (none for ``None``: a person, or an agent outside)."""
        return cls(
            new_hand=player.new_hand if isinstance(player, NewHandHook) else _skip,
            observe=player.observe if isinstance(player, ObserveHook) else _skip,
            seen=player.seen if isinstance(player, SeenHook) else _skip,
            match_over=player.match_over if isinstance(player, MatchOverHook) else _skip,
        )

    @property
    def has_seen(self) -> bool:
        """Whether the player wants its view after every action (worth building it)."""
        return self.seen is not _skip

    def through(self, call: Callable[[Callable[[Any], None], Any], None]) -> Hooks:
        """The same hooks, each called as ``call(hook, argument)`` (a worker thread
        that runs them in order, say); hooks the player lacks stay skipped."""
        return Hooks(_through(self.new_hand, call), _through(self.observe, call),
                     _through(self.seen, call), _through(self.match_over, call))


def _through(hook: Callable[[T], None],
             call: Callable[[Callable[[Any], None], Any], None]) -> Callable[[T], None]:
    if hook is _skip:
        return hook

    def queued(arg: T) -> None:
        call(hook, arg)
    return queued


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
