"""A fast playout policy for search bots, working on :class:`~sixtysix.hand.Hand` internals.

Search bots play thousands of hands to the end from sampled worlds. Building a
:class:`~sixtysix.views.View` at every step would cost more than the rest of
the playout together, so the policy here reads the engine's integers (card
masks, points, trick counts, the stock pointer) directly and pushes action
codes with :meth:`Hand.push_code <sixtysix.hand.Hand.push_code>`.

The policy sees the whole world it is given (both hands and the stock order):
it is a *perfect-information* playout, as usual for determinized search. Its
rules, for the player to act:

* declare 66 (or ``66+S``) as soon as the counted total reaches 66 (R8.1,
  R5.5), and never declare falsely;
* draw rather than close (it never closes), and exchange the trump nine when
  it may (R4);
* on lead, announce a marriage when one can be announced, trumps first,
  leading the Queen (R5);
* otherwise lead: in phase 1, an unbeatable Ace or Ten when there is one,
  else the card that costs least to give away (points, plus a premium for
  trumps and marriage partners); in phase 2, the highest-scoring card the
  opponent cannot beat, else the cheapest card;
* when following, take the trick with the cheapest winning card when the
  trick is worth it (it reaches 66, it stops the opponent reaching 66, or the
  points won outweigh what the winning card is worth keeping), else throw
  the cheapest losing card; under table rules it never revokes (R10.2);
* with probability ``epsilon`` a card decision is made uniformly at random
  among the legal cards instead (declarations stay as above).

>>> import random
>>> from sixtysix import Hand
>>> hand = Hand.random(seed=2)
>>> playout(hand, random.Random(1))
>>> hand.is_over()
True
"""

from __future__ import annotations

import random

from sixtysix.actions import DECLARE, DECLARE_MARRIAGE, DRAW, EXCHANGE, MARRIAGE
from sixtysix.hand import (
    ABOVE,
    DRAWING,
    LEAD,
    OVER,
    POINTS,
    STOCK_CARDS,
    SUIT_MASK,
    SUIT_OF,
    WINNING_TOTAL,
    Hand,
    follow_mask,
)

__all__ = ["outcome_value", "playout", "policy_code", "random_card"]

_CARD_BITS = (1 << 24) - 1
_QUEEN = 2
_KING = 3
#: Premium for keeping a trump in phase 1 (before its rank) and in phase 2.
_TRUMP_KEEP_1 = 8.0
_TRUMP_KEEP_2 = 3.0
#: Premium per rank step of a trump in phase 1.
_TRUMP_RANK_1 = 1.5
#: Premium for keeping a King or Queen whose partner is in hand while marriages can come.
_PARTNER_KEEP = 14.0


def outcome_value(hand: Hand) -> int:
    """Game points of a finished hand for seat 0: positive when seat 0 won, 0 for a tie."""
    outcome = hand._outcome
    assert outcome is not None
    winner, points, _ = outcome
    if winner is None:
        return 0
    return points if winner == 0 else -points


def random_card(cards: int, rng: random.Random) -> int:
    """A card index drawn uniformly from a non-empty card mask."""
    k = rng.randrange(cards.bit_count())
    while k:
        cards &= cards - 1
        k -= 1
    return (cards & -cards).bit_length() - 1


def _keep(card: int, mine: int, trump: int, phase2: bool) -> float:
    """What a card is worth keeping, beyond its points."""
    value = 0.0
    if SUIT_OF[card] == trump:
        value = _TRUMP_KEEP_2 if phase2 else _TRUMP_KEEP_1 + _TRUMP_RANK_1 * (card % 6)
    rank = card % 6
    if not phase2 and rank in (_QUEEN, _KING):
        partner = card + 1 if rank == _QUEEN else card - 1
        if mine >> partner & 1:
            value += _PARTNER_KEEP
    return value


