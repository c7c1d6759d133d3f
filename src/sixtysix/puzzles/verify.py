"""Solving a puzzle's position over every world its player's view allows, and checking
a puzzle's claims against that.

The player to act sees his own cards and what is public (R11); a *world* fills in the
rest (:mod:`sixtysix.game.worlds`: the opponent's hand, and the order of the stock while
it is open). :func:`assess` builds every world the view allows and solves every legal
action in each exactly (:class:`sixtysix.search.solver.Solver`, the kernel's search): a table
of game points, one row per world. An action *solves* the position by a margin ``m``
when in every world it wins at least ``m`` game points more than each other action.

An open position has one world: the solver's answer is the truth. In a hidden one the
worlds are solved with every card known after the first action, as a double-dummy
problem is: the first action is best whichever hand the opponent holds, with best play
after it.

:func:`check` takes a :class:`~sixtysix.puzzles.puzzle.Puzzle` and solves its position
again from the record alone, so a wrong claim, a changed rule or a changed solver shows
as a list of problems, each one line.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=4)
>>> while hand.stock_open:                       # play cards and draw to the end of the stock
...     hand.push(next(a for a in hand.legal_actions() if a.is_card or str(a) == "D"))
>>> table = assess(hand)
>>> table.kind, len(table.rows), len(table.actions) == len(hand.legal_actions())
(<Kind.OPEN: 'open'>, 1, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix.errors import InvalidRecordError
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.worlds import count_layouts, enumerate_worlds
from sixtysix.kernel import CLOSE, Phase
from sixtysix.puzzles.puzzle import Kind, Puzzle, position_id
from sixtysix.puzzles.themes import classify
from sixtysix.search.solver import Solver

__all__ = ["DEFAULT_WORLDS", "Assessment", "TooManyWorldsError", "assess", "check", "close_line",
           "principal_line", "solve_worlds"]

#: The most worlds :func:`assess` solves unless told otherwise.
DEFAULT_WORLDS = 2000


class TooManyWorldsError(ValueError):
    """The player's view allows more worlds than the limit: too many to solve them all."""


@dataclass(frozen=True)
class Assessment:
    """Every legal action of a position solved in every world its player's view allows."""

    kind: Kind
    #: The legal actions, in code order.
    actions: tuple[Action, ...]
    #: One row per world: the game points of each action (in the order of ``actions``)
    #: for the player to act, with best play after it.
    rows: tuple[tuple[int, ...], ...]

    def margin(self, action: Action) -> int:
        """The least, over the worlds, of what ``action`` wins more than the best other
        action (0 or less: it is not the only best in some world)."""
        i = self.actions.index(action)
        if len(self.actions) == 1:
            return 0  # nothing to choose: no puzzle
        return min(row[i] - max(v for j, v in enumerate(row) if j != i) for row in self.rows)

    def value(self, action: Action) -> int:
        """The least, over the worlds, of what ``action`` wins."""
        i = self.actions.index(action)
        return min(row[i] for row in self.rows)

    def best(self) -> Action | None:
        """The action that is the only best one in every world, if there is one."""
        for action in self.actions:
            if self.margin(action) > 0:
                return action
        return None


def solve_worlds(worlds: Sequence[Hand], solver: Solver | None = None) -> tuple[tuple[int, ...], ...]:
    """Every legal action solved in each world (rows as :attr:`Assessment.rows`)."""
    search = solver if solver is not None else Solver()
    rows = []
    for world in worlds:
        values = search.solve(world).values
        rows.append(tuple(values[a] for a in world.legal_actions()))
    return tuple(rows)


def assess(position: Hand, limit: int = DEFAULT_WORLDS, solver: Solver | None = None) -> Assessment:
    """Solve every legal action of ``position`` in every world its player's view allows.

    Raises :class:`TooManyWorldsError` when the view allows more than ``limit`` worlds,
    and :class:`ValueError` for a finished hand.
    """
    if position.is_over():
        raise ValueError("the hand is over: there is no puzzle")
    view = position.view(position.to_act)  # type: ignore[arg-type]
    count = count_layouts(view)
    if count > limit:
        raise TooManyWorldsError(f"{count} worlds, more than the limit of {limit}")
    worlds = enumerate_worlds(view, limit)
    return Assessment(Kind.OPEN if count == 1 else Kind.HIDDEN, tuple(position.legal_actions()),
                      solve_worlds(worlds, solver))


