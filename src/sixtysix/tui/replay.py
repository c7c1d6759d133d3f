"""The replay viewer: a game record shown action by action, both hands open.

Arrow keys step through the actions (←/→), the hands (↑/↓ or PgUp/PgDn),
Home/End jump to the start and the end of a hand. Under each action the
viewer says how good it was (:func:`sixtysix.tui.review.judge`), computed in
a worker thread so that stepping stays quick. The whole state is shown: a
record is read after play, when nothing is hidden any more.
"""

from __future__ import annotations

import random
import threading
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from sixtysix.actions import Action, ActionKind
from sixtysix.analysis import Budget
from sixtysix.cards import Rank
from sixtysix.console import sorted_cards
from sixtysix.hand import Hand
from sixtysix.kernel.tables import marriage_value
from sixtysix.record import Record
from sixtysix.tui.review import Review, Verdict, judge
from sixtysix.tui.style import MarkupStyle, escape
from sixtysix.tui.table import TableView
from sixtysix.tui.widgets import CardRow

__all__ = ["ReplayScreen", "describe_step"]

REASONS = {
    "declared": "declared 66",
    "false_declaration": "a false declaration of 66",
    "closed_failed": "a failed close",
    "closed_succeeded": "a successful close",
    "played_out": "all cards played",
    "tie": "a tie",
    "revoke": "a revoke",
    "forfeit": "a forfeit (the program failed)",
}


def describe_step(name: str, action: Action, before: Hand, style: MarkupStyle) -> str:
    """What ``name`` did with ``action`` in the position ``before``, in a few words."""
    kind = action.kind
    if kind is ActionKind.PLAY and action.card is not None:
        verb = "leads" if before.state == "lead" else "plays"
        return f"{name} {verb} {style.card(action.card)}"
    if kind is ActionKind.MARRIAGE and action.card is not None:
        value = marriage_value(action.card.suit, before.trump)
        return f"{name} announces the marriage in {style.suit(action.card.suit)} ({value}) " \
               f"and leads {style.card(action.card)}"
    if kind is ActionKind.EXCHANGE:
        return f"{name} exchanges the trump {Rank(before.rules.exchange_rank).name.lower()}"
    if kind is ActionKind.CLOSE:
        return f"{name} closes the stock"
    if kind is ActionKind.DRAW:
        return f"{name} draws"
    if kind is ActionKind.DECLARE:
        return f"{name} declares 66"
    assert action.suit is not None
    return f"{name} shows the marriage in {style.suit(action.suit)} and declares 66"


