"""A puzzle's first rating, before any person has tried it: the computer levels try it
(:data:`~sixtysix.puzzles.rating.CALIBRATION_LEVELS`, easy to expert, each from the
player's view alone), and the attempts rate it as games against their fixed ratings
(:func:`sixtysix.puzzles.rating.calibrated`).

A level solves the puzzle when it chooses the solution's first action: that is what the
puzzle claims to be the only best one (docs/puzzles.md). Each level is seeded from the
puzzle's id; ``hard`` and ``expert`` search for a time, so a second calibration may
differ in a few attempts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from sixtysix.bots import make_bot
from sixtysix.puzzles.puzzle import Puzzle
from sixtysix.puzzles.rating import CALIBRATION_LEVELS, calibrated

__all__ = ["calibrate", "calibrate_all", "tries"]


def tries(puzzle: Puzzle, levels: Sequence[str] = CALIBRATION_LEVELS) -> tuple[tuple[str, bool], ...]:
    """Each level's attempt at ``puzzle``: the level and whether it chose the solution."""
    position = puzzle.position()
    view = position.view(position.to_act)  # type: ignore[arg-type]
    base = int(puzzle.id[:8], 16) if all(c in "0123456789abcdef" for c in puzzle.id[:8]) else 0
    found = []
    for n, level in enumerate(levels):
        bot = make_bot(level, seed=base + n)
        found.append((level, bot.choose(view, view.legal) == puzzle.first))
    return tuple(found)


def calibrate(puzzle: Puzzle, levels: Sequence[str] = CALIBRATION_LEVELS) -> Puzzle:
    """``puzzle`` with its calibration's attempts and the rating they give."""
    attempts = tries(puzzle, levels)
    return replace(puzzle, calibration=attempts, rating=calibrated(attempts))


def _one(puzzle: Puzzle) -> Puzzle:
    return calibrate(puzzle)


def calibrate_all(puzzles: Iterable[Puzzle], jobs: int = 1) -> Iterator[Puzzle]:
    """Every puzzle calibrated, in the given order, with ``jobs`` processes."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs == 1:
        yield from map(_one, puzzles)
        return
    with ProcessPoolExecutor(jobs) as pool:
        yield from pool.map(_one, puzzles, chunksize=4)
