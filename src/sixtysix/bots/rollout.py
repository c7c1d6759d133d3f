"""Playouts for search bots: the rules kernel's playout policy and random play.

Search bots play thousands of hands to the end from sampled worlds. The
playouts run inside the rules kernel (:meth:`sixtysix.kernel.State.playout`,
in C when the compiled kernel is built), on the world's own state: this module
is the bots' interface to them, with Python's :class:`random.Random` as the
source of seeds.

The policy sees the whole world it is given (both hands and the stock order):
it is a *perfect-information* playout, as usual for determinized search. Its
rules, for the player to act:

* declare 66 (or ``66+S``) as soon as the counted total reaches 66 (R8.1,
  R5.5), and never declare falsely;
* draw rather than close (it closes only with ``close``, when running off its
  sure winners reaches 66), and exchange the trump nine when it may (R4);
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

import math
import random

from sixtysix.game.cards import pack
from sixtysix.game.hand import Hand
from sixtysix.kernel import CARD_BITS, Phase, follow_mask
from sixtysix.rules import Rules

__all__ = ["outcome_value", "playout", "policy_code", "random_card", "random_game",
           "random_playout"]


def outcome_value(hand: Hand) -> int:
    """Game points of a finished hand for seat 0: positive when seat 0 won, 0 for a tie."""
    return hand.kernel.value()


def random_card(cards: int, rng: random.Random) -> int:
    """A card index drawn uniformly from a non-empty card mask."""
    k = rng.randrange(cards.bit_count())
    while k:
        cards &= cards - 1
        k -= 1
    return (cards & -cards).bit_length() - 1


def policy_code(hand: Hand, rng: random.Random | None = None, epsilon: float = 0.0, fair: bool = False,
                close: bool = False) -> int:
    """The policy's action code for the player to act (the hand must not be over).

    With ``fair``, a lead counts as unbeatable only if no card the player
    cannot see (the opponent's hand and the face-down stock) beats it, rather
    than judging by the opponent's actual cards. With ``epsilon``, a card
    decision is random (drawn from ``rng``) with that probability.
    """
    state = hand.kernel
    code = state.policy_code(fair, close)
    if epsilon and code < 24 and rng is not None and rng.random() < epsilon:
        cards = state.legal_mask() & CARD_BITS
        if state.phase == Phase.FOLLOW and not state.stock_open:
            cards &= follow_mask(state.hand(state.to_act), state.lead, state.trump)  # never revoke
        return random_card(cards, rng)
    return code


def playout(hand: Hand, rng: random.Random, epsilon: float = 0.0, *,
            stop_cards: int = -1, fair: bool = False, close: bool = False) -> None:
    """Play ``hand`` on with the policy until it is over, or until the stock is
    closed or exhausted and the player to act holds at most ``stop_cards`` cards
    (for an exact search to take over). One seed is drawn from ``rng``."""
    hand.kernel.playout(rng.getrandbits(64), epsilon, fair, close, stop_cards)


def random_playout(hand: Hand, rng: random.Random) -> None:
    """Play ``hand`` to its end with every legal action equally likely at each turn
    (a random player, like the course platform's ``RandBot``). One seed is drawn from
    ``rng``; the kernel's own generator makes the choices."""
    hand.kernel.random_playout(rng.getrandbits(64))


def random_game(rules: Rules, rng: random.Random, dealer: int = 1) -> Hand:
    """A uniformly shuffled deal of ``rules`` played to its end by two random players
    (:func:`random_playout`); the hand's :meth:`~Hand.result` says how it ended.

    >>> from sixtysix import Rules
    >>> hand = random_game(Rules.preset("course"), random.Random(1))
    >>> hand.is_over(), hand.result().game_points in (1, 2, 3)
    (True, True)
    """
    idx = list(_PACK_INDICES[rules.deck])
    # Fisher-Yates driven by one uniform number below n! (drawn by rejection, no bias),
    # read digit by digit in the factorial number system.
    n = len(idx)
    limit = _FACTORIALS[n]
    bits = limit.bit_length()
    r = rng.getrandbits(bits)
    while r >= limit:
        r = rng.getrandbits(bits)
    for i in range(n, 1, -1):
        r, j = divmod(r, i)
        idx[i - 1], idx[j] = idx[j], idx[i - 1]
    hand = Hand._trusted(idx, dealer, rules)
    random_playout(hand, rng)
    return hand


#: The card indices of each pack, in pack order.
_PACK_INDICES = {size: tuple(c.index for c in pack(size)) for size in (24, 20)}
_FACTORIALS = {size: math.factorial(size) for size in (24, 20)}
