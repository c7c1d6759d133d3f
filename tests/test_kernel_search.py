"""The kernel's ISMCTS (:class:`sixtysix.kernel.Search`) on both kernels, its options (one
checked :class:`~sixtysix.kernel.TreeConfig`, which the bots' ``SearchConfig`` extends),
and its early stop: ``settle`` (the leader cannot be caught) and ``tolerance`` (no other
action is better by that much).

The stopping rules are checked against the search run to its whole budget with the
same seed (a search is a prefix of a longer one with the same seed) and against the
rule recomputed from the root statistics the search returns.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import random
import re
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from sixtysix import Hand
from sixtysix.bots.ismcts import ISMCTSBot, Worlds
from sixtysix.bots.rollout import policy_code
from sixtysix.bots.search_config import SearchConfig
from sixtysix.game.actions import CLOSE, DRAW, EXCHANGE, MARRIAGE, ActionKind
from sixtysix.kernel import SETTLE_EVERY, SETTLE_FROM, TOLERANCE_FROM, TreeConfig, _pure, _pure_search
from sixtysix.kernel.tables import config
from sixtysix.rules import CLASSIC, Rules
from sixtysix.states import HandState
from test_kernel_diff import compiled

#: Rewards of game points -3..3 for the seat searched for.
UTILITY = tuple(g / 3 for g in range(-3, 4))


def positions(count: int, seed: int) -> list[Hand]:
    """Positions from hands played on by the playout policy, some with the stock open,
    some closed or exhausted (more than one legal action, none a correct 66)."""
    rng = random.Random(seed)
    out: list[Hand] = []
    while len(out) < count:
        hand = Hand.random(seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 16)):
            if hand.is_over():
                break
            hand.push_code(policy_code(hand, rng))
        if not hand.is_over() and len(hand.legal_actions()) > 1:
            out.append(hand)
    return out


def tree(**options: Any) -> TreeConfig:
    """The hard level's tree options, with ``options`` changed."""
    return TreeConfig(**{"c": 0.4, "bias": 2.0, "epsilon": 0.1, **options})


def run(impl: ModuleType, hand: Hand, iterations: int, seed: int, *, solve_cards: int = -1,
        root_prior: Any = (), **options: Any) -> tuple[Any, ...]:
    """Search ``hand`` for the seat to act with ``impl``'s kernel, as
    :class:`ISMCTSBot` does (the hard level's settings, with the tree's ``options``)."""
    seat = hand.to_act
    assert seat is not None
    worlds = Worlds(hand.view(seat), random.Random(seed), 256)
    template = impl.State.from_key(config(hand.rules), worlds.template.kernel.key())
    search = impl.Search(seat, tree(**options), UTILITY, solve_cards=solve_cards, root_prior=root_prior)
    return tuple(search.run(template, worlds.opponent, worlds.layouts or [], *worlds.sampler(),
                            iterations, 0.0, seed, impl.Solver()))


def leader(stats: dict[int, tuple[int, float, float]]) -> int:
    """The action the bot plays: the most visits (ties: the higher mean)."""
    return max(stats, key=lambda code: (stats[code][0], stats[code][1] / stats[code][0]))


@pytest.mark.slow
def test_both_kernels_search_alike() -> None:
    """Same seed, same budget: the same iterations, prior and root statistics, with and
    without the early stop, and with the closed leaves solved (as at a closed root)."""
    c = compiled()
    for i, hand in enumerate(positions(6, seed=11)):
        assert run(c, hand, 1500, i) == run(_pure, hand, 1500, i)
        assert run(c, hand, 600, i, solve_cards=6) == run(_pure, hand, 600, i, solve_cards=6)
        assert run(c, hand, 3000, i, settle=0.3) == run(_pure, hand, 3000, i, settle=0.3)
    for i, hand in enumerate(positions(2, seed=12)):
        options = {"settle": 0.05, "tolerance": 0.05}
        assert run(c, hand, TOLERANCE_FROM + 2048, i, **options) == \
            run(_pure, hand, TOLERANCE_FROM + 2048, i, **options)


