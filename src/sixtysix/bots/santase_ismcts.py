"""A plain ISMCTS in the manner of the Santase C# game engine (``santase-ismcts``).

This is the baseline the ``ismcts`` bot is measured against. It follows the
design of the information-set search player of the open-source Santase
(Bulgarian Sixty-six) engine, re-expressed for this library:

* **The tree holds card plays only.** Every other decision is a fixed rule,
  applied at the real decision and, except for closing, inside the
  simulations for either player (as in the engine, nobody closes in a
  simulation):

  - **66** is declared as soon as the counted total reaches it (with
    ``66+S`` when showing a marriage brings it there), never falsely; under
    ``auto_declare`` the engine does it.
  - **The trump exchange** (R4) is made whenever it is allowed.
  - **Marriages** are always announced: a King or Queen led while its
    partner is in hand and a marriage may be announced is led as the
    marriage.
  - **Drawing:** when the rules offer a close before the draw, it always
    draws; the close is considered only at the lead that follows.
  - **Closing**, at a lead where it is allowed, when any of these holds:
    five or more trumps in hand; four or more trumps including the trump
    King and Queen, with the trump Ace or the trump Ten accounted for (in
    hand, played, or the face-up card), so the opponent cannot hold both;
    the trump marriage in hand with at least 26 points counted; a plain
    marriage in hand with at least 46 points counted.

* **The search** is the kernel's ISMCTS (:class:`sixtysix.kernel.Search`) with the
  tree holding card plays only (``cards_only``): below the root the playout policy's
  fixed part takes the decisions above (nobody closes), a follower never revokes, and
  a King or Queen led with its partner is led as the marriage. Each iteration samples
  one world (opponent's hand and stock order) consistent with what the player has
  seen, descends the tree by UCB1 with availability counts over the cards legal in
  that world, with rewards normalised to [0, 1] (``0.5 + game points / 6``) and an
  exploration constant of **C = 0.2**; it expands one child per iteration, plays the
  world out with the playout policy, and backs the reward up the path. The card
  played is the root child with the most visits (ties: the higher mean).
* **Playouts** play to the end of the hand, with cards chosen by ``playout``:
  ``"simple"`` (default: the kernel's playout policy without randomness, close to the
  engine's own simple playout: take valuable tricks cheaply, duck cheaply, cash sure
  winners, announce marriages, declare at 66, exchange, never close) or ``"random"``
  (the fixed rules above, a marriage led whenever one can be, every other card chosen
  uniformly among the legal ones, never a revoke). The tree goes on after the stock
  is closed or exhausted, as the engine's does.
* **The endgame:** once the stock is exhausted the opponent's hand is known,
  and the card is chosen by exact search (:class:`~sixtysix.search.solver.Solver`).

The time-per-move interface is the same as ``ismcts``: ``iterations`` and
``time`` (seconds), whichever ends first.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=8)
>>> bot = SantaseISMCTSBot(seed=1, iterations=100)
>>> hand.is_legal(bot.choose(hand.view(hand.to_act), hand.legal_actions()))
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from sixtysix.bots.ismcts import ENUMERATE_BELOW, PLAY_OUT, ISMCTSBot
from sixtysix.bots.search_config import SearchConfig
from sixtysix.bots.worlds import Worlds
from sixtysix.game.actions import ACTIONS, CLOSE, EXCHANGE, MARRIAGE, Action, action_of
from sixtysix.game.hand import Hand
from sixtysix.game.views import View
from sixtysix.kernel import CARD_BITS, STOCK_CARDS, SUIT_MASK, State

__all__ = ["SantaseISMCTSBot", "fixed_action", "should_close"]

_TEN = 4
_ACE = 5
_QUEEN = 2
_KING = 3
#: Rewards: game points −3..3 (index + 3; R9.1) normalised to [0, 1], as the engine does.
REWARDS = tuple(0.5 + g / 6 for g in range(-3, 4))
#: The playouts' share of random card choices for each ``playout``.
_EPSILON = {"simple": 0.0, "random": 1.0}


def _state(hand: Hand | State) -> State:
    return hand.kernel if isinstance(hand, Hand) else hand


def _counted(s: State, seat: int) -> int:
    """Card points and the marriages that count (R5.3)."""
    return s.card_points(seat) + (s.marriage_points(seat) if s.tricks_won(seat) else 0)


def should_close(hand: Hand | State) -> bool:
    """The engine's closing rule for the player to act (see the module documentation).

    It uses only what that player knows: his cards, the cards played, the
    face-up trump and his counted points.
    """
    s = _state(hand)
    p = s.to_act
    mine = s.hand(p)
    trump = s.trump
    tmask = SUIT_MASK[trump]
    trumps = (mine & tmask).bit_count()
    if trumps >= 5:
        return True
    king, queen = trump * 6 + _KING, trump * 6 + _QUEEN
    trump_marriage = mine >> king & 1 and mine >> queen & 1
    score = _counted(s, p)
    if trump_marriage:
        if trumps >= 4:
            left = s.stock_cards()
            stock = 0
            for i in left:
                stock |= 1 << i
            played = CARD_BITS & ~s.hand(0) & ~s.hand(1) & ~stock
            known = mine | played | 1 << left[-1]  # the face-up trump is seen
            if known >> (trump * 6 + _ACE) & 1 or known >> (trump * 6 + _TEN) & 1:
                return True
        if score >= 26:
            return True
    if score >= 46:
        for suit in range(4):
            if suit != trump and mine >> (suit * 6 + _KING) & 1 and mine >> (suit * 6 + _QUEEN) & 1:
                return True
    return False


def fixed_action(hand: Hand | State, close: bool = True) -> int:
    """The action code the fixed rules take for the player to act, or -1 for a card decision.

    They are the playout policy's fixed part (declaring 66 once it holds, drawing, the
    exchange: what the kernel's search takes below its root with ``cards_only``) and,
    with ``close``, the engine's closing rule (:func:`should_close`).
    """
    s = _state(hand)
    code = s.policy_code(False, False)
    if code >= EXCHANGE:
        return code
    if close and s.legal_mask() >> CLOSE & 1 and should_close(s):
        return CLOSE
    return -1


def _plays(legal: Sequence[Action]) -> dict[int, Action]:
    """The offered plays of each card (by card index): the marriage lead when it is
    offered (the fixed rules announce every marriage), else the plain play."""
    plays: dict[int, Action] = {}
    for action in legal:
        code = action.code
        if code < MARRIAGE:
            plays.setdefault(code, action)
        elif code < EXCHANGE:
            plays[code - MARRIAGE] = action
    return plays


class SantaseISMCTSBot(ISMCTSBot):
    """Plain ISMCTS with the Santase engine's fixed rules (see the module documentation):
    the kernel's search with its tree holding card plays only.

    ``c`` is the UCT constant on rewards in [0, 1]; ``playout`` is
    ``"simple"`` or ``"random"``.
    """

    name = "santase-ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time: float | None = None,
        c: float = 0.2,
        playout: str = "simple",
        rng: random.Random | None = None,
    ) -> None:
        if playout not in _EPSILON:
            raise ValueError(f"playout must be simple or random, not {playout!r}")
        config = SearchConfig(iterations=iterations, time=time, c=c, epsilon=_EPSILON[playout], match=False,
                              cards_only=True)
        super().__init__(seed, config=config, rng=rng)
        self.playout = playout

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The fixed rules' action, else the searched card, among the actions ``legal``
        offers (a caller may offer fewer than the rules allow: then only those)."""
        if len(legal) == 1:
            return legal[0]
        worlds = self._prepare(view)
        world = worlds.template  # a world: the fixed rules look only at what the player knows
        fixed = fixed_action(world.kernel)
        if fixed >= 0 and ACTIONS[fixed] in legal:
            return action_of(fixed)
        plays = _plays(legal)
        if not plays:
            return legal[0]  # only actions the fixed rules take, and not the one they would
        if len(plays) == 1:
            return next(iter(plays.values()))
        kernel = world.kernel
        if kernel.closed_by < 0 and kernel.drawn >= STOCK_CARDS and worlds.count == 1:
            values = self._solver.solve(world).values
            return max(plays.values(), key=lambda a: values.get(a, -math.inf))
        stats = self._stats(self.search(worlds, view.seat))
        best: Action | None = None
        best_key = (-1, -math.inf)
        for code, (visits, total, _) in stats.items():
            play = plays.get(code if code < MARRIAGE else code - MARRIAGE)
            key = (visits, total / visits if visits else 0.0)
            if play is not None and key > best_key:
                best, best_key = play, key
        # The search never tried an offered card: the first offered.
        return best if best is not None else plays[min(plays)]

    def _prepare(self, view: View) -> Worlds:
        """The worlds, and the search's settings: rewards in [0, 1] for the hand alone,
        playouts to the end."""
        self._fresh_solver()
        self._solve_cards = PLAY_OUT
        self._utility = REWARDS
        self._root_prior = []
        return Worlds(view, self.rng, ENUMERATE_BELOW)
