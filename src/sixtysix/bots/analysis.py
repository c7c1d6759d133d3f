"""Position analysis from one seat's view: :func:`analyse`.

Every legal action gets an estimate of the game points it is worth to the
seat (−3..3), with a 95% error bar. The estimate averages over the hidden
layouts the view allows (:mod:`sixtysix.game.worlds`): each world is solved
exactly (:mod:`sixtysix.search.solver`) when it is small enough — the stock closed,
exhausted, or down to ``solve_stock`` cards — and otherwise played out by the
heuristic bot on both sides until the stock is closed or exhausted, the rest
being solved exactly. When only one layout is possible (the stock exhausted:
the opponent's hand is known) the values are exact and the error bar is 0.

This is Perfect Information Monte Carlo (PIMC); :class:`~sixtysix.bots.pimc.PIMCBot`
plays the best action it finds. Given a learned ``network`` (:mod:`sixtysix.search.net`), each
line also carries the network's opinion: the probability its policy gives the action,
from the same view.

:func:`advise` sums an analysis up for a person: the best action, how sure the
estimate is (:class:`Certainty`) and an action about as good, if any.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=8)
>>> lines = analyse(hand.view(hand.to_act), Budget(worlds=4), seed=1)
>>> sorted(str(line.action) for line in lines) == sorted(str(a) for a in hand.legal_actions())
True
>>> lines[0].value >= lines[-1].value
True
"""

from __future__ import annotations

import enum
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.bots.rollout import playout as fast_playout
from sixtysix.game.actions import CLOSE, Action
from sixtysix.game.hand import Hand
from sixtysix.game.player import Hooks
from sixtysix.game.table import Table
from sixtysix.game.views import View, match_of
from sixtysix.game.worlds import Constraints, worlds
from sixtysix.kernel import SCORING_POINTS
from sixtysix.search.solver import Solver

if TYPE_CHECKING:
    from sixtysix.search.net import Network

__all__ = ["MOST", "ActionValue", "Advice", "Budget", "Certainty", "advise", "analyse", "evaluate_world"]

#: Solve worlds exactly at or below this many stock cards (about 8 ms a world at 2).
DEFAULT_SOLVE_STOCK = 2
#: Enumerate every layout, rather than sample, when there are at most this many.
ENUMERATE_UP_TO = 256
#: The 95% margins (in game points) up to which an estimate is called quite sure and
#: fairly sure (:class:`Certainty`); wider, it is a rough guess.
SURE_MARGIN, LIKELY_MARGIN = 0.15, 0.4
#: The most game points a hand scores (R9.1: 3 when the loser took no trick), the
#: kernel's: a value lies in −MOST..MOST, and so does what is said of it.
MOST = max(SCORING_POINTS)


@dataclass(frozen=True)
class Budget:
    """How much search: a number of worlds, a time in seconds, or both (whichever ends first).

    With neither, 32 worlds. A worlds-only budget makes results reproducible
    for a given seed.
    """

    worlds: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        if self.worlds is not None and self.worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {self.worlds}")
        if self.time is not None and self.time <= 0:
            raise ValueError(f"time must be positive, not {self.time}")


@dataclass(frozen=True)
class ActionValue:
    """One line of an analysis: an action and what it is worth to the seat."""

    action: Action
    #: Mean game points for the seat (−3..3).
    value: float
    #: Half-width of the 95% confidence interval (0 when exact).
    error: float
    #: Worlds evaluated.
    samples: int
    #: True when the value is the exact perfect-play value (only one layout possible).
    exact: bool
    #: The learned network's probability for the action, when a network was asked.
    network: float | None = None

    @property
    def low(self) -> float:
        """The 95% interval's lower end, never below what a hand can lose (−:data:`MOST`).

        >>> from sixtysix.game.actions import Action
        >>> line = ActionValue(Action.parse("C"), 2.56, 0.74, 16, False)
        >>> round(line.low, 2), line.high, line.clipped
        (1.82, 3, True)
        >>> ActionValue(Action.parse("C"), 1.4, 0.11, 16, False).clipped
        False
        """
        return max(self.value - self.error, -MOST)

    @property
    def high(self) -> float:
        """The 95% interval's upper end, never above what a hand can win (:data:`MOST`)."""
        return min(self.value + self.error, MOST)

    @property
    def clipped(self) -> bool:
        """Whether value ± error would reach past what a hand can score: then only the
        interval (:attr:`low` to :attr:`high`) may be shown."""
        return self.value - self.error < -MOST or self.value + self.error > MOST

    def __str__(self) -> str:
        if self.exact:
            return f"{self.action!s:5} {self.value:+.0f} (exact)"
        return f"{self.action!s:5} {self.value:+.2f} ± {self.error:.2f} ({self.samples} worlds)"


