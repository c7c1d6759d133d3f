"""Glicko-2 ratings: a player's strength, how sure we are of it, and how erratic it is.

The system is Mark Glickman's ("Example of the Glicko-2 system", 2013): a rating
``r`` on the familiar scale (1500 for a new player), its deviation ``RD`` (the
uncertainty: a new player's 350; about 95% of the time the true strength lies within
two deviations) and the volatility ``σ`` (how much the strength is expected to
move). A rating period's results update all three at once; a player who sits a
period out keeps the rating, and the deviation grows back toward 350.

>>> me = Rating(1500, 200, 0.06)
>>> after = me.update([(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)
>>> round(Rating(1500, 50).expected(Rating(1700, 50)), 3)
0.243
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["DEFAULT_DEVIATION", "DEFAULT_RATING", "DEFAULT_VOLATILITY", "SCALE", "TAU", "Rating",
           "RatingError"]

#: A new player's rating, deviation and volatility (Glickman's suggested values).
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant τ: how much the volatility may change in a period (0.3 to 1.2
#: are reasonable; smaller keeps volatility steadier).
TAU = 0.5
#: The factor between the Glicko scale and Glicko-2's internal one (173.7178).
SCALE = 400.0 / math.log(10.0)
#: The convergence tolerance of the volatility's iteration.
EPSILON = 1e-6


class RatingError(ValueError):
    """Numbers that are no rating: a deviation or volatility that is not positive and
    finite, a score outside 0..1."""


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation and its volatility, on the Glicko scale."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            object.__setattr__(self, name, float(getattr(self, name)))
        if not math.isfinite(self.rating):
            raise RatingError(f"a rating must be finite, not {self.rating}")
        if not (0 < self.deviation < math.inf):
            raise RatingError(f"a deviation must be positive and finite, not {self.deviation}")
        if not (0 < self.volatility < math.inf):
            raise RatingError(f"a volatility must be positive and finite, not {self.volatility}")

    @property
    def interval(self) -> tuple[float, float]:
        """About 95% of the time the true strength lies in here (two deviations either side).

        >>> Rating(1600, 50).interval
        (1500.0, 1700.0)
        """
        return self.rating - 2 * self.deviation, self.rating + 2 * self.deviation

    def expected(self, opponent: Rating) -> float:
        """The expected score (0..1) against ``opponent``, his deviation counted."""
        mu, mu_j = (self.rating - DEFAULT_RATING) / SCALE, (opponent.rating - DEFAULT_RATING) / SCALE
        return _e(mu, mu_j, opponent.deviation / SCALE)

    def update(self, results: Iterable[tuple[Rating, float]], tau: float = TAU) -> Rating:
        """The rating after a period with ``results``: each an opponent's rating (as it
        was at the start of the period) and the score against him (1 a win, 0 a loss,
        0.5 a draw). With no results the deviation grows as for a period sat out."""
        games = list(results)
        for opponent, score in games:
            if not 0.0 <= score <= 1.0:
                raise RatingError(f"a score must be between 0 and 1, not {score}")
            if not isinstance(opponent, Rating):
                raise TypeError(f"an opponent is a Rating, not {type(opponent).__name__}")
        mu = (self.rating - DEFAULT_RATING) / SCALE
        phi = self.deviation / SCALE
        sigma = self.volatility
        if not games:
            return Rating(self.rating, min(math.sqrt(phi * phi + sigma * sigma) * SCALE, DEFAULT_DEVIATION),
                          sigma)
        # Step 3: the estimated variance of the rating from the games alone.
        inverse_v = 0.0
        gain = 0.0
        for opponent, score in games:
            mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
            phi_j = opponent.deviation / SCALE
            g = _g(phi_j)
            e = _e(mu, mu_j, phi_j)
            inverse_v += g * g * e * (1.0 - e)
            gain += g * (score - e)
        v = 1.0 / inverse_v
        # Step 4: the estimated improvement.
        delta = v * gain
        # Step 5: the new volatility (the Illinois algorithm).
        a = math.log(sigma * sigma)

        def f(x: float) -> float:
            ex = math.exp(x)
            return (ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
                    - (x - a) / (tau * tau))

        big_a = a
        if delta * delta > phi * phi + v:
            big_b = math.log(delta * delta - phi * phi - v)
        else:
            k = 1
            while f(a - k * tau) < 0:
                k += 1
            big_b = a - k * tau
        f_a, f_b = f(big_a), f(big_b)
        while abs(big_b - big_a) > EPSILON:
            big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
            f_c = f(big_c)
            if f_c * f_b <= 0:
                big_a, f_a = big_b, f_b
            else:
                f_a /= 2.0
            big_b, f_b = big_c, f_c
        new_sigma = math.exp(big_a / 2.0)
        # Steps 6-7: the new deviation and rating.
        phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
        new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
        new_mu = mu + new_phi * new_phi * gain
        return Rating(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, new_sigma)

    def idle(self, periods: float) -> Rating:
        """The rating after ``periods`` rating periods without a game (a fraction counts
        as such): the deviation grows as :meth:`update` with no results would, period
        after period, up to a new player's.

        >>> Rating(1600, 50).idle(0) == Rating(1600, 50)
        True
        >>> round(Rating(1600, 50).idle(30).deviation, 1)
        75.9
        """
        if not periods >= 0 or not math.isfinite(periods):
            raise RatingError(f"idle periods must be zero or more, not {periods}")
        if periods == 0:
            return self
        phi = self.deviation / SCALE
        grown = math.sqrt(phi * phi + periods * self.volatility * self.volatility) * SCALE
        return Rating(self.rating, min(grown, max(DEFAULT_DEVIATION, self.deviation)), self.volatility)

    def __str__(self) -> str:
        """
        >>> str(Rating(1612.4, 61.2))
        '1612 ± 122'
        """
        return f"{self.rating:.0f} ± {2 * self.deviation:.0f}"
