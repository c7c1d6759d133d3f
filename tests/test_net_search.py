"""The learned network inside the search (issue 20): worlds drawn by the network's odds on
the opponent's cards, checked against the exact distribution counted over every layout;
the search levels with the shipped network, and without it (numpy or the weights
missing) playing on as before with a warning."""

from __future__ import annotations

import math
import random
import warnings
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from helpers import need_module

np = need_module("numpy", "pip install -e '.[net]'")

from sixtysix import Hand  # noqa: E402
from sixtysix.actions import CLOSE  # noqa: E402
from sixtysix.bots import levels as levels_module  # noqa: E402
from sixtysix.bots import make_bot  # noqa: E402
from sixtysix.bots.ismcts import ISMCTSBot  # noqa: E402
from sixtysix.bots.levels import LearnedWarning  # noqa: E402
from sixtysix.bots.worlds import Worlds  # noqa: E402
from sixtysix.net import Network, NetworkError  # noqa: E402


def _midgame(seed: int, plies: int) -> Any:
    rng = random.Random(seed)
    hand = Hand.random(rng=rng)
    for _ in range(plies):  # no close, no declaration
        legal = hand.legal_actions()
        hand.push(rng.choice([a for a in legal if a.is_card] or
                             [a for a in legal if not a.is_declaration and a.code != CLOSE]))
    return hand.view(hand.to_act)


def _exact(view: Any, odds: dict[int, float]) -> dict[int, float]:
    """The chance of each set of unseen cards the opponent may hold: the product of its
    cards' odds, normalised, counted over every such set (independent of Worlds: while
    the stock is open he holds as many cards as the seat, one fewer when he has led to
    the trick, one more when the seat has, R5; the cards he is known to hold count)."""
    unseen = sorted(card.index for card in view.unseen())
    size = len(view.hand) - len(view.known_opponent_cards())
    if view.lead is not None:
        size += 1 if view.lead[0] == view.seat else -1
    weights = {}
    for cards in combinations(unseen, size):
        mask = sum(1 << i for i in cards)
        weights[mask] = math.prod(odds[i] for i in cards)
    total = sum(weights.values())
    return {mask: w / total for mask, w in weights.items()}


@pytest.mark.parametrize("enumerate_below", [0, 100_000])
def test_worlds_drawn_by_odds_follow_the_product_of_the_cards_odds(enumerate_below: int) -> None:
    # Late enough that the hands the opponent may hold can be counted (few unseen cards).
    view = _midgame(seed=11, plies=12)
    assert view.stock_open and len(view.unseen()) <= 12
    rng = random.Random(3)
    odds = {card.index: rng.choice([0.2, 1.0, 5.0]) for card in view.unseen()}
    exact = _exact(view, odds)
    worlds = Worlds(view, random.Random(7), enumerate_below, odds=odds)
    assert worlds.weighted
    draws = 40_000
    hidden = sum(card.mask for card in view.unseen())
    counts = Counter(worlds.layout()[0] & hidden for _ in range(draws))
    assert set(counts) <= set(exact)
    distance = sum(abs(counts.get(mask, 0) / draws - p) for mask, p in exact.items()) / 2
    assert distance < 0.03, distance
    # Uniform worlds are far from it: the test can tell.
    uniform = Worlds(view, random.Random(7), enumerate_below)
    counts = Counter(uniform.layout()[0] & hidden for _ in range(draws))
    assert sum(abs(counts.get(mask, 0) / draws - p) for mask, p in exact.items()) / 2 > 0.2


def test_odds_that_are_all_equal_leave_the_worlds_uniform() -> None:
    view = _midgame(seed=2, plies=3)
    worlds = Worlds(view, random.Random(1), odds={card.index: 4.0 for card in view.unseen()})
    assert not worlds.weighted


def test_odds_must_be_positive() -> None:
    view = _midgame(seed=2, plies=3)
    with pytest.raises(ValueError, match="positive"):
        Worlds(view, random.Random(1), odds={card.index: 0.0 for card in view.unseen()})


