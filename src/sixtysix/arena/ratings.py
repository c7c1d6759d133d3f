"""Bradley-Terry ratings on the Elo scale, standard library only.

The Bradley-Terry model gives every bot a strength ``θ`` and says that bot
``i`` beats bot ``j`` with probability ``1 / (1 + exp(θj - θi))``. On the
Elo scale a rating is ``1500 + θ · 400 / ln 10``, so that 400 points of
difference mean odds of 10 to 1 (a 91% expected score).

:func:`fit` finds the maximum-likelihood strengths by Newton's method (the
log-likelihood is concave, so a step that does not improve it is halved
until it does). Tied games count half a win to each side. A bot that won
(or lost) every game would have an infinite rating, so each pair that met
is credited with ``prior`` extra wins each way (half a win by default: one
virtual drawn game). Only differences are identified, so the strengths are
fixed to average 0, which puts the mean rating at 1500.

Two kinds of 95% interval are computed:

* from the Fisher information (the curvature of the log-likelihood at the
  maximum), which treats every game as independent; with duplicate play
  that overstates the noise a little, since the two games of a board tend
  to cancel each other's luck;
* by bootstrap: the boards (deals) are drawn again with replacement, the
  same boards for every pair, and the ratings refitted; the percentile
  interval keeps the pairing of the duplicate games. This is the interval
  the arena reports.

>>> wins = [[0, 30, 45], [10, 0, 30], [5, 10, 0]]
>>> [round(x) for x in elo(fit(wins))]
[1684, 1500, 1316]
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix.measure.stats import z_value

__all__ = [
    "ELO_SCALE",
    "MEAN_RATING",
    "Rating",
    "bootstrap_intervals",
    "elo",
    "fisher_covariance",
    "fit",
    "rate",
]

#: Elo points per unit of Bradley-Terry strength (natural log odds).
ELO_SCALE = 400.0 / math.log(10.0)
#: The mean rating: strengths are fixed to average 0.
MEAN_RATING = 1500.0


def elo(thetas: Sequence[float], mean: float = MEAN_RATING) -> list[float]:
    """Strengths (natural log-odds) as Elo ratings around ``mean``."""
    return [mean + ELO_SCALE * t for t in thetas]


def _log_sigmoid(x: float) -> float:
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix · x = vector`` by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("singular system: the games do not connect all the bots")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            if factor:
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(n)]) for c in range(n)]
    return [[columns[c][r] for c in range(n)] for r in range(n)]


def _with_prior(wins: Sequence[Sequence[float]], prior: float) -> list[list[float]]:
    n = len(wins)
    out = [[float(wins[i][j]) for j in range(n)] for i in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and (wins[i][j] > 0 or wins[j][i] > 0):
                out[i][j] += prior
    return out


def _log_likelihood(w: list[list[float]], thetas: Sequence[float]) -> float:
    n = len(w)
    return math.fsum(w[i][j] * _log_sigmoid(thetas[i] - thetas[j])
                     for i in range(n) for j in range(n) if i != j and w[i][j])


def _information(w: list[list[float]], thetas: Sequence[float]) -> list[list[float]]:
    """The negative Hessian of the log-likelihood (a weighted graph Laplacian)."""
    n = len(w)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            games = w[i][j] + w[j][i]
            if games:
                p = _sigmoid(thetas[i] - thetas[j])
                h = games * p * (1.0 - p)
                info[i][j] -= h
                info[j][i] -= h
                info[i][i] += h
                info[j][j] += h
    return info


def fit(
    wins: Sequence[Sequence[float]],
    *,
    prior: float = 0.5,
    start: Sequence[float] | None = None,
    tolerance: float = 1e-10,
    max_steps: int = 200,
) -> list[float]:
    """Maximum-likelihood strengths (averaging 0) from ``wins[i][j]``, the
    score of bot ``i`` against bot ``j`` (wins, plus half the ties).

    >>> [round(t, 6) for t in fit([[0, 5], [5, 0]])]
    [0.0, 0.0]
    >>> a, b = fit([[0, 3], [1, 0]], prior=0)
    >>> round(a - b, 6) == round(math.log(3), 6)
    True
    """
    n = len(wins)
    if n < 2 or any(len(row) != n for row in wins):
        raise ValueError("need a square table of scores for at least two bots")
    if prior < 0:
        raise ValueError(f"the prior must not be negative, not {prior}")
    w = _with_prior(wins, prior)
    thetas = list(start) if start is not None else [0.0] * n
    centre = [1.0 / n] * n
    current = _log_likelihood(w, thetas)
    for _ in range(max_steps):
        gradient = [0.0] * n
        for i in range(n):
            for j in range(n):
                if i != j:
                    games = w[i][j] + w[j][i]
                    if games:
                        gradient[i] += w[i][j] - games * _sigmoid(thetas[i] - thetas[j])
        info = _information(w, thetas)
        # Adding the projection on the constant vector makes the system
        # regular without changing the step in the directions that matter.
        step = _solve([[info[r][c] + centre[c] for c in range(n)] for r in range(n)], gradient)
        size = 1.0
        while True:
            trial = [t + size * s for t, s in zip(thetas, step, strict=True)]
            value = _log_likelihood(w, trial)
            if value >= current - 1e-12 or size < 1e-8:
                break
            size /= 2.0
        mean = math.fsum(trial) / n
        thetas = [t - mean for t in trial]
        current = value
        if max(abs(size * s) for s in step) < tolerance:
            break
    return thetas


def fisher_covariance(wins: Sequence[Sequence[float]], thetas: Sequence[float], *,
                      prior: float = 0.5) -> list[list[float]]:
    """The covariance of the strengths (averaging 0) from the Fisher
    information at ``thetas``: the pseudo-inverse of the information matrix."""
    n = len(wins)
    info = _information(_with_prior(wins, prior), thetas)
    # For a connected graph, pinv(L) = inv(L + J/n) - J/n.
    regular = _inverse([[info[r][c] + 1.0 / n for c in range(n)] for r in range(n)])
    return [[regular[r][c] - 1.0 / n for c in range(n)] for r in range(n)]


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def bootstrap_intervals(
    count: int,
    pair_list: Sequence[tuple[int, int]],
    board_scores: Sequence[Sequence[float]],
    board_games: Sequence[Sequence[float]],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    prior: float = 0.5,
    start: Sequence[float] | None = None,
) -> list[tuple[float, float]]:
    """Percentile intervals of the Elo ratings of ``count`` bots, resampling boards.

    ``board_scores[p][b]`` is the score of the first bot of pair
    ``pair_list[p]`` on board ``b`` (over both seatings) and
    ``board_games[p][b]`` the number of games; every pair has the same boards.
    """
    if resamples < 1:
        raise ValueError(f"need at least one bootstrap resample, not {resamples}")
    boards = len(board_scores[0]) if board_scores else 0
    if boards == 0:
        raise ValueError("no boards to resample")
    rng = random.Random(seed)
    population = range(boards)
    samples: list[list[float]] = [[] for _ in range(count)]
    for _ in range(resamples):
        chosen = rng.choices(population, k=boards)
        wins = [[0.0] * count for _ in range(count)]
        for p, (a, b) in enumerate(pair_list):
            scores, games = board_scores[p], board_games[p]
            score = math.fsum(scores[k] for k in chosen)
            total = math.fsum(games[k] for k in chosen)
            wins[a][b] += score
            wins[b][a] += total - score
        for i, rating in enumerate(elo(fit(wins, prior=prior, start=start))):
            samples[i].append(rating)
    tail = (1.0 - confidence) / 2.0
    out: list[tuple[float, float]] = []
    for values in samples:
        values.sort()
        out.append((_quantile(values, tail), _quantile(values, 1.0 - tail)))
    return out


@dataclass(frozen=True)
class Rating:
    """A bot's rating: the estimate, the reported interval (bootstrap, or
    Fisher when no resampling was asked for) and the Fisher standard error."""

    bot: int
    elo: float
    low: float
    high: float
    fisher_se: float
    fisher_low: float
    fisher_high: float


def rate(
    count: int,
    pair_list: Sequence[tuple[int, int]],
    board_scores: Sequence[Sequence[float]],
    board_games: Sequence[Sequence[float]],
    *,
    resamples: int = 1000,
    seed: int = 0,
    confidence: float = 0.95,
    prior: float = 0.5,
) -> list[Rating]:
    """Fit the ratings of ``count`` bots from per-board results (see
    :func:`bootstrap_intervals`) with their intervals; ``resamples=0``
    gives Fisher intervals only."""
    wins = [[0.0] * count for _ in range(count)]
    for p, (a, b) in enumerate(pair_list):
        score, total = math.fsum(board_scores[p]), math.fsum(board_games[p])
        wins[a][b] += score
        wins[b][a] += total - score
    thetas = fit(wins, prior=prior)
    ratings = elo(thetas)
    covariance = fisher_covariance(wins, thetas, prior=prior)
    z = z_value(confidence)
    ses = [ELO_SCALE * math.sqrt(max(0.0, covariance[i][i])) for i in range(count)]
    if resamples > 0:
        intervals = bootstrap_intervals(count, pair_list, board_scores, board_games,
                                        resamples=resamples, seed=seed, confidence=confidence,
                                        prior=prior, start=thetas)
    else:
        intervals = [(r - z * se, r + z * se) for r, se in zip(ratings, ses, strict=True)]
    return [Rating(i, ratings[i], min(intervals[i][0], ratings[i]), max(intervals[i][1], ratings[i]),
                   ses[i], ratings[i] - z * ses[i], ratings[i] + z * ses[i])
            for i in range(count)]
