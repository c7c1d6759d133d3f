"""The puzzles shipped in the package: a gzip-compressed puzzle file (JSON lines,
docs/puzzles.md), mined by ``sixtysix puzzles mine``, each calibrated
(:mod:`sixtysix.puzzles.calibrate`) and all of them verified in CI.

>>> puzzles = shipped()
>>> len(puzzles) >= 2000 and all(p.rating is not None for p in puzzles)
True
>>> by_id(puzzles[0].id) == puzzles[0]
True
"""

from __future__ import annotations

import functools
import gzip
import io
from importlib import resources

from sixtysix.puzzles.puzzle import InvalidPuzzleError, Puzzle, read

__all__ = ["SHIPPED", "by_id", "shipped"]

#: The shipped file, in the package ``sixtysix.puzzles``.
SHIPPED = "puzzles.jsonl.gz"


@functools.cache
def shipped() -> tuple[Puzzle, ...]:
    """The shipped puzzles, in the file's order."""
    data = resources.files("sixtysix.puzzles").joinpath(SHIPPED).read_bytes()
    puzzles = []
    with io.TextIOWrapper(gzip.GzipFile(fileobj=io.BytesIO(data)), encoding="utf-8") as fp:
        for number, item in read(fp):
            if isinstance(item, InvalidPuzzleError):
                raise InvalidPuzzleError(f"{SHIPPED}, line {number}: {item}")
            puzzles.append(item)
    return tuple(puzzles)


@functools.cache
def _index() -> dict[str, Puzzle]:
    return {p.id: p for p in shipped()}


def by_id(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle ``puzzle_id``, if there is one."""
    return _index().get(puzzle_id)
