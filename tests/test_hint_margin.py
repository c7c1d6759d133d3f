"""The hint's numbers for experts (the terminal game, the line game and the page say them
the same way): an action's value with its 95% margin never reads past what a hand can
score, 3 game points either way (R9.1: the loser took no trick)."""

from __future__ import annotations

import re

import pytest

from sixtysix import Hand
from sixtysix.bots.analysis import ActionValue, Budget, analyse
from sixtysix.present.text.advice import margin

#: R9.1: a hand is worth at most 3 game points to either side.
MOST = 3
NUMBER = re.compile(r"[+−]\d+\.\d+")


def shown_interval(text: str) -> tuple[float, float, float]:
    """The value and the interval a margin's text says: "+1.40 ± 0.11" or "+2.56 (+1.82 to +3.00)"."""
    numbers = [float(n.replace("−", "-")) for n in NUMBER.findall(text)]
    if "±" in text:
        error = float(text.split("±")[1])
        return numbers[0], numbers[0] - error, numbers[0] + error
    value, low, high = numbers
    return value, low, high


def near_the_bound() -> list[ActionValue]:
    """A real position's analysis where a value's margin reached past 3 game points:
    the first lead of a seeded deal, closing the stock worth about +2.6 with a margin
    of about 0.7 (16 worlds)."""
    hand = Hand.random(seed=2)
    return analyse(hand.view(hand.to_act), Budget(worlds=16), seed=1)


def test_the_position_is_one_where_the_margin_reached_past_the_bound() -> None:
    lines = near_the_bound()
    assert any(not line.exact and line.value + line.error > MOST for line in lines)


def test_an_interval_shown_stays_inside_what_a_hand_can_score() -> None:
    lines = near_the_bound()
    for line in lines:
        value, low, high = shown_interval(margin(line))
        assert -MOST <= low <= value <= high <= MOST, margin(line)
        # The interval is the estimate's, cut where a hand cannot go: nothing else moved.
        assert value == pytest.approx(line.value, abs=0.0051)  # shown to the hundredth
        assert low == pytest.approx(max(line.value - line.error, -MOST), abs=0.011)
        assert high == pytest.approx(min(line.value + line.error, MOST), abs=0.011)
