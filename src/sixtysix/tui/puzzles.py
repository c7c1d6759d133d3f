"""The terminal game's Puzzles screen (``z`` from the game): the shipped puzzles
(:mod:`sixtysix.puzzles`), one at a time near the player's puzzle rating, of a theme if
one is chosen, and the daily puzzle. The player chooses an action from the list; the
verdict and its reason come from :mod:`sixtysix.puzzles.solving`, and the rating moves
by Glicko-2 as on the server (:func:`sixtysix.puzzles.rating.attempt`). The player's
rating and the puzzles he has tried are kept in ``puzzles.json`` in the data directory.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Select, Static
from textual.widgets.option_list import Option

from sixtysix.i18n import N_, _
from sixtysix.measure.glicko import Rating, RatingError
from sixtysix.play.userdata import data_dir
from sixtysix.present.text.screen import render_screen
from sixtysix.present.text.words import Seats
from sixtysix.puzzles.puzzle import Puzzle
from sixtysix.puzzles.rating import attempt, daily, nearest
from sixtysix.puzzles.shipped import shipped
from sixtysix.puzzles.solving import action_words, judge, prompt, solution_steps, theme_name
from sixtysix.puzzles.themes import Theme
from sixtysix.tui.style import MarkupStyle
from sixtysix.tui.widgets import translate_bindings

__all__ = ["PuzzleBook", "PuzzleScreen"]

_ANY = "any"


@dataclass
class PuzzleBook:
    """The player's puzzle rating and the puzzles he has tried (id: solved), in a file."""

    path: Path
    rating: Rating = field(default_factory=Rating)
    tried: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path | None = None) -> PuzzleBook:
        """The book in ``path`` (default: the data directory's); a new one if missing or unreadable."""
        where = path if path is not None else data_dir() / "puzzles.json"
        try:
            data = json.loads(where.read_text(encoding="utf-8"))
            rating = Rating(*data["rating"])
            tried = {str(k): bool(v) for k, v in data["tried"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError, RatingError):
            return cls(where)
        return cls(where, rating, tried)

    def save(self) -> None:
        r = self.rating
        data = {"rating": [r.rating, r.deviation, r.volatility], "tried": self.tried}
        self.path.write_text(json.dumps(data), encoding="utf-8")

    def record(self, puzzle: Puzzle, solved: bool) -> tuple[Rating, Rating] | None:
        """Rate a first attempt (before, after); a repeat rates nothing (``None``)."""
        if puzzle.id in self.tried:
            return None
        before = self.rating
        self.rating, _puzzle = attempt(before, puzzle.rating or Rating(), solved)
        self.tried[puzzle.id] = solved
        return before, self.rating


class PuzzleScreen(Screen[None]):
    """One puzzle at a time (module text)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next", N_("Next puzzle")),
        Binding("y", "daily", N_("Daily puzzle")),
        Binding("s", "solution", N_("Solution")),
        Binding("escape,q", "app.pop_screen", N_("Back")),
    ]

    def __init__(self, book: PuzzleBook | None = None, *, seed: int = 0,
                 today: dt.date | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        self.book = book if book is not None else PuzzleBook.load()
        self.rng = random.Random(seed)
        self.today = today if today is not None else dt.datetime.now(dt.UTC).date()
        self.theme: Theme | None = None
        self.puzzle: Puzzle | None = None
        self.answered = False
        #: What the verdict panel shows (markup lines).
        self.verdict_lines: list[str] = []

    def compose(self) -> ComposeResult:
        themes = [(_("Any theme"), _ANY)] + [
            (theme_name(t), str(t)) for t in Theme if any(t in p.themes for p in shipped())]
        yield Static(id="puzzle-title")
        yield Select(themes, value=_ANY, allow_blank=False, id="puzzle-theme")
        yield Static(id="puzzle-position")
        yield Static(id="puzzle-prompt")
        yield OptionList(id="puzzle-actions")
        yield Static(id="puzzle-verdict")
        yield Footer()

    def on_mount(self) -> None:
        self.action_next()

    def on_select_changed(self, event: Select.Changed) -> None:
        value = event.value
        theme = None if value == _ANY else Theme(str(value))
        if theme != self.theme:
            self.theme = theme
            self.action_next()

    def action_next(self) -> None:
        found = nearest(shipped(), self.book.rating, self.rng, theme=self.theme,
                        done=self.book.tried.__contains__)
        if found is None:
            self.notify(_("You have tried every puzzle of this theme."))
            return
        self.show(found, daily_puzzle=False)

    def action_daily(self) -> None:
        self.show(daily(shipped(), self.today), daily_puzzle=True)

    def show(self, puzzle: Puzzle, *, daily_puzzle: bool) -> None:
        self.puzzle, self.answered = puzzle, False
        position = puzzle.position()
        seat = position.to_act
        assert seat is not None
        heading = _("Daily puzzle") if daily_puzzle else _("Puzzle {id}").format(id=puzzle.id)
        rated = _("rated {rating}").format(rating=round(puzzle.rating.rating) if puzzle.rating else 1500)
        mine = _("Your puzzle rating: {rating}").format(rating=round(self.book.rating.rating))
        title = f"[b]{escape(heading)}[/b] — {escape(rated)}   {escape(mine)}"
        self.query_one("#puzzle-title", Static).update(title)
        seats = Seats(seat, opponent=N_("Opponent"))
        view = position.view(seat)
        self.query_one("#puzzle-position", Static).update(render_screen(view, MarkupStyle(), seats))
        self.query_one("#puzzle-prompt", Static).update(escape(prompt(puzzle)))
        actions = self.query_one("#puzzle-actions", OptionList)
        actions.clear_options()
        actions.add_options([Option(escape(action_words(a, position)), id=str(a))
                             for a in position.legal_actions()])
        actions.highlighted = 0
        actions.focus()
        self.query_one("#puzzle-verdict", Static).update("")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if self.puzzle is None or self.answered or event.option.id is None:
            return
        puzzle = self.puzzle
        chosen = next(a for a in puzzle.position().legal_actions() if str(a) == event.option.id)
        verdict = judge(puzzle, chosen)
        self.answered = True
        change = self.book.record(puzzle, verdict.solved)
        lines = [f"[b]{escape(verdict.reason)}[/b]"]
        if change is not None:
            before, after = change
            lines.append(escape(_("Your rating: {before} → {after} ({change})").format(
                before=round(before.rating), after=round(after.rating),
                change=f"{round(after.rating) - round(before.rating):+d}")))
            try:
                self.book.save()
            except OSError as exc:
                self.notify(_("The puzzle rating could not be saved: {problem}").format(problem=exc),
                            severity="error")
        else:
            lines.append(escape(_("You have tried this puzzle before: no rating changes.")))
        if puzzle.themes:
            names = ", ".join(theme_name(t) for t in puzzle.themes)
            lines.append(escape(_("Themes: {themes}").format(themes=names)))
        lines.append(escape(_("s: the solution; n: the next puzzle.")))
        self.verdict_lines = lines
        self.query_one("#puzzle-verdict", Static).update("\n".join(lines))

    def action_solution(self) -> None:
        if self.puzzle is None or not self.answered:
            return
        me = self.puzzle.position().to_act
        words = [_("{name}: {action}").format(name=_("You") if step.seat == me else _("Opponent"),
                                              action=step.words)
                 for step in solution_steps(self.puzzle)]
        self.verdict_lines.append(escape(_("Solution: {line}").format(line="; ".join(words))))
        self.query_one("#puzzle-verdict", Static).update("\n".join(self.verdict_lines))
