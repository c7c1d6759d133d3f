"""The pure kernel's network: a learned trunk and value head run on a state (the value
of the search's new leaves, :class:`~sixtysix.kernel._pure_search.Search`'s ``net``).

The compiled kernel has the same class in C. Both compute the same operations in the
same order (each layer a sum of the rows of its nonzero inputs, kept transposed; the
trunk in single precision, the heads' sums in double) on the float32 observation of
:mod:`sixtysix.game.observation`'s layout, rounding alike, so both give the same values
exactly. Standard library only: the weights come in as buffers (NumPy
arrays) and are kept as lists of floats; in pure Python a 256-wide network costs
milliseconds a call, so it is there to be the reference, not to be fast.
"""

from __future__ import annotations

import math
import operator
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from sixtysix.kernel._pure_observe import OBSERVATION_BLOCKS, OVER, Past, encode_past
from sixtysix.kernel.tables import CARD_BITS, NUM_CODES

if TYPE_CHECKING:
    from sixtysix.kernel._pure import State

__all__ = ["PAST", "Net", "Root"]

#: What a search's root state does not hold (it was built without its history), as
#: ``past``: the cards seat 0 and seat 1 won (masks), the marriages each showed (suits
#: as bits), the seat that exchanged (-1: none) and the card it took (-1), the tricks
#: played, the winner of the trick that emptied the stock (-1: none yet), the last
#: trick's cards (a mask), the stock's last card when the stock is empty (the turned-up
#: trump or the card exchanged for it; -1 while it is in the stock), the dealer, and the
#: match: seat 0's game points, seat 1's, the target (0: a single hand) and the tie
#: bonus at stake.
PAST = ("won0", "won1", "shown0", "shown1", "exchanged_by", "taken", "tricks", "sixth_winner", "last",
        "face_up", "dealer", "match0", "match1", "target", "bonus")
_LOW = (0, 0, 0, 0, -1, -1, 0, -1, 0, -1, 0, 0, 0, 0, 0)
_HIGH = (CARD_BITS, CARD_BITS, 15, 15, 1, 23, 12, 1, CARD_BITS, 23, 1, 10**6, 10**6, 10**6, 10**6)
_MATCH = OBSERVATION_BLOCKS.index("match")
_WIDTHS = (24, 24, 24, 24, 24, 24, 24, 24, 4, 4, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 2, 3)


class Root:
    """A ``past`` tuple (:data:`PAST`) read and checked."""

    __slots__ = ("dealer", "match", "past")

    def __init__(self, past: Sequence[int]) -> None:
        values = list(past)
        if len(values) != len(PAST):
            raise ValueError(f"past gives {len(values)} numbers, not {len(PAST)}")
        for name, v, lo, hi in zip(PAST, values, _LOW, _HIGH, strict=True):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"past's {name} must be an int, not {type(v).__name__}")
            if not lo <= v <= hi:
                raise ValueError(f"a number of past must be {lo}-{hi}, not {v}")
        self.past = Past((values[0], values[1]), (values[2], values[3]), values[4], values[5], values[6],
                         values[7], values[8], values[9])
        self.dealer = values[10]
        self.match = tuple(values[11:15]) if values[13] > 0 else None


def _matrix(o: Any, what: str, rows: int | None, cols: int) -> list[list[float]]:
    view = memoryview(o)
    if view.format.lstrip("@=<") != "f" or view.itemsize != 4 or not view.c_contiguous:
        raise TypeError(f"{what} must be a C-contiguous buffer of float32")
    if view.ndim != 2 or view.shape is None or view.shape[0] < 1 or view.shape[1] != cols or (
            rows is not None and view.shape[0] != rows):
        raise ValueError(f"{what} must be a matrix of {cols} columns" if rows is None else
                         f"{what} must be a {rows} x {cols} matrix")
    return cast("list[list[float]]", view.tolist())  # float32 items: floats


def _vector(o: Any, what: str, count: int) -> list[float]:
    view = memoryview(o)
    if view.format.lstrip("@=<") != "f" or view.itemsize != 4 or not view.c_contiguous:
        raise TypeError(f"{what} must hold float32 biases")
    if view.nbytes // 4 != count:
        raise ValueError(f"{what} must hold {count} items, not {view.nbytes // 4}")
    return cast("list[float]", view.cast("B").cast("f").tolist())


def _layer(pair: Any, what: str, nin: int, rows: int | None) -> tuple[list[list[float]], list[float]]:
    try:
        weight, bias = pair
    except (TypeError, ValueError):
        raise ValueError(f"{what} is not a (weight, bias) pair") from None
    w = _matrix(weight, what, rows, nin)
    b = _vector(bias, what, len(w))
    return [[row[i] for row in w] for i in range(nin)], b


