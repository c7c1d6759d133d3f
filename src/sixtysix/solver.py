"""Exact perfect-information solver.

:func:`solve` takes a full state (a :class:`~sixtysix.hand.Hand`: both hands
and the stock order known) and returns the game points (−3..3, a tie 0, no
match context) that the player to act wins with perfect play by both sides,
with the optimal actions. Every action of the rules is searched: declaring 66
or playing on, false declarations, closing before or after the draw, the
exchange, marriages, revokes under table rules.

While the stock is open the search runs on the :class:`Hand` itself with
``push``/``pop`` and a transposition table keyed by :meth:`Hand.key`. Once
the stock is closed or exhausted nothing is hidden and nothing is drawn, so
the rest of the hand is searched by a lean alpha-beta over plain integers
(card masks, points, trick flags) with its own transposition table. The two
agree with plain minimax over the engine (``tests/test_solver.py``).

Values inside the search are from seat 0's point of view (seat 0
maximises); :class:`Solution` reports them for the player to act.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=4)
>>> while hand.stock_open:                       # play into phase 2
...     hand.push(hand.legal_actions()[-1])
>>> solution = solve(hand)
>>> -3 <= solution.value <= 3 and set(solution.best) <= set(hand.legal_actions())
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from sixtysix.actions import DECLARE, EXCHANGE, MARRIAGE, Action
from sixtysix.hand import (
    ABOVE,
    FOLLOW,
    KINGS,
    LEAD,
    OVER,
    PENDING_MASK,
    PENDING_SHIFT,
    POINTS,
    SCHNEIDER,
    STOCK_CARDS,
    SUIT_MASK,
    SUIT_OF,
    WINNING_TOTAL,
    Hand,
)

__all__ = ["Solution", "Solver", "solve", "value_of"]

_WIN = WINNING_TOTAL
_MARRIAGE_BITS = ((1 << EXCHANGE) - 1) ^ ((1 << MARRIAGE) - 1)


@dataclass(frozen=True)
class Solution:
    """The solved value of a position, for the player to act."""

    #: Game points the player to act wins with perfect play (negative: loses).
    value: int
    #: Every optimal action.
    best: tuple[Action, ...]
    #: The exact value of every legal action, for the player to act.
    values: dict[Action, int] = field(default_factory=dict)
    #: Positions searched.
    nodes: int = 0


def _outcome_value(hand: Hand) -> int:
    result = hand.result()
    assert result is not None
    if result.winner is None:
        return 0
    return result.game_points if result.winner == 0 else -result.game_points


def _lowest_first(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Solver:
    """A solver with its transposition tables (reuse it for related positions)."""

    def __init__(self) -> None:
        self.nodes = 0
        self._tt1: dict[tuple[int, ...], tuple[int, int]] = {}
        self._tt2: dict[tuple[object, ...], tuple[int, int]] = {}
        #: The phase-2 search built for each set of its constants (building it costs
        #: more than solving a small ending, and search bots solve thousands of those).
        self._phase2: dict[tuple[object, ...], Callable[..., int]] = {}

    # Public -------------------------------------------------------------------
    def solve(self, hand: Hand) -> Solution:
        """Solve ``hand`` exactly: its value and every optimal action."""
        if hand.is_over():
            raise ValueError("the hand is over")
        p = hand.to_act
        assert p is not None
        sign = 1 if p == 0 else -1
        values: dict[Action, int] = {}
        work = hand.copy()
        for action in work.legal_actions():
            work.push_code(action.code)
            values[action] = sign * self._search(work, -3, 3)
            work.pop()
        best_value = max(values.values())
        best = tuple(a for a, v in values.items() if v == best_value)
        return Solution(best_value, best, values, self.nodes)

    def value(self, hand: Hand) -> int:
        """Only the value, for the player to act (faster than :meth:`solve`)."""
        if hand.is_over():
            raise ValueError("the hand is over")
        if hand._closed_by >= 0 or hand._drawn >= STOCK_CARDS:
            v = self._enter_phase2(hand, -3, 3)  # reads the hand, never changes it
        else:
            v = self._search(hand.copy(), -3, 3)
        return v if hand.to_act == 0 else -v

    # Phase 1: search on the Hand -------------------------------------------------
    def _search(self, hand: Hand, alpha: int, beta: int) -> int:
        self.nodes += 1
        state = hand._state
        if state == OVER:
            return _outcome_value(hand)
        if (hand._closed_by >= 0 or hand._drawn >= STOCK_CARDS) and state != OVER:
            return self._enter_phase2(hand, alpha, beta)
        key = hand.key()
        entry = self._tt1.get(key)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            if lo == hi:
                return lo
        a0, b0 = alpha, beta
        p = hand._to_act
        mask = hand.legal_mask()
        codes = self._order(hand, mask)
        push = hand._push
        pop = hand.pop
        if p == 0:
            best = -4
            for code in codes:
                push(code)
                v = self._search(hand, alpha, beta)
                pop()
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = 4
            for code in codes:
                push(code)
                v = self._search(hand, alpha, beta)
                pop()
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if best <= a0:
            self._tt1[key] = (entry[0] if entry else -3, best)
        elif best >= b0:
            self._tt1[key] = (best, entry[1] if entry else 3)
        else:
            self._tt1[key] = (best, best)
        return best

    @staticmethod
    def _order(hand: Hand, mask: int) -> list[int]:
        """Declarations that hold first, then the other non-card actions, then cards high first."""
        codes = _lowest_first(mask)
        p = hand._to_act
        if mask >> DECLARE & 1 and hand.score(p) >= _WIN:
            codes.remove(DECLARE)
            codes.insert(0, DECLARE)
        cards = [c for c in codes if c < EXCHANGE]
        rest = [c for c in codes if c >= EXCHANGE]
        cards.sort(key=lambda c: POINTS[c % 24], reverse=True)
        return rest + cards

    def _enter_phase2(self, hand: Hand, alpha: int, beta: int) -> int:
        rules = hand.rules
        p = hand._to_act
        ntricks = hand._tricks[0] + hand._tricks[1]
        marry = bool(hand._state == LEAD and (
            rules.marriages_in_phase2
            or (hand._closed_by == p and hand._closed_trick == ntricks)
        ) and (ntricks or rules.marriage_first_lead))
        closer = hand._closed_by
        # R6.4: 3 if the opponent had no trick at the close (what _close_points 3 means).
        failed = 3 if rules.failed_close == "three" or hand._close_points == 3 else 2
        # S5.3: a successful close worth what the opponent's state made it when closing.
        success = hand._close_points if closer >= 0 and rules.close_scoring == "at_close" else 0
        constants = (int(hand.trump), closer, failed, rules.false_declaration == "two_or_three",
                     rules.last_trick_bonus if closer < 0 else 0, rules.auto_declare,
                     rules.enforce_follow, rules.marriages_in_phase2, success,
                     rules.played_out == "last_trick", rules.marriage_counts == "next_trick",
                     rules.marriage_lead == "king")
        search = self._phase2.get(constants)
        if search is None:
            (trump, closer, failed, false23, bonus, auto, enforce, marriages_p2, success,
             last_trick, next_trick, king_lead) = constants
            search = self._phase2[constants] = _phase2_search(
                trump=trump,
                closer=closer,
                failed_close=failed,
                false_two_or_three=false23,
                bonus=bonus,
                auto=auto,
                enforce=enforce,
                marriages_p2=marriages_p2,
                close_success=success,
                last_trick=last_trick,
                next_trick=next_trick,
                king_lead=king_lead,
                table=self._tt2,
                counter=self,
            )
        lead = hand._lead if hand._state == FOLLOW else -1
        h = hand._hands
        w = hand._won
        m = hand._marr
        t = hand._tricks
        # Pending marriage points apart only when they wait for the next trick won.
        q = hand._pending
        return search(h[0], h[1], p, lead, w[0], w[1], m[0], m[1], q & PENDING_MASK,
                      q >> PENDING_SHIFT, 1 if t[0] else 0, 1 if t[1] else 0, marry, alpha, beta)


def _phase2_search(
    *,
    trump: int,
    closer: int,
    failed_close: int,
    false_two_or_three: bool,
    bonus: int,
    auto: bool,
    enforce: bool,
    marriages_p2: bool,
    close_success: int = 0,
    last_trick: bool = False,
    next_trick: bool = False,
    king_lead: bool = False,
    table: dict[tuple[object, ...], tuple[int, int]],
    counter: Solver,
) -> Callable[..., int]:
    """Build the phase-2 alpha-beta for one set of constants (R7, R8, R6.3/R6.4, R10.2;
    ``close_success``: the fixed worth of a successful close, S5.3, 0 to score it at
    the end; ``last_trick``: a hand played out goes to the last trick's winner, S6.3;
    ``next_trick``: marriage points wait (q0, q1) until their owner next wins a trick;
    ``king_lead``: a marriage leads the King; both options of the course platform)."""
    trump_mask = SUIT_MASK[trump]
    rules_key = (trump, closer, failed_close, false_two_or_three, bonus, auto, enforce, marriages_p2,
                 close_success, last_trick, next_trick, king_lead)

    def concede(score_loser: int, tricks_loser: int) -> int:
        # R9.1: Schwarz by tricks, Schneider under 33.
        if not tricks_loser:
            return 3
        return 2 if score_loser < SCHNEIDER else 1

    def signed(winner: int, points: int) -> int:
        return points if winner == 0 else -points

    def declare(p: int, s0: int, s1: int, t0: int, t1: int) -> int:
        """The value when ``p`` declares with totals s0/s1 (R8.2, R8.3, R6.3, R6.4)."""
        sp, so = (s0, s1) if p == 0 else (s1, s0)
        to = t1 if p == 0 else t0
        tp = t0 if p == 0 else t1
        correct = sp >= _WIN
        if closer < 0:
            if correct:
                return signed(p, concede(so, to))
            return signed(1 - p, 3 if false_two_or_three and not to else 2)
        if p == closer:
            if correct:
                return signed(p, close_success or concede(so, to))
            return signed(1 - p, failed_close)
        if correct:
            return signed(p, failed_close)
        # The closer's opponent declared falsely: R8.3 for the closer.
        return signed(closer, 3 if false_two_or_three and not tp else 2)

    def played_out(c0: int, c1: int, m0: int, m1: int, t0: int, t1: int, last: int) -> int:
        s0 = c0 + (m0 if t0 else 0)
        s1 = c1 + (m1 if t1 else 0)
        if closer >= 0:
            sc, so = (s0, s1) if closer == 0 else (s1, s0)
            to = t1 if closer == 0 else t0
            if sc >= _WIN and (not last_trick or last == closer):
                return signed(closer, close_success or concede(so, to))
            return signed(1 - closer, failed_close)
        if last_trick:
            # S6.3: the last trick's winner, as if declared when he has 66, else 1.
            sl, so, to = (s0, s1, t1) if last == 0 else (s1, s0, t0)
            return signed(last, concede(so, to) if sl >= _WIN else 1)
        if last == 0:
            s0 += bonus
        else:
            s1 += bonus
        if s0 == s1:
            return 0
        if s0 > s1:
            return concede(s1, t1)
        return -concede(s0, t0)

    def search(h0: int, h1: int, p: int, lead: int, c0: int, c1: int, m0: int, m1: int,
               q0: int, q1: int, t0: int, t1: int, marry: bool, alpha: int, beta: int) -> int:
        counter.nodes += 1
        key = (h0, h1, p, lead, c0, c1, m0, m1, q0, q1, t0, t1, marry, rules_key)
        entry = table.get(key)
        if entry is not None:
            lo, hi = entry
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
            if lo == hi:
                return lo
        a0, b0 = alpha, beta
        maximise = p == 0
        best = -4 if maximise else 4
        # Children as (kind, arg) evaluated lazily in a fixed good order.
        if lead < 0:
            hand = h0 if p == 0 else h1
            tp = t0 if p == 0 else t1
            s0 = c0 + (m0 if t0 else 0)
            s1 = c1 + (m1 if t1 else 0)
            # Marriage leads as (card, value); plain leads have value 0.
            options: list[tuple[int, int]] = []
            # R8.1: declare (a correct declaration is tried first).
            if tp and not auto:
                v = declare(p, s0, s1, t0, t1)
                if maximise:
                    best = v
                    alpha = max(alpha, v)
                else:
                    best = v
                    beta = min(beta, v)
            if alpha < beta and marry:
                pairs = hand & KINGS & (hand << 1)
                while pairs:
                    king = pairs & -pairs
                    pairs ^= king
                    k = king.bit_length() - 1
                    value = 40 if k // 6 == trump else 20
                    if tp and not auto and not next_trick:
                        # R5.5: show the marriage and declare without leading.
                        if p == 0:
                            v = declare(0, s0 + value, s1, t0, t1)
                        else:
                            v = declare(1, s0, s1 + value, t0, t1)
                        if maximise:
                            if v > best:
                                best = v
                                alpha = max(alpha, v)
                        elif v < best:
                            best = v
                            beta = min(beta, v)
                    options.append((k, value))  # lead the king
                    if not king_lead:
                        options.append((k - 1, value))  # or the queen
            if alpha < beta:
                cards = hand
                order: list[int] = []
                while cards:
                    low = cards & -cards
                    cards ^= low
                    order.append(low.bit_length() - 1)
                order.sort(key=lambda c: (c // 6 == trump, POINTS[c]), reverse=True)
                options.extend((c, 0) for c in order)
                for card, value in options:
                    if value and next_trick:
                        # Announce and lead; the points wait for p's next trick won.
                        if p == 0:
                            v = search(h0 ^ (1 << card), h1, 1, card, c0, c1, m0, m1, q0 + value, q1,
                                       t0, t1, False, alpha, beta)
                        else:
                            v = search(h0, h1 ^ (1 << card), 0, card, c0, c1, m0, m1, q0, q1 + value,
                                       t0, t1, False, alpha, beta)
                    elif value:
                        # R5.1: announce and lead.
                        if p == 0:
                            nm0, nm1 = m0 + value, m1
                            counted = c0 + nm0
                        else:
                            nm0, nm1 = m0, m1 + value
                            counted = c1 + nm1
                        if auto and tp and counted >= _WIN:
                            # R5.5 under auto_declare: the marriage ends the hand unled.
                            if p == 0:
                                v = declare(0, c0 + nm0, s1, t0, t1)
                            else:
                                v = declare(1, s0, c1 + nm1, t0, t1)
                        elif p == 0:
                            v = search(h0 ^ (1 << card), h1, 1, card, c0, c1, nm0, nm1, q0, q1, t0, t1,
                                       False, alpha, beta)
                        else:
                            v = search(h0, h1 ^ (1 << card), 0, card, c0, c1, nm0, nm1, q0, q1, t0, t1,
                                       False, alpha, beta)
                    elif p == 0:
                        v = search(h0 ^ (1 << card), h1, 1, card, c0, c1, m0, m1, q0, q1, t0, t1,
                                   False, alpha, beta)
                    else:
                        v = search(h0, h1 ^ (1 << card), 0, card, c0, c1, m0, m1, q0, q1, t0, t1,
                                   False, alpha, beta)
                    if maximise:
                        if v > best:
                            best = v
                            if v > alpha:
                                alpha = v
                    elif v < best:
                        best = v
                        if v < beta:
                            beta = v
                    if alpha >= beta:
                        break
        else:
            hand = h0 if p == 0 else h1
            suit = SUIT_OF[lead]
            allowed = _follow(hand, lead, suit, trump_mask)
            leader = 1 - p
            pts_lead = POINTS[lead]
            # Winning cards first (cheapest winner first), then the rest (cheapest first).
            winners: list[int] = []
            losers: list[int] = []
            cards = hand
            while cards:
                low = cards & -cards
                cards ^= low
                c = low.bit_length() - 1
                if SUIT_OF[c] == suit:
                    (winners if c > lead else losers).append(c)
                elif c // 6 == trump:
                    winners.append(c)
                else:
                    losers.append(c)
            for c in winners + losers:
                if not allowed >> c & 1:
                    if enforce:
                        continue
                    # R10.2: a revoke under table rules ends the hand.
                    won_p = c0 if p == 0 else c1
                    v = signed(leader, 2 if won_p else 3)
                else:
                    nh0 = h0 ^ (1 << c) if p == 0 else h0
                    nh1 = h1 ^ (1 << c) if p == 1 else h1
                    if (SUIT_OF[c] == suit and c > lead) or (SUIT_OF[c] != suit and c // 6 == trump):
                        w = p
                    else:
                        w = leader
                    pts = pts_lead + POINTS[c]
                    # The winner's pending marriage points count now (next_trick).
                    if w == 0:
                        nc0, nc1, nt0, nt1 = c0 + pts, c1, 1, t1
                        nm0, nm1, nq0, nq1 = m0 + q0, m1, 0, q1
                    else:
                        nc0, nc1, nt0, nt1 = c0, c1 + pts, t0, 1
                        nm0, nm1, nq0, nq1 = m0, m1 + q1, q0, 0
                    if not nh0 and not nh1:
                        v = played_out(nc0, nc1, nm0, nm1, nt0, nt1, w)
                    elif auto and (nc0 + nm0 if w == 0 else nc1 + nm1) >= _WIN:
                        v = declare(w, nc0 + (nm0 if nt0 else 0), nc1 + (nm1 if nt1 else 0),
                                    nt0, nt1)
                    else:
                        v = search(nh0, nh1, w, -1, nc0, nc1, nm0, nm1, nq0, nq1, nt0, nt1,
                                   marriages_p2, alpha, beta)
                if maximise:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                elif v < best:
                    best = v
                    if v < beta:
                        beta = v
                if alpha >= beta:
                    break
        if best <= a0:
            table[key] = (entry[0] if entry else -3, best)
        elif best >= b0:
            table[key] = (best, entry[1] if entry else 3)
        else:
            table[key] = (best, best)
        return best

    return search


def _follow(hand: int, lead: int, suit: int, trump_mask: int) -> int:
    """R7.2: follow suit and win if possible; else follow suit; else trump; else anything."""
    same = hand & SUIT_MASK[suit]
    if same:
        return (same & ABOVE[lead]) or same
    trumps = hand & trump_mask
    return trumps or hand


def solve(hand: Hand) -> Solution:
    """Solve a full state exactly (see the module documentation)."""
    return Solver().solve(hand)


def value_of(hand: Hand) -> int:
    """The exact value of ``hand`` for the player to act."""
    return Solver().value(hand)

