"""Random games on the schnapsen course platform's engine and on ours, in one run.

Run:  python benchmarks/course_engines.py [--seconds 10] [--rounds 3]

Both sides play whole deals between two random players under the same rules
(ours: the preset ``course``, which mirrors the platform's):

* theirs: ``SchnapsenGamePlayEngine().play_game(RandBot, RandBot, rng)``, each
  player picking uniformly among its valid moves;
* ours: :func:`sixtysix.bots.rollout.random_game`, a uniform shuffle and deal
  and a random player picking uniformly among the legal actions, ending in a
  finished :class:`~sixtysix.game.hand.Hand` with its result.

One core; the two engines take turns for ``--rounds`` rounds of ``--seconds``
each, so that a busy machine slows both alike. Prints games per second for
each, the ratio (ours over theirs) and the machine. Needs the ``schnapsen`` extra.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from machine import machine  # benchmarks/machine.py

from sixtysix.bots.rollout import random_game
from sixtysix.rules import Rules


def rate(play: Callable[[int], object], seconds: float) -> float:
    """Games per second of ``play(i)`` for ``i`` = 0, 1, ... during ``seconds``."""
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            play(n)
            n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per engine per round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each engine in turn")
    args = parser.parse_args(argv)
    try:
        from schnapsen.bots import RandBot
        from schnapsen.game import SchnapsenGamePlayEngine
    except ImportError:
        print("needs the schnapsen package: pip install -e '.[schnapsen]'", file=sys.stderr)
        return 2
    from importlib.metadata import version

    engine = SchnapsenGamePlayEngine()
    first, second = RandBot(random.Random(1)), RandBot(random.Random(2))
    rules = Rules.preset("course")
    rng = random.Random(3)

    def theirs(i: int) -> object:
        return engine.play_game(first, second, random.Random(i))

    def ours(i: int) -> object:
        return random_game(rules, rng).result()

    theirs_rates, ours_rates = [], []
    for _ in range(args.rounds):
        theirs_rates.append(rate(theirs, args.seconds))
        ours_rates.append(rate(ours, args.seconds))
    t, o = statistics.median(theirs_rates), statistics.median(ours_rates)
    print(f"schnapsen {version('schnapsen')} engine, RandBot vs RandBot: {t:,.0f} games/s "
          f"(rounds: {', '.join(f'{r:,.0f}' for r in theirs_rates)})")
    print(f"sixtysix, random_game under the preset course:  {o:,.0f} games/s "
          f"(rounds: {', '.join(f'{r:,.0f}' for r in ours_rates)})")
    print(f"ratio: ours {o / t:.1f} times as many games per second (medians of {args.rounds} rounds "
          f"of {args.seconds:g} s each, one core)")
    print(f"machine: {machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
