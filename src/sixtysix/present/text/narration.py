"""What happened, in sentences: an action and what followed from it, the cut, a deal,
how a hand ended and why, the match score.

Like the screen (:mod:`sixtysix.present.text.screen`), the sentences are told to one
reader from that seat's views (``you`` for the reader, the opponent by name), so
they never tell what the reader may not know.

>>> from sixtysix import Action, Hand
>>> from sixtysix.present.text.style import Style
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> seats = Seats(seat=1)
>>> print(describe_deal(hand.view(1), seats, Style(), 1))
--- Hand 1: Computer deals; QC is turned up, trump is clubs; you lead first. ---
>>> before = hand.view(1)
>>> hand.push(Action.parse("AS"))
>>> describe_action(1, Action.parse("AS"), before, hand.view(1), seats, Style())
['You lead AS.']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import Card, Rank
from sixtysix.i18n import _, ngettext
from sixtysix.kernel.tables import marriage_value
from sixtysix.present.explain import Reason, Scale, explain
from sixtysix.present.text.screen import describe_score
from sixtysix.present.text.words import Seats, rank_word, tricks_text

if TYPE_CHECKING:
    from sixtysix.game.views import View
    from sixtysix.present.text.style import Style

__all__ = [
    "describe_action",
    "describe_cuts",
    "describe_deal",
    "describe_match",
    "describe_match_end",
    "describe_result",
]


def _new_cards(before: View, after: View) -> list[Card]:
    return sorted(after.hand - before.hand)


def describe_action(seat: int, action: Action, before: View, after: View, seats: Seats,
                    style: Style, *, memory: bool = False) -> list[str]:
    """Sentences telling what happened when ``seat`` took ``action``.

    ``before`` and ``after`` are the reader's views around the action; the
    sentences use only what they show.
    """
    lines: list[str] = []
    kind = action.kind
    me = seats.seat
    mark = style.other if seat != me else (lambda s: s)
    if kind is ActionKind.MARRIAGE and action.card is not None:
        suit = action.card.suit
        value = marriage_value(suit, before.trump)
        king, queen = Card(suit, Rank.KING), Card(suit, Rank.QUEEN)
        facts = {"suit": style.suit(suit), "king": style.card(king), "queen": style.card(queen),
                 "value": value, "card": style.card(action.card)}
        if after.lead is not None and after.lead[0] == seat:
            text = seats.pick(seat, _("You announce the marriage in {suit}, {king} {queen} ({value}), "
                                      "and lead {card}."),
                              _("{name} announces the marriage in {suit}, {king} {queen} ({value}), "
                                "and leads {card}."), **facts)
        else:
            text = seats.pick(seat, _("You announce the marriage in {suit}, {king} {queen} ({value})."),
                              _("{name} announces the marriage in {suit}, {king} {queen} ({value})."),
                              **facts)
        lines.append(mark(text))
    elif kind is ActionKind.PLAY and action.card is not None:
        if before.lead is None:
            lines.append(mark(seats.pick(seat, _("You lead {card}."), _("{name} leads {card}."),
                                         card=style.card(action.card))))
        else:
            lines.append(mark(seats.pick(seat, _("You play {card}."), _("{name} plays {card}."),
                                         card=style.card(action.card))))
    elif kind is ActionKind.EXCHANGE:
        took = before.trump_card
        low = before.exchange_card
        lines.append(mark(seats.pick(
            seat, _("You exchange the trump {rank}: {card} is turned up, you take {trump}."),
            _("{name} exchanges the trump {rank}: {card} is turned up, {name} takes {trump}."),
            rank=rank_word(low.rank), card=style.card(low),
            trump=style.card(took) if took is not None else _("the trump card"))))
    elif kind is ActionKind.CLOSE:
        if before.state == "draw":
            text = seats.pick(seat, _("You close the stock without drawing. From now on: follow suit "
                                      "and win if you can, else trump."),
                              _("{name} closes the stock without drawing. From now on: follow suit "
                                "and win if you can, else trump."))
        else:
            text = seats.pick(seat, _("You close the stock. From now on: follow suit and win if you can, "
                                      "else trump."),
                              _("{name} closes the stock. From now on: follow suit and win if you can, "
                                "else trump."))
        lines.append(mark(text))
    elif kind is ActionKind.DECLARE:
        lines.append(mark(seats.pick(seat, _("You declare 66!"), _("{name} declares 66!"))))
    elif kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
        suit = action.suit
        value = marriage_value(suit, before.trump)
        lines.append(mark(seats.pick(seat, _("You show the marriage in {suit} ({value}) and declare 66!"),
                                     _("{name} shows the marriage in {suit} ({value}) and declares 66!"),
                                     suit=style.suit(suit), value=value)))
    # What followed from the action: a completed trick, a draw.
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        if trick.winner is None:
            lines.append(style.bad(_("The trick is revoked: it counts for nobody.")))
        elif memory:
            lines.append(seats.pick(trick.winner, _("You win the trick."), _("{name} wins the trick.")))
        else:
            lines.append(seats.pick(
                trick.winner,
                ngettext("You win the trick ({n} point).", "You win the trick ({n} points).", trick.points),
                ngettext("{name} wins the trick ({n} point).", "{name} wins the trick ({n} points).",
                         trick.points),
                n=trick.points))
    if after.stock_size < before.stock_size:
        lines.append(_describe_draw(before, after, seats, style))
    return lines


def _describe_draw(before: View, after: View, seats: Seats, style: Style) -> str:
    me = seats.seat
    mine = _new_cards(before, after)
    drew = style.card(mine[0]) if mine else _("a card")
    # R3.4: the trick winner draws first.
    winner = after.tricks[-1].winner if after.tricks else me
    winner = me if winner is None else winner
    if after.stock_size > 0:
        return seats.pick(winner, _("You draw {card}, {name} draws a card; {n} left in the stock."),
                          _("{name} draws a card, you draw {card}; {n} left in the stock."),
                          card=drew, n=after.stock_size)
    # The last face-down card to the trick winner, the turned-up trump to the loser.
    trump = before.trump_card
    shown = style.card(trump) if trump is not None else _("the trump card")
    return seats.pick(winner, _("You draw the last card, {card}; {name} takes the turned-up {trump}. "
                                "The stock is exhausted: follow suit and win if you can, else trump."),
                      _("{name} draws the last card; you take the turned-up {card}. "
                        "The stock is exhausted: follow suit and win if you can, else trump."),
                      card=drew, trump=shown)


def describe_cuts(cuts: Sequence[tuple[Card, Card]], first_dealer: int, seats: Seats,
                  style: Style) -> list[str]:
    """The cut for the first deal (R2.1)."""
    lines: list[str] = []
    me, them = seats.seat, 1 - seats.seat
    for pair in cuts:
        facts = {"name": seats.other, "mine": style.card(pair[me]), "theirs": style.card(pair[them])}
        if pair[0].rank == pair[1].rank:
            lines.append(_("Cut for the deal: you cut {mine}, {name} cuts {theirs} - equal, cut again."
                           ).format(**facts))
        else:
            lines.append(_("Cut for the deal: you cut {mine}, {name} cuts {theirs}.").format(**facts))
    lines.append(seats.pick(first_dealer, _("You deal first."), _("{name} deals first.")))
    return lines


def describe_deal(view: View, seats: Seats, style: Style, number: int) -> str:
    """The start of a hand: who deals and the trump turned up (R2.3)."""
    return style.strong(seats.pick(
        view.dealer,
        _("--- Hand {number}: You deal; {card} is turned up, trump is {suit}; {name} leads first. ---"),
        _("--- Hand {number}: {name} deals; {card} is turned up, trump is {suit}; you lead first. ---"),
        number=number, card=style.card(view.dealt_trump_card), suit=style.suit(view.trump)))


def _game_points(n: int) -> str:
    return ngettext("{n} game point", "{n} game points", n).format(n=n)


def _why(seats: Seats, winner: int, reason: Reason, declarer: int | None, points: int,
         last_trick: bool) -> str:
    """Why the hand ended as it did, as a sentence (without its full stop)."""
    loser = 1 - winner
    if reason is Reason.DECLARED and declarer is None:  # auto_declare: the program declared
        return seats.pick(winner, _("You reached 66"), _("{name} reached 66"))
    if reason is Reason.DECLARED:
        return seats.pick(winner, _("You declared 66 correctly"), _("{name} declared 66 correctly"))
    if reason is Reason.PLAYED_OUT and last_trick:  # S6.3
        return seats.pick(winner, _("All cards are played and you won the last trick"),
                          _("All cards are played and {name} won the last trick"))
    if reason is Reason.PLAYED_OUT:
        return seats.pick(winner, _("All cards are played and you have the higher total"),
                          _("All cards are played and {name} has the higher total"))
    if reason is Reason.CLOSED_SUCCEEDED:
        return seats.pick(winner, _("You closed the stock and made 66"),
                          _("{name} closed the stock and made 66"))
    if reason is Reason.CLOSED_FAILED:
        if declarer == winner:
            return seats.pick(winner, _("You reached 66 after {name} closed"),
                              _("{name} reached 66 after you closed"))
        if declarer == loser:
            return seats.pick(loser, _("You closed and declared 66 falsely"),
                              _("{name} closed and declared 66 falsely"))
        return seats.pick(loser, _("You closed but did not make 66"), _("{name} closed but did not make 66"))
    if reason is Reason.FALSE_DECLARATION:
        return seats.pick(loser, _("You declared 66 with only {points}"),
                          _("{name} declared 66 with only {points}"), points=points)
    if reason is Reason.REVOKE:
        return seats.pick(loser, _("You revoked (broke the follow rule, R10.2)"),
                          _("{name} revoked (broke the follow rule, R10.2)"))
    return seats.pick(loser, _("You forfeited (the program failed)"),
                      _("{name} forfeited (the program failed)"))


def _scale(seats: Seats, loser: int, scale: Scale | None, threshold: int) -> str:
    """Why the game points are as many as they are (R9.1: ``threshold`` is its 33), or nothing."""
    if scale is Scale.NO_TRICK:
        return seats.pick(loser, _("you took no trick"), _("{name} took no trick"))
    if scale is Scale.UNDER_33:
        return seats.pick(loser, _("you have under {threshold}"), _("{name} has under {threshold}"),
                          threshold=threshold)
    if scale is Scale.THIRTY_THREE:
        return seats.pick(loser, _("you have {threshold} or more"), _("{name} has {threshold} or more"),
                          threshold=threshold)
    return ""


def describe_result(view: View, seats: Seats, style: Style, *, bonus: int = 0) -> list[str]:
    """How the finished hand that ``view`` (the reader's) shows ended, why, and what it
    scored; ``bonus`` is what tied hands before added (R9.2). The facts come from
    :func:`sixtysix.present.explain.explain`: who declared or closed, which scale gave the
    game points, who earned the last-trick bonus (R7.3)."""
    result = view.result
    if result is None:
        raise ValueError("the hand is not over")
    why = explain(view, bonus)
    me, them = seats.seat, 1 - seats.seat

    def total(seat: int) -> str:
        taken = tricks_text(result.tricks[seat])
        if seat == why.last_trick_seat:
            taken = _("{tricks}, {bonus} for the last trick").format(tricks=taken, bonus=why.last_trick_bonus)
        return f"{seats.name(seat)} {result.points[seat]} ({taken})"

    points = _("Points: {first}, {second}.").format(first=total(me), second=total(them))
    winner = why.winner
    if winner is None:
        return [style.bad(_("The hand is tied: all cards are played and the totals are equal. "
                            "Nobody scores.")), points]
    played_out_last = why.reason is Reason.PLAYED_OUT and view.rules.played_out == "last_trick"
    sentence = _why(seats, winner, why.reason, why.declarer, why.loser_points, played_out_last)
    gp = _game_points(why.game_points)
    scale = ""
    if why.reason in (Reason.DECLARED, Reason.PLAYED_OUT, Reason.CLOSED_SUCCEEDED):
        scale = _scale(seats, 1 - winner, why.scale, why.threshold)
    if scale:
        gp = _("{points} ({why})").format(points=gp, why=scale)
    if why.bonus:
        gp = ngettext("{points}, plus {n} for the tied hand before",
                      "{points}, plus {n} for the tied hands before",
                      why.bonus).format(points=gp, n=why.bonus)
    outcome = seats.pick(winner, _("You win the hand: {points}."), _("{name} wins the hand: {points}."),
                         points=gp)
    text = _("{why}. {outcome}").format(why=sentence, outcome=outcome)
    return [(style.good if winner == me else style.bad)(text), points]


def describe_match(score: tuple[int, int], pending_bonus: int, seats: Seats, style: Style,
                   target: int) -> str:
    """``Match: You 3, Computer 5 (first to 7).``, after a hand (with the tie bonus the next
    hand's winner collects, R9.2)."""
    shown = describe_score(score, seats, style)
    if pending_bonus:
        return _("Match: {score} (first to {target}); the next hand's winner also gets {bonus}."
                 ).format(score=shown, target=target, bonus=pending_bonus)
    return _("Match: {score} (first to {target}).").format(score=shown, target=target)


def describe_match_end(winner: int | None, score: tuple[int, int], seats: Seats,
                       style: Style) -> str:
    """``You win the match, 7-3!``, or the score of a match not finished."""
    me, them = seats.seat, 1 - seats.seat
    final = f"{score[me]}-{score[them]}"
    if winner is None:
        return _("The match is not finished: {score}.").format(score=describe_score(score, seats, style))
    if winner == me:
        return style.good(_("You win the match, {score}!").format(score=final))
    return style.bad(_("{name} wins the match, {score}.").format(name=seats.other, score=final))

