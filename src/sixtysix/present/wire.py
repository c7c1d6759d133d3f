"""JSON forms of what a client may see, for network front ends (web server, bot protocol).

A seat's view is :meth:`View.to_json` plus the number of cards each player
holds (public: anybody at the table can count them). A spectator gets the
public view: what both players see alike, with neither hand and no legal
actions (R11, docs/design.md §6).

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=5)
>>> public = public_view_json(hand)
>>> public["seat"], public["hand"], public["legal"], public["hand_sizes"]
(None, [], [], [6, 6])
>>> seat_view_json(hand, 1)["hand"] == sorted(str(c) for c in hand.cards(1))
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sixtysix.game.views import View, public_view
from sixtysix.kernel import CLOSE, State
from sixtysix.present.explain import explain

if TYPE_CHECKING:
    from sixtysix.game.hand import Hand

__all__ = ["finished_hand_json", "public_view_json", "seat_view_json"]


def _hand_sizes(hand: Hand) -> list[int]:
    return [len(hand.cards(0)), len(hand.cards(1))]


def seat_view_json(hand: Hand, seat: int) -> dict[str, Any]:
    """What ``seat`` may know of ``hand``, as a JSON-ready object; with it every number and
    card a page shows about the seat's choices, as the kernel decides them, so that the
    page counts nothing by the rules itself:

    - ``declare_counts``: what each legal declaration of 66 would count (the seat's
      points, and the marriage shown with it, R8.1, R5.5);
    - ``false_declaration_points``: for each legal declaration that would be false, the
      game points the opponent would score (R8.3, or R6.4 for the closer);
    - ``failed_close_points``: if the seat may close, the game points the opponent would
      score should the close fail (R6.4, the rules' ``failed_close``), else ``None``;
    - ``exchange_card``: the trump the seat would give for the turned-up one (the nine,
      R4.1, or the jack, S4.1), if it holds it, else ``None``.

    >>> from sixtysix import Hand
    >>> hand = Hand.random(seed=3)
    >>> obj = seat_view_json(hand, hand.to_act)
    >>> obj["declare_counts"], obj["false_declaration_points"]  # nobody may declare yet
    ({}, {})
    >>> obj["failed_close_points"]  # closing at the first lead: the opponent has no trick
    3
    """
    view = hand.view(seat)
    obj = view.to_json()
    obj["hand_sizes"] = _hand_sizes(hand)
    obj["declare_counts"] = {
        str(action): view.declared_total(action) for action in view.legal if action.is_declaration}
    obj["false_declaration_points"] = _false_declaration_points(hand, view)
    obj["failed_close_points"] = _failed_close_points(hand, view)
    obj["exchange_card"] = str(view.exchange_card) if view.exchange_card in view.hand else None
    return obj


def _outcome(hand: Hand, code: int) -> State:
    """The kernel's state after the action ``code`` (a copy: the hand is not changed)."""
    state = hand.kernel.copy()
    state.push(code)
    return state


def _false_declaration_points(hand: Hand, view: View) -> dict[str, int]:
    """The game points the opponent scores for each legal declaration of ``view``'s seat
    that would be false, as the kernel scores the declaration."""
    points = {}
    for action in view.legal:
        if action.is_declaration:
            after = _outcome(hand, action.code)
            if after.winner != view.seat:
                points[str(action)] = after.game_points
    return points


def _failed_close_points(hand: Hand, view: View) -> int | None:
    """What closing now risks (R6.4), as the kernel judges it at the close; ``None``
    when ``view``'s seat may not close."""
    if not any(action.code == CLOSE for action in view.legal):
        return None
    return _outcome(hand, CLOSE).failed_close_points()


def public_view_json(hand: Hand) -> dict[str, Any]:
    """What a spectator may know: everything public, neither player's cards
    (:class:`sixtysix.game.views.PublicView`, built from the hand field by field)."""
    return public_view(hand).to_json()


def finished_hand_json(hand: Hand, number: int, bonus: int = 0) -> dict[str, Any]:
    """How hand ``number`` (from 1) ended, for everybody at the table once it is over:
    its last trick and the cards each player still held, shown face up with the
    result (the rest of its tricks stay turned down, R3.5).

    >>> from sixtysix import Hand
    >>> from sixtysix.bots import RandomBot
    >>> from sixtysix.play.runner import play_hand
    >>> hand = play_hand(Hand.random(seed=2), [RandomBot(seed=1), RandomBot(seed=2)])
    >>> end = finished_hand_json(hand, 1)
    >>> sorted(end)
    ['last_trick', 'number', 'remaining', 'result', 'trump', 'why']
    >>> [len(cards) for cards in end["remaining"]] == _hand_sizes(hand)
    True
    """
    if not hand.is_over():
        raise ValueError("the hand is not over: its cards are not shown")
    view = hand.view(0)
    tricks = view.tricks
    last = tricks[-1] if tricks else None
    return {
        "number": number,
        "trump": view.trump.letter,
        "last_trick": None if last is None else [last.leader, str(last.lead), str(last.follow), last.winner],
        "remaining": [sorted(str(c) for c in hand.cards(seat)) for seat in (0, 1)],
        "result": None if view.result is None else view.result.to_json(),
        # Why it scored what it did (sixtysix.present.explain); ``bonus``: the tie bonus the match added.
        "why": explain(view, bonus).to_json(),
    }