def _prior(hand: Hand, seed: int) -> list[float]:
    """A made-up policy over the legal actions (one per action code, 0 for the others)."""
    rng = random.Random(seed)
    legal = [a.code for a in hand.legal_actions()]
    weights = {code: rng.random() ** 3 for code in legal}
    total = sum(weights.values())
    return [weights.get(code, 0.0) / total for code in range(56)]


def test_both_kernels_search_alike_with_a_root_prior() -> None:
    c = compiled()
    for i, hand in enumerate(positions(6, seed=15)):
        options = {"net_prior": 1.5, "root_prior": _prior(hand, i)}
        assert run(c, hand, 1500, i, **options) == run(_pure, hand, 1500, i, **options)
        assert c.Search(0, tree(net_prior=1.5), UTILITY, root_prior=options["root_prior"]).root_prior == \
            tuple(options["root_prior"])


def test_both_kernels_read_each_option_of_the_tree() -> None:
    """Every option away from the hard level's (and from the others' values): a kernel
    that read one option for another, or missed one, would search otherwise."""
    c = compiled()
    options = {"c": 0.7, "epsilon": 0.25, "bias": 0.5}
    for i, hand in enumerate(positions(3, seed=17)):
        assert run(c, hand, 800, i, **options) == run(_pure, hand, 800, i, **options)
        assert run(c, hand, 800, i, **options) != run(c, hand, 800, i)


def test_a_root_prior_shares_out_the_roots_visits() -> None:
    """PUCT: a prior of overwhelming weight shares the root's visits out in proportion to
    the prior (each action's score is then about p / (1 + n)); of no weight, it changes
    nothing."""
    c = compiled()
    for i, hand in enumerate(positions(8, seed=16)):
        prior = _prior(hand, i)
        assert run(c, hand, 2000, i, net_prior=0.0, root_prior=prior) == run(c, hand, 2000, i)
        _, _, stats = run(c, hand, 2000, i, net_prior=1000.0, root_prior=prior)
        assert _distance(stats, prior) < 0.03
        _, _, plain = run(c, hand, 2000, i)
        assert _distance(plain, prior) > 0.1


def _distance(stats: dict[int, tuple[int, float, float]], prior: list[float]) -> float:
    """The total variation distance between the root's visits and the prior."""
    visits = sum(v for v, _, _ in stats.values())
    return sum(abs(stats.get(code, (0, 0.0, 0.0))[0] / visits - p) for code, p in enumerate(prior)) / 2


def test_a_root_prior_must_name_every_action_code() -> None:
    for impl in (_pure_search, compiled()):
        with pytest.raises(ValueError, match=r"root_prior gives 3 probabilities, not one per action code"):
            impl.Search(0, tree(net_prior=1.0), UTILITY, root_prior=[0.5, 0.25, 0.25])
    with pytest.raises(ValueError, match=r"net_prior must be at least 0, not -1\.0"):
        tree(net_prior=-1.0)


@pytest.mark.slow
def test_settle_one_stops_only_when_the_choice_cannot_change() -> None:
    """With ``settle=1`` the search stops once no action can overtake the leader: it
    plays what the whole budget would have played, and it does stop early."""
    c = compiled()
    budget = 40_000
    early = 0
    for i, hand in enumerate(positions(40, seed=13)):
        done, _, stats = run(c, hand, budget, i, settle=1.0)
        _, _, whole = run(c, hand, budget, i)
        assert leader(stats) == leader(whole)
        if done < budget:
            early += 1
            assert done >= SETTLE_FROM and done % SETTLE_EVERY == 0
            visits = sorted((v for v, _, _ in stats.values()), reverse=True) + [0]
            assert visits[0] - visits[1] > budget - done
    assert early >= 10


