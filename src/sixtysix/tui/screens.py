"""The other screens: settings, rules, statistics, the list of saved records, export."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Input, Label, MarkdownViewer, Select, Static

from sixtysix.i18n import LANGUAGES, N_, _, ngettext
from sixtysix.present.text.questions import Question
from sixtysix.present.text.words import level_name
from sixtysix.tui.replay import ReplayScreen
from sixtysix.tui.rules import rules_markdown
from sixtysix.tui.statistics import Statistics
from sixtysix.tui.storage import LEVELS, PRESETS, SPEEDS, RecordInfo, Settings, export_record, list_records
from sixtysix.tui.style import escape
from sixtysix.tui.widgets import translate_bindings

__all__ = ["ConfirmScreen", "ExportScreen", "KeysScreen", "Question", "RecordsScreen", "RulesScreen",
           "SettingsScreen", "StartScreen", "StatisticsScreen", "rules_text"]


def rules_text() -> str:
    """How to play, in the player's language: the web game's rules page for players
    (:mod:`sixtysix.tui.rules`), one text for both front ends."""
    return rules_markdown()


# Questions --------------------------------------------------------------------------------

class ConfirmScreen(ModalScreen[bool]):
    """Ask a :class:`Question`: dismisses with ``True`` to go ahead (Enter, y or the
    button), ``False`` to stay (Esc, n)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("escape,n", "answer(False)", N_("No")),
    ]

    def __init__(self, question: Question) -> None:
        super().__init__()
        translate_bindings(self)
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(f"[b]{escape(self.question.title)}[/b]", id="confirm-title")
            yield Static(escape(self.question.text), id="confirm-text")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{escape(self.question.yes)} [b]y[/]", variant="warning", id="confirm-yes",
                             compact=True)
                yield Button(_("Back [b]Esc[/]"), id="confirm-no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class StartScreen(ModalScreen[bool | None]):
    """The start, when a saved match is unfinished: Continue it (Enter, c) or start a new
    match (n); dismisses with ``True`` to continue, ``False`` for a new match, ``None`` to quit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "choose(True)", N_("Continue")),
        Binding("n", "choose(False)", N_("New match")),
        Binding("escape,q", "quit", N_("Quit")),
    ]

    def __init__(self, summary: str) -> None:
        super().__init__()
        translate_bindings(self)
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="start-box"):
            yield Static(_("[b]Sixty-six[/b]: a match is unfinished."), id="start-title")
            yield Static(escape(self.summary), id="start-summary")
            with Horizontal(id="start-buttons"):
                yield Button(_("Continue [b]c[/]"), variant="primary", id="continue", compact=True)
                yield Button(_("New match [b]n[/]"), id="new", compact=True)

    def on_mount(self) -> None:
        self.query_one("#continue", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "continue")

    def action_choose(self, resume: bool) -> None:
        self.dismiss(resume)

    def action_quit(self) -> None:
        self.dismiss(None)


# Settings ---------------------------------------------------------------------------------

_ON_OFF = [(N_("off"), False), (N_("on"), True)]
#: The opponent levels and animation speeds as the settings show them (translate with ``_``).
SPEED_NAMES = {"off": N_("off"), "fast": N_("fast"), "normal": N_("normal"), "slow": N_("slow")}


def _on_off() -> list[tuple[str, bool]]:
    return [(_(label), value) for label, value in _ON_OFF]


class SettingsScreen(ModalScreen[tuple[Settings, bool] | None]):
    """The settings; they take effect from the next match. Dismisses with the new
    settings and whether to start a new match now, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        translate_bindings(self)
        self.settings = settings

    def compose(self) -> ComposeResult:
        s = self.settings
        with Vertical(id="settings-box"):
            yield Static(_("[b]Settings[/b] (from the next match on)"), id="settings-title")
            with Grid(id="settings-grid"):
                # The language first: its list (the longest with the levels and the rules)
                # opens downwards, and from the last row it reached past the dialog.
                yield Label(_("Language (from the next start)"))
                languages = [(name, code) for code, name in LANGUAGES.items()]
                yield Select([(_("as the system"), "system"), *languages],
                             value=s.language, allow_blank=False, compact=True, id="language")
                yield Label(_("Opponent level"))
                yield Select([(level_name(name), name) for name in LEVELS], value=s.level,
                             allow_blank=False, compact=True, id="level")
                yield Label(_("Rules"))
                yield Select([(name, name) for name in PRESETS], value=s.preset, allow_blank=False,
                             compact=True, id="preset")
                yield Label(_("Memory mode (scores hidden)"))
                yield Select(_on_off(), value=s.memory, allow_blank=False, compact=True, id="memory")
                yield Label(_("Declare 66 automatically"))
                yield Select(_on_off(), value=s.auto_declare, allow_blank=False, compact=True,
                             id="auto_declare")
                yield Label(_("Animation speed"))
                yield Select([(_(SPEED_NAMES.get(name, name)), name) for name in SPEEDS], value=s.speed,
                             allow_blank=False, compact=True, id="speed")
                yield Label(_("Undo (marked in the record)"))
                yield Select(_on_off(), value=s.undo, allow_blank=False, compact=True, id="undo")
                yield Label(_("Ask before closing or declaring under 66"))
                yield Select(_on_off(), value=s.confirm, allow_blank=False, compact=True, id="confirm")
                yield Label(_("Your name"))
                yield Input(s.name, compact=True, id="name", max_length=40)
            with Horizontal(id="settings-buttons"):
                yield Button(_("Save and start a new match"), variant="primary", id="save-new", compact=True)
                yield Button(_("Save"), id="save", compact=True)
                yield Button(_("Cancel"), id="cancel", compact=True)

    def chosen(self) -> Settings:
        def value(name: str) -> object:
            return self.query_one(f"#{name}", Select).value

        name = self.query_one("#name", Input).value.strip() or self.settings.name
        return replace(self.settings, level=str(value("level")), preset=str(value("preset")),
                       memory=bool(value("memory")), auto_declare=bool(value("auto_declare")),
                       speed=str(value("speed")), undo=bool(value("undo")), confirm=bool(value("confirm")),
                       name=name,
                       language=str(value("language"))).check()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        self.dismiss((self.chosen(), event.button.id == "save-new"))

    def action_cancel(self) -> None:
        self.dismiss(None)


# Rules -------------------------------------------------------------------------------------

class RulesScreen(Screen[None]):
    """How to play: the rules for players, as the web game's rules page has them."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "app.pop_screen", N_("Back"))]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        yield MarkdownViewer(rules_text(), show_table_of_contents=False, id="rules")
        yield Footer()


KEYS = N_("""\
[b]Keys in the game[/b]
  [b]1[/b]–[b]6[/b] or a click   play that card of your hand
  [b]←[/b] [b]→[/b] and [b]Enter[/b]    choose a card and play it ([b]Enter[/b] also draws)
  [b]d[/b] [b]c[/b] [b]x[/b] [b]s[/b]          draw, close, exchange the trump nine, declare 66
  [b]m[/b]                marriage: announce the chosen king or queen, lead it
  [b]h[/b]                hint: the best action and what it wins ([b]h[/b] again: the numbers)
  [b]u[/b]                undo your last action (turn undo on in the settings)
  [b]n[/b] [b]o[/b]              new match, settings
  [b]r[/b] [b]t[/b] [b]g[/b]            rules, statistics, saved games (replay, export)
  [b]q[/b]                quit (the match is saved)
  [b]?[/b]                these keys
The buttons under your hand do the same as the keys they show.

[b]In the replay viewer[/b]
  [b]←[/b] [b]→[/b] step  [b]↑[/b] [b]↓[/b] hands  [b]Home[/b] [b]End[/b]  \
[b]a[/b] analysis on/off  [b]Esc[/b] back
""")


class KeysScreen(ModalScreen[None]):
    """The keys of the game, for a new player."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "dismiss", N_("Back"))]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="keys-box"):
            yield Static(_(KEYS))
            yield Static(_("[b]z[/b] puzzles: positions from real games with one best action"))
            yield Static("[dim]" + _("Esc to go back") + "[/dim]")

    def on_click(self) -> None:
        self.dismiss()


# Statistics ---------------------------------------------------------------------------------

class StatisticsScreen(Screen[None]):
    """Matches and hands per level and preset, game points, Schneider and Schwarz, streaks."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q", "app.pop_screen", N_("Back"))]

    def __init__(self, statistics: Statistics | None, problem: str = "") -> None:
        super().__init__()
        translate_bindings(self)
        self.statistics = statistics
        self.problem = problem

    def compose(self) -> ComposeResult:
        yield Static(_("[b]Statistics[/b] (all sessions)"), id="stats-title")
        yield DataTable(id="stats", cursor_type="row", zebra_stripes=True)
        yield Static(id="stats-notes")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(_("level"), _("rules"), _("matches"), _("hands"), _("gp/hand"), _("Schneider"),
                          _("Schwarz"), _("streaks"))
        notes = self.query_one("#stats-notes", Static)
        if self.statistics is None:
            notes.update(_("No statistics: {problem}").format(problem=escape(self.problem)))
            return
        lines = self.statistics.summary()
        for line in lines:
            now = f"{'+' if line.current_streak > 0 else ''}{line.current_streak}"
            # Matches left before their end are neither won nor lost: not counted here.
            table.add_row(level_name(line.level), line.preset, f"{line.matches_won}/{line.matches_finished}",
                          f"{line.hands_won}/{line.hands}", f"{line.points_per_hand:+.2f}",
                          f"{line.schneider_for}/{line.schneider_against}",
                          f"{line.schwarz_for}/{line.schwarz_against}",
                          f"{line.best_streak}/{line.worst_streak}/{now}")
        if not lines:
            notes.update(_("No matches yet: play one!"))
        else:
            m, mw, h, hw = self.statistics.totals()
            left = self.statistics.unfinished()
            total = _("In all: {matches_won} of {matches} finished matches and {hands_won} of {hands} "
                      "hands won.").format(matches_won=mw, matches=m - left, hands_won=hw, hands=h)
            if left:
                total += " " + ngettext(
                    "{n} match is unfinished: continue it from the start screen.",
                    "{n} matches are unfinished: continue the latest from the start screen.",
                    left).format(n=left)
            notes.update(total + "\n"
                         + _("matches: won/finished; hands: won/played. gp/hand: game points won minus "
                             "lost per hand. "
                             "Schneider (the loser had under 33) and Schwarz (no trick): yours/the "
                             "computer's. Streaks of finished matches: most won/most lost/now "
                             "(+ winning, - losing)."))


# Records -------------------------------------------------------------------------------------

class ExportScreen(ModalScreen[Path | None]):
    """Ask where to copy a record to; dismisses with the new file, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, source: Path) -> None:
        super().__init__()
        translate_bindings(self)
        self.source = source

    def compose(self) -> ComposeResult:
        with Vertical(id="export-box"):
            yield Static(_("Export [b]{name}[/b] to a file or a folder:").format(
                name=escape(self.source.name)))
            yield Input(str(Path.cwd() / self.source.name), id="export-path")
            yield Static(id="export-error")
            with Horizontal(id="export-buttons"):
                yield Button(_("Export"), variant="primary", id="export", compact=True)
                yield Button(_("Cancel"), id="cancel", compact=True)

    def on_input_submitted(self) -> None:
        self.export()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "export":
            self.export()
        else:
            self.dismiss(None)

    def export(self) -> None:
        target = self.query_one("#export-path", Input).value.strip()
        if not target:
            self.query_one("#export-error", Static).update(_("Type a file or folder name."))
            return
        try:
            dest = export_record(self.source, target)
        except OSError as exc:
            self.query_one("#export-error", Static).update(f"[b $warning]{escape(str(exc))}[/]")
            return
        self.dismiss(dest)

    def action_cancel(self) -> None:
        self.dismiss(None)


