"""What a seat sees, as lines of text: the table, its cards, the numbered choices, a hint.

Everything here works from a :class:`~sixtysix.game.views.View` (what one seat may
know, R11) and public facts such as the match score, never from a
:class:`~sixtysix.game.hand.Hand`, so whatever it prints is safe to show to that
seat (docs/design.md §6). The functions return strings; how they reach the player
(a terminal line by line, a full-screen UI, a web page) is up to the caller. A
:class:`~sixtysix.present.text.style.Style` decides how cards and emphasis look.

>>> from sixtysix import Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> view = hand.view(1)
>>> print(render_hand(view, Style()))
TC* | AD QD JD | AS KS
>>> [str(a) for a in ordered_legal(view)]
['TC', 'AD', 'QD', 'JD', 'AS', 'KS', 'C']
>>> print(render_choices(view, Style()))
Your lead. Choose by notation or number (? for help):
  1=TC  2=AD  3=QD  4=JD  5=AS  6=KS
   7  C      close the stock
>>> from sixtysix import i18n
>>> with i18n.use("de"):
...     print(render_hand(view, AnsiStyle(color=False)))
10♣* | A♦ D♦ B♦ | A♠ K♠
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import Card, Suit
from sixtysix.game.match import MatchInfo
from sixtysix.i18n import N_, _, ngettext
from sixtysix.kernel.tables import marriage_value
from sixtysix.present.text.advice import action_words, margin
from sixtysix.present.text.style import AnsiStyle, Style
from sixtysix.present.text.words import Seats, rank_word, suit_name, tricks_text

if TYPE_CHECKING:
    from sixtysix.bots.analysis import ActionValue
    from sixtysix.game.views import View

__all__ = [
    "MatchInfo",
    "action_meaning",
    "describe_score",
    "ordered_legal",
    "render_choices",
    "render_hand",
    "render_hint",
    "render_screen",
    "sorted_cards",
]


# Ordering --------------------------------------------------------------------

def _suit_order(trump: Suit) -> list[Suit]:
    return [trump, *(s for s in Suit if s != trump)]


def sorted_cards(cards: frozenset[Card] | Sequence[Card], trump: Suit) -> list[Card]:
    """Cards grouped by suit, trumps first, each suit from the Ace down (R1.2)."""
    order = {s: i for i, s in enumerate(_suit_order(trump))}
    return sorted(cards, key=lambda c: (order[c.suit], -int(c.rank)))


def ordered_legal(view: View) -> list[Action]:
    """The seat's legal actions in the order they are listed and numbered:
    card plays in hand order, marriage leads, then the other actions."""
    order = {c: i for i, c in enumerate(sorted_cards(view.hand, view.trump))}

    def key(action: Action) -> tuple[int, int]:
        kind = action.kind
        if kind is ActionKind.PLAY and action.card is not None:
            return 0, order.get(action.card, 99)
        if kind is ActionKind.MARRIAGE and action.card is not None:
            return 1, order.get(action.card, 99)
        rest = (ActionKind.DRAW, ActionKind.EXCHANGE, ActionKind.CLOSE,
                ActionKind.DECLARE, ActionKind.DECLARE_MARRIAGE)
        return 2 + rest.index(kind), action.code

    return sorted(view.legal, key=key)


# The screen --------------------------------------------------------------------

def render_hand(view: View, style: Style) -> str:
    """The seat's cards, grouped by suit with trumps first and marked ``*``."""
    groups: list[str] = []
    cards = sorted_cards(view.hand, view.trump)
    for suit in _suit_order(view.trump):
        in_suit = [style.card(c, view.trump) for c in cards if c.suit == suit]
        if in_suit:
            groups.append(" ".join(in_suit))
    return " | ".join(groups) if groups else _("(no cards)")


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


#: What "phase 2" means, said where the stock is shown: the engine's refusals name it (R7.2).
PHASE_2 = N_("Phase 2: follow suit and win the trick if you can, else trump.")


def _stock_line(view: View, seats: Seats, style: Style) -> str:
    suit = style.strong(style.suit(view.trump))
    if view.closed_by is not None:
        face_up = view.exchange_card if view.exchange is not None else view.dealt_trump_card
        detail = _cards(view.stock_size)
        if view.stock_size:
            detail = _("{cards}, {card} turned down").format(cards=detail, card=style.card(face_up))
        stock = seats.pick(view.closed_by, _("Stock: closed by you ({detail})"),
                           _("Stock: closed by {name} ({detail})"), detail=detail)
        return _("Trump: {suit}").format(suit=suit) + "   " + stock + "   " + _(PHASE_2)
    if view.stock_size == 0:
        return _("Trump: {suit}").format(suit=suit) + "   " + _("Stock: exhausted") + "   " + _(PHASE_2)
    if view.trump_card is not None:
        trump = _("Trump: {suit}, turned up {card}").format(suit=suit, card=style.card(view.trump_card))
    else:
        trump = _("Trump: {suit}").format(suit=suit)
    stock = ngettext("Stock: {n} card", "Stock: {n} cards", view.stock_size).format(n=view.stock_size)
    return f"{trump}   {stock}"


