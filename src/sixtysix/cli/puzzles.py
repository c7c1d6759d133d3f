"""``sixtysix puzzles mine``, ``verify``, ``calibrate`` and ``export``: find puzzles in
games between our players, check a file of them by solving each again, rate them by how
often the computer levels solve them, and write a set out as JSON lines or as a
lichess-style CSV (docs/puzzles.md).

A puzzle file holds one puzzle a line (JSON). ``mine --out FILE`` appends to it and
can be stopped and run again: it keeps the puzzles the file has, goes on from the seed
after the last one, and stops when the file holds ``--count`` puzzles. ``verify`` prints
one line for each puzzle whose claims do not hold (or that cannot be read) and exits
with status 2 if there is any. ``export`` writes the shipped set (or ``--from FILE``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import os
import resource
import sys
import time
from collections.abc import Iterator
from typing import IO, Any

from sixtysix.cli.errors import read_error
from sixtysix.puzzles.calibrate import calibrate_all
from sixtysix.puzzles.mine import PLAYERS, Miner, mine
from sixtysix.puzzles.puzzle import InvalidPuzzleError, Puzzle, dumps, read
from sixtysix.puzzles.shipped import shipped
from sixtysix.puzzles.themes import Theme
from sixtysix.puzzles.verify import DEFAULT_WORLDS, check
from sixtysix.rules import Rules

__all__ = ["CSV_COLUMNS", "register", "run_calibrate", "run_export", "run_mine", "run_verify"]

#: The columns of ``export --format csv`` (lichess's puzzle CSV, with a game record's
#: fields in place of its FEN).
CSV_COLUMNS = ("PuzzleId", "Rules", "Dealer", "Deck", "Actions", "Moves", "Rating", "RatingDeviation",
               "Themes", "Kind", "Value", "Margin", "Worlds")


def register(subparsers: Any) -> None:
    """Add the ``puzzles`` subcommand (with ``mine`` and ``verify``) to the parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "puzzles", help="mine puzzles from games between bots, and verify puzzle files",
        description="Puzzles: positions where one action is best whatever the hidden cards, "
                    "found by the exact solver (docs/puzzles.md).")
    sub = parser.add_subparsers(dest="puzzles_command", metavar="COMMAND", required=True)
    mine_parser = sub.add_parser(
        "mine", help="find puzzles in games between our players",
        description="Play seeded hands between our players and keep the positions where one "
                    "action is the only best one in every world the player's view allows, and "
                    "which one of the probes gets wrong. Resumable: with --out FILE it keeps "
                    "what FILE holds and goes on from the seed after its last puzzle.")
    mine_parser.add_argument("--count", type=int, required=True, metavar="N",
                             help="stop when there are N puzzles (in FILE, with --out)")
    mine_parser.add_argument("--seed", type=int, default=0, metavar="S",
                             help="the first seed (default 0; a file's last seed + 1 if later)")
    mine_parser.add_argument("--out", metavar="FILE",
                             help="append the puzzles to FILE (default: standard output)")
    mine_parser.add_argument("--jobs", type=int, default=1, metavar="J",
                             help="processes (default 1); the puzzles are the same for any J")
    mine_parser.add_argument("--margin", type=int, default=1, metavar="M",
                             help="game points by which the solution beats every other action "
                                  "in every world (default 1)")
    mine_parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, metavar="W",
                             help=f"the most worlds a position may allow (default {DEFAULT_WORLDS})")
    mine_parser.add_argument("--rules", default="classic", metavar="RULES",
                             help="preset and options (default classic)")
    mine_parser.add_argument("--players", metavar="A,B",
                             help=f"the two players whose games are mined (default {','.join(PLAYERS)})")
    mine_parser.add_argument("--themes", metavar="T,U",
                             help="keep only puzzles with one of these themes (to aim at rare ones)")
    mine_parser.set_defaults(func=run_mine)
    verify_parser = sub.add_parser(
        "verify", help="solve every puzzle of a file again and check its claims",
        description="Solve each puzzle's position again in every world its player's view "
                    "allows and check that exactly the stated first action is best by the "
                    "stated margin, the stated line is best play and the themes are the "
                    "classifier's. One line per bad puzzle; exit status 2 if there is any.")
    verify_parser.add_argument("file", metavar="FILE",
                               help="a puzzle file (JSON lines), - for standard input")
    verify_parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, metavar="W",
                               help=f"the most worlds a position may allow (default {DEFAULT_WORLDS})")
    verify_parser.set_defaults(func=run_verify)
    calibrate_parser = sub.add_parser(
        "calibrate", help="rate puzzles by how often the computer levels solve them",
        description="Let the computer levels (easy three times, medium, hard, expert) try each "
                    "puzzle of FILE from the player's view, and write the puzzles with their "
                    "attempts and the Glicko-2 rating these give (docs/puzzles.md).")
    calibrate_parser.add_argument("file", metavar="FILE", help="a puzzle file (JSON lines)")
    calibrate_parser.add_argument("--out", metavar="FILE", required=True,
                                  help="write the calibrated puzzles to FILE")
    calibrate_parser.add_argument("--jobs", type=int, default=1, metavar="J", help="processes (default 1)")
    calibrate_parser.set_defaults(func=run_calibrate)
    export_parser = sub.add_parser(
        "export", help="write the shipped puzzles as JSON lines or a lichess-style CSV",
        description="Write the shipped puzzle set (or the puzzles of --from FILE) to standard "
                    "output or --out FILE, as JSON lines in the documented format "
                    "(sixtysix-puzzle/1) or as a CSV with lichess's columns.")
    export_parser.add_argument("--format", choices=("json", "csv"), default="json",
                               help="json: one puzzle a line (default); csv: one row a puzzle")
    export_parser.add_argument("--from", dest="source", metavar="FILE",
                               help="a puzzle file instead of the shipped set")
    export_parser.add_argument("--out", metavar="FILE", help="the file to write (default: standard output)")
    export_parser.set_defaults(func=run_export)


