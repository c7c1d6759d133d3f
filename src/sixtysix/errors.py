"""Exceptions raised by sixtysix. All are :class:`ValueError` subclasses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sixtysix.actions import Action

__all__ = ["IllegalActionError", "InvalidDeckError", "InvalidRecordError", "ParseError"]


class ParseError(ValueError):
    """Text that is not a valid card, suit, rank, action or option."""


class InvalidDeckError(ValueError):
    """A deck that is not a permutation of the pack (duplicates, missing cards, wrong length)."""


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the current state.

    The message names the legal actions; ``legal`` holds them.
    """

    def __init__(self, action: object, legal: Sequence[Action], why: str = "") -> None:
        self.action = action
        self.legal = tuple(legal)
        choices = " ".join(str(a) for a in self.legal) or "none (the hand is over)"
        reason = f": {why}" if why else ""
        super().__init__(f"illegal action {action}{reason}; legal: {choices}")


class InvalidRecordError(ValueError):
    """A game record that cannot be read or replayed.

    ``hand`` and ``index`` (both from 0) locate the problem when it is an action.
    """

    def __init__(
        self, message: str, *, hand: int | None = None, index: int | None = None
    ) -> None:
        self.hand = hand
        self.index = index
        super().__init__(message)
