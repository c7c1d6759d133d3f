"""Match equity: the chance to win the match from a score, and what each result of the
hand in play is worth toward it.

A search bot that maximises game points per hand plays the hand, not the match.
Near the end of a match the two differ: at 6-6 to 7, any won hand wins the match,
so a safe win is worth as much as a Schwarz; at 6-3 the leader should take few
risks and the trailer many. The search bots (:mod:`sixtysix.bots.ismcts`,
:mod:`sixtysix.bots.pimc`) therefore score the end of a hand by the match equity
it leaves, when the view carries the match score (:attr:`View.match_score
<sixtysix.game.views.View.match_score>`, filled by :meth:`sixtysix.game.match.Match.deal`).

The equity table assumes every hand is won by either player with equal chance and
by 1, 2 or 3 game points as often as our heuristic bot's hands are (measured:
``OUTCOMES``); the dealer's small edge is left out. Because the search's values are
only ranked and averaged, an approximate table is enough.

>>> round(match_equity(0, 0, target=7), 3), round(match_equity(6, 6, target=7), 3)
(0.5, 0.5)
>>> round(match_equity(6, 4, target=7), 3), match_equity(7, 3, target=7)
(0.775, 1.0)

At 6-6 any won hand wins the match, whatever its game points:

>>> [round(u, 2) for u in hand_utility((6, 6), 0, seat=0, target=7)]
[-1.0, -1.0, -1.0, 0.0, 1.0, 1.0, 1.0]
"""

from __future__ import annotations

import functools

__all__ = ["MAX_TARGET", "OUTCOMES", "TIE", "hand_utility", "match_equity"]

#: How often a decided hand is won by 1, 2 and 3 game points: 4,000 random deals
#: played by the heuristic bot against itself under the classic rules gave 2,170,
#: 1,636 and 191 hands, and 3 ties (Santase's rules: 55, 39 and 6 %).
OUTCOMES: tuple[tuple[int, float], ...] = ((1, 0.5432), (2, 0.4090), (3, 0.0478))
#: How often a hand is tied (R9.2): 3 in 4,000.
TIE = 0.00075
_MAX_BONUS = 6  # tie bonuses beyond this are treated as this (ties are rare)
#: Longer matches are played for game points (the table would be large).
MAX_TARGET = 100


@functools.lru_cache(maxsize=64)
def _table(target: int, tie_bonus: int) -> dict[tuple[int, int, int], float]:
    """Equity of the player with ``a`` game points against ``b``, with ``k`` points of
    tie bonus waiting for the next hand's winner, for every ``a, b < target``."""
    table: dict[tuple[int, int, int], float] = {}

    def e(a: int, b: int, k: int) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        return table[a, b, min(k, _MAX_BONUS)]

    decided = (1.0 - TIE) / 2
    # Scores only grow, so fill from the highest total down; a tie keeps the scores and
    # adds to the bonus, so at each score fill from the largest bonus down (the largest
    # refers to itself: solved as a fixed point).
    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(total, target - 1) + 1):
            b = total - a
            for k in range(_MAX_BONUS, -1, -1):
                won = sum(p * e(a + g + k, b, 0) for g, p in OUTCOMES)
                lost = sum(p * e(a, b + g + k, 0) for g, p in OUTCOMES)
                rest = decided * (won + lost)
                if k == _MAX_BONUS or tie_bonus == 0:
                    # E = rest + TIE * E (a tie changes nothing here)
                    value = rest / (1.0 - TIE)
                else:
                    value = rest + TIE * e(a, b, k + tie_bonus)
                table[a, b, k] = value
    return table


def match_equity(me: int, opponent: int, bonus: int = 0, *, target: int, tie_bonus: int = 1) -> float:
    """The chance that the player with ``me`` game points wins the match against
    ``opponent``, the first to reach ``target`` winning (R9.3), with ``bonus``
    points from ties waiting for the next hand's winner (R9.2).

    >>> match_equity(6, 0, target=7) > match_equity(5, 0, target=7) > match_equity(0, 0, target=7)
    True
    >>> abs(match_equity(2, 5, target=7) + match_equity(5, 2, target=7) - 1) < 1e-12
    True
    """
    if me >= target:
        return 1.0
    if opponent >= target:
        return 0.0
    return _table(target, tie_bonus)[me, opponent, min(bonus, _MAX_BONUS)]


def hand_utility(score: tuple[int, int], bonus: int, *, seat: int, target: int,
                 tie_bonus: int = 1) -> tuple[float, ...]:
    """What each result of the hand is worth to ``seat``: seven values for its game
    points ``g`` from −3 to 3 (index ``g + 3``; 0 is a tie), the change in its match
    equity scaled so that the largest change is 1 (as ``g / 3`` is without a match).

    Monotone in ``g``, and zero-sum: the opponent's values are these reversed and negated.
    Without any spread (which cannot happen before the match is over) it is ``g / 3``.
    """
    me, opp = score[seat], score[1 - seat]
    if target > MAX_TARGET:
        return tuple(g / 3 for g in range(-3, 4))  # far from the end, points are what count
    now = match_equity(me, opp, bonus, target=target, tie_bonus=tie_bonus)
    after = []
    for g in range(-3, 4):
        if g > 0:
            after.append(match_equity(me + g + bonus, opp, 0, target=target, tie_bonus=tie_bonus))
        elif g < 0:
            after.append(match_equity(me, opp - g + bonus, 0, target=target, tie_bonus=tie_bonus))
        else:
            after.append(match_equity(me, opp, bonus + tie_bonus, target=target, tie_bonus=tie_bonus))
    spread = max(abs(x - now) for x in after)
    if spread < 1e-12:
        return tuple(g / 3 for g in range(-3, 4))
    return tuple(round((x - now) / spread, 12) for x in after)  # exact at 6-6: ±1
