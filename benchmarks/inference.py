"""Inference: how well does a method locate the opponent's hidden cards?

Run:  python benchmarks/inference.py [--positions 10000] [--seed 9701] [--jobs 2]
                                     [--methods uniform,worlds,hand-head,...]
                                     [--samples 1000] [--pool 1000]
                                     [--json FILE] [--baseline FILE]

**Positions from real play.** Whole matches to 7 under the classic rules, played
through the one game loop (:class:`sixtysix.game.table.Table`) on the arena's duplicate
deals (:func:`sixtysix.arena.schedule.schedule`), board by board: the search at
about what ``hard`` plays (:data:`SEARCH`, fixed iterations, so that the games do
not depend on the machine's load) against the ``heuristic`` player, and the same
search against itself. The matches are kept as match records (``sixtysix/1``,
:mod:`sixtysix.game.record`) in ``benchmarks/results/inference-positions-SEED.json``;
a later run reuses them and plays more boards only when it needs more positions.
Replaying a record, every decision of either seat with more than one legal action
is a position: the view of the seat to act (:class:`sixtysix.game.views.View`), and,
kept apart for scoring and never shown to a method, the opponent's real hand (and
the real stock). The views are the very ones the players were shown in play.

**The measure.** A position's *unlocated* cards are those its seat has not
located: :attr:`Constraints.allowed <sixtysix.game.worlds.Constraints.allowed>`, of
which the opponent holds ``Constraints.free`` (his hand size minus the cards he
must hold). A method gives each unlocated card the probability that the opponent
holds it (clipped to [1e-6, 1 - 1e-6]); a position's log-loss is the mean, over
its unlocated cards, of the binary cross-entropy in nats (-log p for a card he
holds, -log(1 - p) for one he does not). Positions where nothing is unlocated
(the stock exhausted: he holds exactly the unseen cards) are skipped: the first
``--positions`` positions with something unlocated are measured. The table gives
the mean over positions with its 95% interval, the mean difference from the
first method listed on the same positions (paired, 95% interval), the mean by
stage (stock open with 12 to 8 cards, open with 6 to 2, closed) and by who the
opponent is, and the time a method took per position. The intervals allow for
positions from the same deals being alike (:func:`clustered`, by match-up and
board), so they are wider than if the positions were independent.

**Methods** (:data:`METHODS`: a name -> ``f(view, rng)`` giving card index ->
probability for every unlocated card; ``rng`` is seeded by the run's seed, the
method and the position, so that results repeat):

``uniform``           exact: ``free / len(allowed)`` for every unlocated card;
``worlds``            the marginals of ``--samples`` layouts drawn by
                      :class:`sixtysix.bots.worlds.Worlds` as the search draws
                      them (a check of the harness: uniform up to sampling noise);
``hand-head``         the shipped network's hand head as it is: the sigmoid of its
                      logit per card (these need not sum to the cards he holds);
``hand-head-scaled``  the same scaled to sum to ``free`` (then clipped);
``hand-head-cb``      the exact marginals of the conditional Bernoulli
                      distribution of the hand head's odds: a hand of ``free``
                      unlocated cards as likely as the product of its cards' odds
                      (:func:`cb_marginals`).

**Weighed worlds** (:data:`WEIGHERS`: a name -> ``f(view, rng)`` giving a function
of a layout, ``(opponent hand mask, stock)`` as :class:`~sixtysix.bots.worlds.Worlds`
deals it, that returns its log-weight, ``-inf`` for one ruled out). The harness
weighs every layout when there are at most ``--pool`` of them, else ``--pool``
layouts drawn uniformly by ``Worlds`` (importance sampling), takes the weighted
marginals (:func:`marginals`; uniform if every layout is ruled out), and reports
the real layout's weight over the mean weight of the pool (about 1 for weights
that know nothing; the larger, the better they pick out the real hand).
``hand-head-weighed`` weighs a layout by the product of its hand's hand-head odds
(a check of that path: ``hand-head-cb`` up to noise). ``--against heuristic`` (or
``search``) measures only the positions where that player is the opponent.

Policy-based inference from the opponent's actions (the search's ``infer`` option,
with the methods ``infer:...`` and ``model:heuristic:...`` here) was measured with
this script and removed, as it gave nothing in play; docs/bots.md keeps its figures
and names the commit where the code last stood.

To add a method, write ``f(view, rng)`` and register it, e.g. a weigher that
prefers hands holding the trump ace::

    def trump_ace(view: View, rng: random.Random) -> Callable[[Layout], float]:
        ace = Card(view.trump, Rank.ACE).index
        return lambda layout: 0.0 if layout[0] >> ace & 1 else -1.0

    WEIGHERS["trump-ace"] = trump_ace

or, from worlds of your own, ``METHODS["mine"] = lambda view, rng:
marginals(my_pairs(view, rng), unlocated(view)[0])``. ``--json FILE`` keeps
every position's log-loss by method; ``--baseline FILE`` reads such a file back
and compares the methods of this run with its methods on the same positions.

Prints the machine too. Playing the 200 matches of seed 9701 (21,568 positions)
took 36 s on two cores; scoring 10,000 positions is dominated by the sampled methods
(``--samples``, ``--pool``): 100 to 200 s for all the methods above. The script's
own checks (the helpers against counting): ``cd benchmarks && python -m doctest
inference.py``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from machine import machine  # benchmarks/machine.py

from sixtysix.arena.schedule import Game, schedule
from sixtysix.bots import make_bot
from sixtysix.bots.worlds import Worlds
from sixtysix.game.cards import CARDS
from sixtysix.game.hand import Hand
from sixtysix.game.match import Match
from sixtysix.game.record import MatchReplay, record_from_match, replay
from sixtysix.game.table import Table
from sixtysix.game.views import View, match_of
from sixtysix.game.worlds import Constraints
from sixtysix.measure.stats import Mean
from sixtysix.rules import Rules
from sixtysix.search.net import Network, shipped_weights
from sixtysix.version import __version__

#: The search that plays (about what ``hard`` plays, at a fixed budget).
SEARCH = "ismcts:iterations=2700,c=0.4,bias=2.0,network=shipped,net_prior=2"
#: The match-ups played, each on its own deals: name -> the two players' specs.
PAIRINGS: dict[str, tuple[str, str]] = {
    "search-heuristic": (SEARCH, "heuristic"),
    "search-search": (SEARCH, SEARCH),
}
#: The format of the file of positions.
FORMAT = "sixtysix-inference-positions/1"
#: Where the positions are kept (by seed).
RESULTS = Path(__file__).with_name("results")
#: Probabilities are clipped to [CLIP, 1 - CLIP].
CLIP = 1e-6
#: The stages, in the order reported.
STAGES = ("open-early", "open-late", "closed", "exhausted")
#: Positions measured per board (both match-ups, both seatings), to plan how many boards to play.
YIELD = 400

#: A method: card index -> the probability that the opponent holds it, for each unlocated card.
Method = Callable[[View, random.Random], dict[int, float]]
#: A layout as :class:`~sixtysix.bots.worlds.Worlds` deals it: the opponent's hand (a mask of
#: all his cards) and the stock (card indices, next to be drawn first, its last card last).
Layout = tuple[int, Sequence[int]]
#: A weigher: a function giving each layout its log-weight (``-inf``: ruled out).
Weigher = Callable[[View, random.Random], Callable[[Layout], float]]


# Positions ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """A decision from real play: the view of the seat to act, and the truth, kept apart."""

    #: ``match/hand/action`` (numbers from 0) in the file of positions.
    key: str
    view: View
    #: The opponent's real hand, a card mask, and the real stock, card indices next to be
    #: drawn first (never shown to a method).
    opponent: int
    stock: tuple[int, ...]
    #: Who the opponent is: ``heuristic`` or ``search``.
    opponent_player: str
    stage: str
    #: The deals it comes from: ``match-up/board`` (both seatings of a board share them).
    deals: str


def stage(view: View) -> str:
    """``open-early`` (12 to 8 cards in the stock), ``open-late`` (6 to 2), ``closed`` or ``exhausted``."""
    if view.closed_by is not None:
        return "closed"
    if view.stock_size == 0:
        return "exhausted"
    return "open-early" if view.stock_size >= 8 else "open-late"


def unlocated(view: View) -> tuple[list[int], int]:
    """The cards the seat has not located (by index) and how many of them the opponent
    holds; no cards when nothing is unknown (he holds all of them, or none)."""
    c = Constraints.from_view(view)
    allowed = sorted(card.index for card in c.allowed)
    if not 0 < c.free < len(allowed):
        return [], 0
    return allowed, c.free


def _player(spec: str) -> str:
    return "heuristic" if spec == "heuristic" else "search"


def _positions_of(m: int, entry: dict[str, Any]) -> Iterator[Position]:
    """Every decision with a choice of the kept match ``entry`` (number ``m``)."""
    record = entry["record"]
    played = replay(record)
    assert isinstance(played, MatchReplay)
    players = record["players"]
    deals = f"{entry['pairing']}/{entry['board']}"
    for h, done in enumerate(played.match.hands):
        hand = Hand.deal(done.deck, done.dealer, done.rules)
        hand.match_score, hand.match_bonus = done.match_score, done.match_bonus
        for a, action in enumerate(done.actions):
            seat = hand.to_act
            assert seat is not None
            if len(hand.legal_actions()) > 1:
                view = hand.view(seat)
                truth = hand.cards_mask(1 - seat), tuple(hand.kernel.stock_cards())
                yield Position(f"{m}/{h}/{a}", view, *truth, _player(players[1 - seat]), stage(view), deals)
            hand.push(action)


def positions(matches: Sequence[dict[str, Any]]) -> Iterator[Position]:
    """Every decision with a choice in the kept matches, in order."""
    for m, entry in enumerate(matches):
        yield from _positions_of(m, entry)


# Playing ---------------------------------------------------------------------------------
def games(seed: int, start: int, stop: int) -> list[tuple[str, Game]]:
    """The games of boards ``start`` to ``stop - 1``, board by board, each match-up on its
    own deals (the arena's schedule with the seed plus the match-up's number)."""
    by_pairing = [(name, schedule(list(specs), deals=stop, seed=seed + n))
                  for n, (name, specs) in enumerate(PAIRINGS.items())]
    return [(name, game) for board in range(start, stop) for name, games in by_pairing
            for game in games[2 * board:2 * board + 2]]


def play(batch: Sequence[tuple[str, Game]]) -> list[dict[str, Any]]:
    """Play whole matches; each kept as its match-up, board, seating and match record."""
    out = []
    for name, game in batch:
        table = Table([make_bot(spec, seed=s) for spec, s in zip(game.specs, game.bot_seeds, strict=True)])
        match = Match(Rules(), seed=game.deal_seed)
        while not match.is_over():
            table.start(match.deal())
            table.run()
        record = record_from_match(match, players=list(game.specs)).to_json()
        out.append({"pairing": name, "board": game.board, "swap": game.swap, "record": record})
    return out


def _measurable(matches: Sequence[dict[str, Any]]) -> int:
    return sum(1 for p in positions(matches) if unlocated(p.view)[0])


def generate(path: Path, seed: int, wanted: int, jobs: int) -> list[dict[str, Any]]:
    """The kept matches, playing more boards until they hold ``wanted`` positions with
    something unlocated (each run adds boards after the last one kept)."""
    data: dict[str, Any] = {"format": FORMAT, "seed": seed, "pairings": PAIRINGS, "sixtysix": __version__,
                            "boards": 0, "matches": []}
    if path.exists():
        data = json.loads(path.read_text())
        if data.get("format") != FORMAT or data.get("seed") != seed or \
                data.get("pairings") != {k: list(v) for k, v in PAIRINGS.items()}:
            raise SystemExit(f"{path.name} was made with other settings: remove it to play again")
    have = _measurable(data["matches"])
    while have < wanted:
        start = data["boards"]
        stop = start + max(1, math.ceil((wanted - have) / YIELD))
        began = time.perf_counter()
        todo = games(seed, start, stop)
        size = max(1, len(todo) // (4 * jobs))
        chunks = [todo[i:i + size] for i in range(0, len(todo), size)]
        with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
            data["matches"] += [m for part in pool.map(play, chunks) for m in part]
        data["boards"] = stop
        have = _measurable(data["matches"])
        print(f"played boards {start}-{stop - 1} ({len(todo)} matches) in "
              f"{time.perf_counter() - began:.0f} s: {have} positions", flush=True)
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    return list(data["matches"])


# Methods ---------------------------------------------------------------------------------
def marginals(pairs: Iterable[tuple[int, float]], allowed: Iterable[int]) -> dict[int, float]:
    """For each card of ``allowed`` (indices), the weighted share of the opponent hands
    (card masks, with their weights) that hold it.

    >>> marginals([(0b011, 1.0), (0b110, 3.0)], [0, 1, 2])
    {0: 0.25, 1: 1.0, 2: 0.75}

    Over every layout of a closed stock, each once, they are the uniform chances:

    >>> from sixtysix import Action
    >>> hand = Hand.random(seed=4)
    >>> hand.push(Action.parse("C"))
    >>> view = hand.view(hand.to_act)
    >>> layouts = Constraints.from_view(view).layouts()
    >>> pairs = [(sum(card.mask for card in layout.opponent), 1.0) for layout in layouts]
    >>> exact = uniform(view, random.Random(0))
    >>> len(pairs), max(abs(p - exact[i]) for i, p in marginals(pairs, exact).items()) < 1e-12
    (12376, True)
    """
    cards = list(allowed)
    held = dict.fromkeys(cards, 0.0)
    total = 0.0
    for mask, weight in pairs:
        total += weight
        for i in cards:
            if mask >> i & 1:
                held[i] += weight
    if total <= 0:
        raise ValueError("the weights sum to nothing")
    return {i: w / total for i, w in held.items()}


def cb_marginals(odds: Sequence[float], k: int) -> list[float]:
    """The chance that each item is among ``k`` drawn with probability proportional to the
    product of their odds (a conditional Bernoulli distribution), exactly: item i's is
    odds[i] * e(k-1, the others) / e(k, all), e the elementary symmetric sums, from the
    sums of the items before i and of those after it.

    >>> [round(p, 6) for p in cb_marginals([1.0, 1.0, 2.0], 1)]
    [0.25, 0.25, 0.5]

    Against the hands counted one by one:

    >>> import itertools
    >>> odds = [0.5, 2.0, 1.0, 3.0, 0.2, 7.0]
    >>> hands = list(itertools.combinations(range(6), 3))
    >>> weight = [math.prod(odds[i] for i in h) for h in hands]
    >>> counted = [sum(w for h, w in zip(hands, weight) if i in h) / sum(weight) for i in range(6)]
    >>> max(abs(a - b) for a, b in zip(cb_marginals(odds, 3), counted)) < 1e-12
    True
    """
    n = len(odds)
    before = [[1.0] + [0.0] * k]
    for w in odds:
        last = before[-1]
        before.append([last[0]] + [last[j] + w * last[j - 1] for j in range(1, k + 1)])
    after = [[1.0] + [0.0] * k]
    for w in reversed(odds):
        last = after[-1]
        after.append([last[0]] + [last[j] + w * last[j - 1] for j in range(1, k + 1)])
    after.reverse()
    total = before[n][k]
    return [odds[i] * sum(before[i][t] * after[i + 1][k - 1 - t] for t in range(k)) / total
            for i in range(n)]


@functools.cache
def network() -> Network:
    """The shipped network (loaded once per process)."""
    return Network.load(shipped_weights())


def hand_logits(view: View) -> list[float]:
    """The shipped network's hand head: the log-odds, by card index, that the opponent
    holds each card, from the view (match score included)."""
    return network().outputs(view, match_of(view))[2]


def _odds(view: View) -> dict[int, float]:
    logits = hand_logits(view)
    return {i: math.exp(max(-30.0, min(30.0, logits[i]))) for i in unlocated(view)[0]}


def uniform(view: View, rng: random.Random) -> dict[int, float]:
    allowed, free = unlocated(view)
    return {i: free / len(allowed) for i in allowed}


def worlds(view: View, rng: random.Random) -> dict[int, float]:
    drawn = Worlds(view, rng).draw(SAMPLES[0])
    return marginals(((mask, 1.0) for mask, _ in drawn), unlocated(view)[0])


def hand_head(view: View, rng: random.Random) -> dict[int, float]:
    logits = hand_logits(view)
    return {i: 1.0 / (1.0 + math.exp(-logits[i])) for i in unlocated(view)[0]}


def hand_head_scaled(view: View, rng: random.Random) -> dict[int, float]:
    p = hand_head(view, rng)
    scale = unlocated(view)[1] / sum(p.values())
    return {i: q * scale for i, q in p.items()}


def hand_head_cb(view: View, rng: random.Random) -> dict[int, float]:
    odds = _odds(view)
    top = max(odds.values())
    cards = list(odds)
    return dict(zip(cards, cb_marginals([odds[i] / top for i in cards], unlocated(view)[1]), strict=True))


def hand_head_weighed(view: View, rng: random.Random) -> Callable[[Layout], float]:
    log_odds = {i: math.log(w) for i, w in _odds(view).items()}

    def log_weight(layout: Layout) -> float:
        return math.fsum(w for i, w in log_odds.items() if layout[0] >> i & 1)

    return log_weight


#: The methods giving a probability per unlocated card.
METHODS: dict[str, Method] = {
    "uniform": uniform,
    "worlds": worlds,
    "hand-head": hand_head,
    "hand-head-scaled": hand_head_scaled,
    "hand-head-cb": hand_head_cb,
}
#: The methods weighing the hands the opponent may hold.
WEIGHERS: dict[str, Weigher] = {
    "hand-head-weighed": hand_head_weighed,
}
#: Layouts drawn by the sampled methods, and hands weighed by a weigher (set from the
#: command line; a list so that worker processes receive them with the task).
SAMPLES = [1000]
POOL = [1000]


# Scoring ---------------------------------------------------------------------------------
def log_loss(probabilities: dict[int, float], allowed: Sequence[int], held: int) -> float:
    """The mean binary cross-entropy (nats) of the unlocated cards ``allowed`` given the
    opponent's real hand ``held`` (a card mask)."""
    total = 0.0
    for i in allowed:
        p = min(max(probabilities[i], CLIP), 1.0 - CLIP)
        total -= math.log(p if held >> i & 1 else 1.0 - p)
    return total / len(allowed)


