"""OpenSpiel's ISMCTS on python_sixty_six against one of our bots (one core).

Run:  python benchmarks/openspiel_ismcts.py [--hands N] [--simulations S] [--opponent random] [--seed 1]

Plays single classic hands, seats alternating, between OpenSpiel's Python
information-set MCTS (random-rollout evaluator, ``uct_c`` 2, the deal resampled
with :meth:`SixtySixState.resample_from_infostate
<sixtysix.envs.openspiel.SixtySixState.resample_from_infostate>`) and a bot of
ours, which is given only its seat's view. Prints hands won, game points per
hand (net, with a 95% confidence interval), and the search speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np
import pyspiel
from machine import machine  # benchmarks/machine.py
from open_spiel.python.algorithms import ismcts, mcts

import sixtysix.envs.openspiel  # noqa: F401  (registers python_sixty_six)
from sixtysix.bots import make_bot
from sixtysix.game.actions import Action
from sixtysix.game.player import Event
from sixtysix.measure.stats import mean_interval


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("python_sixty_six")
    rng = random.Random(args.seed)
    diffs: list[float] = []
    won = lost = decisions = 0
    search_time = 0.0
    for h in range(args.hands):
        seat = h % 2
        seed = args.seed * 100_003 + h
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                               2.0, args.simulations, random_state=np.random.RandomState(seed))
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))
        ours = make_bot(args.opponent, seed=seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        ours.new_hand(state.view(1 - seat))
        while not state.is_terminal():
            actor = state.current_player()
            if actor == seat:
                start = time.perf_counter()
                action = bot.step(state)
                search_time += time.perf_counter() - start
                decisions += 1
            else:
                view = state.view(actor)
                action = ours.choose(view, list(view.legal)).code
            state.apply_action(action)
            ours.observe(Event(actor, Action(action)))
        returns = state.returns()
        diffs.append(returns[seat])  # zero-sum: the opponent scored the opposite
        won += returns[seat] > 0
        lost += returns[seat] < 0
    n = len(diffs)
    # Net game points of a hand lie between -3 and 3 (a forfeit or a Schwarz): the interval
    # is clipped there (sixtysix.measure.stats.mean_interval).
    points = mean_interval(diffs, bounds=(-3, 3))
    print(machine())
    print(f"ISMCTS ({args.simulations} simulations) vs {args.opponent}, {n} classic hands, seed {args.seed}")
    print(f"hands won {won}, lost {lost}, tied {n - won - lost}")
    print(f"ISMCTS's net game points per hand: {points.mean:+.2f} "
          f"(95% CI {points.low:+.2f} to {points.high:+.2f})")
    print(f"{decisions} decisions, {search_time / max(decisions, 1):.2f} s each, "
          f"{decisions * args.simulations / max(search_time, 1e-9):.0f} simulations/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
