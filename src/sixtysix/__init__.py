"""sixtysix: the card game Sixty-six, exact to the rule book.

>>> import sixtysix
>>> hand = sixtysix.Hand.random(seed=1)
>>> while not hand.is_over():
...     hand.push(hand.legal_actions()[0])
>>> hand.result().reason in sixtysix.REASONS
True
"""

from sixtysix.bots.analysis import ActionValue, Budget, analyse
from sixtysix.errors import (
    BotError,
    Forfeit,
    IllegalActionError,
    InvalidDeckError,
    InvalidRecordError,
    ParseError,
)
from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import CARDS, Card, Rank, Suit
from sixtysix.game.hand import Hand
from sixtysix.game.result import HandResult
from sixtysix.kernel import REASONS
from sixtysix.moved import install as _install_moved
from sixtysix.rules import CLASSIC, PRESETS, Rules
from sixtysix.version import __version__

__all__ = [
    "Action", "ActionKind", "ActionValue", "Budget", "analyse", "CARDS", "Card", "Rank", "Suit",
    "BotError", "Forfeit", "IllegalActionError", "InvalidDeckError", "InvalidRecordError", "ParseError",
    "REASONS", "Hand", "HandResult", "CLASSIC", "PRESETS", "Rules", "__version__",
]

_install_moved()
