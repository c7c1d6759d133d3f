"""Saved arena runs (``sixtysix arena --save RUN.json``): read back, and merged.

A long measurement can be split into runs with different seeds, played at
different times or on different machines, each saved with ``--save``; merged,
they are reported as one arena (``sixtysix report RUN.json [RUN.json ...]``).
Runs merge when they have the same bots in the same order, the same rules and
the same unit (matches or hands); the deals of each run keep their own numbers
after those of the runs before it, and a game played twice (the same deal,
seating and pair in two runs: the same seed used twice) is refused.

>>> from sixtysix.arena import open_executor, run_games, schedule
>>> def saved(seed):
...     games = schedule(["heuristic", "random"], deals=2, seed=seed, hands=True)
...     with open_executor(1) as executor:
...         results = run_games(games, executor)
...     return {"format": "sixtysix-arena/1", "bots": ["heuristic", "random"], "rules": "classic",
...             "seed": seed, "unit": "hand", "deals_per_pair": 2,
...             "games": [r.to_json() for r in results]}
>>> run = merge_runs([load_run(saved(1)), load_run(saved(2))])
>>> run.deals, len(run.results), run.seeds
(4, 8, (1, 2))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from sixtysix.arena.executor import GameResult

__all__ = ["FORMAT", "Run", "load_run", "merge_runs"]

#: The ``format`` of an arena's ``--json`` document.
FORMAT = "sixtysix-arena/1"


@dataclass(frozen=True)
class Run:
    """The games of one arena run (or of several merged)."""

    specs: tuple[str, ...]
    rules: str
    unit: str  # "match" or "hand"
    deals: int
    seeds: tuple[int, ...]
    results: tuple[GameResult, ...]


def load_run(doc: Any, name: str = "the run") -> Run:
    """A run from its ``--json`` document; a document that is not one raises
    :class:`ValueError` naming ``name`` and what is wrong."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"{name} is not an arena run (its format is not {FORMAT})")
    try:
        unit = str(doc["unit"])
        rules = str(doc["rules"])
        if unit not in ("match", "hand"):
            raise ValueError(f"unknown unit {unit!r}")
        results = tuple(GameResult.from_json(g, unit=unit, rules=rules) for g in doc["games"])
        run = Run(specs=tuple(str(s) for s in doc["bots"]), rules=rules, unit=unit,
                  deals=int(doc["deals_per_pair"]),
                  seeds=tuple(int(x) for x in doc.get("seeds") or [doc["seed"]]), results=results)
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise ValueError(f"{name} is not a readable arena run: {exc!r}") from None
    for result in run.results:
        game = result.game
        if not 0 <= game.board < run.deals or any(not 0 <= b < len(run.specs) for b in game.bots) or \
                tuple(run.specs[b] for b in game.bots) != game.specs:
            raise ValueError(f"{name}: game {game.to_json()} does not fit the run's bots and deals")
    if not run.results:
        raise ValueError(f"{name} holds no games")
    return run


def merge_runs(runs: Sequence[Run], names: Sequence[str] | None = None) -> Run:
    """One run of all ``runs`` (see the module documentation)."""
    if not runs:
        raise ValueError("no runs to merge")
    names = list(names) if names is not None else [f"run {i + 1}" for i in range(len(runs))]
    first = runs[0]
    seen: dict[tuple[int, int, int], str] = {}
    results: list[GameResult] = []
    offset = 0
    for run, name in zip(runs, names, strict=True):
        for what, mine, theirs in (("bots", run.specs, first.specs), ("rules", run.rules, first.rules),
                                   ("unit", run.unit, first.unit)):
            if mine != theirs:
                raise ValueError(f"{name} has other {what} than {names[0]}: {mine} against {theirs}")
        for result in run.results:
            game = result.game
            key = (game.pair, game.swap, game.deal_seed)
            if key in seen:
                raise ValueError(f"{name} plays a game of {seen[key]} again (the same seed used twice?)")
            seen[key] = name
            results.append(replace(result, game=replace(game, board=game.board + offset)))
        offset += run.deals
    return Run(specs=first.specs, rules=first.rules, unit=first.unit, deals=offset,
               seeds=tuple(s for run in runs for s in run.seeds), results=tuple(results))
