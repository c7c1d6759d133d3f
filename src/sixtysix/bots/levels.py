"""Named playing strengths: ``random``, ``easy``, ``medium``, ``hard``, ``expert``.

====== ===========================================================
level  what plays
====== ===========================================================
random uniformly random legal actions (never a false declaration)
easy   the heuristic bot, but a third of its card choices are random
medium the heuristic bot
hard   information-set MCTS with 0.1 s per decision on two cores,
       guided at the root by the shipped network's policy, a close
       checked by αμ over the worlds of the closed stock
expert information-set MCTS with up to 1 s per decision on two cores,
       stopping once its choice is settled, guided and checked as ``hard``
====== ===========================================================

``hard-2026-12`` and ``expert-2026-12`` are those two levels as they played in
December 2026, before the close check, kept so that anyone can repeat the head-to-head
lines of the documentation.

Without numpy or the shipped weights, ``hard`` and ``expert`` search as they did
before the network shipped, with a :class:`LearnedWarning`.

>>> from sixtysix.bots import make_bot
>>> make_bot("easy", seed=1).name
'easy'
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.bots.ismcts import ISMCTSBot
from sixtysix.bots.net_bot import SHIPPED, load_network
from sixtysix.bots.search_config import SearchConfig
from sixtysix.game.actions import Action
from sixtysix.game.player import BaseBot, Bot, Event
from sixtysix.game.views import View
from sixtysix.kernel.tables import WINNING_TOTAL

__all__ = ["EXPERT", "EXPERT_2026_12", "HARD", "EasyBot", "HARD_2026_12", "LEVELS", "LearnedWarning",
           "expert", "expert_2026_12", "hard", "hard_2026_12", "learned"]

#: The weight of the shipped network's policy as a prior at the search levels' root
#: (the ``net_prior`` option; measured in docs/bots.md, "Learned players").
NET_PRIOR = 2.0


class LearnedWarning(UserWarning):
    """The shipped network cannot be used (numpy missing, weights missing or corrupt):
    the search levels play on without it, as before it shipped."""


def learned() -> dict[str, Any]:
    """The search levels' options for the shipped network, or none (with a
    :class:`LearnedWarning` saying why) when it cannot be loaded."""
    try:
        return {"network": load_network(SHIPPED), "net_prior": NET_PRIOR}
    except ValueError as exc:  # ParseError (no numpy), NetworkError (the file)
        warnings.warn(f"{exc}; the computer plays without its learned network", LearnedWarning,
                      stacklevel=3)
        return {}


class EasyBot(BaseBot):
    """A beginner: plays like the heuristic bot, but often picks a card at random.

    It still declares 66 when the heuristic would, and never declares falsely.
    """

    name = "easy"

    def __init__(self, seed: int | None = None, *, blunder: float = 1 / 3,
                 rng: random.Random | None = None) -> None:
        if not 0 <= blunder <= 1:
            raise ValueError(f"blunder must be between 0 and 1, not {blunder}")
        self.rng = rng if rng is not None else random.Random(seed)
        self.blunder = blunder
        self.heuristic = HeuristicBot(rng=self.rng)

    def new_hand(self, view: View) -> None:
        self.heuristic.new_hand(view)

    def observe(self, event: Event) -> None:
        self.heuristic.observe(event)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        choice = self.heuristic.choose(view, legal)
        if choice.is_declaration or self.rng.random() >= self.blunder:
            return choice
        options = [a for a in legal
                   if not a.is_declaration or view.declared_total(a) >= WINNING_TOTAL]
        return self.rng.choice(options)


#: The ``hard`` level of December 2026 (before the close check), its options pinned so that
#: it plays the same whatever the defaults become: ``hard-2026-12`` (with the shipped
#: network's prior, :func:`learned`).
HARD_2026_12 = SearchConfig(time=0.1, c=0.4, bias=2.0, epsilon=0.1, workers=2, match=True,
                            endgame_close=False)
#: The ``expert`` level of December 2026: ``expert-2026-12``.
EXPERT_2026_12 = HARD_2026_12.replace(time=1.0, settle=0.01, tolerance=0.01)
#: ``hard`` now: a close the search chose is checked by αμ over the worlds of the closed
#: stock before it is played (``endgame_close``: its closes fail less often than the
#: heuristic player's, docs/bots.md "Honest endgames").
HARD = HARD_2026_12.replace(endgame_close=True)
#: ``expert`` now: the same check.
EXPERT = EXPERT_2026_12.replace(endgame_close=True)


def _search_level(name: str, settings: SearchConfig, seed: int | None,
                  options: dict[str, object]) -> BaseBot:
    bot = ISMCTSBot(seed, config=settings.replace(**{**learned(), **options}))
    bot.name = name
    return bot


def hard(seed: int | None = None, **options: object) -> BaseBot:
    """The ``hard`` level: ISMCTS at 0.1 s per decision on two cores, biased toward the
    playout policy's choices (tuned against the heuristic bot), a close checked by αμ."""
    return _search_level("hard", HARD, seed, options)


def expert(seed: int | None = None, **options: object) -> BaseBot:
    """The ``expert`` level: ISMCTS with up to 1 s per decision on two cores (the
    ``hard`` settings, ten times the time, with a helper process searching the same
    decision: :mod:`sixtysix.bots.parallel`).

    Each search stops early once its choice is settled (``settle=0.01``: the most
    visited action leads the next by more than a hundredth of the iterations left;
    ``tolerance=0.01``: no other action is better by a hundredth of a reward unit,
    two standard errors included). On positions from real play this chose as often
    as a second full-second search agrees with a first, in a few per cent of the
    time, so a match takes seconds (``benchmarks/expert_time.py``). A close the search
    chose is checked by αμ before it is played, as ``hard``'s."""
    return _search_level("expert", EXPERT, seed, options)


def hard_2026_12(seed: int | None = None, **options: object) -> BaseBot:
    """``hard`` as it played in December 2026, before the close check (for head-to-head lines)."""
    return _search_level("hard-2026-12", HARD_2026_12, seed, options)


def expert_2026_12(seed: int | None = None, **options: object) -> BaseBot:
    """``expert`` as it played in December 2026, before the close check."""
    return _search_level("expert-2026-12", EXPERT_2026_12, seed, options)


#: Level names and their factories (``medium`` is the heuristic bot).
LEVELS: dict[str, Callable[..., Bot]] = {
    "easy": EasyBot,
    "hard": hard,
    "expert": expert,
    "hard-2026-12": hard_2026_12,
    "expert-2026-12": expert_2026_12,
}
