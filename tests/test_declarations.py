"""What a declaration counts, decided by the kernel alone (R8.1, R5.5, R5.1): the rule
book's numbers, and both kernels' own play (the score a declaration leaves) as oracles."""

from __future__ import annotations

import random
from collections import Counter
from types import ModuleType
from typing import Any

import pytest

from helpers import kernel_modules
from sixtysix import Hand
from sixtysix.kernel.tables import DECLARE, DECLARE_MARRIAGE, NUM_CODES, config, declared_total
from sixtysix.present.wire import seat_view_json
from sixtysix.rules import CLASSIC, PRESETS, FailedClose, FalseDeclaration, Rules

_kernels = kernel_modules


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
            plays = [c for c in range(DECLARE) if mask >> c & 1]  # play on: no declaration
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


# What the page is sent about its choices (docs/web.md): the game points at stake and the
# exchange card, checked against the rule book (R6.4, R8.3, R4.1, S4.1) under each rule set.
RULE_SETS = [
    CLASSIC,
    CLASSIC.replace(failed_close="three"),
    CLASSIC.replace(false_declaration="two"),
    PRESETS["schnapsen"],
]


def _false_declaration_oracle(rules: Rules, hand: Hand, seat: int, closer_had_tricks: int | None) -> int:
    """R8.3 (option false_declaration); R6.4 when the seat itself closed."""
    opponent = 1 - seat
    if hand.closed_by == seat:
        assert closer_had_tricks is not None
        three = rules.failed_close is FailedClose.THREE or closer_had_tricks == 0
        return 3 if three else 2
    if rules.false_declaration is FalseDeclaration.TWO:
        return 2
    return 3 if hand.tricks_won(opponent) == 0 else 2


def _check_stakes(obj: dict[str, Any], rules: Rules, hand: Hand, tricks_at_close: int | None) -> Counter[str]:
    """Check what ``obj`` (the seat to act's view) says is at stake against the rule book."""
    seat = hand.to_act
    legal = {str(a) for a in hand.legal_actions()}
    seen: Counter[str] = Counter()
    if "C" in legal:
        three = rules.failed_close is FailedClose.THREE or hand.tricks_won(1 - seat) == 0  # R6.4
        assert obj["failed_close_points"] == (3 if three else 2)
        seen["close"] += 1
    else:
        assert obj["failed_close_points"] is None
    assert set(obj["false_declaration_points"]) <= set(obj["declare_counts"])
    for action, counted in obj["declare_counts"].items():
        if counted >= 66:
            assert action not in obj["false_declaration_points"]
        else:
            expected = _false_declaration_oracle(rules, hand, seat, tricks_at_close)
            assert obj["false_declaration_points"][action] == expected
            seen["false"] += 1
    mine = ("J" if rules.deck == 20 else "9") + obj["trump"]  # R4.1; S4.1: no nines in 20 cards
    assert obj["exchange_card"] == (mine if mine in obj["hand"] else None)
    if "X" in legal:
        assert obj["exchange_card"] == mine
        seen["exchange"] += 1
    return seen


@pytest.mark.parametrize("rules", RULE_SETS, ids=["classic", "failed_close=three", "false_declaration=two",
                                                  "schnapsen"])
def test_the_seat_view_sends_the_game_points_at_stake_and_the_exchange_card(rules: Rules) -> None:
    seen: Counter[str] = Counter()
    for seed in range(300):
        hand = Hand.random(seed=seed, rules=rules)
        rng = random.Random(seed)
        tricks_at_close: int | None = None  # the closer's opponent's, at the close (R6.4)
        while not hand.is_over():
            seen += _check_stakes(seat_view_json(hand, hand.to_act), rules, hand, tricks_at_close)
            legal = hand.legal_actions()
            declarations = [a for a in legal if a.is_declaration]
            plays = [a for a in legal if not a.is_declaration]
            action = rng.choice(declarations if declarations and rng.random() < 0.03 else plays)
            if str(action) == "C":
                tricks_at_close = hand.tricks_won(1 - hand.to_act)
            hand.push(action)
    assert min(seen[k] for k in ("close", "false", "exchange")) > 20, seen
