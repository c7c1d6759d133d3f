"""The learned value at the search's leaves (issue 20): the kernel's network
(:class:`sixtysix.kernel.Net`) reads a leaf as its seat to act sees it, checked against
:func:`sixtysix.observation.encode` of that seat's view (the independent,
object-level encoding), gives numpy's value, the same in both kernels; the search
with ``net_value`` values its new leaves by it, and both kernels search alike."""

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
from sixtysix.bots.ismcts import ISMCTSBot  # noqa: E402
from sixtysix.bots.rollout import policy_code  # noqa: E402
from sixtysix.bots.worlds import Worlds  # noqa: E402
from sixtysix.kernel import _pure, _pure_net  # noqa: E402
from sixtysix.kernel.tables import EXCHANGE, config  # noqa: E402
from sixtysix.net import Network  # noqa: E402
from sixtysix.observation import POINT_SCALE, encode, kernel_offsets, match_of, past_of  # noqa: E402
from sixtysix.rules import CLASSIC, Rules  # noqa: E402
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


def run(impl: ModuleType, net_class: Any, hand: Hand, iterations: int, seed: int, network: Network,
        **options: Any) -> tuple[Any, ...]:
    """Search ``hand`` for the seat to act with ``impl``'s kernel and a network."""
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    worlds = Worlds(view, random.Random(seed), 256)
    template = impl.State.from_key(config(hand.rules), worlds.template.kernel.key())
    kn = net_class(network.trunk, network.heads["value"], kernel_offsets(), POINT_SCALE,
                   network.heads["policy"])
    search = impl.Search(seat, 0.4, 2.0, 0.1, False, False, -1, True, UTILITY, net=kn, past=past_of(view),
                         **options)
    return tuple(search.run(template, worlds.opponent, worlds.layouts or [], *worlds.sampler(),
                            iterations, 0.0, seed, impl.Solver()))


@pytest.mark.parametrize("options", [{"value": 0.5}, {"value": 1.0}, {"tree": 2.0},
                                     {"value": 0.5, "tree": 1.0}])
def test_both_kernels_search_alike_with_a_learned_value_or_guide(options: dict[str, float]) -> None:
    network = Network.random([16, 16], seed=6)
    differs = 0
    for i in range(4):
        hand = played(100 + i)
        (c, c_net), (pure, pure_net) = kernels()
        ours = run(c, c_net, hand, 400, i, network, **options)
        assert ours == run(pure, pure_net, hand, 400, i, network, **options)
        differs += ours != run(c, c_net, hand, 400, i, network)
    assert differs >= 2  # the network changes the search


def test_a_guide_below_the_root_is_the_networks_policy_there_and_shares_out_its_visits() -> None:
    """The root held on the exchange (R4) by the root prior: below it the seat is still
    to act, with the same cards in every world. The node's prior is the kernel network's
    policy for the state after the exchange, and with an overwhelming weight its visits
    follow that policy (the pure kernel keeps its tree; the compiled one searches alike)."""
    network = Network.random([16], seed=8)
    kn = _pure_net.Net(network.trunk, network.heads["value"], kernel_offsets(), POINT_SCALE,
                       network.heads["policy"])
    checked = 0
    for seed in range(400):
        hand = played(500 + seed)
        exchange = [a for a in hand.legal_actions() if a.code == EXCHANGE]
        if not exchange:
            continue
        seat = hand.to_act
        view = hand.view(seat)
        worlds = Worlds(view, random.Random(1), 256)
        template = _pure.State.from_key(config(hand.rules), worlds.template.kernel.key())
        prior = [1.0 if code == EXCHANGE else 0.0 for code in range(56)]
        search = _pure.Search(seat, 0.4, 0.0, 0.1, False, False, -1, True, UTILITY, net=kn,
                              past=past_of(view), tree=1e6, prior=1e9, root_prior=prior)
        search.run(template, worlds.opponent, [], *worlds.sampler(), 3000, 0.0, 1, _pure.Solver())
        tree = search.last_tree
        assert tree is not None
        node = tree.children[EXCHANGE]  # every root action is tried once, then the prior holds it
        assert node.visits == 3000 - (len(tree.children) - 1)
        after = template.copy()
        after.push(EXCHANGE)
        policy = kn.policy(after, past_of(view))
        assert node.priors == {code: p for code, p in enumerate(policy) if p > 0}
        visits = {code: child.visits for code, child in node.children.items()}
        total = sum(visits.values())
        assert sum(abs(visits.get(code, 0) / total - p) for code, p in node.priors.items()) / 2 < 0.05
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def _constant(value: float) -> Network:
    """A network whose value head says ``tanh(value)`` whatever it sees."""
    net = Network.random([4], seed=0)
    trunk = [(np.zeros_like(w), np.zeros_like(b)) for w, b in net.trunk]
    heads = {name: (np.zeros_like(w), np.zeros_like(b)) for name, (w, b) in net.heads.items()}
    heads["value"] = (heads["value"][0], np.array([value], dtype=np.float32))
    return Network(trunk, heads)


