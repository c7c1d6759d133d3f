"""Why a hand scored what it did (sixtysix.present.explain), from the kernel's scoring of it: the
scale and the loser's facts as the rule book gives them for endings found by random play,
the threshold of R9.1 sent for the page's words, and no explanation of a result that
does not carry the kernel's scoring (one read from JSON)."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from sixtysix import Hand, Rules
from sixtysix.game.result import HandResult
from sixtysix.game.views import view_from_json
from sixtysix.present.explain import Scale, explain


def _finished(rules: Rules, wanted: Callable[[Hand], bool], seed: str) -> Hand:
    """A hand of random play (no declaration, so that it is played out or closed) that
    ends as ``wanted`` says."""
    rng = random.Random(seed)
    for _ in range(2000):
        hand = Hand.random(rng=rng, rules=rules)
        while not hand.is_over():
            legal = hand.legal_actions()
            plain = [a for a in legal if not a.is_declaration]
            hand.push(rng.choice(plain or legal))
        if wanted(hand):
            return hand
    raise AssertionError("no such hand found")


def test_the_last_trick_without_66_is_a_fixed_point_not_r9_1() -> None:
    """S6.3: the winner of the last trick wins a hand played out with 1 game point when he
    has no 66; R9.1's "33 or more" is not the rule that gave it (it used to be said)."""
    rules = Rules.preset("schnapsen")

    def wanted(hand: Hand) -> bool:
        result = hand.result()
        assert result is not None and result.winner is not None
        return result.reason == "played_out" and hand.score(result.winner) < 66

    hand = _finished(rules, wanted, "last trick")
    why = explain(hand.view(0))
    assert (why.game_points, why.scale) == (1, Scale.FIXED)


def test_a_close_scored_at_the_close_is_explained_as_things_stood_then() -> None:
    """S5.3 (close_scoring = at_close): the loser's total and tricks are those when the
    stock was closed, read here from the view's tricks and marriages before the close."""
    rules = Rules.preset("schnapsen")

    def wanted(hand: Hand) -> bool:
        result = hand.result()
        return result is not None and result.reason == "closed_succeeded"

    hand = _finished(rules, wanted, "at close")
    view = hand.view(0)
    why = explain(view)
    assert why.at_close and view.closed_at is not None and why.loser is not None
    before = [t for t in view.tricks[:view.closed_at] if t.winner == why.loser]
    shown = sum(m.value for m in view.marriages if m.seat == why.loser and m.at_trick < view.closed_at)
    assert why.loser_tricks == len(before)
    # R5.3 (and marriage_counts = next_trick): a marriage counted once a trick was won after it.
    assert why.loser_points <= sum(t.points for t in before) + shown
    assert why.loser_points >= sum(t.points for t in before)


def test_the_page_is_sent_the_threshold_of_r9_1() -> None:
    hand = _finished(Rules(), lambda hand: True, "threshold")
    assert explain(hand.view(1)).to_json()["threshold"] == 33


def test_a_result_read_from_json_is_not_explained() -> None:
    hand = _finished(Rules(), lambda hand: True, "json")
    view = hand.view(0)
    again = view_from_json(view.to_json())
    assert again == view and again.result is not None and again.result.scored is None
    assert HandResult.from_json(view.result.to_json() if view.result else {}) == view.result
    with pytest.raises(ValueError, match="does not carry"):
        explain(again)
