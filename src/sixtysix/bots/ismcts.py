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
   hidden layouts, :mod:`sixtysix.sampling`; or, when few layouts remain, the
   next one of all of them in a shuffled round robin);
2. descends the tree from the root, choosing among the children whose action
   is legal *in that world* by UCB1 with availability counts (the
   "subset-armed bandit" of ISMCTS: a child's exploration term counts the
   visits to its parent in which it was available, not all of them); the
   opponent's nodes minimise;
3. adds one child for an action legal in the world that the node has not
   tried, or stops at a node whose stock is closed or exhausted (see below);
4. evaluates the position: a fast playout (:mod:`sixtysix.bots.rollout`) to
   the end of the hand, handing over to the exact
   :class:`~sixtysix.solver.Solver` once the stock is closed or exhausted and
   the player to act holds at most ``solve_cards`` cards, or at once when the
   stock was already closed at the root (solved values are cached by
   :meth:`Hand.key <sixtysix.hand.Hand.key>` within a decision, and after a
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

Heuristic knowledge (both off by default, ``bias`` on in the ``hard`` and
``expert`` levels): with ``bias`` W, each node on its first visit asks the
playout policy what the player to act would do there, judging only by what
that player can see (:func:`~sixtysix.bots.rollout.policy_code` with
``fair``); that action is expanded first, and its UCB1 score gets W / (visits
+ 1) more, a bonus that fades as the node gathers its own statistics
(progressive bias, Chaslot et al. 2008). With ``anchor="heuristic"`` the
:class:`~sixtysix.bots.heuristic.HeuristicBot` chooses too, and its action is
played unless the search's choice has a higher mean by more than ``gate``
standard errors of the difference.

Inference (``infer`` = T, off at 0): each world is weighed by how likely the
opponent's actions this hand were in it, under a model of him judging by what he
could see (the playout policy, ``infer_model=policy``, or the network's policy,
``infer_model=net``, with ``infer_mix`` of the playout policy's chance mixed in; a
share ``infer_epsilon`` of each chance spread over his legal actions), the product
raised to the power T; worlds are then drawn by weight from ``infer_pool`` uniformly
sampled ones (all layouts when they are enumerated), each with a fresh stock order
(:mod:`sixtysix.bots.inference`, the drawing :mod:`sixtysix.bots.worlds`).

Learned help (``network``, a :class:`~sixtysix.net.Network` or a weights file, or
``shipped`` for the package's own; off by default, on in the ``hard`` and
``expert`` levels when the network loads): the network reads the root view once
per decision. With ``net_infer`` T its hand head's odds that the opponent holds
each card the seat has not located, raised to the power T, weigh the worlds: a
hand is as likely as the product of its cards' odds, and the kernel draws such
hands exactly, card by card (:mod:`sixtysix.bots.worlds`). With ``net_prior`` P
its policy guides the root as a PUCT prior: an action of probability p with n of
the root's N visits scores P · p · √N / (1 + n) more (see
:class:`sixtysix.kernel.Search`). With ``net_value`` V (0 to 1) its value head
values each new leaf of the tree while the stock is open, as the seat to act there
sees it: V times that plus 1 - V times the playout's result (V = 1: no playout);
leaves after the stock is closed or exhausted keep their exact solutions. With
``net_tree`` T its policy at each new node (the stock open) guides that node as
``net_prior`` guides the root, with weight T. Either is one network evaluation
per iteration, in the kernel.

