"""The kernel's constants: card tables, phases, reasons, and rule options as integers.

Cards are indices 0-23, ``suit * 6 + rank`` (rank 0 is the nine, 5 the Ace), so a
set of cards is a 24-bit mask and, within a suit, a higher card has a higher bit.
Action codes are those of :mod:`sixtysix.game.actions` (0-55).

>>> POINTS[5], POINTS[8]            # the Ace of clubs, the Queen of diamonds
(11, 3)
>>> conceded(0, 0), conceded(2, 32), conceded(1, 33)
(3, 2, 1)
>>> marriage_value(suit=2, trump=2), marriage_value(suit=1, trump=2)
(40, 20)
>>> declared_total(30, DECLARE, trump=2), declared_total(30, DECLARE_MARRIAGE + 2, trump=2)
(30, 70)
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from sixtysix.rules import (
    CloseScoring,
    FailedClose,
    FalseDeclaration,
    MarriageCounts,
    MarriageLead,
    PlayedOut,
    Rules,
)

__all__ = [
    "ABOVE", "AT_CLOSE", "BIT_CLOSE", "BIT_DECLARE", "BIT_DRAW", "BIT_EXCHANGE", "CARD_BITS", "CLOSE",
    "DECLARE", "DECLARE_MARRIAGE", "DRAW", "EXCHANGE", "KINGS", "MARRIAGE", "MEASURED_AT_CLOSE", "NUM_CODES",
    "PLAY", "POINTS", "REASONS", "SCHNEIDER", "SCORING_POINTS", "SETTLE_EVERY", "SETTLE_FROM", "STOCK_CARDS",
    "SUIT_MASK", "SUIT_OF", "TOLERANCE_FROM", "WINNING_TOTAL", "Config", "DealLayout", "Phase", "Reason",
    "Refused", "Scoring", "beats", "conceded", "config", "declared_total", "follow_mask", "marriage_value",
]

# Action codes, the kernel's numbering of the notation's actions (docs/design.md §3): a card
# played is its card code (0-23), a marriage lead 24 + the card's code, then the other
# actions; :mod:`sixtysix.game.actions` builds the notation on these numbers.
PLAY = 0
MARRIAGE = 24
EXCHANGE = 48
CLOSE = 49
DRAW = 50
DECLARE = 51
DECLARE_MARRIAGE = 52
NUM_CODES = 56


BIT_EXCHANGE = 1 << EXCHANGE
BIT_CLOSE = 1 << CLOSE
BIT_DRAW = 1 << DRAW
BIT_DECLARE = 1 << DECLARE
#: The 24 card bits of a legal-action mask or a hand.
CARD_BITS = (1 << 24) - 1


class Phase(enum.IntEnum):
    """Whose turn it is to do what (docs/design.md §2)."""

    #: The leader's turn: lead, announce, exchange, close, declare (R3.6 steps 3-6).
    LEAD = 0
    #: The follower's turn: play a card to the trick.
    FOLLOW = 1
    #: The trick's winner draws, closes or declares (R3.6 steps 1-2, ``close_before_draw``).
    DRAW = 2
    #: The hand is over.
    OVER = 3


class Reason(enum.IntEnum):
    """How a hand ended (the ``reason`` of a hand result, docs/design.md §2)."""

    DECLARED = 0
    FALSE_DECLARATION = 1
    CLOSED_FAILED = 2
    CLOSED_SUCCEEDED = 3
    PLAYED_OUT = 4
    TIE = 5
    REVOKE = 6
    FORFEIT = 7


class Refused(enum.IntEnum):
    """Why an action is not legal now (:meth:`State.refusal <sixtysix.kernel.State.refusal>`):
    the most specific reason the rule book gives, :data:`LEGAL` for a legal action. Some
    come with one argument, a card index or a number, named in the comment; the others'
    argument is -1. :mod:`sixtysix.game.refusal` words each of them."""

    LEGAL = 0
    #: The hand is over.
    OVER = 1
    #: The player to act does not hold the card (the argument).
    NOT_HELD = 2
    #: The follower plays a card, nothing else.
    PLAY_A_CARD = 3
    #: A marriage is announced by the leader only (R5.1).
    MARRIAGE_ON_LEAD = 4
    #: Phase 2: follow suit and win if possible, else trump (R7.2).
    MUST_FOLLOW = 5
    #: The trick's winner draws first; closing is open to him too (R3.6, R6.1).
    DRAW_FIRST = 6
    #: The trick's winner draws first (R3.6); the stock is too small to close.
    DRAW_OR_DECLARE = 7
    #: 66 is declared by the program (``auto_declare``).
    AUTO_DECLARE = 8
    #: Only a player with a trick declares (R8.1).
    DECLARE_AFTER_TRICK = 9
    #: 66 with a marriage is declared when leading (R8.2).
    DECLARE_ON_LEAD = 10
    #: 66 with a marriage needs its King (the argument) and Queen in hand (R8.2).
    DECLARE_NEEDS_PAIR = 11
    #: A marriage shown now counts only with a later trick (``marriage_counts``).
    DECLARE_NEXT_TRICK = 12
    #: A marriage needs its partner (the argument) in hand (R5.1).
    MARRIAGE_NEEDS_PAIR = 13
    #: The King is led to announce a marriage (the argument, ``marriage_lead``).
    MARRIAGE_KING = 14
    #: No marriage before the first trick (``marriage_first_lead``, R5.2).
    MARRIAGE_FIRST_LEAD = 15
    #: Marriages only while the stock is open, or when closing (R5.4).
    MARRIAGE_STOCK = 16
    #: The exchange needs an open stock (R4.1).
    EXCHANGE_STOCK_GONE = 17
    #: The exchange needs at least this many cards in the stock (the argument, R4.1).
    EXCHANGE_FEW = 18
    #: The exchange needs the trump nine, or the jack from 20 cards (the argument, R4.1, S4.1).
    EXCHANGE_CARD = 19
    #: The exchange needs a trick won first (R4.1).
    EXCHANGE_TRICK = 20
    #: These rules do not close the stock (``closing``).
    CLOSING_OFF = 21
    #: The stock is closed or used up (R6.1).
    CLOSE_GONE = 22
    #: Closing needs at least this many cards in the stock (the argument, R6.1).
    CLOSE_FEW = 23
    #: No close before the first trick (``close_first_lead``).
    CLOSE_FIRST_LEAD = 24
    #: Nothing to draw: the winner of a trick draws before leading (R3.4).
    NOTHING_TO_DRAW = 25


class Scoring(enum.IntEnum):
    """Which rule gave a finished hand its game points (:meth:`State.scoring
    <sixtysix.kernel.State.scoring>`); each gives a fixed number, :data:`SCORING_POINTS`.
    R9.1's three lines are numbered by their game points, as :func:`conceded` gives them."""

    #: Not over, or a tie (R9.2): nobody scores.
    NONE = 0
    #: R9.1: the loser has 33 or more: 1.
    THIRTY_THREE = 1
    #: R9.1: the loser has under 33 and a trick (Schneider): 2.
    UNDER_33 = 2
    #: R9.1: the loser took no trick (Schwarz): 3.
    NO_TRICK = 3
    #: S5.3: a successful close scored at the close, the loser having had 33 or more then: 1.
    CLOSED_THIRTY_THREE = 4
    #: S5.3: ... under 33 and a trick then: 2.
    CLOSED_UNDER_33 = 5
    #: S5.3: ... no trick then: 3.
    CLOSED_NO_TRICK = 6
    #: R6.4: the closer failed; his opponent had a trick when the stock was closed: 2.
    TRICK_AT_CLOSE = 7
    #: R6.4: the closer failed; his opponent had no trick when the stock was closed: 3.
    NO_TRICK_AT_CLOSE = 8
    #: R6.4 with ``failed_close = three``: a failed close always gives 3.
    FAILED_CLOSE = 9
    #: R8.3: a false declaration gives the opponent 2.
    FALSE_DECLARATION = 10
    #: R8.3 with ``false_declaration = two_or_three``: 3 to an opponent without a trick.
    NO_TRICK_FALSE = 11
    #: S6.3 (``played_out = last_trick``): the last trick wins a hand played out without 66: 1.
    LAST_TRICK = 12
    #: R10.2: a revoke gives the adversary 2.
    REVOKE = 13
    #: R10.2: 3 if the offender had taken no card points before the revoking trick.
    REVOKE_NO_POINTS = 14
    #: Not a rule: a player's program failed; the opponent scores the most a hand gives, 3.
    FORFEIT = 15


