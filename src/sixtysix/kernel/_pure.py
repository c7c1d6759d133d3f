"""The pure-Python kernel: the rules' :class:`State` with the engine's moves on top.

Standard library only. :mod:`sixtysix.kernel._pure_rules` holds the rules (the state,
legal actions, push and pop, scoring); this module is the engine's side of the state:
:class:`State` adds the playout policy (:meth:`State.policy_code`,
:meth:`State.playout`), and the module gathers the searches (:class:`Search`,
:class:`Solver`). The engine imports the rules, never the reverse. The compiled kernel
(``_ckernel``) implements the same classes in C; ``tests/test_kernel_diff.py`` walks both
through the same positions and compares everything they say.
"""

from __future__ import annotations

from sixtysix.kernel import _pure_rules
from sixtysix.kernel._pure_rules import NAME, OVER, Rng
from sixtysix.kernel._pure_search import Search, Solver
from sixtysix.kernel._pure_search import playout as _playout
from sixtysix.kernel._pure_search import policy_code as _policy_code

__all__ = ["NAME", "OVER", "Rng", "Search", "Solver", "State"]


class State(_pure_rules.State):
    """The rules' state (:class:`sixtysix.kernel._pure_rules.State`) with the engine's
    moves: the playout policy."""

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