@contextlib.contextmanager
def _open(name: str, mode: str) -> Iterator[IO[str]]:
    if name == "-" and mode == "r":
        yield sys.stdin
        return
    try:
        fp = open(name, mode, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise ValueError(read_error(name, exc)) from None
    with fp:
        yield fp


def _kept(name: str) -> tuple[set[str], int | None]:
    """The ids of the puzzles in file ``name`` and the last seed mined (none: no file)."""
    if not os.path.exists(name):
        return set(), None
    ids: set[str] = set()
    last: int | None = None
    with _open(name, "r") as fp:
        for number, item in read(fp):
            if isinstance(item, InvalidPuzzleError):
                raise ValueError(f"{name}, line {number}: {item}")
            ids.add(item.id)
            if item.seed is not None:
                last = item.seed if last is None else max(last, item.seed)
    return ids, last


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_mine(args: argparse.Namespace) -> int:
    """Mine puzzles (see the module text); errors raise :class:`ValueError` (status 2)."""
    if args.count < 1:
        raise ValueError(f"--count must be at least 1, not {args.count}")
    if args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
    if not 1 <= args.margin <= 6:
        raise ValueError(f"--margin must be from 1 to 6, not {args.margin}")
    if args.worlds < 1:
        raise ValueError(f"--worlds must be at least 1, not {args.worlds}")
    players = tuple(args.players.split(",")) if args.players else PLAYERS
    if len(players) != 2:
        raise ValueError(f"--players names two players, not {args.players!r}")
    try:
        themes = frozenset(Theme(t) for t in args.themes.split(",")) if args.themes else frozenset()
    except ValueError:
        raise ValueError(f"--themes: {args.themes!r} names an unknown theme "
                         f"(known: {', '.join(Theme)})") from None
    miner = Miner(margin=args.margin, limit=args.worlds, rules=Rules.parse(args.rules),
                  players=(players[0], players[1]), themes=themes)
    ids, last = _kept(args.out) if args.out else (set(), None)
    start = args.seed if last is None else max(args.seed, last + 1)
    have = len(ids)
    if have >= args.count:
        print(f"{args.out} holds {have:,} puzzles already", file=sys.stderr)
        return 0
    began, cpu, seed = time.monotonic(), _cpu(), start
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(_open(args.out, "a")) if args.out else sys.stdout
        found = mine(start, miner, args.jobs)
        stack.callback(found.close)
        for puzzle in found:
            if puzzle.id in ids:
                continue
            ids.add(puzzle.id)
            seed = puzzle.seed if puzzle.seed is not None else seed
            out.write(dumps(puzzle) + "\n")
            out.flush()
            have += 1
            _progress(have, args.count, puzzle, began)
            if have >= args.count:
                break
    print(f"{have:,} puzzles; seeds {start}-{seed}; {time.monotonic() - began:.1f} s, "
          f"CPU {_cpu() - cpu:.1f} s", file=sys.stderr)
    return 0


def _progress(have: int, count: int, puzzle: Puzzle, began: float) -> None:
    themes = " ".join(puzzle.themes) or "-"
    print(f"{have:,}/{count:,} seed {puzzle.seed} {puzzle.kind} {puzzle.first} "
          f"(margin {puzzle.margin}, {themes}) {time.monotonic() - began:.0f} s", file=sys.stderr)


def run_verify(args: argparse.Namespace) -> int:
    """Verify a puzzle file: one line per bad puzzle on standard error, status 2 if any."""
    name = "standard input" if args.file == "-" else args.file
    good = bad = 0
    with _open(args.file, "r") as fp:
        for number, item in read(fp):
            if isinstance(item, InvalidPuzzleError):
                problems, label = [str(item)], f"line {number}"
            else:
                problems, label = check(item, args.worlds), f"line {number} ({item.id})"
            if problems:
                bad += 1
                print(f"sixtysix: error: {name}, {label}: {'; '.join(problems)}", file=sys.stderr)
            else:
                good += 1
    print(f"{good} puzzles verified, {bad} wrong")
    return 2 if bad else 0


def _puzzles_of(name: str) -> list[Puzzle]:
    """Every puzzle of file ``name``; a line that is not one is an error (ValueError)."""
    found = []
    with _open(name, "r") as fp:
        for number, item in read(fp):
            if isinstance(item, InvalidPuzzleError):
                raise ValueError(f"{name}, line {number}: {item}")
            found.append(item)
    return found


def run_calibrate(args: argparse.Namespace) -> int:
    """Calibrate a puzzle file (see the module text)."""
    if args.jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {args.jobs}")
    puzzles = _puzzles_of(args.file)
    began = time.monotonic()
    with _open(args.out, "w") as out:
        for n, puzzle in enumerate(calibrate_all(puzzles, args.jobs), 1):
            out.write(dumps(puzzle) + "\n")
            if n % 100 == 0:
                print(f"{n}/{len(puzzles)} {time.monotonic() - began:.0f} s", file=sys.stderr)
    print(f"{len(puzzles)} puzzles calibrated; {time.monotonic() - began:.1f} s", file=sys.stderr)
    return 0


def csv_row(puzzle: Puzzle) -> list[str]:
    """The row of ``puzzle`` under :data:`CSV_COLUMNS`."""
    record = puzzle.record.to_json()
    rating = puzzle.rating
    # The rules in their text form (``classic,enforce_follow=false``), as --rules takes them.
    return [puzzle.id, str(puzzle.record.rules), str(record.get("dealer", "")),
            str(record.get("deck", "")),
            " ".join(record.get("actions", [])), " ".join(str(a) for a in puzzle.solution),
            "" if rating is None else f"{rating.rating:.0f}",
            "" if rating is None else f"{rating.deviation:.0f}",
            " ".join(puzzle.themes), str(puzzle.kind), str(puzzle.value), str(puzzle.margin),
            str(puzzle.worlds)]


def run_export(args: argparse.Namespace) -> int:
    """Export puzzles (see the module text)."""
    puzzles = _puzzles_of(args.source) if args.source else list(shipped())
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(_open(args.out, "w")) if args.out else sys.stdout
        if args.format == "csv":
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(CSV_COLUMNS)
            writer.writerows(csv_row(p) for p in puzzles)
        else:
            out.writelines(dumps(p) + "\n" for p in puzzles)
    return 0