def pool(view: View, rng: random.Random) -> list[Layout]:
    """The layouts a weigher weighs, as the search's worlds come: all of them when there
    are at most ``POOL`` (the stock's order counting while it is open), else ``POOL``
    drawn uniformly by :class:`~sixtysix.bots.worlds.Worlds` (with repeats)."""
    worlds = Worlds(view, rng, enumerate_below=POOL[0])
    drawn = worlds.layouts if worlds.layouts is not None else worlds.draw(POOL[0])
    return [(mask, stock) for mask, stock in drawn]


def weighed(view: View, rng: random.Random, weigher: Weigher,
            truth: Layout) -> tuple[dict[int, float], float, float]:
    """A weigher's marginals over the pool of layouts (uniform when it rules them all out),
    the real layout's weight over the mean weight of the pool, and the pool's effective
    size (sum of the weights squared over the sum of their squares: how many layouts the
    marginals rest on)."""
    log_weight = weigher(view, rng)
    layouts = pool(view, rng)
    logs = [log_weight(layout) for layout in layouts]
    top = max(logs)
    if top == -math.inf:
        logs, top = [0.0] * len(logs), 0.0
    weights = [math.exp(w - top) for w in logs]
    mean = math.fsum(weights) / len(weights)
    probabilities = marginals(((mask, w) for (mask, _), w in zip(layouts, weights, strict=True)),
                              unlocated(view)[0])
    size = math.fsum(weights) ** 2 / math.fsum(w * w for w in weights)
    return probabilities, math.exp(log_weight(truth) - top) / mean, size


