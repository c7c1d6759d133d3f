"""Why the engine refuses an action: the one explanation, for developers and players.

:meth:`Hand.push <sixtysix.hand.Hand.push>` raises
:class:`~sixtysix.errors.IllegalActionError` with a :class:`Refusal`: a sentence
with named blanks (marked for the message catalogs) and what fills them. The
error's message is the sentence in English; :func:`sixtysix.text.prompt.why_illegal`
shows it to a player in his language, with cards as they look on the cards.

The reason is the most specific one the rule book gives, read from the state
and the rules' options: a marriage lead names the partner card that is missing,
the exchange names the trump card it needs (the nine, R4.1; the jack from 20
cards, S4.1), closing names the stock it needs (R6.1).

>>> from sixtysix import Action, Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> str(refusal(hand.kernel, hand.rules, Action.parse("X")))
'the exchange needs a trick won first (R4.1)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sixtysix.actions import CLOSE, DECLARE, DECLARE_MARRIAGE, DRAW, EXCHANGE, MARRIAGE, Action
from sixtysix.cards import CARDS, Card, Rank
from sixtysix.i18n import N_
from sixtysix.kernel import Phase, State
from sixtysix.rules import MarriageCounts, MarriageLead, Rules

__all__ = ["REASONS", "Refusal", "refusal"]

# The sentences, each once. Blanks: {seat} a seat number, {card} {partner} {needed} cards,
# {n} a number of cards.
OVER = N_("the hand is over")
NOT_HELD = N_("player {seat} does not hold {card}")
PLAY_A_CARD = N_("a card must be played to the trick")
MARRIAGE_ON_LEAD = N_("a marriage is announced only when leading (R5.1)")
MUST_FOLLOW = N_("in phase 2 the follower must follow suit and win if he can, else trump (R7.2)")
DRAW_FIRST = N_("the trick winner must first draw (D), close (C) or declare (66)")
DRAW_OR_DECLARE = N_("the trick winner must first draw (D) or declare (66)")
AUTO_DECLARE = N_("declarations are automatic under auto_declare")
DECLARE_AFTER_TRICK = N_("only a player who has won a trick may declare (R8.1)")
DECLARE_ON_LEAD = N_("declaring with a marriage is done when leading (R8.2)")
DECLARE_NEEDS_PAIR = N_("declaring with this marriage needs {card} and {partner} in hand (R8.2)")
DECLARE_NEXT_TRICK = N_("a marriage shown now counts only with a later trick, so it cannot declare 66 now "
                        "(marriage_counts)")
MARRIAGE_NEEDS_PAIR = N_("{card}+ announces a marriage: it needs {partner} too (R5.1)")
MARRIAGE_KING = N_("under these rules the king is led to announce a marriage: {partner}+ (marriage_lead)")
MARRIAGE_FIRST_LEAD = N_("no marriage may be announced before the first trick under these rules "
                         "(marriage_first_lead)")
MARRIAGE_STOCK = N_("marriages are announced only while the stock is open, or when closing (R5.4)")
EXCHANGE_STOCK_GONE = N_("the exchange needs an open stock (R4.1)")
EXCHANGE_FEW = N_("the exchange needs at least {n} cards in the stock (R4.1)")
EXCHANGE_CARD = N_("the exchange needs {needed} in hand (R4.1)")
EXCHANGE_TRICK = N_("the exchange needs a trick won first (R4.1)")
CLOSING_OFF = N_("these rules have no closing of the stock (closing)")
CLOSE_GONE = N_("the stock is already closed or used up (R6.1)")
CLOSE_FEW = N_("closing needs at least {n} cards in the stock (R6.1)")
CLOSE_FIRST_LEAD = N_("the stock may not be closed before the first trick under these rules "
                      "(close_first_lead)")
NOTHING_TO_DRAW = N_("there is nothing to draw now: the winner of a trick draws before leading (R3.4)")
NOT_NOW = N_("not allowed at this point of the hand")

#: Every sentence the engine gives (the catalogs hold each; a test checks the list).
REASONS = (OVER, NOT_HELD, PLAY_A_CARD, MARRIAGE_ON_LEAD, MUST_FOLLOW, DRAW_FIRST, DRAW_OR_DECLARE,
           AUTO_DECLARE, DECLARE_AFTER_TRICK, DECLARE_ON_LEAD, DECLARE_NEEDS_PAIR, DECLARE_NEXT_TRICK,
           MARRIAGE_NEEDS_PAIR, MARRIAGE_KING, MARRIAGE_FIRST_LEAD, MARRIAGE_STOCK, EXCHANGE_STOCK_GONE,
           EXCHANGE_FEW, EXCHANGE_CARD, EXCHANGE_TRICK, CLOSING_OFF, CLOSE_GONE, CLOSE_FEW, CLOSE_FIRST_LEAD,
           NOTHING_TO_DRAW, NOT_NOW)


@dataclass(frozen=True)
class Refusal:
    """A reason: one of :data:`REASONS` and what fills its blanks (cards, seats, numbers)."""

    sentence: str
    blanks: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.sentence.format(**self.blanks)


def _card(index: int) -> Card:
    return CARDS[index]


def refusal(k: State, rules: Rules, action: Action) -> Refusal:
    """Why ``action`` is not legal in the kernel state ``k`` under ``rules`` (it must not be)."""
    st = k.phase
    if st == Phase.OVER:
        return Refusal(OVER)
    code = action.code
    p = k.to_act
    held = k.hand(p)
    card = action.card
    if code < EXCHANGE and card is not None and not held & card.mask:
        return Refusal(NOT_HELD, {"seat": p, "card": card})
    if st == Phase.FOLLOW:
        if MARRIAGE <= code < EXCHANGE:
            return Refusal(MARRIAGE_ON_LEAD)
        return Refusal(PLAY_A_CARD if code >= MARRIAGE else MUST_FOLLOW)
    declaring = code == DECLARE or code >= DECLARE_MARRIAGE
    if declaring and rules.auto_declare:
        return Refusal(AUTO_DECLARE)
    stock = k.stock_size
    if st == Phase.DRAW:  # R3.6: the trick's winner draws (or closes, R6.1, or declares) first
        if code >= DECLARE_MARRIAGE:
            return Refusal(DECLARE_ON_LEAD)
        if code == CLOSE:
            return Refusal(CLOSE_FEW, {"n": rules.close_min_stock}) if rules.closing else Refusal(CLOSING_OFF)
        closable = rules.closing and stock >= rules.close_min_stock
        return Refusal(DRAW_FIRST if closable else DRAW_OR_DECLARE)
    # The lead.
    won = k.tricks_won(p) > 0
    tricks = k.tricks_won(0) + k.tricks_won(1)
    stock_open = k.stock_open
    if declaring:
        if not won:
            return Refusal(DECLARE_AFTER_TRICK)
        suit = action.suit
        if suit is not None:
            king, queen = Card(suit, Rank.KING), Card(suit, Rank.QUEEN)
            if not (held & king.mask and held & queen.mask):
                return Refusal(DECLARE_NEEDS_PAIR, {"card": king, "partner": queen})
            if rules.marriage_counts == MarriageCounts.NEXT_TRICK:
                return Refusal(DECLARE_NEXT_TRICK)
            return Refusal(MARRIAGE_STOCK)
        return Refusal(NOT_NOW)
    if MARRIAGE <= code < EXCHANGE and card is not None:
        partner = Card(card.suit, Rank.QUEEN if card.rank == Rank.KING else Rank.KING)
        if not held & partner.mask:
            return Refusal(MARRIAGE_NEEDS_PAIR, {"card": card, "partner": partner})
        if rules.marriage_lead == MarriageLead.KING and card.rank == Rank.QUEEN:
            return Refusal(MARRIAGE_KING, {"partner": partner})
        if not tricks and not rules.marriage_first_lead:
            return Refusal(MARRIAGE_FIRST_LEAD)
        return Refusal(MARRIAGE_STOCK)
    if code == EXCHANGE:
        if not stock_open:
            return Refusal(EXCHANGE_STOCK_GONE)
        if not won and (tricks or not rules.exchange_first_lead):
            return Refusal(EXCHANGE_TRICK)
        if stock < rules.exchange_min_stock:
            return Refusal(EXCHANGE_FEW, {"n": rules.exchange_min_stock})
        return Refusal(EXCHANGE_CARD, {"needed": _card(k.exchange_card)})
    if code == CLOSE:
        if not rules.closing:
            return Refusal(CLOSING_OFF)
        if not stock_open:
            return Refusal(CLOSE_GONE)
        if stock < rules.close_min_stock:
            return Refusal(CLOSE_FEW, {"n": rules.close_min_stock})
        if not tricks and not rules.close_first_lead:
            return Refusal(CLOSE_FIRST_LEAD)
        return Refusal(NOT_NOW)
    if code == DRAW:
        return Refusal(NOTHING_TO_DRAW)
    return Refusal(NOT_NOW)
