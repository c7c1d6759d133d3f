"""Solving a puzzle: what the player is shown, and the verdict on the action he chose,
with the reason in words, shared by the browser and the terminal game.

The player sees his view of the position (never the opponent's hand) and chooses one
action. The puzzle claims one thing (docs/puzzles.md): its first action is the only
best one, by its margin, whatever the opponent holds. So the attempt is right exactly
when the chosen action is the solution's first; the rest of the solution is then played
out: the opponent's best replies and the player's best moves, to the end of the hand.

The reason is said from the solver's table of the position (every legal action solved
in every world the view allows, :func:`sixtysix.puzzles.verify.assess`) and the
kernel's facts, never from a rule decided here.

>>> from sixtysix.puzzles.shipped import shipped
>>> puzzle = next(p for p in shipped() if p.kind == "open")
>>> right = judge(puzzle, puzzle.first)
>>> right.solved, right.line == puzzle.solution
(True, True)
>>> wrong = judge(puzzle, next(a for a in puzzle.position().legal_actions() if a != puzzle.first))
>>> wrong.solved
False
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.hand import Hand
from sixtysix.i18n import N_, _, ngettext
from sixtysix.present.text.screen import action_meaning
from sixtysix.present.text.style import AnsiStyle, Style
from sixtysix.puzzles.puzzle import Kind, Puzzle
from sixtysix.puzzles.themes import Theme
from sixtysix.puzzles.verify import Assessment, assess

__all__ = ["THEME_NAMES", "Step", "Verdict", "action_words", "assessment", "judge", "line_seats", "prompt",
           "solution_steps", "theme_name"]

#: Each theme's name as a player reads it (docs/puzzles.md), marked for translation.
THEME_NAMES = {
    Theme.DECLARE: N_("Count to 66 and declare"),
    Theme.PLAY_ON: N_("Play on instead of declaring"),
    Theme.CLOSE: N_("Close and make it"),
    Theme.DONT_CLOSE: N_("Do not close"),
    Theme.LAST_TRUMP: N_("Keep the trump for the last trick"),
    Theme.MARRIAGE: N_("Marriage timing"),
    Theme.EXCHANGE: N_("Exchange the trump nine"),
    Theme.SCHWARZ: N_("Schwarz: leave the opponent trickless"),
    Theme.TIE: N_("The tie at 65"),
    Theme.REVOKE: N_("Avoid a revoke"),
}

_CARDS = AnsiStyle(color=False, symbols=True)


def theme_name(theme: Theme) -> str:
    """A theme's name in the current language."""
    return _(THEME_NAMES[theme])


def action_words(action: Action, position: Hand, style: Style = _CARDS) -> str:
    """An action as the player reads it: a card as on the card (9♦), else what it does."""
    view = position.view(position.to_act)  # type: ignore[arg-type]
    if action.kind is ActionKind.PLAY and action.card is not None:
        return style.card(action.card)
    if action.kind is ActionKind.DRAW:
        return _("draw")  # the terminal's meaning names its key, "draw (Enter)": not in a line read
    return action_meaning(action, view, style) or style.action(action)


def prompt(puzzle: Puzzle) -> str:
    """What the player is asked, in the current language."""
    if puzzle.value < 0:
        return _("Your move: every action loses here. Find the one that loses least.")
    return _("Your move: find the best action.")


def assessment(puzzle: Puzzle) -> Assessment:
    """The solver's table of the puzzle's position (kept for the latest puzzles)."""
    return _assessment(puzzle.id, _Unhashed(puzzle))


@functools.lru_cache(maxsize=256)
def _assessment(_key: str, puzzle: _Unhashed) -> Assessment:
    return assess(puzzle.value.position())


@dataclass(frozen=True, eq=False)
class _Unhashed:
    """A puzzle carried past the cache's key (a puzzle's record is not hashable)."""

    value: Puzzle


def _points(n: int) -> str:
    if n > 0:
        return ngettext("wins {n} game point", "wins {n} game points", n).format(n=n)
    if n < 0:
        return ngettext("loses {n} game point", "loses {n} game points", -n).format(n=-n)
    return _("scores nothing")


