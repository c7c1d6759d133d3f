"""Why closes fail: the close itself, or the play after it?

Run:  python benchmarks/closes.py [--hands 1000] [--seed 1] [--bot SPEC]

Single hands (game points, no match) of ``--bot`` (by default the ``hard`` search
at a fixed 2,700 iterations) against the heuristic player, every deal from both
seats. At each close the bot makes, the exact solver values the true position
just after the close (both hands known): a close that is lost even with the
opponent's cards known was a bad (or a gambling) close; one that was won there
but failed at the end was lost by the play after it, where the closer does not
know the opponent's cards. Prints the bot's net game points per hand, its closes,
how many failed, and how many of each kind, with the game points won and lost
after closing and the bot's CPU time per decision.
"""

from __future__ import annotations

import argparse
import sys
import time

from sixtysix.bots import make_bot
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.kernel import CLOSE
from sixtysix.search.solver import Solver


def play(spec: str, seed: int, ours: int, solver: Solver) -> tuple[int | None, int, int, float]:
    """One hand: the perfect-information value for us just after our close (None: we did
    not close), our game points, our decisions with a choice and their CPU seconds."""
    hand = Hand.random(seed=seed)
    bots = [make_bot(spec, seed=seed), make_bot("heuristic", seed=seed + 1)]
    if ours == 1:
        bots.reverse()
    for seat, bot in enumerate(bots):
        bot.new_hand(hand.view(seat))
    after_close = None
    decisions, cpu = 0, 0.0
    while not hand.is_over():
        seat = hand.to_act
        view = hand.view(seat)
        start = time.process_time()
        action: Action = bots[seat].choose(view, view.legal)
        if seat == ours and len(view.legal) > 1:
            cpu += time.process_time() - start
            decisions += 1
        hand.push(action)
        if seat == ours and action.code == CLOSE:
            value = solver.solve(hand).value  # the closer is still to act
            after_close = value if hand.to_act == ours else -value
    result = hand.result()
    assert result is not None
    points = 0 if result.winner is None else result.game_points * (1 if result.winner == ours else -1)
    return after_close, points, decisions, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="deals, each from both seats")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--bot", default="ismcts:iterations=2700,c=0.4,bias=2.0")
    args = parser.parse_args(argv)
    solver = Solver()
    closes = failed = lost_at_close = lost_after = won_after = decisions = 0
    points_after = total = 0
    cpu = 0.0
    for seed in range(args.seed, args.seed + args.hands):
        for ours in (0, 1):
            value, points, n, seconds = play(args.bot, seed, ours, solver)
            decisions += n
            cpu += seconds
            total += points
            if value is None:
                continue
            closes += 1
            points_after += points
            failed += points < 0
            if value < 0:
                lost_at_close += 1
                won_after += points > 0
            elif points < 0:
                lost_after += 1
    print(f"{args.bot}: {2 * args.hands} hands (seeds {args.seed}-{args.seed + args.hands - 1}, both seats) "
          f"against heuristic")
    print(f"  net game points per hand {total / (2 * args.hands):+.3f}")
    print(f"  closes {closes}, failed {failed} = {failed / max(closes, 1):.1%}, "
          f"{points_after:+d} game points in the closed hands")
    print(f"  lost with the cards known at the close: {lost_at_close} (won all the same: {won_after}); "
          f"won with the cards known, failed after: {lost_after}")
    print(f"  CPU {1000 * cpu / max(decisions, 1):.1f} ms per decision ({decisions} decisions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