def principal_line(position: Hand, first: Action, solver: Solver | None = None) -> tuple[Action, ...]:
    """``first``, then best play by both seats (every card known) to the end of the hand;
    where several actions are best the one with the lowest code."""
    search = solver if solver is not None else Solver()
    hand = position.copy()
    hand.push(first)
    line = [first]
    while not hand.is_over():
        action = Action(search.best_code(hand.kernel))
        hand.push(action)
        line.append(action)
    return tuple(line)


def _seat0(hand: Hand, solver: Solver) -> int:
    """The exact value for seat 0: the result when the hand is over."""
    return hand.kernel.value() if hand.is_over() else solver.kernel.value(hand.kernel)


def _line_problems(position: Hand, line: Sequence[Action], solver: Solver) -> list[str]:
    """Whether every action of the line is legal, every one after the first best for
    its player (it keeps the position's value), and the line ends the hand."""
    hand = position.copy()
    for n, action in enumerate(line):
        if hand.is_over():
            return [f"solution: the hand is over before action {n + 1} ({action})"]
        if not hand.is_legal(action):
            return [f"solution: action {n + 1} ({action}) is not legal there"]
        before = _seat0(hand, solver)
        hand.push(action)
        if n and _seat0(hand, solver) != before:
            return [f"solution: action {n + 1} ({action}) is not best for its player"]
    if not hand.is_over():
        return ["solution: the line stops before the end of the hand"]
    return []


def check(puzzle: Puzzle, limit: int = DEFAULT_WORLDS) -> list[str]:
    """What is wrong with ``puzzle``: its position solved again from its record alone
    (an empty list: every claim holds)."""
    try:
        position = puzzle.position()
    except InvalidRecordError as exc:
        return [f"record: {exc}"]
    if position.is_over():
        return ["record: the hand is over at the position"]
    problems = []
    if puzzle.id != position_id(puzzle.record):
        problems.append(f"id: {puzzle.id} is not the position's, {position_id(puzzle.record)}")
    first = puzzle.first
    if not position.is_legal(first):
        return [*problems, f"solution: {first} is not legal at the position"]
    solver = Solver()
    try:
        table = assess(position, limit, solver)
    except TooManyWorldsError as exc:
        return [*problems, f"worlds: {exc}"]
    if table.kind is not puzzle.kind:
        problems.append(f"kind: the position is {table.kind}, not {puzzle.kind}")
    if len(table.rows) != puzzle.worlds:
        problems.append(f"worlds: the view allows {len(table.rows)}, not {puzzle.worlds}")
    margin = table.margin(first)
    if margin < 1:
        best = table.best()
        problems.append(f"solution: {first} is not the only best action in every world"
                        + (f" ({best} is)" if best is not None else ""))
    elif margin != puzzle.margin:
        problems.append(f"margin: {first} wins by {margin}, not {puzzle.margin}")
    if table.value(first) != puzzle.value:
        problems.append(f"value: {first} wins {table.value(first)} in the worst world, not {puzzle.value}")
    problems += _line_problems(position, puzzle.solution, solver)
    themes = classify(position, puzzle.solution, close_line(position, first, solver))
    if themes != puzzle.themes:
        problems.append(f"themes: {' '.join(themes) or 'none'}, not {' '.join(puzzle.themes) or 'none'}")
    return problems


def close_line(position: Hand, first: Action, solver: Solver | None = None) -> tuple[Action, ...] | None:
    """Best play after closing, when closing is legal and not the solution (for the themes)."""
    if first.code == CLOSE or not position.legal_mask() >> CLOSE & 1 or position.kernel.phase == Phase.OVER:
        return None
    return principal_line(position, Action(CLOSE), solver)

