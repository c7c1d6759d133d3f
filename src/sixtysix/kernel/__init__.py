"""The rules kernel: the game's low-level rules on bitmasks, in one place.

Everything fast in sixtysix stands on :class:`State`: one hand's whole state in
a few integers (each seat's cards a 24-bit mask, the stock an array of card
indices), legal actions as a bitmask over action codes, and make/unmake with
:meth:`State.push` and :meth:`State.pop`. :class:`sixtysix.game.hand.Hand` is the
checked, object-level API on top of it; search bots, the solver, playouts and
the reinforcement-learning environments use the kernel directly.

Two implementations of the same class exist: a C extension (``_ckernel``),
used when it was built at install time, and the pure-Python reference
(``_pure``), standard library only. ``SIXTYSIX_KERNEL=python`` forces the
pure one; :data:`NAME` says which one runs.

The kernel checks nothing: :meth:`State.push` trusts that the action is legal.
Untrusted input goes through :class:`~sixtysix.game.hand.Hand`, which names the legal
actions when one is not. The search (:class:`Search`) takes its options as one frozen,
checked :class:`TreeConfig` (:mod:`sixtysix.kernel.tree`).

>>> from sixtysix.rules import CLASSIC
>>> state = State.deal(list(range(24)), 0, config(CLASSIC))
>>> state.legal_mask() & CARD_BITS == state.hand(state.to_act)
True
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from sixtysix.kernel._pure_observe import OBSERVATION_BLOCKS
from sixtysix.kernel._pure_tables import OPPONENTS
from sixtysix.kernel.tables import (
    ABOVE,
    CARD_BITS,
    CLOSE,
    DEAL_LAYOUTS,
    DECLARE,
    DECLARE_MARRIAGE,
    DRAW,
    EXCHANGE,
    KINGS,
    MARRIAGE,
    NUM_CODES,
    POINTS,
    REASONS,
    SCHNEIDER,
    SCORING_POINTS,
    SETTLE_EVERY,
    SETTLE_FROM,
    STOCK_CARDS,
    SUIT_MASK,
    SUIT_OF,
    TOLERANCE_FROM,
    WINNING_TOTAL,
    Config,
    DealLayout,
    Phase,
    Reason,
    Refused,
    Scoring,
    beats,
    conceded,
    config,
    declared_total,
    follow_mask,
    marriage_value,
)
from sixtysix.kernel.tree import TreeConfig

__all__ = [
    "ABOVE", "CARD_BITS", "CLOSE", "DEAL_LAYOUTS", "DECLARE", "DECLARE_MARRIAGE", "DRAW", "EXCHANGE",
    "KINGS", "MARRIAGE", "NAME", "NUM_CODES", "OBSERVATION_BLOCKS", "OPPONENTS", "POINTS",
    "REASONS", "SCHNEIDER", "SCORING_POINTS", "SETTLE_EVERY", "SETTLE_FROM", "STOCK_CARDS", "SUIT_MASK",
    "SUIT_OF", "TOLERANCE_FROM", "WINNING_TOTAL", "Config", "DealLayout", "Phase", "Reason", "Refused",
    "Rng", "Scoring", "Search", "Solver", "State", "Tables", "TreeConfig", "beats", "conceded", "config",
    "declared_total", "follow_mask", "marriage_value",
]

if TYPE_CHECKING:
    from sixtysix.kernel._pure import NAME, Rng, Search, Solver, State
    from sixtysix.kernel._pure_tables import Tables
else:
    _choice = os.environ.get("SIXTYSIX_KERNEL", "").strip().lower()
    if _choice not in ("", "c", "python"):
        raise ImportError(f"SIXTYSIX_KERNEL must be 'c' or 'python', not {_choice!r}")
    if _choice == "python":
        from sixtysix.kernel._pure import NAME, Rng, Search, Solver, State
        from sixtysix.kernel._pure_tables import Tables
    else:
        try:
            from sixtysix.kernel._ckernel import NAME, Rng, Search, Solver, State, Tables
        except ImportError as exc:
            if _choice == "c":
                raise ImportError(
                    f"SIXTYSIX_KERNEL=c, but the compiled kernel cannot be used: {exc}") from None
            from sixtysix.kernel._pure import NAME, Rng, Search, Solver, State
            from sixtysix.kernel._pure_tables import Tables