class RecordsScreen(Screen[None]):
    """The saved records, newest first: open one in the replay viewer, or export it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Replay")),
        Binding("e", "export", N_("Export")),
        Binding("escape,q", "app.pop_screen", N_("Back")),
    ]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)
        self.records: list[RecordInfo] = []

    def compose(self) -> ComposeResult:
        yield Static(id="records-title")
        yield DataTable(id="records", cursor_type="row", zebra_stripes=True)
        yield Static(id="records-notes")
        yield Footer()

    def on_mount(self) -> None:
        self.records = list_records()
        table = self.query_one(DataTable)
        table.add_columns(_("record"), _("players and rules"))
        for info in self.records:
            table.add_row(info.title, info.summary())
        folder = self.records[0].path.parent if self.records else None
        if folder:
            title = _("[b]Game records[/b] in {folder}: Enter opens the replay viewer, e exports.").format(
                folder=escape(str(folder)))
        else:
            title = _("[b]Game records[/b]: Enter opens the replay viewer, e exports.")
        self.query_one("#records-title", Static).update(title)
        if not self.records:
            self.query_one("#records-notes", Static).update(_("No records yet: every match is saved here."))

    def current(self) -> RecordInfo | None:
        table = self.query_one(DataTable)
        if not self.records:
            return None
        return self.records[min(table.cursor_row, len(self.records) - 1)]

    def on_data_table_row_selected(self) -> None:
        self.action_open()

    def action_open(self) -> None:
        info = self.current()
        if info is None:
            return
        if info.record is None:
            self.notify(_("This record cannot be opened: {problem}").format(problem=info.error),
                        severity="error")
            return
        self.app.push_screen(ReplayScreen(info.record, info.path.name))

    def action_export(self) -> None:
        info = self.current()
        if info is None:
            return

        def done(dest: Path | None) -> None:
            if dest is not None:
                self.query_one("#records-notes", Static).update(
                    _("Exported to {path}.").format(path=escape(str(dest))))

        self.app.push_screen(ExportScreen(info.path), done)
