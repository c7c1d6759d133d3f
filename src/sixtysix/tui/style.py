"""The look of cards and sentences on the full-screen terminal: Rich markup.

:class:`MarkupStyle` is a :class:`~sixtysix.present.text.style.Style` for the sentences
of :mod:`sixtysix.present.text` (so the line game and the full-screen game tell
events in the same words) that writes Rich/Textual content markup: suit
symbols, red hearts and diamonds, colours for good and bad news.

>>> from sixtysix import Card
>>> MarkupStyle().card(Card.parse("TH"))
'[$card-red]10♥[/]'
>>> MarkupStyle().card(Card.parse("QS"))
'Q♠'
>>> from sixtysix import i18n
>>> with i18n.use("de"):
...     MarkupStyle().card(Card.parse("QS"))
'D♠'
"""

from __future__ import annotations

from textual.markup import escape

from sixtysix import i18n
from sixtysix.game.cards import Card, Rank, Suit
from sixtysix.present.text.style import Style
from sixtysix.present.text.words import card_text

__all__ = ["MarkupStyle", "RED_SUITS", "escape", "rank_text"]

RED_SUITS = frozenset({Suit.HEARTS, Suit.DIAMONDS})


def rank_text(card: Card) -> str:
    """The rank as printed on a card in the current language: ``A``, ``10``, ``K``, ``Q``,
    ``J``, ``9`` (``D`` for the queen, ``B`` for the jack in German)."""
    return "10" if card.rank is Rank.TEN else i18n.rank_letter(card.rank.letter)


class MarkupStyle(Style):
    """Suit symbols; red suits in the theme's ``$card-red``; emphasis as markup.

    The colour variable is defined by the app's theme variables; the markup
    only names it.
    """

    symbols = True

    def card_token(self, card: Card) -> str:
        return card_text(card)

    def paint_suit(self, text: str, suit: Suit) -> str:
        return f"[$card-red]{text}[/]" if suit in RED_SUITS else text

    def strong(self, text: str) -> str:
        return f"[b]{text}[/b]"

    def dim(self, text: str) -> str:
        return f"[dim]{text}[/dim]"

    def other(self, text: str) -> str:
        return f"[$accent]{text}[/]"

    def good(self, text: str) -> str:
        return f"[b $success]{text}[/]"

    def bad(self, text: str) -> str:
        return f"[b $warning]{text}[/]"
