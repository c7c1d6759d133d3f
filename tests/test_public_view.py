"""What spectators are sent (issue 19, item 5): a public view built from the hand, not a
seat's view with fields deleted. The oracle knows nothing of ``views.py``: from the deal
and the actions alone it lists the cards anybody has seen (played to a trick, the
turned-up trump, the nine put in its place by an exchange, R4, R11.1); a spectator's
JSON may name no other card, at any moment of random hands under every preset."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from sixtysix import Hand
from sixtysix.present.wire import public_view_json, seat_view_json
from sixtysix.rules import PRESETS

CARD = re.compile(r"^(?:9|T|J|Q|K|A)[CDHS]$")


def cards_named(obj: Any) -> set[str]:
    """Every string in a JSON value that is a card code."""
    if isinstance(obj, str):
        return {obj} if CARD.match(obj) else set()
    if isinstance(obj, dict):
        return set().union(*(cards_named(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(cards_named(v) for v in obj)) if obj else set()
    return set()


def seen_by_everybody(hand: Hand, actions: list[str]) -> set[str]:
    """The cards shown face up so far: the turned-up trump, every card played (a marriage
    lead is a card played), and after an exchange the trump nine or jack that took the
    turned-up card's place. From the deck and the action strings only."""
    deck = [str(c) for c in hand.deck]
    turned_up = str(hand.dealt_trump_card)  # face up at the deal (R2.3, R11.1)
    lowest = "9" if any(card[0] == "9" for card in deck) else "J"  # the 20-card pack has no nines
    seen = {turned_up}
    for action in actions:
        if action[0] in "9TJQKA" and action[1] in "CDHS":
            seen.add(action[:2])
        elif action == "X":
            seen.add(lowest + turned_up[1])
    return seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_spectator_is_told_no_card_nobody_has_seen(preset: str) -> None:
    rng = random.Random(f"public-{preset}")
    checked = 0
    for _ in range(100):
        hand = Hand.random(rng=rng, rules=PRESETS[preset])
        done: list[str] = []
        while True:
            public = public_view_json(hand)
            unseen = cards_named(public) - seen_by_everybody(hand, done)
            assert not unseen, (preset, done, unseen)
            assert public["seat"] is None and public["hand"] == [] and public["legal"] == []
            assert public["hand_sizes"] == [len(hand.cards(0)), len(hand.cards(1))]
            # Everything a spectator gets, each player gets too (nothing extra is public).
            for seat in (0, 1):
                mine = seat_view_json(hand, seat)
                for key, value in public.items():
                    if key not in ("seat", "hand", "legal", "declare_counts"):
                        assert mine[key] == value, (key, preset)
            checked += 1
            if hand.is_over():
                break
            action = rng.choice(hand.legal_actions())
            hand.push(action)
            done.append(str(action))
    assert checked > 500
