"""Card pictures as SVG, and hands and views as HTML for Jupyter (standard library only).

These are the pictures of the web client (served by ``sixtysix serve`` at
``/cards/KH.svg``) and of the notebook display: ``Card._repr_svg_``,
``View._repr_html_`` (what one seat may see) and ``Hand._repr_html_`` (the
full state, both hands) all draw with :func:`card_svg` and :func:`back_svg`.

Each face shows the rank in two corners with a small suit sign and a large
suit sign in the middle; hearts and diamonds are red. The size is 200x280
user units, scaled by the page.

>>> from sixtysix.game.cards import Card
>>> svg = card_svg(Card.parse("QH"))
>>> svg.startswith("<svg") and 'data-card="QH"' in svg
True
"""

from __future__ import annotations

import base64
import functools
import html
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sixtysix.game.cards import Card, Suit
from sixtysix.i18n import _, card_name, language, rank_letter, use
from sixtysix.present.text.screen import sorted_cards

if TYPE_CHECKING:
    from sixtysix.game.hand import Hand
    from sixtysix.game.views import View

__all__ = ["back_svg", "card_img", "card_svg", "hand_html", "view_html"]

WIDTH, HEIGHT = 200, 280

# Suit signs as paths in a box from -50 to 50, centred on 0,0.
_SUIT_PATHS: dict[str, str] = {
    "H": "M0,45 C-20,25 -50,5 -50,-18 C-50,-38 -32,-48 -20,-48 C-8,-48 0,-38 0,-28 "
         "C0,-38 8,-48 20,-48 C32,-48 50,-38 50,-18 C50,5 20,25 0,45 Z",
    "D": "M0,-50 L38,0 L0,50 L-38,0 Z",
    "S": "M0,-50 C-18,-28 -50,-10 -50,12 C-50,30 -32,38 -18,34 C-10,32 -5,26 -3,20 "
         "C-5,34 -12,44 -22,50 L22,50 C12,44 5,34 3,20 C5,26 10,32 18,34 "
         "C32,38 50,30 50,12 C50,-10 18,-28 0,-50 Z",
    "C": "M-4,10 C-10,24 -26,32 -32,30 A20,20 0 1 1 -14,-4 A20,20 0 1 1 14,-4 A20,20 0 1 1 32,30 "
         "C26,32 10,24 4,10 C6,30 12,42 22,50 L-22,50 C-12,42 -6,30 -4,10 Z",
}
_RED = "#c8102e"
_BLACK = "#1b1b1b"
_RANK_TEXT = {"9": "9", "T": "10", "J": "J", "Q": "Q", "K": "K", "A": "A"}
#: The four-colour deck: each suit its own colour (spades black, hearts red, diamonds
#: blue, clubs green), so that a glance tells diamonds from hearts.
_FOUR_COLOURS = {"S": _BLACK, "H": _RED, "D": "#1f5fbf", "C": "#1d7a3a"}


def _suit(letter: str, x: float, y: float, scale: float, colour: str) -> str:
    return (f'<path d="{_SUIT_PATHS[letter]}" fill="{colour}" '
            f'transform="translate({x} {y}) scale({scale})"/>')


def card_svg(card: Card, *, four_colours: bool = False) -> str:
    """The face of ``card`` as a standalone SVG document, its rank printed with the
    letters of the current language (:func:`sixtysix.i18n.rank_letter`: a German
    queen shows ``D``), in two colours or, with ``four_colours``, four.

    >>> from sixtysix.i18n import use
    >>> with use("de"):
    ...     '>D</text>' in card_svg(Card.parse("QH")), 'aria-label="Herz-Dame"' in card_svg(Card.parse("QH"))
    (True, True)
    """
    return _card_svg(card, language(), four_colours)


@functools.cache
def _card_svg(card: Card, lang: str, four_colours: bool) -> str:
    text = str(card)
    suit = text[1]
    with use(lang):
        rank = rank_letter(_RANK_TEXT[text[0]])
        title = html.escape(card_name(text), quote=True)
    if four_colours:
        colour = _FOUR_COLOURS[suit]
    else:
        colour = _RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK
    corner = (f'<text x="0" y="0" font-family="Georgia, \'DejaVu Serif\', serif" font-size="46" '
              f'font-weight="bold" text-anchor="middle" fill="{colour}">{rank}</text>'
              + _suit(suit, 0, 30, 0.3, colour))
    middle = _suit(suit, 100, 145, 1.1, colour)
    if text[0] in "JQK":
        # Court cards: a framed panel with the rank large over the suit.
        middle = (f'<rect x="45" y="55" width="110" height="170" rx="8" fill="none" '
                  f'stroke="{colour}" stroke-width="3"/>'
                  f'<text x="100" y="140" font-family="Georgia, \'DejaVu Serif\', serif" font-size="84" '
                  f'font-weight="bold" text-anchor="middle" fill="{colour}">{rank}</text>'
                  + _suit(suit, 100, 182, 0.6, colour))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" data-card="{text}" role="img" aria-label="{title}">'
        f'<title>{title}</title>'
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="16" fill="#fffdf7" '
        f'stroke="#6b6b6b" stroke-width="3"/>'
        f'<g transform="translate(30 52)">{corner}</g>'
        f'<g transform="rotate(180 100 140) translate(30 52)">{corner}</g>'
        f'{middle}</svg>'
    )


def back_svg() -> str:
    """The back of every card."""
    return _back_svg(language())


