"""The vector environment: tables inside the kernel, checked table by table against the
checked hand, its views and the observation encoder (an independent oracle: the tables
write observations straight from the kernel's state and history)."""

from __future__ import annotations

from helpers import need, need_module

np = need_module("numpy")
need_module("gymnasium")

import pytest  # noqa: E402

from sixtysix import CARDS, Action, Hand, Rules  # noqa: E402
from sixtysix.envs.observation import action_mask, encode  # noqa: E402
from sixtysix.envs.vector import SixtySixVectorEnv  # noqa: E402
from sixtysix.game.actions import ACTIONS  # noqa: E402
from sixtysix.kernel import DEAL_LAYOUTS  # noqa: E402


def rebuilt(env: SixtySixVectorEnv, index: int) -> tuple[Hand, int]:
    """Table ``index`` dealt again as a checked hand, with its actions pushed through the
    hand's checks; and the agent's seat."""
    state, seat, dealer = env.hand(index)
    codes = [code for code, _ in state.history()]
    while state.depth():
        state.pop()
    layout = DEAL_LAYOUTS[env.rules.deck]
    deck: list[int] = [-1] * env.rules.deck
    non_dealer = [c for c in range(24) if state.hand(1 - dealer) >> c & 1]
    for position, card in zip(layout.non_dealer, non_dealer, strict=True):
        deck[position] = card
    for position, card in zip(layout.dealer, [c for c in range(24) if state.hand(dealer) >> c & 1],
                              strict=True):
        deck[position] = card
    for position, card in zip(layout.stock, state.stock_cards(), strict=True):
        deck[position] = card
    hand = Hand.deal([CARDS[c] for c in deck], dealer, env.rules)
    for code in codes:
        action = ACTIONS[code]
        assert isinstance(action, Action)
        hand.push(action)
    return hand, seat


def check_tables(env: SixtySixVectorEnv, obs: np.ndarray, infos: dict[str, np.ndarray]) -> None:
    for i in range(env.num_envs):
        hand, seat = rebuilt(env, i)
        view = hand.view(seat)
        assert np.array_equal(obs[i], encode(view)), (i, hand.describe())
        assert np.array_equal(infos["action_mask"][i], action_mask(view)), i


@pytest.mark.parametrize("preset", ["classic", "santase", "schnapsen", "course"])
@pytest.mark.parametrize("opponent", ["random", "policy"])
def test_every_table_observes_what_its_seat_may_see(preset: str, opponent: str) -> None:
    env = SixtySixVectorEnv(num_envs=8, opponent=opponent, rules=preset)
    obs, infos = env.reset(seed=5)
    check_tables(env, obs, infos)
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(60):
        before = [rebuilt(env, i) for i in range(env.num_envs)]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in infos["action_mask"]])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        check_tables(env, obs, infos)
        assert not truncated.any()
        for i, (hand, seat) in enumerate(before):
            if hand.is_over():  # next-step autoreset: a new deal, reward 0, not terminated
                assert rewards[i] == 0 and not terminated[i] and env.hand(i)[0].depth() <= 4
                continue
            after, _ = rebuilt(env, i)
            assert terminated[i] == after.is_over()
            if after.is_over():
                ended += 1
                result = after.result()
                assert result is not None
                points = 0 if result.winner is None else result.game_points
                assert rewards[i] == (points if result.winner == seat else -points)
                # The random opponent never declares falsely (the policy neither).
                assert not (result.reason == "false_declaration" and result.winner == seat)
            else:
                assert rewards[i] == 0
    assert ended > 20


def test_an_illegal_action_forfeits_the_hand() -> None:
    env = SixtySixVectorEnv(num_envs=3, opponent="random", seat=0)
    _, infos = env.reset(seed=2)
    illegal = np.array([int(np.flatnonzero(m == 0)[0]) for m in infos["action_mask"]])
    illegal[1] = 99  # not an action code at all
    _, rewards, terminated, _, infos = env.step(illegal)
    assert list(rewards) == [-3.0, -3.0, -3.0] and terminated.all()
    for i in range(3):
        state, seat, _ = env.hand(i)
        assert state.winner == 1 - seat and state.game_points == 3
        assert not infos["action_mask"][i].any()


def test_seeded_resets_replay_and_the_spaces_are_gymnasiums() -> None:
    a, b = SixtySixVectorEnv(num_envs=4), SixtySixVectorEnv(num_envs=4)
    oa, _ = a.reset(seed=7)
    ob, _ = b.reset(seed=7)
    assert np.array_equal(oa, ob)
    assert a.observation_space.contains(oa)
    assert a.action_space.shape == (4,)
    with pytest.raises(ValueError, match="opponent must be one of random, policy"):
        SixtySixVectorEnv(opponent="heuristic")
    with pytest.raises(RuntimeError, match="reset"):
        SixtySixVectorEnv(num_envs=2).step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match="shape"):
        a.step(np.zeros(3, dtype=np.int64))


@pytest.mark.parametrize("impl", ["_pure_tables", "_ckernel"])
def test_wrong_buffers_are_refused_before_anything_moves(impl: str) -> None:
    import importlib

    from sixtysix.envs.observation import OBSERVATION_SIZE, POINT_SCALE, block
    from sixtysix.kernel import OBSERVATION_BLOCKS, config

    try:
        module = importlib.import_module(f"sixtysix.kernel.{impl}")
    except ImportError:
        need(False, "the compiled kernel is not built (pip install -e . with a C compiler)")
        raise
    offsets = [block(name).start for name in OBSERVATION_BLOCKS] + [OBSERVATION_SIZE]
    tables = module.Tables(2, config(Rules()), offsets, POINT_SCALE, 0, 0)
    obs = np.zeros((2, OBSERVATION_SIZE), dtype=np.float32)
    masks = np.zeros((2, 56), dtype=np.int8)
    with pytest.raises(TypeError):
        tables.reset(1, obs.astype(np.float64), masks)
    with pytest.raises(ValueError):
        tables.reset(1, obs[:1], masks)
    tables.reset(1, obs, masks)
    before = [tables.table(i)[0].key() for i in range(2)]
    rewards, terminated = np.zeros(2, dtype=np.float32), np.zeros(2, dtype=np.bool_)
    with pytest.raises(TypeError):
        tables.step(np.zeros(2, dtype=np.int32), obs, masks, rewards, terminated)
    with pytest.raises(ValueError):
        tables.step(np.zeros(3, dtype=np.int64), obs, masks, rewards, terminated)
    assert [tables.table(i)[0].key() for i in range(2)] == before
