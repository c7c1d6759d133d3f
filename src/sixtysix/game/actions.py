"""Actions in the notation of docs/design.md §3.

Every action is one of 56 interned values with a small integer ``code``:

========  ==========================================================
code      action
========  ==========================================================
0-23      play the card with that index (``KH``)
24-47     announce the marriage and lead the card ``code - 24`` (``KH+``)
48        ``X``: exchange the trump nine (R4)
49        ``C``: close the stock (R6)
50        ``D``: draw (R3.4)
51        ``66``: declare 66 (R8)
52-55     ``66+S``: show the marriage in suit ``code - 52`` and declare (R5.5)
========  ==========================================================

>>> Action.parse("KH+")
Action.parse('KH+')
>>> Action.parse("kh+").card, Action.parse("66+H").suit
(Card.parse('KH'), <Suit.HEARTS: 2>)
>>> Action.parse("close", lenient=True)
Action.parse('C')
"""

from __future__ import annotations

import enum

from sixtysix.errors import ParseError
from sixtysix.game.cards import CARDS, Card, Rank, Suit
from sixtysix.kernel.tables import (
    CLOSE,
    DECLARE,
    DECLARE_MARRIAGE,
    DRAW,
    EXCHANGE,
    MARRIAGE,
    NUM_CODES,
    PLAY,
)

__all__ = [
    "ACTIONS",
    "action_of",
    "actions_of_mask",
    "CLOSE",
    "DECLARE",
    "DECLARE_MARRIAGE",
    "DRAW",
    "EXCHANGE",
    "MARRIAGE",
    "NUM_CODES",
    "PLAY",
    "Action",
    "ActionKind",
]

# The codes are the rules kernel's numbering (sixtysix.kernel.tables).


class ActionKind(enum.Enum):
    PLAY = "play"
    MARRIAGE = "marriage"
    EXCHANGE = "exchange"
    CLOSE = "close"
    DRAW = "draw"
    DECLARE = "declare"
    DECLARE_MARRIAGE = "declare_marriage"


class Action:
    """One action. Instances are interned: compare with ``==`` or ``is``."""

    __slots__ = ("_text", "card", "code", "kind", "suit")

    code: int
    kind: ActionKind
    card: Card | None
    suit: Suit | None
    _text: str

    def __new__(cls, code: int) -> Action:
        try:
            return _BY_CODE[code]
        except (KeyError, TypeError):
            raise ParseError(f"no action has code {code!r}") from None

    @classmethod
    def _make(cls, code: int) -> Action | None:
        card: Card | None = None
        suit: Suit | None = None
        if code < 24:
            kind, card = ActionKind.PLAY, CARDS[code]
            text = str(card)
        elif code < 48:
            card = CARDS[code - 24]
            if card.rank not in (Rank.KING, Rank.QUEEN):
                return None
            kind, text = ActionKind.MARRIAGE, f"{card}+"
        elif code == EXCHANGE:
            kind, text = ActionKind.EXCHANGE, "X"
        elif code == CLOSE:
            kind, text = ActionKind.CLOSE, "C"
        elif code == DRAW:
            kind, text = ActionKind.DRAW, "D"
        elif code == DECLARE:
            kind, text = ActionKind.DECLARE, "66"
        else:
            suit = Suit(code - DECLARE_MARRIAGE)
            kind, text = ActionKind.DECLARE_MARRIAGE, f"66+{suit.letter}"
        action = object.__new__(cls)
        for name, value in (("code", code), ("kind", kind), ("card", card),
                            ("suit", suit if suit is not None else (card.suit if card else None)),
                            ("_text", text)):
            object.__setattr__(action, name, value)
        return action

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    # Constructors -----------------------------------------------------------
    @classmethod
    def play(cls, card: Card) -> Action:
        return _BY_CODE[card.index]

    @classmethod
    def marriage(cls, card: Card) -> Action:
        """Announce the marriage of ``card``'s suit and lead ``card`` (a King or Queen)."""
        action = _BY_CODE.get(MARRIAGE + card.index)
        if action is None:
            raise ParseError(f"a marriage is led with a King or Queen, not {card}")
        return action

    @classmethod
    def declare_marriage(cls, suit: Suit) -> Action:
        return _BY_CODE[DECLARE_MARRIAGE + suit]

    @classmethod
    def parse(cls, text: str, *, lenient: bool = False) -> Action:
        """Parse an action token.

        Strict parsing accepts the tokens of docs/design.md §3, with cards in
        any R1.4 form (a record holds only the canonical ones, ``str(action)``).
        Lenient parsing (interactive input) also accepts words such as
        ``close``, ``draw``, ``exchange``, ``declare``.
        """
        up = text.strip().upper()
        if lenient:
            up = up.replace(" ", "")
            up = _WORDS.get(up, up)
            if up.startswith("66") and len(up) > 2 and up[2] != "+":
                up = "66+" + up[2:]
        if up in _FIXED:
            return _FIXED[up]
        try:
            if up.startswith("66+"):
                return cls.declare_marriage(Suit.parse(up[3:]))
            if up.endswith("+"):
                return cls.marriage(Card.parse(up[:-1]))
            return cls.play(Card.parse(up))
        except ParseError:
            raise ParseError(
                f"not an action: {text!r}: expected a card (e.g. KH), a marriage lead "
                "(KH+), X, C, D, 66 or 66+H"
            ) from None

    # Queries ----------------------------------------------------------------
    @property
    def is_card(self) -> bool:
        """Whether the action puts a card on the table (a play or a marriage lead)."""
        return self.code < EXCHANGE

    @property
    def is_declaration(self) -> bool:
        return self.code >= DECLARE

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action.parse({self._text!r})"

    def __hash__(self) -> int:
        return self.code

    def __eq__(self, other: object) -> bool:
        return self is other

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (Action, (self.code,))