#: The game points of each :class:`Scoring`.
SCORING_POINTS = (0, 1, 2, 3, 1, 2, 3, 2, 3, 3, 2, 3, 1, 2, 3, 3)
#: A line of R9.1 measured at the close (S5.3) is the line's code and this.
AT_CLOSE = Scoring.CLOSED_THIRTY_THREE - Scoring.THIRTY_THREE
#: The scorings measured on the loser's total and tricks when the stock was closed (S5.3).
MEASURED_AT_CLOSE = frozenset({Scoring.CLOSED_THIRTY_THREE, Scoring.CLOSED_UNDER_33, Scoring.CLOSED_NO_TRICK})


#: The reasons' words, by :class:`Reason` value.
REASONS = ("declared", "false_declaration", "closed_failed", "closed_succeeded",
           "played_out", "tie", "revoke", "forfeit")

#: Points needed to win a hand (R8).
WINNING_TOTAL = 66
#: Under this many points a loser who won a trick concedes 2 game points (R9.1).
SCHNEIDER = 33
#: Places in the stock, counting the turned-up trump (R2.3). The 20-card pack's
#: stock of 10 is the end of a 12-place one, as if one draw had been made.
STOCK_CARDS = 12

#: A search that may stop once its choice is settled (``settle``, ``tolerance``)
#: looks first after this many iterations, then every :data:`SETTLE_EVERY`.
SETTLE_FROM = 1024
SETTLE_EVERY = 256
#: Means are trusted to settle a choice (``tolerance``) from this many iterations
#: on: before, the tree's means are too young for their standard errors to hold.
TOLERANCE_FROM = 16384

