"""Reinforcement-learning adapters: Gymnasium and PettingZoo (the ``rl`` extra).

``pip install -e '.[rl]'``. Importing this package registers the
Gymnasium environment ``sixtysix/SixtySix-v0``::

    import gymnasium as gym
    import sixtysix.envs
    env = gym.make("sixtysix/SixtySix-v0", opponent="heuristic")

Both adapters observe the game through :func:`sixtysix.envs.observation.encode`
of a seat's view, so they never see a hidden card. See ``docs/rl.md``.
"""

from __future__ import annotations

from sixtysix.envs.gym import ENV_ID, SixtySixEnv, register
from sixtysix.envs.observation import (
    LAYOUT,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    action_mask,
    actions_of,
    encode,
)

__all__ = [
    "ENV_ID",
    "LAYOUT",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "SixtySixEnv",
    "action_mask",
    "actions_of",
    "encode",
    "register",
]

register()