def _trick_text(view: View, seats: Seats, style: Style, memory: bool) -> str:
    trick = view.last_trick
    if trick is None:
        return ""
    text = seats.pick(trick.leader, _("You led {lead}, {name} played {follow}"),
                      _("{name} led {lead}, you played {follow}"),
                      lead=style.card(trick.lead), follow=style.card(trick.follow))
    if trick.winner is None:
        return text + " - " + _("revoked, it counts for nobody")
    if memory:
        won = seats.pick(trick.winner, _("you won it"), _("{name} won it"))
    else:
        won = seats.pick(trick.winner,
                         ngettext("you won it ({n} point)", "you won it ({n} points)", trick.points),
                         ngettext("{name} won it ({n} point)", "{name} won it ({n} points)", trick.points),
                         n=trick.points)
    return f"{text} - {won}"


def _marriages_text(view: View, seats: Seats, style: Style) -> str:
    parts = []
    for m in view.marriages:
        waits = _("counts with the next trick won") if view.rules.marriage_counts == "next_trick" \
            else _("counts once a trick is won")
        note = "" if view.counts(m) else f", {waits}"
        parts.append(f"{seats.name(m.seat, start=False)}: {style.suit(m.suit)} "
                     f"{style.card(m.cards[0])} {style.card(m.cards[1])} ({m.value}{note})")
    return "; ".join(parts) if parts else _("none")


def describe_score(score: tuple[int, int], seats: Seats, style: Style) -> str:
    """``You 3, Computer 5``."""
    me, them = seats.seat, 1 - seats.seat
    return f"{seats.name(me)} {score[me]}, {seats.name(them)} {score[them]}"


def render_screen(view: View, style: Style, seats: Seats, info: MatchInfo | None = None,
                  *, memory: bool = False) -> str:
    """Everything the seat may see at a decision, as lines of text (without the choices).

    With ``memory`` the running totals toward 66 are left out (R11.3).
    """
    me, them = seats.seat, 1 - seats.seat
    lines: list[str] = []
    trick = min(len(view.tricks) + 1, 12)
    if info:
        title = _("Hand {n}, trick {trick}").format(n=info.hand_number, trick=trick)
    else:
        title = _("Hand, trick {trick}").format(trick=trick)
    dealer = seats.pick(view.dealer, _("you deal"), _("{name} deals"))
    head = f"{title} ({dealer})"
    if info is not None:
        score = describe_score(info.score, seats, style)
        if info.pending_bonus:
            match = _("Match: {score} (first to {target}), +{bonus} for the winner of this hand (tie)"
                      ).format(score=score, target=info.target, bonus=info.pending_bonus)
        else:
            match = _("Match: {score} (first to {target})").format(score=score, target=info.target)
        head = f"{head}   {match}"
    lines.append(style.strong(f"== {head} =="))
    lines.append(_stock_line(view, seats, style))
    if view.exchange is not None and view.stock_open:
        who, card = view.exchange
        lines.append(seats.pick(who, _("Exchange: you took {card} for the trump {rank}"),
                                _("Exchange: {name} took {card} for the trump {rank}"),
                                card=style.card(card), rank=rank_word(view.exchange_card.rank)))
    if view.last_trick is not None:
        lines.append(_("Last trick: {trick}").format(trick=_trick_text(view, seats, style, memory)))
    lines.append(_("Marriages: {marriages}").format(marriages=_marriages_text(view, seats, style)))
    known = view.known_opponent_cards()
    if known and not memory:  # what was shown and not yet played: a memory aid (R11.3)
        cards = " ".join(style.card(c, view.trump) for c in sorted_cards(known, view.trump))
        lines.append(_("Known in {name}'s hand: {cards}").format(name=seats.name(them), cards=cards))
    if memory:
        lines.append(_("Tricks: {you} {your_tricks}, {name} {their_tricks} (points hidden: memory mode)"
                       ).format(you=seats.name(me), your_tricks=tricks_text(view.tricks_won[me]),
            name=seats.name(them), their_tricks=tricks_text(view.tricks_won[them])))
    else:
        lines.append(_("Points: {you} {your_points} ({your_tricks}), {name} {their_points} ({their_tricks})"
                       ).format(you=seats.name(me), your_points=view.scores[me],
                                your_tricks=tricks_text(view.tricks_won[me]), name=seats.name(them),
                                their_points=view.scores[them],
                                their_tricks=tricks_text(view.tricks_won[them])))
    if view.lead is not None:
        leader, card = view.lead
        lines.append(seats.pick(leader, _("On the table: You led {card}"),
                                _("On the table: {name} led {card}"), card=style.strong(style.card(card))))
    lines.append(_("Your hand: {cards}").format(cards=render_hand(view, style)))
    return "\n".join(lines)


