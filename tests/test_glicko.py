"""Glicko-2 (:mod:`sixtysix.measure.glicko`) against the worked example of Glickman's paper
("Example of the Glicko-2 system"), and the system's properties that follow from its
formulas."""

from __future__ import annotations

import math

import pytest

from sixtysix.measure.glicko import Rating, RatingError


def test_the_papers_worked_example() -> None:
    """A player of 1500 (RD 200, σ 0.06) beats a 1400 (RD 30) and loses to a 1550 (RD 100)
    and a 1700 (RD 300), τ = 0.5: the paper finds r' = 1464.06, RD' = 151.52, σ' = 0.05999
    (its intermediate figures rounded, hence the tolerance on r')."""
    after = Rating(1500, 200, 0.06).update(
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)], tau=0.5)
    assert math.isclose(after.rating, 1464.06, abs_tol=0.02)
    assert math.isclose(after.deviation, 151.52, abs_tol=0.01)
    assert math.isclose(after.volatility, 0.05999, abs_tol=1e-5)


def test_a_period_sat_out_widens_the_deviation_and_keeps_the_rating() -> None:
    # φ* = sqrt(φ² + σ²) on the Glicko-2 scale (173.7178 points a unit): 200 → 200.27.
    idle = Rating(1620, 200, 0.06).update([])
    assert idle.rating == 1620
    assert math.isclose(idle.deviation, math.sqrt(200**2 + (0.06 * 173.7178) ** 2), rel_tol=1e-6)
    assert math.isclose(idle.deviation, 200.27, abs_tol=0.01)
    assert Rating(1500, 349.9, 0.06).update([]).deviation == 350  # never above a newcomer's


def test_a_draw_between_equals_changes_no_rating_and_a_win_raises_it() -> None:
    a = Rating(1500, 80)
    drawn = a.update([(Rating(1500, 80), 0.5)])
    assert drawn.rating == pytest.approx(1500, abs=1e-9)
    assert drawn.deviation < 80  # a game teaches something
    over_strong = a.update([(Rating(1800, 80), 1.0)])
    over_weak = a.update([(Rating(1200, 80), 1.0)])
    assert over_strong.rating > over_weak.rating > 1500
    assert a.update([(Rating(1500, 80), 0.0)]).rating < 1500


def test_the_expected_score_is_the_logistic_of_the_difference() -> None:
    assert Rating(1500, 50).expected(Rating(1500, 50)) == 0.5
    one, other = Rating(1700, 40), Rating(1500, 40)
    assert one.expected(other) + other.expected(one) == pytest.approx(1.0)
    # With no uncertainty left it is Elo's: 1 / (1 + 10^(-Δ/400)).
    assert Rating(1700, 1e-9).expected(Rating(1500, 1e-9)) == pytest.approx(1 / (1 + 10 ** (-200 / 400)))


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Rating(1500, 0), r"a deviation must be positive and finite, not 0\.0"),
    (lambda: Rating(1500, 100, -0.1), r"a volatility must be positive and finite, not -0\.1"),
    (lambda: Rating(math.nan), r"a rating must be finite, not nan"),
    (lambda: Rating().update([(Rating(), 1.5)]), r"a score must be between 0 and 1, not 1\.5"),
])
def test_numbers_that_are_no_rating_are_refused(make: object, message: str) -> None:
    with pytest.raises(RatingError, match=message):
        make()  # type: ignore[operator]


def test_idle_periods_widen_the_deviation_as_the_paper_says() -> None:
    # Glickman, step 6 for a player who does not compete: φ' = sqrt(φ² + σ²) a period.
    phi, sigma = 50 / 173.7178, 0.06
    assert Rating(1600, 50).idle(1).deviation == pytest.approx(math.sqrt(phi**2 + sigma**2) * 173.7178)
    assert Rating(1600, 50).idle(4).deviation == pytest.approx(math.sqrt(phi**2 + 4 * sigma**2) * 173.7178)
    assert Rating(1600, 50).idle(1).deviation == pytest.approx(Rating(1600, 50).update([]).deviation)
    assert Rating(1600, 340).idle(1000).deviation == 350.0  # never past a new player's
    assert Rating(1600, 50).idle(0) == Rating(1600, 50) and Rating(1600, 50).idle(9).rating == 1600
    with pytest.raises(RatingError, match=r"idle periods must be zero or more, not -1"):
        Rating().idle(-1)
