"""The Gymnasium environment sixtysix/SixtySix-v0 (sixtysix.envs.gym)."""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

from rl_support import require

np = require("numpy")
gym = require("gymnasium")
require("sixtysix.envs")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from sixtysix import IllegalActionError, ParseError  # noqa: E402
from sixtysix.envs import ENV_ID, OBSERVATION_SIZE, SixtySixEnv  # noqa: E402
from sixtysix.envs.observation import encode  # noqa: E402


def _check(env: Any) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker's advice (e.g. on Box bounds) is not a failure
        check_env(env.unwrapped)


def test_registered_environment_passes_the_gymnasium_checker() -> None:
    env = gym.make(ENV_ID)
    assert isinstance(env.unwrapped, SixtySixEnv)
    assert env.observation_space.shape == (OBSERVATION_SIZE,)
    assert env.action_space.n == 56
    _check(env)
    assert isinstance(gym.make("sixtysix.envs:" + ENV_ID).unwrapped, SixtySixEnv)


@pytest.mark.parametrize("options", [{"episode": "match", "opponent": "random"},
                                     {"render_mode": "ansi", "seat": 1, "rules": "santase"},
                                     {"rules": "schnapsen", "episode": "match"},
                                     {"rules": "course", "opponent": "heuristic"},
                                     {"illegal_action": "raise", "opponent": "easy"}])
def test_configured_environments_pass_the_checker(options: dict[str, Any]) -> None:
    if options.get("illegal_action") == "raise":
        # The checker steps with unmasked random actions; with "raise" those raise, as documented.
        env = gym.make(ENV_ID, **options)
        env.reset(seed=0)
        with pytest.raises(IllegalActionError, match="legal:"):
            for code in range(56):
                env.step(code)
        return
    _check(gym.make(ENV_ID, **options))


def _match_info(env: SixtySixEnv) -> tuple[int, int, int, int] | None:
    match = env.match
    if match is None:
        return None
    return match.score[env.seat], match.score[1 - env.seat], env.rules.target, match.pending_bonus


def _play(env: SixtySixEnv, seed: int) -> tuple[list[Any], float, dict[str, Any]]:
    """One episode with uniformly random legal actions; the trajectory, the return and the last info."""
    obs, info = env.reset(seed=seed)
    env.action_space.seed(seed)
    trajectory: list[Any] = [obs]
    total = 0.0
    done = False
    results = []
    while not done:
        hand = env.hand
        # The masks equal the engine's legal actions for the agent's seat.
        assert hand.to_act == env.seat
        assert sum(1 << int(c) for c in np.flatnonzero(info["action_mask"])) == hand.legal_mask()
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        assert info["legal"] == [str(a) for a in hand.legal_actions()]
        assert np.array_equal(obs, encode(hand.view(env.seat), _match_info(env)))
        action = env.action_space.sample(mask=info["action_mask"])
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated and obs in env.observation_space
        trajectory += [int(action), obs, reward]
        total += reward
        if "result" in info:
            result = info["result"]
            results.append(result)
            signed = 0 if result.winner is None else (
                1 if result.winner == env.seat else -1) * (result.game_points + result.bonus)
            assert reward == signed  # a hand ends in this step: its game points are the reward
        else:
            assert reward == 0
    assert not info["action_mask"].any()
    assert results and (env.episode_kind == "match" or len(results) == 1)
    assert env.match is None or results == env.match.results()
    return trajectory, total, info


@pytest.mark.parametrize("opponent", ["random", "policy", "heuristic"])
def test_rewards_are_the_game_points_of_the_hand(opponent: str) -> None:
    env = SixtySixEnv(opponent)
    outcomes = set()
    for seed in range(60):
        _, total, info = _play(env, seed)
        result = env.hand.result()
        assert result is not None and info["result"] == result
        expected = 0 if result.winner is None else (
            result.game_points if result.winner == env.seat else -result.game_points)
        assert total == expected
        outcomes.add(np.sign(total))
    # Random play wins about a fifth of its hands against random (68 of 300 measured),
    # 1% against the others: only there must both signs show in 60 hands.
    assert -1 in outcomes and (opponent != "random" or 1 in outcomes)


def test_match_episodes_return_the_match_score_difference() -> None:
    env = SixtySixEnv("random", episode="match")
    for seed in range(8):
        _, total, _ = _play(env, seed)
        match = env.match
        assert match is not None and match.is_over()
        score = match.score
        assert total == score[env.seat] - score[1 - env.seat]
        assert len(match.hands) > 1


def test_vectorised_environments_work() -> None:
    envs = gym.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync", opponent="random", episode="match")
    _, info = envs.reset(seed=0)
    finished = 0
    for _ in range(400):
        actions = np.array([envs.single_action_space.sample(mask=m) for m in info["action_mask"]])
        _, rewards, terminated, _, info = envs.step(actions)
        finished += int(terminated.sum())
        assert ((rewards != 0) <= info.get("_result", np.zeros(3, dtype=bool))).all()
    assert finished > 0
    envs.close()


def test_observations_are_the_encoding_of_the_agents_view() -> None:
    env = SixtySixEnv("random", seat=0)
    obs, _ = env.reset(seed=5)
    assert env.seat == 0
    assert np.array_equal(obs, encode(env.hand.view(0)))
    assert env.view == env.hand.view(0)


