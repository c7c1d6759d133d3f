"""Widgets of the terminal game: cards drawn as cards, rows of cards, a message log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.dom import DOMNode
from textual.message import Message
from textual.widgets import Static

from sixtysix.game.cards import Card
from sixtysix.i18n import _
from sixtysix.tui.style import RED_SUITS, rank_text

__all__ = ["CardRow", "CardView", "MessageLog", "translate_bindings"]


def translate_bindings(node: DOMNode) -> None:
    """Show the descriptions of ``node``'s key bindings (in the footer) in the current
    language. ``BINDINGS`` are made at import time, their descriptions marked with
    :func:`~sixtysix.i18n.N_`; call this from the node's ``__init__``."""
    bindings = node._bindings.key_to_bindings
    for key, items in bindings.items():
        bindings[key] = [replace(b, description=_(b.description)) if b.description else b for b in items]


class CardView(Static):
    """One card, face up (rank and suit in two corners), face down, or an empty place.

    A click posts :class:`CardView.Chosen`. CSS classes say how it is shown:
    ``red`` (hearts, diamonds), ``legal`` / ``illegal`` (playable now or not),
    ``selected`` (the keyboard cursor), ``hinted`` (the hint's best card),
    ``back`` (face down), ``empty`` (no card).
    """

    class Chosen(Message):
        """The player clicked a card."""

        def __init__(self, card: Card) -> None:
            self.card = card
            super().__init__()

    def __init__(self, card: Card | None = None, *, face_down: bool = False,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__("", id=id, classes=classes)
        self.card: Card | None = None
        self.face_down = False
        self.show(card, face_down=face_down)

    def show(self, card: Card | None, *, face_down: bool = False, label: str = "") -> None:
        """Show ``card`` (``None``: an empty place); ``label`` goes under the card."""
        self.card = None if face_down else card
        self.face_down = face_down
        self.set_class(card is not None and card.suit in RED_SUITS and not face_down, "red")
        self.set_class(face_down, "back")
        self.set_class(card is None and not face_down, "empty")
        self.border_subtitle = label
        self.update(self.face())

    def face(self) -> str:
        """The inside of the card for its size: the rank and suit in two corners, and
        on a big card the suit in the middle too."""
        width = self.content_size.width or 5
        height = self.content_size.height or 2
        if self.face_down:
            return "\n".join(["░" * width] * height)
        card = self.card
        if card is None:
            return ""
        corner = rank_text(card) + card.suit.symbol
        lines = [corner.ljust(width)] + [""] * max(height - 2, 0) + [corner.rjust(width)]
        if height >= 5:
            lines[height // 2] = card.suit.symbol.center(width)
        return "\n".join(lines)

    def on_resize(self) -> None:
        self.update(self.face())

    def on_click(self) -> None:
        if self.card is not None:
            self.post_message(self.Chosen(self.card))


class CardRow(Horizontal):
    """A row of card places; :meth:`show` fills the first ones and hides the rest."""

    def __init__(self, places: int, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(*(CardView() for _ in range(places)), id=id, classes=classes)

    @property
    def places(self) -> list[CardView]:
        return list(self.query_children(CardView))

    def show(self, cards: Sequence[Card], *, face_down: bool = False, numbered: bool = False) -> None:
        for i, place in enumerate(self.places):
            if i < len(cards):
                place.display = True
                place.show(cards[i], face_down=face_down, label=str(i + 1) if numbered else "")
            else:
                place.display = False
                place.show(None)
            place.remove_class("legal", "illegal", "selected", "hinted")


class MessageLog(VerticalScroll, can_focus=False):
    """The story of the match, newest line at the bottom, in content markup."""

    MAX_LINES = 300

    def say(self, *lines: str) -> None:
        """Add lines (markup) and scroll to the newest."""
        for line in lines:
            self.mount(Static(line, classes="message"))
        extra = len(self.children) - self.MAX_LINES
        for child in list(self.children)[:max(extra, 0)]:
            child.remove()
        self.scroll_end(animate=False)

    def lines(self) -> list[str]:
        """The plain text of every line shown (for tests and screen readers)."""
        return [Content.from_markup(str(child.content)).plain for child in self.query_children(Static)]