Opponent modelling (``opponent_model``, off by default): a bot that stands
for the opponent. At the opponent's nodes of the tree the search does not
choose by UCB1 but plays what that bot chooses, given the opponent's view of
the world of the iteration (his cards and the public facts: it never sees
the root player's cards, docs/design.md §6), so the search answers that player
rather than the strongest reply. Its choice at a node is kept for the rest of
the decision for each hand the opponent may hold there.

Closing, declaring, the exchange, marriages and drawing are actions of the
tree like any card: nothing is decided by fixed rules. The action played is
the root child with the most visits (ties: the higher mean).

Positions with the stock closed or exhausted are leaves of the tree: each
visit values the world it came with, so a node after a close averages its
worlds' values (as PIMC does) instead of averaging over the exploration of a
subtree below it; in measurements the subtree below a close was explored too
thinly to value the close fairly. After the stock is exhausted nothing is
hidden any more, and the value of such a world is the value of the position.

Exact shortcuts: a single legal action is returned at once; a correct
declaration of 66 is made as soon as it is legal (it is never worse than
playing on; false declarations and playing on past 66 are left to the
search, for the player and in the tree for both sides); once the stock is
exhausted the opponent's hand is known (every unseen card is his) and the
position is solved exactly; after a close with at most ``pimc_below``
layouts left, every layout is solved exactly and the action with the best
average is played (PIMC over all worlds).

Defaults: ``c = 0.5``, ``epsilon = 0.1``, ``solve_cards = -1``. What each
option was measured to be worth, and how the defaults and the levels were
chosen, is in the documentation (docs/bots.md, "ISMCTS"), not here.

The budget is ``iterations`` or ``time`` (seconds per decision) or both,
whichever ends first. With an iteration budget and a seed the bot is
deterministic: the same seed and view give the same action.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=8)
>>> bot = ISMCTSBot(seed=1, iterations=200)
>>> hand.is_legal(bot.choose(hand.view(hand.to_act), hand.legal_actions()))
True
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sixtysix import kernel
from sixtysix.actions import DECLARE, DECLARE_MARRIAGE, Action
from sixtysix.bots.base import BaseBot, Bot
from sixtysix.bots.equity import hand_utility
from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.bots.inference import EPSILON, Inference
from sixtysix.bots.net_bot import load_network
from sixtysix.bots.parallel import SearchPool, Stats
from sixtysix.bots.worlds import Worlds
from sixtysix.errors import IllegalActionError
from sixtysix.hand import Hand
from sixtysix.kernel import (
    SETTLE_EVERY,
    SETTLE_FROM,
    STOCK_CARDS,
    WINNING_TOTAL,
    Phase,
    State,
    marriage_value,
)
from sixtysix.kernel._pure_search import settled  # the one settling rule (both loops)
from sixtysix.solver import Solver
from sixtysix.views import View

if TYPE_CHECKING:
    from sixtysix.net import Network

#: The hand is over (a kernel phase).
OVER = Phase.OVER

__all__ = ["ISMCTSBot", "Node", "Worlds", "correct_declaration"]

#: Iterations per decision when neither ``iterations`` nor ``time`` is given.
DEFAULT_ITERATIONS = 1000
#: Rewards without a match: game points −3..3 (index + 3; R9.1) scaled to [-1, 1].
_POINTS = tuple(g / 3 for g in range(-3, 4))
#: Seconds of a time budget kept for choosing once the search stops (and
#: collecting the helpers' statistics).
_MARGIN = 0.003
#: Solver transposition entries kept before the solver is renewed (bounds memory).
_SOLVER_LIMIT = 400_000


def _variance(entry: tuple[int, float, float]) -> float:
    """The sample variance of the rewards behind root statistics (visits, sum, squares)."""
    visits, total, squares = entry
    mean = total / visits
    return max(squares / visits - mean * mean, 0.0) * visits / (visits - 1)


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
    total = view.scores[view.seat]
    best: Action | None = None
    for action in legal:
        if action.code == DECLARE and total >= WINNING_TOTAL:
            return action
        if action.code >= DECLARE_MARRIAGE and best is None and action.suit is not None and \
                total + marriage_value(action.suit, view.trump) >= WINNING_TOTAL:
            best = action
    return best