@dataclass
class Scored:
    """One method on one position: its log-loss, the real layout's relative weight and the
    pool's effective size (weighers only), and the seconds it took."""

    loss: float
    weight: float | None
    size: float | None
    seconds: float


def score(position: Position, name: str, seed: int) -> Scored:
    """The method ``name`` on ``position``, with a generator of its own."""
    rng = random.Random(f"{seed}/{name}/{position.key}")
    allowed = unlocated(position.view)[0]
    start = time.perf_counter()
    weight = size = None
    weigh = WEIGHERS.get(name)
    if weigh is not None:
        truth = (position.opponent, position.stock)
        probabilities, weight, size = weighed(position.view, rng, weigh, truth)
    else:
        probabilities = METHODS[name](position.view, rng)
    seconds = time.perf_counter() - start
    missing = [CARDS[i] for i in allowed if i not in probabilities]
    if missing:
        raise ValueError(f"{name} gives no probability for {' '.join(map(str, missing))} at {position.key}")
    return Scored(log_loss(probabilities, allowed, position.opponent), weight, size, seconds)


def score_all(batch: Sequence[Position], names: Sequence[str], seed: int, samples: int,
              hands: int) -> list[dict[str, Scored]]:
    """Every method on every position of ``batch`` (a worker's task)."""
    SAMPLES[0], POOL[0] = samples, hands
    return [{name: score(p, name, seed) for name in names} for p in batch]