#: The cards of each suit.
SUIT_MASK = tuple(0x3F << (6 * s) for s in range(4))
#: The suit of each card.
SUIT_OF = tuple(i // 6 for i in range(24))
#: The card points of each card (R1.3): 9 0, J 2, Q 3, K 4, 10 10, A 11.
POINTS = tuple((0, 2, 3, 4, 10, 11)[i % 6] for i in range(24))
#: The cards of the same suit that rank above each card.
ABOVE = tuple(SUIT_MASK[i // 6] & ~((2 << i) - 1) for i in range(24))
#: The four Kings.
KINGS = sum(1 << (6 * s + 3) for s in range(4))


class DealLayout(NamedTuple):
    """Where the cards of a pack go at the deal, by position in the pack (top first)."""

    #: The positions dealt to the non-dealer, who leads first.
    non_dealer: tuple[int, ...]
    #: The positions dealt to the dealer.
    dealer: tuple[int, ...]
    #: The position of the card turned up for trump.
    trump: int
    #: The stock in drawing order, the turned-up trump last.
    stock: tuple[int, ...]


#: The deal of each pack: R2.3/R2.4, three to each, three to each again, the trump turned,
#: the stock; S2.1 for 20 cards, three to each, the trump turned (the 7th card), two to each.
DEAL_LAYOUTS = {
    24: DealLayout((0, 1, 2, 6, 7, 8), (3, 4, 5, 9, 10, 11), 12, (*range(13, 24), 12)),
    20: DealLayout((0, 1, 2, 7, 8), (3, 4, 5, 9, 10), 6, (*range(11, 20), 6)),
}


def conceded(tricks: int, score: int) -> int:
    """Game points won against a loser with this many tricks and this score (R9.1):
    3 without a trick (Schwarz), 2 under 33 (Schneider), else 1. The number is also the
    :class:`Scoring` of the line that applied."""
    if not tricks:
        return 3
    return 2 if score < SCHNEIDER else 1


def marriage_value(suit: int, trump: int) -> int:
    """A marriage is worth 40 in trumps, 20 in another suit (R5.1)."""
    return 40 if suit == trump else 20


def declared_total(score: int, code: int, trump: int) -> int:
    """What a declaration counts (R8.1): the total toward 66 of a player whose ``score`` is
    his total now, if he declares with the action ``code``: ``66`` (:data:`DECLARE`) counts
    the score; ``66+S`` (:data:`DECLARE_MARRIAGE` + suit) the score and the marriage shown,
    which counts at once because ``66+S`` is legal only after a trick won (R5.5, R5.3).

    Every face (bots, wire, views) asks this, never adds a marriage itself.

    >>> declared_total(50, DECLARE_MARRIAGE + 1, trump=1), declared_total(50, DECLARE_MARRIAGE, trump=1)
    (90, 70)
    """
    if code >= DECLARE_MARRIAGE:
        return score + marriage_value(code - DECLARE_MARRIAGE, trump)
    return score


def beats(card: int, lead: int, trump: int) -> bool:
    """Whether ``card`` played to ``lead`` wins the trick (R3.3): the higher card of the
    suit led, unless trumped."""
    if SUIT_OF[card] == SUIT_OF[lead]:
        return card > lead
    return SUIT_OF[card] == trump


def follow_mask(hand: int, lead: int, trump: int) -> int:
    """The cards a follower may play in phase 2 (R7.2), as a mask: follow suit and
    win if possible; else follow suit; else trump; else anything."""
    suit = SUIT_OF[lead]
    same = hand & SUIT_MASK[suit]
    if same:
        return (same & ABOVE[lead]) or same
    if suit != trump:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            return trumps
    return hand


class Config(NamedTuple):
    """The rule options of R12 as the kernel reads them: small integers, one per
    option that changes play or scoring (build it with :func:`config`)."""

    #: 24 or 20 cards (S1).
    deck: int
    #: The rank of the trump exchanged for the turned-up one: 0 the nine (R4.1), 1 the jack (S4.1).
    exchange_rank: int
    #: Phase-2 following is enforced (1) or a revoke ends the hand (0, R10.2).
    enforce_follow: int
    #: 66 is declared automatically (R8.1 ``auto_declare``).
    auto_declare: int
    #: After a trick the winner draws, closes or declares as a separate step (R3.6).
    close_before_draw: int
    #: The least stock for closing; 13 when closing is not allowed at all (R6.1).
    close_min_stock: int
    #: Closing is allowed before the first trick (R6.1).
    close_first_lead: int
    #: The least stock for the exchange (R4.1).
    exchange_min_stock: int
    #: The exchange is allowed at the first lead (S4.1).
    exchange_first_lead: int
    #: Marriages may be announced at the first lead (R5.2).
    marriage_first_lead: int
    #: Marriages may be announced after the stock is closed or exhausted (R5.4).
    marriages_in_phase2: int
    #: Points for the last trick of a hand played out (R7.3).
    last_trick_bonus: int
    #: Marriage points wait for their owner's next trick won (``marriage_counts``).
    next_trick: int
    #: A marriage always leads the King (``marriage_lead``).
    king_lead: int
    #: A hand played out goes to the last trick's winner (S6.3).
    last_trick_wins: int
    #: A successful close is scored as things stood at the close (S5.3).
    close_scored_at_close: int
    #: A failed close always costs 3 (R6.4 ``failed_close = three``).
    failed_close_three: int
    #: A false declaration costs 3 against a player without a trick (R8.3).
    false_declaration_three: int
    #: The stock may be closed at all (R6, ``closing``); without it :attr:`close_min_stock`
    #: is 13, more than a stock holds.
    closing: int


def config(rules: Rules) -> Config:
    """The kernel's reading of ``rules``.

    >>> config(Rules.preset("santase")).close_min_stock, config(Rules.preset("course")).close_min_stock
    (4, 13)
    """
    return Config(
        deck=rules.deck,
        exchange_rank=rules.exchange_rank,
        enforce_follow=int(rules.enforce_follow),
        auto_declare=int(rules.auto_declare),
        close_before_draw=int(rules.close_before_draw),
        close_min_stock=rules.close_min_stock if rules.closing else STOCK_CARDS + 1,
        close_first_lead=int(rules.close_first_lead),
        exchange_min_stock=rules.exchange_min_stock,
        exchange_first_lead=int(rules.exchange_first_lead),
        marriage_first_lead=int(rules.marriage_first_lead),
        marriages_in_phase2=int(rules.marriages_in_phase2),
        last_trick_bonus=rules.last_trick_bonus,
        next_trick=int(rules.marriage_counts is MarriageCounts.NEXT_TRICK),
        king_lead=int(rules.marriage_lead is MarriageLead.KING),
        last_trick_wins=int(rules.played_out is PlayedOut.LAST_TRICK),
        close_scored_at_close=int(rules.close_scoring is CloseScoring.AT_CLOSE),
        failed_close_three=int(rules.failed_close is FailedClose.THREE),
        false_declaration_three=int(rules.false_declaration is FalseDeclaration.TWO_OR_THREE),
        closing=int(rules.closing),
    )
