"""Short texts of the game screen, from the human's view (content markup).

The longer sentences — what happened, how a hand ended — come from
:mod:`sixtysix.console`, shared with the line game; these are the screen's own
lines: the notes beside the table, the prompt, the hint, the hand's summary.

>>> from sixtysix import Hand
>>> from sixtysix.console import Seats
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> print(info_text(hand.view(1), Seats(1), MarkupStyle()))
Nothing on the table yet
You: [b]0[/b] points, 0 tricks
>>> your_turn(hand.view(1), MarkupStyle())
'Your lead: click a card or press 1–6 (←/→ and Enter).'
"""

from __future__ import annotations

from collections.abc import Sequence

from sixtysix.analysis import ActionValue
from sixtysix.console import Seats, sorted_cards
from sixtysix.hand import HandResult
from sixtysix.tui.style import MarkupStyle
from sixtysix.views import View

__all__ = ["hand_summary", "hint_text", "info_text", "opponent_cards", "trick_text", "tricks",
           "your_turn"]


def tricks(n: int) -> str:
    """``1 trick``, ``3 tricks``."""
    return f"{n} trick{'' if n == 1 else 's'}"


def opponent_cards(view: View) -> int:
    """How many cards the opponent holds: both hands are equal between tricks,
    and one card less for whoever has played to the trick on the table."""
    if view.lead is None:
        return len(view.hand)
    return len(view.hand) - 1 if view.lead[0] == view.opponent else len(view.hand) + 1


def trick_text(view: View, seats: Seats, *, memory: bool = False) -> str:
    """Whose card is on the table, or who won the trick just completed (R3.5)."""
    if view.lead is not None:
        leader = view.lead[0]
        return f"{seats.say(leader, 'led', 'led')}, {seats.name(1 - leader, start=False)} to answer"
    trick = view.last_trick
    if trick is None:
        return "Nothing on the table yet"
    if trick.winner is None:
        return "Last trick: revoked"
    points = "" if memory else f" ({trick.points})"
    return f"Last trick: {seats.say(trick.winner, 'won it', 'won it')}{points}"


def info_text(view: View, seats: Seats, style: MarkupStyle, *, memory: bool = False) -> str:
    """The notes beside the table: the trick, your points (not in memory mode, R11.3),
    the stock closed or exhausted, the exchange, marriages, cards known in the other hand."""
    me = view.seat
    lines = [trick_text(view, seats, memory=memory)]
    if memory:
        lines.append(f"You: {tricks(view.tricks_won[me])} (points hidden)")
    else:
        lines.append(f"You: [b]{view.scores[me]}[/b] points, {tricks(view.tricks_won[me])}")
    if view.closed_by is not None:
        lines.append(f"Stock closed by {seats.name(view.closed_by, start=False)}")
    elif view.stock_size == 0:
        lines.append("Stock exhausted: follow suit")
    if view.exchange is not None and view.stock_open:
        who, card = view.exchange
        lines.append(f"{seats.name(who)} took {style.card(card)} for the "
                     f"{view.exchange_card.rank.name.lower()}")
    marriages = [f"{seats.name(m.seat)} {style.suit(m.suit)} {m.value}"
                 + ("" if view.counts(m) else " (pending)") for m in view.marriages]
    if marriages:
        lines.append("Marriages: " + ", ".join(marriages))
    known = view.known_opponent_cards()
    if known and not memory:  # a memory aid, left out in memory mode
        cards = " ".join(style.card(c) for c in sorted_cards(known, view.trump))
        lines.append(f"{seats.opponent} holds {cards}")
    return "\n".join(lines)


def your_turn(view: View, style: MarkupStyle) -> str:
    """The prompt when the human is to act."""
    if view.state == "draw":
        return "You won the trick: [b]d[/b] draw (Enter), [b]c[/b] close or [b]s[/b] declare 66."
    if view.lead is not None:
        card = view.lead[1]
        strict = "" if view.stock_open else " (follow suit and win if you can, else trump)"
        return f"Your turn: answer {style.card(card)}{strict}. Click a card or press 1–{len(view.hand)}."
    return f"Your lead: click a card or press 1–{len(view.hand)} (←/→ and Enter)."


def hint_text(lines: Sequence[ActionValue], style: MarkupStyle) -> str:
    """An analysis, best first, as one paragraph: ``Hint, …: J♥ +0.64±0.28 · A♣ +0.52±0.31 …``."""
    parts = []
    for line in lines:
        value = f"{line.value:+.0f} exactly" if line.exact else f"{line.value:+.2f}±{line.error:.2f}"
        parts.append(f"[b]{style.action(line.action)}[/b] {value}")
    text = "Hint, game points for you with each action (best first, ★ on your cards): " + " · ".join(parts)
    if lines and not lines[0].exact:
        text += (f" [dim](averaged over {lines[0].samples} layouts of the hidden cards; "
                 "± is a 95% margin)[/dim]")
    return text


def hand_summary(result: HandResult, seats: Seats, style: MarkupStyle) -> str:
    """``Computer wins the hand: 2 game points.`` (or a tie), for the prompt line."""
    if result.winner is None:
        return style.strong("Tied hand: nobody scores.")
    gp = result.game_points + result.bonus
    text = f"{seats.say(result.winner, 'win', 'wins')} the hand: {gp} game point{'s' if gp != 1 else ''}."
    return (style.good if result.winner == seats.seat else style.bad)(text)
