"""The pure-Python kernel: the rules' :class:`State` with the engine's moves on top.

Standard library only. :mod:`sixtysix.kernel._pure_rules` holds the rules (the state,
legal actions, push and pop, scoring); this module is the engine's side of the state:
:class:`State` adds the playout policy (:meth:`State.policy_code`,
:meth:`State.playout`) and the likelihood of a line of play, and the module gathers
the searches (:class:`Search`, :class:`Solver`). The engine imports the rules, never the
reverse. The compiled kernel (``_ckernel``) implements the same classes in C;
``tests/test_kernel_diff.py`` walks both through the same positions and compares
everything they say.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from sixtysix.kernel import _pure_rules
from sixtysix.kernel._pure_rules import NAME, OVER, Rng
from sixtysix.kernel._pure_search import Search, Solver
from sixtysix.kernel._pure_search import playout as _playout
from sixtysix.kernel._pure_search import policy_code as _policy_code
from sixtysix.kernel.tables import NUM_CODES

if TYPE_CHECKING:
    from sixtysix.kernel._pure_net import Net

__all__ = ["NAME", "OVER", "Rng", "Search", "Solver", "State"]


class State(_pure_rules.State):
    """The rules' state (:class:`sixtysix.kernel._pure_rules.State`) with the engine's
    moves: the playout policy and the likelihood of a line of play."""

    __slots__ = ()

    def policy_code(self, fair: bool = False, close: bool = False) -> int:
        """The playout policy's action here (:func:`sixtysix.kernel._pure_search.policy_code`)."""
        return _policy_code(self, fair, close)

    def playout(self, seed: int, epsilon: float = 0.0, fair: bool = False, close: bool = False,
                stop_cards: int = -1) -> None:
        """Play on with the playout policy (see :meth:`policy_code`) until the hand is over,
        or until the stock is closed or exhausted and the player to act holds at most
        ``stop_cards`` cards; a card decision is random with probability ``epsilon``,
        drawn from :class:`Rng` ``seed``. History is kept."""
        _playout(self, Rng(seed), epsilon, fair, close, stop_cards)

    def likelihood(self, codes: Sequence[int], seat: int, epsilon: float, net: Net | None = None,
                   past: Sequence[int] | None = None, mix: float = 0.0) -> float:
        """How likely ``seat`` was to take its actions among ``codes``, played on from here:
        the sum of the logarithms of the chance a model of ``seat`` gives each of them,
        where it had a choice, as ``seat`` saw the hand then. The model is ``net``'s policy
        (``past`` as for :meth:`Net.policy <sixtysix.kernel.Net.policy>`), or the playout
        policy judging by what ``seat`` can see (:meth:`policy_code` with ``fair``), which
        gives its action all the chance, or with a network a mixture of both, ``mix`` of
        the playout policy; ``epsilon`` of the chance is spread evenly over the legal
        actions. ``-inf`` when an action is not legal. The state is left as it
        was (what is pushed is popped).

        >>> from sixtysix.rules import CLASSIC
        >>> from sixtysix.kernel.tables import config
        >>> state = State.deal(list(range(24)), 0, config(CLASSIC))
        >>> lead = state.policy_code(True)
        >>> state.likelihood([lead], 1, 0.1) == math.log(0.9 + 0.1 / state.legal_mask().bit_count())
        True
        """
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat}")
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon}")
        if net is not None and past is None:
            raise ValueError("a network needs the past")
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix must be between 0 and 1, not {mix}")
        total = 0.0
        pushed = 0
        try:
            for code in codes:
                legal = self.legal_mask()
                if not (0 <= code < NUM_CODES and legal >> code & 1):
                    return -math.inf
                if self.to_act == seat and legal & (legal - 1):
                    model = 1.0 if code == _policy_code(self, True, False) else 0.0
                    if net is not None:
                        assert past is not None
                        model = mix * model + (1.0 - mix) * net.policy(self, past)[code]
                    chance = (1.0 - epsilon) * model + epsilon / legal.bit_count()
                    if not chance > 0.0:
                        return -math.inf
                    total += math.log(chance)
                self.push(code)
                pushed += 1
        finally:
            for _ in range(pushed):
                self.pop()
        return total


