"""The full-screen terminal game (Textual): :class:`SixtySixApp`.

It opens on a match against the computer (:class:`~sixtysix.tui.game.GameScreen`),
or, given a record, on the replay viewer. From the game: ``o`` settings,
``r`` rules, ``t`` statistics, ``g`` saved records (replay, export), ``z``
puzzles, ``n`` a new match, ``q`` quit. Settings, records and statistics live in the data
directory (:mod:`sixtysix.tui.storage`).
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from textual.app import App

from sixtysix.bots.analysis import Budget
from sixtysix.game.record import Record
from sixtysix.i18n import _
from sixtysix.present.text.questions import leave_question
from sixtysix.tui.game import GameScreen, MatchSetup
from sixtysix.tui.puzzles import PuzzleScreen
from sixtysix.tui.replay import ReplayScreen
from sixtysix.tui.screens import (
    ConfirmScreen,
    KeysScreen,
    RecordsScreen,
    RulesScreen,
    SettingsScreen,
    StartScreen,
    StatisticsScreen,
)
from sixtysix.tui.statistics import Statistics, StatisticsError
from sixtysix.tui.storage import (
    Resumable,
    Settings,
    data_dir,
    latest_unfinished,
    load_settings,
    save_settings,
)

__all__ = ["SixtySixApp"]


class SixtySixApp(App[None]):
    """Sixty-six against the computer, or a replay viewer when ``replay`` is given.

    ``seed`` fixes the first match's deals and the computer's choices (the
    next matches use the following seeds); ``settings`` replaces the saved
    settings for this session; ``rules_text`` and ``opponent`` override the
    rules and the level from the command line.
    """

    CSS_PATH = "app.tcss"
    TITLE = "Sixty-six"
    ENABLE_COMMAND_PALETTE = False
    #: Big cards on a tall terminal (the ``-tall`` class of the screens, in app.tcss).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (40, "-tall")]  # noqa: RUF012 (declared by App)

    def __init__(self, *, seed: int | None = None, settings: Settings | None = None,
                 rules_text: str | None = None, opponent: str | None = None,
                 hint_budget: Budget | None = None, replay: tuple[Record, str] | None = None,
                 replay_budget: Budget | None = None, human_seat: int = 0,
                 save: Path | None = None, resume: Resumable | None = None,
                 offer_continue: bool | None = None) -> None:
        super().__init__()
        #: The saved match to continue at once (``play --resume``).
        self.resume = resume
        #: Whether to offer the latest unfinished match on a start screen (by default when
        #: no seed, rules, opponent or match to continue are given).
        self.offer_continue = offer_continue if offer_continue is not None else (
            resume is None and seed is None and rules_text is None and opponent is None)
        self.title = _("Sixty-six")
        self.human_seat = human_seat
        #: Where the first match's record is also saved (``--save``), besides the data directory.
        self.save_path = save
        #: The record file of the latest match.
        self.last_record: Path | None = None
        self.settings = settings if settings is not None else load_settings()
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
        self.rules_text = rules_text
        self.opponent = opponent
        self.hint_budget = hint_budget or Budget(time=1.0)
        self.replay_target = replay
        self.replay_budget = replay_budget
        self.statistics: Statistics | None = None
        self.statistics_problem = ""
        try:
            self.statistics = Statistics(data_dir() / "statistics.sqlite3")
        except (StatisticsError, OSError) as exc:
            self.statistics_problem = str(exc)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {"card-red": "#c62828", "card-face": "#f4f1e8", "card-ink": "#1a1a1a"}

    def on_mount(self) -> None:
        if self.replay_target is not None:
            record, title = self.replay_target
            self.push_screen(ReplayScreen(record, title, budget=self.replay_budget))
            return
        if self.resume is None and self.offer_continue:
            unfinished = latest_unfinished()
            if unfinished is not None:
                self.offer(unfinished)
                return
        self.start_match(self.resume)

    def offer(self, unfinished: Resumable) -> None:
        """The start screen: continue ``unfinished``, or a new match."""
        def chosen(resume: bool | None) -> None:
            if resume is None:
                self.exit()
            else:
                self.start_match(unfinished if resume else None)

        self.push_screen(StartScreen(unfinished.summary()), chosen)

    # Matches -----------------------------------------------------------------------------
    def setup(self) -> MatchSetup:
        return MatchSetup(self.settings, self.seed, rules_text=self.rules_text, opponent=self.opponent,
                          human_seat=self.human_seat, hint_budget=self.hint_budget,
                          save_also=self.save_path)

    @property
    def game(self) -> GameScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                return screen
        return None

    def resume_setup(self, resume: Resumable) -> MatchSetup:
        """The setup of a saved match: its rules, level, seat and seed; the player's
        other settings (speed, hints) as they are now."""
        seed = resume.record.extra.get("seed")
        return MatchSetup(replace(self.settings, name=resume.name),
                          seed if isinstance(seed, int) else self.seed,
                          rules_text=str(resume.record.rules), opponent=resume.level,
                          human_seat=resume.human_seat, hint_budget=self.hint_budget)

    def start_match(self, resume: Resumable | None = None) -> None:
        setup = self.setup() if resume is None else self.resume_setup(resume)
        game = GameScreen(setup, self.statistics, resume)
        self.save_path = None
        self.last_record = game.book.also or game.record_path
        self.push_screen(game)

    def action_new_match(self) -> None:
        """Leave the match (it is saved) and start the next one, with the current settings."""
        old = self.game
        if old is not None:
            old.close_match()
            self.seed += 1
            # Command-line overrides apply to the first match only; then the settings rule.
            self.rules_text = None
            self.opponent = None
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.start_match()

    # Other screens --------------------------------------------------------------------------
    def action_settings(self) -> None:
        def done(result: tuple[Settings, bool] | None) -> None:
            if result is None:
                return
            language_before = self.settings.language
            self.settings, new_match = result
            try:
                save_settings(self.settings)
            except OSError as exc:
                self.notify(_("The settings could not be saved: {problem}").format(problem=exc),
                            severity="error")
            if self.settings.language != language_before:
                self.notify(_("The language changes when the game starts next."))
            if new_match:
                self.action_new_match()
            else:
                self.notify(_("Saved: the settings apply from the next match (n)."))

        self.push_screen(SettingsScreen(self.settings), done)

    def action_keys(self) -> None:
        self.push_screen(KeysScreen())

    def action_rules(self) -> None:
        self.push_screen(RulesScreen())

    def action_statistics(self) -> None:
        self.push_screen(StatisticsScreen(self.statistics, self.statistics_problem))

    def action_records(self) -> None:
        self.push_screen(RecordsScreen())

    def action_puzzles(self) -> None:
        self.push_screen(PuzzleScreen(seed=self.seed))

    async def action_quit(self) -> None:
        game = self.game
        if game is not None and game.in_hand and self.settings.confirm:
            def answer(yes: bool | None) -> None:
                if yes:
                    self.leave()

            self.push_screen(ConfirmScreen(leave_question()), answer)
            return
        self.leave()

    def leave(self) -> None:
        """Save the match and close the game."""
        game = self.game
        if game is not None:
            game.close_match()
        if self.statistics is not None:
            self.statistics.close()
            self.statistics = None
        self.exit()
