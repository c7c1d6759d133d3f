"""Playing hands and matches between bots (used by ``simulate``, ``play`` and arenas).

>>> from sixtysix.bots import make_bot
>>> match = play_match([make_bot("random", seed=1), make_bot("random", seed=2)], seed=9)
>>> match.is_over()
True
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sixtysix.actions import Action
from sixtysix.bots.base import Bot, Event
from sixtysix.hand import Hand
from sixtysix.match import Match
from sixtysix.rules import CLASSIC, Rules

__all__ = ["BotError", "Forfeit", "call_hook", "play_hand", "play_match"]

log = logging.getLogger(__name__)


class BotError(RuntimeError):
    """A bot returned something that is not a legal action."""


class Forfeit(BotError):
    """Raised by a bot's ``choose`` when its program failed (an external engine
    that crashed, ran out of time or answered with something illegal): the
    seat loses the hand (:meth:`~sixtysix.hand.Hand.forfeit`) and play goes on.
    The message says what went wrong."""


def call_hook(bot: object, name: str, arg: object) -> None:
    """Call the bot's optional hook ``name`` (``new_hand``, ``observe``, ``seen``,
    ``match_over``) with ``arg``, if the bot has it."""
    hook = getattr(bot, name, None)
    if hook is not None:
        hook(arg)


def _show(hand: Hand, bots: Sequence[Bot]) -> None:
    """Give the optional ``seen`` hook each seat's view after an action (engines
    are told the card they drew and the result at once)."""
    for s, bot in enumerate(bots):
        hook = getattr(bot, "seen", None)
        if hook is not None:
            hook(hand.view(s))


def play_hand(hand: Hand, bots: Sequence[Bot]) -> Hand:
    """Play ``hand`` to its end, seat ``i`` being ``bots[i]``; each bot sees only its view.

    A bot that raises :class:`Forfeit` loses the hand (:meth:`Hand.forfeit`).
    """
    for s in (0, 1):
        call_hook(bots[s], "new_hand", hand.view(s))
    while not hand.is_over():
        to_act = hand.to_act
        assert to_act is not None
        seat = to_act
        view = hand.view(seat)
        try:
            action = bots[seat].choose(view, view.legal)
        except Forfeit as exc:
            log.warning("%s", exc)
            hand.forfeit(seat)
            _show(hand, bots)
            break
        if not isinstance(action, Action) or not hand.is_legal(action):
            raise BotError(f"{bots[seat].name} chose {action!r}, not one of "
                           f"{' '.join(str(a) for a in view.legal)}")
        hand.push(action)
        event = Event(seat, action)
        for bot in bots:
            call_hook(bot, "observe", event)
        _show(hand, bots)
    return hand


def play_match(
    bots: Sequence[Bot],
    *,
    seed: int | None = None,
    rules: Rules = CLASSIC,
    first_dealer: int | None = None,
) -> Match:
    """Play a whole match (seeded deals) between two bots."""
    match = Match(rules, seed=seed, first_dealer=first_dealer)
    while not match.is_over():
        play_hand(match.deal(), bots)
    for bot in bots:
        call_hook(bot, "match_over", match.score)
    return match
