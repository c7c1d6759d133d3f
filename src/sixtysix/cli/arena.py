"""``sixtysix arena BOT BOT [BOT ...]``: a duplicate round robin with ratings.

Every pair of bots plays the same deals, each deal twice with the seats
exchanged; the report gives win rates, game points per hand, duplicate
statistics and Bradley-Terry ratings on the Elo scale (see docs/arena.md).
Games run in worker processes (``--jobs``) or on a Dask cluster
(``--cluster``); the results never depend on how they were run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from sixtysix.arena import (
    ArenaSummary,
    GameResult,
    open_executor,
    render_rich,
    run_games,
    save_plot,
    schedule,
    summarize,
)
from sixtysix.bots import make_bot
from sixtysix.cli.options import (
    BOT_HELP,
    HelpFormatter,
    Renamed,
    at_least,
    check_output,
    default_jobs,
    deprecated,
    has_module,
)
from sixtysix.cli.progress import make_progress
from sixtysix.extras import install_command
from sixtysix.rules import Rules

__all__ = ["emit", "register", "run"]

#: Whose game engine an arena plays on (``--platform``): ours, or the course platform's.
PLATFORMS = ("sixtysix", "schnapsen")

class _Hands(argparse.Action):
    """``--hands N``: N deals per pair, played as single hands (as ``simulate --hands N``).

    The old switch, ``--hands`` with no number (the deals of ``--matches N`` played
    as single hands), still works and warns. Before the bots (``arena --hands A B``)
    the word after it is the first bot, not a number: it goes to :class:`_Bots`.
    """

    shown_metavar = "N"  # --help shows the new spelling only

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        if isinstance(values, str):
            try:
                setattr(namespace, self.dest, int(values))
                return
            except ValueError:
                pass
            if getattr(namespace, "bots", None) is not None or _is_number(values):
                raise argparse.ArgumentError(self, f"invalid int value: {values!r}")
            namespace.bots_before = [*namespace.bots_before, values]
        deprecated("--hands without a number is deprecated: write --hands N "
                   "(N deals per pair as single hands) instead of --matches N --hands")
        namespace.single_hands = True


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


class _Bots(argparse.Action):
    """The bots, with any read as the old switch ``--hands``'s word (:class:`_Hands`) first."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        assert isinstance(values, list)
        setattr(namespace, self.dest, [*namespace.bots_before, *values])


class _Json(argparse.Action):
    """``--json``: the JSON document on standard output instead of the report, as in
    ``simulate`` and ``replay``. The old ``--json OUT`` (a file; ``-`` for standard
    output) still works and warns: the file is now ``--save OUT``."""

    shown_metavar = ""  # --help shows a switch, the new spelling

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        if values is None:
            namespace.json = True
        elif values == "-":
            deprecated("--json - is deprecated: use --json alone for JSON on standard output")
            namespace.json = True
        else:
            assert isinstance(values, str)
            deprecated(f"--json OUT is deprecated: write the file with --save {values} "
                       "(--json alone prints the JSON on standard output)")
            namespace.save = values


