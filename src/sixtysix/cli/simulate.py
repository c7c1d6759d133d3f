"""``sixtysix simulate BOT BOT``: pit two bots against each other and measure.

Games are played in pairs on the same seed with the seats swapped, so both
bots get the same deals from both sides and neither keeps the advantage of
the first deal (or of the cut for it, R2.1). The summary gives each bot's win
rate with a 95% Wilson interval, its game points per hand with a 95%
interval, and the speed in hands per second; ``--json`` prints the raw
figures as one JSON object instead.

>>> from sixtysix.bots import make_bot
>>> summary = simulate(make_bot("random", seed=1), make_bot("random", seed=2), matches=2, seed=5)
>>> summary.games, summary.wins[0] + summary.wins[1] + summary.ties
(2, 2)
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sixtysix.arena import GameResult, open_executor, points_per_hand, run_games, schedule
from sixtysix.bots import make_bot
from sixtysix.cli.options import BOT_HELP, HelpFormatter, at_least, check_output, default_jobs
from sixtysix.cli.progress import make_progress
from sixtysix.game.hand import Hand
from sixtysix.game.match import Match
from sixtysix.game.player import Bot
from sixtysix.measure.stats import proportion
from sixtysix.play.runner import play_hand
from sixtysix.rules import CLASSIC, Rules

__all__ = ["Summary", "simulate", "register", "run"]

#: Seeds of the two bots are derived from the run's seed with these offsets.
_BOT_SEED_OFFSETS = (1_000_003, 2_000_003)


@dataclass
class Summary:
    """The raw figures of a simulation; bot ``0`` is the first one named."""

    names: tuple[str, str]
    rules: Rules
    seed: int
    unit: str  # "matches" or "hands"
    games: int = 0
    hands: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    ties: int = 0
    #: Game points scored in each hand, per bot (tie bonuses included, R9.2).
    points: tuple[list[int], list[int]] = field(default_factory=lambda: ([], []))
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures as a JSON-ready object."""
        out: dict[str, Any] = {
            "bots": list(self.names),
            "rules": str(self.rules),
            "seed": self.seed,
            "unit": self.unit,
            "games": self.games,
            "hands": self.hands,
            "wins": list(self.wins),
            "ties": self.ties,
            "seconds": round(self.seconds, 6),
            "hands_per_second": round(self.hands / self.seconds, 3) if self.seconds > 0 else None,
        }
        rates: list[float] = []
        rate_ci: list[list[float]] = []
        gp: list[float | None] = []
        gp_ci: list[list[float] | None] = []
        for side in (0, 1):
            p = proportion(self.wins[side], self.games)
            rates.append(p.estimate)
            rate_ci.append([p.low, p.high])
            if self.points[side]:
                m = points_per_hand(self.points[side])
                gp.append(m.mean)
                gp_ci.append([m.low, m.high])
            else:
                gp.append(None)
                gp_ci.append(None)
        out["win_rate"] = rates
        out["win_rate_ci95"] = rate_ci
        out["game_points_per_hand"] = gp
        out["game_points_per_hand_ci95"] = gp_ci
        return out

    def describe(self) -> str:
        """A short report for people."""
        unit = self.unit if self.games != 1 else {"matches": "match", "hands": "hand"}[self.unit]
        played = f"{self.games:,} {unit}"
        if self.unit == "matches":
            played += f", {self.hands:,} hands"
        lines = [f"{self.names[0]} vs {self.names[1]}: {played} (rules {self.rules}, seed {self.seed})"]
        width = max(len(n) for n in self.names)
        for side in (0, 1):
            p = proportion(self.wins[side], self.games)
            text = (f"  {'AB'[side]} {self.names[side]:<{width}}  wins {self.wins[side]:>6,} "
                    f"{100 * p.estimate:5.1f}% (95% CI {100 * p.low:.1f}-{100 * p.high:.1f}%)")
            if self.points[side]:
                m = points_per_hand(self.points[side])
                text += f"  game points/hand {m.mean:.3f} (95% CI {m.low:.3f} to {m.high:.3f})"
            lines.append(text)
        if self.ties:
            lines.append(f"  ties {self.ties:,}")
        speed = f"{self.hands / self.seconds:,.0f}" if self.seconds > 0 else "-"
        lines.append(f"  {self.hands:,} hands in {self.seconds:.2f} s: {speed} hands/s")
        return "\n".join(lines)


