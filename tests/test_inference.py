"""Policy-based inference (issue 33): a world's weight is how likely the opponent's actions
this hand were in it, under a model of him judging by what he could see
(sixtysix.bots.inference, State.likelihood in both kernels). The oracles: a plain
re-computation of the product of chances over a replayed Hand (for the playout policy);
the pure kernel against the compiled one; views that are equal giving equal weights;
and states that differ only in what the acting seat cannot see giving the same chances.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from helpers import need_module
from sixtysix import Hand, Rules
from sixtysix.bots import make_bot
from sixtysix.bots.analysis import Budget, sample_values
from sixtysix.bots.inference import Inference
from sixtysix.bots.ismcts import ISMCTSBot
from sixtysix.bots.pimc import PIMCBot
from sixtysix.bots.worlds import Worlds
from sixtysix.game.cards import CARDS
from sixtysix.game.views import View
from sixtysix.game.worlds import Packs
from sixtysix.kernel import _pure, _pure_net
from sixtysix.kernel.tables import config
from test_kernel_diff import compiled

np = need_module("numpy", "pip install -e '.[net]'")

from sixtysix.game.observation import POINT_SCALE, kernel_offsets  # noqa: E402
from sixtysix.game.views import past_of  # noqa: E402
from sixtysix.search.net import Network  # noqa: E402

PRESETS = ("classic", "schnapsen", "santase", "course")


def played(seed: int, plies: int | None = None) -> Hand:
    """A hand played by the heuristic players (marriages, exchanges, closes) to a position
    where a seat is to act."""
    rng = random.Random(seed)
    rules = Rules.preset(PRESETS[seed % len(PRESETS)])
    while True:
        hand = Hand.random(rules=rules, rng=rng)
        bots = [make_bot("medium" if seed % 2 else "easy", seed=seed + s) for s in (0, 1)]
        for _ in range(rng.randrange(2, 22) if plies is None else plies):
            if hand.to_act is None:
                break
            view = hand.view(hand.to_act)
            hand.push(bots[hand.to_act].choose(view, view.legal))
        if hand.to_act is not None:
            return hand


def replayed_chances(deck: Sequence[int], view: View, epsilon: float) -> float:
    """The oracle: the pack dealt as a Hand, the view's actions pushed one by one, and at
    each action of the opponent with a choice the playout policy asked on his own view's
    world (his view turned into a world with every card where it truly lies)."""
    hand = Hand.deal([CARDS[i] for i in deck], view.dealer, view.rules)
    total = 0.0
    for seat, action in view.history:
        legal = hand.legal_actions()
        if seat == view.opponent and len(legal) > 1:
            model = 1.0 if action.code == hand.kernel.policy_code(True, False) else 0.0
            total += math.log((1 - epsilon) * model + epsilon / len(legal))
        hand.push(action)
    return total


@pytest.mark.parametrize("seed", range(40))
def test_the_likelihood_is_the_product_of_the_policys_chances(seed: int) -> None:
    hand = played(seed)
    view = hand.view(hand.to_act)
    rng = random.Random(seed)
    deck = Packs(view, rng).pack(hand.kernel.hand(view.opponent), hand.kernel.stock_cards(), rng)
    state = _pure.State.deal(deck, view.dealer, config(view.rules))
    expected = replayed_chances(deck, view, 0.1)
    assert state.likelihood([a.code for _, a in view.history], view.opponent, 0.1) == pytest.approx(expected)
    assert state.depth() == 0  # left as it was


def nets(network: Network) -> list[tuple[ModuleType, Any]]:
    """Each kernel with the network in it (a random network: the oracle is the other kernel)."""
    args = (network.trunk, network.heads["value"], kernel_offsets(), POINT_SCALE, network.heads["policy"])
    c = compiled()
    return [(c, c.Net(*args)), (_pure, _pure_net.Net(*args))]


@pytest.mark.parametrize("seed", range(30))
def test_both_kernels_give_the_same_likelihoods(seed: int) -> None:
    """The compiled kernel's State.likelihood equals the pure one's exactly, with the playout
    policy and with a network as the model, on worlds sampled from a view (not the truth)."""
    hand = played(seed)
    view = hand.view(hand.to_act)
    rng = random.Random(seed)
    packs = Packs(view, rng)
    worlds = Worlds(view, rng)
    codes = [a.code for _, a in view.history]
    past = (0, 0, 0, 0, -1, -1, 0, -1, 0, -1, *past_of(view)[10:])
    network = Network.random([16, 8], seed=seed)
    values = []
    layouts = worlds.draw(3)
    for module, net in nets(network):
        layout_rng = random.Random(seed)
        row = []
        for mask, stock in layouts:
            deck = packs.pack(mask, stock, layout_rng)
            state = module.State.deal(deck, view.dealer, config(view.rules))
            row.append(state.likelihood(codes, view.opponent, 0.1))
            row.append(state.likelihood(codes, view.opponent, 0.05, net, past))
            row.append(state.likelihood(codes, view.seat, 0.2, net, past))
            row.append(state.likelihood(codes, view.opponent, 0.1, net, past, 0.4))
        values.append(row)
    assert values[0] == values[1]
    assert all(v < 0 or v == 0 for v in values[0])


@pytest.mark.parametrize("module", ["c", "pure"])
def test_an_action_not_legal_in_a_world_rules_it_out(module: str) -> None:
    kernel = compiled() if module == "c" else _pure
    state = kernel.State.deal(list(range(24)), 0, config(Rules.preset("classic")))
    hand_of_dealer = state.hand(0)
    card = (hand_of_dealer & -hand_of_dealer).bit_length() - 1  # the dealer's card: not the leader's
    assert state.likelihood([card], 1, 0.1) == -math.inf
    with pytest.raises(ValueError, match="epsilon"):
        state.likelihood([], 1, 1.5)
    with pytest.raises(ValueError, match="past"):
        state.likelihood([], 1, 0.1, nets(Network.random([4], seed=1))[0 if module == "c" else 1][1])


@pytest.mark.parametrize("seed", range(60))
def test_the_models_read_only_what_the_seat_to_act_can_see(seed: int) -> None:
    """The other seat's hand and the stock swapped around (a state the acting seat cannot
    tell from the real one): the playout policy (fair) and the network give the acting
    seat the same chances in both kernels."""
    hand = played(seed)
    rng = random.Random(seed)
    acting = hand.to_act
    assert acting is not None
    network = Network.random([16], seed=seed)
    other = 1 - acting
    hidden = [c for c in range(24) if hand.kernel.hand(other) >> c & 1] + hand.kernel.stock_cards()[:-1]
    for module, net in nets(network):
        real = module.State.deal([c.index for c in hand.deck], hand.dealer, config(hand.rules))
        for _, action in hand.view(acting).history:
            real.push(action.code)
        swapped = real.copy()
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        n = hand.kernel.hand(other).bit_count()
        stock = [*shuffled[n:], *hand.kernel.stock_cards()[-1:]]
        swapped.deal_hidden(other, sum(1 << c for c in shuffled[:n]), stock[:len(hand.kernel.stock_cards())])
        past = (0, 0, 0, 0, -1, -1, 0, -1, 0, -1, *past_of(hand.view(acting))[10:])
        assert real.policy_code(True) == swapped.policy_code(True)
        assert net.policy(real, past) == net.policy(swapped, past)


def test_equal_views_give_equal_weights() -> None:
    """Two deals that give seat 0 the same view, the opponent's cards and the stock
    otherwise different: the same worlds get the same weights (inference reads the view)."""
    hand = played(7, plies=9)
    view = hand.view(0)
    sampler = Worlds(view, random.Random(8))
    other = next(w for w in (sampler.world() for _ in range(100))
                 if w.kernel.hand(1) != hand.kernel.hand(1))
    assert other.view(0) == view and other.key() != hand.key()
    network = Network.random([16], seed=2)
    layouts = Worlds(view, random.Random(3)).draw(20)
    for net in (None, network.kernel_net()):
        weights = []
        for h in (hand, other):
            inference = Inference(h.view(0), random.Random(4), 0.7, 0.1, net, past_of(h.view(0)))
            weights.append([inference.log_weight(layout, random.Random(i))
                            for i, layout in enumerate(layouts)])
        assert weights[0] == weights[1]


def test_against_the_policy_itself_the_real_hand_weighs_more_than_the_average() -> None:
    """An opponent who plays the playout policy exactly: under that model the worlds with
    his real hand weigh more than the average world (over 30 positions; each average is
    over 200 sampled worlds)."""
    ratios = []
    for seed in range(30):
        rng = random.Random(seed)
        hand = Hand.random(rng=rng)
        for _ in range(rng.randrange(4, 14)):
            if hand.to_act is None:
                break
            hand.push_code(hand.kernel.policy_code(True, False))
        if hand.to_act is None:
            continue
        view = hand.view(hand.to_act)
        inference = Inference(view, rng, 1.0)
        worlds = Worlds(view, rng)
        sampled = [math.exp(inference.log_weight(worlds.layout(), rng)) for _ in range(200)]
        truth = (hand.kernel.hand(view.opponent), hand.kernel.stock_cards())
        real = sum(math.exp(inference.log_weight(truth, rng)) for _ in range(20)) / 20
        ratios.append(real / (sum(sampled) / len(sampled)))
    assert sum(ratios) / len(ratios) > 1.5


class Nowhere(Inference):
    """Inference by a model that no world explains."""

    def log_weight(self, layout: tuple[int, Sequence[int]], rng: random.Random) -> float:
        return -math.inf


def test_a_history_no_world_explains_falls_back_to_uniform(caplog: pytest.LogCaptureFixture) -> None:
    hand = played(3)
    view = hand.view(hand.to_act)
    with caplog.at_level(logging.DEBUG, logger="sixtysix.bots.worlds"):
        worlds = Worlds(view, random.Random(1), weigh=Nowhere(view, random.Random(1), 1.0))
    assert not worlds.weighted
    assert "drawn uniformly" in caplog.text
    world = worlds.world()
    assert world.view(view.seat) == view


def test_the_search_with_inference_plays_legally_and_alike_for_a_seed() -> None:
    hand = played(11)
    view = hand.view(hand.to_act)
    network = Network.random([16], seed=1)
    for options in ({"infer": 0.5}, {"infer": 0.5, "infer_model": "net", "network": network}):
        first = ISMCTSBot(seed=5, iterations=300, **options).choose(view, view.legal)  # type: ignore[arg-type]
        again = ISMCTSBot(seed=5, iterations=300, **options).choose(view, view.legal)  # type: ignore[arg-type]
        assert first == again and first in view.legal


@pytest.mark.parametrize(("options", "message"), [
    ({"infer": -1}, "infer must be at least 0"),
    ({"infer": 1, "infer_model": "heuristic"}, "infer_model must be policy or net"),
    ({"infer": 1, "infer_model": "net"}, "needs a network"),
    ({"infer": 1, "infer_epsilon": 0}, "infer_epsilon"),
    ({"infer": 1, "infer_pool": 0}, "infer_pool"),
    ({"infer": "abc"}, "infer must be a number, not 'abc'"),
    ({"c": "abc"}, "c must be a number, not 'abc'"),
    ({"iterations": 2.5}, "iterations must be a whole number, not 2.5"),
    ({"match": "abc"}, "match must be true or false, not 'abc'"),
])
def test_bad_options_are_named(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ISMCTSBot(**options)  # type: ignore[arg-type]


def test_pimc_with_inference_draws_its_worlds_by_weight() -> None:
    """PIMC's worlds come from the weighed sampler with ``infer``: every world it values
    shows the view, and the same seed gives the same action."""
    hand = played(13)
    view = hand.view(hand.to_act)
    drawn: list[Hand] = []

    class Recording(Worlds):
        def world(self) -> Hand:
            world = super().world()
            drawn.append(world)
            return world

    inference = Inference(view, random.Random(2), 0.7)
    values, _ = sample_values(view, Budget(worlds=12), rng=random.Random(3),
                              draw=Recording(view, random.Random(4), weigh=inference).world)
    assert len(drawn) == 12 and all(w.view(view.seat) == view for w in drawn)
    assert all(len(v) == 12 for v in values.values())
    choices = {PIMCBot(seed=6, worlds=8, infer=0.7).choose(view, view.legal) for _ in range(2)}
    assert len(choices) == 1 and choices <= set(view.legal)


def test_a_spec_with_a_word_for_a_number_is_refused_in_one_line() -> None:
    pimc = "the option infer of the bot 'pimc:infer=x' is a number, not 'x'"
    for spec, message in (("ismcts:infer=abc", "infer must be a number, not 'abc'"), ("pimc:infer=x", pimc)):
        with pytest.raises(ValueError, match=message):
            make_bot(spec)
