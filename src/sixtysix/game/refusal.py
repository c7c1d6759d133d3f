"""Why the engine refuses an action: the one explanation, for developers and players.

:meth:`Hand.push <sixtysix.game.hand.Hand.push>` raises
:class:`~sixtysix.errors.IllegalActionError` with a :class:`Refusal`: a sentence
with named blanks (marked for the message catalogs) and what fills them. The
error's message is the sentence in English; :func:`sixtysix.present.text.prompt.why_illegal`
shows it to a player in his language, with cards as they look on the cards.

The reason is the rules kernel's (:meth:`State.refusal <sixtysix.kernel.State.refusal>`,
decided by the same conditions as the legal actions): the most specific one the rule
book gives, with the card or number it names. A marriage lead names the partner card
that is missing, the exchange names the trump card it needs (the nine, R4.1; the jack
from 20 cards, S4.1), closing names the stock it needs (R6.1). This module only words
it: one sentence for each :class:`~sixtysix.kernel.tables.Refused` code.

>>> from sixtysix import Action, Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> str(refusal(hand.kernel, hand.rules, Action.parse("X")))
'the exchange needs a trick won first (R4.1)'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sixtysix.game.actions import Action
from sixtysix.game.cards import CARDS, Card, Rank
from sixtysix.i18n import N_
from sixtysix.kernel import Refused, State
from sixtysix.rules import Rules

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
#: No longer given (the kernel names a rule for every refusal); kept for the callers
#: and the catalogs that name it.
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


#: The sentence of each reason the kernel gives, and the blank its argument fills (a card,
#: or ``n`` a number), if any. A new refusal in the kernel is one line here.
SENTENCES: dict[Refused, tuple[str, str | None]] = {
    Refused.OVER: (OVER, None),
    Refused.NOT_HELD: (NOT_HELD, "card"),
    Refused.PLAY_A_CARD: (PLAY_A_CARD, None),
    Refused.MARRIAGE_ON_LEAD: (MARRIAGE_ON_LEAD, None),
    Refused.MUST_FOLLOW: (MUST_FOLLOW, None),
    Refused.DRAW_FIRST: (DRAW_FIRST, None),
    Refused.DRAW_OR_DECLARE: (DRAW_OR_DECLARE, None),
    Refused.AUTO_DECLARE: (AUTO_DECLARE, None),
    Refused.DECLARE_AFTER_TRICK: (DECLARE_AFTER_TRICK, None),
    Refused.DECLARE_ON_LEAD: (DECLARE_ON_LEAD, None),
    Refused.DECLARE_NEEDS_PAIR: (DECLARE_NEEDS_PAIR, "card"),
    Refused.DECLARE_NEXT_TRICK: (DECLARE_NEXT_TRICK, None),
    Refused.MARRIAGE_NEEDS_PAIR: (MARRIAGE_NEEDS_PAIR, "partner"),
    Refused.MARRIAGE_KING: (MARRIAGE_KING, "partner"),
    Refused.MARRIAGE_FIRST_LEAD: (MARRIAGE_FIRST_LEAD, None),
    Refused.MARRIAGE_STOCK: (MARRIAGE_STOCK, None),
    Refused.EXCHANGE_STOCK_GONE: (EXCHANGE_STOCK_GONE, None),
    Refused.EXCHANGE_FEW: (EXCHANGE_FEW, "n"),
    Refused.EXCHANGE_CARD: (EXCHANGE_CARD, "needed"),
    Refused.EXCHANGE_TRICK: (EXCHANGE_TRICK, None),
    Refused.CLOSING_OFF: (CLOSING_OFF, None),
    Refused.CLOSE_GONE: (CLOSE_GONE, None),
    Refused.CLOSE_FEW: (CLOSE_FEW, "n"),
    Refused.CLOSE_FIRST_LEAD: (CLOSE_FIRST_LEAD, None),
    Refused.NOTHING_TO_DRAW: (NOTHING_TO_DRAW, None),
}


def refusal(k: State, rules: Rules, action: Action) -> Refusal:
    """Why ``action`` is not legal in the kernel state ``k`` (dealt under ``rules``), in
    words: the kernel's reason and the blanks its argument fills. Raises
    :class:`ValueError` if the action is legal."""
    code, argument = k.refusal(action.code)
    if code == Refused.LEGAL:
        raise ValueError(f"{action} is legal now")
    sentence, blank = SENTENCES[Refused(code)]
    if blank is None:
        return Refusal(sentence)
    value: int | Card = argument if blank == "n" else CARDS[argument]
    blanks: dict[str, Any] = {blank: value}
    if sentence == NOT_HELD:
        blanks["seat"] = k.to_act
    elif sentence == MARRIAGE_NEEDS_PAIR:
        blanks["card"] = action.card
    elif sentence == DECLARE_NEEDS_PAIR:  # the King is named; the Queen is his partner
        blanks["partner"] = Card(CARDS[argument].suit, Rank.QUEEN)
    return Refusal(sentence, blanks)