_ACTIONS: list[Action | None] = [Action._make(code) for code in range(NUM_CODES)]
#: Every valid action by its code (the codes no action has are left out).
_BY_CODE: dict[int, Action] = {a.code: a for a in _ACTIONS if a is not None}
_FIXED = {"X": _BY_CODE[EXCHANGE], "C": _BY_CODE[CLOSE], "D": _BY_CODE[DRAW], "66": _BY_CODE[DECLARE]}
_WORDS = {
    "EXCHANGE": "X", "SWAP": "X", "CLOSE": "C", "DRAW": "D", "DECLARE": "66",
    "DECLARE66": "66",
}

#: All valid actions, by code; ``None`` where no action has that code.
ACTIONS: tuple[Action | None, ...] = tuple(_ACTIONS)


def action_of(code: int) -> Action:
    """The action with ``code``, typed as an action (:data:`ACTIONS` holds ``None`` for
    the codes no action has: a marriage lead of a card that is no king or queen).

    >>> action_of(49), action_of(45)
    (Action.parse('C'), Action.parse('KS+'))
    >>> action_of(24)
    Traceback (most recent call last):
    ...
    ValueError: no action has the code 24
    """
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(f"no action has the code {code}") from None


def _card_tables() -> tuple[tuple[tuple[Action, ...], ...], tuple[tuple[Action, ...], ...]]:
    """The card plays of every 12-bit mask: of the low 12 card codes and of the high 12."""
    low: list[tuple[Action, ...]] = []
    high: list[tuple[Action, ...]] = []
    for m in range(4096):
        low.append(tuple(_BY_CODE[i] for i in range(12) if m >> i & 1))
        high.append(tuple(_BY_CODE[i + 12] for i in range(12) if m >> i & 1))
    return tuple(low), tuple(high)


_LOW_CARDS, _HIGH_CARDS = _card_tables()


def actions_of_mask(mask: int) -> list[Action]:
    """The actions whose codes are the bits of ``mask`` (the kernel's legal-action mask),
    in code order: the cards by index first. Search code calls it for every position,
    so the cards come from two tables of 4096 entries rather than bit by bit.

    >>> [str(a) for a in actions_of_mask(1 << 0 | 1 << 17 | 1 << CLOSE | 1 << 45)]
    ['9C', 'AH', 'KS+', 'C']
    """
    actions = [*_LOW_CARDS[mask & 0xFFF], *_HIGH_CARDS[(mask >> 12) & 0xFFF]]
    mask >>= 24
    while mask:
        low = mask & -mask
        mask ^= low
        actions.append(action_of(low.bit_length() + 23))
    return actions
