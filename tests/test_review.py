"""The replay viewer's verdicts: each action of a record against the best one."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sixtysix.bots.analysis import Budget
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.record import load
from sixtysix.present.review import SOLVE_STOCK, Review, Verdict, judge
from sixtysix.search.solver import solve

EXAMPLE = Path(__file__).parent / "examples" / "0000.json"


def phase_two(seed: int) -> Hand:
    hand = Hand.random(seed=seed)
    while hand.stock_open and not hand.is_over():
        hand.push(hand.legal_actions()[-1])
    return hand


def test_exact_verdicts_agree_with_the_solver() -> None:
    checked = 0
    for seed in range(40):
        hand = phase_two(seed)
        if hand.is_over():
            continue
        solution = solve(hand)
        for action, value in solution.values.items():
            verdict = judge(hand, action)
            assert verdict.exact and verdict.value == value
            assert verdict.best_value == solution.value and set(verdict.best) == set(solution.best)
            assert verdict.loss == solution.value - value
            assert (action in solution.best) == (verdict.loss == 0)
        checked += 1
    assert checked >= 20


def test_a_losing_action_says_what_it_lost_and_what_was_best() -> None:
    for seed in range(100):
        hand = phase_two(seed)
        if hand.is_over():
            continue
        values = solve(hand).values
        worst = min(values, key=lambda a: values[a])
        if values[worst] < max(values.values()):
            text = judge(hand, worst).describe()
            assert text.startswith("This action lost ") and "best was " in text
            assert "on average" not in text  # exact
            return
    pytest.fail("no position with a losing action among 100 deals")


def test_an_open_stock_is_judged_from_the_players_view() -> None:
    hand = Hand.random(seed=3)
    assert hand.stock_size > SOLVE_STOCK
    action = hand.legal_actions()[0]
    verdict = judge(hand, action, budget=Budget(worlds=4), rng=random.Random(1))
    assert not verdict.exact and verdict.seat == hand.to_act
    assert set(verdict.best) <= set(hand.legal_actions())
    assert "on average" in verdict.describe() or verdict.action in verdict.best
    with pytest.raises(ValueError, match="not a legal action"):
        judge(hand, Action.parse("66"), budget=Budget(worlds=2))


def test_review_positions_follow_the_record() -> None:
    record = load(str(EXAMPLE))
    review = Review(record)
    steps = review.steps(0)
    assert steps == len(record.actions)
    final = review.position(0, steps)
    assert final.key() == review.hands[0].key() and final.is_over()
    assert review.position(0, 0).actions == []
    assert review.players() == ("Player 0", "Player 1")
    assert not review.is_match


def test_review_of_a_match_gives_the_score_before_each_hand() -> None:
    from sixtysix.bots import make_bot
    from sixtysix.play.session import PlaySession

    session = PlaySession(make_bot("random", seed=2), seed=2)
    session.start()
    while not session.over:
        view = session.view
        assert view is not None
        session.play(view.legal[0])
    review = Review(session.record(players=["Ann", "Bob"]))
    assert review.is_match and review.players() == ("Ann", "Bob")
    assert review.score_before(0) == (0, 0)
    assert review.score_before(len(review.hands)) == session.score


def test_verdict_words() -> None:
    a, b = Action.parse("AS"), Action.parse("TS")
    assert Verdict(0, a, 1.0, (a,), 1.0, True).describe() == "A best action: +1 with perfect play."
    assert Verdict(0, b, -0.5, (a,), 0.3, False).describe() == \
        "This action lost 0.80 game points on average (-0.50); best was AS (+0.30)."
