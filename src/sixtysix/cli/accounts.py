"""``sixtysix accounts reset NAME``: the operator's way to give a player back his account.

The server sends no mail, so a player who forgot his password asks the operator, who
runs this on the server's machine (with the server's ``--database-url``): it prints a
one-time recovery code, good for ``--hours`` (default 24). The player enters it with a
new password on the page ("Forgot your password?"); the code is then used up and every
session of the account ends. A new code replaces the one before.
"""

from __future__ import annotations

import argparse
from typing import Any

from sixtysix.extras import install_command

__all__ = ["register", "run_reset"]


def register(subparsers: Any) -> None:
    """Add the ``accounts`` subcommand (with ``reset``) to the parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "accounts", help="look after the game server's player accounts",
        description="Player accounts of the game server (sixtysix serve).")
    sub = parser.add_subparsers(dest="accounts_command", metavar="COMMAND", required=True)
    reset = sub.add_parser(
        "reset", help="print a one-time code that lets a player set a new password",
        description="Print a one-time recovery code for the account NAME. The player enters it "
                    "with a new password on the page (Log in, then 'Forgot your password?'). "
                    "It works once, until it expires; a new code replaces an earlier one.")
    reset.add_argument("name", metavar="NAME", help="the account's name (any case)")
    reset.add_argument("--database-url", default=None, metavar="URL",
                       help="the server's database (default: $SIXTYSIX_DATABASE_URL, else the SQLite "
                            "file in your data directory, as sixtysix serve)")
    reset.add_argument("--hours", type=float, default=24.0, metavar="H",
                       help="hours the code is good for (default 24)")
    reset.set_defaults(func=run_reset)


def run_reset(args: argparse.Namespace) -> int:
    try:
        from sixtysix.server.accounts import AccountError, Accounts
        from sixtysix.server.settings import default_database_url
        from sixtysix.server.storage import Storage
    except ImportError as exc:
        raise OSError(f"accounts need the web extra ({install_command('web')}): {exc}") from None
    if not 0 < args.hours <= 24 * 30:
        raise ValueError("--hours must be more than 0 and at most 720 (30 days)")
    storage = Storage(args.database_url or default_database_url())
    try:
        issued = Accounts(storage.engine).issue_reset(args.name, args.hours * 3600)
    except AccountError as exc:
        raise ValueError(str(exc)) from None
    finally:
        storage.close()
    print(f"Recovery code for {issued.user.name}: {issued.code}")
    print(f"It works once, until {issued.expires:%Y-%m-%d %H:%M} UTC: the player enters it with a new "
          "password on the page (Log in, then 'Forgot your password?').")
    return 0
