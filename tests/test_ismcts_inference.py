"""Inference in the ISMCTS bot (option ``infer``): the opponent's possible hands are
weighed by how likely his last action is with each of them, and worlds are drawn by
weight. Small budgets; nothing here measures time."""

from __future__ import annotations

import collections
import random
from collections.abc import Sequence

import pytest

from sixtysix import Action, Hand, Rules
from sixtysix.actions import ACTIONS
from sixtysix.bots import make_bot
from sixtysix.bots.ismcts import ISMCTSBot, Worlds
from sixtysix.bots.rollout import policy_code
from sixtysix.runner import play_hand
from sixtysix.views import View


class PolicyPlayer:
    """Plays exactly the playout policy's action, judging by what it can see (``fair``):
    the opponent model of the inference. It reads the real hand (a test's shortcut)."""

    name = "policy"

    def __init__(self, hand: Hand) -> None:
        self.hand = hand

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        action = ACTIONS[policy_code(self.hand, random.Random(0), 0.0, True)]
        assert action is not None and action in legal
        return action


class Probe(ISMCTSBot):
    """An ISMCTS bot that, at each decision, weighs the opponent's real hand."""

    def __init__(self, hand: Hand, **options: object) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.hand = hand
        self.checks: list[tuple[bool, float, float]] = []

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        weigh = self._likelihood(view)
        before = self.evidence
        if weigh is not None and before is not None:
            true = sum(c.mask for c in self.hand.cards(view.opponent))
            drew = before.stock_size != view.stock_size
            self.checks.append((drew, weigh(true), 1 - self.infer))
        return super().choose(view, legal)


@pytest.mark.parametrize("seed", range(12))
def test_against_the_policy_itself_the_real_hand_explains_the_last_action(seed: int) -> None:
    """When the opponent plays the policy, his real hand must get the policy's full
    weight (1 - epsilon plus the random share) whenever no card was drawn since his
    action: this checks how the state before his action is rebuilt from the view."""
    hand = Hand.random(seed=seed)
    probe = Probe(hand, seed=seed, iterations=60, infer=0.3)
    play_hand(hand, [probe, PolicyPlayer(hand)])
    exact = [(w, top) for drew, w, top in probe.checks if not drew]
    assert exact, "no decision right after the opponent's action without a draw"
    for w, top in exact:
        assert w > top  # (1 - epsilon) + epsilon / choices
    # After a draw the weight averages over the card he may have drawn (at most six),
    # the real one among them.
    for drew, w, top in probe.checks:
        if drew:
            assert w > top / 6


def test_evidence_is_kept_from_the_seen_hook_and_only_for_this_hand() -> None:
    hand = Hand.random(seed=3)
    bot = ISMCTSBot(seed=1, iterations=50, infer=0.3)
    seat = hand.to_act
    assert seat is not None
    bot.new_hand(hand.view(1 - seat))  # the opponent acts first: evidence from the start
    assert bot.evidence is not None and bot.evidence.to_act == seat
    hand.push(hand.legal_actions()[0])
    view = hand.view(1 - seat)
    assert bot._likelihood(view) is not None
    other = next(h for h in (Hand.random(seed=s) for s in range(10, 40))
                 if h.dealt_trump_card != hand.dealt_trump_card)
    assert bot._likelihood(other.view(other.to_act)) is None  # type: ignore[arg-type]
    bot.seen(hand.view(1 - seat))  # our turn now: the evidence stays
    assert bot.evidence is not None and len(bot.evidence.history) == 0


def test_without_evidence_or_with_infer_off_nothing_is_weighed() -> None:
    hand = Hand.random(seed=5)
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    bot = ISMCTSBot(seed=1, iterations=50, infer=0.3)
    assert bot._likelihood(view) is None  # no evidence yet
    plain = ISMCTSBot(seed=1, iterations=50)
    assert plain.infer == 0 and plain._prepare(view)._hands is None