@dataclass(frozen=True)
class Verdict:
    """The outcome of one attempt."""

    solved: bool
    chosen: Action
    #: Why, in the language in use when it was made.
    reason: str
    #: The solution: the first action, then best play by both to the end of the hand.
    line: tuple[Action, ...]


def judge(puzzle: Puzzle, chosen: Action) -> Verdict:
    """The verdict on ``chosen`` (a legal action at the position; :class:`ValueError`
    otherwise), with the reason in the current language."""
    position = puzzle.position()
    if not position.is_legal(chosen):
        raise ValueError(f"{chosen} is not legal at the puzzle's position")
    best = action_words(puzzle.first, position)
    if chosen == puzzle.first:
        if puzzle.kind is Kind.OPEN:
            reason = ngettext(
                "Right: {action} {points} with best play; every other action gets at least "
                "{n} game point less.",
                "Right: {action} {points} with best play; every other action gets at least "
                "{n} game points less.",
                puzzle.margin)
        else:
            reason = ngettext(
                "Right: whatever the opponent holds, {action} {points} at worst; every other action gets at "
                "least {n} game point less.",
                "Right: whatever the opponent holds, {action} {points} at worst; every other action gets at "
                "least {n} game points less.", puzzle.margin)
        text = reason.format(action=best, points=_points(puzzle.value), n=puzzle.margin)
        return Verdict(True, chosen, text, puzzle.solution)
    table = assessment(puzzle)
    mine, theirs = table.actions.index(chosen), table.actions.index(puzzle.first)
    behind = min(row[theirs] - row[mine] for row in table.rows)
    chosen_words = action_words(chosen, position)
    if puzzle.kind is Kind.OPEN:
        text = _("Not best: {chosen} {its_points} with best play; {action} {points}.").format(
            chosen=chosen_words, its_points=_points(table.value(chosen)), action=best,
            points=_points(puzzle.value))
    else:
        text = ngettext(
            "Not best: whatever the opponent holds, {action} gets at least {n} game point more "
            "than {chosen}.",
            "Not best: whatever the opponent holds, {action} gets at least {n} game points more "
            "than {chosen}.",
            behind).format(action=best, chosen=chosen_words, n=behind)
    return Verdict(False, chosen, text, puzzle.solution)


@dataclass(frozen=True)
class Step:
    """One line of the solution as a person reads it: who acts, what, in words (in the
    language in use when it was made), and the position after it."""

    seat: int
    action: Action
    words: str
    after: Hand


def solution_steps(puzzle: Puzzle) -> list[Step]:
    """The solution as the page and the terminal game list it: where the puzzle's player
    answers a lead, the opponent's lead on the table first (its position is the puzzle's
    own), so that the first trick reads whole and every action of the opponent is in the
    list; then each action of the solution with the seat that takes it.

    >>> from sixtysix.puzzles.shipped import by_id
    >>> puzzle = by_id("77a18d9c3088")
    >>> [(step.seat, str(step.action)) for step in solution_steps(puzzle)][:3]
    [(0, 'AS'), (1, 'JS'), (0, 'C')]
    >>> [str(step.action) for step in solution_steps(puzzle)][1:] == [str(a) for a in puzzle.solution]
    True
    """
    position = puzzle.position()
    steps = []
    me = position.to_act
    assert me is not None  # a puzzle's position has its player to act
    if position.view(me).lead is not None:  # the last action of the record is the lead (R3.1)
        *earlier, lead = position.actions
        before = Hand.deal(position.deck, position.dealer, position.rules)
        for action in earlier:
            before.push(action)
        leader = before.to_act
        assert leader is not None
        steps.append(Step(leader, lead, action_words(lead, before), position.copy()))
    hand = position.copy()
    for seat, action in line_seats(puzzle):
        words = action_words(action, hand)
        hand.push(action)
        steps.append(Step(seat, action, words, hand.copy()))
    return steps


def line_seats(puzzle: Puzzle, line: Sequence[Action] | None = None) -> list[tuple[int, Action]]:
    """Each action of the solution (or ``line``) with the seat that takes it."""
    hand = puzzle.position()
    seats = []
    for action in puzzle.solution if line is None else line:
        seat = hand.to_act
        assert seat is not None  # the line ends the hand with its last action
        seats.append((seat, action))
        hand.push(action)
    return seats
