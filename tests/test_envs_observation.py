"""The observation encoding shared by the RL adapters (sixtysix.envs.observation)."""

from __future__ import annotations

import random

from rl_support import require

np = require("numpy")
require("gymnasium")

from sixtysix import Action, Hand  # noqa: E402
from sixtysix.envs.observation import (  # noqa: E402
    LAYOUT,
    OBSERVATION_SIZE,
    action_mask,
    actions_of,
    block,
    encode,
)
from sixtysix.game.worlds import sample_worlds  # noqa: E402


def _random_positions(count: int, seed: int) -> list[Hand]:
    """Hands played a random number of random legal actions from random deals."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        hand = Hand.random(rng=rng, dealer=rng.randrange(2))
        for _ in range(rng.randrange(25)):
            if hand.is_over():
                break
            hand.push(rng.choice(hand.legal_actions()))
        hands.append(hand)
    return hands


def test_the_layout_adds_up_and_every_entry_is_in_the_unit_interval() -> None:
    assert sum(length for _, length, _ in LAYOUT) == OBSERVATION_SIZE
    for hand in _random_positions(300, seed=1):
        for seat in (0, 1):
            obs = encode(hand.view(seat))
            assert obs.shape == (OBSERVATION_SIZE,) and obs.dtype == np.float32
            assert ((obs >= 0) & (obs <= 1)).all()


def test_worlds_differing_only_in_hidden_cards_give_identical_observations() -> None:
    # R11 / docs/design.md §6: the opponent's hand and the stock order never reach an observation.
    rng = random.Random(2)
    checked = 0
    for hand in _random_positions(150, seed=3):
        if hand.is_over():
            continue
        seat = rng.randrange(2)
        view = hand.view(seat)
        for world in sample_worlds(view, 4, rng):
            if world.cards(1 - seat) == hand.cards(1 - seat) and world.stock == hand.stock:
                continue
            checked += 1
            assert np.array_equal(encode(world.view(seat)), encode(view))
            assert np.array_equal(action_mask(world.view(seat)), action_mask(view))
    assert checked > 100


def test_every_card_is_in_exactly_one_place_the_seat_knows() -> None:
    places = ("my_hand", "my_tricks", "opponent_tricks", "table", "stock_bottom", "opponent_known", "unseen")
    for hand in _random_positions(300, seed=4):
        if hand.result() is not None and hand.result().reason == "revoke":
            continue
        for seat in (0, 1):
            obs = encode(hand.view(seat))
            total = sum(obs[block(name)] for name in places)
            assert (total == 1).all(), hand.describe()


def test_blocks_show_what_the_view_shows() -> None:
    hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH", dealer=0)
    hand.push(Action.parse("KS"))
    obs = encode(hand.view(0))
    assert obs[block("table")][Action.parse("KS").card.index] == 1  # type: ignore[union-attr]
    assert obs[block("my_turn")][0] == 1 and obs[block("i_lead")][0] == 0
    assert list(obs[block("state")]) == [0, 1, 0, 0]
    assert obs[block("trump_suit")][0] == 1  # clubs, the turned-up QC
    assert obs[block("stock")][0] == 1.0
    hand.push(Action.parse("9C"))
    obs = encode(hand.view(0))
    assert obs[block("scores")][0] == 4 / 256 and obs[block("tricks_won")][0] == 1 / 12
    assert obs[block("last_trick")].sum() == 2
    assert list(encode(hand.view(0), match=(3, 7, 7, 1))[block("match")]) == [3 / 7, 1.0, 1 / 7]


def test_the_mask_is_the_legal_actions_of_the_seat_to_act_only() -> None:
    for hand in _random_positions(300, seed=5):
        for seat in (0, 1):
            mask = action_mask(hand.view(seat))
            if seat == hand.to_act:
                assert actions_of(mask) == hand.legal_actions()
                assert sum(1 << int(c) for c in np.flatnonzero(mask)) == hand.legal_mask()
            else:
                assert not mask.any()
