"""Short texts of the game screen, from the human's view (content markup).

The longer sentences — what happened, how a hand ended — come from
:mod:`sixtysix.present.text`, shared with the line game; these are the screen's own
lines: the notes beside the table, the prompt, the hint, the hand's summary.

>>> from sixtysix import Hand
>>> from sixtysix.present.text.words import Seats
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> print(info_text(hand.view(1), Seats(1), MarkupStyle()))
Nothing on the table yet
You: [b]0[/b] points, 0 tricks
>>> your_turn(hand.view(1), MarkupStyle())
'Your lead: click a card or press 1–6 (←/→ and Enter).'
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.bots.analysis import ActionValue
from sixtysix.game.result import HandResult
from sixtysix.game.views import View
from sixtysix.i18n import _, ngettext
from sixtysix.present.text.advice import action_words, advice_text, margin
from sixtysix.present.text.screen import sorted_cards
from sixtysix.present.text.words import Seats, rank_word, tricks_text
from sixtysix.tui.style import MarkupStyle

__all__ = ["hand_summary", "hint_numbers", "hint_text", "info_text", "keys_text", "opponent_cards",
           "trick_text", "tricks", "your_turn"]


def tricks(n: int) -> str:
    """``1 trick``, ``3 tricks``."""
    return tricks_text(n)


def opponent_cards(view: View) -> int:
    """How many cards the opponent holds: both hands are equal between tricks,
    and one card less for whoever has played to the trick on the table."""
    if view.lead is None:
        return len(view.hand)
    return len(view.hand) - 1 if view.lead[0] == view.opponent else len(view.hand) + 1


def trick_text(view: View, seats: Seats, *, memory: bool = False) -> str:
    """Whose card is on the table, or who won the trick just completed (R3.5)."""
    if view.lead is not None:
        return seats.pick(view.lead[0], _("You led, {name} to answer"), _("{name} led, you to answer"))
    trick = view.last_trick
    if trick is None:
        return _("Nothing on the table yet")
    if trick.winner is None:
        return _("Last trick: revoked")
    if memory:
        return seats.pick(trick.winner, _("Last trick: You won it"), _("Last trick: {name} won it"))
    return seats.pick(trick.winner, _("Last trick: You won it ({points})"),
                      _("Last trick: {name} won it ({points})"), points=trick.points)


def info_text(view: View, seats: Seats, style: MarkupStyle, *, memory: bool = False) -> str:
    """The notes beside the table: the trick, your points (not in memory mode, R11.3),
    the stock closed or exhausted, the exchange, marriages, cards known in the other hand."""
    me = view.seat
    lines = [trick_text(view, seats, memory=memory)]
    if memory:
        lines.append(_("You: {tricks} (points hidden)").format(tricks=tricks(view.tricks_won[me])))
    else:
        lines.append(ngettext("You: [b]{n}[/b] point, {tricks}", "You: [b]{n}[/b] points, {tricks}",
                              view.scores[me]).format(n=view.scores[me], tricks=tricks(view.tricks_won[me])))
    if view.closed_by is not None:
        lines.append(seats.pick(view.closed_by, _("Stock closed by you"), _("Stock closed by {name}")))
    elif view.stock_size == 0:
        lines.append(_("Stock exhausted: follow suit"))
    if view.exchange is not None and view.stock_open:
        who, card = view.exchange
        lines.append(seats.pick(who, _("You took {card} for the {rank}"),
                                _("{name} took {card} for the {rank}"),
                                card=style.card(card), rank=rank_word(view.exchange_card.rank)))
    marriages = [f"{seats.name(m.seat)} {style.suit(m.suit)} {m.value}"
                 + ("" if view.counts(m) else " " + _("(pending)")) for m in view.marriages]
    if marriages:
        lines.append(_("Marriages: {marriages}").format(marriages=", ".join(marriages)))
    known = view.known_opponent_cards()
    if known and not memory:  # a memory aid, left out in memory mode
        cards = " ".join(style.card(c) for c in sorted_cards(known, view.trump))
        lines.append(_("{name} holds {cards}").format(name=seats.other, cards=cards))
    return "\n".join(lines)


def keys_text(n: int) -> str:
    """The number keys that choose one of ``n`` cards: ``1–6``, or ``1`` for the last card."""
    return "1" if n == 1 else f"1–{n}"


def your_turn(view: View, style: MarkupStyle) -> str:
    """The prompt when the human is to act."""
    if view.state == "draw":
        return _("You won the trick: [b]d[/b] draw (Enter), [b]c[/b] close or [b]s[/b] declare 66.")
    keys = keys_text(len(view.hand))
    if view.lead is not None:
        card = style.card(view.lead[1])
        if view.stock_open:
            return _("Your turn: answer {card}. Click a card or press {keys}.").format(card=card, keys=keys)
        return _("Your turn: answer {card} (follow suit and win if you can, else trump). "
                 "Click a card or press {keys}.").format(card=card, keys=keys)
    return _("Your lead: click a card or press {keys} (←/→ and Enter).").format(keys=keys)


def hint_text(lines: Sequence[ActionValue], view: View, style: MarkupStyle) -> str:
    """A hint for a newcomer: the best action in words, what it wins on average and how
    sure (:func:`sixtysix.present.text.advice.advice_text`), and how to see the numbers."""
    return (_("Hint: {advice}").format(advice=advice_text(lines, view, style))
            + " [dim]" + _("(press h again for the numbers)") + "[/dim]")


def hint_numbers(lines: Sequence[ActionValue], view: View, style: MarkupStyle) -> str:
    """The analysis behind a hint, best first, as one paragraph: each action in words with
    its game points for you, ``Play J♥ +0.64±0.28 · Close the stock −0.52±0.31 …``."""
    parts = []
    for line in lines:
        value = margin(line)
        if line.network is not None:
            value += f" [dim]{line.network:.0%}[/dim]"
        parts.append(f"[b]{action_words(line.action, view, style)}[/b] {value}")
    text = _("Game points for you with each action, best first: {actions}").format(
        actions=" · ".join(parts))
    if lines and not lines[0].exact:
        n = lines[0].samples
        text += " [dim]" + ngettext("(averaged over {n} layout of the hidden cards; ± is a 95% margin)",
                                    "(averaged over {n} layouts of the hidden cards; ± is a 95% margin)",
                                    n).format(n=n) + "[/dim]"
    if lines and lines[0].network is not None:
        text += " [dim]" + _("(in per cent: how likely the learned network is to play it, "
                             "at a glance, without search)") + "[/dim]"
    return text


def hand_summary(result: HandResult, seats: Seats, style: MarkupStyle) -> str:
    """``Computer wins the hand: 2 game points.`` (or a tie), for the prompt line."""
    if result.winner is None:
        return style.strong(_("Tied hand: nobody scores."))
    gp = result.game_points + result.bonus
    points = ngettext("{n} game point", "{n} game points", gp).format(n=gp)
    text = seats.pick(result.winner, _("You win the hand: {points}."), _("{name} wins the hand: {points}."),
                      points=points)
    return (style.good if result.winner == seats.seat else style.bad)(text)
