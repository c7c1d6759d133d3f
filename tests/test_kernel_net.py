"""The kernel's network (:class:`sixtysix.kernel.Net`): it reads a position as a seat sees it,
checked against :func:`sixtysix.game.observation.encode` of that seat's view (the
independent, object-level encoding), and gives numpy's value and policy, the same in
both kernels."""

from __future__ import annotations

import dataclasses
import math
import random
from types import ModuleType
from typing import Any

import pytest

from helpers import need_module

np = need_module("numpy", "pip install -e '.[net]'")

from sixtysix import Hand  # noqa: E402
from sixtysix.bots.rollout import policy_code  # noqa: E402
from sixtysix.game.observation import POINT_SCALE, encode, kernel_offsets  # noqa: E402
from sixtysix.game.views import match_of, past_of  # noqa: E402
from sixtysix.kernel import _pure, _pure_net  # noqa: E402
from sixtysix.kernel.tables import config  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.search.net import Network  # noqa: E402
from test_kernel_diff import compiled  # noqa: E402

#: Rewards of game points -3..3 for the seat searched for.
UTILITY = tuple(g / 3 for g in range(-3, 4))


def kernels() -> list[tuple[ModuleType, Any]]:
    """Each kernel with its Net class."""
    c = compiled()
    return [(c, c.Net), (_pure, _pure_net.Net)]


def played(seed: int, rules: Any = None) -> Hand:
    """A hand played on by the playout policy (marriages, exchanges, closes and all) to
    a position where a seat is to act."""
    rng = random.Random(seed)
    while True:
        hand = Hand.random(rng=rng) if rules is None else Hand.random(rules=rules, rng=rng)
        for _ in range(rng.randrange(0, 18)):
            if hand.is_over():
                break
            hand.push_code(policy_code(hand, rng))
        if not hand.is_over():
            return hand


def in_match(view: Any, rng: random.Random) -> Any:
    """The view as if in a match (scores, a tie bonus at stake), or as it is."""
    if rng.random() < 0.5:
        return view
    return dataclasses.replace(view, match_score=(rng.randrange(7), rng.randrange(7)),
                               match_bonus=rng.randrange(2))


def test_the_kernels_observe_a_leaf_as_its_seats_view_shows_it() -> None:
    """A world built from a root view without its history, played on: the kernel's
    observation of either seat (root's past + the world's own actions) is the object
    encoding of that seat's view of the world."""
    net = Network.random([8], seed=1)
    checked = 0
    for seed in range(160):
        rng = random.Random(seed)
        rules = Rules.preset(("schnapsen", "santase", "course")[seed % 3]) if seed % 4 == 3 else None
        hand = played(seed, rules)
        root = in_match(hand.view(hand.to_act), rng)
        world = Hand.from_view(root, hand.cards(1 - root.seat), hand.stock)
        past = past_of(root)
        for _ in range(rng.randrange(0, 8)):
            if world.is_over():
                break
            world.push_code(policy_code(world, rng))
        for impl, net_class in kernels():
            kn = net_class(net.trunk, net.heads["value"], kernel_offsets(), POINT_SCALE)
            for seat in (0, 1):
                want = encode(world.view(seat), _match_for(root, seat))
                got = kn.observe(_replayed(impl, root, hand, world), seat, past)
                assert np.array_equal(np.asarray(got, dtype=np.float32), want), (seed, seat, impl.NAME)
                checked += 1
    assert checked == 160 * 2 * 2


def _match_for(root: Any, seat: int) -> tuple[int, int, int, int] | None:
    """The match as ``seat`` sees it (the root's is the root seat's)."""
    match = match_of(root)
    if match is None:
        return None
    mine, theirs, target, bonus = match
    if seat != root.seat:
        mine, theirs = theirs, mine
    return mine, theirs, target, bonus


def _replayed(impl: ModuleType, root: Any, hand: Hand, world: Hand) -> Any:
    """``world``'s kernel state in ``impl``: the root's state without history, then the
    world's actions since the root pushed on it."""
    template = Hand.from_view(root, hand.cards(1 - root.seat), hand.stock)
    state = impl.State.from_key(config(world.rules), template.kernel.key())
    for code, _ in world.kernel.history():
        state.push(code)
    return state


def test_the_kernels_value_and_guide_exactly_alike_and_as_numpy_does() -> None:
    net = Network.random([48, 32], seed=4)
    nets = [cls(net.trunk, net.heads["value"], kernel_offsets(), POINT_SCALE, net.heads["policy"])
            for _, cls in kernels()]
    for seed in range(40):
        hand = played(seed)
        view = hand.view(hand.to_act)
        past = past_of(view)
        states = [impl.State.from_key(config(hand.rules), hand.kernel.key()) for impl, _ in kernels()]
        c_value, pure_value = (kn.value(state, past) for state, kn in zip(states, nets, strict=True))
        assert c_value == pure_value
        judged = net.evaluate(view)
        assert math.isclose(c_value, judged.value, abs_tol=1e-5)
        c_policy, pure_policy = (kn.policy(state, past) for state, kn in zip(states, nets, strict=True))
        assert c_policy == pure_policy
        assert {code for code, p in enumerate(c_policy) if p > 0} == {a.code for a in view.legal}
        for action, p in judged.policy.items():
            assert math.isclose(c_policy[action.code], p, abs_tol=1e-5)


@pytest.mark.parametrize("seed", range(60))
def test_the_policies_read_only_what_the_seat_to_act_can_see(seed: int) -> None:
    """The other seat's hand and the stock swapped around (a state the acting seat cannot
    tell from the real one): the playout policy judging fairly (what progressive bias asks)
    and the network's policy give the acting seat the same answers in both kernels."""
    hand = played(seed, Rules.preset(("classic", "schnapsen", "santase", "course")[seed % 4]))
    rng = random.Random(seed)
    acting = hand.to_act
    assert acting is not None
    network = Network.random([16], seed=seed)
    other = 1 - acting
    hidden = [c for c in range(24) if hand.kernel.hand(other) >> c & 1] + hand.kernel.stock_cards()[:-1]
    for impl, cls in kernels():
        net = cls(network.trunk, network.heads["value"], kernel_offsets(), POINT_SCALE,
                  network.heads["policy"])
        real = impl.State.deal([c.index for c in hand.deck], hand.dealer, config(hand.rules))
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
