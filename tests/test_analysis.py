"""Hints and the PIMC bot: sixtysix.analyse and PIMCBot."""

from __future__ import annotations

import random

import pytest

from sixtysix import Budget, Hand, Rules, analyse
from sixtysix.bots import make_bot
from sixtysix.bots.pimc import PIMCBot
from sixtysix.game.worlds import sample_worlds
from sixtysix.search.solver import solve


def advance(hand: Hand, rng: random.Random, until: str) -> Hand:
    """Random play (no declarations, no closing) until the stock is gone or a few cards remain."""
    while not hand.is_over():
        if until == "exhausted" and not hand.stock_open and hand.state == "lead":
            break
        if until == "stock4" and hand.stock_size <= 4 and hand.state == "lead":
            break
        legal = [a for a in hand.legal_actions() if not a.is_declaration and str(a) != "C"]
        hand.push(rng.choice(legal or hand.legal_actions()))
    return hand


def test_every_legal_action_is_analysed_best_first() -> None:
    hand = Hand.random(seed=21)
    lines = analyse(hand.view(hand.to_act), Budget(worlds=6), seed=3)
    assert sorted(str(x.action) for x in lines) == sorted(str(a) for a in hand.legal_actions())
    assert [x.value for x in lines] == sorted((x.value for x in lines), reverse=True)
    for line in lines:
        assert -3 <= line.value <= 3
        assert line.samples == 6
        assert not line.exact and line.error >= 0
    assert any(line.error > 0 for line in lines)


def test_exhausted_stock_is_analysed_exactly() -> None:
    # Once the stock is gone the opponent's hand is known: one layout, solved exactly.
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        hand = advance(Hand.random(seed=seed), rng, "exhausted")
        if hand.is_over():
            continue
        seat = hand.to_act
        assert seat is not None
        lines = analyse(hand.view(seat), Budget(worlds=10), seed=1)
        truth = solve(hand).values
        for line in lines:
            assert line.exact and line.error == 0 and line.samples == 1
            assert line.value == truth[line.action]
        checked += 1
    assert checked >= 20


def test_same_seed_and_world_budget_give_the_same_analysis() -> None:
    hand = Hand.random(seed=33)
    view = hand.view(hand.to_act)
    a = analyse(view, Budget(worlds=5), seed=9)
    b = analyse(view, Budget(worlds=5), seed=9)
    assert a == b


def test_analysis_depends_only_on_the_view() -> None:
    # Two hands that differ only in hidden cards give identical analyses.
    rng = random.Random(2)
    hand = advance(Hand.random(seed=8), rng, "stock4")
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    other = sample_worlds(view, 1, random.Random(4))[0]
    assert other.view(seat) == view
    assert analyse(view, Budget(worlds=4), seed=1) == analyse(other.view(seat), Budget(worlds=4), seed=1)


def test_bad_budgets_and_views_are_refused() -> None:
    with pytest.raises(ValueError):
        Budget(worlds=0)
    with pytest.raises(ValueError):
        Budget(time=0)
    hand = Hand.random(seed=1)
    waiting = 1 - (hand.to_act or 0)
    with pytest.raises(ValueError):
        analyse(hand.view(waiting))


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("santase"), Rules().replace(enforce_follow=False)])
def test_pimc_bot_plays_legal_actions_deterministically(rules: Rules) -> None:
    from sixtysix.play.runner import play_hand

    for seed in range(3):
        first = play_hand(Hand.random(seed=seed, rules=rules),
                          [PIMCBot(seed=1, worlds=3), make_bot("heuristic", seed=2)])
        again = play_hand(Hand.random(seed=seed, rules=rules),
                          [PIMCBot(seed=1, worlds=3), make_bot("heuristic", seed=2)])
        assert first.actions == again.actions
        assert first.is_over()


def test_pimc_declares_a_sure_66() -> None:
    # With 66 counted on lead the exact analysis rates the declaration best.
    rng = random.Random(12)
    found = 0
    for seed in range(300):
        hand = advance(Hand.random(seed=seed), rng, "exhausted")
        if hand.is_over() or hand.state != "lead":
            continue
        seat = hand.to_act
        assert seat is not None
        if hand.score(seat) >= 66 and found < 5:
            action = PIMCBot(seed=0, worlds=4).choose(hand.view(seat), hand.legal_actions())
            assert action.is_declaration
            found += 1
    assert found >= 1
