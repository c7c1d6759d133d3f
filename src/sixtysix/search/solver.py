"""Exact perfect-information solver.

:func:`solve` takes a full state (a :class:`~sixtysix.game.hand.Hand`: both hands
and the stock order known) and returns the game points (−3..3, a tie 0, no
match context) that the player to act wins with perfect play by both sides,
with the optimal actions. Every action of the rules is searched: declaring 66
or playing on, false declarations, closing before or after the draw, the
exchange, marriages, revokes under table rules.

The search is the rules kernel's (:class:`sixtysix.kernel.Solver`): alpha-beta
with a transposition table over the kernel's own push and pop, so it knows no
rule the hand does not; in the compiled kernel it runs in C. It agrees with
plain minimax over the hand (``tests/test_solver.py``).

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=4)
>>> while hand.stock_open:                       # play into phase 2
...     hand.push(hand.legal_actions()[-1])
>>> solution = solve(hand)
>>> -3 <= solution.value <= 3 and set(solution.best) <= set(hand.legal_actions())
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sixtysix import kernel
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand

__all__ = ["Solution", "Solver", "solve", "value_of"]


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


class Solver:
    """A solver with its transposition table (reuse it for related positions)."""

    def __init__(self) -> None:
        #: The kernel's solver, with its transposition table (search code uses it directly).
        self.kernel = kernel.Solver()
        self._search = self.kernel

    @property
    def nodes(self) -> int:
        """Positions searched so far."""
        return self._search.nodes

    def entries(self) -> int:
        """Positions kept in the transposition table."""
        return self._search.entries()

    # Public -------------------------------------------------------------------
    def solve(self, hand: Hand) -> Solution:
        """Solve ``hand`` exactly: its value and every optimal action."""
        if hand.is_over():
            raise ValueError("the hand is over")
        state = hand.kernel.copy()
        sign = 1 if state.to_act == 0 else -1
        values: dict[Action, int] = {}
        for action in hand.legal_actions():
            state.push(action.code)
            values[action] = sign * self._search.value(state)
            state.pop()
        best_value = max(values.values())
        best = tuple(a for a, v in values.items() if v == best_value)
        return Solution(best_value, best, values, self.nodes)

    def value(self, hand: Hand) -> int:
        """Only the value, for the player to act (faster than :meth:`solve`)."""
        if hand.is_over():
            raise ValueError("the hand is over")
        return self.state_value(hand.kernel)

    def state_value(self, state: kernel.State) -> int:
        """The value of a kernel state for the player to act (the state is left as it was)."""
        v = self._search.value(state)
        return v if state.to_act == 0 else -v

    def best_code(self, state: kernel.State) -> int:
        """An optimal action's code for the player to act in a kernel state."""
        sign = 1 if state.to_act == 0 else -1
        best, best_value = -1, -4
        m = state.legal_mask()
        while m:
            low = m & -m
            m ^= low
            code = low.bit_length() - 1
            state.push(code)
            v = sign * self._search.value(state)
            state.pop()
            if v > best_value:
                best, best_value = code, v
        return best


def solve(hand: Hand) -> Solution:
    """Solve a full state exactly (see the module documentation)."""
    return Solver().solve(hand)


def value_of(hand: Hand) -> int:
    """The exact value of ``hand`` for the player to act."""
    return Solver().value(hand)