def test_tolerance_stops_when_no_action_is_better_by_that_much() -> None:
    """Recomputed from the returned statistics: when the search stopped by its
    ``tolerance``, every other action's mean is below the leader's or above it by less
    than the tolerance, two standard errors of the difference included."""
    c = compiled()
    tolerance = 0.02
    budget = 200_000
    stopped = 0
    for i, hand in enumerate(positions(30, seed=14)):
        done, _, stats = run(c, hand, budget, i, tolerance=tolerance)
        if done == budget:
            continue
        stopped += 1
        assert done >= TOLERANCE_FROM and done % SETTLE_EVERY == 0
        best = max(stats, key=lambda code: (stats[code][0], -code))
        n, total, squares = stats[best]
        mean = total / n
        var = max(squares / n - mean * mean, 0.0) / n
        for code, (m, t, s) in stats.items():
            if code != best:
                other = t / m
                err = var + max(s / m - other * other, 0.0) / m
                assert other - mean + 2 * math.sqrt(err) < tolerance
    assert stopped >= 5


def test_settle_and_tolerance_are_checked() -> None:
    with pytest.raises(ValueError, match="settle must be at least 0"):
        tree(settle=-0.5)
    with pytest.raises(ValueError, match="tolerance must be at least 0"):
        tree(tolerance=math.nan)
    with pytest.raises(ValueError, match="settle must be at least 0"):
        ISMCTSBot(seed=1, settle=-1)


