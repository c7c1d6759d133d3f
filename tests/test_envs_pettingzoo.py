"""The PettingZoo AEC environment (sixtysix.envs.pettingzoo)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rl_support import require

np = require("numpy")
require("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from sixtysix import IllegalActionError  # noqa: E402
from sixtysix.envs.observation import encode  # noqa: E402
from sixtysix.envs.pettingzoo import AGENTS, SixtySixAEC, env  # noqa: E402

# The {"observation", "action_mask"} dict is what the issue asks for; the api test advises a Box.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]


@pytest.mark.parametrize("options", [{}, {"episode": "match"}, {"rules": "santase", "render_mode": "ansi"},
                                     {"rules": "schnapsen"}, {"rules": "course"}])
def test_passes_the_pettingzoo_api_test(options: dict[str, Any]) -> None:
    api_test(env(**options), num_cycles=300)


@pytest.mark.parametrize("options", [{}, {"episode": "match"}])
def test_passes_the_pettingzoo_seed_test(options: dict[str, Any]) -> None:
    seed_test(lambda: env(**options), num_cycles=300)


def _play(aec: SixtySixAEC, seed: int) -> dict[str, float]:
    """One episode with random legal actions, checking masks and observations; the returns."""
    aec.reset(seed=seed)
    for agent in AGENTS:
        aec.action_space(agent).seed(seed)
    returns = dict.fromkeys(AGENTS, 0.0)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _info = aec.last()
        returns[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        hand = aec._game.hand  # type: ignore[union-attr]
        seat = AGENTS.index(agent)
        assert hand.to_act == seat
        assert sum(1 << int(c) for c in np.flatnonzero(obs["action_mask"])) == hand.legal_mask()
        assert np.array_equal(obs["observation"], encode(hand.view(seat), aec._game.match_info(seat)))  # type: ignore[union-attr]
        assert not aec.observe(AGENTS[1 - seat])["action_mask"].any()
        aec.step(aec.action_space(agent).sample(obs["action_mask"]))
    return returns


def test_rewards_are_the_game_points_zero_sum() -> None:
    aec = env()
    winners = set()
    for seed in range(40):
        returns = _play(aec, seed)
        result = aec._game.hand.result()  # type: ignore[union-attr]
        assert result is not None
        if result.winner is None:
            assert returns == {"player_0": 0.0, "player_1": 0.0}
            continue
        winners.add(result.winner)
        assert returns[AGENTS[result.winner]] == result.game_points
        assert returns[AGENTS[1 - result.winner]] == -result.game_points
    assert winners == {0, 1}


def test_match_returns_are_the_match_score_difference() -> None:
    aec = env(episode="match")
    for seed in range(5):
        returns = _play(aec, seed)
        match = aec._game.match  # type: ignore[union-attr]
        assert match is not None and match.is_over() and len(match.hands) > 1
        assert returns["player_0"] == match.score[0] - match.score[1] == -returns["player_1"]


def test_an_illegal_action_forfeits_or_raises() -> None:
    aec = env()
    aec.reset(seed=1)
    agent = aec.agent_selection
    obs, *_ = aec.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    aec.step(illegal)
    assert aec.terminations == {"player_0": True, "player_1": True}
    other = AGENTS[1 - AGENTS.index(agent)]
    assert aec._cumulative_rewards[agent] == -3.0 and aec._cumulative_rewards[other] == 3.0
    assert "legal: " in aec.infos[agent]["illegal_action"]

    strict = env(illegal_action="raise")
    strict.reset(seed=1)
    before = strict._game.hand.key()  # type: ignore[union-attr]
    state = (strict.agent_selection, dict(strict._cumulative_rewards), dict(strict.terminations))
    with pytest.raises(IllegalActionError, match="legal:"):
        strict.step(illegal)
    with pytest.raises(TypeError, match="integer code"):
        strict.step(1.5)
    assert strict._game.hand.key() == before  # type: ignore[union-attr]
    assert (strict.agent_selection, strict._cumulative_rewards, strict.terminations) == state


def test_ansi_rendering_is_the_view_of_the_agent_to_act() -> None:
    aec = env(render_mode="ansi")
    aec.reset(seed=6)
    text = aec.render()
    seat = AGENTS.index(aec.agent_selection)
    assert text is not None and "Your hand:" in text
    for card in aec._game.hand.cards(seat):  # type: ignore[union-attr]
        assert str(card) in text


def test_ansi_rendering_offers_the_agents_codes_and_no_prompt() -> None:
    aec = env(render_mode="ansi")
    aec.reset(seed=6)
    for _ in range(12):
        text = aec.render()
        assert text is not None and "Choose" not in text and "? for help" not in text
        mask = aec.observe(aec.agent_selection)["action_mask"]
        listing = text.split("Legal actions by code:\n", 1)[1]
        codes = sorted(int(a or b) for a, b in re.findall(r"(\d+)=|^ +(\d+) ", listing, flags=re.MULTILINE))
        assert codes == sorted(np.flatnonzero(mask).tolist())
        aec.step(int(np.flatnonzero(mask)[0]))
