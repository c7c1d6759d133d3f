"""``sixtysix replay``: check game records and print their results.

One file: a description for people, or with ``--json`` the result object.
Several files, or ``-`` (JSON Lines on standard input): one JSON line per
record, in order; a record that cannot be replayed gives ``{"error": ...}``
on its line and the exit status becomes 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from sixtysix.errors import InvalidRecordError
from sixtysix.record import load, loads, replay

__all__ = ["register", "run"]

STDIN = "-"


def register(subparsers: Any) -> None:
    """Add the ``replay`` subcommand to the ``sixtysix`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="check game records and print their results",
        description=(
            "Replay game records (format sixtysix/1), checking every action, and print the "
            "result. With several files, or '-' for JSON Lines on standard input, print one "
            "JSON line per record; an invalid record prints {\"error\": ...} on its line."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="a record file; '-' reads one record per line from standard input")
    parser.add_argument("--json", action="store_true",
                        help="print the result as one JSON object (always so for several records)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit status (2 if any record is invalid)."""
    files: list[str] = args.files
    if len(files) == 1 and files[0] != STDIN:
        return _single(files[0], as_json=args.json)
    return _bulk(files)


def _read_error(name: str, exc: OSError) -> str:
    return f"cannot read {name}: {exc.strerror or exc}"


def _single(name: str, *, as_json: bool) -> int:
    try:
        outcome = replay(load(name))
    except OSError as exc:
        print(f"sixtysix: error: {_read_error(name, exc)}", file=sys.stderr)
        return 2
    except InvalidRecordError as exc:
        print(f"sixtysix: error: {name}: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(outcome.to_json()))
    else:
        print(outcome.describe())
    return 0


def _records(files: Iterable[str]) -> Iterator[bytes | str]:
    """The text of each record, in order; a file that cannot be read yields its message
    as an ``str`` (records are ``bytes``)."""
    for name in files:
        if name == STDIN:
            for line in sys.stdin.buffer:
                if line.strip():
                    yield line
            continue
        try:
            with open(name, "rb") as fp:
                yield fp.read()
        except OSError as exc:
            yield _read_error(name, exc)


def _bulk(files: Iterable[str]) -> int:
    status = 0
    out = sys.stdout
    dumps = json.dumps
    for text in _records(files):
        if isinstance(text, str):
            line = dumps({"error": text})
            status = 2
        else:
            try:
                line = dumps(replay(loads(text)).to_json())
            except InvalidRecordError as exc:
                line = dumps({"error": str(exc)})
                status = 2
        out.write(line + "\n")
        out.flush()  # results go out as records come in (a driving program may wait)
    return status