def test_the_search_with_learned_inference_is_legal_and_deterministic() -> None:
    net = Network.random([16], seed=4)
    for seed in range(6):
        view = _midgame(seed=seed, plies=seed)
        choices = {ISMCTSBot(seed=5, iterations=300, network=net, net_infer=1.0, net_prior=1.0)
                   .choose(view, view.legal) for _ in range(2)}
        assert len(choices) == 1 and choices <= set(view.legal)


def test_learned_inference_needs_a_network() -> None:
    with pytest.raises(ValueError, match=r"net_infer, net_prior, net_value and net_tree need a network"):
        ISMCTSBot(seed=1, net_infer=1.0)
    with pytest.raises(ValueError, match=r"net_infer, net_prior, net_value and net_tree need a network"):
        ISMCTSBot(seed=1, net_prior=1.0)


def test_an_explicit_weights_file_that_is_missing_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.npz"
    with pytest.raises(NetworkError, match=r"nope\.npz: no such weights file"):
        make_bot(f"ismcts:network={missing},net_infer=1")
    with pytest.raises(NetworkError, match=r"nope\.npz"):
        make_bot(f"net:weights={missing}")


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_level_without_its_weights_plays_on_with_a_warning(level: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "sixtysix-net.npz"
    broken.write_bytes(b"not a zip")
    monkeypatch.setattr("sixtysix.net.shipped_weights", lambda: broken)
    with pytest.warns(LearnedWarning, match=r"sixtysix-net\.npz: not a weights file"):
        bot = make_bot(f"{level}:workers=1,time=0.02", seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.network is None and not bot.net_prior
    view = _midgame(seed=3, plies=2)
    assert bot.choose(view, view.legal) in view.legal


def test_the_levels_use_the_shipped_network_when_it_loads(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    weights = tmp_path / "sixtysix-net.npz"
    Network.random([8], seed=2).save(weights)
    monkeypatch.setattr("sixtysix.net.shipped_weights", lambda: weights)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bot = make_bot("hard:workers=1", seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.network is not None
    assert bot.net_prior == levels_module.NET_PRIOR and not bot.net_infer
    assert make_bot("net").network is bot.network  # read once per process


def test_the_root_prior_is_the_networks_policy_over_the_legal_actions() -> None:
    net = Network.random([16], seed=6)
    view = _midgame(seed=4, plies=5)
    bot = ISMCTSBot(seed=1, iterations=50, network=net, net_prior=2.0)
    bot.choose(view, view.legal)
    policy = net.evaluate(view).policy
    assert len(bot._root_prior) == 56
    for code, p in enumerate(bot._root_prior):
        legal = [a for a in view.legal if a.code == code]
        assert p == pytest.approx(policy[legal[0]] if legal else 0.0, abs=1e-6)


def test_helper_processes_search_with_the_network_too() -> None:
    net = Network.random([16], seed=6)
    view = _midgame(seed=4, plies=5)
    bot = ISMCTSBot(seed=1, iterations=400, workers=2, network=net, net_infer=1.0, net_prior=1.0)
    try:
        assert bot.choose(view, view.legal) in view.legal
        pool = bot._pool
        assert pool is not None and len(pool) == 1  # the helper took the options and searched
    finally:
        bot.close()


def test_a_hint_shows_the_networks_opinion_beside_the_analysis() -> None:
    from sixtysix.analysis import Budget, analyse
    from sixtysix.text.screen import render_hint
    from sixtysix.text.style import AnsiStyle

    net = Network.random([16], seed=8)
    view = _midgame(seed=6, plies=3)
    plain = analyse(view, Budget(worlds=4), seed=2)
    lines = analyse(view, Budget(worlds=4), seed=2, network=net)
    assert [(x.action, x.value) for x in lines] == [(x.action, x.value) for x in plain]
    policy = net.evaluate(view).policy
    assert all(line.network == pytest.approx(policy[line.action]) for line in lines)
    assert all(line.network is None for line in plain)
    text = render_hint(lines, AnsiStyle(color=False))
    for line in lines:
        assert f"{line.network:.0%}" in text
    assert "learned network" in text and "learned network" not in render_hint(plain, AnsiStyle(color=False))
