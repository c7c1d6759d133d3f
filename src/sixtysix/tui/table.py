"""The table: the trump card and the stock, and the trick on the table or the one
just completed (R3.5), with a few lines of text beside them.

It is drawn from a :class:`~sixtysix.game.views.View` and uses only its public part
(the same from either seat), so the game screen and the replay viewer share it.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from sixtysix.game.cards import Suit
from sixtysix.game.views import View
from sixtysix.i18n import _
from sixtysix.tui.style import MarkupStyle, escape
from sixtysix.tui.widgets import CardView

__all__ = ["TableView", "stock_label"]


def stock_label(trump: Suit, stock_size: int, style: MarkupStyle) -> str:
    """``Trump ♣ · stock 11``, over the trump card and the stock."""
    suit = style.paint_suit(trump.symbol, trump)
    if stock_size:
        return _("Trump {suit} · stock {n}").format(suit=suit, n=stock_size)
    return _("Trump {suit} · stock empty").format(suit=suit)


class TableView(Horizontal):
    """Trump and stock, the trick (the top seat's card left, the bottom seat's right), text."""

    def compose(self) -> ComposeResult:
        with Vertical(id="stock-box"):
            yield Static(id="stock-label", classes="label")
            with Horizontal(classes="cards"):
                yield CardView(id="trump-card")
                yield CardView(id="stock-card")
        with Vertical(id="trick-box"):
            with Horizontal(id="trick-label", classes="label"):
                yield Static(id="top-name", classes="trick-name")
                yield Static(id="bottom-name", classes="trick-name")
            with Horizontal(classes="cards"):
                yield CardView(id="top-card")
                yield CardView(id="bottom-card")
        yield Static(id="info")

    def clear(self) -> None:
        for place in self.query(CardView):
            place.show(None)
        for static in ("#stock-label", "#top-name", "#bottom-name", "#info"):
            self.query_one(static, Static).update("")

    def show(self, view: View, *, top: int, names: tuple[str, str], info: str,
             style: MarkupStyle) -> None:
        """Draw the public part of ``view``; ``names`` are the top and bottom seats' short
        names (over their cards of the trick), ``info`` the text beside (markup)."""
        self.query_one("#stock-label", Static).update(stock_label(view.trump, view.stock_size, style))
        trump_card = self.query_one("#trump-card", CardView)
        if view.trump_card is not None:
            trump_card.show(view.trump_card)
        elif view.closed_by is not None and view.stock_size:
            trump_card.show(view.dealt_trump_card, face_down=True)  # turned down by the close (R6)
        else:
            trump_card.show(None)
        self.query_one("#stock-card", CardView).show(None, face_down=view.stock_size > 0)
        places = {top: self.query_one("#top-card", CardView),
                  1 - top: self.query_one("#bottom-card", CardView)}
        for place in places.values():
            place.show(None)
        self.query_one("#top-name", Static).update(escape(names[0]))
        self.query_one("#bottom-name", Static).update(escape(names[1]))
        if view.lead is not None:
            places[view.lead[0]].show(view.lead[1])
        elif view.last_trick is not None:
            trick = view.last_trick
            places[trick.leader].show(trick.lead)
            places[1 - trick.leader].show(trick.follow)
        self.query_one("#info", Static).update(info)
