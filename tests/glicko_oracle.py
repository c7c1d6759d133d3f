"""Glicko-2 written again for the tests, from Glickman's "Example of the Glicko-2
system" (2013) step by step, sharing no code with :mod:`sixtysix.measure.glicko`: the oracle the
puzzle ratings are checked against (its own check: the paper's worked example, in
tests/test_puzzle_ratings.py)."""

from __future__ import annotations

import math

Q = 173.7178  # the paper's scale factor


def glicko2(r: float, rd: float, sigma: float, games: list[tuple[float, float, float]],
            tau: float = 0.5) -> tuple[float, float, float]:
    """(r', RD', σ') after one rating period with ``games``: (opponent r, opponent RD, score)."""
    mu, phi = (r - 1500.0) / Q, rd / Q
    terms = []
    for r_j, rd_j, s in games:
        mu_j, phi_j = (r_j - 1500.0) / Q, rd_j / Q
        g = 1.0 / math.sqrt(1.0 + 3.0 * phi_j ** 2 / math.pi ** 2)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        terms.append((g, e, s))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    a = math.log(sigma ** 2)

    def f(x: float) -> float:
        return (math.exp(x) * (delta ** 2 - phi ** 2 - v - math.exp(x))
                / (2.0 * (phi ** 2 + v + math.exp(x)) ** 2) - (x - a) / tau ** 2)

    lo = a
    if delta ** 2 > phi ** 2 + v:
        hi = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > 1e-9:
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2.0
        hi, f_hi = c, f_c
    sigma2 = math.exp(lo / 2.0)
    phi_star = math.sqrt(phi ** 2 + sigma2 ** 2)
    phi2 = 1.0 / math.sqrt(1.0 / phi_star ** 2 + 1.0 / v)
    mu2 = mu + phi2 ** 2 * sum(g * (s - e) for g, e, s in terms)
    return mu2 * Q + 1500.0, phi2 * Q, sigma2
