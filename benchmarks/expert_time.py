"""How long an ``expert`` match takes: the level as it plays (up to 1 s a decision,
stopping once the choice is settled) and, with ``--whole``, searching every
decision for the whole second.

Run:  python benchmarks/expert_time.py [--matches 6] [--whole 1] [--agree 0] [--seed 900]

Each match is the level against the heuristic player (which takes no time to
speak of), the seats alternating; the figures are wall time per match and per
searched decision (a decision with one legal action, or a correct 66, is not
searched). With ``--agree N`` it also takes N decisions from matches between
heuristic players and searches each three times: twice for the whole second
(different seeds) and once as the level plays; it prints how often the second
whole search and the level choose what the first whole search chose (how much
the choice of a whole second is itself a matter of chance). Both cores are used:
run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from machine import machine  # benchmarks/machine.py

from sixtysix.bots import make_bot
from sixtysix.bots.ismcts import correct_declaration
from sixtysix.game.actions import Action
from sixtysix.game.player import Bot
from sixtysix.game.views import View
from sixtysix.play.runner import play_match


class Timed:
    """A bot that notes the wall time of each of its decisions."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.times: list[float] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.bot, name)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(view, legal)
        self.times.append(time.perf_counter() - start)
        return action


def measure(spec: str, matches: int, seed: int) -> tuple[float, list[float]]:
    """Seconds per match, and each decision's seconds that took over a millisecond."""
    start = time.perf_counter()
    decisions: list[float] = []
    for m in range(matches):
        timed = Timed(make_bot(spec, seed=seed + m))
        bots: list[Bot] = [timed, make_bot("heuristic", seed=seed + 1000 + m)]  # type: ignore[list-item]
        play_match(bots if m % 2 == 0 else bots[::-1], seed=seed + m)
        close = getattr(timed.bot, "close", None)
        if close is not None:
            close()
        decisions += [t for t in timed.times if t > 0.001]
    return (time.perf_counter() - start) / matches, decisions


class Recorder(Timed):
    """A bot that keeps the decisions a search would make (more than one legal
    action, no correct 66)."""

    def __init__(self, bot: Bot, out: list[tuple[View, list[Action]]]) -> None:
        super().__init__(bot)
        self.out = out

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) > 1 and correct_declaration(view, legal) is None:
            self.out.append((view, list(legal)))
        return self.bot.choose(view, legal)


def agreement(count: int, seed: int) -> None:
    """How often the level and a second whole-second search choose as a first does."""
    decisions: list[tuple[View, list[Action]]] = []
    m = 0
    while len(decisions) < 4 * count:
        bots: list[Bot] = [Recorder(make_bot("heuristic", seed=seed + m), decisions),  # type: ignore[list-item]
                           Recorder(make_bot("heuristic", seed=seed + 500 + m), decisions)]
        play_match(bots, seed=seed + 2000 + m)
        m += 1
    sample = random.Random(seed).sample(decisions, count)
    specs = {"whole second, seed A": "expert:settle=0,tolerance=0",
             "whole second, seed B": "expert:settle=0,tolerance=0", "expert": "expert"}
    chosen: dict[str, list[Action]] = {}
    for i, (name, spec) in enumerate(specs.items()):
        timed = Timed(make_bot(spec, seed=seed + 7 + i))
        chosen[name] = [timed.choose(view, legal) for view, legal in sample]
        close = getattr(timed.bot, "close", None)
        if close is not None:
            close()
        print(f"{name}: mean {statistics.fmean(timed.times) * 1000:.0f} ms a decision", end="")
        if i:
            same = sum(a == b for a, b in zip(chosen[name], chosen["whole second, seed A"], strict=True))
            print(f", chose as the first whole search did on {same} of {count}", end="")
        print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=6, help="matches of the level as it plays")
    parser.add_argument("--whole", type=int, default=1,
                        help="matches with the whole second searched (0: skip; about a minute each)")
    parser.add_argument("--agree", type=int, default=0,
                        help="decisions on which to compare the level with whole-second searches")
    parser.add_argument("--seed", type=int, default=900)
    args = parser.parse_args()
    print(machine())
    if args.agree:
        agreement(args.agree, args.seed)
    runs = [("expert", args.matches)]
    if args.whole:
        runs.append(("expert:settle=0,tolerance=0", args.whole))
    for spec, matches in runs:
        per_match, decisions = measure(spec, matches, args.seed)
        print(f"{spec}: {per_match:.1f} s a match over {matches} matches against heuristic; "
              f"{len(decisions) / matches:.0f} searched decisions a match, "
              f"median {statistics.median(decisions) * 1000:.0f} ms, "
              f"mean {statistics.fmean(decisions) * 1000:.0f} ms, "
              f"{sum(t > 0.9 for t in decisions)} of {len(decisions)} used the whole second")


if __name__ == "__main__":
    main()