def _json_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--json`` and ``--save FILE`` (shared with ``sixtysix report``); ``what`` is what they write."""
    parser.add_argument("--json", action=_Json, nargs="?", default=False,
                        help=f"print {what} as one JSON document on standard output, instead of the report")
    parser.add_argument("--save", metavar="RUN.json",
                        help=f"also write {what} as JSON to RUN.json (sixtysix report reads it back)")


def register(subparsers: Any) -> None:
    """Add the ``arena`` subcommand to the ``sixtysix`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "arena",
        formatter_class=HelpFormatter,
        help="a duplicate round robin between bots, with Bradley-Terry ratings",
        description="Play every pair of bots on the same seeded deals, each deal twice with the "
                    "seats exchanged, and report win rates with 95% intervals, game points per "
                    "hand, duplicate statistics and Bradley-Terry ratings on the Elo scale.",
        epilog=BOT_HELP,
    )
    parser.add_argument("bots", nargs="+", action=_Bots, metavar="BOT",
                        help="a bot (see BOT below), at least two")
    parser.add_argument("--matches", type=int, default=None, metavar="N",
                        help="deals per pair played as matches, each from both seats: 2N games per "
                             "pair (default 100)")
    parser.add_argument("--hands", action=_Hands, nargs="?", default=None, metavar="N",
                        help="deals per pair played as single hands instead, each from both seats: "
                             "2N games per pair")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the whole arena (default 0)")
    parser.add_argument("--jobs", type=int, default=None, metavar="J",
                        help="worker processes; 1 plays in this process (default: one per CPU, "
                             "divided by the processes one bot uses, e.g. 2 for expert)")
    parser.add_argument("--rules", default="classic", metavar="RULES",
                        help="preset and options, e.g. santase or classic,target=11")
    _json_options(parser, "the raw games and the summary")
    parser.add_argument("--plot", metavar="OUT.png",
                        help="draw the ratings with their intervals (needs matplotlib)")
    parser.add_argument("--cluster", metavar="ADDRESS",
                        help="run the games on a Dask cluster (tcp://host:port), or 'local' to start one")
    parser.add_argument("--bootstrap", type=int, default=1000, metavar="B",
                        help="bootstrap resamples for the rating intervals; 0 uses the Fisher information")
    parser.add_argument("--platform", choices=PLATFORMS, default="sixtysix",
                        help="whose game engine plays: ours, or the schnapsen course platform's (single "
                             "deals under its rules, the preset course; its bots are schnapsen:rand, "
                             "schnapsen:bully, schnapsen:rdeep, schnapsen:alphabeta; needs the "
                             f"schnapsen extra: {install_command('schnapsen')})")
    # The old name: --engine names an external program everywhere else (serve, engine:COMMAND).
    parser.add_argument("--engine", action=Renamed, new="--platform", dest="platform", choices=PLATFORMS)
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.set_defaults(bots_before=[], single_hands=False)
    parser.set_defaults(func=run)


def _describe_executor(jobs: int, cluster: str | None) -> str:
    if cluster == "local":
        return f"a local Dask cluster of {jobs} {'worker' if jobs == 1 else 'workers'}"
    if cluster is not None:
        return f"the Dask cluster at {cluster}"
    return "1 process" if jobs == 1 else f"{jobs} worker processes"


def to_json(summary: ArenaSummary, results: list[GameResult], run_info: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` document: the set-up, the summary, every game and how it was run."""
    return {
        "format": "sixtysix-arena/1",
        "bots": summary.specs,
        "labels": summary.labels,
        "rules": summary.rules,
        "seed": summary.seed,
        **({"seeds": list(summary.seeds)} if len(summary.seeds) > 1 else {}),
        "unit": summary.unit,
        "deals_per_pair": summary.deals,
        "summary": summary.to_json(),
        "games": [r.to_json() for r in results],
        "run": run_info,
    }


def _forfeits(results: list[GameResult]) -> list[str]:
    """A line per bot whose program forfeited hands (an external engine that failed)."""
    count: dict[str, int] = {}
    for result in results:
        for hand in result.hands:
            if hand.reason == "forfeit" and hand.winner is not None:
                spec = result.game.specs[1 - hand.winner]
                count[spec] = count.get(spec, 0) + 1
    return [f"Forfeits: {spec} lost {n} hand{'s' if n != 1 else ''} by forfeit (the log says why)."
            for spec, n in count.items()]


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; bad input raises :class:`ValueError` or :class:`OSError` (exit status 2)."""
    specs: list[str] = list(args.bots)
    if len(specs) < 2:
        raise ValueError(f"an arena needs at least two bots, not {len(specs)}")
    if args.hands is not None and args.matches is not None:
        raise ValueError("--matches N and --hands N are alternatives: give one of them")
    if args.hands is not None:
        deals = at_least(args.hands, "--hands", 1)
    else:
        deals = at_least(100 if args.matches is None else args.matches, "--matches", 1)
    seed: int = args.seed
    jobs = at_least(args.jobs, "--jobs", 1) if args.jobs is not None else None
    resamples = at_least(args.bootstrap, "--bootstrap", 0)
    engine: str = args.platform
    hands: bool = args.hands is not None or args.single_hands
    if engine == "schnapsen":
        rules, hands, processes = _course_setup(specs, args.rules)
    else:
        rules = Rules.parse(args.rules)
        # Unknown names and bad options fail here, not in a worker.
        processes = max(int(getattr(make_bot(spec, seed=0), "workers", 1)) for spec in specs)
    if jobs is None:
        # Bots that search on several cores get them: fewer games at once.
        jobs = default_jobs(processes)
    if args.plot is not None and not has_module("matplotlib"):
        raise ValueError(f"--plot needs matplotlib: {install_command('arena')}")
    check_output(args.save, "--save")
    check_output(args.plot, "--plot")
    cluster: str | None = args.cluster

    games = schedule(specs, deals=deals, seed=seed, hands=hands, rules=str(rules), engine=engine)
    unit = "hands" if hands else "matches"
    start = time.perf_counter()
    with open_executor(jobs, cluster) as executor:
        progress = make_progress(len(games), unit, args.quiet, "arena")
        try:
            results = run_games(games, executor, jobs=jobs, on_done=lambda done: progress.advance(len(done)))
        finally:
            progress.stop()
    seconds = time.perf_counter() - start

    summary = summarize(specs, results, rules=str(rules), seed=seed, unit=games[0].unit,
                        deals=deals, resamples=resamples)
    speed = f"{summary.hands / seconds:,.0f}" if seconds > 0 else "-"
    played = f"{summary.total_games:,} {unit}" + (f" ({summary.hands:,} hands)" if unit == "matches" else "")
    footer = (f"{played} in {seconds:.2f} s "
              f"on {_describe_executor(jobs, cluster)}: {speed} hands/s")
    if engine == "schnapsen":
        footer += "\nPlayed on the schnapsen package's engine (one deal a game, its rules: preset course)."
    run_info = {"jobs": jobs, "cluster": cluster, "seconds": round(seconds, 6), "engine": engine,
                "hands_per_second": round(summary.hands / seconds, 3) if seconds > 0 else None}
    emit(summary, results, run_info, footer, json_out="-" if args.json else None, plot=args.plot,
         save=args.save)
    return 0


