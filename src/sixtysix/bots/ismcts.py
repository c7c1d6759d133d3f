"""Information-set Monte Carlo tree search (``ismcts``).

A single-observer ISMCTS after Cowling, Powley and Whitehouse (2012). In
Sixty-six every action is public; only the deal and the draws are hidden. So
the sequence of actions since the root names the same node whatever the hidden
cards are, and one tree keyed by action sequences serves every world: the
tree of the observer's information sets, with the hidden draws folded into
the worlds (the nodes below a draw pool the worlds in which different cards
were drawn).

Each iteration

1. takes one world that agrees with the root view (a uniform sample of the
   hidden layouts, :mod:`sixtysix.game.worlds`; or, when few layouts remain, the
   next one of all of them in a shuffled round robin);
2. descends the tree from the root, choosing among the children whose action
   is legal *in that world* by UCB1 with availability counts (the
   "subset-armed bandit" of ISMCTS: a child's exploration term counts the
   visits to its parent in which it was available, not all of them); the
   opponent's nodes minimise;
3. adds one child for an action legal in the world that the node has not
   tried, or stops at a node whose stock is closed or exhausted (see below);
4. evaluates the position: a fast playout (:mod:`sixtysix.bots.rollout`) to
   the end of the hand, or, when the stock was already closed at the root, the
   exact :class:`~sixtysix.search.solver.Solver` (solved values are cached by
   :meth:`Hand.key <sixtysix.game.hand.Hand.key>` within a decision, and after a
   close the same endings come back often, so that exact values cost less
   than playouts there);
5. backs the result up along the path, from the root player's side, as a
   reward in [-1, 1]: the game points divided by 3, or, when the view carries
   the match score and ``match`` is on (the default), the change in the root
   player's chance to win the match (:func:`~sixtysix.bots.equity.hand_utility`,
   scaled so that the largest change is 1). So the search plays for the match:
   at 6-6 a safe win is worth a Schwarz, at 6-0 a loss by 3 weighs far more
   than one by 1. The exact endings are unchanged by this (a minimax value
   keeps its order under any increasing map), only the averages over worlds.

Heuristic knowledge (off by default, on in the ``hard`` and ``expert`` levels):
with ``bias`` W, each node on its first visit asks the playout policy what the
player to act would do there, judging only by what that player can see
(:func:`~sixtysix.bots.rollout.policy_code` with ``fair``); that action is
expanded first, and its UCB1 score gets W / (visits + 1) more, a bonus that
fades as the node gathers its own statistics (progressive bias, Chaslot et al.
2008).

Learned help (``network``, a :class:`~sixtysix.search.net.Network` or a weights file, or
``shipped`` for the package's own; off by default, on in the ``hard`` and
``expert`` levels when the network loads): the network reads the root view once
per decision. With ``net_prior`` P its policy guides the root as a PUCT prior: an
action of probability p with n of the root's N visits scores P · p · √N / (1 + n)
more (see :class:`sixtysix.kernel.Search`).

Closing, declaring, the exchange, marriages and drawing are actions of the
tree like any card: nothing is decided by fixed rules. The action played is
the root child with the most visits (ties: the higher mean).

Positions with the stock closed or exhausted are leaves of the tree: each
visit values the world it came with, so a node after a close averages its
worlds' values (as PIMC does) instead of averaging over the exploration of a
subtree below it; in measurements the subtree below a close was explored too
thinly to value the close fairly. After the stock is exhausted nothing is
hidden any more, and the value of such a world is the value of the position.
Layouts are enumerated rather than sampled when there are at most
:data:`ENUMERATE_BELOW` of them.

Exact shortcuts: a single legal action is returned at once; a correct
declaration of 66 is made as soon as it is legal (it is never worse than
playing on; false declarations and playing on past 66 are left to the
search, for the player and in the tree for both sides); once the stock is
exhausted the opponent's hand is known (every unseen card is his) and the
position is solved exactly; after a close with one layout left it is solved
exactly.

The close check (``endgame_close``, off by default, on in the ``hard`` and
``expert`` levels): the tree values a close by playouts after it, which assume
that the player will know the opponent's hand, which he will not (strategy
fusion). With this option a close that the search chose at an open stock is
checked by αμ search (:mod:`sixtysix.bots.endgame`) over ``endgame_worlds``
worlds with the close made (all layouts when there are no more, else drawn as
the search draws them, a hand drawn twice counting twice): the player chooses
one action for all the worlds he cannot tell apart, the opponent answers in
each world, and the worlds are solved exactly only after ``endgame_moves`` of
the player's actions, deepening from two actions on while the search fits in
``endgame_nodes`` nodes (a count, not the clock). The close's value must be at
least the mean of the most visited other action, or that action is played
instead.

The options are a :class:`~sixtysix.bots.search_config.SearchConfig` (keyword
options are turned into one). Defaults: ``c = 0.5``, ``epsilon = 0.1``. What each
option was measured to be worth, what was tried and removed, and how the defaults
and the levels were chosen, is in the documentation (docs/bots.md, "ISMCTS"), not
here.

The budget is ``iterations`` or ``time`` (seconds per decision) or both,
whichever ends first. With an iteration budget and a seed the bot is
deterministic: the same seed and view give the same action.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=8)
>>> bot = ISMCTSBot(seed=1, iterations=200)
>>> hand.is_legal(bot.choose(hand.view(hand.to_act), hand.legal_actions()))
True
>>> ISMCTSBot(config=SearchConfig(iterations=200, c=0.4)).config.c
0.4
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Sequence
from typing import Any

from sixtysix import kernel
from sixtysix.bots.endgame import AlphaMu, NodeLimitError
from sixtysix.bots.equity import hand_utility
from sixtysix.bots.parallel import SearchPool, Stats
from sixtysix.bots.search_config import SearchConfig, check_names
from sixtysix.bots.worlds import Worlds
from sixtysix.game.actions import DECLARE, EXCHANGE, Action
from sixtysix.game.player import BaseBot
from sixtysix.game.views import View, match_of
from sixtysix.kernel import (
    CLOSE,
    WINNING_TOTAL,
    State,
)
from sixtysix.search.solver import Solver

__all__ = ["ISMCTSBot", "Node", "SearchConfig", "Worlds", "correct_declaration"]

#: Layouts of the hidden cards enumerated (and dealt in turn) rather than sampled when
#: there are at most this many.
ENUMERATE_BELOW = 256
#: A closed root with at most this many layouts is solved exactly, layout by layout.
PIMC_BELOW = 1
#: Cards in hand from which a closed or exhausted stock's leaf is solved exactly when
#: the stock was closed at the root (all of them); else playouts run to the end (-1).
SOLVE_CLOSED_ROOT = 6
PLAY_OUT = -1
#: Rewards without a match: game points −3..3 (index + 3; R9.1) scaled to [-1, 1].
_POINTS = tuple(g / 3 for g in range(-3, 4))
#: Seconds of a time budget kept for choosing once the search stops (and
#: collecting the helpers' statistics).
_MARGIN = 0.003
#: Solver transposition entries kept before the solver is renewed (bounds memory).
_SOLVER_LIMIT = 400_000


class Node:
    """A node of the search tree: the information set reached by a sequence of actions.

    ``total`` sums the rewards (root player's side, in [-1, 1]) of the
    iterations through the node; ``avail`` counts the visits to its parent in
    which its action was legal.
    """

    __slots__ = ("avail", "children", "prior", "squares", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.total = 0.0
        #: Summed squared rewards (kept for the root's children only).
        self.squares = 0.0
        self.avail = 1
        #: The playout policy's action here (set on the first visit when ``bias`` is on).
        self.prior = -2

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def _softmax(logits: Sequence[float], legal: Sequence[Action]) -> list[float]:
    """A probability for each action code: the softmax of ``logits`` over the legal codes."""
    top = max(logits[a.code] for a in legal)
    weights = {a.code: math.exp(logits[a.code] - top) for a in legal}
    total = sum(weights.values())
    return [weights.get(code, 0.0) / total for code in range(len(logits))]


def correct_declaration(view: View, legal: Sequence[Action]) -> Action | None:
    """A declaration of 66 that holds (R8.2), if one is legal: ``66`` before ``66+S``.

    Declaring correctly is never worse than playing on: the declarer's game
    points depend only on the opponent's points and tricks (R9.1) or on the
    close (R6.4), and those can only grow or stay as they are.
    """
    best: Action | None = None
    for action in legal:
        if not action.is_declaration or view.declared_total(action) < WINNING_TOTAL:
            continue
        if action.code == DECLARE:
            return action
        if best is None:
            best = action
    return best


class ISMCTSBot(BaseBot):
    """Single-observer ISMCTS (see the module documentation).

    ``config`` (a :class:`~sixtysix.bots.search_config.SearchConfig`) holds the
    options; keyword ``options`` build one (or change the given one), as a bot spec
    such as ``ismcts:iterations=2700,c=0.4`` does. ``seed`` or ``rng`` gives the
    random generator.
    """

    name = "ismcts"

    def __init__(self, seed: int | None = None, *, config: SearchConfig | None = None,
                 rng: random.Random | None = None, **options: Any) -> None:
        check_names(options)
        if config is None:
            config = SearchConfig(**options)
        elif options:
            config = config.replace(**options)
        #: The search's options.
        self.config = config
        #: Closes the close check turned down (for measurements).
        self.closes_turned_down = 0
        self.rng = rng if rng is not None else random.Random(seed)
        #: Cards in hand from which this decision's closed leaves are solved (-1: never).
        self._solve_cards = PLAY_OUT
        #: The network's policy at the root of the decision being searched (by code).
        self._root_prior: list[float] = []
        #: What each result of the hand is worth to the seat searched for, by its game
        #: points + 3 (set for each decision; see :func:`sixtysix.bots.equity.hand_utility`).
        self._utility: tuple[float, ...] = _POINTS
        self._pool: SearchPool | None = None
        #: Iterations run by the last search (for measurements).
        self.last_iterations = 0
        self._solver = Solver()

    @property
    def workers(self) -> int:
        """The processes each decision is searched with (what the arena counts per bot)."""
        return self.config.workers

    # The decision -----------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        declaration = correct_declaration(view, legal)
        if declaration is not None:
            return declaration
        # The time budget covers the whole decision, setting up included.
        budget = self.config.time
        deadline = None if budget is None else _time.perf_counter() + budget - _MARGIN
        worlds = self._prepare(view)
        fixed = self._fixed(worlds, legal)
        if fixed is not None:
            return fixed
        if not view.stock_open and worlds.count <= PIMC_BELOW:
            return self._pimc(worlds, legal)
        pool = self._helpers()
        if pool is not None:
            # The helpers stop at the same moment (wall clock: shared by processes).
            pool.start(view, None if deadline is None else _time.time() + deadline - _time.perf_counter())
        stats = self._stats(self.search(worlds, view.seat, deadline))
        if pool is not None:
            for other in pool.collect():
                for code, (visits, total, squares) in other.items():
                    mine = stats.get(code, (0, 0.0, 0.0))
                    stats[code] = (mine[0] + visits, mine[1] + total, mine[2] + squares)
        choice = self._pick(stats, legal)
        if self.config.endgame_close and choice.code == CLOSE:
            choice = self._honest_close(worlds, view.seat, stats, legal)
        return choice

    def _fixed(self, worlds: Worlds, legal: Sequence[Action]) -> Action | None:
        """With ``cards_only``, the playout policy's action when it is not a card to play
        (declaring, drawing, the exchange: the tree holds card plays only), if offered."""
        if not self.config.cards_only:
            return None
        code = worlds.template.kernel.policy_code(False, False)
        return next((a for a in legal if code >= EXCHANGE and a.code == code), None)

    def root_stats(self, view: View, until: float | None = None) -> Stats:
        """Search ``view`` (the seat to act) for the bot's budget, or until the wall
        clock (:func:`time.time`) reads ``until``, and return each root action's
        visits and summed rewards: what a helper process reports
        (:mod:`sixtysix.bots.parallel`)."""
        start = _time.perf_counter()
        budget = self.config.time
        if until is not None:
            deadline: float | None = start + max(until - _time.time(), 0.0)
        else:
            deadline = None if budget is None else start + budget
        return self._stats(self.search(self._prepare(view), view.seat, deadline))

    def _prepare(self, view: View) -> Worlds:
        config = self.config
        self._fresh_solver()
        # With the stock closed at the root every leaf is an ending with few
        # layouts: exact values, cached, cost less than playouts there.
        self._solve_cards = PLAY_OUT if view.stock_open else SOLVE_CLOSED_ROOT
        self._utility = _POINTS
        if config.match and view.match_score is not None:
            rules = view.rules
            self._utility = hand_utility(view.match_score, view.match_bonus, seat=view.seat,
                                         target=rules.target, tie_bonus=rules.tie_bonus)
        self._root_prior = []
        network = config.network
        if network is not None and config.net_prior:
            policy, _, _ = network.outputs(view, match_of(view))
            self._root_prior = _softmax(policy, view.legal)
        return Worlds(view, self.rng, ENUMERATE_BELOW)

    def new_hand(self, view: View) -> None:
        self._helpers()  # start helper processes before the first decision is timed

    def _helpers(self) -> SearchPool | None:
        """The helper processes (started at the first search that needs them)."""
        workers = self.config.workers
        if workers <= 1:
            return None
        if self._pool is None:
            self._pool = SearchPool(workers - 1, self.config, self.rng)
        return self._pool if len(self._pool) else None

    def close(self) -> None:
        """Stop helper processes, if any (they also stop with the program)."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    @staticmethod
    def _stats(root: Node) -> Stats:
        return {code: (child.visits, child.total, child.squares)
                for code, child in root.children.items()}

    def _fresh_solver(self) -> None:
        if self._solver.entries() > _SOLVER_LIMIT:
            self._solver = Solver()

    def _pick(self, stats: Stats, legal: Sequence[Action]) -> Action:
        """The most visited root action (ties: the higher mean)."""
        best: Action | None = None
        best_key = (-1, -math.inf)
        for action in legal:
            entry = stats.get(action.code)
            if entry is None or not entry[0]:
                continue
            key = (entry[0], entry[1] / entry[0])
            if key > best_key:
                best, best_key = action, key
        return best if best is not None else legal[0]

    def _pimc(self, worlds: Worlds, legal: Sequence[Action]) -> Action:
        """Solve every layout exactly; play the best average (exact when one layout is left)."""
        totals: dict[Action, float] = {a: 0.0 for a in legal}
        utility = self._utility
        layouts = worlds.layouts if worlds.layouts is not None else [worlds.layout()]
        policy = -1
        for layout in sorted(layouts, key=lambda lay: (lay[0], lay[1])):
            world = worlds.build(layout)
            if policy < 0:
                policy = world.kernel.policy_code(False, False)
            solution = self._solver.solve(world)
            for action, value in solution.values.items():
                if action in totals:  # only the actions offered (a caller may offer fewer)
                    totals[action] += utility[value + 3]
        best_value = max(totals.values())
        best = [a for a in legal if totals[a] == best_value]
        # Ties: the playout policy's choice when it is among the best, else the first.
        for action in best:
            if action.code == policy:
                return action
        return best[0]

    def _endgame_worlds(self, worlds: Worlds) -> tuple[list[State], list[float]]:
        """The worlds αμ searches and their weights: every layout when there are at most
        ``endgame_worlds``, else that many drawn as the search draws them. With the stock
        closed (or about to be) only the opponent's hand counts: a hand drawn twice is one
        world of twice the weight."""
        if worlds.layouts is not None and len(worlds.layouts) <= self.config.endgame_worlds:
            drawn = worlds.layouts
        else:
            drawn = worlds.draw(self.config.endgame_worlds)
        weights: dict[int, float] = {}
        layouts: dict[int, tuple[int, list[int]]] = {}
        for layout in drawn:
            layouts.setdefault(layout[0], layout)
            weights[layout[0]] = weights.get(layout[0], 0.0) + 1.0
        hands = sorted(layouts)
        return [worlds.build(layouts[hand]).kernel for hand in hands], [weights[hand] for hand in hands]

    def _deepest(self, search: AlphaMu) -> dict[int, float] | None:
        """The values of the deepest αμ search (2 to ``endgame_moves`` of the seat's actions
        ahead) that fits in ``endgame_nodes``; None when not even the first fits."""
        values = None
        for moves in range(min(2, self.config.endgame_moves), self.config.endgame_moves + 1):
            try:
                values = search.values(moves)
            except NodeLimitError:
                break
        return values

    def _honest_close(self, worlds: Worlds, seat: int, stats: Stats, legal: Sequence[Action]) -> Action:
        """The close the search chose, or the best other action (the most visited) if the
        close's αμ value, over such worlds with the close made, falls below that action's
        mean. The tree values a close by playouts after it, which also assume the
        opponent's cards known; αμ does not."""
        close = next(a for a in legal if a.code == CLOSE)
        others = [a for a in legal if a.code != CLOSE and stats.get(a.code, (0, 0.0, 0.0))[0]]
        if not others:
            return close
        states, weights = self._endgame_worlds(worlds)
        for state in states:
            state.push(CLOSE)
        search = AlphaMu(states, seat, self._solver.kernel, weights, self._utility, self.config.endgame_nodes)
        try:
            pimc = search.values(1)
        except NodeLimitError:
            return close
        honest = self._deepest(search) or pimc
        other = self._pick(stats, others)
        visits, total, _ = stats[other.code]
        if max(honest.values()) >= total / visits:
            return close
        self.closes_turned_down += 1
        return other

    # The search -------------------------------------------------------------------
    def search(self, worlds: Worlds, seat: int, deadline: float | None = None) -> Node:
        """Run the search from the worlds' root for ``seat`` until the iteration budget
        is spent or the clock (:func:`time.perf_counter`) reaches ``deadline`` (by
        default, the bot's time from now); returns the root node."""
        config = self.config
        if deadline is None and config.time is not None:
            deadline = _time.perf_counter() + config.time
        return self._search_in_kernel(worlds, seat, deadline)

    def _search_in_kernel(self, worlds: Worlds, seat: int, deadline: float | None) -> Node:
        """:meth:`search` inside the rules kernel."""
        config = self.config
        seconds = 0.0 if deadline is None else max(deadline - _time.perf_counter(), 1e-9)
        layouts = worlds.layouts or []
        search = kernel.Search(seat, config, self._utility, solve_cards=self._solve_cards,
                               root_prior=self._root_prior)
        done, prior, stats = search.run(
            worlds.template.kernel, worlds.opponent, layouts, *worlds.sampler(),
            config.iterations if config.iterations is not None else 1 << 62, seconds,
            self.rng.getrandbits(64), self._solver.kernel)
        root = Node()
        root.prior = prior
        root.visits = done
        for code, (visits, total, squares) in stats.items():
            child = root.children[code] = Node()
            child.visits, child.total, child.squares = visits, total, squares
            root.total += total
        self.last_iterations = done
        return root

