"""Exact solver timings (one core, pure Python).

Run:  python benchmarks/solver.py [--positions N] [--stock 2 4 6] [--full]

* phase 2: positions where the stock was just closed or exhausted (the
  hardest phase-2 positions: most cards left), reached by random play;
  median and 99th percentile of the time to solve every legal action;
* stock k: positions on lead with k cards left in the open stock;
* --full: whole deals from the first lead (slow: minutes each).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from machine import machine

from sixtysix.game.hand import Hand
from sixtysix.search.solver import Solver


def phase2_positions(n: int, rng: random.Random) -> list[Hand]:
    out: list[Hand] = []
    seed = 0
    while len(out) < n:
        seed += 1
        hand = Hand.random(seed=seed, dealer=seed & 1)
        while not hand.is_over() and hand.stock_open:
            legal = [a for a in hand.legal_actions() if not a.is_declaration] or hand.legal_actions()
            hand.push(rng.choice(legal))
        if not hand.is_over():
            out.append(hand)
    return out


def stock_positions(n: int, stock: int, rng: random.Random) -> list[Hand]:
    out: list[Hand] = []
    seed = 10_000
    while len(out) < n:
        seed += 1
        hand = Hand.random(seed=seed, dealer=seed & 1)
        while not hand.is_over() and hand.stock_open and (hand.stock_size > stock or hand.state != "lead"):
            legal = [a for a in hand.legal_actions() if a.is_card or str(a) == "D"]
            hand.push(rng.choice(legal))
        if not hand.is_over() and hand.stock_open:
            out.append(hand)
    return out


def timings(hands: list[Hand]) -> tuple[list[float], list[int]]:
    times: list[float] = []
    nodes: list[int] = []
    for hand in hands:
        solver = Solver()
        start = time.perf_counter()
        solver.solve(hand)
        times.append(time.perf_counter() - start)
        nodes.append(solver.nodes)
    return times, nodes


def report(label: str, times: list[float], nodes: list[int]) -> None:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{label}: {len(times)} positions, median {1000 * statistics.median(times):.2f} ms, "
          f"p99 {1000 * p99:.2f} ms, max {1000 * times[-1]:.1f} ms, "
          f"median nodes {statistics.median(nodes):,.0f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="phase-2 positions")
    parser.add_argument("--stock", type=int, nargs="*", default=[2, 4, 6],
                        help="open-stock sizes to time (fewer positions for bigger stocks)")
    parser.add_argument("--full", type=int, default=0, metavar="N", help="also solve N whole deals")
    args = parser.parse_args()
    rng = random.Random(1)
    print(f"machine: {machine()}")
    report("stock closed or exhausted", *timings(phase2_positions(args.positions, rng)))
    for stock in args.stock:
        n = {2: 100, 4: 40, 6: 10, 8: 3}.get(stock, 1)
        report(f"open stock, {stock} cards", *timings(stock_positions(n, stock, rng)))
    if args.full:
        report("whole deal", *timings([Hand.random(seed=s) for s in range(args.full)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
