"""The game screen: a match against the computer, with keyboard and mouse.

The screen drives a :class:`~sixtysix.play.session.PlaySession` (the same match
driver as the line game). The session's work — the computer thinking, the
deals — runs in a worker thread so that the screen stays responsive; the
events it returns are then shown one by one, with a pause between the
computer's actions (the animation speed), each with the view it carries.
Everything drawn comes from the human's :class:`~sixtysix.game.views.View` and the
public match score (R11, docs/design.md §6).

Each match is written down — its record and its statistics — by a
:class:`~sixtysix.tui.bookkeeping.MatchBook`.
"""

from __future__ import annotations

import random
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Button, Footer, Static

from sixtysix import i18n
from sixtysix.bots import make_bot
from sixtysix.bots.analysis import ActionValue, Budget, analyse
from sixtysix.bots.net_bot import shipped_network
from sixtysix.errors import ParseError
from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import Card, Rank, Suit
from sixtysix.game.views import View
from sixtysix.i18n import N_, _, ngettext
from sixtysix.play.session import (
    Acted,
    BotError,
    HandOver,
    HandStarted,
    MatchOver,
    MatchStarted,
    PlayEvent,
    PlaySession,
    UndoError,
)
from sixtysix.present.text.narration import (
    describe_action,
    describe_cuts,
    describe_deal,
    describe_match,
    describe_match_end,
    describe_result,
)
from sixtysix.present.text.prompt import refused
from sixtysix.present.text.questions import risk_question
from sixtysix.present.text.screen import MatchInfo, describe_score, ordered_legal, sorted_cards
from sixtysix.present.text.words import Seats, level_name
from sixtysix.rules import Rules
from sixtysix.tui.bookkeeping import MatchBook
from sixtysix.tui.screens import ConfirmScreen
from sixtysix.tui.statistics import Statistics
from sixtysix.tui.storage import Resumable, Settings, new_record_path
from sixtysix.tui.style import MarkupStyle, escape
from sixtysix.tui.table import TableView
from sixtysix.tui.widgets import CardRow, CardView, MessageLog, translate_bindings
from sixtysix.tui.words import (
    hand_summary,
    hint_numbers,
    hint_text,
    info_text,
    opponent_cards,
    tricks,
    your_turn,
)

if TYPE_CHECKING:
    from sixtysix.game.player import Bot

__all__ = ["GameScreen", "MatchSetup", "action_button_id"]

@dataclass
class MatchSetup:
    """Everything that fixes a match: the settings, the seed, overrides from the command line."""

    settings: Settings
    seed: int
    #: Rules text overriding the settings' preset (``--rules``), or ``None``.
    rules_text: str | None = None
    #: A bot spec overriding the settings' level (``--opponent``), or ``None``.
    opponent: str | None = None
    human_seat: int = 0
    #: The analysis budget of a hint.
    hint_budget: Budget = field(default_factory=lambda: Budget(time=1.0))
    #: A file to save the record to as well (``--save``), besides the data directory.
    save_also: Path | None = None

    @property
    def rules(self) -> Rules:
        return Rules.parse(self.rules_text or self.settings.rules_text)

    @property
    def level(self) -> str:
        return self.opponent or self.settings.level

    @property
    def preset(self) -> str:
        return self.rules.base

    def make_opponent(self) -> Bot:
        # The computer's own random stream, derived from the seed (as in the line game).
        bot_seed = random.Random(f"sixtysix-play-opponent-{self.seed}").randrange(2**32)
        return make_bot(self.level, seed=bot_seed)


def action_button_id(action: Action) -> str:
    """The id of the button for a non-card action: ``draw``, ``close``, ``exchange``,
    ``declare``, ``marriage-KH`` (lead KH with the marriage), ``declare-H`` (66+H)."""
    kind = action.kind
    if kind is ActionKind.MARRIAGE and action.card is not None:
        return f"marriage-{action.card}"
    if kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
        return f"declare-{action.suit.letter}"
    return {ActionKind.DRAW: "draw", ActionKind.CLOSE: "close", ActionKind.EXCHANGE: "exchange",
            ActionKind.DECLARE: "declare"}[kind]


