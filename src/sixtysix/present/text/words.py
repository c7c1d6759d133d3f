"""Words for the game's things in the player's language: suits, ranks, cards as
printed, tricks, the computer's levels, and who is who at the table (:class:`Seats`).

Every word comes from the message catalogs (:mod:`sixtysix.i18n`), in the
language of the context.

>>> from sixtysix.game.cards import Card, Rank, Suit
>>> suit_name(Suit.HEARTS), rank_word(Rank.QUEEN), card_text(Card.parse("TD")), tricks_text(3)
('hearts', 'queen', '10♦', '3 tricks')
>>> seats = Seats(seat=1)
>>> seats.name(1), seats.name(0), seats.pick(0, _("You lead {card}."), _("{name} leads {card}."), card="KS")
('You', 'Computer', 'Computer leads KS.')
>>> with i18n.use("de"):
...     card_text(Card.parse("QH")), suit_name(Suit.SPADES), level_name("hard")
('D♥', 'Pik', 'schwer')
"""

from __future__ import annotations

from dataclasses import dataclass

from sixtysix import i18n
from sixtysix.game.cards import Card, Rank, Suit
from sixtysix.i18n import N_, _, ngettext

__all__ = [
    "LEVEL_NAMES",
    "RANK_NAMES",
    "RANK_ORDER",
    "SUIT_NAMES",
    "Seats",
    "card_text",
    "level_name",
    "rank_word",
    "suit_name",
    "tricks_text",
]

#: The suits' names, in the order of :class:`~sixtysix.game.cards.Suit` (translate with :func:`suit_name`).
SUIT_NAMES = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
#: The ranks' names (translate with :func:`rank_word`).
RANK_NAMES = {Rank.NINE: N_("nine"), Rank.JACK: N_("jack"), Rank.QUEEN: N_("queen"),
              Rank.KING: N_("king"), Rank.TEN: N_("ten"), Rank.ACE: N_("ace")}
#: The ranks from the highest (R1.2).
RANK_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)


def suit_name(suit: Suit) -> str:
    """``hearts``: the suit's name in the current language."""
    return _(SUIT_NAMES[suit])


def rank_word(rank: Rank) -> str:
    """``nine``, ``jack`` ...: a rank in words, in the current language."""
    return _(RANK_NAMES[rank])


def card_text(card: Card) -> str:
    """A card as printed on it, in the current language: ``10♦``, ``Q♥`` (``D♥`` in German)."""
    rank = "10" if card.rank is Rank.TEN else i18n.rank_letter(card.rank.letter)
    return rank + card.suit.symbol


def tricks_text(n: int) -> str:
    """``1 trick``, ``3 tricks``."""
    return ngettext("{n} trick", "{n} tricks", n).format(n=n)


#: The computer's levels in words (translate with ``_``): the names every front end uses.
LEVEL_NAMES = {"random": N_("random"), "easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"),
               "expert": N_("expert")}


def level_name(level: str) -> str:
    """An opponent level in the current language (a bot spec as it is).

    >>> level_name("medium"), level_name("pimc:time=0.5")
    ('medium', 'pimc:time=0.5')
    """
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


@dataclass(frozen=True)
class Seats:
    """Who is who, from the point of view of the person reading: ``seat`` is
    "you", the other seat is called ``opponent`` (both translated where shown)."""

    seat: int = 0
    you: str = N_("You")
    opponent: str = N_("Computer")

    @property
    def other(self) -> str:
        """The opponent's name in the current language."""
        return _(self.opponent)

    def name(self, seat: int, *, start: bool = True) -> str:
        """The name of ``seat``: ``You`` (``you`` inside a sentence) or the opponent's name."""
        if seat == self.seat:
            you = _(self.you)
            return you if start else you.lower()
        return self.other

    def pick(self, seat: int, you: str, other: str, **values: object) -> str:
        """A sentence about ``seat``: ``you`` when it is the reader's, else ``other``
        (whose ``{name}`` is the opponent's name), with ``values`` filled in. Both
        come translated: ``seats.pick(seat, _("You lead {card}."), _("{name} leads {card}."), card=c)``."""
        text = you if seat == self.seat else other
        return text.format(name=self.other, **values)
