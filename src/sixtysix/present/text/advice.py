"""A hint in words, for a person at the table (terminal, line game): the best action
as the page names it ("Play K♥"), what it wins on average and how sure that is, then,
for whoever asks again, the numbers of every action.

The numbers come from :func:`sixtysix.bots.analysis.analyse`; :func:`sixtysix.bots.analysis.advise`
says which action is best, how sure its value is and which other action is as good.
Actions are named in words everywhere, never by their notation (``D``, ``C``).

>>> from sixtysix import Hand
>>> from sixtysix.game.actions import Action
>>> from sixtysix.bots.analysis import ActionValue
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> view = hand.view(1)
>>> lines = [ActionValue(Action.parse("AS"), 1.43, 0.11, 200, False),
...          ActionValue(Action.parse("9D"), -0.2, 0.3, 200, False)]
>>> advice_text(lines, view, AnsiStyle(color=False))
'Play A♠: it wins about 1.4 game points on average (quite sure).'
>>> action_words(Action.parse("C"), view, AnsiStyle(color=False))
'Close the stock'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sixtysix.bots.analysis import Certainty, advise
from sixtysix.game.actions import Action, ActionKind
from sixtysix.i18n import N_, _, decimal, ngettext
from sixtysix.present.text.style import AnsiStyle, Style
from sixtysix.present.text.words import suit_name

if TYPE_CHECKING:
    from sixtysix.bots.analysis import ActionValue
    from sixtysix.game.views import View
    from sixtysix.present.review import Verdict

__all__ = ["CERTAINTY", "action_words", "advice_text", "as_good_sentence", "best_words", "margin", "signed",
           "value_words", "verdict_text"]

#: How sure an estimate is, in words (translate with ``_``).
CERTAINTY = {
    Certainty.SURE: N_("quite sure"),
    Certainty.LIKELY: N_("fairly sure"),
    Certainty.ROUGH: N_("a rough guess: the hidden cards could change it"),
}

#: Values closer to 0 than this are "about even".
EVEN = 0.05


def action_words(action: Action, view: View, style: Style) -> str:
    """An action in words, as the page's buttons say it: ``Play K♥``, ``Close the stock``."""
    kind = action.kind
    if kind is ActionKind.EXCHANGE:
        if view.trump_card is not None:
            return _("Exchange your {card} for the turned-up {trump}").format(
                card=style.card(view.exchange_card), trump=style.card(view.trump_card))
        return _("Exchange for the turned-up trump")
    if kind is ActionKind.CLOSE:
        return _("Close the stock")
    if kind is ActionKind.DRAW:
        return _("Draw")
    if kind is ActionKind.DECLARE:
        return _("Declare 66")
    if kind is ActionKind.DECLARE_MARRIAGE:
        assert action.suit is not None
        return _("Show the {suit} marriage and declare 66").format(suit=suit_name(action.suit))
    assert action.card is not None
    if kind is ActionKind.MARRIAGE:
        return _("Marriage: {card} and lead it").format(card=style.card(action.card))
    return _("Play {card}").format(card=style.card(action.card))


def best_words(action: Action, view: View, style: Style) -> str:
    """The best action at the head of a hint's sentence: as :func:`action_words` says it,
    a marriage in words of its own (``Announce the marriage in spades and lead K♠``, not
    the button's ``Marriage: K♠ and lead it``, whose colon the sentence cannot carry).

    >>> from sixtysix import Hand
    >>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
    >>> best_words(Action.parse("KS+"), hand.view(1), Style())
    'Announce the marriage in spades and lead KS'
    """
    if action.kind is ActionKind.MARRIAGE:
        assert action.card is not None
        return _("Announce the marriage in {suit} and lead {card}").format(
            suit=suit_name(action.card.suit), card=style.card(action.card))
    return action_words(action, view, style)


def as_good_sentence(action: Action, view: View, style: Style) -> str:
    """An action about as good as the best, in a sentence of its own: ``9C is about as
    good.``, ``Closing the stock is about as good.``

    >>> from sixtysix import Hand
    >>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
    >>> as_good_sentence(Action.parse("QS+"), hand.view(1), Style())
    'Announcing the marriage in spades and leading QS is about as good.'
    """
    kind = action.kind
    if kind is ActionKind.EXCHANGE:
        if view.trump_card is not None:
            return _("Exchanging your {card} for the turned-up {trump} is about as good.").format(
                card=style.card(view.exchange_card), trump=style.card(view.trump_card))
        return _("Exchanging for the turned-up trump is about as good.")
    if kind is ActionKind.CLOSE:
        return _("Closing the stock is about as good.")
    if kind is ActionKind.DRAW:
        return _("Drawing is about as good.")
    if kind is ActionKind.DECLARE:
        return _("Declaring 66 is about as good.")
    if kind is ActionKind.DECLARE_MARRIAGE:
        assert action.suit is not None
        return _("Showing the {suit} marriage and declaring 66 is about as good.").format(
            suit=suit_name(action.suit))
    assert action.card is not None
    if kind is ActionKind.MARRIAGE:
        return _("Announcing the marriage in {suit} and leading {card} is about as good.").format(
            suit=suit_name(action.card.suit), card=style.card(action.card))
    return _("{card} is about as good.").format(card=style.card(action.card))