# Choices ---------------------------------------------------------------------

def action_meaning(action: Action, view: View, style: Style) -> str:
    """A few words on what an action does (empty for a plain card play)."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        return ""
    if kind is ActionKind.MARRIAGE and action.card is not None:
        value = marriage_value(action.card.suit, view.trump)
        return _("marriage in {suit} ({value}), lead {card}").format(
            suit=suit_name(action.card.suit), value=value, card=style.card(action.card))
    if kind is ActionKind.EXCHANGE:
        if view.trump_card is not None:
            return _("exchange {card} for {trump}").format(card=style.card(view.exchange_card),
                                                           trump=style.card(view.trump_card))
        return _("exchange {card}").format(card=style.card(view.exchange_card))
    if kind is ActionKind.CLOSE:
        return _("close the stock without drawing") if view.state == "draw" else _("close the stock")
    if kind is ActionKind.DRAW:
        return _("draw (Enter)")
    if kind is ActionKind.DECLARE:
        return _("declare 66")
    assert action.suit is not None
    value = marriage_value(action.suit, view.trump)
    return _("show the {suit} marriage ({value}) and declare 66").format(suit=suit_name(action.suit),
                                                                         value=value)


def _situation(view: View, seats: Seats, style: Style) -> str:
    if view.state == "draw":
        return _("You won the trick.")
    if view.state == "follow" and view.lead is not None:
        leader, card = view.lead
        if view.stock_open:
            return _("Your turn: answer {name}'s {card}.").format(name=seats.name(leader),
                                                                  card=style.card(card))
        return _("Your turn: answer {name}'s {card} (follow suit and win if you can, else trump).").format(
            name=seats.name(leader), card=style.card(card))
    return _("Your lead.")


def render_choices(view: View, style: Style, seats: Seats | None = None) -> str:
    """The numbered legal actions, cards on one line, the others one a line."""
    seats = seats or Seats(view.seat)
    actions = ordered_legal(view)
    cards: list[str] = []
    others: list[str] = []
    for number, action in enumerate(actions, 1):
        meaning = action_meaning(action, view, style)
        if meaning:
            others.append(f"  {number:>2}  {style.action(action):<6} {meaning}")
        else:
            cards.append(f"{number}={style.action(action)}")
    lines = [_("{situation} Choose by notation or number (? for help):").format(
        situation=_situation(view, seats, style))]
    if cards:
        lines.append("  " + "  ".join(cards))
    lines.extend(others)
    return "\n".join(lines)


def render_codes(view: View, style: Style, seats: Seats | None = None) -> str:
    """The situation and the legal actions by their action codes (the environments'
    ``Discrete(56)``), without the line mode's prompt: what an environment's ``render`` shows."""
    seats = seats or Seats(view.seat)
    cards: list[str] = []
    others: list[str] = []
    for action in ordered_legal(view):
        if action.kind is ActionKind.PLAY:
            cards.append(f"{action.code}={style.action(action)}")
        else:
            meaning = _("draw") if action.kind is ActionKind.DRAW else action_meaning(action, view, style)
            others.append(f"  {action.code:>2}  {style.action(action):<6} {meaning}")
    lines = [_situation(view, seats, style), _("Legal actions by code:")]
    if cards:
        lines.append("  " + "  ".join(cards))
    lines.extend(others)
    return "\n".join(lines)


# Hints -------------------------------------------------------------------------

def render_hint(lines: Sequence[ActionValue], view: View, style: Style) -> str:
    """The numbers behind a hint (best first), for experts: each action in words with
    its game points for you, the 95% margin and the learned network's opinion."""
    out = [_("Game points for you with each action, best first:")]
    plain = AnsiStyle(color=False, symbols=getattr(style, "symbols", False))
    width = max(len(action_words(line.action, view, plain)) for line in lines) if lines else 0
    for line in lines:
        value = margin(line)
        # Padded by what is seen, not the colour codes.
        shown = action_words(line.action, view, style)
        pad = " " * (width + 2 - len(action_words(line.action, view, plain)))
        network = "" if line.network is None else f"{' ' * max(1, 16 - len(value))}{line.network:4.0%}"
        out.append(f"  {shown}{pad}{value}{network}")
    if lines and not lines[0].exact:
        n = lines[0].samples
        out.append("  " + ngettext("(averaged over {n} layout of the hidden cards; ± is a 95% margin)",
                                   "(averaged over {n} layouts of the hidden cards; ± is a 95% margin)",
                                   n).format(n=n))
    if lines and lines[0].network is not None:
        out.append("  " + _("(in per cent: how likely the learned network is to play it, "
                            "at a glance, without search)"))
    return "\n".join(out)