def simulate(
    bot_a: Bot,
    bot_b: Bot,
    *,
    matches: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    rules: Rules = CLASSIC,
    names: tuple[str, str] | None = None,
) -> Summary:
    """Play ``matches`` matches (or ``hands`` single hands) between two bots.

    Game ``i`` is dealt from seed ``seed + i // 2``; in odd games the bots swap
    seats, so each pair of games replays the same deals with the sides
    exchanged.
    """
    if (matches is None) == (hands is None):
        raise ValueError("give either a number of matches or a number of hands")
    count = matches if matches is not None else hands
    assert count is not None
    if count < 1:
        raise ValueError(f"the number of {'matches' if matches is not None else 'hands'} "
                         f"must be at least 1, not {count}")
    bots = (bot_a, bot_b)
    summary = Summary(
        names=names or (getattr(bot_a, "name", "A"), getattr(bot_b, "name", "B")),
        rules=rules,
        seed=seed,
        unit="matches" if matches is not None else "hands",
    )
    start = time.perf_counter()
    for game in range(count):
        deal_seed = seed + game // 2
        swap = game % 2  # bot A sits in seat ``swap``
        seats = [bots[1], bots[0]] if swap else [bots[0], bots[1]]
        if matches is not None:
            match = Match(rules, seed=deal_seed)
            while not match.is_over():
                play_hand(match.deal(), seats)
            results = match.results()
            winner = match.winner
        else:
            hand = play_hand(Hand.random(seed=deal_seed, dealer=0, rules=rules), seats)
            result = hand.result()
            assert result is not None
            results = [result]
            winner = result.winner
        summary.games += 1
        summary.hands += len(results)
        if winner is None:
            summary.ties += 1
        else:
            summary.wins[winner ^ swap] += 1
        for result in results:
            for side in (0, 1):
                seat = side ^ swap
                scored = result.game_points + result.bonus if result.winner == seat else 0
                summary.points[side].append(scored)
    summary.seconds = time.perf_counter() - start
    return summary


def summarize_games(results: Sequence[GameResult], names: tuple[str, str], *, rules: Rules, seed: int,
                    unit: str, seconds: float) -> Summary:
    """The figures of played games between two bots (bot ``0`` first in ``names``), the
    games of an arena schedule of the two (:func:`sixtysix.arena.schedule`)."""
    summary = Summary(names=names, rules=rules, seed=seed, unit=unit, seconds=seconds)
    for result in results:
        summary.games += 1
        summary.hands += len(result.hands)
        if result.winner_bot is None:
            summary.ties += 1
        else:
            summary.wins[result.winner_bot] += 1
        for hand in result.hands:
            for side in (0, 1):
                summary.points[side].append(hand.scored(result.game.side(side)))
    return summary


def register(subparsers: Any) -> None:
    """Add the ``simulate`` subcommand to the ``sixtysix`` parser."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate",
        formatter_class=HelpFormatter,
        help="play two bots against each other and report win rates",
        description="Play seeded matches (or hands) between two bots, swapping seats every "
                    "other game on the same deal, and report win rates with 95% confidence intervals, "
                    "game points per hand and speed. Each game seeds its bots from --seed and its "
                    "place, so the figures are the same for any --jobs.",
        epilog=BOT_HELP,
    )
    parser.add_argument("bots", nargs=2, metavar="BOT", help="a bot (see BOT below), e.g. heuristic, "
                                                             "random:seed=3 or mybot.py:Greedy")
    count = parser.add_mutually_exclusive_group()
    count.add_argument("--matches", type=int, metavar="N",
                       help="number of matches to play (default 100)")
    count.add_argument("--hands", type=int, metavar="N", help="play N single hands instead")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the deals and the bots (default 0)")
    parser.add_argument("--rules", default="classic", metavar="RULES",
                        help="preset and options, e.g. santase or classic,target=11")
    parser.add_argument("--jobs", type=int, default=None, metavar="J",
                        help="worker processes; 1 plays in this process (default: one per CPU, "
                             "divided by the processes one bot uses)")
    parser.add_argument("--json", action="store_true",
                        help="print the figures as one JSON object on standard output, instead of "
                             "the report")
    parser.add_argument("--save", metavar="FILE.json",
                        help="also write the figures as one JSON object to FILE.json")
    parser.add_argument("--quiet", action="store_true", help="no progress display")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the subcommand; errors are raised as :class:`ValueError` (exit status 2)."""
    rules = Rules.parse(args.rules)
    spec_a, spec_b = args.bots
    seed: int = args.seed
    count = args.hands if args.hands is not None else (100 if args.matches is None else args.matches)
    count = at_least(count, "--hands" if args.hands is not None else "--matches", 1)
    # Unknown names and bad options fail here, not in a worker.
    processes = max(int(getattr(make_bot(spec, seed=0), "workers", 1)) for spec in args.bots)
    jobs = at_least(args.jobs, "--jobs", 1) if args.jobs is not None else default_jobs(processes)
    check_output(args.save, "--save")
    hands = args.hands is not None
    # Game i is the deal of board i // 2, from seat i % 2: the arena's schedule of the two.
    games = schedule([spec_a, spec_b], deals=(count + 1) // 2, seed=seed, hands=hands,
                     rules=str(rules))[:count]
    unit = "hands" if hands else "matches"
    start = time.perf_counter()
    with open_executor(min(jobs, len(games))) as executor:
        progress = make_progress(len(games), unit, args.quiet, "simulate")
        try:
            results = run_games(games, executor, jobs=min(jobs, len(games)),
                                on_done=lambda done: progress.advance(len(done)))
        finally:
            progress.stop()
    summary = summarize_games(results, (spec_a, spec_b), rules=rules, seed=seed, unit=unit,
                              seconds=time.perf_counter() - start)
    document = json.dumps(summary.to_json())
    if args.json:
        print(document)
    else:
        print(summary.describe())
    if args.save is not None:
        with open(args.save, "w", encoding="utf-8") as f:
            f.write(document + "\n")
    return 0
