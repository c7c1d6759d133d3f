"""What the server refuses: :class:`GameError`, with the code and HTTP status a client
reads, and the sentence and arguments a page shows in its reader's language (the HTTP
form is :mod:`sixtysix.server.http_errors`, the WebSocket's :func:`refusal_message`).

>>> exc = GameError(Reason.NO_HAND, number=4, hands=2)
>>> str(exc), exc.code, exc.status, exc.args_shown
('There is no hand 4: the game has 2.', 'no_hand', 404, {'number': 4, 'hands': 2})
>>> stopping().status
503
"""

from __future__ import annotations

from typing import Any

from sixtysix.errors import IllegalActionError
from sixtysix.game.cards import Card
from sixtysix.game.refusal import NOT_NOW
from sixtysix.server.messages import ErrorMessage
from sixtysix.server.protocol import ProtocolError
from sixtysix.server.refusals import Reason

__all__ = ["GameError", "IllegalError", "LimitError", "Reason", "Shown", "error", "protocol_error",
           "refusal_message", "stopping"]

#: An argument as a refusal sends it: a card by its code (``QH``), else a number or text.
Shown = str | int | float


def shown(value: object) -> Shown:
    """An argument as the wire carries it."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return value


class GameError(ValueError):
    """A request the game refuses: ``code`` names the kind, ``status`` the HTTP status,
    ``sentence`` and ``args_shown`` what a page says (the message is the sentence filled
    in English)."""

    def __init__(self, reason: Reason, **args: Any) -> None:
        self.code = reason.code
        self.status = reason.status
        self.sentence = reason.sentence
        self.args_shown: dict[str, Shown] = {name: shown(value) for name, value in args.items()}
        super().__init__(self.sentence.format(**self.args_shown))


class LimitError(GameError):
    """A game refused by a limit (:mod:`sixtysix.server.fairplay`)."""


class IllegalError(GameError):
    """An action the rules do not allow: the kernel's reason (:mod:`sixtysix.game.refusal`)
    is the sentence; the message names the legal actions too, for programs."""

    def __init__(self, exc: IllegalActionError) -> None:
        ValueError.__init__(self, str(exc))  # not GameError's: the sentence is the kernel's
        refusal = exc.refusal
        self.code = "illegal"
        self.status = 400
        self.sentence = NOT_NOW if refusal is None else refusal.sentence
        self.args_shown = {} if refusal is None else {name: shown(v) for name, v in refusal.blanks.items()}


def refusal_message(exc: GameError) -> ErrorMessage:
    """A refusal as the WebSocket sends it."""
    return ErrorMessage(type="error", code=exc.code, reason=str(exc), text=exc.sentence, args=exc.args_shown)


def error(reason: Reason, **args: Any) -> ErrorMessage:
    """A refusal as the WebSocket sends it, made from its reason and arguments.

    >>> error(Reason.TOO_MANY_MESSAGES)["code"]
    'rate_limited'
    """
    return refusal_message(GameError(reason, **args))


def protocol_error(exc: ProtocolError) -> ErrorMessage:
    """A message that cannot be understood, as the WebSocket refuses it: its own code,
    and what is wrong with it in English (a page of ours sends none such)."""
    return ErrorMessage(type="error", code=exc.code, reason=str(exc), text=Reason.BAD_MESSAGE.sentence,
                        args={"problem": str(exc)})


def stopping() -> GameError:
    """The answer to a player waiting on a server that stops (for quick pairing, for a
    tournament's next match): 503, so that a load balancer asks another process."""
    return GameError(Reason.STOPPING)
