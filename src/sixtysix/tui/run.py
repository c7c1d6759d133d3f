"""Starting the full-screen game from the command line (``sixtysix play``, ``sixtysix view``)."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from sixtysix import i18n
from sixtysix.bots import make_bot
from sixtysix.bots.analysis import Budget
from sixtysix.game.record import load
from sixtysix.i18n import _
from sixtysix.rules import Rules
from sixtysix.tui.app import SixtySixApp
from sixtysix.tui.options import GameOptions
from sixtysix.tui.storage import Settings, find_resumable, load_settings

__all__ = ["GameOptions", "run_game", "run_view", "start_language"]


def run_game(options: GameOptions | argparse.Namespace) -> int:
    """``sixtysix play`` on a terminal. Bad options are refused before the screen opens.
    (A parsed command line is still taken, for callers from before :class:`GameOptions`.)"""
    if isinstance(options, argparse.Namespace):
        options = GameOptions.from_args(options)
    if options.rules is not None:
        Rules.parse(options.rules)
    if options.opponent is not None:
        make_bot(options.opponent, seed=0)
    if options.hint_time <= 0:
        raise ValueError("--hint-time must be positive")
    settings = load_settings()
    if options.memory:
        settings = replace(settings, memory=True)
    if options.name:
        settings = replace(settings, name=options.name)
    save = Path(options.save) if options.save else None
    if save is not None and not save.parent.is_dir():
        raise OSError(f"cannot save the record to {save}: no folder {save.parent}")
    resume = find_resumable(options.resume) if options.resume is not None else None
    app = SixtySixApp(seed=options.seed, settings=settings, rules_text=options.rules,
                      opponent=options.opponent, hint_budget=Budget(time=options.hint_time),
                      human_seat=options.seat, save=save, resume=resume)
    # The game and the line after it speak the same language.
    with i18n.use(start_language(settings, options.lang)):
        app.run()
        game_path = app.last_record
        if game_path is not None:
            print(_("The game record is saved in {path}.").format(path=game_path))
    return 0


def start_language(settings: Settings, lang: str | None) -> str:
    """The language the game starts in: ``--lang`` if given, else the one chosen in the
    settings, else the system's locale."""
    if lang is not None:
        return i18n.normalize(lang)
    if settings.language != "system":
        return settings.language
    return i18n.system_language()


def run_view(path: str, lang: str | None = None) -> int:
    """``sixtysix view FILE``: the replay viewer on a record (errors as one line, status 2),
    in ``lang`` (``--lang``), else the language chosen in the game's settings, else the
    system's."""
    record = load(path)
    settings = load_settings()
    with i18n.use(start_language(settings, lang)):
        SixtySixApp(replay=(record, Path(path).name), settings=settings).run()
    return 0
