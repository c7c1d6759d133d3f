"""Small statistics for simulations, standard library only.

* :func:`wilson` — the Wilson score interval for a proportion (win rates).
  Unlike the textbook "p ± z·sqrt(p(1-p)/n)" interval it stays inside
  [0, 1] and is sensible at 0 or n successes, which is where a strong bot
  playing a weak one ends up.
* :func:`mean_interval` — a mean with its normal-approximation confidence
  interval (game points per hand over many hands), kept within the values the
  quantity can take when its ``bounds`` are given: a mean of game points, each
  0 to 3, is never said to lie below 0 or above 3.

>>> low, high = wilson(90, 100)
>>> round(low, 4), round(high, 4)
(0.8256, 0.9448)
>>> m = mean_interval([1, 2, 3, 0, 1, 2])
>>> round(m.mean, 3), round(m.low, 3), round(m.high, 3)
(1.5, 0.661, 2.339)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from statistics import NormalDist

__all__ = ["Proportion", "Mean", "z_value", "wilson", "proportion", "mean_interval"]


def z_value(confidence: float = 0.95) -> float:
    """The two-sided standard normal quantile for a confidence level.

    >>> round(z_value(0.95), 4)
    1.96
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``trials``.

    With no trials nothing is known and the interval is the whole of [0, 1].

    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> [round(x, 4) for x in wilson(0, 10)]
    [0.0, 0.2775]
    >>> [round(x, 4) for x in wilson(10, 10)]
    [0.7225, 1.0]
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, not {successes} of {trials}")
    if trials == 0:
        return 0.0, 1.0
    z = z_value(confidence)
    n = float(trials)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # Clamp rounding noise at the ends (0 or n successes give exactly 0 or 1).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Proportion:
    """A count of successes with its estimate and Wilson interval."""

    successes: int
    trials: int
    estimate: float
    low: float
    high: float


def proportion(successes: int, trials: int, confidence: float = 0.95) -> Proportion:
    """The proportion ``successes / trials`` with its Wilson interval.

    >>> p = proportion(45, 50)
    >>> p.estimate, round(p.low, 3), round(p.high, 3)
    (0.9, 0.786, 0.957)
    """
    low, high = wilson(successes, trials, confidence)
    estimate = successes / trials if trials else 0.0
    return Proportion(successes, trials, estimate, low, high)


@dataclass(frozen=True)
class Mean:
    """A sample mean with its standard deviation and confidence interval.

    With fewer than two values the spread is unknown: ``stdev`` is 0 and the
    interval is the single point ``mean``.
    """

    n: int
    mean: float
    stdev: float
    low: float
    high: float


def mean_interval(values: Iterable[float], confidence: float = 0.95,
                  bounds: tuple[float, float] | None = None) -> Mean:
    """The mean of ``values`` with a normal-approximation confidence interval
    (mean ± z·s/√n, s the sample standard deviation). Meant for the large
    samples simulations produce; for a handful of values it is too narrow.

    ``bounds`` are the least and the most a value can be: the mean lies between
    them, and so does the interval, clipped where the normal approximation would
    leave them (near a bound the spread is not symmetric).

    >>> m = mean_interval([2.0, 2.0, 2.0])
    >>> m.mean, m.low, m.high
    (2.0, 2.0, 2.0)
    >>> m = mean_interval([3, 3, 3, 1], bounds=(0, 3))
    >>> round(m.mean, 2), round(m.low, 2), m.high
    (2.5, 1.52, 3.0)
    """
    data = [float(v) for v in values]
    n = len(data)
    if n == 0:
        raise ValueError("the mean of no values is undefined")
    mean = math.fsum(data) / n
    if n < 2:
        return Mean(n, mean, 0.0, mean, mean)
    variance = math.fsum((x - mean) ** 2 for x in data) / (n - 1)
    stdev = math.sqrt(variance)
    half = z_value(confidence) * stdev / math.sqrt(n)
    low, high = mean - half, mean + half
    if bounds is not None:
        least, most = bounds
        if not least <= mean <= most:
            raise ValueError(f"the values lie outside their bounds {least} to {most}")
        low, high = max(float(least), low), min(float(most), high)
    return Mean(n, mean, stdev, low, high)
