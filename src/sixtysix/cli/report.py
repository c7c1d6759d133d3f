"""``sixtysix report RUN.json [RUN.json ...]``: the report of saved arena runs, merged.

A long measurement can be played as several arena runs with different seeds
(``sixtysix arena ... --seed S --save run-S.json``), at different times or on
different machines; this command reports them as one arena: the same tables,
intervals and ratings as ``sixtysix arena`` prints, over all their games.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from sixtysix.arena import load_run, merge_runs, summarize
from sixtysix.cli.arena import _json_options, emit
from sixtysix.cli.options import HelpFormatter, at_least, check_output, has_module
from sixtysix.extras import install_command

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``report`` subcommand to the ``sixtysix`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "report",
        formatter_class=HelpFormatter,
        help="the report of saved arena runs (sixtysix arena --save), merged into one",
        description="Read arena runs saved with 'sixtysix arena ... --save RUN.json' and report them "
                    "as one arena: runs of the same bots, rules and unit with different seeds merge "
                    "(their deals are added up); a game played in two runs is refused.",
    )
    parser.add_argument("runs", nargs="+", metavar="RUN.json", help="a saved arena run")
    _json_options(parser, "the merged run")
    parser.add_argument("--plot", metavar="OUT.png",
                        help="draw the ratings with their intervals (needs matplotlib)")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="B",
                        help="bootstrap resamples for the rating intervals; 0 uses the Fisher information")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; bad input raises :class:`ValueError` or :class:`OSError` (exit status 2)."""
    resamples = at_least(args.bootstrap, "--bootstrap", 0)
    if args.plot is not None and not has_module("matplotlib"):
        raise ValueError(f"--plot needs matplotlib: {install_command('arena')}")
    check_output(args.save, "--save")
    check_output(args.plot, "--plot")
    runs = []
    for path in args.runs:
        with open(path, encoding="utf-8") as f:
            try:
                doc = json.load(f)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path} is not JSON: {exc}") from None
        runs.append(load_run(doc, path))
    merged = merge_runs(runs, args.runs)
    results = list(merged.results)
    summary = summarize(list(merged.specs), results, rules=merged.rules, seed=merged.seeds[0],
                        unit=merged.unit, deals=merged.deals, resamples=resamples, seeds=merged.seeds)
    run_info = {"merged": list(args.runs)}
    footer = f"{len(runs)} {'run' if len(runs) == 1 else 'runs'} merged: {', '.join(args.runs)}"
    emit(summary, results, run_info, footer, json_out="-" if args.json else None, plot=args.plot,
         save=args.save)
    return 0
