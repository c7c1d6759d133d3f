"""The exact solver agrees with plain minimax over the engine (issue: solver)."""

from __future__ import annotations

import random

import pytest

from sixtysix import Action, Hand, Rules
from sixtysix.search.solver import Solver, solve, value_of

PRESETS = [
    Rules(),
    Rules.preset("santase"),
    Rules.preset("pagat"),
    Rules().replace(enforce_follow=False),
    Rules().replace(auto_declare=True, marriages_in_phase2=True),
    Rules().replace(close_before_draw=False, failed_close="three", last_trick_bonus=0),
]


def minimax(hand: Hand) -> int:
    """Plain minimax over push/pop: seat 0's game points."""
    if hand.is_over():
        result = hand.result()
        assert result is not None
        if result.winner is None:
            return 0
        return result.game_points if result.winner == 0 else -result.game_points
    values = []
    for action in hand.legal_actions():
        hand.push(action)
        values.append(minimax(hand))
        hand.pop()
    return max(values) if hand.to_act == 0 else min(values)


def small_position(rng: random.Random, rules: Rules) -> Hand | None:
    """A random position small enough for plain minimax: stock at most 2, few cards."""
    hand = Hand.random(seed=rng.randrange(10**9), rules=rules, dealer=rng.randrange(2))
    cards_left = 2 * rng.choice([2, 3, 4])
    while not hand.is_over() and (
        hand.stock_size > 2
        or bin(hand.cards_mask(0)).count("1") + bin(hand.cards_mask(1)).count("1") > cards_left
    ):
        legal = hand.legal_actions()
        legal = [a for a in legal if not a.is_declaration] or legal
        hand.push(rng.choice(legal))
    return None if hand.is_over() else hand


def check_against_minimax(rng: random.Random, presets: list[Rules], count: int) -> list[Hand]:
    """Solve ``count`` small random positions, cycling through ``presets``, and check
    each value against plain minimax; returns the positions."""
    checked: list[Hand] = []
    while len(checked) < count:
        rules = presets[len(checked) % len(presets)]
        hand = small_position(rng, rules)
        if hand is None:
            continue
        got = Solver().value(hand)
        assert (got if hand.to_act == 0 else -got) == minimax(hand), (rules, hand.describe())
        checked.append(hand)
    return checked


@pytest.mark.slow
def test_solver_agrees_with_minimax_on_2000_positions() -> None:
    check_against_minimax(random.Random(2026), PRESETS, 2000)


SCHNAPSEN = [
    Rules.preset("schnapsen"),
    Rules.preset("schnapsen").replace(auto_declare=True),
    Rules.preset("schnapsen").replace(close_scoring="end"),
    Rules().replace(played_out="last_trick"),
]


def test_solver_agrees_with_minimax_on_1000_schnapsen_positions() -> None:
    """S5.3 (a close scored when made) and S6.3 (the last trick wins) in the solver's
    own phase-2 search, against minimax over the engine."""
    hands = check_against_minimax(random.Random(2027), SCHNAPSEN, 1000)
    assert sum(hand.view(0).closed_by is not None for hand in hands) > 100  # closed endings among them


COURSE = [
    Rules.preset("course"),
    # Pending marriages with closing and declaring by hand, and with either card led.
    Rules.preset("schnapsen").replace(marriage_counts="next_trick"),
    Rules().replace(marriage_counts="next_trick", marriage_lead="king", marriages_in_phase2=True),
]


def test_solver_agrees_with_minimax_under_pending_marriages() -> None:
    """marriage_counts = next_trick and marriage_lead = king (the course platform's
    rules) in the solver's phase-2 search, against minimax over the engine."""
    hands = check_against_minimax(random.Random(2028), COURSE, 600)
    # Positions where a marriage waits for its owner's next trick are among them.
    assert sum(hand.pending_points(0) + hand.pending_points(1) > 0 and
               hand.tricks_won(0) * hand.tricks_won(1) > 0 for hand in hands) >= 10


def test_every_action_value_is_exact() -> None:
    rng = random.Random(7)
    checked = 0
    while checked < 150:
        rules = PRESETS[checked % len(PRESETS)]
        hand = small_position(rng, rules)
        if hand is None:
            continue
        solution = solve(hand)
        sign = 1 if hand.to_act == 0 else -1
        assert set(solution.values) == set(hand.legal_actions())
        for action, value in solution.values.items():
            hand.push(action)
            assert sign * minimax(hand) == value, (action, rules, hand.describe())
            hand.pop()
        assert solution.value == max(solution.values.values())
        assert set(solution.best) == {a for a, v in solution.values.items() if v == solution.value}
        checked += 1


def test_solving_leaves_the_hand_untouched() -> None:
    hand = Hand.random(seed=3)
    while hand.stock_size > 2:
        hand.push(next(a for a in hand.legal_actions() if a.is_card or str(a) == "D"))
    key, actions = hand.key(), hand.actions
    solve(hand)
    assert hand.key() == key and hand.actions == actions


def test_a_correct_declaration_is_always_among_the_best() -> None:
    # Playing on can never lower the opponent's points or tricks (R9.1), so a
    # correct declaration is always optimal; the solver searches playing on
    # too, and must still rate declaring as best. Checked against minimax.
    rng = random.Random(11)
    found = 0
    for _ in range(2000):
        hand = small_position(rng, Rules())
        if hand is None or hand.state != "lead":
            continue
        seat = hand.to_act
        assert seat is not None
        declare = Action.parse("66")
        if not hand.is_legal(declare) or hand.score(seat) < 66:
            continue
        solution = solve(hand)
        assert declare in solution.best
        sign = 1 if seat == 0 else -1
        assert sign * minimax(hand) == solution.value
        assert len(solution.values) > 1  # playing on was searched as well
        found += 1
    assert found >= 10


def test_finished_hand_is_refused() -> None:
    hand = Hand.random(seed=1)
    while not hand.is_over():
        hand.push(hand.legal_actions()[0])
    with pytest.raises(ValueError):
        solve(hand)
    with pytest.raises(ValueError):
        value_of(hand)


def test_one_solver_serves_positions_under_other_rules() -> None:
    """A solver's table holds values for one set of rules: the same position under other
    rules (here table rules, where a revoke ends the hand, R10.2) is solved afresh, not
    read from the table."""
    differ = 0
    for seed in range(40):
        hands = [Hand.random(seed=seed, rules=rules)
                 for rules in (Rules(), Rules(enforce_follow=False))]
        for hand in hands:
            while hand.stock_open and not hand.is_over():
                hand.push(next(a for a in hand.legal_actions() if not a.is_declaration))
        if any(hand.is_over() for hand in hands):
            continue
        shared = Solver()
        values = [shared.value(hand) for hand in hands]
        assert values == [Solver().value(hand) for hand in hands]
        differ += values[0] != values[1]
    assert differ >= 3  # the rules do change values, so a stale table would show