def signed(value: float, digits: int = 2) -> str:
    """A value with its sign, as the page writes it: ``+1.40``, ``−0.79`` (``−0,79`` in German)."""
    return ("−" if value < 0 else "+") + decimal(abs(value), digits)


def margin(line: ActionValue) -> str:
    """An action's value for experts: ``+1.40 ± 0.11``, or ``+2 exactly``; near the most a
    hand scores, its interval as far as it is possible, ``+2.56 (+1.82 to +3.00)``, never
    ``+2.56 ± 0.74`` (which would reach 3.30, R9.1).

    >>> from sixtysix.bots.analysis import ActionValue
    >>> from sixtysix.game.actions import Action
    >>> margin(ActionValue(Action.parse("C"), 2.56, 0.74, 16, False))
    '+2.56 (+1.82 to +3.00)'
    >>> margin(ActionValue(Action.parse("C"), -1.4, 0.11, 16, False))
    '−1.40 ± 0.11'
    """
    if line.exact:
        return _("{value} exactly").format(value=signed(line.value, 0))
    if line.clipped:
        return _("{value} ({low} to {high})").format(value=signed(line.value), low=signed(line.low),
                                                     high=signed(line.high))
    return _("{value} ± {error}").format(value=signed(line.value), error=decimal(line.error, 2))


def value_words(line: ActionValue) -> str:
    """What an action is worth, in words: ``it wins about 1.4 game points on average``."""
    if line.exact:
        points = round(abs(line.value))
        if points == 0:
            return _("with best play from both sides nobody scores")
        text = (ngettext("with best play it wins {n} game point", "with best play it wins {n} game points",
                         points) if line.value > 0 else
                ngettext("with best play it loses {n} game point", "with best play it loses {n} game points",
                         points))
        return text.format(n=points)
    if abs(line.value) < EVEN:
        return _("it is about even on average")
    # A decimal amount: the plural form (as for 2) in every language.
    text = (ngettext("it wins about {n} game point on average", "it wins about {n} game points on average", 2)
            if line.value > 0 else
            ngettext("it loses about {n} game point on average", "it loses about {n} game points on average",
                     2))
    return text.format(n=decimal(abs(line.value)))


def advice_text(lines: Sequence[ActionValue], view: View, style: Style | None = None) -> str:
    """The hint for a newcomer: the best action, its worth, how sure, and an action as
    good, if any (``lines`` best first)."""
    style = style or AnsiStyle(color=False)
    advice = advise(lines)
    best = best_words(advice.best.action, view, style)
    worth = value_words(advice.best)
    if advice.certainty is Certainty.EXACT:
        text = _("{action}: {worth}.").format(action=best, worth=worth)
    else:
        text = _("{action}: {worth} ({sure}).").format(action=best, worth=worth,
                                                       sure=_(CERTAINTY[advice.certainty]))
    if advice.rival is not None:
        text += " " + as_good_sentence(advice.rival.action, view, style)
    return text


def _points(value: float) -> str:
    """A verdict's value: whole game points as they are, else two decimals."""
    return signed(value, 0) if value == int(value) else signed(value, 2)


def verdict_text(verdict: Verdict, view: View, style: Style | None = None) -> str:
    """How good a played action was (:func:`sixtysix.present.review.judge`), with the best actions
    in words and cards as on the card; ``view`` is the actor's view before it.

    >>> from sixtysix import Hand
    >>> from sixtysix.present.review import Verdict
    >>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
    >>> verdict = Verdict(1, Action.parse("TC"), 0.4, (Action.parse("AS"),), 1.21, False)
    >>> verdict_text(verdict, hand.view(1))
    'This action lost about 0.81 game points on average (+0.40). Best: Play A♠ (+1.21).'
    """
    style = style or AnsiStyle(color=False)
    if verdict.action in verdict.best or verdict.loss < 0.005:
        if verdict.exact:
            return _("A best action: {value} with perfect play.").format(value=_points(verdict.value))
        return _("As good as any: {value} on average.").format(value=_points(verdict.value))
    facts = {"loss": decimal(verdict.loss, 2), "value": _points(verdict.value),
             "best": _(" or ").join(action_words(a, view, style) for a in verdict.best[:3]),
             "best_value": _points(verdict.best_value)}
    if verdict.exact:
        return _("This action lost {loss} game points ({value}). Best: {best} ({best_value})."
                 ).format(**facts)
    return _("This action lost about {loss} game points on average ({value}). Best: {best} ({best_value})."
             ).format(**facts)