# Reporting -------------------------------------------------------------------------------
def clustered(values: Sequence[float], clusters: Sequence[str], z: float = 1.96) -> Mean:
    """The mean of ``values`` with a 95% interval that allows for positions of the same
    cluster (here: the same deals) being alike: the standard error from the clusters' sums
    (the cluster-robust sandwich estimate), not from the positions as if independent.

    >>> m = clustered([1.0, 1.0, 3.0, 3.0], ["a", "a", "b", "b"])
    >>> m.mean, round(m.high - m.mean, 4)
    (2.0, 1.96)
    """
    n = len(values)
    mean = math.fsum(values) / n
    sums: dict[str, float] = {}
    for v, c in zip(values, clusters, strict=True):
        sums[c] = sums.get(c, 0.0) + v - mean
    g = len(sums)
    if g < 2:
        return Mean(n, mean, 0.0, mean, mean)
    error = math.sqrt(math.fsum(d * d for d in sums.values()) * g / (g - 1)) / n
    return Mean(n, mean, error * math.sqrt(n), mean - z * error, mean + z * error)


def _fmt(m: Mean) -> str:
    return f"{m.mean:.4f} ({m.low:.4f}-{m.high:.4f})"


def _diff(m: Mean) -> str:
    return f"{m.mean:+.4f} ({m.low:+.4f} to {m.high:+.4f})"