def _lead(cards: int, mine: int, theirs: int, trump: int, phase2: bool, score: int) -> int:
    tmask = SUIT_MASK[trump]
    opp_trumps = theirs & tmask
    best_sure, best_sure_pts = -1, -1
    cheapest, cheapest_cost = -1, 1e9
    c = cards
    while c:
        low = c & -c
        c ^= low
        card = low.bit_length() - 1
        suit = SUIT_OF[card]
        beaten = theirs & ABOVE[card] or (
            suit != trump and opp_trumps and (not phase2 or not theirs & SUIT_MASK[suit]))
        pts = POINTS[card]
        if not beaten and pts > best_sure_pts:
            best_sure, best_sure_pts = card, pts
        cost = pts + _keep(card, mine, trump, phase2)
        if cost < cheapest_cost:
            cheapest, cheapest_cost = card, cost
    if best_sure >= 0 and (phase2 or best_sure_pts >= 10 or score + best_sure_pts >= WINNING_TOTAL):
        return best_sure
    return cheapest


def _follow(cards: int, lead: int, mine: int, trump: int, phase2: bool,
            score: int, opp_score: int) -> int:
    lead_suit = SUIT_OF[lead]
    lead_pts = POINTS[lead]
    winner, winner_cost = -1, 1e9
    loser, loser_cost = -1, 1e9
    c = cards
    while c:
        low = c & -c
        c ^= low
        card = low.bit_length() - 1
        suit = SUIT_OF[card]
        wins = card > lead if suit == lead_suit else suit == trump
        keep = _keep(card, mine, trump, phase2)
        if wins:
            cost = keep + 0.1 * (card % 6)
            if cost < winner_cost:
                winner, winner_cost = card, cost
        else:
            cost = POINTS[card] + keep
            if cost < loser_cost:
                loser, loser_cost = card, cost
    if winner < 0:
        return loser
    if loser < 0:
        return winner
    gain = lead_pts + POINTS[winner]
    if score + gain >= WINNING_TOTAL or opp_score + lead_pts + POINTS[loser] >= WINNING_TOTAL:
        return winner
    return winner if gain >= winner_cost else loser


def policy_code(hand: Hand, rng: random.Random, epsilon: float = 0.0) -> int:
    """The policy's action code for the player to act (the hand must not be over)."""
    m = hand.legal_mask()
    st = hand._state
    p = hand._to_act
    won = hand._won
    tricks = hand._tricks
    marr = hand._marr
    score = won[p] + (marr[p] if tricks[p] else 0)
    if st == DRAWING:
        if m >> DECLARE & 1 and score >= WINNING_TOTAL:
            return DECLARE
        return DRAW if m >> DRAW & 1 else (m & -m).bit_length() - 1
    trump = SUIT_OF[hand._nine]
    hands = hand._hands
    mine = hands[p]
    phase2 = hand._closed_by >= 0 or hand._drawn >= STOCK_CARDS
    if st == LEAD:
        if m >> DECLARE & 1 and score >= WINNING_TOTAL:
            return DECLARE
        shows = m >> DECLARE_MARRIAGE
        if shows:
            for suit in range(4):
                if shows >> suit & 1 and won[p] + marr[p] + (40 if suit == trump else 20) >= WINNING_TOTAL:
                    return DECLARE_MARRIAGE + suit
        if m >> EXCHANGE & 1:
            return EXCHANGE
        pairs = (m >> MARRIAGE) & _CARD_BITS
        if pairs:
            pick = pairs & SUIT_MASK[trump] or pairs
            return MARRIAGE + (pick & -pick).bit_length() - 1  # the Queen of the pair
        cards = m & _CARD_BITS
        if epsilon and rng.random() < epsilon:
            return random_card(cards, rng)
        return _lead(cards, mine, hands[1 - p], trump, phase2, score)
    # Following.
    cards = m & _CARD_BITS
    lead = hand._lead
    if phase2 and not hand._enforce:
        cards &= follow_mask(mine, lead, trump)  # never revoke (R10.2)
    if epsilon and rng.random() < epsilon:
        return random_card(cards, rng)
    o = 1 - p
    opp_score = won[o] + (marr[o] if tricks[o] else 0)
    return _follow(cards, lead, mine, trump, phase2, score, opp_score)


def playout(hand: Hand, rng: random.Random, epsilon: float = 0.0, *,
            stop_at_phase2: bool = False) -> None:
    """Play ``hand`` on with the policy until it is over (or, with ``stop_at_phase2``,
    until the stock is closed or exhausted)."""
    push = hand._push
    while hand._state != OVER:
        if stop_at_phase2 and (hand._closed_by >= 0 or hand._drawn >= STOCK_CARDS):
            return
        push(policy_code(hand, rng, epsilon))
