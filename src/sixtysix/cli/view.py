"""``sixtysix view FILE``: open a game record in the full-screen replay viewer.

The viewer steps through every action with both hands shown and says how
good each action was (the exact solver near the end of a hand, an average
over the hidden cards before). It needs a terminal and the ``tui`` extra;
``sixtysix replay`` prints a summary anywhere.
"""

from __future__ import annotations

import argparse
import sys

from sixtysix import i18n, tui
from sixtysix.cli.errors import read_error
from sixtysix.cli.play import _isatty
from sixtysix.extras import install_command
from sixtysix.game.record import load

__all__ = ["register", "run"]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "view",
        help="step through a game record in the full-screen replay viewer",
        description="Open a game record (JSON, sixtysix/1) in the replay viewer: arrow keys step "
                    "through the actions and the hands, both hands are shown, and each action is "
                    "rated against the best one.",
    )
    parser.add_argument("file", metavar="FILE", help="the game record")
    parser.add_argument("--lang", default=None, metavar="{" + ",".join(i18n.LANGUAGES) + "}",
                        help="the language of the viewer: en, de, bg or hu (default: the language "
                             "chosen in the full-screen game's settings, else the system's locale; an "
                             "unknown code shows English), as for play")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:  # a file that cannot be read is said first, as replay says it
        load(args.file)
    except OSError as exc:
        raise ValueError(read_error(args.file, exc)) from None
    if not (_isatty(sys.stdin) and _isatty(sys.stdout)):
        raise ValueError("the replay viewer needs a terminal; 'sixtysix replay FILE' prints a summary")
    if not tui.available():
        raise ValueError(f"the replay viewer needs Textual: {install_command('tui')}")
    from sixtysix.tui.run import run_view  # Textual: the tui extra

    return run_view(args.file, args.lang)
