"""Cards, suits and ranks of the 24-card Sixty-six pack (R1).

Inside the engine a card is an index 0..23 (``suit * 6 + rank``) and a set of
cards is a 24-bit integer; the public API speaks :class:`Card`.

>>> Card.parse("TS")
Card.parse('TS')
>>> str(Card.parse("10♠"))
'TS'
>>> Card.parse("AH").points, Card.parse("AH") > Card.parse("TH")
(11, True)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator

from sixtysix.errors import ParseError
from sixtysix.kernel.tables import beats as _beats

__all__ = [
    "CARDS",
    "FULL_DECK_MASK",
    "RANK_POINTS",
    "Card",
    "Rank",
    "Suit",
    "cards_of",
    "format_cards",
    "mask_of",
    "pack",
    "parse_cards",
]


class Suit(enum.IntEnum):
    """A suit; the letter is the canonical notation (R1.4)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse ``C D H S`` or a suit symbol, case-insensitively.

        >>> Suit.parse("h"), Suit.parse("♠")
        (<Suit.HEARTS: 2>, <Suit.SPADES: 3>)
        """
        key = text.strip().upper()
        try:
            return cls(_SUIT_TOKENS[key])
        except KeyError:
            raise ParseError(
                f"unknown suit {text!r}: expected one of C D H S or ♣ ♦ ♥ ♠"
            ) from None

    def __str__(self) -> str:
        return self.letter


_SUIT_TOKENS = {
    "C": 0, "D": 1, "H": 2, "S": 3,
    "♣": 0, "♦": 1, "♥": 2, "♠": 3,
    "♧": 0, "♢": 1, "♡": 2, "♤": 3,
}


class Rank(enum.IntEnum):
    """A rank; the integer order is the trick-taking order (R1.2: A > 10 > K > Q > J > 9)."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def letter(self) -> str:
        return "9JQKTA"[self]

    @property
    def points(self) -> int:
        """Card points (R1.3)."""
        return RANK_POINTS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse ``A T K Q J 9`` (or ``10``), case-insensitively.

        >>> Rank.parse("10"), Rank.parse("k")
        (<Rank.TEN: 4>, <Rank.KING: 3>)
        """
        key = text.strip().upper()
        try:
            return cls(_RANK_TOKENS[key])
        except KeyError:
            raise ParseError(
                f"unknown rank {text!r}: expected one of A T K Q J 9 (or 10)"
            ) from None

    def __str__(self) -> str:
        return self.letter


_RANK_TOKENS = {"9": 0, "J": 1, "Q": 2, "K": 3, "T": 4, "10": 4, "A": 5}

#: Card points by rank index (R1.3). The one place these values live.
RANK_POINTS: tuple[int, ...] = (0, 2, 3, 4, 10, 11)

FULL_DECK_MASK = (1 << 24) - 1


class Card:
    """An immutable playing card. There are exactly 24 instances (``CARDS``).

    >>> Card(Suit.HEARTS, Rank.KING)
    Card.parse('KH')
    >>> Card(Suit.HEARTS, Rank.KING) is Card.parse("kh")
    True
    """

    __slots__ = ("_text", "index", "mask", "points", "rank", "suit")

    index: int
    suit: Suit
    rank: Rank
    mask: int
    points: int
    _text: str

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> Card:
        return CARDS[int(suit) * 6 + int(rank)]

    @classmethod
    def _make(cls, index: int) -> Card:
        card = object.__new__(cls)
        suit, rank = Suit(index // 6), Rank(index % 6)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "mask", 1 << index)
        object.__setattr__(card, "points", RANK_POINTS[rank])
        object.__setattr__(card, "_text", rank.letter + suit.letter)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @classmethod
    def from_index(cls, index: int) -> Card:
        return CARDS[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card: rank then suit, e.g. ``TS``, ``10s``, ``K♥`` (R1.4)."""
        raw = text.strip()
        if len(raw) < 2 or len(raw) > 3 or not raw.isprintable() or " " in raw:
            raise ParseError(
                f"not a card: {text!r}: expected rank then suit, e.g. TS, 10S, 9H, K♥"
            )
        try:
            rank = Rank.parse(raw[:-1])
            suit = Suit.parse(raw[-1])
        except ParseError as exc:
            raise ParseError(f"not a card: {text!r}: {exc}") from None
        return CARDS[suit * 6 + rank]

    def beats(self, other: Card, trump: Suit) -> bool:
        """Whether this card, played second, wins a trick led by ``other`` (R3.3)."""
        return _beats(self.index, other.index, trump)

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Card.from_index, (self.index,))

    def _repr_svg_(self) -> str:
        """The card's face as SVG, for Jupyter (the web client's picture)."""
        from sixtysix.present.svg import card_svg

        return card_svg(self)


#: All 24 cards, by index (clubs first, nine to ace within a suit).
CARDS: tuple[Card, ...] = tuple(Card._make(i) for i in range(24))


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of some cards.

    >>> bin(mask_of([Card.parse("9C"), Card.parse("JC")]))
    '0b11'
    """
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def iter_mask(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> frozenset[Card]:
    """The cards in a bitmask."""
    return frozenset(CARDS[i] for i in iter_mask(mask))


def parse_cards(text: str) -> list[Card]:
    """Parse space-separated cards.

    >>> parse_cards("QS 10d 9♥")
    [Card.parse('QS'), Card.parse('TD'), Card.parse('9H')]
    """
    return [Card.parse(token) for token in text.split()]


def format_cards(cards: Iterable[Card]) -> str:
    """Format cards as space-separated canonical tokens, in the given order."""
    return " ".join(str(card) for card in cards)


#: The 20-card pack (S1.1): the 24 without the nines.
_PACK20 = tuple(c for c in CARDS if c.rank != Rank.NINE)


def pack(size: int = 24) -> tuple[Card, ...]:
    """The cards of a pack: all 24 (R1.1), or the 20 without nines (Schnapsen, S1.1).

    >>> len(pack()), len(pack(20)), Card.parse("9H") in pack(20)
    (24, 20, False)
    """
    if size == 24:
        return CARDS
    if size == 20:
        return _PACK20
    raise ValueError(f"no pack of {size} cards: 24 or 20")