def _split(values: Sequence[float], groups: Sequence[str], group: str) -> str:
    chosen = [v for v, g in zip(values, groups, strict=True) if g == group]
    return f"{math.fsum(chosen) / len(chosen):.4f}" if chosen else "-"


def describe(measured: Sequence[Position], matches: int, decisions: dict[str, int], seed: int) -> None:
    """The positions: how many, from where, by stage, seat and opponent."""
    by_stage = {s: sum(p.stage == s for p in measured) for s in STAGES[:3]}
    print(f"{len(measured)} positions from {matches} matches (seed {seed}; search: {SEARCH}; "
          f"{', '.join(PAIRINGS)})")
    print("  decisions with a choice in those matches, by stage: "
          + ", ".join(f"{s} {decisions.get(s, 0)}" for s in STAGES)
          + " (exhausted: nothing unlocated, not measured)")
    print("  measured, by stage: " + ", ".join(f"{s} {n}" for s, n in by_stage.items())
          + f"; seat to act 0: {sum(p.view.seat == 0 for p in measured)}, "
          f"1: {sum(p.view.seat == 1 for p in measured)}; opponent heuristic: "
          f"{sum(p.opponent_player == 'heuristic' for p in measured)}, "
          f"search: {sum(p.opponent_player == 'search' for p in measured)}")


