"""``sixtysix engine BOT``: serve one of our bots over the bot protocol.

The host writes to the engine's standard input and reads its standard
output (docs/protocol.md); logs go to standard error only.
"""

from __future__ import annotations

import argparse
import logging
import sys

from sixtysix.cli.options import BOT_HELP, HelpFormatter
from sixtysix.protocol.engine import serve

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "engine",
        help="serve a bot over the bot protocol (standard input and output)",
        description="Play the bot BOT over the line protocol of docs/protocol.md: another "
                    "program (the host) sends it the game on standard input and reads its "
                    "actions on standard output. Logs go to standard error.",
        formatter_class=HelpFormatter,
        epilog=BOT_HELP,
    )
    parser.add_argument("bot", metavar="BOT", help="a bot (see BOT below), e.g. heuristic or "
                                                   "ismcts:time=0.5")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING,
                        format="sixtysix engine: %(message)s")
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    return serve(args.bot, sys.stdin, sys.stdout)
