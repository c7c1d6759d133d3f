"""The replay viewer: a game record shown action by action, both hands open.

Arrow keys step through the actions (←/→), the hands (↑/↓ or PgUp/PgDn),
Home/End jump to the start and the end of a hand. Under each action the
viewer says how good it was (:func:`sixtysix.present.review.judge`), computed in
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

from sixtysix import i18n
from sixtysix.bots.analysis import Budget
from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import Rank
from sixtysix.game.hand import Hand
from sixtysix.game.record import Record
from sixtysix.i18n import N_, _, ngettext
from sixtysix.kernel.tables import marriage_value
from sixtysix.present.review import Review, Verdict, judge
from sixtysix.present.text.advice import verdict_text
from sixtysix.present.text.screen import sorted_cards
from sixtysix.present.text.words import rank_word, tricks_text
from sixtysix.tui.style import MarkupStyle, escape
from sixtysix.tui.table import TableView
from sixtysix.tui.widgets import CardRow, translate_bindings

__all__ = ["ReplayScreen", "describe_step", "short_name"]

#: How a hand ended, in a few words (translate with ``_``).
REASONS = {
    "declared": N_("declared 66"),
    "false_declaration": N_("a false declaration of 66"),
    "closed_failed": N_("a failed close"),
    "closed_succeeded": N_("a successful close"),
    "played_out": N_("all cards played"),
    "tie": N_("a tie"),
    "revoke": N_("a revoke"),
    "forfeit": N_("a forfeit (the program failed)"),
}


def describe_step(name: str, action: Action, before: Hand, style: MarkupStyle) -> str:
    """What ``name`` did with ``action`` in the position ``before``, in a few words."""
    kind = action.kind
    if kind is ActionKind.PLAY and action.card is not None:
        if before.state == "lead":
            return _("{name} leads {card}").format(name=name, card=style.card(action.card))
        return _("{name} plays {card}").format(name=name, card=style.card(action.card))
    if kind is ActionKind.MARRIAGE and action.card is not None:
        value = marriage_value(action.card.suit, before.trump)
        return _("{name} announces the marriage in {suit} ({value}) and leads {card}").format(
            name=name, suit=style.suit(action.card.suit), value=value, card=style.card(action.card))
    if kind is ActionKind.EXCHANGE:
        return _("{name} exchanges the trump {rank}").format(name=name,
                                                             rank=rank_word(Rank(before.rules.exchange_rank)))
    if kind is ActionKind.CLOSE:
        return _("{name} closes the stock").format(name=name)
    if kind is ActionKind.DRAW:
        return _("{name} draws").format(name=name)
    if kind is ActionKind.DECLARE:
        return _("{name} declares 66").format(name=name)
    assert action.suit is not None
    return _("{name} shows the marriage in {suit} and declares 66").format(name=name,
                                                                            suit=style.suit(action.suit))


def short_name(name: str) -> str:
    """A player's name without what follows it in brackets (the computer's level), for the
    narrow label over a card of the trick.

    >>> short_name("computer (medium)"), short_name("Anna")
    ('computer', 'Anna')
    """
    return name.split(" (", 1)[0].strip() or name


class ReplayScreen(Screen[None]):
    """Step through a record; ``title`` names it (a file name)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "step(1)", N_("Next")),
        Binding("left", "step(-1)", N_("Back")),
        Binding("down,pagedown", "hand(1)", N_("Next hand")),
        Binding("up,pageup", "hand(-1)", N_("Hand back")),
        Binding("home", "jump(0)", N_("Start"), show=False),
        Binding("end", "jump(-1)", N_("End"), show=False),
        Binding("a", "toggle_analysis", N_("Analysis")),
        Binding("escape,q", "close", N_("Close")),
    ]

    def __init__(self, record: Record, title: str = "record", *, budget: Budget | None = None,
                 analysis: bool = True) -> None:
        super().__init__()
        translate_bindings(self)
        #: The language of the viewer's text (the context's when it was made).
        self.language = i18n.language()
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
        result = hand.result()
        if result is not None and result.winner is not None:  # the hand is over here: its score counts
            a, b = (a + result.game_points + result.bonus, b) if result.winner == 0 else \
                (a, b + result.game_points + result.bonus)
        status = _("[b]Replay[/b] · hand {hand}/{hands} · action {action}/{actions}").format(
            hand=h + 1, hands=len(review.hands), action=k, actions=steps)
        if review.is_match:
            status += " · " + _("match {score}").format(score=f"{a}-{b}")
        status += f" · {escape(self.record_title)}"
        self.query_one("#replay-status", Static).update(status)
        # Seat 1 on top, seat 0 at the bottom.
        for seat, row_id, label_id in ((1, "#top-hand", "#top-label"), (0, "#bottom-hand", "#bottom-label")):
            cards = sorted_cards(hand.cards(seat), hand.trump)
            self.query_one(row_id, CardRow).show(cards)
            label = f"[b]{escape(names[seat])}[/b]"
            if hand.dealer == seat:
                label = _("{name} (dealer)").format(name=label)
            label = ngettext("{name}: {n} point, {tricks}", "{name}: {n} points, {tricks}",
                             hand.score(seat)).format(name=label, n=hand.score(seat),
                                                      tricks=tricks_text(hand.tricks_won(seat)))
            if hand.to_act == seat:
                label += " · [b]" + _("to act") + "[/b]"
            self.query_one(label_id, Static).update(label)
        view = hand.view(0)  # the table is public: the same from either seat
        trick_text = ""
        if view.lead is not None:
            trick_text = _("{name} led").format(name=escape(names[view.lead[0]]))
        elif view.last_trick is not None:
            trick = view.last_trick
            if trick.winner is None:
                trick_text = _("Last trick revoked")
            else:
                trick_text = _("Last trick won by {name}").format(name=escape(names[trick.winner]))
        info = "\n".join(filter(None, [trick_text, self.info_text(hand, names)]))
        # Over the trick, names as short as the game's ("computer", not "computer (medium)").
        self.query_one(TableView).show(view, top=1, names=(short_name(names[1]), short_name(names[0])),
                                       info=info, style=style)
        # The action that led here, and its verdict.
        step = self.query_one("#step", Static)
        verdict = self.query_one("#verdict", Static)
        if k == 0:
            step.update(_("The deal: {name} deals, {card} is turned up. → to step.").format(
                name=escape(names[hand.dealer]), card=style.card(hand.dealt_trump_card)))
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
            lines.append(_("Stock closed by {name}").format(name=escape(names[hand.closed_by])))
        result = hand.result()
        if result is not None:
            if result.winner is None:
                lines.append(_("[b]Tied hand[/b]: nobody scores"))
            else:
                gp = result.game_points
                lines.append(ngettext("[b]{name} wins {n} game point[/b] ({why})",
                                      "[b]{name} wins {n} game points[/b] ({why})", gp).format(
                    name=escape(names[result.winner]), n=gp, why=_(REASONS[result.reason])))
        return "\n".join(lines)

    def show_verdict(self, before: Hand, action: Action) -> None:
        verdict = self.query_one("#verdict", Static)
        if not self.analysis:
            verdict.update("[dim]" + _("Analysis off (a to turn it on).") + "[/dim]")
            return
        key = (self.h, self.k)
        known = self.verdicts.get(key)
        if known is None:
            verdict.update("[dim]" + _("Analysing…") + "[/dim]")
            self._judge(key, before, action)
        elif isinstance(known, str):
            verdict.update(known)
        else:
            verdict.update(self.verdict_words(known))

    def verdict_words(self, verdict: Verdict) -> str:
        """A verdict in words, the best actions named as the game names them (cards as on
        the card, not their codes)."""
        before = self.review.position(self.h, self.k - 1)
        return verdict_text(verdict, before.view(verdict.seat), self.style)

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
            result: Verdict | ValueError = judge(before, action, budget=self.budget,
                                                 rng=random.Random(f"sixtysix-review-{key}"))
        except ValueError as exc:
            result = exc
        with i18n.use(self.language):  # the callback runs in this context (see GameScreen)
            self.app.call_from_thread(self._judged, key, result)

    def _judged(self, key: tuple[int, int], outcome: Verdict | ValueError) -> None:
        # Worded here, in the app's thread and language (a worker thread has neither).
        result: Verdict | str = outcome if isinstance(outcome, Verdict) else \
            _("No analysis: {problem}").format(problem=escape(str(outcome)))
        self.verdicts[key] = result
        if key == (self.h, self.k) and self.is_mounted:
            verdict = self.query_one("#verdict", Static)
            verdict.update(result if isinstance(result, str) else self.verdict_words(result))
