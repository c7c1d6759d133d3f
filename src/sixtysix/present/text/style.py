"""How cards and emphasis look in text: :class:`Style` and :class:`AnsiStyle`.

The plain style prints canonical notation (``KH``) and no escape codes;
:class:`AnsiStyle` uses suit symbols and terminal colours, with the rank letters
printed on the cards in the player's language (:func:`sixtysix.i18n.rank_letter`).
The terminal game's :class:`~sixtysix.tui.style.MarkupStyle` is another one.

>>> from sixtysix.game.actions import Action
>>> from sixtysix.game.cards import Card, Suit
>>> Style().card(Card.parse("KH"), trump=Suit.HEARTS), Style().action(Action.parse("QS+"))
('KH*', 'QS+')
>>> plain = AnsiStyle(color=False)
>>> plain.card(Card.parse("TD")), plain.suit(Suit.SPADES), plain.action(Action.parse("66+H"))
('10♦', '♠ spades', '66+♥')
>>> AnsiStyle().good("Yes")
'\\x1b[1;32mYes\\x1b[0m'
"""

from __future__ import annotations

from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import Card, Suit
from sixtysix.present.text.words import card_text, suit_name

__all__ = ["AnsiStyle", "Style"]


class Style:
    """Plain text: canonical card notation, no colour. Subclass for other looks."""

    symbols = False

    def card(self, card: Card, trump: Suit | None = None) -> str:
        """A card; ``trump`` marks cards of that suit with ``*``."""
        text = self.card_token(card)
        if trump is not None and card.suit == trump:
            text += "*"
        return self.paint_suit(text, card.suit)

    def card_token(self, card: Card) -> str:
        return str(card)

    def suit(self, suit: Suit) -> str:
        """The suit's name (and symbol, where symbols are used)."""
        name = suit_name(suit)
        return self.paint_suit(f"{suit.symbol} {name}" if self.symbols else name, suit)

    def action(self, action: Action) -> str:
        """An action in the notation of docs/design.md §3, with its card styled."""
        if action.card is not None:
            text = self.card_token(action.card)
            if action.kind is ActionKind.MARRIAGE:
                text += "+"
            return self.paint_suit(text, action.card.suit)
        if action.kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
            letter = action.suit.symbol if self.symbols else action.suit.letter
            return "66+" + self.paint_suit(letter, action.suit)
        return str(action)

    def paint_suit(self, text: str, suit: Suit) -> str:
        return text

    def strong(self, text: str) -> str:
        return text

    def dim(self, text: str) -> str:
        return text

    def other(self, text: str) -> str:
        """Text about the opponent's doings."""
        return text

    def good(self, text: str) -> str:
        return text

    def bad(self, text: str) -> str:
        return text


class AnsiStyle(Style):
    """Suit symbols and ANSI colours, for terminals."""

    symbols = True

    def __init__(self, *, color: bool = True, symbols: bool = True) -> None:
        self.color = color
        self.symbols = symbols

    def card_token(self, card: Card) -> str:
        return card_text(card) if self.symbols else str(card)

    def _sgr(self, text: str, code: str) -> str:
        if not self.color:
            return text
        start, reset = f"\x1b[{code}m", "\x1b[0m"
        # A reset inside (a red card in a cyan sentence) must give the outer colour back.
        return start + text.replace(reset, reset + start) + reset

    def paint_suit(self, text: str, suit: Suit) -> str:
        return self._sgr(text, "31") if suit in (Suit.HEARTS, Suit.DIAMONDS) else text

    def strong(self, text: str) -> str:
        return self._sgr(text, "1")

    def dim(self, text: str) -> str:
        return self._sgr(text, "2")

    def other(self, text: str) -> str:
        return self._sgr(text, "36")

    def good(self, text: str) -> str:
        return self._sgr(text, "1;32")

    def bad(self, text: str) -> str:
        return self._sgr(text, "1;33")
