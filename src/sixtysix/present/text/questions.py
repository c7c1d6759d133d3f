"""What to ask before an action that cannot be taken back (closing, declaring 66 under
66), in the words of the browser's game, so that both faces ask alike.

The stake — the game points the opponent would score — comes from the kernel
(:meth:`sixtysix.play.session.PlaySession.at_stake`); this module only words it.

>>> from sixtysix.game.actions import Action
>>> question = risk_question(Action.parse("C"), 3, declared=0)
>>> question.title, question.yes
('Close the stock?', 'Close the stock')
>>> risk_question(Action.parse("66"), 3, declared=40).title
'Declare 66 with 40?'
>>> risk_question(Action.parse("D"), None, declared=0) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from sixtysix.game.actions import Action, ActionKind
from sixtysix.i18n import _, ngettext

__all__ = ["Question", "leave_question", "risk_question"]


@dataclass(frozen=True)
class Question:
    """A question before an action: a title, a sentence on what it costs, and the words
    on the answer that goes ahead."""

    title: str
    text: str
    yes: str


def risk_question(action: Action, at_stake: int | None, *, declared: int) -> Question | None:
    """The question before ``action``, which puts ``at_stake`` game points at risk
    (``None``: nothing, no question); ``declared`` is what a declaration would count."""
    if at_stake is None:
        return None
    if action.kind is ActionKind.CLOSE:
        return Question(
            _("Close the stock?"),
            ngettext("No more cards are drawn, and from now on you must follow suit and win the trick "
                     "if you can. If you do not reach 66, your opponent scores {n} game point.",
                     "No more cards are drawn, and from now on you must follow suit and win the trick "
                     "if you can. If you do not reach 66, your opponent scores {n} game points.",
                     at_stake).format(n=at_stake),
            _("Close the stock"))
    if action.is_declaration:
        return Question(
            _("Declare 66 with {points}?").format(points=declared),
            ngettext("You count {points}, under 66: declaring now loses the hand, and your opponent "
                     "scores {n} game point. Play on to collect more points.",
                     "You count {points}, under 66: declaring now loses the hand, and your opponent "
                     "scores {n} game points. Play on to collect more points.",
                     at_stake).format(points=declared, n=at_stake),
            _("Declare anyway"))
    return None


def leave_question() -> Question:
    """The question before leaving a hand in play (the terminal game's ``q``)."""
    return Question(_("Leave the match?"),
                    _("The hand in play is saved with the match: continue it on the next start, "
                      "or with: sixtysix play --resume"),
                    _("Leave"))
