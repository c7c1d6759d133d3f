"""What ``sixtysix play`` asks of the full-screen game: :class:`GameOptions`, built by
the command line (no Textual needed to build it), taken by :func:`sixtysix.tui.run.run_game`."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

__all__ = ["GameOptions"]


@dataclass(frozen=True)
class GameOptions:
    """What ``sixtysix play`` asks of the full-screen game (the command line builds it;
    the game takes no ``argparse`` object)."""

    seed: int | None = None
    #: Rules text (``Rules.parse``), else the settings' preset.
    rules: str | None = None
    #: A bot spec, else the settings' level.
    opponent: str | None = None
    #: Seconds a hint may take.
    hint_time: float = 1.0
    memory: bool = False
    name: str | None = None
    seat: int = 0
    #: Where to save the match's record, besides the records folder.
    save: str | None = None
    #: The language asked for (``--lang``), else the settings' or the system's.
    lang: str | None = None
    #: ``play --resume``: a record file to continue, ``""`` for the newest unfinished match,
    #: ``None`` for a new match.
    resume: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> GameOptions:
        """The options of a parsed ``play`` command line."""
        return cls(seed=args.seed, rules=args.rules, opponent=args.opponent, hint_time=args.hint_time,
                   memory=bool(args.memory), name=args.name or None, seat=args.seat, save=args.save,
                   lang=getattr(args, "lang", None), resume=getattr(args, "resume", None))