def test_a_learned_value_is_the_reward_of_each_new_leaf_with_the_stock_open() -> None:
    """One iteration per root action (each is tried once): with value 1 the reward of
    an action whose leaf has the stock open is the network's value for the seat to act
    there, as game points for the searcher (tanh(0.6) * 3 for him, minus that for the
    opponent); closing or a leaf that ends the hand keeps its exact value."""
    network = _constant(0.6)
    worth = math.tanh(np.float32(0.6))  # UTILITY is game points / 3
    checked = 0
    for seed in range(30):
        hand = played(200 + seed)
        if not hand.stock_open:
            continue
        seat = hand.to_act
        legal = hand.legal_actions()
        for impl, net_class in kernels():
            _, _, stats = run(impl, net_class, hand, len(legal), seed, network, value=1.0)
            assert set(stats) == {a.code for a in legal}
            for action in legal:
                after = hand.copy()
                after.push(action)
                visits, total, _ = stats[action.code]
                assert visits == 1
                if after.is_over() or not after.stock_open:
                    continue
                assert math.isclose(total, worth if after.to_act == seat else -worth, abs_tol=1e-12)
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("impl_index", [0, 1])
def test_a_learned_value_needs_a_net_a_past_and_a_weight_from_0_to_1(impl_index: int) -> None:
    impl, net_class = kernels()[impl_index]
    network = Network.random([4], seed=0)
    kn = net_class(network.trunk, network.heads["value"], kernel_offsets(), POINT_SCALE)
    base = (0, 0.4, 2.0, 0.1, False, False, -1, True, UTILITY)
    past = past_of(Hand.random(seed=1).view(0))
    with pytest.raises(ValueError, match=r"value must be between 0 and 1, not 1\.5"):
        impl.Search(*base, net=kn, value=1.5, past=past)
    with pytest.raises(ValueError, match=r"value needs a net"):
        impl.Search(*base, value=0.5)
    with pytest.raises(ValueError, match=r"a net needs the past"):
        impl.Search(*base, net=kn, value=0.5)
    with pytest.raises(ValueError, match=r"past gives 3 numbers, not 15"):
        impl.Search(*base, net=kn, value=0.5, past=(0, 0, 0))
    with pytest.raises(TypeError, match=r"net must be a"):
        impl.Search(*base, net="weights.npz", value=0.5, past=past)
    with pytest.raises(ValueError, match=r"the value head must be a 1 x 4 matrix"):
        net_class(network.trunk, network.heads["policy"], kernel_offsets(), POINT_SCALE)
    with pytest.raises(ValueError, match=r"trunk layer 0 must be a matrix of 229 columns"):
        net_class([(np.zeros((4, 9), dtype=np.float32), np.zeros(4, dtype=np.float32))],
                  network.heads["value"], kernel_offsets(), POINT_SCALE)
    with pytest.raises(ValueError, match=r"tree must be at least 0, not -1"):
        impl.Search(*base, net=kn, tree=-1.0, past=past)
    with pytest.raises(ValueError, match=r"tree needs a net with a policy head"):
        impl.Search(*base, net=kn, tree=1.0, past=past)
    with pytest.raises(ValueError, match=r"the network has no policy head"):
        kn.policy(impl.State.from_key(config(CLASSIC), Hand.random(seed=1).kernel.key()), past)
    with pytest.raises(ValueError, match=r"the policy head must be a 56 x 4 matrix"):
        net_class(network.trunk, network.heads["value"], kernel_offsets(), POINT_SCALE,
                  network.heads["value"])
    with pytest.raises(TypeError, match=r"trunk layer 0 must be a C-contiguous buffer of float32"):
        net_class([(np.zeros((4, 229)), np.zeros(4, dtype=np.float32))], network.heads["value"],
                  kernel_offsets(), POINT_SCALE)


def test_the_bot_with_a_learned_value_plays_legal_deterministic_moves() -> None:
    network = Network.random([16], seed=3)
    for seed in range(3):
        hand = played(300 + seed)
        view = hand.view(hand.to_act)
        bots = [ISMCTSBot(seed=seed, iterations=300, network=network, net_value=1.0) for _ in range(2)]
        choices = {bot.choose(view, view.legal) for bot in bots}
        assert len(choices) == 1 and choices <= set(view.legal)
    with pytest.raises(ValueError, match=r"net_infer, net_prior, net_value and net_tree need a network"):
        ISMCTSBot(net_value=0.5)
    with pytest.raises(ValueError, match=r"net_value must be between 0 and 1, not 2"):
        ISMCTSBot(net_value=2, network=network)


def test_helper_processes_search_with_the_network_in_the_kernel_too() -> None:
    network = Network.random([16], seed=3)
    hand = played(301)
    view = hand.view(hand.to_act)
    bot = ISMCTSBot(seed=1, iterations=300, workers=2, network=network, net_tree=2.0, net_value=0.5)
    try:
        network.kernel_net()  # made here before the helpers start: it must not travel
        assert bot.choose(view, view.legal) in view.legal
        pool = bot._pool
        assert pool is not None and len(pool) == 1  # the helper took the options and searched
        assert bot.choose(view, view.legal) in view.legal
    finally:
        bot.close()
