"""What a declaration counts, decided by the kernel alone (R8.1, R5.5, R5.1): the rule
book's numbers, and both kernels' own play (the score a declaration leaves) as oracles."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from sixtysix import Hand
from sixtysix.kernel import _pure
from sixtysix.kernel.tables import DECLARE, DECLARE_MARRIAGE, NUM_CODES, config, declared_total
from sixtysix.rules import CLASSIC
from sixtysix.wire import seat_view_json


def _kernels() -> list[ModuleType]:
    kernels: list[ModuleType] = [_pure]
    try:
        from sixtysix.kernel import _ckernel
    except ImportError:
        return kernels
    return [_ckernel, *kernels]


@pytest.mark.parametrize("trump", range(4))
def test_the_rule_books_values_a_marriage_40_in_trumps_20_otherwise_R5_1(trump: int) -> None:
    assert declared_total(47, DECLARE, trump) == 47
    for suit in range(4):
        expected = 47 + (40 if suit == trump else 20)  # R5.1, R5.5
        assert declared_total(47, DECLARE_MARRIAGE + suit, trump) == expected


@pytest.mark.parametrize("kernel", _kernels(), ids=lambda k: k.NAME)
def test_a_declaration_counts_what_the_kernel_scores_when_it_is_made(kernel: ModuleType) -> None:
    """Declaring pushes the marriage shown onto the score (R5.5): the total
    :func:`declared_total` announced is the declarer's score once declared."""
    rng = random.Random(66)
    checked = 0
    for _ in range(300):
        deck = list(range(24))
        rng.shuffle(deck)
        s = kernel.State.deal(deck, rng.randrange(2), config(CLASSIC))
        while s.phase != 3:
            mask = s.legal_mask()
            p = s.to_act
            for code in [DECLARE, *range(DECLARE_MARRIAGE, NUM_CODES)]:
                if mask >> code & 1:
                    after = s.copy()
                    after.push(code)
                    assert after.score(p) == declared_total(s.score(p), code, s.trump)
                    assert (after.winner == p) == (after.score(p) >= 66)  # R8.2, R8.3, R6.4
                    checked += 1
            plays = [c for c in range(DECLARE) if mask >> c & 1] or [c for c in range(NUM_CODES) if mask >> c & 1]
            s.push(rng.choice(plays))
    assert checked > 300


def test_the_view_and_the_wire_ask_the_kernel() -> None:
    for seed in range(400):
        hand = Hand.random(seed=seed)
        rng = random.Random(seed)
        while not hand.is_over():
            view = hand.view(hand.to_act)
            counts = seat_view_json(hand, hand.to_act)["declare_counts"]
            for action in view.legal:
                if action.is_declaration:
                    assert counts[str(action)] == view.declared_total(action) == declared_total(
                        view.scores[view.seat], action.code, view.trump)
            plays = [a for a in view.legal if not a.is_declaration]
            hand.push(rng.choice(plays))