def test_seeded_episodes_replay_exactly_and_seeds_differ() -> None:
    for opponent in ("heuristic", "easy"):
        a, total_a, _ = _play(SixtySixEnv(opponent), 11)
        b, total_b, _ = _play(SixtySixEnv(opponent), 11)
        assert len(a) == len(b) and total_a == total_b
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    firsts = {SixtySixEnv("random").reset(seed=s)[0].tobytes() for s in range(10)}
    assert len(firsts) == 10


def test_an_illegal_action_forfeits_by_default() -> None:
    env = SixtySixEnv("random")
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-3.0, True, False)
    assert "is not legal; legal: " in info["illegal_action"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_an_illegal_action_raises_naming_the_legal_ones_and_changes_nothing() -> None:
    env = SixtySixEnv("random", illegal_action="raise")
    _, info = env.reset(seed=3)
    before = env.view
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError) as caught:
        env.step(illegal)
    assert " ".join(info["legal"]) in str(caught.value)
    assert env.view == before
    with pytest.raises(IllegalActionError):
        env.step(99)
    for wrong in ("KH", 3.0, None, True):
        with pytest.raises(TypeError, match="integer code"):
            env.step(wrong)  # type: ignore[arg-type]
    assert env.view == before
    legal = int(np.flatnonzero(info["action_mask"])[0])
    env.step(np.int16(legal))  # any integer type will do
    assert env.view != before


def test_bad_options_are_refused_clearly() -> None:
    with pytest.raises(ParseError, match="unknown bot"):
        SixtySixEnv("grandmaster")
    with pytest.raises(ValueError, match="seat"):
        SixtySixEnv(seat=2)
    with pytest.raises(ValueError, match="illegal_action"):
        SixtySixEnv(illegal_action="ignore")
    with pytest.raises(ValueError, match="episode"):
        SixtySixEnv(episode="season")
    with pytest.raises(RuntimeError, match="reset"):
        SixtySixEnv().step(0)


def test_ansi_rendering_shows_the_agents_view_only() -> None:
    env = SixtySixEnv("random", render_mode="ansi", seat=1)
    env.reset(seed=2)
    text = env.render()
    assert text is not None and "Your hand:" in text
    hidden = env.hand.cards(0) - env.view.known_opponent_cards()
    tokens = set(re.findall(r"\b[9TJQKA][CDHS]\b", text))
    assert hidden and not tokens & {str(card) for card in hidden}
    assert {str(card) for card in env.view.hand} <= tokens
    assert SixtySixEnv("random").render() is None


def test_a_bot_object_can_be_the_opponent() -> None:
    from sixtysix.bots import make_bot

    bot = make_bot("heuristic", seed=1)
    env = SixtySixEnv(bot)
    _, total, _ = _play(env, 4)
    assert env.opponent is bot and total in range(-3, 4)


def test_an_external_engine_that_fails_forfeits_its_hand(tmp_path: Any) -> None:
    # The opponent is a program over the bot protocol that crashes at its second
    # decision: it loses the hand (3 game points to the agent) and the episode ends.
    import sys
    from pathlib import Path

    faulty = Path(__file__).resolve().parent / "engines" / "faulty_engine.py"
    spec = f"engine:{sys.executable} {faulty} crash 2 {tmp_path / 'done'}"
    env = SixtySixEnv(opponent=spec, seat=0)
    try:
        _, info = env.reset(seed=1)
        total = 0.0
        terminated = False
        while not terminated:
            action = int(info["action_mask"].nonzero()[0][0])
            _, reward, terminated, _, info = env.step(action)
            total += float(reward)
        assert (tmp_path / "done").exists()
        assert info["result"].reason == "forfeit" and info["result"].winner == 0
        assert total == 3.0
    finally:
        env.close()


def test_a_forfeit_before_the_agents_first_turn_deals_again(tmp_path: Any) -> None:
    import sys
    from pathlib import Path

    faulty = Path(__file__).resolve().parent / "engines" / "faulty_engine.py"
    for seed in range(12):
        marker = tmp_path / f"done{seed}"
        env = SixtySixEnv(opponent=f"engine:{sys.executable} {faulty} crash 1 {marker}", seat=1)
        try:
            _, info = env.reset(seed=seed)
            if marker.exists():
                # The engine led, crashed and lost that deal; reset dealt again.
                assert info["legal"] and env.view.to_act == 1
                return
        finally:
            env.close()
    pytest.fail("the engine never had the first action")


def listed_codes(text: str) -> list[int]:
    """The action codes an ansi screen lists after its "Legal actions by code:" line."""
    listing = text.split("Legal actions by code:\n", 1)[1]
    return sorted(int(a or b) for a, b in re.findall(r"(\d+)=|^ +(\d+) ", listing, flags=re.MULTILINE))


def test_ansi_rendering_lists_the_legal_codes_without_the_line_modes_prompt() -> None:
    """An environment is no terminal: its screen offers the action codes the agent steps
    with (those of the mask), and no prompt to type a card or a number."""
    env = SixtySixEnv("random", render_mode="ansi")
    env.action_space.seed(0)
    seen = set()
    for seed in range(6):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            text = env.render()
            assert text is not None
            assert "Choose" not in text and "? for help" not in text
            assert listed_codes(text) == sorted(np.flatnonzero(info["action_mask"]).tolist())
            seen.update(listed_codes(text))
            _, _, done, _, info = env.step(env.action_space.sample(mask=info["action_mask"]))
    assert {49, 50} <= seen and any(code < 24 for code in seen)  # a close, a draw, cards
