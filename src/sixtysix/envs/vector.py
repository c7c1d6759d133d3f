"""``SixtySixVectorEnv``: many tables of one seat against an opponent, stepped in one call.

A Gymnasium :class:`~gymnasium.vector.VectorEnv` whose tables live inside the
rules kernel (:class:`sixtysix.kernel.Tables`, in C when the compiled kernel is
built): one :meth:`~SixtySixVectorEnv.step` plays every table's action, then the
opponent until the agent is to act again, and writes the observations, masks,
rewards and flags into NumPy arrays, with no Python call per table.

- Observations: ``float32[num_envs, 229]``, the layout of
  :mod:`sixtysix.envs.observation` (the same vector as ``encode(hand.view(seat))``).
- Actions: ``int64[num_envs]`` action codes; ``infos["action_mask"]`` is
  ``int8[num_envs, 56]`` (:meth:`~SixtySixVectorEnv.action_masks`: booleans).
- Rewards: the agent's game points when its hand ends (R9), else 0; an illegal
  action forfeits the hand with ``-3``.
- Episodes are single hands; the agent's seat and the dealer are drawn for each.
- Autoreset: Gymnasium's next-step mode. The step after a hand ended deals that
  table again (its action is ignored, its reward 0, its flags false).
- Opponents: ``"random"`` (uniform among the legal actions, never a false
  declaration) or ``"policy"`` (the search players' playout policy, playing from
  what its own seat can see).

>>> env = SixtySixVectorEnv(num_envs=4, opponent="random")
>>> obs, infos = env.reset(seed=1)
>>> obs.shape, infos["action_mask"].shape
((4, 229), (4, 56))
>>> actions = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
>>> obs, rewards, terminated, truncated, infos = env.step(actions)
>>> rewards.shape, terminated.dtype
((4,), dtype('bool'))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from sixtysix import kernel
from sixtysix.envs.game import parse_rules
from sixtysix.envs.observation import NUM_ACTIONS, OBSERVATION_SIZE, POINT_SCALE
from sixtysix.game.observation import kernel_offsets
from sixtysix.rules import Rules

__all__ = ["OPPONENTS", "SixtySixVectorEnv"]

#: The opponents a table can seat (played inside the kernel).
OPPONENTS = kernel.OPPONENTS

Observations = npt.NDArray[np.float32]
Actions = npt.NDArray[np.int64]


class SixtySixVectorEnv(VectorEnv[Observations, Actions, npt.NDArray[Any]]):
    """``num_envs`` tables of one hand each; see the module docstring and ``docs/rl.md``.

    ``rules`` is a :class:`~sixtysix.rules.Rules` or text such as ``"santase"``;
    ``seat`` fixes the agent's seat (0 or 1), else it is drawn for each hand.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int = 256, opponent: str = "random", *,
                 rules: str | Rules = "classic", seat: int | None = None) -> None:
        if opponent not in OPPONENTS:
            raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}, not {opponent!r}")
        if seat not in (None, 0, 1):
            raise ValueError(f"seat must be 0, 1 or None (drawn for each hand), not {seat!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.num_envs = num_envs
        self.rules = parse_rules(rules)
        self.opponent = opponent
        offsets = kernel_offsets()
        self._tables = kernel.Tables(num_envs, kernel.config(self.rules), offsets, POINT_SCALE,
                                     OPPONENTS.index(opponent), -1 if seat is None else seat)
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, OBSERVATION_SIZE), dtype=np.float32)
        self._masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float32)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._ready = False

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observations, dict[str, Any]]:
        """Deal every table; ``seed`` makes the deals and the opponents' choices reproducible."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        super().reset(seed=seed)
        self._tables.reset(int(self.np_random.integers(2**63)), self._obs, self._masks)
        self._ready = True
        return self._obs.copy(), {"action_mask": self._masks.copy()}

    def step(self, actions: Actions) -> tuple[Observations, npt.NDArray[np.float32], npt.NDArray[np.bool_],
                                             npt.NDArray[np.bool_], dict[str, Any]]:
        """Play one action per table (see the module docstring)."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        codes = np.ascontiguousarray(actions, dtype=np.int64)
        if codes.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), not {codes.shape}")
        self._tables.step(codes, self._obs, self._masks, self._rewards, self._terminated)
        return (self._obs.copy(), self._rewards.copy(), self._terminated.copy(), self._truncated.copy(),
                {"action_mask": self._masks.copy()})

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal action codes of every table as booleans (maskable PPO's method)."""
        return self._masks.astype(bool)

    def hand(self, index: int) -> tuple[kernel.State, int, int]:
        """Table ``index``'s state (a copy), the agent's seat and the dealer (for tests and
        debugging: the state holds hidden cards)."""
        return self._tables.table(index)
