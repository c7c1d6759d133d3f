"""The learned network inside the search (issue 20): its policy as the root's prior; the
search levels with the shipped network, and without it (numpy or the weights missing)
playing on as before with a warning."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import pytest

from helpers import need_module

np = need_module("numpy", "pip install -e '.[net]'")

from sixtysix import Hand  # noqa: E402
from sixtysix.bots import levels as levels_module  # noqa: E402
from sixtysix.bots import make_bot  # noqa: E402
from sixtysix.bots.ismcts import ISMCTSBot  # noqa: E402
from sixtysix.bots.levels import LearnedWarning  # noqa: E402
from sixtysix.game.actions import CLOSE  # noqa: E402
from sixtysix.search.net import Network, NetworkError  # noqa: E402


def _midgame(seed: int, plies: int) -> Any:
    rng = random.Random(seed)
    hand = Hand.random(rng=rng)
    for _ in range(plies):  # no close, no declaration
        legal = hand.legal_actions()
        hand.push(rng.choice([a for a in legal if a.is_card] or
                             [a for a in legal if not a.is_declaration and a.code != CLOSE]))
    return hand.view(hand.to_act)


def test_the_search_with_a_root_prior_is_legal_and_deterministic() -> None:
    net = Network.random([16], seed=4)
    for seed in range(6):
        view = _midgame(seed=seed, plies=seed)
        choices = {ISMCTSBot(seed=5, iterations=300, network=net, net_prior=1.0)
                   .choose(view, view.legal) for _ in range(2)}
        assert len(choices) == 1 and choices <= set(view.legal)


def test_the_root_prior_needs_a_network() -> None:
    with pytest.raises(ValueError, match=r"net_prior needs a network"):
        ISMCTSBot(seed=1, net_prior=1.0)


def test_an_explicit_weights_file_that_is_missing_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.npz"
    with pytest.raises(NetworkError, match=r"nope\.npz: no such weights file"):
        make_bot(f"ismcts:network={missing},net_prior=1")
    with pytest.raises(NetworkError, match=r"nope\.npz"):
        make_bot(f"net:weights={missing}")


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_level_without_its_weights_plays_on_with_a_warning(level: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "sixtysix-net.npz"
    broken.write_bytes(b"not a zip")
    monkeypatch.setattr("sixtysix.search.net.shipped_weights", lambda: broken)
    with pytest.warns(LearnedWarning, match=r"sixtysix-net\.npz: not a weights file"):
        bot = make_bot(f"{level}:workers=1,time=0.02", seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.config.network is None and not bot.config.net_prior
    view = _midgame(seed=3, plies=2)
    assert bot.choose(view, view.legal) in view.legal


def test_the_levels_use_the_shipped_network_when_it_loads(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    weights = tmp_path / "sixtysix-net.npz"
    Network.random([8], seed=2).save(weights)
    monkeypatch.setattr("sixtysix.search.net.shipped_weights", lambda: weights)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bot = make_bot("hard:workers=1", seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.config.network is not None
    assert bot.config.net_prior == levels_module.NET_PRIOR
    assert make_bot("net").network is bot.config.network  # read once per process


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
    bot = ISMCTSBot(seed=1, iterations=400, workers=2, network=net, net_prior=1.0)
    try:
        assert bot.choose(view, view.legal) in view.legal
        pool = bot._pool
        assert pool is not None and len(pool) == 1  # the helper took the options and searched
    finally:
        bot.close()


def test_a_hint_shows_the_networks_opinion_beside_the_analysis() -> None:
    from sixtysix.bots.analysis import Budget, analyse
    from sixtysix.present.text.screen import render_hint
    from sixtysix.present.text.style import AnsiStyle

    net = Network.random([16], seed=8)
    view = _midgame(seed=6, plies=3)
    plain = analyse(view, Budget(worlds=4), seed=2)
    lines = analyse(view, Budget(worlds=4), seed=2, network=net)
    assert [(x.action, x.value) for x in lines] == [(x.action, x.value) for x in plain]
    policy = net.evaluate(view).policy
    assert all(line.network == pytest.approx(policy[line.action]) for line in lines)
    assert all(line.network is None for line in plain)
    text = render_hint(lines, view, AnsiStyle(color=False))
    for line in lines:
        assert f"{line.network:.0%}" in text
    assert "learned network" in text
    assert "learned network" not in render_hint(plain, view, AnsiStyle(color=False))
