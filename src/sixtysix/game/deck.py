"""The pack a hand is dealt from: shuffled and cut (R2.2), or a recorded deck checked
(R1.1, R2.4; S1.1 for 20 cards). A deck lists the cards top first.

>>> import random
>>> deck = random_deck(random.Random(1))
>>> len(deck), deck_from(deck) == deck
(24, True)
>>> deck_from(deck[:-1])
Traceback (most recent call last):
...
sixtysix.errors.InvalidDeckError: invalid deck: 23 cards, expected 24 (missing JD)
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from sixtysix.errors import InvalidDeckError, ParseError
from sixtysix.game.cards import Card, pack, parse_cards

__all__ = ["deck_from", "random_deck"]


def random_deck(rng: random.Random, size: int = 24) -> list[Card]:
    """Shuffle and cut a pack (R2.2: the cut leaves at least two cards in each packet)."""
    deck = list(pack(size))
    rng.shuffle(deck)
    cut = rng.randint(2, len(deck) - 2)
    return deck[cut:] + deck[:cut]


def deck_from(deck: str | Iterable[Card], size: int = 24) -> list[Card]:
    """Check a deck: exactly the cards of the pack, each once (R1.1, R2.4; S1.1 for 20)."""
    try:
        cards = parse_cards(deck) if isinstance(deck, str) else list(deck)
    except ParseError as exc:
        raise InvalidDeckError(f"invalid deck: {exc}") from None
    seen: set[Card] = set()
    cards_of_pack = pack(size)
    allowed = frozenset(cards_of_pack)
    for card in cards:
        if not isinstance(card, Card):
            raise InvalidDeckError(f"invalid deck: {card!r} is not a card")
        if card in seen:
            raise InvalidDeckError(f"invalid deck: {card} appears twice")
        if card not in allowed:
            raise InvalidDeckError(f"invalid deck: {card} is not in the {size}-card pack")
        seen.add(card)
    if len(cards) != size:
        missing = " ".join(str(c) for c in cards_of_pack if c not in seen)
        raise InvalidDeckError(f"invalid deck: {len(cards)} cards, expected {size}"
                               + (f" (missing {missing})" if missing else ""))
    return cards