def _average(scored: Sequence[dict[str, Scored]], name: str, field: str, width: int, digits: int) -> str:
    """The mean of a weigher's ``weight`` or ``size`` over the positions ("-" for other methods)."""
    values = [v for s in scored if name in s and (v := getattr(s[name], field)) is not None]
    return f"{math.fsum(values) / len(values):{width}.{digits}f}" if values else f"{'-':>{width}}"


def table(measured: Sequence[Position], losses: dict[str, list[float]], scored: Sequence[dict[str, Scored]],
          seconds: dict[str, float]) -> None:
    """The table of methods (the paired differences from the first method)."""
    names = list(losses)
    first = losses[names[0]]
    deals = [p.deals for p in measured]
    stages = [p.stage for p in measured]
    opponents = [p.opponent_player for p in measured]
    width = max(len(n) for n in names)
    paired_head = f"minus {names[0]} (paired, 95% CI)"
    wide = max(len(paired_head), 30)
    print(f"{'method':{width}}  {'log-loss (95% CI)':24}  {paired_head:{wide}}   early   late closed  "
          "v heur v srch  real hand   pool  ms/pos")
    for name in names:
        values = losses[name]
        paired = clustered([a - b for a, b in zip(values, first, strict=True)], deals)
        diff = _diff(paired) if name != names[0] else "-"
        ms = f"{1000 * seconds[name] / len(values):6.2f}" if name in seconds else f"{'-':>6}"
        splits = [_split(values, stages, s) for s in STAGES[:3]] + \
            [_split(values, opponents, o) for o in ("heuristic", "search")]
        print(f"{name:{width}}  {_fmt(clustered(values, deals)):24}  {diff:{wide}}  "
              f"{' '.join(f'{x:>6}' for x in splits[:3])}  {' '.join(f'{x:>6}' for x in splits[3:])}  "
              f"{_average(scored, name, 'weight', 9, 2)} {_average(scored, name, 'size', 6, 0)}  {ms}")


