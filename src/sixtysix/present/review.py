"""Going through a game record action by action, with a verdict on each action.

A :class:`Review` replays a record (hand or match) and gives the full state
before any action: in a record nothing is hidden any more, so the replay
viewer shows both hands. :func:`judge` rates an action against the best one:

- when the stock is closed, exhausted or down to a few cards, with the exact
  solver on the full state (what perfect play by both would have given);
- otherwise (an open stock is too large to solve in a moment) with
  :func:`sixtysix.bots.analysis.analyse` from the actor's own view: an average
  over the layouts of the cards he could not see, as he had to decide.

>>> from sixtysix.game.record import loads
>>> record = loads('{"format": "sixtysix/1", "rules": "classic", "dealer": 0, '
...     '"deck": "QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH", '
...     '"actions": ["KS", "9C", "D", "9S"]}')
>>> review = Review(record)
>>> len(review.hands), review.steps(0)
(1, 4)
>>> review.position(0, 1).to_act, str(review.action(0, 1))
(0, '9C')
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sixtysix.bots.analysis import Budget, analyse
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.record import HandRecord, HandReplay, MatchReplay, Record, replay
from sixtysix.game.result import HandResult
from sixtysix.i18n import _
from sixtysix.search.solver import Solver

__all__ = ["Review", "Verdict", "judge"]

#: Solve exactly when the open stock holds at most this many cards (tens of ms to a second).
SOLVE_STOCK = 4


@dataclass(frozen=True)
class Verdict:
    """How good an action was, in game points for the player who took it (−3..3)."""

    seat: int
    action: Action
    value: float
    best: tuple[Action, ...]
    best_value: float
    #: Exact (solver, all cards known) or an average over what the player could not see.
    exact: bool

    @property
    def loss(self) -> float:
        """Game points given away against the best action (0 for a best action)."""
        return max(0.0, self.best_value - self.value)

    def describe(self) -> str:
        """``This action lost 0.80 game points on average; best was AS (+1.20).``"""
        best = _(" or ").join(str(a) for a in self.best[:3])
        if self.action in self.best or self.loss < 0.005:
            if self.exact:
                return _("A best action: {value} with perfect play.").format(value=_gp(self.value))
            return _("As good as any: {value} on average.").format(value=_gp(self.value))
        facts = {"loss": f"{self.loss:.2f}", "value": _gp(self.value), "best": best,
                 "best_value": _gp(self.best_value)}
        if self.exact:
            return _("This action lost {loss} game points ({value}); best was {best} ({best_value}).").format(
                **facts)
        return _("This action lost {loss} game points on average ({value}); best was {best} ({best_value})."
                 ).format(**facts)


def _gp(value: float) -> str:
    return f"{value:+.0f}" if value == int(value) else f"{value:+.2f}"


def judge(position: Hand, action: Action, *, budget: Budget | None = None,
          rng: random.Random | None = None) -> Verdict:
    """Rate ``action`` in ``position`` (a full state, not over) for the player to act."""
    seat = position.to_act
    if seat is None:
        raise ValueError("the hand is over")
    if not position.stock_open or position.stock_size <= SOLVE_STOCK:
        solution = Solver().solve(position)
        values = {a: float(v) for a, v in solution.values.items()}
        exact = True
    else:
        lines = analyse(position.view(seat), budget or Budget(worlds=24, time=2.0),
                        rng=rng or random.Random(0))
        values = {line.action: line.value for line in lines}
        exact = all(line.exact for line in lines)
    if action not in values:
        raise ValueError(f"{action} is not a legal action here")
    best_value = max(values.values())
    best = tuple(a for a, v in values.items() if v >= best_value - 1e-9)
    return Verdict(seat, action, values[action], best, best_value, exact)


class Review:
    """A record replayed, hand by hand and action by action."""

    def __init__(self, record: Record) -> None:
        self.record = record
        result = replay(record)
        self.replay = result
        hands: tuple[HandReplay, ...] = result.hands if isinstance(result, MatchReplay) else (result,)
        self.hands: list[Hand] = [h.hand for h in hands]
        self.results: list[HandResult | None] = [h.result for h in hands]
        self.is_match = not isinstance(record, HandRecord)

    def steps(self, h: int) -> int:
        """How many actions hand ``h`` has."""
        return len(self.hands[h].actions)

    def position(self, h: int, k: int) -> Hand:
        """Hand ``h`` (from 0) after its first ``k`` actions: a fresh :class:`Hand`."""
        final = self.hands[h]
        hand = Hand.deal(final.deck, final.dealer, final.rules)
        for action in final.actions[:k]:
            hand.push(action)
        return hand

    def action(self, h: int, k: int) -> Action:
        """The action taken at step ``k`` of hand ``h`` (from 0)."""
        return self.hands[h].actions[k]

    def score_before(self, h: int) -> tuple[int, int]:
        """The match score before hand ``h`` (tie bonuses included)."""
        score = [0, 0]
        for result in self.results[:h]:
            if result is not None and result.winner is not None:
                score[result.winner] += result.game_points + result.bonus
        return score[0], score[1]

    def players(self) -> tuple[str, str]:
        names = self.record.extra.get("players")
        if isinstance(names, list) and len(names) == 2:
            return str(names[0]), str(names[1])
        return _("Player 0"), _("Player 1")