def _course_setup(specs: list[str], rules_text: str) -> tuple[Rules, bool, int]:
    """Check an arena on the course platform's engine: the package is there, every
    spec is a bot of ours or of theirs, the rules are its own (preset ``course``).
    Returns the rules, single hands, and the most processes one bot uses."""
    if not has_module("schnapsen"):
        raise ValueError("--platform schnapsen needs the schnapsen package: "
                         + install_command("schnapsen"))
    from sixtysix.compat.schnapsen import course_bot, is_course_spec

    rules = Rules.parse(rules_text)
    if rules_text == "classic":
        rules = Rules.preset("course")  # the default: its rules
    if rules != Rules.preset("course"):
        raise ValueError(f"--platform schnapsen plays the platform's own rules (preset course), not {rules}")
    processes = 1
    for spec in specs:
        if is_course_spec(spec):
            course_bot(spec, seed=0)
        else:
            processes = max(processes, int(getattr(make_bot(spec, seed=0), "workers", 1)))
    return rules, True, processes


def emit(summary: ArenaSummary, results: list[GameResult], run_info: dict[str, Any], footer: str, *,
         json_out: str | None, plot: str | None, save: str | None = None) -> None:
    """Print the report, or with ``json_out="-"`` the JSON document instead; then write
    the document to ``save`` (``--save``; a ``json_out`` other than ``-`` is written
    as well, as the old ``--json OUT`` did) and the plot (shared with ``sixtysix report``)."""
    document = to_json(summary, results, run_info)
    if json_out == "-":
        print(json.dumps(document))
    else:
        if sys.stdout.isatty() and has_module("rich"):
            render_rich(summary, sys.stdout)
        else:
            print(summary.describe())
        print(footer)
        for line in _forfeits(results):
            print(line)
    for path in (None if json_out == "-" else json_out, save):
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                json.dump(document, f)
                f.write("\n")
    if plot is not None:
        save_plot(summary, plot)
