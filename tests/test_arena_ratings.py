"""Bradley-Terry ratings of the arena: exact recovery, synthetic strengths, interval coverage."""

from __future__ import annotations

import math
import random

import pytest

from sixtysix.arena.ratings import ELO_SCALE, MEAN_RATING, elo, fisher_covariance, fit, rate

PAIRS_3 = [(0, 1), (0, 2), (1, 2)]


def win_probability(a: float, b: float) -> float:
    """The Bradley-Terry probability that a bot rated ``a`` beats one rated ``b`` (Elo)."""
    return 1.0 / (1.0 + math.exp((b - a) / ELO_SCALE))


def synthetic_boards(
    truth: list[float], boards: int, rng: random.Random
) -> tuple[list[tuple[int, int]], list[list[float]], list[list[float]]]:
    """Per-board scores of every pair (two independent games a board) under the model."""
    pair_list = [(a, b) for a in range(len(truth)) for b in range(a + 1, len(truth))]
    scores: list[list[float]] = []
    games: list[list[float]] = []
    for a, b in pair_list:
        p = win_probability(truth[a], truth[b])
        scores.append([float((rng.random() < p) + (rng.random() < p)) for _ in range(boards)])
        games.append([2.0] * boards)
    return pair_list, scores, games


def test_fit_recovers_exact_strengths_from_expected_scores() -> None:
    truth = [1300.0, 1450.0, 1550.0, 1700.0]
    n = len(truth)
    wins = [[1000 * win_probability(truth[i], truth[j]) if i != j else 0.0 for j in range(n)]
            for i in range(n)]
    for got, want in zip(elo(fit(wins, prior=0)), truth, strict=True):
        assert got == pytest.approx(want, abs=1e-6)


def test_ratings_are_centred_and_ordered() -> None:
    wins = [[0, 30, 45], [10, 0, 30], [5, 10, 0]]
    ratings = elo(fit(wins))
    assert math.fsum(ratings) / 3 == pytest.approx(MEAN_RATING)
    assert ratings[0] > ratings[1] > ratings[2]
    # The symmetric results put the middle bot exactly on the mean.
    assert ratings[1] == pytest.approx(MEAN_RATING)


def test_prior_keeps_a_clean_sweep_finite() -> None:
    a, b = elo(fit([[0, 40], [0, 0]]))
    # One virtual drawn game: 40.5 to 0.5.
    assert a - b == pytest.approx(400 * math.log10(40.5 / 0.5))


def test_fisher_covariance_matches_the_two_bot_formula() -> None:
    wins = [[0.0, 60.0], [40.0, 0.0]]
    thetas = fit(wins, prior=0)
    cov = fisher_covariance(wins, thetas, prior=0)
    # Var(θ0 - θ1) = 1 / (n p (1 - p)); each side carries a quarter of it.
    expected = 1 / (100 * 0.6 * 0.4) / 4
    assert cov[0][0] == pytest.approx(expected)
    assert cov[0][1] == pytest.approx(-expected)


def test_bradley_terry_recovers_known_strengths() -> None:
    truth = [1300.0, 1450.0, 1550.0, 1700.0]  # mean 1500, as the fit is anchored
    pair_list, scores, games = synthetic_boards(truth, boards=400, rng=random.Random(1))
    ratings = rate(len(truth), pair_list, scores, games, resamples=300, seed=4)
    for r, want in zip(ratings, truth, strict=True):
        assert abs(r.elo - want) < 4 * r.fisher_se
        assert r.low <= want <= r.high, (r, want)
        assert r.fisher_low <= want <= r.fisher_high, (r, want)
        assert r.low < r.elo < r.high
    assert [r.bot for r in sorted(ratings, key=lambda r: r.elo)] == [0, 1, 2, 3]


@pytest.mark.parametrize(("resamples", "repeats"), [(0, 150), (150, 40)])
def test_intervals_cover_the_true_ratings(resamples: int, repeats: int) -> None:
    """Over many synthetic arenas the 95% intervals hold the true rating about
    95% of the time (Fisher intervals, then bootstrap ones)."""
    truth = [1400.0, 1500.0, 1600.0]
    rng = random.Random(2024 + resamples)
    covered = total = 0
    for repeat in range(repeats):
        pair_list, scores, games = synthetic_boards(truth, boards=60, rng=rng)
        for r, want in zip(rate(3, pair_list, scores, games, resamples=resamples, seed=repeat),
                           truth, strict=True):
            covered += r.low <= want <= r.high
            total += 1
    assert 0.88 <= covered / total <= 1.0, covered / total


def test_bootstrap_is_seeded() -> None:
    pair_list, scores, games = synthetic_boards([1450.0, 1550.0], boards=50, rng=random.Random(3))
    first = rate(2, pair_list, scores, games, resamples=100, seed=9)
    assert first == rate(2, pair_list, scores, games, resamples=100, seed=9)
    assert first != rate(2, pair_list, scores, games, resamples=100, seed=10)


def test_fit_rejects_bad_tables() -> None:
    with pytest.raises(ValueError, match="square table"):
        fit([[0.0]])
    with pytest.raises(ValueError, match="prior"):
        fit([[0, 1], [1, 0]], prior=-1)
