"""Exact solver timings, the compiled rules kernel and the pure one (one core).

Run:  python benchmarks/solver.py [--positions N] [--stock 2 4 6] [--full N]

Each kernel runs in its own process (``SIXTYSIX_KERNEL=c``, then ``=python``),
and every line says which one it timed; the pure kernel gets a tenth of the
positions, and ``--full`` is timed on the compiled kernel only.

* phase 2: positions where the stock was just closed or exhausted (the
  hardest phase-2 positions: most cards left), reached by random play;
  median and 99th percentile of the time to solve every legal action;
* stock k: positions on lead with k cards left in the open stock;
* --full N: N whole deals from the first lead (seconds each with the compiled
  kernel, minutes with the pure one).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from machine import machine

from sixtysix import kernel
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
    median = statistics.median(times)
    print(f"kernel {kernel.NAME}, {label}: {len(times)} positions, median {1000 * median:.2f} ms, "
          f"p99 {1000 * p99:.2f} ms, max {1000 * times[-1]:.2f} ms, "
          f"median nodes {statistics.median(nodes):,.0f}", flush=True)


def run(positions: int, stocks: list[int], full: int) -> None:
    """The timings on the kernel this process runs."""
    rng = random.Random(1)
    share = 1 if kernel.NAME == "c" else 10
    print(f"kernel {kernel.NAME}: {machine()}", flush=True)
    report("stock closed or exhausted", *timings(phase2_positions(max(1, positions // share), rng)))
    for stock in stocks:
        n = {2: 100, 4: 40, 6: 10, 8: 3}.get(stock, 1)
        report(f"open stock, {stock} cards", *timings(stock_positions(max(1, n // share), stock, rng)))
    if full and kernel.NAME == "c":
        report("whole deal", *timings([Hand.random(seed=s) for s in range(full)]))


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--positions", type=int, default=1000, help="phase-2 positions (compiled kernel)")
    parser.add_argument("--stock", type=int, nargs="*", default=[2, 4, 6],
                        help="open-stock sizes to time (fewer positions for bigger stocks)")
    parser.add_argument("--full", type=int, default=0, metavar="N",
                        help="also solve N whole deals (compiled kernel)")
    parser.add_argument("--kernel", choices=("c", "python"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.kernel:
        run(args.positions, args.stock, args.full)
        return 0
    for name in ("c", "python"):
        command = [sys.executable, __file__, "--kernel", name, "--positions", str(args.positions),
                   "--full", str(args.full), "--stock", *map(str, args.stock)]
        result = subprocess.run(command, env={**os.environ, "SIXTYSIX_KERNEL": name}, check=False)
        if result.returncode:
            print(f"kernel {name}: not available (exit {result.returncode})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