class ISMCTSBot(BaseBot):
    """Single-observer ISMCTS (see the module documentation).

    Options: ``iterations`` and ``time`` (seconds) bound each decision;
    ``c`` is the UCB1 exploration constant on rewards in [-1, 1];
    ``epsilon`` the share of random card choices in playouts;
    ``solve_cards``: a position whose stock is closed or exhausted is
    solved exactly once the player to act holds at most this many cards,
    and played on by the playout policy until then (6: solve at once; -1:
    never solve, play to the end); ``closed``: positions after a close are
    leaves of the tree (``"leaf"``: valued in each world as above, PIMC-like)
    or searched further like any other node (``"tree"``); positions with an
    exhausted stock are always leaves; ``fair`` makes the playout policy
    judge sure winners by what the player can see (see
    :func:`~sixtysix.bots.rollout.policy_code`); ``enumerate_below`` deals out
    all layouts instead of sampling when there are fewer; ``pimc_below``
    solves every layout at a closed root with at most that many; ``bias``
    (progressive bias toward the playout policy's action) and ``anchor`` with
    ``gate`` (keep the heuristic bot's action unless the search shows better):
    see the module documentation; ``match``: play for the match (rewards in
    match equity) when the view carries the match score; ``infer`` (off at 0):
    weigh the worlds by the likelihood of the opponent's actions this hand, raised to
    that power, under ``infer_model`` (``policy`` or ``net``) with ``infer_epsilon`` of
    each chance spread evenly, drawn from ``infer_pool`` sampled worlds (see the module
    documentation); ``opponent_model``: a bot whose choices, from the
    opponent's view, the opponent's nodes follow (see the module
    documentation; with ``workers`` above 1 it must pickle); ``settle`` (off
    at 0): stop a decision early once the most visited action leads the next
    by more than ``settle`` times the iterations the budget has left (1: no
    action could overtake it), or, with ``tolerance`` (off at 0), once no
    other action is better by that much in mean reward with two standard
    errors to spare (see :class:`sixtysix.kernel.Search`); ``network`` (a
    network, a weights file or ``shipped``) with ``net_infer`` (weigh the worlds
    by its inference of the opponent's hand, sharpened by that power; off at 0)
    and ``net_prior`` (its policy as a PUCT prior at the root, with that weight;
    off at 0) and ``net_value`` (its value at the leaves with the stock open,
    mixed with the playouts' results by that weight, 0 to 1; off at 0) and
    ``net_tree`` (its policy as a PUCT prior at the nodes below the root, with
    that weight; off at 0): see the module documentation; ``net_pool``: layouts drawn for
    a search when worlds are weighed as whole hands (``infer``, or enumerated
    layouts) rather than card by card.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time: float | None = None,
        c: float = 0.5,
        epsilon: float = 0.1,
        closed: str = "leaf",
        fair: bool = False,
        solve_cards: int = -1,
        enumerate_below: int = 256,
        pimc_below: int = 1,
        closes: bool = False,
        anchor: str = "none",
        gate: float = 1.0,
        bias: float = 0.0,
        match: bool = True,
        infer: float = 0.0,
        infer_pool: int = 256,
        infer_model: str = "policy",
        infer_epsilon: float = EPSILON,
        infer_mix: float = 0.0,
        workers: int = 1,
        rng: random.Random | None = None,
        opponent_model: Bot | None = None,
        settle: float = 0.0,
        tolerance: float = 0.0,
        network: str | Path | Network | None = None,
        net_infer: float = 0.0,
        net_prior: float = 0.0,
        net_value: float = 0.0,
        net_tree: float = 0.0,
        net_pool: int = 512,
    ) -> None:
        if closed not in ("leaf", "tree"):
            raise ValueError(f"closed must be leaf or tree, not {closed!r}")
        if iterations is None and time is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if time is not None and time <= 0:
            raise ValueError(f"time must be positive, not {time}")
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if anchor not in ("none", "heuristic"):
            raise ValueError(f"anchor must be none or heuristic, not {anchor!r}")
        if not settle >= 0:
            raise ValueError(f"settle must be at least 0, not {settle}")
        if not tolerance >= 0:
            raise ValueError(f"tolerance must be at least 0, not {tolerance}")
        self.settle = settle
        self.tolerance = tolerance
        self.iterations = iterations
        self.time = time
        self.c = c
        self.epsilon = epsilon
        self.closed = closed
        self.fair = fair
        self.solve_cards = solve_cards
        self._solve_cards = solve_cards
        self.enumerate_below = enumerate_below
        self.pimc_below = pimc_below
        self.closes = closes
        self.workers = workers
        self.rng = rng if rng is not None else random.Random(seed)
        self.anchor = anchor
        self.gate = gate
        self.bias = bias
        self.match = match
        if not infer >= 0:
            raise ValueError(f"infer must be at least 0, not {infer}")
        if infer_pool < 1:
            raise ValueError(f"infer_pool must be at least 1, not {infer_pool}")
        if infer_model not in ("policy", "net"):
            raise ValueError(f"infer_model must be policy or net, not {infer_model!r}")
        if not 0 < infer_epsilon <= 1:
            raise ValueError(f"infer_epsilon must be above 0 and at most 1, not {infer_epsilon}")
        self.infer = infer
        self.infer_pool = infer_pool
        self.infer_model = infer_model
        self.infer_epsilon = infer_epsilon
        if not 0 <= infer_mix <= 1:
            raise ValueError(f"infer_mix must be between 0 and 1, not {infer_mix}")
        self.infer_mix = infer_mix
        self.opponent_model = opponent_model
        if not net_infer >= 0:
            raise ValueError(f"net_infer must be at least 0, not {net_infer}")
        if not net_prior >= 0:
            raise ValueError(f"net_prior must be at least 0, not {net_prior}")
        if not 0 <= net_value <= 1:
            raise ValueError(f"net_value must be between 0 and 1, not {net_value}")
        if not net_tree >= 0:
            raise ValueError(f"net_tree must be at least 0, not {net_tree}")
        if (net_value or net_tree) and opponent_model is not None:
            raise ValueError("net_value and net_tree work in the kernel's search: no opponent model")
        if net_pool < 1:
            raise ValueError(f"net_pool must be at least 1, not {net_pool}")
        self.net_infer = net_infer
        self.net_prior = net_prior
        self.net_value = net_value
        self.net_tree = net_tree
        self.net_pool = net_pool
        #: What the root of the decision being searched does not hold of the past (for net_value).
        self._past: tuple[int, ...] | None = None
        #: The network's policy at the root of the decision being searched (by code).
        self._root_prior: list[float] = []
        #: The learned network (:mod:`sixtysix.net`) whose inference of the opponent's
        #: hand weighs the worlds (``net_infer``: how sharply; 0: not at all).
        self.network = load_network(network) if network is not None else None
        if (net_infer or net_prior or net_value or net_tree) and self.network is None:
            raise ValueError("net_infer, net_prior, net_value and net_tree need a network: "
                             "network=FILE.npz (or network=shipped)")
        if infer and infer_model == "net" and self.network is None:
            raise ValueError("infer_model=net needs a network: network=FILE.npz (or network=shipped)")
        #: What each result of the hand is worth to the seat searched for, by its game
        #: points + 3 (set for each decision; see :func:`sixtysix.bots.equity.hand_utility`).
        self._utility: tuple[float, ...] = _POINTS
        self._anchor = HeuristicBot(rng=random.Random(self.rng.getrandbits(64))) \
            if anchor == "heuristic" else None
        #: What helper processes are built with (every option but the seed and workers).
        self._options: dict[str, object] = {
            "iterations": iterations, "time": time, "c": c, "epsilon": epsilon, "closed": closed,
            "fair": fair, "solve_cards": solve_cards, "enumerate_below": enumerate_below,
            "pimc_below": pimc_below, "closes": closes, "bias": bias, "match": match,
            "infer": infer, "infer_pool": infer_pool, "infer_model": infer_model,
            "infer_epsilon": infer_epsilon, "infer_mix": infer_mix,
            "opponent_model": opponent_model, "settle": settle,
            "tolerance": tolerance, "network": self.network, "net_infer": net_infer,
            "net_prior": net_prior, "net_value": net_value, "net_tree": net_tree, "net_pool": net_pool}
        self._pool: SearchPool | None = None
        #: Iterations run by the last search (for measurements).
        self.last_iterations = 0
        self._solver = Solver()
        self._cache: dict[tuple[int, ...], int] = {}

    # The decision -----------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        declaration = correct_declaration(view, legal)
        if declaration is not None:
            return declaration
        # The time budget covers the whole decision, setting up included.
        deadline = None if self.time is None else _time.perf_counter() + self.time - _MARGIN
        worlds = self._prepare(view)
        if not view.stock_open and worlds.count <= self.pimc_below:
            return self._pimc(worlds, legal)
        pool = self._helpers()
        if pool is not None:
            # The helpers stop at the same moment (wall clock: shared by processes).
            pool.start(view, None if deadline is None else _time.time() + deadline - _time.perf_counter())
        anchor = self._anchor.choose(view, legal) if self._anchor is not None else None
        stats = self._stats(self.search(worlds, view.seat, deadline))
        if pool is not None:
            for other in pool.collect():
                for code, (visits, total, squares) in other.items():
                    mine = stats.get(code, (0, 0.0, 0.0))
                    stats[code] = (mine[0] + visits, mine[1] + total, mine[2] + squares)
        choice = self._pick(stats, legal)
        if anchor is not None and anchor != choice:
            return self._gate(stats, choice, anchor)
        return choice

    def root_stats(self, view: View, until: float | None = None) -> Stats:
        """Search ``view`` (the seat to act) for the bot's budget, or until the wall
        clock (:func:`time.time`) reads ``until``, and return each root action's
        visits and summed rewards: what a helper process reports
        (:mod:`sixtysix.bots.parallel`)."""
        start = _time.perf_counter()
        if until is not None:
            deadline: float | None = start + max(until - _time.time(), 0.0)
        else:
            deadline = None if self.time is None else start + self.time
        return self._stats(self.search(self._prepare(view), view.seat, deadline))

    def _prepare(self, view: View) -> Worlds:
        self._fresh_solver()
        # With the stock closed at the root every leaf is an ending with few
        # layouts: exact values, cached, cost less than playouts there.
        self._solve_cards = self.solve_cards if view.stock_open else 6
        self._utility = _POINTS
        if self.match and view.match_score is not None:
            rules = view.rules
            self._utility = hand_utility(view.match_score, view.match_bonus, seat=view.seat,
                                         target=rules.target, tie_bonus=rules.tie_bonus)
        odds = None
        self._root_prior = []
        self._past = None
        if self.network is not None and (self.net_value or self.net_tree or (
                self.infer and self.infer_model == "net")):
            from sixtysix.observation import past_of  # numpy is there: the network loaded

            self._past = past_of(view)
        weigh = None
        if self.infer:
            net = self.network.kernel_net() if self.network is not None and self.infer_model == "net" \
                else None
            weigh = Inference(view, self.rng, self.infer, self.infer_epsilon, net,
                              self._past if net is not None else None, self.infer_mix)
        if self.network is not None and (self.net_infer or self.net_prior):
            from sixtysix.observation import match_of

            policy, _, hand = self.network.outputs(view, match_of(view))
            if self.net_infer:
                # The odds that the opponent holds each card the seat has not located,
                # sharpened or flattened by net_infer (odds ** net_infer).
                odds = {card.index: math.exp(max(-30.0, min(30.0, self.net_infer * hand[card.index])))
                        for card in view.unseen()}
            if self.net_prior:
                self._root_prior = _softmax(policy, view.legal)
        return Worlds(view, self.rng, max(self.enumerate_below, self.pimc_below), weigh, self.infer_pool,
                      odds)

    def new_hand(self, view: View) -> None:
        if self._anchor is not None:
            self._anchor.new_hand(view)
        self._helpers()  # start helper processes before the first decision is timed

    def _helpers(self) -> SearchPool | None:
        """The helper processes (started at the first search that needs them)."""
        if self.workers <= 1:
            return None
        if self._pool is None:
            self._pool = SearchPool(self.workers - 1, self._options, self.rng)
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
        self._cache = {}
        if self._solver.entries() > _SOLVER_LIMIT:
            self._solver = Solver()

    def _gate(self, stats: Stats, choice: Action, anchor: Action) -> Action:
        """``choice`` if the search shows it better than ``anchor`` (the anchor bot's
        action) by ``gate`` standard errors of the difference of their means, else
        ``anchor``."""
        mine = stats.get(choice.code)
        other = stats.get(anchor.code)
        if mine is None or other is None or other[0] < 2 or mine[0] < 2:
            return choice if other is None or not other[0] else anchor
        difference = mine[1] / mine[0] - other[1] / other[0]
        error = math.sqrt(_variance(mine) / mine[0] + _variance(other) / other[0])
        return choice if difference > self.gate * error else anchor

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

    # The search -------------------------------------------------------------------
    def search(self, worlds: Worlds, seat: int, deadline: float | None = None) -> Node:
        """Run the search from the worlds' root for ``seat`` until the iteration budget
        is spent or the clock (:func:`time.perf_counter`) reaches ``deadline`` (by
        default, the bot's time from now); returns the root node."""
        if deadline is None and self.time is not None:
            deadline = _time.perf_counter() + self.time
        if self.opponent_model is None:
            return self._search_in_kernel(worlds, seat, deadline)
        root = Node()
        iterations = self.iterations
        clock = _time.perf_counter
        c = self.c
        log = math.log
        sqrt = math.sqrt
        rng = self.rng
        evaluate = self._evaluate
        phase2 = self._phase2
        leaf_closed = self.closed == "leaf"
        bias = self.bias
        utility = self._utility
        me = seat
        model = self.opponent_model
        #: The model's action by (node, the opponent's hand there), for this decision.
        modelled: dict[tuple[int, int], int] = {}
        done = 0
        start = clock()
        settle = self.settle or self.tolerance
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and done and clock() >= deadline:
                break
            if settle and done >= SETTLE_FROM and done % SETTLE_EVERY == 0 and settled(
                    root.children, self.settle, self.tolerance,
                    (1 << 62 if iterations is None else iterations) - done, done, start, deadline):
                break
            done += 1
            world = worlds.world()
            k = world.kernel
            node = root
            path = [root]
            while True:
                if k.phase == OVER:
                    value = k.value()
                    break
                if node is not root and (k.drawn >= STOCK_CARDS or (
                        leaf_closed and k.closed_by >= 0)):
                    value = phase2(k)
                    break
                legal = k.legal_mask()
                children = node.children
                mine = k.to_act == me
                if model is not None and not mine:
                    code = self._modelled(model, modelled, node, world, legal)
                    k.push(code)
                    child = children.get(code)
                    if child is None:
                        child = children[code] = Node()
                        path.append(child)
                        value = evaluate(k)
                        break
                    node = child
                    path.append(node)
                    continue
                prior = -1
                if bias:
                    prior = node.prior
                    if prior == -2:
                        prior = node.prior = k.policy_code(True, False)
                best_code = -1
                best_score = -math.inf
                best_child = node
                untried: list[int] = []
                m = legal
                while m:
                    low = m & -m
                    m ^= low
                    code = low.bit_length() - 1
                    child = children.get(code)
                    if child is None:
                        untried.append(code)
                        continue
                    child.avail += 1
                    visits = child.visits
                    mean = child.total / visits
                    score = (mean if mine else -mean) + c * sqrt(log(child.avail) / visits)
                    if code == prior:
                        score += bias / (visits + 1)
                    if score > best_score:
                        best_code, best_score, best_child = code, score, child
                if untried:
                    if prior in untried:
                        code = prior
                    else:
                        code = untried[0] if len(untried) == 1 else untried[rng.randrange(len(untried))]
                    k.push(code)
                    child = Node()
                    children[code] = child
                    path.append(child)
                    value = evaluate(k)
                    break
                k.push(best_code)
                node = best_child
                path.append(node)
            reward = utility[(value if me == 0 else -value) + 3]
            for n in path:
                n.visits += 1
                n.total += reward
            if len(path) > 1:
                path[1].squares += reward * reward
        self.last_iterations = done
        return root

    def _search_in_kernel(self, worlds: Worlds, seat: int, deadline: float | None) -> Node:
        """:meth:`search` inside the rules kernel (no opponent model)."""
        seconds = 0.0 if deadline is None else max(deadline - _time.perf_counter(), 1e-9)
        # Worlds weighed by the network's odds on each card are drawn in the kernel; other
        # weighted worlds go in as a list of layouts drawn by weight, dealt in turn.
        odds = worlds.card_odds()
        layouts = worlds.draw(self.net_pool) if worlds.weighted and not odds else worlds.layouts or []
        search = kernel.Search(seat, self.c, self.bias, self.epsilon, self.fair, self.closes,
                               self._solve_cards, self.closed == "leaf", self._utility, self.settle,
                               self.tolerance, self.net_prior, self._root_prior, odds,
                               **self._leaf_value())
        done, prior, stats = search.run(
            worlds.template.kernel, worlds.opponent, layouts, *worlds.sampler(),
            self.iterations if self.iterations is not None else 1 << 62, seconds,
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

    def _leaf_value(self) -> dict[str, Any]:
        """The kernel search's options for the network at the leaves (``net_value``, ``net_tree``)."""
        if not (self.net_value or self.net_tree) or self.network is None or self._past is None:
            return {}
        return {"net": self.network.kernel_net(), "value": self.net_value, "past": self._past,
                "tree": self.net_tree}

    @staticmethod
    def _modelled(model: Bot, modelled: dict[tuple[int, int], int], node: Node, world: Hand,
                  legal: int) -> int:
        """The opponent model's action code at ``node`` in ``world`` (kept per hand)."""
        seat = world.kernel.to_act
        key = (id(node), world.kernel.hand(seat))
        code = modelled.get(key, -1)
        if code < 0 or not legal >> code & 1:
            view = world.view(seat)
            action = model.choose(view, view.legal)
            code = modelled[key] = action.code
            if not legal >> code & 1:
                raise IllegalActionError(action, view.legal, "the opponent model chose it")
        return code

    def _evaluate(self, world: State) -> int:
        """Game points for seat 0 of a position just added to the tree."""
        if world.phase == OVER:
            return world.value()
        if world.stock_open:
            world.playout(self.rng.getrandbits(64), self.epsilon, self.fair, self.closes,
                          self._solve_cards)
            if world.phase == OVER:
                return world.value()
        return self._phase2(world)

    def _phase2(self, world: State) -> int:
        """Game points for seat 0 of a position with the stock closed or exhausted:
        played on by the policy until ``solve_cards`` are left, then solved."""
        if world.phase != OVER and world.hand(world.to_act).bit_count() > self._solve_cards:
            world.playout(self.rng.getrandbits(64), self.epsilon, self.fair, False, self._solve_cards)
        if world.phase == OVER:
            return world.value()
        return self._solved(world)

    def _solved(self, world: State) -> int:
        """The exact value for seat 0 (cached within the decision)."""
        key = world.key()
        value = self._cache.get(key)
        if value is None:
            v = self._solver.state_value(world)
            value = v if world.to_act == 0 else -v
            self._cache[key] = value
        return value
