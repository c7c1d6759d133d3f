"""Decisions per second of every registered bot (one core).

Run:  python benchmarks/bots.py [--seconds 2] [--rules classic] [--seed 1] [--bot SPEC ...]

Each bot plays whole hands against the random bot, alternating seats, until
it has spent ``--seconds`` thinking; only its own calls (``choose`` and the
``new_hand``/``observe`` hooks) are timed. Without ``--bot``, every name in
``sixtysix.bots.BOTS`` at run time is measured; a bot that takes a search
budget gets a small one (see ``SMALL_BUDGETS``) and the spec used is printed.
A bot that cannot be made from its name alone (``engine`` needs the program to
run: ``--bot engine:CMD``) is listed as skipped, with the reason.
"""

from __future__ import annotations

import argparse
import inspect
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from machine import machine  # benchmarks/machine.py

from sixtysix.bots import BOTS, Event, make_bot
from sixtysix.errors import ParseError
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.player import Bot
from sixtysix.game.views import View
from sixtysix.play.runner import play_hand
from sixtysix.rules import Rules

#: Budgets given to bots that take them: counts first; a time limit only
#: when a bot has no count to set.
SMALL_BUDGETS: dict[str, int] = {
    "worlds": 8,
    "samples": 8,
    "determinizations": 8,
    "iterations": 200,
    "simulations": 200,
    "playouts": 200,
    "rollouts": 200,
}
TIME_BUDGETS = ("time", "seconds", "time_limit", "max_time")
SMALL_TIME = 0.05


def default_spec(name: str) -> str:
    """``name`` with a small budget when its factory takes one."""
    try:
        parameters = inspect.signature(BOTS[name]).parameters
    except (TypeError, ValueError):
        return name
    options = [f"{key}={value}" for key, value in SMALL_BUDGETS.items() if key in parameters]
    if not options:
        options = [f"{key}={SMALL_TIME}" for key in TIME_BUDGETS if key in parameters][:1]
    return f"{name}:{','.join(options)}" if options else name


def unmakeable(spec: str) -> str | None:
    """Why a default spec makes no bot (``engine`` without a program), or None."""
    try:
        bot = make_bot(spec, seed=0)
    except ParseError as exc:
        return f"{exc} (give it with --bot)"
    close = getattr(bot, "close", None)
    if close is not None:
        close()
    return None


class Timed:
    """Wraps a bot and adds up the time spent in its calls."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.decisions = 0

    def _hook(self, hook: str, arg: Any) -> None:
        method = getattr(self.bot, hook, None)
        if method is not None:
            start = time.perf_counter()
            method(arg)
            self.seconds += time.perf_counter() - start

    def new_hand(self, view: View) -> None:
        self._hook("new_hand", view)

    def observe(self, event: Event) -> None:
        self._hook("observe", event)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action


def bench(spec: str, seconds: float, rules: Rules, seed: int) -> tuple[int, float, int]:
    """Decisions, thinking time and hands for one bot spec."""
    timed = Timed(make_bot(spec, seed=seed))
    opponent = make_bot("random", seed=seed + 1)
    rng = random.Random(seed)
    hands = 0
    while timed.seconds < seconds:
        seat = hands % 2
        bots: list[Any] = [timed, opponent] if seat == 0 else [opponent, timed]
        play_hand(Hand.random(rng=rng, dealer=rng.randrange(2), rules=rules), bots)
        hands += 1
    return timed.decisions, timed.seconds, hands


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="thinking time per bot (default 2)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", action="append", metavar="SPEC",
                        help="a bot spec to measure (repeatable); default: every registered bot")
    args = parser.parse_args()
    rules = Rules.parse(args.rules)
    specs = args.bot or [default_spec(name) for name in sorted(BOTS)]
    print(f"machine: {machine()}")
    print(f"rules {rules}, against the random bot, {args.seconds:g} s of thinking per bot")
    width = max(len(s) for s in specs)
    print(f"{'bot':<{width}}  {'decisions':>9}  {'hands':>6}  {'decisions/s':>11}  {'ms/decision':>11}")
    for spec in specs:
        if not args.bot and (reason := unmakeable(spec)):
            print(f"{spec:<{width}}  skipped: {reason}", flush=True)
            continue
        decisions, spent, hands = bench(spec, args.seconds, rules, args.seed)
        rate = decisions / spent if spent > 0 else float("inf")
        print(f"{spec:<{width}}  {decisions:>9,}  {hands:>6,}  {rate:>11,.0f}  {1000 / rate:>11.3f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
