"""JSON forms of what a client may see, for network front ends (web server, bot protocol).

A seat's view is :meth:`View.to_json` plus the number of cards each player
holds (public: anybody at the table can count them). A spectator gets the
public view: what both players see alike, with neither hand and no legal
actions (R11, DESIGN.md §5).

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

if TYPE_CHECKING:
    from sixtysix.hand import Hand

__all__ = ["public_view_json", "seat_view_json"]


def _hand_sizes(hand: Hand) -> list[int]:
    return [len(hand.cards(0)), len(hand.cards(1))]


def seat_view_json(hand: Hand, seat: int) -> dict[str, Any]:
    """What ``seat`` may know of ``hand``, as a JSON-ready object."""
    obj = hand.view(seat).to_json()
    obj["hand_sizes"] = _hand_sizes(hand)
    return obj


def public_view_json(hand: Hand) -> dict[str, Any]:
    """What a spectator may know: everything public, neither player's cards."""
    obj = hand.view(0).to_json()
    # The public parts of seat 0's view are the same for both seats; the
    # private parts (the cards held, the legal choices) are dropped.
    obj["seat"] = None
    obj["hand"] = []
    obj["legal"] = []
    obj["hand_sizes"] = _hand_sizes(hand)
    return obj
