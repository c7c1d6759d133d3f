"""How fast the learned network plays: the ``net`` player's time per move, one core.

Run:  python benchmarks/net.py [--weights FILE.npz] [--positions 2000] [--seed 1]

Positions come from hands played by the heuristic player (the views a player meets
in a game); each is answered by ``NetBot.choose`` (the observation encoded from the
view, the forward pass in numpy, the best legal action) and by the search's one
call of the network per decision (``Network.outputs``: policy, value and hand). The
default weights are the shipped ones. numpy is told to use one thread. Prints the median and the 99th
percentile in milliseconds, and the machine.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import random
import statistics
import time
from collections.abc import Callable

from machine import machine

from sixtysix.bots import make_bot
from sixtysix.bots.net_bot import SHIPPED, NetBot
from sixtysix.game.hand import Hand
from sixtysix.game.views import View, match_of


def positions(n: int, seed: int) -> list[View]:
    """Views of the seat to act."""
    rng = random.Random(seed)
    heuristic = make_bot("heuristic", seed=seed)
    views: list[View] = []
    while len(views) < n:
        hand = Hand.random(rng=rng)
        while not hand.is_over() and len(views) < n:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            if len(view.legal) > 1:
                views.append(view)
            hand.push(heuristic.choose(view, view.legal))
    return views


def timed(call: Callable[[View], object], views: list[View]) -> list[float]:
    out = []
    for view in views:
        start = time.perf_counter()
        call(view)
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default=SHIPPED, help="weights file (default: the shipped ones)")
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    bot = NetBot(weights=args.weights)
    views = positions(args.positions, args.seed)
    timed(lambda v: bot.choose(v, v.legal), views[:100])  # warm up
    print(f"machine: {machine()}")
    print(f"network: {bot.network!r}, {args.positions} positions from the heuristic player's hands")
    for name, call in (("net player, a move", lambda v: bot.choose(v, v.legal)),
                       ("the search's call", lambda v: bot.network.outputs(v, match_of(v)))):
        ms = sorted(timed(call, views))
        print(f"{name}: median {statistics.median(ms):.3f} ms, "
              f"99th percentile {ms[int(len(ms) * 0.99)]:.3f} ms")


if __name__ == "__main__":
    main()