class Certainty(enum.Enum):
    """How sure a value is, in words a player reads: exact (every card known, best
    play), quite sure, fairly sure, or a rough guess (:data:`SURE_MARGIN`,
    :data:`LIKELY_MARGIN`: the 95% margin of the average over the hidden cards)."""

    EXACT = "exact"
    SURE = "sure"
    LIKELY = "likely"
    ROUGH = "rough"

    @classmethod
    def of(cls, line: ActionValue) -> Certainty:
        """How sure ``line``'s value is.

        >>> from sixtysix.game.actions import Action
        >>> Certainty.of(ActionValue(Action.parse("KH"), 1.4, 0.11, 200, False)).value
        'sure'
        """
        if line.exact:
            return cls.EXACT
        if line.error <= SURE_MARGIN:
            return cls.SURE
        return cls.LIKELY if line.error <= LIKELY_MARGIN else cls.ROUGH


@dataclass(frozen=True)
class Advice:
    """An analysis summed up: the ``best`` line, how sure its value is, and a
    ``rival`` action whose value is within the best one's margin (as good, as far as
    the search can tell), or ``None``."""

    best: ActionValue
    certainty: Certainty
    rival: ActionValue | None


def advise(lines: Sequence[ActionValue]) -> Advice:
    """The advice of an analysis (best first, as :func:`analyse` returns it).

    >>> from sixtysix.game.actions import Action
    >>> a = ActionValue(Action.parse("KH"), 1.4, 0.2, 200, False)
    >>> b = ActionValue(Action.parse("AC"), 1.3, 0.2, 200, False)
    >>> c = ActionValue(Action.parse("C"), -0.8, 0.2, 200, False)
    >>> advice = advise([a, b, c])
    >>> str(advice.best.action), advice.certainty.value, str(advice.rival.action)
    ('KH', 'likely', 'AC')
    >>> advise([a, c]).rival is None
    True
    """
    if not lines:
        raise ValueError("no actions to advise on")
    best = lines[0]
    close = len(lines) > 1 and best.value - lines[1].value <= max(best.error, lines[1].error)
    rival = lines[1] if close else None
    return Advice(best, Certainty.of(best), rival)


def _seat_value(hand: Hand, seat: int) -> int:
    result = hand.result()
    assert result is not None
    if result.winner is None:
        return 0
    return result.game_points if result.winner == seat else -result.game_points


def _playout_value(
    world: Hand, seat: int, solver: Solver, rng: random.Random, *, solve: bool = True
) -> int:
    """Play heuristic against heuristic until the stock is closed or gone, then
    solve (or, with ``solve`` false, play on to the end)."""
    # A sampled world in play: nobody is told a new hand, and the playout's bots,
    # which judge from their views alone, need no hooks (none looked up per playout).
    table = Table([HeuristicBot(rng=rng), HeuristicBot(rng=rng)], hooks=(Hooks(), Hooks()))
    table.resume(world)
    pushed = 0
    try:
        while not world.is_over() and (world.stock_open or not solve):
            table.step()
            pushed += 1
        if world.is_over():
            return _seat_value(world, seat)
        v = solver.value(world)
        return v if world.to_act == seat else -v
    finally:
        for _ in range(pushed):
            world.pop()


def _fast_playout_value(world: Hand, seat: int, solver: Solver, rng: random.Random, *,
                        solve: bool = True) -> int:
    """The fast policy of :mod:`sixtysix.bots.rollout` until the stock is closed or
    gone, then solve (or, with ``solve`` false, play on to the end)."""
    depth = world.kernel.depth()
    fast_playout(world, rng, stop_cards=6 if solve else -1)
    if world.is_over():
        value = _seat_value(world, seat)
    else:
        v = solver.value(world)
        value = v if world.to_act == seat else -v
    while world.kernel.depth() > depth:
        world.pop()
    return value


