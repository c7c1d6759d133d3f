"""Exceptions raised by sixtysix. All are :class:`ValueError` subclasses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sixtysix.game.actions import Action
    from sixtysix.game.refusal import Refusal

__all__ = ["BotError", "Forfeit", "IllegalActionError", "InvalidDeckError", "InvalidRecordError",
           "ParseError"]


class ParseError(ValueError):
    """Text that is not a valid card, suit, rank, action or option."""


class InvalidDeckError(ValueError):
    """A deck that is not a permutation of the pack (duplicates, missing cards, wrong length)."""


class IllegalActionError(ValueError):
    """An action that the rules do not allow in the current state.

    The message names the legal actions; ``legal`` holds them. ``why`` is the
    reason in words (English, as the engine gives it; empty when none was given),
    and ``refusal`` the same reason as the engine made it (a sentence with blanks,
    :class:`sixtysix.game.refusal.Refusal`), which :func:`sixtysix.present.text.prompt.why_illegal`
    shows to a player in his language.
    """

    def __init__(self, action: object, legal: Sequence[Action], why: str | Refusal = "") -> None:
        self.action = action
        self.legal = tuple(legal)
        self.refusal: Refusal | None = None if isinstance(why, str) else why
        why = str(why)
        self.why = why
        choices = " ".join(str(a) for a in self.legal) or "none (the hand is over)"
        reason = f": {why}" if why else ""
        super().__init__(f"illegal action {action}{reason}; legal: {choices}")


class InvalidRecordError(ValueError):
    """A game record that cannot be read or replayed.

    ``hand`` and ``index`` (both from 0: positions in the record's lists) locate the
    problem when it is an action; the message counts hands from 1, as everything a person
    reads does ("hand 1" is the first).
    """

    def __init__(
        self, message: str, *, hand: int | None = None, index: int | None = None
    ) -> None:
        self.hand = hand
        self.index = index
        super().__init__(message)


class BotError(RuntimeError, ValueError):
    """A computer player chose something that is not one of the actions it was offered.

    Raised by the one game loop (:class:`sixtysix.game.table.Table`), and so by the
    runner, the play session, the Gymnasium environment and the course-platform
    bridge. It is a :class:`RuntimeError` as well, as the runner's error of that
    name was. ``bot`` names the player, ``chosen`` is what it returned and
    ``offered`` the actions it was given.
    """

    def __init__(self, message: str, *, bot: str = "", chosen: object = None,
                 offered: Sequence[Action] = ()) -> None:
        self.bot = bot
        self.chosen = chosen
        self.offered = tuple(offered)
        super().__init__(message)


class Forfeit(BotError):
    """Raised by a bot's ``choose`` when its program failed (an external engine
    that crashed, ran out of time or answered with something illegal): the seat
    loses the hand (:meth:`~sixtysix.game.hand.Hand.forfeit`) and play goes on. The
    message says what went wrong.

    A bot that gives ``who`` forfeits and ``why`` apart (an engine does) lets a host
    that counts the match's hands itself say which hand in its own count (:meth:`at`):
    hands are counted from 1.

    >>> forfeit = Forfeit.of("engine 'x' (seat 1)", "it died", hand=1)
    >>> str(forfeit)
    "engine 'x' (seat 1) forfeits hand 1 of the match: it died"
    >>> forfeit.at(2)
    "engine 'x' (seat 1) forfeits hand 2 of the match: it died"
    """

    def __init__(self, message: str, *, who: str | None = None, why: str | None = None) -> None:
        super().__init__(message)
        self.who = who
        self.why = why

    @classmethod
    def of(cls, who: str, why: str, *, hand: int) -> Forfeit:
        """``who`` forfeits hand ``hand`` of the match (as the bot counts, from 1) for ``why``."""
        return cls(f"{who} forfeits hand {hand} of the match: {why}", who=who, why=why)

    def at(self, hand: int) -> str:
        """The message, for hand ``hand`` of the match (counted from 1)."""
        if self.who is None or self.why is None:
            return f"hand {hand}: {self}"
        return f"{self.who} forfeits hand {hand} of the match: {self.why}"