@pytest.mark.parametrize(("options", "message"), [
    ({"c": -0.1}, "c must be at least 0, not -0.1"),
    ({"c": "abc"}, "c must be a number, not 'abc'"),
    ({"bias": math.nan}, "bias must be at least 0, not nan"),
    ({"epsilon": 1.5}, "epsilon must be between 0 and 1, not 1.5"),
    ({"epsilon": True}, "epsilon must be a number, not True"),
    ({"cards_only": "yes"}, "cards_only must be true or false, not 'yes'"),
])
def test_the_tree_config_refuses_bad_values_naming_the_option(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        tree(**options)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        SearchConfig(**options)


def test_the_kernels_take_only_a_checked_config() -> None:
    """The options are checked once, when the config is made: both kernels refuse anything
    else, even an object with the same attributes (which nobody checked)."""
    unchecked = SimpleNamespace(**{**dataclasses.asdict(tree()), "settle": -0.5})
    for impl in (_pure_search, compiled()):
        with pytest.raises(TypeError, match="config must be a TreeConfig, not SimpleNamespace"):
            impl.Search(0, unchecked, UTILITY)


def test_the_bots_config_is_the_kernels_with_each_option_declared_once() -> None:
    """SearchConfig extends TreeConfig and declares none of its options again; the bot's
    config goes to the kernel whole, and both kernels keep the very object."""
    tree_options = {field.name for field in dataclasses.fields(TreeConfig)}
    assert issubclass(SearchConfig, TreeConfig)
    assert not tree_options & set(SearchConfig.__annotations__)
    bot_config = SearchConfig(iterations=100, c=0.3, settle=0.2, cards_only=True)
    for impl in (_pure_search, compiled()):
        assert impl.Search(1, bot_config, UTILITY).config is bot_config


def test_a_settling_bot_stops_early_in_the_kernel() -> None:
    """The bot's search in the kernel ends an easy decision long before the budget, and
    chooses what the whole budget chooses."""
    hand = positions(1, seed=15)[0]
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    budget = 30_000
    bot = ISMCTSBot(seed=3, iterations=budget, c=0.4, bias=2.0, settle=1.0)
    settled = bot.choose(view, view.legal)
    assert SETTLE_FROM <= bot.last_iterations < budget
    whole = ISMCTSBot(seed=3, iterations=budget, c=0.4, bias=2.0)
    assert whole.choose(view, view.legal) == settled
    assert whole.last_iterations == budget


def test_both_kernels_take_the_same_arguments() -> None:
    """The compiled search's keyword list is the pure one's signature, defaults included."""
    def parameters(cls: type) -> list[tuple[str, object]]:
        return [(p.name, p.default) for p in inspect.signature(cls).parameters.values()]

    assert parameters(compiled().Search) == parameters(_pure_search.Search)
    options = tree(settle=0.1)
    for impl in (_pure_search, compiled()):
        search = impl.Search(1, options, UTILITY, solve_cards=6)
        assert (search.seat, search.solve_cards, search.config, search.utility, search.root_prior) == \
            (1, 6, options, UTILITY, ())



# The tree of card plays (cards_only: santase-ismcts) -----------------------------------
TABLE_RULES = Rules.parse("classic,enforce_follow=false")


def card_positions(count: int, seed: int, rules: Rules = CLASSIC) -> list[Hand]:
    """Positions under ``rules`` where one of several cards is to be played (the stock
    open, closed or exhausted), reached by the playout policy."""
    rng = random.Random(seed)
    out: list[Hand] = []
    while len(out) < count:
        hand = Hand.random(seed=rng.randrange(1 << 30), rules=rules)
        for _ in range(rng.randrange(0, 20)):
            if hand.is_over():
                break
            hand.push_code(policy_code(hand, rng))
        if hand.is_over() or hand.state not in (HandState.LEAD, HandState.FOLLOW):
            continue
        if hand.kernel.policy_code(False, False) < EXCHANGE and \
                len({a.card for a in hand.legal_actions() if a.card is not None}) > 1:
            out.append(hand)
    return out


def card_plays(hand: Hand) -> set[int]:
    """The card plays of the rule book with every marriage announced: the legal cards
    under strict rules (no revoke, R7.2 and R10.2), a King or Queen led with its partner
    as the marriage (R5.1)."""
    strict = Hand.deal(hand.deck, hand.dealer, hand.rules.replace(enforce_follow=True))
    for action in hand.actions:
        strict.push(action)
    legal = strict.legal_actions()
    marriages = {a.card for a in legal if a.kind == ActionKind.MARRIAGE}
    return {a.code + MARRIAGE if a.card in marriages else a.code for a in legal if a.kind == ActionKind.PLAY}


def tree_codes(node: Any) -> set[int]:
    """Every action code in the tree below ``node``."""
    codes: set[int] = set()
    for code, child in node.children.items():
        codes.add(code)
        codes |= tree_codes(child)
    return codes


def last_tree(hand: Hand, iterations: int, seed: int, **options: Any) -> Any:
    """The pure kernel's tree after a search of ``hand`` (see :func:`run`)."""
    seat = hand.to_act
    assert seat is not None
    worlds = Worlds(hand.view(seat), random.Random(seed), 256)
    search = _pure.Search(seat, tree(**options), UTILITY)
    search.run(worlds.template.kernel, worlds.opponent, worlds.layouts or [], *worlds.sampler(),
               iterations, 0.0, seed, _pure.Solver())
    return search.last_tree


def test_both_kernels_search_alike_with_card_plays_only() -> None:
    c = compiled()
    for rules in (CLASSIC, TABLE_RULES):
        for i, hand in enumerate(card_positions(5, 21, rules)):
            assert run(c, hand, 1500, i, cards_only=True) == run(_pure, hand, 1500, i, cards_only=True)
    assert c.Search(0, tree(cards_only=True), UTILITY).config.cards_only is True


def test_the_tree_of_card_plays_holds_card_plays_only() -> None:
    """With cards_only the root's actions are the card plays of the rule book with every
    marriage announced and no revoke, even where the table rules allow one, and no node
    below is a draw, a close, an exchange or a declaration: the fixed rules took them.
    Without it, such nodes are there."""
    others = set()
    for rules in (CLASSIC, TABLE_RULES):
        for i, hand in enumerate(card_positions(6, 22, rules)):
            _, _, stats = run(_pure, hand, 300, i, cards_only=True)
            assert set(stats) <= card_plays(hand)
            assert max(tree_codes(last_tree(hand, 300, i, cards_only=True))) < EXCHANGE
            others |= {code for code in tree_codes(last_tree(hand, 300, i)) if code >= EXCHANGE}
    assert {CLOSE, DRAW} <= others


def test_a_tree_of_card_plays_needs_a_card_to_play() -> None:
    hand = Hand.random(seed=3)
    rng = random.Random(1)
    while hand.state != HandState.DRAW:
        hand.push_code(policy_code(hand, rng))
    for impl in (compiled(), _pure):
        with pytest.raises(ValueError, match="no legal action"):
            run(impl, hand, 10, 1, cards_only=True)
