"""``sixtysix replay``: check game records and print their results.

One file: a description for people, or with ``--json`` the result object.
Several files, or ``-`` (JSON Lines on standard input): one JSON line per
record, in order; a record that cannot be replayed gives ``{"error": ...}``
on its line, naming the file (or the line of standard input), and the exit
status becomes 2; the records after it are still replayed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from sixtysix.cli.errors import read_error
from sixtysix.errors import InvalidRecordError
from sixtysix.game.record import MAX_RECORD_BYTES, load, loads, read_limited, replay

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
                        help="print the result as one JSON object on standard output, instead of the "
                             "summary (always so for several records)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the command; returns the exit status (2 if any record is invalid)."""
    files: list[str] = args.files
    if len(files) == 1 and files[0] != STDIN:
        return _single(files[0], as_json=args.json)
    return _bulk(files)


_read_error = read_error  # the name this module used

def _single(name: str, *, as_json: bool) -> int:
    try:
        record = load(name)
        outcome = replay(record)
    except OSError as exc:
        print(f"sixtysix: error: {_read_error(name, exc)}", file=sys.stderr)
        return 2
    except InvalidRecordError as exc:
        print(f"sixtysix: error: {name}: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(outcome.to_json()))
    else:
        players = record.extra.get("players")  # checked by load: two names, when given
        print(outcome.describe(players))
    return 0


def _stdin_records() -> Iterator[tuple[str, bytes | InvalidRecordError]]:
    """Each non-blank line of standard input, named by its number (from 1); a line
    longer than a record may be is skipped to its end, unread, and refused."""
    stream = sys.stdin.buffer
    number = 0
    while True:
        line = stream.readline(MAX_RECORD_BYTES + 1)
        if not line:
            return
        number += 1
        name = f"standard input, line {number}"
        if len(line) > MAX_RECORD_BYTES and not line.endswith(b"\n"):
            while (rest := stream.readline(1 << 16)) and not rest.endswith(b"\n"):
                pass
            yield name, InvalidRecordError(f"not a record: larger than {MAX_RECORD_BYTES:,} bytes")
        elif line.strip():
            yield name, line


def _records(files: Iterable[str]) -> Iterator[tuple[str, bytes | str | InvalidRecordError]]:
    """Each record's name and text, in order; a file that cannot be read gives its
    message as an ``str``, one too large the error (records are ``bytes``)."""
    for name in files:
        if name == STDIN:
            yield from _stdin_records()
            continue
        try:
            with open(name, "rb") as fp:
                text = read_limited(fp)
                assert isinstance(text, bytes)
                yield name, text
        except OSError as exc:
            yield name, _read_error(name, exc)
        except InvalidRecordError as exc:
            yield name, exc


def _bulk(files: Iterable[str]) -> int:
    status = 0
    out = sys.stdout
    dumps = json.dumps
    for name, text in _records(files):
        if isinstance(text, str):
            line = dumps({"error": text})
            status = 2
        else:
            try:
                if isinstance(text, InvalidRecordError):
                    raise text
                line = dumps(replay(loads(text)).to_json())
            except InvalidRecordError as exc:
                line = dumps({"error": f"{name}: {exc}"})
                status = 2
        out.write(line + "\n")
        out.flush()  # results go out as records come in (a driving program may wait)
    return status
