"""Honest endgames: αμ search over the worlds of a closed stock.

Once the stock is closed (R6.2) but not exhausted, nobody draws again: the only
thing the player to act does not know is which of the unseen cards his
opponent holds (the rest of the stock is dead). Averaging exact solves of
sampled worlds (PIMC) values each world as if the player knew the opponent's
hand there, and so lets him play a different card in each world: *strategy
fusion*. It flatters a guess (a finesse, which suit to run) as if it were
always guessed right.

:class:`AlphaMu` is αμ search (Cazenave and Ventos, 2019) adapted to game
points. The searching seat chooses one action for all the worlds still
possible at its nodes (it cannot tell them apart); the opponent may choose a
different action in each world (he is assumed to know everything, the safe
side). A node's value is a *front*: the set of vectors, one value per world,
that the searching seat can secure with some strategy, keeping only the
vectors no other vector dominates (≥ in every world). At its own nodes the
fronts of the actions are pooled; at the opponent's nodes the worlds split by
the action he takes there, the seat sees which one, and each combination of
one vector per action gives, in every world, the least of the values of the
actions possible there. After ``moves`` actions of the searching seat the
worlds are solved exactly, one by one, with the kernel's
:class:`~sixtysix.kernel.Solver` (``moves = 1`` is PIMC; with ``moves`` at
least the cards left the search is exact under the assumption above). An
action's value is the best weighted mean over the worlds of a vector of its
front.

Values are the searching seat's: ``utility[game points + 3]`` (by default the
game points, −3..3 scaled to [-1, 1] as the ISMCTS bot scores them).

>>> import random
>>> from sixtysix import Action, Hand
>>> from sixtysix.bots.worlds import Worlds
>>> from sixtysix.kernel import Solver
>>> hand = Hand.random(seed=5)
>>> for text in ("C",):                       # the leader closes at once
...     hand.push(Action.parse(text))
>>> while len(hand.cards(hand.to_act)) > 3:  # three tricks later
...     hand.push(hand.legal_actions()[0])
>>> view = hand.view(hand.to_act)
>>> worlds = Worlds(view, random.Random(1), enumerate_below=10_000)
>>> states = [worlds.build(layout).kernel for layout in worlds.layouts]
>>> search = AlphaMu(states, view.seat, Solver())
>>> honest, pimc = search.values(moves=3), search.values(moves=1)
>>> sorted(honest) == sorted(a.code for a in view.legal)
True
>>> all(honest[code] <= pimc[code] + 1e-12 for code in honest)   # never above PIMC
True
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.kernel import STOCK_CARDS, Phase, Solver, State

__all__ = ["AlphaMu", "Front", "NodeLimitError", "POINTS", "dominated", "pareto"]

#: Game points −3..3 (index + 3; R9.1) scaled to [-1, 1]: what the ISMCTS bot scores.
POINTS = tuple(g / 3 for g in range(-3, 4))
#: The hand is over (a kernel phase).
_OVER = Phase.OVER

#: Value vectors (one value per world of the node) that no other one dominates.
Front = list[tuple[float, ...]]


class NodeLimitError(Exception):
    """The search visited more nodes than its ``limit`` allowed (the worlds are left as
    they were; the values of the depths already searched stand)."""


def pareto(vectors: Front) -> Front:
    """The vectors of ``vectors`` that no other one dominates (≥ in every world), once each.

    >>> pareto([(1.0, 0.0), (0.0, 1.0), (0.0, 0.0), (1.0, 0.0)])
    [(1.0, 0.0), (0.0, 1.0)]
    """
    kept: Front = []
    # A vector can only be dominated by one whose sum is at least its own.
    for v in sorted(vectors, key=sum, reverse=True):
        if not any(_covers(u, v) for u in kept):
            kept.append(v)
    return kept


def dominated(front: Front, by: Front) -> bool:
    """Whether every vector of ``front`` is ≤ (in every world) some vector of ``by``."""
    return all(any(_covers(u, v) for u in by) for v in front)


def _covers(u: tuple[float, ...], v: tuple[float, ...]) -> bool:
    """``u`` ≥ ``v`` in every world."""
    return all(a >= b for a, b in zip(u, v, strict=True))


def _codes(mask: int) -> list[int]:
    """The action codes of a legal mask, lowest first."""
    codes = []
    while mask:
        low = mask & -mask
        mask ^= low
        codes.append(low.bit_length() - 1)
    return codes


class AlphaMu:
    """αμ search over ``worlds`` for ``seat`` (see the module documentation).

    ``worlds`` are full kernel states of one closed-stock position that differ only
    in the opponent's hand (and the dead stock), as
    :meth:`Worlds.build <sixtysix.bots.worlds.Worlds.build>` makes them; ``seat``
    must be the one to act. ``weights`` (one per world, ≥ 0, not all 0; default
    equal) weigh the worlds' values. ``solver`` values the worlds at the depth
    limit and its table is reused. ``limit`` bounds the :attr:`nodes` all calls of
    :meth:`values` visit together (:class:`NodeLimitError` past it; None: no
    bound), so that a caller can deepen step by step within a budget that does
    not depend on the clock. The states are searched with push and pop and left
    as they were.
    """

    def __init__(self, worlds: Sequence[State], seat: int, solver: Solver,
                 weights: Sequence[float] | None = None,
                 utility: Sequence[float] = POINTS, limit: int | None = None) -> None:
        if not worlds:
            raise ValueError("no worlds to search")
        first = worlds[0]
        if first.phase == _OVER or first.to_act != seat:
            raise ValueError(f"seat {seat} is not to act in these worlds")
        if first.closed_by < 0 and first.drawn < STOCK_CARDS:
            raise ValueError("the stock is open: draws would tell the seats apart")
        if any(w.hand(seat) != first.hand(seat) for w in worlds):
            raise ValueError(f"the worlds do not all give seat {seat} the same cards")
        weights = [1.0] * len(worlds) if weights is None else [float(w) for w in weights]
        if len(weights) != len(worlds):
            raise ValueError(f"{len(weights)} weights for {len(worlds)} worlds")
        if any(not w >= 0 for w in weights) or not sum(weights) > 0:
            raise ValueError("weights must be at least 0 and not all 0")
        if len(utility) != 7:
            raise ValueError("utility must give the worth of each result from -3 to 3 game points")
        total = sum(weights)
        self.worlds = list(worlds)
        self.seat = seat
        self.weights = [w / total for w in weights]
        self.utility = tuple(utility)
        self.solver = solver
        #: Nodes of the αμ tree visited by all calls of :meth:`values`, counting each
        #: pair of vectors combined at the opponent's nodes as one more.
        self.nodes = 0
        self.limit = limit
        self._solved: dict[tuple[int, ...], float] = {}
        self._table: dict[tuple[object, ...], Front] = {}

    def values(self, moves: int) -> dict[int, float]:
        """Each legal action's value (its code: the weighted mean over the worlds of the
        best vector of its front), looking ``moves`` of the seat's actions ahead
        (this one included) before solving each world."""
        if moves < 1:
            raise ValueError(f"moves must be at least 1, not {moves}")
        everyone = tuple(range(len(self.worlds)))
        depths = [world.depth() for world in self.worlds]
        try:
            fronts = self.fronts(everyone, moves)
        except NodeLimitError:
            for world, depth in zip(self.worlds, depths, strict=True):
                while world.depth() > depth:
                    world.pop()
            raise
        return {code: self._best(front) for code, front in fronts.items()}

    def fronts(self, worlds: tuple[int, ...], moves: int) -> dict[int, Front]:
        """The front of each of the seat's actions at the root, over ``worlds`` (indices)."""
        out = {}
        for code in _codes(self.worlds[worlds[0]].legal_mask()):
            self._push(worlds, code)
            out[code] = self._front(worlds, moves - 1, None)
            self._pop(worlds)
        return out

    def _best(self, front: Front) -> float:
        weights = self.weights
        return max(sum(weights[i] * v for i, v in enumerate(vector)) for vector in front)

    # The search ---------------------------------------------------------------------
    def _front(self, worlds: tuple[int, ...], moves: int, bound: Front | None) -> Front:
        """The front of the node the states of ``worlds`` are at, ``moves`` of the seat's
        actions left before the depth limit; ``bound``: the front its parent (the seat's
        node) holds already (an opponent's node dominated by it may stop early)."""
        self._count(1)
        first = self.worlds[worlds[0]]
        if first.phase == _OVER:
            return [tuple(self._worth(self.worlds[i].value()) for i in worlds)]
        if first.to_act != self.seat:
            return self._reply(worlds, moves, bound)
        if moves <= 0:
            return [tuple(self._solve(self.worlds[i]) for i in worlds)]
        key = (moves, worlds, first.key())
        front = self._table.get(key)
        if front is None:
            front = self._table[key] = self._choose(worlds, moves)
        return front

    def _choose(self, worlds: tuple[int, ...], moves: int) -> Front:
        """The seat's node: one action for all the worlds; the actions' fronts pooled."""
        front: Front = []
        for code in _codes(self.worlds[worlds[0]].legal_mask()):
            self._push(worlds, code)
            front = pareto(front + self._front(worlds, moves - 1, front or None))
            self._pop(worlds)
        return front

    def _reply(self, worlds: tuple[int, ...], moves: int, bound: Front | None) -> Front:
        """The opponent's node: in each world the least of the values of the actions he
        may take there; the seat, seeing the action, answers each one apart."""
        split: dict[int, list[int]] = {}
        for position, i in enumerate(worlds):
            for code in _codes(self.worlds[i].legal_mask()):
                split.setdefault(code, []).append(position)
        front: Front = [(float("inf"),) * len(worlds)]
        for code, positions in split.items():
            some = tuple(worlds[p] for p in positions)
            self._push(some, code)
            answers = self._front(some, moves, None)
            self._pop(some)
            self._count(len(front) * len(answers))
            front = pareto([_least(vector, answer, positions) for vector in front for answer in answers])
            if bound is not None and dominated(front, bound):
                break  # it can only fall further: the seat has better already
        return front

    def _count(self, steps: int) -> None:
        self.nodes += steps
        if self.limit is not None and self.nodes > self.limit:
            raise NodeLimitError(f"more than {self.limit} nodes")

    # Worlds -------------------------------------------------------------------------
    def _push(self, worlds: tuple[int, ...], code: int) -> None:
        for i in worlds:
            self.worlds[i].push(code)

    def _pop(self, worlds: tuple[int, ...]) -> None:
        for i in worlds:
            self.worlds[i].pop()

    def _worth(self, value: int) -> float:
        """What game points for seat 0 are worth to the seat searched for."""
        return self.utility[(value if self.seat == 0 else -value) + 3]

    def _solve(self, state: State) -> float:
        """The exact worth of a world at the depth limit (cached by its key)."""
        key = state.key()
        worth = self._solved.get(key)
        if worth is None:
            worth = self._solved[key] = self._worth(self.solver.value(state))
        return worth


def _least(vector: tuple[float, ...], answer: tuple[float, ...],
           positions: list[int]) -> tuple[float, ...]:
    """``vector`` with each world at ``positions`` lowered to ``answer``'s value there."""
    out = list(vector)
    for value, p in zip(answer, positions, strict=True):
        if value < out[p]:
            out[p] = value
    return tuple(out)
