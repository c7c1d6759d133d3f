"""Worlds from views: the full state that a seat's view shows, with the hidden cards
filled in (determinization).

A search bot does not see the opponent's hand or the stock. It guesses them (one
*layout* of the hidden cards, :mod:`sixtysix.search.sampling`) and plays on the full
state that the view and the guess make together: a *world*. :func:`world_key`
checks that the guess fits the view and gives that state as the kernel's key;
:meth:`Hand.from_view <sixtysix.game.hand.Hand.from_view>` makes a hand of it.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=2)
>>> seat = hand.to_act
>>> world_key(hand.view(seat), hand.cards(1 - seat), hand.stock) == hand.key()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from sixtysix.game.cards import Card
from sixtysix.kernel.tables import STOCK_CARDS, Phase, conceded
from sixtysix.rules import MarriageCounts
from sixtysix.states import HandState

if TYPE_CHECKING:
    from sixtysix.game.views import View

__all__ = ["world_key"]


def world_key(view: View, opponent: Iterable[Card], stock: Sequence[Card] = ()) -> tuple[int, ...]:
    """The kernel key (``State.key``) of the full state that ``view`` shows, with the
    opponent's hand ``opponent`` and the cards left in the stock ``stock``, in drawing
    order (the turned-up trump last).

    Raises :class:`ValueError` if the hand is over or the hidden cards do not fit the
    view: the view's cards and the hidden ones must make up the pack exactly once, in
    the numbers the view shows.
    """
    if view.state == HandState.OVER:
        raise ValueError("the hand is over: there is nothing hidden left to fill in")
    seat = view.seat
    opp = list(opponent)
    stock_cards = list(stock)
    rules = view.rules
    own = view.hand
    everything = [*own, *opp, *stock_cards, *view.played]
    if len(set(everything)) != rules.deck or len(everything) != rules.deck:
        raise ValueError("the hidden cards and the view do not make up the pack exactly once")
    if len(stock_cards) != view.stock_size:
        raise ValueError(f"the stock must have {view.stock_size} cards, not {len(stock_cards)}")
    expected_opp = len(own) + (1 if view.lead is not None and view.lead[0] == seat else 0) - (
        1 if view.lead is not None and view.lead[0] != seat else 0)
    if len(opp) != expected_opp:
        raise ValueError(f"the opponent must hold {expected_opp} cards, not {len(opp)}")
    face_up = view.exchange_card if view.exchange is not None else view.dealt_trump_card
    if stock_cards and stock_cards[-1] != face_up:
        raise ValueError(f"the last card of the stock must be the turned-up {face_up}")
    masks = [0, 0]
    for card in own:
        masks[seat] |= card.mask
    for card in opp:
        masks[1 - seat] |= card.mask
    announced = [0, 0]
    for m in view.marriages:
        announced[m.seat] += m.value
    # Pending points are apart only under marriage_counts = next_trick.
    pending = view.pending_marriages if rules.marriage_counts is MarriageCounts.NEXT_TRICK else (0, 0)
    assert view.to_act is not None
    closer = -1 if view.closed_by is None else view.closed_by
    return (
        int(Phase[view.state.name]), view.to_act,  # the kernel's phase of the same name
        view.lead[1].index if view.lead is not None else -1, int(view.trump),
        masks[0], masks[1], *view.card_points, *view.tricks_won,
        announced[0] - pending[0], announced[1] - pending[1], pending[0], pending[1],
        STOCK_CARDS - view.stock_size, closer,
        -1 if view.closed_at is None else view.closed_at,
        _close_points(view) if closer >= 0 else 0,
        -1, *(c.index for c in stock_cards),
    )


def _close_points(view: View) -> int:
    """:func:`~sixtysix.kernel.conceded` for the closer's opponent when the stock was
    closed, as ``view`` shows it: what a successful close is worth under S5.3, and 3
    exactly when the opponent had no trick then (R6.4)."""
    assert view.closed_by is not None and view.closed_at is not None
    opponent = 1 - view.closed_by
    before = [t for t in view.tricks[:view.closed_at] if t.winner == opponent]
    points = sum(t.points for t in before) + view.counted_marriages(opponent, view.closed_at)
    return conceded(len(before), points)
