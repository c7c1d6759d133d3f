"""Reinforcement-learning environments' speed (one core): random legal actions.

Run:  python benchmarks/envs.py [--steps N] [--tables 256]

* the Gymnasium env (``gym.make("sixtysix/SixtySix-v0", opponent=...)``), agent
  steps/s with a random masked action per step, against ``random`` and ``heuristic``;
* the vector env (:class:`sixtysix.envs.vector.SixtySixVectorEnv`), agent steps/s
  summed over its tables, a random legal action per table (drawn with NumPy);
* the OpenSpiel game (``python_sixty_six``), actions/s of random play through
  ``state.apply_action`` (chance outcomes included).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from machine import machine

from sixtysix import kernel


def gym_env(opponent: str, steps: int) -> float:
    import gymnasium as gym

    import sixtysix.envs  # noqa: F401  (registers the env)

    env = gym.make("sixtysix/SixtySix-v0", opponent=opponent)
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=1)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def vector_env(tables: int, steps: int) -> float:
    from sixtysix.envs.vector import SixtySixVectorEnv

    env = SixtySixVectorEnv(num_envs=tables, opponent="random")
    _, infos = env.reset(seed=1)
    rng = np.random.default_rng(1)
    rounds = max(steps // tables, 1)
    start = time.perf_counter()
    for _ in range(rounds):
        masks = infos["action_mask"]
        # A random legal action per table: the largest random key among the legal codes.
        keys = rng.random(masks.shape, dtype=np.float32) * masks
        infos = env.step(keys.argmax(axis=1))[4]
    return rounds * tables / (time.perf_counter() - start)


def openspiel(steps: int) -> float:
    import pyspiel

    import sixtysix.envs.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_sixty_six")
    rng = random.Random(1)
    done = 0
    start = time.perf_counter()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return done / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--tables", type=int, default=256)
    args = parser.parse_args()
    print(f"machine: {machine()}; {kernel.NAME} rules kernel")
    for opponent in ("random", "heuristic"):
        print(f"Gymnasium env against {opponent}: {gym_env(opponent, args.steps // 5):>12,.0f} agent steps/s")
    rate = vector_env(args.tables, args.steps * 20)
    print(f"vector env, {args.tables} tables:    {rate:>12,.0f} agent steps/s")
    try:
        print(f"OpenSpiel game:              {openspiel(args.steps):>12,.0f} actions/s")
    except ImportError:
        print("OpenSpiel game: not installed (pip install -e '.[openspiel]')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
