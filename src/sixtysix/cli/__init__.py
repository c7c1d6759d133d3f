"""The ``sixtysix`` command: ``play``, ``view``, ``replay``, ``simulate``, ``arena``,
``report``, ``serve``, ``engine``.

Each subcommand lives in its own module of this package, which provides
``register(subparsers)``; the parser's ``func`` default runs it and returns
the exit status. No user ever sees a traceback: errors print one line and
exit with status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from sixtysix import __version__, kernel

__all__ = ["build_parser", "main"]

COMMANDS = ("play", "view", "replay", "simulate", "arena", "report", "serve", "engine")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sixtysix",
        description="Sixty-six: play against the computer, replay game records, simulate bots.",
    )
    parser.add_argument("--version", action="version",
                        version=f"sixtysix {__version__} ({kernel.NAME} rules kernel)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"sixtysix.cli.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        status: int = args.func(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (ValueError, OSError) as exc:
        print(f"sixtysix: error: {exc}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