def _all_action_buttons() -> list[Button]:
    """Every button the action bar may show; :meth:`GameScreen.render_actions` shows the ones
    that apply (short labels: the bar is one line of an 80-column terminal)."""
    style = MarkupStyle()
    buttons = [
        Button(_("Next hand [b]Enter[/]"), id="next-hand", variant="primary"),
        Button(_("New match [b]n[/]"), id="new-match", variant="primary"),
        Button(_("Hint [b]h[/]"), id="hint"),
        Button(_("Undo [b]u[/]"), id="undo"),
        Button(_("Draw [b]d[/]"), id="draw"),
        Button(_("Close [b]c[/]"), id="close"),
        Button(_("Exchange [b]x[/]"), id="exchange"),
        Button("66 [b]s[/]", id="declare"),
    ]
    for suit in Suit:
        for rank in ("K", "Q"):
            card = Card.parse(rank + suit.letter)
            buttons.append(Button(_("Marry {card}").format(card=style.card(card)), id=f"marriage-{card}"))
    for suit in Suit:
        buttons.append(Button(f"66+{style.paint_suit(suit.symbol, suit)}", id=f"declare-{suit.letter}"))
    for button in buttons:
        button.compact = True
        button.can_focus = False
    return buttons


class GameScreen(Screen[None]):
    """A match against the computer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", N_("Card left"), show=False),
        Binding("right", "move(1)", N_("Card right"), show=False),
        Binding("enter,space", "enter", N_("Play"), key_display="Enter", show=False),
        *(Binding(str(n), f"card({n - 1})", str(n), show=False) for n in range(1, 7)),
        Binding("d", "act('D')", N_("Draw"), show=False),
        Binding("c", "act('C')", N_("Close"), show=False),
        Binding("x", "act('X')", N_("Exchange"), show=False),
        Binding("s", "act('66')", N_("Declare 66"), show=False),
        Binding("m", "marriage", N_("Marriage with the selected card"), show=False),
        Binding("h", "hint", N_("Hint")),
        Binding("u", "undo", N_("Undo"), show=False),
        Binding("n", "new_match", N_("New")),
        Binding("o", "app.settings", N_("Settings")),
        Binding("r", "app.rules", N_("Rules")),
        Binding("t", "app.statistics", N_("Stats")),
        Binding("g", "app.records", N_("Records")),
        Binding("z", "app.puzzles", N_("Puzzles"), show=False),
        Binding("q", "app.quit", N_("Quit")),
        Binding("question_mark,f1", "app.keys", N_("Keys"), key_display="?"),
    ]

    def __init__(self, setup: MatchSetup, statistics: Statistics | None,
                 resume: Resumable | None = None) -> None:
        super().__init__()
        translate_bindings(self)
        #: The language of the screen's text (the context's when it was made).
        self.language = i18n.language()
        self.setup = setup
        self.settings = setup.settings
        self.style = MarkupStyle()
        #: The saved match this screen continues, or ``None`` for a new match.
        self.resumed = resume
        if resume is None:
            self.session = PlaySession(setup.make_opponent(), rules=setup.rules,
                                       human_seat=setup.human_seat, seed=setup.seed)
            self.record_path: Path = new_record_path(seed=setup.seed)
        else:
            self.session = PlaySession.resume(resume.record, setup.make_opponent(),
                                              human_seat=resume.human_seat)
            self.record_path = resume.path
        self.seats = Seats(setup.human_seat)
        self.book = MatchBook(self.session, self.record_path, statistics, name=setup.settings.name,
                              level=setup.level, preset=setup.preset, undo=setup.settings.undo,
                              seed=setup.seed, also=setup.save_also, resumed=resume is not None)
        #: The view on the screen (the latest event's, or the session's at rest).
        self.shown: View | None = self.session.view
        self.info = self.session.info()
        self.queue: deque[PlayEvent] = deque()
        #: The session's worker is running or events are still being shown.
        self.busy = False
        #: A hand is over and the player has not yet asked for the next one.
        self.paused = False
        self.match_over = False
        self.closed = False
        self.selected = 0
        self.hinted: Action | None = None
        #: The last hint's position and analysis: asked again there, its numbers are shown.
        self.hint_shown: tuple[View, list[ActionValue]] | None = None
        self.error: str | None = None
        #: A short line on the hand just finished, for the prompt.
        self.hand_summary = ""
        # The computer player is used by one decision at a time, in the worker thread;
        # closing it waits for the decision in progress.
        self._opponent_lock = threading.Lock()
        self._in_step = False
        self._close_wanted = False
        self._opponent_closed = False

    # Layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="opponent")
        yield TableView(id="table")
        yield MessageLog(id="log")
        yield Static(id="prompt")
        yield CardRow(6, id="hand")
        with Horizontal(id="actions"):
            yield from _all_action_buttons()
        yield Footer()

    def on_mount(self) -> None:
        if self.resumed is not None:
            self.log_lines(self.style.strong(_("You continue the match saved in {file}: {summary}.").format(
                file=escape(self.record_path.name), summary=escape(self.resumed.summary()))))
        self.render_all()
        self.run_session(self.session.start)

    def on_unmount(self) -> None:
        # However the game ends (q, Ctrl-C, the terminal closed), the match is saved whole.
        if not self.closed:
            self.close_match()

    # The session in a worker ----------------------------------------------------------
    def run_session(self, step: Callable[[], list[PlayEvent]]) -> None:
        """Run ``step`` (start, play) in a thread; its events are then shown."""
        self.busy = True
        self.render_all()
        self._session_worker(step)

    @work(thread=True, exclusive=True, group="session", exit_on_error=False)
    def _session_worker(self, step: Callable[[], list[PlayEvent]]) -> None:
        # A worker thread starts in a context of its own: it speaks the screen's language,
        # and so do the callbacks it hands to the app (call_from_thread takes its context).
        with i18n.use(self.language):
            self._session_step(step)

    def _session_step(self, step: Callable[[], list[PlayEvent]]) -> None:
        with self._opponent_lock:
            self._in_step = True
        try:
            events = step()
        except (BotError, ValueError) as exc:
            self._step_done()
            self.app.call_from_thread(self._failed, str(exc))
            return
        self._step_done()
        self.app.call_from_thread(self._receive, events)

    def _step_done(self) -> None:
        with self._opponent_lock:
            self._in_step = False
            if self._close_wanted:
                self._close_opponent_now()

    def close_opponent(self) -> None:
        """Let the computer player free what it holds (helper processes, say), once it
        has no more decisions to make: now, or when the decision it is making is done."""
        with self._opponent_lock:
            if self._in_step:
                self._close_wanted = True
            else:
                self._close_opponent_now()

    def _close_opponent_now(self) -> None:
        self._close_wanted = False
        if self._opponent_closed:
            return
        self._opponent_closed = True
        close = getattr(self.session.opponent, "close", None)
        if callable(close):
            close()

    def _failed(self, message: str) -> None:
        self.busy = False
        self.error = message
        self.log_lines(self.style.bad(_("Something went wrong: {problem}").format(problem=escape(message))))
        self.render_all()

    def _receive(self, events: list[PlayEvent]) -> None:
        self.queue.extend(events)
        self._drain()

    def _drain(self) -> None:
        """Show queued events; stop for a moment after each action (the animation speed),
        and until the player asks for the next hand after a hand's end."""
        if self.closed:
            return
        delay = self.settings.delay
        while self.queue:
            event = self.queue.popleft()
            self.show_event(event)
            if isinstance(event, HandOver):
                if self.queue and isinstance(self.queue[0], MatchOver):
                    self.show_event(self.queue.popleft())
                self.paused = not self.match_over
                self.busy = bool(self.queue)
                self.render_all()
                return
            if delay and isinstance(event, Acted) and self.queue:
                self.render_all()
                self.set_timer(delay, self._drain)
                return
        self.busy = False
        if self.session.waiting:
            self.shown = self.session.view
        self.render_all()

    # Events as sentences ---------------------------------------------------------------
    def log_lines(self, *lines: str) -> None:
        self.query_one(MessageLog).say(*lines)

    def show_event(self, event: PlayEvent) -> None:
        seats, style = self.seats, self.style
        if isinstance(event, MatchStarted):
            rules = self.session.rules
            self.log_lines(style.strong(
                _("Sixty-six against the computer ({opponent}), rules {rules}, first to {target} game points."
                  ).format(opponent=escape(level_name(self.setup.level)), rules=escape(str(rules)),
                           target=rules.target)))
            self.log_lines(*describe_cuts(event.cuts, event.first_dealer, seats, style))
        elif isinstance(event, HandStarted):
            self.hinted = None
            self.info = MatchInfo(event.number, self.info.score, self.info.target, self.info.pending_bonus)
            self.shown = event.view
            self.selected = 0
            self.log_lines(describe_deal(event.view, seats, style, event.number))
        elif isinstance(event, Acted):
            self.shown = event.after
            self.log_lines(*describe_action(event.seat, event.action, event.before, event.after,
                                            seats, style, memory=self.settings.memory))
        elif isinstance(event, HandOver):
            self.shown = event.view
            self.info = MatchInfo(event.number, event.score, self.info.target, event.pending_bonus)
            self.log_lines(*describe_result(event.view, seats, style, bonus=event.result.bonus))
            self.log_lines(style.strong(describe_match(event.score, event.pending_bonus, seats, style,
                                                         self.info.target)))
            self.hand_summary = hand_summary(event.result, seats, style)
            self.hand_finished(event)
        else:
            self.match_over = True
            self.log_lines(describe_match_end(event.winner, event.score, seats, style),
                           _("Press [b]n[/] for a new match."))
            self.match_finished(event)

    # Records and statistics --------------------------------------------------------------
    def write_down(self, write: Callable[[], None]) -> None:
        """Save through the match book; a file that cannot be written is reported, the game goes on."""
        try:
            write()
        except OSError as exc:
            self.log_lines(self.style.bad(_("The record could not be saved: {problem}").format(
                problem=escape(str(exc)))))

    def hand_finished(self, event: HandOver) -> None:
        self.write_down(lambda: self.book.hand_over(event))

    def match_finished(self, event: MatchOver) -> None:
        self.write_down(lambda: self.book.match_over(event))
        self.close_opponent()

    def close_match(self) -> None:
        """The player leaves (a new match, quitting): save the whole record, count the
        match as stopped, and show no more of it."""
        self.closed = True
        self.write_down(self.book.leave)
        self.close_opponent()

    # What the player may do ------------------------------------------------------------
    @property
    def in_hand(self) -> bool:
        """A hand is being played (leaving now leaves it unfinished)."""
        view = self.session.view
        return not self.closed and not self.match_over and view is not None and not self.paused \
            and not self.session.over and self.error is None

    @property
    def my_turn(self) -> bool:
        return not self.busy and not self.paused and not self.closed and self.session.waiting

    def legal(self) -> list[Action]:
        view = self.session.view
        return ordered_legal(view) if self.my_turn and view is not None else []

    def hand_cards(self) -> list[Card]:
        view = self.shown
        return sorted_cards(view.hand, view.trump) if view is not None else []

    def playable(self, card: Card) -> Action | None:
        """The action that plays ``card`` now (a plain play), or ``None``."""
        action = Action.parse(str(card))
        return action if action in self.legal() else None

    def play(self, action: Action) -> None:
        if not self.my_turn:
            return
        if action not in self.legal():
            view = self.session.view
            assert view is not None
            self.log_lines(self.style.bad(refused(action, view, self.style, escape)))
            return
        view = self.session.view
        question = None
        if self.settings.confirm and view is not None:
            declared = view.declared_total(action) if action.is_declaration else 0
            question = risk_question(action, self.session.at_stake(action), declared=declared)
        if question is None:
            self.take(action)
            return

        def answer(yes: bool | None) -> None:
            if yes:
                self.take(action)

        self.app.push_screen(ConfirmScreen(question), answer)

    def take(self, action: Action) -> None:
        """Play ``action`` (legal, and confirmed where that is asked)."""
        if not self.my_turn:
            return
        self.hinted = None
        self.run_session(lambda: self.session.play(action))

    # Actions (keys and buttons) -----------------------------------------------------------
    def playable_cards(self) -> set[Card]:
        """The cards that may be played now (plainly or with a marriage)."""
        return {a.card for a in self.legal() if a.card is not None}

    def action_move(self, step: int) -> None:
        """Move the cursor to the next card that may be played (any card when none may)."""
        cards = self.hand_cards()
        if not cards:
            return
        playable = self.playable_cards() or set(cards)
        for _card in cards:
            self.selected = (self.selected + step) % len(cards)
            if cards[self.selected] in playable:
                break
        self.render_hand()

    def action_card(self, index: int) -> None:
        cards = self.hand_cards()
        if index < len(cards):
            self.selected = index
            self.play_card(cards[index])

    def play_card(self, card: Card) -> None:
        if not self.my_turn:
            return
        action = self.playable(card)
        if action is None:
            marriage = _marriage_lead(card)
            # Only the marriage lead is left for this card (R5.1), or nothing: play says why.
            action = marriage if marriage in self.legal() else Action.parse(str(card))
        self.play(action)

    def action_enter(self) -> None:
        if self.paused:
            self.next_hand()
            return
        if self.match_over:
            return
        cards = self.hand_cards()
        draw = Action.parse("D")
        legal = self.legal()
        if draw in legal and not any(a.kind is ActionKind.PLAY for a in legal):
            self.play(draw)  # after a won trick Enter draws, as in the line game
        elif cards:
            self.play_card(cards[self.selected % len(cards)])

    def action_act(self, token: str) -> None:
        try:
            action = Action.parse(token, lenient=True)
        except ParseError:  # pragma: no cover - the bindings give valid tokens
            return
        self.play(action)

    def action_marriage(self) -> None:
        cards = self.hand_cards()
        if cards:
            card = cards[self.selected % len(cards)]
            marriage = _marriage_lead(card)
            legal = {a for a in self.legal() if a.kind is ActionKind.MARRIAGE}
            if not legal and self.my_turn:
                self.log_lines(_("You have no marriage to announce now: a marriage is the king and queen "
                                 "of one suit, shown when you lead."))
            elif marriage is None:
                self.log_lines(_("Choose the king or the queen of your marriage (← →), then press m."))
            else:
                self.play(marriage)

    def on_card_view_chosen(self, message: CardView.Chosen) -> None:
        cards = self.hand_cards()
        if message.card in cards and message.control is not None \
                and message.control.parent is self.query_one("#hand"):
            self.selected = cards.index(message.card)
            self.play_card(message.card)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = event.button.id or ""
        if name == "next-hand":
            self.next_hand()
        elif name == "new-match":
            self.action_new_match()
        elif name == "hint":
            self.action_hint()
        elif name == "undo":
            self.action_undo()
        else:
            for action in self.legal():
                if action.kind is not ActionKind.PLAY and action_button_id(action) == name:
                    self.play(action)
                    return

    def next_hand(self) -> None:
        if not self.paused:
            return
        self.paused = False
        if self.queue:
            self.busy = True
            self._drain()
        else:
            self.run_session(self.session.advance)

    def action_new_match(self) -> None:
        self.app.call_later(self.app.run_action, "new_match")

    def action_undo(self) -> None:
        if not self.settings.undo:
            self.log_lines(_("Undo is off: turn it on in the settings (o) for the next match."))
            return
        if not self.my_turn:
            return
        try:
            self.shown = self.session.undo()
        except UndoError as exc:
            self.log_lines(self.style.bad(_("Nothing to undo: {problem}.").format(problem=escape(str(exc)))))
            return
        self.hinted = None
        self.log_lines(_("You took your last action back."))
        self.render_all()

    def action_hint(self) -> None:
        view = self.session.view
        if not self.my_turn or view is None:
            return
        if self.hint_shown is not None and self.hint_shown[0] == view:  # asked again: the numbers
            self.log_lines(hint_numbers(self.hint_shown[1], view, self.style))
            return
        self.log_lines("[dim]" + _("Thinking about your position…") + "[/dim]")
        self._hint_worker(view)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _hint_worker(self, view: View) -> None:
        rng = random.Random(f"sixtysix-hint-{self.setup.seed}-{len(view.history)}")
        lines = analyse(view, self.setup.hint_budget, rng=rng, network=shipped_network())
        with i18n.use(self.language):
            self.app.call_from_thread(self._show_hint, view, lines)

    def _show_hint(self, view: View, lines: list[ActionValue]) -> None:
        if self.session.view != view or not lines:
            return  # the position changed meanwhile
        self.hinted = lines[0].action
        self.hint_shown = (view, lines)
        self.log_lines(hint_text(lines, view, self.style))
        self.render_all()

    # Drawing ---------------------------------------------------------------------------------
    def render_all(self) -> None:
        view = self.shown
        self.render_status()
        self.render_table(view)
        self.render_hand()
        self.render_prompt(view)
        self.render_actions()

    def render_status(self) -> None:
        info = self.info
        score = describe_score(info.score, self.seats, self.style)
        hand = _("Hand {n}").format(n=info.hand_number) if info.hand_number else _("Cutting for the deal")
        match = _("Match: {score} (to {target})").format(score=score, target=info.target)
        text = f"[b]{hand}[/b] · {match} · {escape(self.setup.preset)}"
        if info.pending_bonus:
            text += " · " + _("+{bonus} tie bonus").format(bonus=info.pending_bonus)
        if self.settings.memory:
            text += " · " + _("memory")
        if self.settings.undo:
            text += " · " + _("undo")
        self.query_one("#status", Static).update(text)

    def render_table(self, view: View | None) -> None:
        opponent = self.query_one("#opponent", Static)
        table = self.query_one(TableView)
        if view is None:
            opponent.update(escape(self.seats.other))
            table.clear()
            return
        them = view.opponent
        n_them = opponent_cards(view)
        cards = ngettext("{n} card", "{n} cards", n_them).format(n=n_them)
        level = escape(level_name(self.setup.level))
        text = f"[b]{escape(self.seats.other)}[/b] ({level}): {'▮' * n_them} " \
               f"{cards} · {tricks(view.tricks_won[them])}"
        if not self.settings.memory:
            text += " · " + ngettext("{n} point", "{n} points", view.scores[them]).format(n=view.scores[them])
        opponent.update(text)
        info = info_text(view, self.seats, self.style, memory=self.settings.memory)
        table.show(view, top=them, names=(self.seats.other, self.seats.name(self.seats.seat)), info=info,
                   style=self.style)

    def render_hand(self) -> None:
        row = self.query_one("#hand", CardRow)
        cards = self.hand_cards()
        row.show(cards, numbered=True)
        playable = self.playable_cards()
        if cards:
            self.selected %= len(cards)
            if playable and cards[self.selected] not in playable:
                # The cursor starts on a card that may be played.
                self.selected = next(i for i, c in enumerate(cards) if c in playable)
        for i, (place, card) in enumerate(zip(row.places, cards, strict=False)):
            if self.my_turn:
                place.set_class(card in playable, "legal")
                place.set_class(card not in playable, "illegal")
                place.set_class(i == self.selected and bool(playable), "selected")
            hinted = self.hinted is not None and self.hinted.card == card
            place.set_class(hinted, "hinted")
            place.border_title = "★" if hinted else ""

    def render_prompt(self, view: View | None) -> None:
        prompt = self.query_one("#prompt", Static)
        prompt.update(self.prompt_text(view))

    def prompt_text(self, view: View | None) -> str:
        style = self.style
        if self.error is not None:
            return style.bad(_("The game cannot go on: see the message above. Press n for a new match."))
        if self.match_over:
            return _("The match is over. [b]n[/b] new match · [b]g[/b] records and replays · [b]q[/b] quit")
        if self.paused:
            return _("{summary} [b]Enter[/b]: next hand.").format(summary=self.hand_summary)
        if self.busy or view is None:
            return "[dim]" + _("{name} is playing…").format(name=escape(self.seats.other)) + "[/dim]"
        if not self.my_turn:
            return "[dim]" + _("Waiting…") + "[/dim]"
        return your_turn(view, style)

    def render_actions(self) -> None:
        legal = {action_button_id(a) for a in self.legal() if a.kind is not ActionKind.PLAY}
        for button in self.query_one("#actions").query_children(Button):
            name = button.id or ""
            if name == "next-hand":
                show = self.paused
            elif name == "new-match":
                show = self.match_over or self.error is not None
            elif name == "hint":
                show = self.my_turn
            elif name == "undo":
                show = self.settings.undo and self.my_turn and self.session.can_undo
            else:
                show = name in legal
            button.display = show


def _marriage_lead(card: Card) -> Action | None:
    """The marriage lead with ``card`` (``KH+``), for a king or a queen."""
    return Action.parse(f"{card}+") if card.rank in (Rank.KING, Rank.QUEEN) else None
