"""Arenas: duplicate round robins between bots, with ratings.

* :mod:`~sixtysix.arena.schedule` lists the games and their seeds;
* :mod:`~sixtysix.arena.executor` plays them on an executor (in process,
  worker processes or a Dask cluster);
* :mod:`~sixtysix.arena.ratings` fits Bradley-Terry ratings on the Elo scale;
* :mod:`~sixtysix.arena.report` summarizes, prints, and draws;
* :mod:`~sixtysix.arena.runs` reads saved runs back and merges them.

The package needs only the standard library; ``rich`` (tables, progress),
``matplotlib`` (``--plot``) and ``distributed`` (``--cluster``) are used
when installed (extras ``arena`` and ``cluster``).

>>> games = schedule(["heuristic", "random"], deals=2, seed=5)
>>> with open_executor(1) as executor:
...     results = run_games(games, executor)
>>> summary = summarize(["heuristic", "random"], results, rules="classic", seed=5,
...                     unit="match", deals=2, resamples=50)
>>> summary.total_games, [p.games for p in summary.pairs]
(4, [4])
"""

from sixtysix.arena.executor import (
    GameResult,
    HandOutcome,
    InlineExecutor,
    open_executor,
    play_game,
    play_games,
    run_games,
)
from sixtysix.arena.ratings import Rating, fit, rate
from sixtysix.arena.report import (
    ArenaSummary,
    PairSummary,
    points_per_hand,
    render_rich,
    render_text,
    save_plot,
    summarize,
)
from sixtysix.arena.runs import Run, load_run, merge_runs
from sixtysix.arena.schedule import Game, derive_seed, pairs, schedule

__all__ = [
    "ArenaSummary",
    "Game",
    "GameResult",
    "HandOutcome",
    "InlineExecutor",
    "PairSummary",
    "Rating",
    "Run",
    "derive_seed",
    "fit",
    "load_run",
    "merge_runs",
    "points_per_hand",
    "open_executor",
    "pairs",
    "play_game",
    "play_games",
    "rate",
    "render_rich",
    "render_text",
    "run_games",
    "save_plot",
    "schedule",
    "summarize",
]
