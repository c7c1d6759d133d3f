"""The rules kernel's speed, compiled and pure side by side (one core).

Run:  python benchmarks/kernel.py [--hands N] [--full]

Each kernel runs in its own process (``SIXTYSIX_KERNEL=c`` and ``=python``) and
prints one line per figure:

* random hands/s inside the kernel: pre-dealt hands played to the end by
  :meth:`State.random_playout` (every legal action equally likely);
* random hands/s through the public :class:`Hand` API (pre-dealt; the random
  player of ``benchmarks/playouts.py``: never a false declaration);
* push+pop pairs/s inside the kernel: :meth:`State.perft` from the first lead;
* solver, stock just closed or exhausted: median and 99th percentile time to value
  every legal action (the hardest phase-2 positions);
* with ``--full``: whole 24-card deals solved from the first lead (20 seeds; compiled
  kernel only, the pure one takes minutes a deal).
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


def run(kernel: str, hands: int, full: bool) -> None:
    from machine import machine
    from playouts import random_hand

    from sixtysix import kernel as k
    from sixtysix.game.hand import Hand
    from sixtysix.kernel.tables import config
    from sixtysix.rules import CLASSIC

    assert kernel == k.NAME, (k.NAME, kernel)
    print(f"kernel {k.NAME}: {machine()}")
    rng = random.Random(1)
    cfg = config(CLASSIC)
    decks = []
    for _ in range(min(hands, 20_000)):
        deck = list(range(24))
        rng.shuffle(deck)
        decks.append(deck)
    states = [k.State.deal(decks[i % len(decks)], i & 1, cfg) for i in range(hands)]
    seeds = [rng.getrandbits(64) for _ in range(hands)]
    start = time.perf_counter()
    for state, seed in zip(states, seeds, strict=True):
        state.random_playout(seed)
    rate = hands / (time.perf_counter() - start)
    print(f"  random hands inside the kernel:      {rate:>12,.0f} /s")

    n = max(hands // 50, 200)
    deals = [Hand.random(rng=rng, dealer=i & 1) for i in range(n)]
    start = time.perf_counter()
    for hand in deals:
        random_hand(hand, rng)
    rate = n / (time.perf_counter() - start)
    print(f"  random hands through Hand:           {rate:>12,.0f} /s")

    state = k.State.deal(decks[0], 0, cfg)
    depth = 7 if kernel == "c" else 5
    start = time.perf_counter()
    state.perft(depth)
    elapsed = time.perf_counter() - start
    pairs = sum(state.perft(d) for d in range(1, depth))  # depth 1 is counted, not pushed
    print(f"  push+pop pairs inside the kernel:    {pairs / elapsed:>12,.0f} /s (perft {depth})")

    positions = phase2_positions(200 if kernel == "c" else 40, k, cfg, rng)
    times = []
    for s in positions:
        start = time.perf_counter()
        solver = k.Solver()
        m = s.legal_mask()
        while m:
            low = m & -m
            m ^= low
            s.push(low.bit_length() - 1)
            solver.value(s)
            s.pop()
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"  solver, stock just closed or gone:   median {statistics.median(times) * 1e6:,.0f} µs, "
          f"99th percentile {times[int(len(times) * 0.99)] * 1e6:,.0f} µs ({len(times)} positions)")
    if full and kernel == "c":
        whole = []
        for seed in range(20):
            hand = Hand.random(seed=seed)
            start = time.perf_counter()
            k.Solver().value(hand.kernel)
            whole.append(time.perf_counter() - start)
        print(f"  solver, whole deal from the first lead: median {statistics.median(whole):.3f} s, "
              f"max {max(whole):.3f} s (seeds 0-19)")


def phase2_positions(n: int, k: object, cfg: object, rng: random.Random) -> list[object]:
    """Positions where the stock was just closed or exhausted, by random play without
    declarations."""
    from sixtysix.kernel.tables import BIT_DECLARE, DECLARE_MARRIAGE

    out = []
    while len(out) < n:
        deck = list(range(24))
        rng.shuffle(deck)
        s = k.State.deal(deck, len(out) & 1, cfg)  # type: ignore[attr-defined]
        while s.phase != 3 and s.stock_open:
            m = s.legal_mask() & ~(BIT_DECLARE | 0xF << DECLARE_MARRIAGE)
            codes = [c for c in range(56) if m >> c & 1]
            s.push(rng.choice(codes))
        if s.phase != 3:
            out.append(s)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--full", action="store_true", help="also solve whole deals")
    parser.add_argument("--kernel", choices=("c", "python"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.kernel:
        run(args.kernel, args.hands, args.full)
        return 0
    for kernel in ("c", "python"):
        env = {**os.environ, "SIXTYSIX_KERNEL": kernel}
        hands = args.hands if kernel == "c" else max(args.hands // 20, 1000)
        command = [sys.executable, __file__, "--kernel", kernel, "--hands", str(hands)]
        result = subprocess.run([*command, *(["--full"] if args.full else [])], env=env, check=False)
        if result.returncode:
            print(f"kernel {kernel}: not available (exit {result.returncode})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
