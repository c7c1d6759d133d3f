"""Playing hands and matches between bots (used by ``simulate``, ``play`` and arenas).

>>> from sixtysix.bots import make_bot
>>> match = play_match([make_bot("random", seed=1), make_bot("random", seed=2)], seed=9)
>>> match.is_over()
True
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.errors import BotError, Forfeit
from sixtysix.game.hand import Hand
from sixtysix.game.match import Match
from sixtysix.game.player import Bot
from sixtysix.game.table import Table
from sixtysix.rules import CLASSIC, Rules

__all__ = ["BotError", "Forfeit", "play_hand", "play_match"]

def play_hand(hand: Hand, bots: Sequence[Bot]) -> Hand:
    """Play ``hand`` to its end, seat ``i`` being ``bots[i]``; each bot sees only its view.

    A bot that raises :class:`Forfeit` loses the hand (:meth:`Hand.forfeit`); a bot
    that chooses an illegal action raises :class:`BotError`.
    """
    table = Table(bots)
    table.start(hand)
    table.run()
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
    table = Table(bots)
    while not match.is_over():
        table.start(match.deal())
        table.run()
    table.match_over(match.score)
    return match