def test_worlds_are_drawn_in_proportion_to_their_weights() -> None:
    """Few layouts (enumerated): each hand's share of the draws follows its weight."""
    rules = Rules()
    rng = random.Random(2)
    # Play a hand until two cards are left in the stock: a few layouts remain.
    for seed in range(200):
        hand = Hand.random(seed=seed, rules=rules)
        while not hand.is_over() and hand.stock_size > 2:
            hand.push_code(policy_code(hand, rng, 0.3))
        if hand.is_over() or hand.to_act is None:
            continue
        view = hand.view(hand.to_act)
        plain = Worlds(view, random.Random(1), 1000)
        if plain.layouts is not None and 3 <= len(plain.layouts) <= 40:
            break
    else:
        pytest.fail("no position with a few layouts")
    masks = sorted({mask for mask, _ in plain.layouts})
    weight = {mask: 1.0 + i for i, mask in enumerate(masks)}  # 1, 2, 3, ...
    worlds = Worlds(view, random.Random(1), 1000, weigh=lambda m: weight[m])
    assert worlds._hands is not None
    n = 20000
    counts = collections.Counter(worlds.layout()[0] for _ in range(n))
    total = sum(weight[m] * sum(1 for mm, _ in plain.layouts if mm == m) for m in masks)
    for mask in masks:
        share = weight[mask] * sum(1 for mm, _ in plain.layouts if mm == mask) / total
        assert counts[mask] / n == pytest.approx(share, abs=5 * (share / n) ** 0.5 + 1e-3)


def test_uniform_weights_leave_sampling_as_it_was() -> None:
    hand = Hand.random(seed=6)
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    a = Worlds(view, random.Random(9), 0)
    b = Worlds(view, random.Random(9), 0, weigh=lambda m: 0.5)
    assert b._hands is None
    # Each world is consistent with the view either way.
    for worlds in (a, b):
        for _ in range(20):
            assert worlds.world().view(view.seat) == view


def test_inference_is_seedable_and_works_with_helpers() -> None:
    hand = Hand.random(seed=8)
    heuristic = make_bot("heuristic", seed=1)
    seat = hand.to_act
    assert seat is not None
    # Let the opponent (seat 1 - ours) act once, then decide with evidence.
    ours = 1 - seat
    action = heuristic.choose(hand.view(seat), hand.view(seat).legal)
    before = hand.view(ours)
    hand.push(action)
    view = hand.view(ours)
    choices = []
    for workers in (1, 1, 2):
        bot = ISMCTSBot(seed=5, iterations=200, infer=0.4, workers=workers)
        try:
            bot.evidence = before
            assert bot._likelihood(view) is not None
            choices.append(bot.choose(view, view.legal))
        finally:
            bot.close()
    assert choices[0] == choices[1] and choices[2] in view.legal


def test_infer_must_be_a_probability_and_the_model_known() -> None:
    with pytest.raises(ValueError, match="infer"):
        ISMCTSBot(infer=1.0)
    with pytest.raises(ValueError, match="infer_model"):
        ISMCTSBot(infer=0.2, infer_model="oracle")
    assert make_bot("ismcts:infer=0.3").infer == 0.3  # type: ignore[attr-defined]


def test_the_heuristic_model_gives_the_real_hand_its_weight_against_the_heuristic_bot() -> None:
    """With the heuristic bot as the opponent's model, against the heuristic bot itself,
    the real hand explains the last action when no card was drawn since, except where
    the bot broke a tie at random (it picks among equally good cards with its own
    random numbers, which the model does not share)."""
    explained = []
    for seed in range(12):
        hand = Hand.random(seed=seed)
        probe = Probe(hand, seed=seed, iterations=40, infer=0.2, infer_model="heuristic")
        play_hand(hand, [probe, make_bot("heuristic", seed=seed)])
        explained += [w > top for drew, w, top in probe.checks if not drew]
    assert len(explained) >= 20 and sum(explained) >= 0.8 * len(explained)
