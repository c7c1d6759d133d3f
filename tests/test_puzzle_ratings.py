"""Puzzle ratings (sixtysix.puzzles.rating, calibrate): an attempt is a Glicko-2 game
between the solver and the puzzle, checked against an oracle written again from
Glickman's paper (tests/glicko_oracle.py, itself checked on the paper's worked example);
the calibration of the shipped set; puzzles served near a rating; the daily puzzle."""

from __future__ import annotations

import datetime as dt
import json
import math
import random
from importlib import resources

import pytest

from glicko_oracle import glicko2
from sixtysix.measure.glicko import Rating
from sixtysix.puzzles.calibrate import calibrate, tries
from sixtysix.puzzles.puzzle import dumps, loads
from sixtysix.puzzles.rating import (
    CALIBRATION_LEVELS,
    NEAREST,
    attempt,
    calibrated,
    daily,
    level_ratings,
    nearest,
)
from sixtysix.puzzles.shipped import shipped
from sixtysix.puzzles.themes import Theme


def test_the_oracle_gives_the_papers_worked_example() -> None:
    # Glickman (2013): 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300, τ 0.5.
    r, rd, sigma = glicko2(1500, 200, 0.06, [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)])
    assert math.isclose(r, 1464.06, abs_tol=0.02)
    assert math.isclose(rd, 151.52, abs_tol=0.01)
    assert math.isclose(sigma, 0.05999, abs_tol=1e-5)


@pytest.mark.parametrize(("player", "puzzle", "solved"), [
    (Rating(), Rating(), True),
    (Rating(1500, 350, 0.06), Rating(1200, 80, 0.06), False),
    (Rating(1712.5, 64.2, 0.059), Rating(1850, 120, 0.061), True),
    (Rating(1300, 45, 0.06), Rating(900, 200, 0.06), False),
])
def test_an_attempt_is_one_game_for_both_as_the_paper_computes_it(player: Rating, puzzle: Rating,
                                                                 solved: bool) -> None:
    after_player, after_puzzle = attempt(player, puzzle, solved)
    score = 1.0 if solved else 0.0
    want_player = glicko2(player.rating, player.deviation, player.volatility,
                          [(puzzle.rating, puzzle.deviation, score)])
    want_puzzle = glicko2(puzzle.rating, puzzle.deviation, puzzle.volatility,
                          [(player.rating, player.deviation, 1.0 - score)])
    for got, want in ((after_player, want_player), (after_puzzle, want_puzzle)):
        assert got.rating == pytest.approx(want[0], abs=1e-3)
        assert got.deviation == pytest.approx(want[1], abs=1e-3)
        assert got.volatility == pytest.approx(want[2], abs=1e-6)
    assert (after_player.rating > player.rating) is solved
    assert (after_puzzle.rating < puzzle.rating) is solved


def test_the_level_ratings_are_the_servers_file() -> None:
    text = resources.files("sixtysix").joinpath("server", "level_ratings.json").read_text("utf-8")
    written = json.loads(text)["ratings"]
    assert {name: (r.rating, r.deviation) for name, r in level_ratings().items()} == \
        {name: (e["rating"], e["deviation"]) for name, e in written.items()}
    assert set(CALIBRATION_LEVELS) <= set(written)


def test_a_calibrated_rating_is_one_period_of_games_against_the_levels() -> None:
    levels = level_ratings()
    attempts = [("easy", True), ("easy", False), ("medium", False), ("hard", True), ("expert", False)]
    got = calibrated(attempts)
    want = glicko2(1500, 350, 0.06, [(levels[name].rating, levels[name].deviation, 0.0 if solved else 1.0)
                                     for name, solved in attempts])
    assert (got.rating, got.deviation, got.volatility) == \
        (round(want[0], 1), round(want[1], 1), round(want[2], 6))


def test_the_shipped_set_is_calibrated_as_its_attempts_say() -> None:
    puzzles = shipped()
    for puzzle in puzzles:
        assert [level for level, _ in puzzle.calibration] == list(CALIBRATION_LEVELS), puzzle.id
        assert puzzle.rating == calibrated(puzzle.calibration), puzzle.id
        assert loads(dumps(puzzle)) == puzzle
    # What no level solves is rated above what every level solves.
    hardest = [p.rating.rating for p in puzzles if p.rating and not any(s for _, s in p.calibration)]
    easiest = [p.rating.rating for p in puzzles if p.rating and all(s for _, s in p.calibration)]
    assert hardest and easiest and min(hardest) > max(easiest)


def test_calibration_asks_each_level_from_the_players_view() -> None:
    # medium (the heuristic player) is seeded and searches nothing by time: its attempt is
    # the same every time, and it is what the shipped file says.
    puzzle = next(p for p in shipped() if p.kind == "open")
    ((level, solved),) = tries(puzzle, ("medium",))
    assert level == "medium" and solved == dict(puzzle.calibration)["medium"]
    again = calibrate(puzzle, ("medium", "easy"))
    assert again.calibration[0] == ("medium", solved) and again.rating == calibrated(again.calibration)


def test_puzzles_are_served_near_the_players_rating() -> None:
    puzzles = shipped()
    rng = random.Random(5)
    for target in (900.0, 1400.0, 1900.0):
        distances = sorted(abs(p.rating.rating - target) for p in puzzles if p.rating)
        chosen = nearest(puzzles, Rating(target), rng)
        assert chosen is not None and chosen.rating is not None
        assert abs(chosen.rating.rating - target) <= distances[NEAREST - 1]
    declare = nearest(puzzles, Rating(), rng, theme=Theme.TIE)
    assert declare is not None and Theme.TIE in declare.themes
    tried = {p.id for p in puzzles[:-1]}
    assert nearest(puzzles, Rating(), rng, done=tried.__contains__) == puzzles[-1]
    assert nearest(puzzles, Rating(), rng, done=lambda _: True) is None


def test_the_daily_puzzle_is_one_a_day_whatever_the_order() -> None:
    puzzles = shipped()
    days = [dt.date(2027, 1, 1) + dt.timedelta(days=n) for n in range(30)]
    chosen = [daily(puzzles, day) for day in days]
    assert chosen == [daily(tuple(reversed(puzzles)), day) for day in days]
    assert all(p.themes for p in chosen)
    assert len({p.id for p in chosen}) > 20  # not the same puzzle every day