@functools.cache
def _back_svg(lang: str) -> str:
    with use(lang):
        title = html.escape(_("card back"), quote=True)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{title}"><title>{title}</title>'
        '<defs><pattern id="lattice" width="20" height="20" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="20" height="20" fill="#1f4e8c"/>'
        '<path d="M0,10 H20 M10,0 V20" stroke="#8fb3e0" stroke-width="3"/></pattern></defs>'
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="16" fill="#fffdf7" '
        'stroke="#6b6b6b" stroke-width="3"/>'
        f'<rect x="14" y="14" width="{WIDTH - 28}" height="{HEIGHT - 28}" rx="10" fill="url(#lattice)"/>'
        '</svg>'
    )


# HTML for notebooks --------------------------------------------------------------------

#: Width of a card in the HTML displays, in CSS pixels.
CARD_WIDTH = 56


@functools.cache
def _data_uri(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode("ascii")


def card_img(card: Card | None, width: int = CARD_WIDTH) -> str:
    """An HTML ``<img>`` of a card's face, or of the back for ``None``; ``alt`` names the card."""
    svg = back_svg() if card is None else card_svg(card)
    alt = "back" if card is None else str(card)
    return (f'<img src="{_data_uri(svg)}" alt="{alt}" title="{alt}" width="{width}" '
            f'style="margin:1px;vertical-align:middle">')


def _row(label: str, cards: Iterable[Card | None], note: str = "") -> str:
    pictures = "".join(card_img(c) for c in cards) or "<em>none</em>"
    extra = f' <span style="color:#555">{html.escape(note)}</span>' if note else ""
    return (f'<tr><th style="text-align:right;padding-right:8px;vertical-align:middle">'
            f'{html.escape(label)}</th><td style="text-align:left">{pictures}{extra}</td></tr>')


def _text_row(label: str, text: str) -> str:
    return (f'<tr><th style="text-align:right;padding-right:8px">{html.escape(label)}</th>'
            f'<td style="text-align:left">{html.escape(text)}</td></tr>')


def _table(title: str, rows: list[str]) -> str:
    return (f'<div class="sixtysix"><div style="font-weight:bold">{html.escape(title)}</div>'
            f'<table style="border-collapse:collapse">{"".join(rows)}</table></div>')


def _sorted(cards: Iterable[Card], trump: Suit) -> list[Card]:
    return sorted_cards(list(cards), trump)


def _seat_note(view: View, seat: int) -> str:
    shown = [f"{m.suit.symbol} {m.value}" for m in view.marriages if m.seat == seat]
    return (f"{view.scores[seat]} points, {view.tricks_won[seat]} tricks, "
            f"marriages: {', '.join(shown) or 'none'}")


def view_html(view: View) -> str:
    """What ``view``'s seat may see, as HTML: its own cards face up, the opponent's as backs
    (those it is known to hold face up), the trump, the stock, the trick, the scores (R11)."""
    me, them = view.seat, view.opponent
    known = _sorted(view.known_opponent_cards(), view.trump)
    opponent_count = len(view.hand)
    if view.lead is not None:
        opponent_count += 1 if view.lead[0] == me else -1
    backs: list[Card | None] = [None] * max(opponent_count - len(known), 0)
    to_act = "-" if view.to_act is None else ("you" if view.to_act == me else "the opponent")
    title = (f"Seat {me} ({'dealer' if view.dealer == me else 'non-dealer'}): trump "
             f"{view.trump.symbol}, {view.state}, to act: {to_act}")
    stock: list[Card | None] = []
    if view.stock_size:
        stock = [view.trump_card] if view.trump_card is not None else [None]
        stock += [None] * min(view.stock_size - 1, 1)
    closed = "" if view.closed_by is None else (" closed by you" if view.closed_by == me
                                                else " closed by the opponent")
    rows = [
        _row("Opponent", [*known, *backs], _seat_note(view, them)),
        _row("Stock", stock, f"{view.stock_size} cards{closed}"),
    ]
    if view.lead is not None:
        leader = "you" if view.lead[0] == me else "the opponent"
        rows.append(_row("Table", [view.lead[1]], f"led by {leader}"))
    elif view.last_trick is not None:
        rows.append(_row("Last trick", [view.last_trick.lead, view.last_trick.follow]))
    rows.append(_row("You", _sorted(view.hand, view.trump), _seat_note(view, me)))
    if view.legal:
        rows.append(_text_row("Legal", " ".join(str(a) for a in view.legal)))
    if view.result is not None:
        result = view.result
        rows.append(_text_row("Result", _result_text(result.winner, result.game_points, result.reason)))
    return _table(title, rows)


def _result_text(winner: int | None, game_points: int, reason: str) -> str:
    if winner is None:
        return f"no winner ({reason})"
    return f"seat {winner} wins {game_points} game point{'s' if game_points != 1 else ''} ({reason})"


def hand_html(hand: Hand) -> str:
    """The full state of ``hand`` as HTML: both hands face up and the stock in drawing order.
    For looking at a game from outside; a player is shown :func:`view_html` of its view."""
    trump = hand.trump
    to_act = "-" if hand.to_act is None else f"seat {hand.to_act}"
    title = f"Hand (dealer: seat {hand.dealer}): trump {trump.symbol}, {hand.state}, to act: {to_act}"
    rows = []
    for seat in (0, 1):
        rows.append(_row(f"Seat {seat}", _sorted(hand.cards(seat), trump),
                         f"{hand.score(seat)} points, {hand.tricks_won(seat)} tricks"))
    closed = "" if hand.closed_by is None else f", closed by seat {hand.closed_by}"
    rows.append(_row("Stock", hand.stock, f"{hand.stock_size} cards, next drawn first{closed}"))
    if hand.lead_card is not None:
        rows.append(_row("Table", [hand.lead_card], f"led by seat {hand.leader}"))
    result = hand.result()
    if result is not None:
        rows.append(_text_row("Result", _result_text(result.winner, result.game_points, result.reason)))
    return _table(title, rows)