def _baseline(path: str, keys: Sequence[str]) -> dict[str, list[float]]:
    """The per-position log-losses of an earlier run (``--json``), on these positions."""
    old = json.loads(Path(path).read_text())
    index = {k: n for n, k in enumerate(old["positions"])}
    if any(k not in index for k in keys):
        raise SystemExit(f"{path} does not hold all of these positions (another seed or fewer positions)")
    return {f"{name} ({Path(path).name})": [values[index[k]] for k in keys]
            for name, values in old["losses"].items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000, help="positions measured")
    parser.add_argument("--seed", type=int, default=9701, help="the seed of the deals and the methods")
    parser.add_argument("--methods", default="uniform,worlds,hand-head,hand-head-scaled,hand-head-cb,"
                        "hand-head-weighed", help="which of " + ", ".join([*METHODS, *WEIGHERS]))
    parser.add_argument("--samples", type=int, default=1000, help="layouts drawn by a sampled method")
    parser.add_argument("--pool", type=int, default=1000, help="hands weighed by a weigher")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--against", choices=("all", "heuristic", "search"), default="all",
                        help="measure the positions with this opponent only")
    parser.add_argument("--json", help="write every position's log-loss by method here")
    parser.add_argument("--baseline", help="compare with the log-losses of an earlier --json run")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.methods.split(",") if n.strip()]
    unknown = [n for n in names if n not in METHODS and n not in WEIGHERS]
    if unknown or not names:
        parser.error(f"unknown methods {unknown}: expected some of {', '.join([*METHODS, *WEIGHERS])}")
    path = RESULTS / f"inference-positions-{args.seed}.json"
    matches = generate(path, args.seed, args.positions, args.jobs)
    measured: list[Position] = []
    decisions: dict[str, int] = {}
    used = 0
    for p in positions(matches):
        if len(measured) == args.positions:
            break
        used = int(p.key.split("/")[0]) + 1
        decisions[p.stage] = decisions.get(p.stage, 0) + 1
        if unlocated(p.view)[0] and args.against in ("all", p.opponent_player):
            measured.append(p)
    describe(measured, used, decisions, args.seed)
    start = time.perf_counter()
    size = max(1, len(measured) // (8 * args.jobs))
    chunks = [measured[i:i + size] for i in range(0, len(measured), size)]
    run = functools.partial(score_all, names=names, seed=args.seed, samples=args.samples, hands=args.pool)
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as workers:
        scored = [s for part in workers.map(run, chunks) for s in part]
    losses = {n: [s[n].loss for s in scored] for n in names}
    seconds = {n: math.fsum(s[n].seconds for s in scored) for n in names}
    keys = [p.key for p in measured]
    if args.baseline:
        losses.update(_baseline(args.baseline, keys))
    print(f"mean log-loss per unlocated card (nats), {args.samples} layouts per sampled method, "
          f"{args.pool} hands per weigher; scored in {time.perf_counter() - start:.0f} s")
    table(measured, losses, scored, seconds)
    print("  (early/late: stock open with 12-8/6-2 cards; v heur/v srch: the opponent is the heuristic "
          "player/the search; real hand: the real layout's weight over the pool's mean weight; pool: its "
          "effective size)")
    print(f"machine: {machine()}")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"seed": args.seed, "positions": keys, "stages": [p.stage for p in measured],
             "losses": {n: [round(v, 7) for v in losses[n]] for n in names}}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
