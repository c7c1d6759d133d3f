"""Sixty-six puzzles: positions with one best action, mined from games between our
players and checked by the exact solver (docs/puzzles.md).

* :mod:`~sixtysix.puzzles.puzzle`: the puzzle as a value, read from and written to JSON;
* :mod:`~sixtysix.puzzles.themes`: what a solution is about, from the kernel's facts;
* :mod:`~sixtysix.puzzles.verify`: a position solved in every world its player's view
  allows, and a puzzle's claims checked against that;
* :mod:`~sixtysix.puzzles.mine`: puzzles found in games between our players.
"""

from sixtysix.puzzles.puzzle import FORMAT, InvalidPuzzleError, Kind, Puzzle, dumps, loads, position_id
from sixtysix.puzzles.themes import Theme, classify
from sixtysix.puzzles.verify import Assessment, TooManyWorldsError, assess, check, principal_line

__all__ = ["FORMAT", "Assessment", "InvalidPuzzleError", "Kind", "Puzzle", "Theme", "TooManyWorldsError",
           "assess", "check", "classify", "dumps", "loads", "position_id", "principal_line"]
