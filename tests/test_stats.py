"""sixtysix.measure.stats: Wilson intervals and means with confidence intervals."""

from __future__ import annotations

import math

import pytest

from sixtysix.measure.stats import mean_interval, proportion, wilson, z_value


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # Reference values, from solving |p - x/n| = z·sqrt(p(1-p)/n) for p with z = 1.959964.
        (90, 100, 0.825634, 0.944771),
        (1, 10, 0.017876, 0.404150),
        (5, 10, 0.236593, 0.763407),
        (81, 263, 0.255289, 0.366210),
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (999, 1000, 0.994357, 0.999823),
    ],
)
def test_wilson_known_values(successes: int, trials: int, low: float, high: float) -> None:
    lo, hi = wilson(successes, trials)
    assert lo == pytest.approx(low, abs=1e-6)
    assert hi == pytest.approx(high, abs=1e-6)


def test_wilson_edges_and_symmetry() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0
    for k in range(0, 21):
        lo, hi = wilson(k, 20)
        lo2, hi2 = wilson(20 - k, 20)
        assert lo == pytest.approx(1 - hi2) and hi == pytest.approx(1 - lo2)
        assert 0.0 <= lo <= k / 20 <= hi <= 1.0


def test_wilson_narrows_with_more_trials_and_widens_with_confidence() -> None:
    small = wilson(9, 10)
    large = wilson(900, 1000)
    assert large[1] - large[0] < small[1] - small[0]
    assert wilson(90, 100, 0.99)[0] < wilson(90, 100)[0] < wilson(90, 100, 0.90)[0]


@pytest.mark.parametrize("args", [(-1, 5), (6, 5), (1, -1)])
def test_wilson_rejects_impossible_counts(args: tuple[int, int]) -> None:
    with pytest.raises(ValueError):
        wilson(*args)


def test_z_value() -> None:
    assert z_value() == pytest.approx(1.959964, abs=1e-6)
    assert z_value(0.99) == pytest.approx(2.575829, abs=1e-6)
    with pytest.raises(ValueError):
        z_value(1.0)


def test_proportion() -> None:
    p = proportion(45, 50)
    assert (p.successes, p.trials, p.estimate) == (45, 50, 0.9)
    assert (p.low, p.high) == wilson(45, 50)
    assert proportion(0, 0).estimate == 0.0


def test_mean_interval_known_values() -> None:
    m = mean_interval([1, 2, 3, 0, 1, 2])
    assert m.n == 6 and m.mean == 1.5
    assert m.stdev == pytest.approx(math.sqrt(1.1))
    half = 1.959964 * math.sqrt(1.1) / math.sqrt(6)
    assert m.low == pytest.approx(1.5 - half, abs=1e-5)
    assert m.high == pytest.approx(1.5 + half, abs=1e-5)


def test_mean_interval_degenerate_samples() -> None:
    single = mean_interval([3])
    assert (single.mean, single.stdev, single.low, single.high) == (3.0, 0.0, 3.0, 3.0)
    flat = mean_interval([2, 2, 2, 2])
    assert (flat.low, flat.high) == (2.0, 2.0)
    with pytest.raises(ValueError):
        mean_interval([])