#: How worlds too big to solve are played on: the heuristic bot (seeing only its
#: own view) or the fast policy (seeing the whole world).
PLAYOUTS = ("heuristic", "fast")


def evaluate_world(
    world: Hand,
    seat: int,
    solver: Solver,
    rng: random.Random,
    solve_stock: int = DEFAULT_SOLVE_STOCK,
    playout: str = "heuristic",
) -> dict[Action, int]:
    """The value to ``seat`` (to act in ``world``) of every legal action in one world."""
    if not world.stock_open or world.stock_size <= solve_stock:
        return solver.solve(world).values
    play_on = _fast_playout_value if playout == "fast" else _playout_value
    values: dict[Action, int] = {}
    for action in world.legal_actions():
        world.push_code(action.code)
        if world.is_over():
            values[action] = _seat_value(world, seat)
        else:
            # After closing, the closer still does not see the opponent's hand:
            # solving that world with every card known would flatter the close
            # (strategy fusion), so a close is played out by the heuristic.
            values[action] = play_on(world, seat, solver, rng, solve=action.code != CLOSE)
        world.pop()
    return values


def sample_values(
    view: View,
    budget: Budget | None = None,
    *,
    rng: random.Random | None = None,
    solve_stock: int = DEFAULT_SOLVE_STOCK,
    playout: str = "heuristic",
) -> tuple[dict[Action, list[int]], bool]:
    """The value of every legal action in each world searched (same worlds for
    all actions, so differences between actions can be compared pairwise), and
    whether the values are exact. The worlds are every layout when they are few, else
    uniform samples."""
    if playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, not {playout!r}")
    if view.to_act != view.seat or not view.legal:
        raise ValueError("analyse needs a view of the seat to act")
    budget = budget or Budget(worlds=32)
    rng = rng if rng is not None else random.Random()
    legal: Sequence[Action] = view.legal
    samples: dict[Action, list[int]] = {a: [] for a in legal}
    count = 0
    solver = Solver()
    layouts = Constraints.from_view(view).count()
    limit = budget.worlds if budget.worlds is not None else 1 << 30
    deadline = None if budget.time is None else time.perf_counter() + budget.time
    # Every layout when they are few (the exact expectation), else uniform samples.
    enumerated = (
        [w.hand for w in worlds(view, layouts, rng)]
        if layouts <= min(limit, ENUMERATE_UP_TO) else None
    )
    exact = layouts == 1
    while count < limit:
        if enumerated is not None:
            if count >= len(enumerated):
                break
            world = enumerated[count]
        else:
            world = worlds(view, 1, rng)[0].hand
        values = evaluate_world(world, view.seat, solver, rng, solve_stock, playout)
        exact = exact and (not world.stock_open or world.stock_size <= solve_stock)
        for action in legal:
            samples[action].append(values[action])
        count += 1
        if deadline is not None and time.perf_counter() >= deadline:
            break
    return samples, exact


def _interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and 95% half-width."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 3.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def analyse(
    view: View,
    budget: Budget | None = None,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    solve_stock: int = DEFAULT_SOLVE_STOCK,
    playout: str = "heuristic",
    network: Network | None = None,
) -> list[ActionValue]:
    """Every legal action of the seat to act, with its estimated game points, best first
    (and the ``network``'s probability for it, when one is given)."""
    samples, exact = sample_values(view, budget, rng=rng if rng is not None else random.Random(seed),
                                   solve_stock=solve_stock, playout=playout)
    lines = []
    for action, values in samples.items():
        mean, error = _interval(values)
        lines.append(ActionValue(action, mean, 0.0 if exact else error, len(values), exact))
    # Best first; among equals a declaration first (it ends the hand now, R8.2).
    lines.sort(key=lambda line: (-line.value, not line.action.is_declaration))
    if network is not None:
        policy = network.evaluate(view, match_of(view)).policy
        lines = [replace(line, network=policy.get(line.action, 0.0)) for line in lines]
    return lines
