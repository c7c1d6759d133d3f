"""ISMCTS search speed: iterations per second on one core and with helper processes,
and the wall time a time-budgeted decision really takes.

Run:  python benchmarks/ismcts.py [--positions 24] [--seconds 0.5] [--workers 2]
      python benchmarks/ismcts.py --iterations 20000 [--repeats 5]

The positions are first decisions of seeded deals and decisions a few tricks
later (the stock still open), where the bots spend their time. Run it on a
quiet machine: with ``--workers 2`` both cores are used. With ``--iterations``
it measures instead the kernel's search alone on one core, in iterations per
second of the process's CPU time (what other programs on the machine disturb
least): each decision searched for that many iterations, the best and the
median of ``--repeats`` rounds over the positions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from machine import machine  # benchmarks/machine.py

from sixtysix import kernel
from sixtysix.bots.ismcts import ISMCTSBot
from sixtysix.bots.levels import expert
from sixtysix.bots.rollout import policy_code
from sixtysix.game.hand import Hand
from sixtysix.game.views import View


def positions(count: int, seed: int) -> list[View]:
    """Views of the player to act, the stock open, after 0 to 4 tricks."""
    rng = random.Random(seed)
    out: list[View] = []
    while len(out) < count:
        hand = Hand.random(rng=rng)
        for _ in range(rng.randrange(9)):
            if hand.is_over() or not hand.stock_open:
                break
            hand.push_code(policy_code(hand, rng, 0.3))
        if hand.is_over() or not hand.stock_open or len(hand.legal_actions()) < 2:
            continue
        seat = hand.to_act
        assert seat is not None
        out.append(hand.view(seat))
    return out


def rate(views: list[View], seconds: float, workers: int) -> tuple[float, list[float]]:
    """Iterations per second of wall time (all processes together), and the wall
    time of each decision."""
    # The levels' search settings, searching the whole budget (no early stop).
    bot = expert(seed=1, time=seconds, workers=workers, settle=0.0, tolerance=0.0)
    assert isinstance(bot, ISMCTSBot)
    try:
        bot.choose(views[0], views[0].legal)  # starts the helpers
        total = 0
        walls: list[float] = []
        for view in views:
            pool = bot._helpers()
            start = time.perf_counter()
            if pool is not None:
                pool.start(view, time.time() + seconds)
            stats = bot.root_stats(view, time.time() + seconds)
            others = pool.collect() if pool is not None else []
            walls.append(time.perf_counter() - start)
            total += sum(entry[0] for entry in stats.values())
            total += sum(entry[0] for other in others for entry in other.values())
        return total / sum(walls), walls
    finally:
        bot.close()


def cpu_rate(views: list[View], iterations: int, repeats: int) -> list[float]:
    """Iterations per CPU second of each round over ``views``, each decision searched for
    ``iterations`` by the hard level's tree (no early stop)."""
    rates = []
    for _ in range(repeats):
        bot = ISMCTSBot(seed=1, iterations=iterations, c=0.4, bias=2.0, epsilon=0.1)
        done = 0
        cpu = time.process_time()
        for view in views:
            bot.root_stats(view)
            done += bot.last_iterations
        rates.append(done / (time.process_time() - cpu))
    return rates


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=0.5, help="time budget per decision")
    parser.add_argument("--workers", type=int, default=2, help="processes for the parallel figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, help="iterations per CPU second at this budget instead")
    parser.add_argument("--repeats", type=int, default=5, help="rounds over the positions (--iterations)")
    args = parser.parse_args()
    views = positions(args.positions, args.seed)
    print(f"machine: {machine()}")
    if args.iterations:
        rates = cpu_rate(views, args.iterations, args.repeats)
        print(f"{len(views)} positions, {args.iterations} iterations per decision, kernel {kernel.NAME}: "
              f"best {max(rates):,.0f}, median {statistics.median(rates):,.0f} iterations per CPU second")
        return 0
    print(f"{len(views)} positions, {args.seconds:g} s per decision")
    for workers in sorted({1, args.workers}):
        per_second, walls = rate(views, args.seconds, workers)
        print(f"workers={workers}: {per_second:,.0f} iterations/s; decision wall time "
              f"median {statistics.median(walls) * 1000:.0f} ms, max {max(walls) * 1000:.0f} ms",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
