"""Playing hands and matches between bots (used by ``simulate``, ``play`` and arenas).

>>> from sixtysix.bots import make_bot
>>> match = play_match([make_bot("random", seed=1), make_bot("random", seed=2)], seed=9)
>>> match.is_over()
True
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.actions import Action
from sixtysix.bots.base import Bot, Event
from sixtysix.hand import Hand
from sixtysix.match import Match
from sixtysix.rules import CLASSIC, Rules

__all__ = ["BotError", "play_hand", "play_match"]


class BotError(RuntimeError):
    """A bot returned something that is not a legal action."""


def _call(bot: object, name: str, arg: object) -> None:
    hook = getattr(bot, name, None)
    if hook is not None:
        hook(arg)


def play_hand(hand: Hand, bots: Sequence[Bot]) -> Hand:
    """Play ``hand`` to its end, seat ``i`` being ``bots[i]``; each bot sees only its view."""
    for s in (0, 1):
        _call(bots[s], "new_hand", hand.view(s))
    while not hand.is_over():
        to_act = hand.to_act
        assert to_act is not None
        seat = to_act
        view = hand.view(seat)
        action = bots[seat].choose(view, view.legal)
        if not isinstance(action, Action) or not hand.is_legal(action):
            raise BotError(f"{bots[seat].name} chose {action!r}, not one of "
                           f"{' '.join(str(a) for a in view.legal)}")
        hand.push(action)
        event = Event(seat, action)
        for bot in bots:
            _call(bot, "observe", event)
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
    return match