class Net:
    """A learned network's trunk (``(weight, bias)`` pairs, weights ``out × in`` float32
    as PyTorch's ``Linear`` keeps them), value head (one output, ``tanh``) and, if given,
    policy head (a logit per action code), run on the
    observation (:mod:`sixtysix.game.observation`) of a kernel state. ``offsets`` are the
    observation blocks' starts (:data:`~sixtysix.kernel.OBSERVATION_BLOCKS`) and its size."""

    def __init__(self, trunk: Sequence[Any], value: Any, offsets: Sequence[int], point_scale: float,
                 policy: Any = None) -> None:
        if not point_scale > 0:
            raise ValueError("point_scale must be positive")
        offsets = [int(o) for o in offsets]
        if len(offsets) != len(OBSERVATION_BLOCKS) + 1:
            raise ValueError(f"offsets must give {len(OBSERVATION_BLOCKS)} blocks and the size")
        size = offsets[-1]
        if not 1 <= size <= 100000:
            raise ValueError(f"the observation size must be 1-100000, not {size}")
        for i, width in enumerate(_WIDTHS):
            if not 0 <= offsets[i] <= size - width:
                raise ValueError(f"block {i} (offset {offsets[i]}, {width} numbers) does not fit an "
                                 f"observation of {size}")
        if len(trunk) > 64:
            raise ValueError("trunk has more than 64 layers")
        layers = []
        nin = width = size
        for n, pair in enumerate(trunk):
            wt, b = _layer(pair, f"trunk layer {n}", nin, None)
            layers.append((wt, b))
            nin = len(b)
            width = max(width, nin)
        wt, b = _layer(value, "the value head", nin, 1)
        self._layers = layers
        self._value_w = [row[0] for row in wt]
        self._value_b = b[0]
        self._policy: tuple[list[list[float]], list[float]] | None = None
        if policy is not None:
            self._policy = _layer(policy, "the policy head", nin, NUM_CODES)
        self._offsets = offsets
        self._scale = float(point_scale)
        #: Numbers in an observation.
        self.size = size
        #: The widest layer (or the observation).
        self.width = width

    def observe(self, state: State, seat: int, past: Sequence[int]) -> list[float]:
        """The observation of ``seat`` of ``state`` (a list of floats): the state's own
        history added to ``past`` (what happened before it, see :data:`PAST`)."""
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat}")
        return self._observe(state, seat, Root(past), 0)

    def value(self, state: State, past: Sequence[int]) -> float:
        """The value head's output for the seat to act of ``state``: its expected game points / 3."""
        if state.phase == OVER:
            raise ValueError("the hand is over: no seat is to act")
        return self._forward(self._observe(state, state.to_act, Root(past), 0))

    def policy(self, state: State, past: Sequence[int]) -> list[float]:
        """The policy head's probability of each action code for the seat to act of
        ``state`` (0 for the illegal ones): the softmax of the legal actions' logits."""
        if self._policy is None:
            raise ValueError("the network has no policy head")
        if state.phase == OVER:
            raise ValueError("the hand is over: no seat is to act")
        legal = state.legal_mask()
        prior: list[float] = []
        self._forward(self._observe(state, state.to_act, Root(past), 0), legal, prior)
        out = [0.0] * NUM_CODES
        codes = [code for code in range(NUM_CODES) if legal >> code & 1]
        for code, p in zip(codes, prior, strict=True):
            out[code] = p
        return out

    def _observe(self, state: State, seat: int, root: Root, start: int) -> list[float]:
        """The observation (float32 values) of ``state``'s undo records from ``start`` on after ``root``."""
        out = array("f", bytes(4 * self.size))
        past = root.past.copy()
        past.scan(state, start)
        pack = CARD_BITS if state.config.deck == 24 else sum(1 << c for c in range(24) if c % 6)
        encode_past(state, past, seat, root.dealer, out, 0, self._offsets, self._scale, pack)
        if root.match is not None:
            mine, theirs, target, bonus = (root.match[seat], root.match[1 - seat], root.match[2],
                                           root.match[3])
            scale = target if target > 1 else 1
            at = self._offsets[_MATCH]
            out[at] = min(mine / scale, 1.0)
            out[at + 1] = min(theirs / scale, 1.0)
            out[at + 2] = min(bonus / scale, 1.0)
        return out.tolist()

    def _forward(self, x: list[float], legal: int = 0, prior: list[float] | None = None) -> float:
        """The value head's output; with ``prior`` (a list, emptied), the policy over the
        actions of ``legal`` appended to it in code order."""
        h = x
        add = operator.add
        for wt, b in self._layers:
            # In float32 as the compiled kernel sums: an array("f") rounds each product and
            # each sum to single precision (rounding the exact double result once more is
            # the correct rounding: 53 >= 2 * 24 + 2 bits).
            out = array("f", b)
            for i, xi in enumerate(h):
                if xi != 0.0:
                    out = array("f", map(add, out, array("f", [xi * w for w in wt[i]])))
            h = [v if v > 0.0 else 0.0 for v in out]
        total = self._value_b
        for hj, wj in zip(h, self._value_w, strict=True):
            total += hj * wj
        if prior is not None and self._policy is not None and legal:
            wt, b = self._policy
            codes = [code for code in range(NUM_CODES) if legal >> code & 1]
            logit = {code: b[code] for code in codes}
            for j, hj in enumerate(h):
                if hj != 0.0:
                    row = wt[j]
                    for code in codes:
                        logit[code] += hj * row[code]
            top = -math.inf
            for code in codes:
                if logit[code] > top:
                    top = logit[code]
            prior.clear()
            weight = 0.0
            for code in codes:
                e = math.exp(logit[code] - top)
                prior.append(e)
                weight += e
            prior[:] = [e / weight for e in prior]
        return math.tanh(total)