class ReplayScreen(Screen[None]):
    """Step through a record; ``title`` names it (a file name)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", "Next"),
        Binding("left", "step(-1)", "Back"),
        Binding("down,pagedown", "hand(1)", "Next hand"),
        Binding("up,pageup", "hand(-1)", "Hand back"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("a", "toggle_analysis", "Analysis"),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(self, record: Record, title: str = "record", *, budget: Budget | None = None,
                 analysis: bool = True) -> None:
        super().__init__()
        self.review = Review(record)
        self.record_title = title
        self.budget = budget or Budget(worlds=24)
        self.analysis = analysis
        self.style = MarkupStyle()
        self.h = 0
        self.k = 0
        self.verdicts: dict[tuple[int, int], Verdict | str] = {}
        self._judging = threading.Lock()

    def compose(self) -> ComposeResult:
        yield Static(id="replay-status")
        yield Static(id="top-label", classes="label")
        yield CardRow(7, id="top-hand")
        yield TableView(id="table")
        yield CardRow(7, id="bottom-hand")
        yield Static(id="bottom-label", classes="label")
        yield Static(id="step")
        yield Static(id="verdict")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    # Moving ----------------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        k = self.k + delta
        if k < 0 and self.h > 0:
            self.h -= 1
            k = self.review.steps(self.h)
        elif k > self.review.steps(self.h) and self.h + 1 < len(self.review.hands):
            self.h += 1
            k = 0
        self.k = max(0, min(k, self.review.steps(self.h)))
        self.show()

    def action_hand(self, delta: int) -> None:
        self.h = max(0, min(self.h + delta, len(self.review.hands) - 1))
        self.k = 0
        self.show()

    def action_jump(self, where: int) -> None:
        self.k = 0 if where == 0 else self.review.steps(self.h)
        self.show()

    def action_toggle_analysis(self) -> None:
        self.analysis = not self.analysis
        self.show()

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()
        else:
            self.app.exit()

    # Drawing ---------------------------------------------------------------------------
    def show(self) -> None:
        review, h, k = self.review, self.h, self.k
        hand = review.position(h, k)
        names = review.players()
        style = self.style
        steps = review.steps(h)
        a, b = review.score_before(h)
        status = f"[b]Replay[/b] · hand {h + 1}/{len(review.hands)} · action {k}/{steps}"
        if review.is_match:
            status += f" · match {a}-{b}"
        status += f" · {escape(self.record_title)}"
        self.query_one("#replay-status", Static).update(status)
        # Seat 1 on top, seat 0 at the bottom.
        for seat, row_id, label_id in ((1, "#top-hand", "#top-label"), (0, "#bottom-hand", "#bottom-label")):
            cards = sorted_cards(hand.cards(seat), hand.trump)
            self.query_one(row_id, CardRow).show(cards)
            role = " (dealer)" if hand.dealer == seat else ""
            to_act = " · [b]to act[/b]" if hand.to_act == seat else ""
            self.query_one(label_id, Static).update(
                f"[b]{escape(names[seat])}[/b]{role}: {hand.score(seat)} points, "
                f"{hand.tricks_won(seat)} trick{'s' if hand.tricks_won(seat) != 1 else ''}{to_act}")
        view = hand.view(0)  # the table is public: the same from either seat
        trick_text = ""
        if view.lead is not None:
            trick_text = f"{escape(names[view.lead[0]])} led"
        elif view.last_trick is not None:
            trick = view.last_trick
            won = "revoked" if trick.winner is None else f"won by {escape(names[trick.winner])}"
            trick_text = f"Last trick {won}"
        info = "\n".join(filter(None, [trick_text, self.info_text(hand, names)]))
        self.query_one(TableView).show(view, top=1, names=(names[1], names[0]), info=info, style=style)
        # The action that led here, and its verdict.
        step = self.query_one("#step", Static)
        verdict = self.query_one("#verdict", Static)
        if k == 0:
            step.update(f"The deal: {escape(names[hand.dealer])} deals, "
                        f"{style.card(hand.dealt_trump_card)} is turned up. → to step.")
            verdict.update("")
        else:
            before = review.position(h, k - 1)
            action = review.action(h, k - 1)
            actor = before.to_act
            assert actor is not None
            step.update(f"{k}. {describe_step(escape(names[actor]), action, before, style)}.")
            self.show_verdict(before, action)

    def info_text(self, hand: Hand, names: tuple[str, str]) -> str:
        lines = []
        if hand.closed_by is not None:
            lines.append(f"Stock closed by {escape(names[hand.closed_by])}")
        result = hand.result()
        if result is not None:
            if result.winner is None:
                lines.append("[b]Tied hand[/b]: nobody scores")
            else:
                gp = result.game_points
                lines.append(f"[b]{escape(names[result.winner])} wins {gp} game point"
                             f"{'s' if gp != 1 else ''}[/b] ({REASONS[result.reason]})")
        return "\n".join(lines)

    def show_verdict(self, before: Hand, action: Action) -> None:
        verdict = self.query_one("#verdict", Static)
        if not self.analysis:
            verdict.update("[dim]Analysis off (a to turn it on).[/dim]")
            return
        key = (self.h, self.k)
        known = self.verdicts.get(key)
        if known is None:
            verdict.update("[dim]Analysing…[/dim]")
            self._judge(key, before, action)
        elif isinstance(known, str):
            verdict.update(known)
        else:
            verdict.update(escape(known.describe()))

    @work(thread=True, group="judge", exit_on_error=False)
    def _judge(self, key: tuple[int, int], before: Hand, action: Action) -> None:
        # One analysis at a time; one asked for a step the viewer has left meanwhile is
        # dropped (it is asked again on coming back), so quick stepping costs nothing.
        with self._judging:
            if key != (self.h, self.k):
                return
            self._judge_now(key, before, action)

    def _judge_now(self, key: tuple[int, int], before: Hand, action: Action) -> None:
        try:
            result: Verdict | str = judge(before, action, budget=self.budget,
                                          rng=random.Random(f"sixtysix-review-{key}"))
        except ValueError as exc:
            result = f"No analysis: {escape(str(exc))}"
        self.app.call_from_thread(self._judged, key, result)

    def _judged(self, key: tuple[int, int], result: Verdict | str) -> None:
        self.verdicts[key] = result
        if key == (self.h, self.k) and self.is_mounted:
            verdict = self.query_one("#verdict", Static)
            verdict.update(result if isinstance(result, str) else escape(result.describe()))
