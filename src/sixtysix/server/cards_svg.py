"""The card pictures of the web client, drawn here as SVG (no image files, no fonts needed for suits).

Each face shows the rank in two corners with a small suit sign and a large
suit sign in the middle; hearts and diamonds are red. The size is 200x280
user units, scaled by the page.

>>> from sixtysix.cards import Card
>>> svg = card_svg(Card.parse("QH"))
>>> svg.startswith("<svg") and 'data-card="QH"' in svg
True
"""

from __future__ import annotations

import functools

from sixtysix.cards import Card, Suit

__all__ = ["back_svg", "card_svg"]

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
_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def _suit(letter: str, x: float, y: float, scale: float, colour: str) -> str:
    return (f'<path d="{_SUIT_PATHS[letter]}" fill="{colour}" '
            f'transform="translate({x} {y}) scale({scale})"/>')


@functools.cache
def card_svg(card: Card) -> str:
    """The face of ``card`` as a standalone SVG document."""
    text = str(card)
    rank, suit = _RANK_TEXT[text[0]], text[1]
    colour = _RED if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else _BLACK
    title = f"{_RANK_TEXT[text[0]]} of {_SUIT_NAMES[suit]}"
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


@functools.cache
def back_svg() -> str:
    """The back of every card."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="card back"><title>card back</title>'
        '<defs><pattern id="lattice" width="20" height="20" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="20" height="20" fill="#1f4e8c"/>'
        '<path d="M0,10 H20 M10,0 V20" stroke="#8fb3e0" stroke-width="3"/></pattern></defs>'
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{HEIGHT - 4}" rx="16" fill="#fffdf7" '
        'stroke="#6b6b6b" stroke-width="3"/>'
        f'<rect x="14" y="14" width="{WIDTH - 28}" height="{HEIGHT - 28}" rx="10" fill="url(#lattice)"/>'
        '</svg>'
    )
