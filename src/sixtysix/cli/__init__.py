"""The ``sixtysix`` command: ``play``, ``view``, ``replay``, ``simulate``, ``arena``,
``report``, ``serve``, ``engine``, ``puzzles``, ``accounts``.

Each subcommand lives in its own module of this package, which provides
``register(subparsers)``; the parser's ``func`` default runs it and returns
the exit status. No user ever sees a traceback: errors print one line and
exit with status 2. An option's old spelling still works and prints a one-line
warning naming the new one (:mod:`sixtysix.cli.options`).
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType

from sixtysix import kernel
from sixtysix.cli.errors import Parser, error_line
from sixtysix.cli.options import one_line_warnings
from sixtysix.version import __version__

__all__ = ["Terminated", "build_parser", "main"]


class Terminated(KeyboardInterrupt):
    """SIGTERM (a service manager, ``kill``): raised in the main thread like Ctrl-C, so
    that a command stops the same way, saving what it saves (exit status 143)."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Terminated()

COMMANDS = ("play", "view", "replay", "simulate", "arena", "report", "serve", "engine", "puzzles", "accounts")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
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
    with one_line_warnings():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        status: int = args.func(args)
    except Terminated:
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (ValueError, OSError) as exc:
        print(error_line(exc), file=sys.stderr)
        return 2
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
