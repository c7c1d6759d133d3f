"""Puzzle ratings: every puzzle and every solver has a Glicko-2 rating
(:mod:`sixtysix.measure.glicko`), and an attempt is a game between them, as on lichess.

Solving the puzzle is a win for the player and a loss for the puzzle; failing it the
other way round. Both ratings are updated at once, each against the other's rating as
it was before the attempt (a rating period of one game). A new player starts at 1500
with a deviation of 350; a puzzle starts at its calibrated rating
(:mod:`sixtysix.puzzles.calibrate`: how often the computer levels solve it), whose
opponents are the levels' fixed ratings (``level_ratings.json``, the server's).

>>> player, puzzle = attempt(Rating(), Rating(1500, 350), solved=True)
>>> round(player.rating), round(puzzle.rating)
(1662, 1338)

Puzzles are served near the player's rating (:func:`nearest`), and the daily puzzle is
the same for everyone on a day (:func:`daily`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources

from sixtysix.measure.glicko import DEFAULT_VOLATILITY, Rating
from sixtysix.puzzles.puzzle import Puzzle
from sixtysix.puzzles.themes import Theme

__all__ = ["CALIBRATION_LEVELS", "NEAREST", "UNRATED", "attempt", "calibrated", "daily", "level_ratings",
           "nearest"]

#: The computer levels that try every shipped puzzle before any person has, weakest first
#: (``easy`` plays a third of its cards at random, so it tries three times).
CALIBRATION_LEVELS = ("easy", "easy", "easy", "medium", "hard", "expert")
#: A puzzle's rating before calibration, and a new player's: Glicko-2's newcomer.
UNRATED = Rating()
#: How many of the nearest puzzles :func:`nearest` chooses from.
NEAREST = 12


def level_ratings() -> dict[str, Rating]:
    """The computer levels' fixed ratings, read from the server's ``level_ratings.json``
    (the one place they are written; fitted from arena runs, medium at 1500).

    >>> ratings = level_ratings()
    >>> ratings["easy"].rating < ratings["medium"].rating == 1500 < ratings["expert"].rating
    True
    """
    text = resources.files("sixtysix").joinpath("server", "level_ratings.json").read_text("utf-8")
    return {name: Rating(entry["rating"], entry["deviation"], DEFAULT_VOLATILITY)
            for name, entry in json.loads(text)["ratings"].items()}


def attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt (module text)."""
    score = 1.0 if solved else 0.0
    return player.update([(puzzle, score)]), puzzle.update([(player, 1.0 - score)])


def calibrated(attempts: Iterable[tuple[str, bool]], levels: Mapping[str, Rating] | None = None) -> Rating:
    """A puzzle's first rating: the newcomer's rating updated by one rating period of
    games against the computer levels, each attempt a loss for the puzzle when the level
    solved it and a win when it did not. Rounded as a puzzle file writes it.

    >>> easy_for_all = calibrated([("easy", True), ("medium", True), ("expert", True)])
    >>> hard_for_all = calibrated([("easy", False), ("medium", False), ("expert", False)])
    >>> easy_for_all.rating < 1500 < hard_for_all.rating
    True
    """
    known = level_ratings() if levels is None else levels
    after = UNRATED.update([(known[level], 0.0 if solved else 1.0) for level, solved in attempts])
    return Rating(round(after.rating, 1), round(after.deviation, 1), round(after.volatility, 6))


def nearest(puzzles: Sequence[Puzzle], player: Rating, rng: random.Random, *,
            theme: Theme | None = None, done: Callable[[str], bool] = lambda _: False,
            rating_of: Callable[[Puzzle], Rating] | None = None) -> Puzzle | None:
    """A puzzle near ``player``'s rating: one of the :data:`NEAREST` puzzles (of
    ``theme``, if given, and not ``done`` by the player) whose ratings are closest to
    his, drawn with ``rng``. ``rating_of`` gives a puzzle's current rating (default:
    its calibrated one). None when no puzzle is left."""
    current = rating_of if rating_of is not None else _shipped_rating
    left = [p for p in puzzles if (theme is None or theme in p.themes) and not done(p.id)]
    if not left:
        return None
    left.sort(key=lambda p: (abs(current(p).rating - player.rating), p.id))
    return rng.choice(left[:NEAREST])


def _shipped_rating(puzzle: Puzzle) -> Rating:
    return puzzle.rating if puzzle.rating is not None else UNRATED


def daily(puzzles: Sequence[Puzzle], day: dt.date) -> Puzzle:
    """The puzzle of ``day``: the same for everyone, from the puzzles with a theme,
    chosen by the SHA-256 of the date (so no day depends on the order of the file).

    >>> from sixtysix.puzzles.shipped import shipped
    >>> daily(shipped(), dt.date(2026, 12, 24)) == daily(list(reversed(shipped())), dt.date(2026, 12, 24))
    True
    """
    themed = sorted((p for p in puzzles if p.themes), key=lambda p: p.id)
    themed = themed or sorted(puzzles, key=lambda p: p.id)
    if not themed:
        raise ValueError("there is no puzzle to choose from")
    digest = hashlib.sha256(f"sixtysix daily puzzle {day.isoformat()}".encode()).digest()
    return themed[int.from_bytes(digest[:8], "big") % len(themed)]
