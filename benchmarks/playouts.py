"""Random playouts and make/unmake speed of the rules engine (one core).

Run:  python benchmarks/playouts.py [--hands N] [--rules classic]

Random play picks uniformly among the legal actions and never declares 66
falsely (a declaration under 66 is replaced by another random legal action).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from machine import machine  # benchmarks/machine.py

from sixtysix.game.actions import DECLARE, DECLARE_MARRIAGE
from sixtysix.game.hand import Hand
from sixtysix.rules import Rules


def random_hand(hand: Hand, rng: random.Random) -> int:
    """Play one hand to the end at random; returns the number of actions."""
    n = 0
    rand = rng.random
    while not hand.is_over():
        actions = hand.legal_actions()
        action = actions[int(rand() * len(actions))]
        if action.code >= DECLARE:
            extra = 0
            if action.code >= DECLARE_MARRIAGE:
                extra = 40 if action.code - DECLARE_MARRIAGE == hand.trump else 20
            seat = hand.to_act
            assert seat is not None
            if hand.score(seat) + extra < 66:
                actions = [a for a in actions if a.code < DECLARE]
                action = actions[int(rand() * len(actions))]
        hand.push(action)
        n += 1
    return n


def bench_playouts(hands: int, rules: Rules, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    deals = [Hand.random(rng=rng, dealer=i & 1, rules=rules) for i in range(hands)]
    start = time.perf_counter()
    actions = 0
    for hand in deals:
        actions += random_hand(hand, rng)
    elapsed = time.perf_counter() - start
    return hands / elapsed, actions / hands


def bench_push_pop(hands: int, rules: Rules, seed: int) -> float:
    """Push and pop every legal action at every state along random hands."""
    rng = random.Random(seed)
    deals = [Hand.random(rng=rng, rules=rules) for _ in range(hands)]
    ops = 0
    start = time.perf_counter()
    for hand in deals:
        while not hand.is_over():
            actions = hand.legal_actions()
            for action in actions:
                hand.push(action)
                hand.pop()
            ops += len(actions)
            legal = [a for a in actions if a.code < DECLARE] or actions
            hand.push(legal[int(rng.random() * len(legal))])
    elapsed = time.perf_counter() - start
    return ops / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs")
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    print(f"machine: {machine()}")
    best = 0.0
    length = 0.0
    for i in range(args.repeat):
        rate, length = bench_playouts(args.hands, rules, args.seed + i)
        best = max(best, rate)
    print(f"random playouts ({rules}): {best:,.0f} hands/s "
          f"(best of {args.repeat} x {args.hands:,} hands, {length:.1f} actions per hand)")
    pp = max(bench_push_pop(args.hands // 10, rules, args.seed + i) for i in range(args.repeat))
    print(f"push+pop pairs: {pp:,.0f} per second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
