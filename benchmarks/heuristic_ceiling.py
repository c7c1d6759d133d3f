"""How far can a player get against our heuristic player? Oracles measure it.

Run:  python benchmarks/heuristic_ceiling.py [--deals 200] [--seed 8101] [--jobs 2]
                                             [--iterations 2700] [--players honest,hand,all,exact]
                                             [--learned network=shipped,net_prior=2]

Whole matches to 7 under the classic rules, on the arena's duplicate deals (every
deal sequence from both seats, the same seeds for every player), against the
``heuristic`` player. Five players of ours, each playing through the one game
loop (:class:`sixtysix.game.table.Table`) as the outside seat:

``honest``  ISMCTS (``ismcts:iterations=2700,c=0.4,bias=2.0``, the ``hard``
            search at a fixed budget): it sees its view only;
``hand``    the same search, told the heuristic's hand at every decision while
            the stock is open (it still guesses the order of the stock);
``all``     the same search, told the heuristic's hand and the stock order;
``exact``   the exact solver on the true position at every decision (perfect
            information, perfect play against a perfect opponent);
``learned`` the honest search with the options of ``--learned`` (default: the
            shipped network's policy as the root's prior, as the levels use
            it): what learning reaches of the way to ``hand``.

The gap ``honest`` → ``hand`` is the most that inferring the opponent's cards can
add; ``hand`` → ``all`` is the stock's order, which nobody can know; ``all`` →
``exact`` is what the search loses to exact play. Issue 20 asks for this study:
how much room there is above today's 70% of matches.

Prints each player's matches won with the 95% interval (Wilson), game points per
hand, failed closes (its own, and the heuristic player's), its net game points in the
hands it closed, its CPU time per decision (those with a choice), and the machine;
``--json FILE`` keeps the per-match results.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import json
import sys
import time
from dataclasses import dataclass

from machine import machine  # benchmarks/machine.py
from oracles import OPTIONS, Told, parse_players, search_spec  # benchmarks/oracles.py

from sixtysix.arena.executor import chunked
from sixtysix.arena.schedule import Game, schedule
from sixtysix.bots import make_bot, parse_spec
from sixtysix.bots.ismcts import ISMCTSBot
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.match import Match
from sixtysix.game.player import Bot
from sixtysix.game.table import Table
from sixtysix.measure.stats import wilson
from sixtysix.rules import Rules
from sixtysix.search.solver import Solver

PLAYERS = ("honest", "hand", "all", "exact", "learned")


@dataclass
class Played:
    """One match: whether our player won it, its game points per hand, its closes."""

    won: int
    hands: int
    points: int
    closes: int
    failed_closes: int
    their_closes: int = 0
    their_failed_closes: int = 0
    #: Our net game points in the hands we closed.
    closed_points: int = 0
    #: Our decisions with a choice, and the CPU seconds they took.
    decisions: int = 0
    cpu: float = 0.0


def _choose(kind: str, search: ISMCTSBot, hand: Hand, seat: int) -> Action:
    view = hand.view(seat)
    if len(view.legal) == 1:
        return view.legal[0]
    if kind == "exact":
        return Solver().solve(hand.copy()).best[0]
    if kind in ("hand", "all") and isinstance(search, Told):
        search.hand = hand.kernel.hand(1 - seat)
        search.stock = hand.kernel.stock_cards() if kind == "all" else None
    return search.choose(view, view.legal)


def _search(kind: str, seed: int, iterations: int, learned: dict[str, object] | None) -> ISMCTSBot:
    """The search playing as ``kind``."""
    extra = (learned or {}) if kind == "learned" else {}
    return Told(seed, iterations=iterations, **OPTIONS, **extra)


def _play(kind: str, games: list[Game], iterations: int = 2700,
          learned: dict[str, object] | None = None) -> list[Played]:
    out = []
    for game in games:
        ours = game.side(0)
        search = _search(kind, game.bot_seeds[ours], iterations, learned)
        players: list[Bot | None] = [None, None]
        players[1 - ours] = make_bot("heuristic", seed=game.bot_seeds[1 - ours])
        table = Table(players)
        match = Match(Rules(), seed=game.deal_seed)
        points = closes = failed = theirs = their_failed = closed_points = decisions = 0
        cpu = 0.0
        while not match.is_over():
            hand = match.deal()
            table.start(hand)
            while not hand.is_over():
                if table.bot_to_act() is not None:
                    table.step()
                else:
                    start = time.process_time()
                    action = _choose(kind, search, hand, ours)
                    if len(hand.legal_actions()) > 1:
                        cpu += time.process_time() - start
                        decisions += 1
                    table.play(action)
            result = hand.result()
            assert result is not None
            gain = 0
            if result.winner is not None:
                gain = result.game_points if result.winner == ours else -result.game_points
                points += gain
            if result.closed_by == ours:
                closes += 1
                failed += result.winner != ours
                closed_points += gain
            elif result.closed_by is not None:
                theirs += 1
                their_failed += result.winner == ours
        out.append(Played(int(match.winner == ours), len(match.hands), points, closes, failed, theirs,
                          their_failed, closed_points, decisions, cpu))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deal sequences, each from both seats")
    parser.add_argument("--seed", type=int, default=8101, help="the arena seed of the deals")
    parser.add_argument("--iterations", type=int, default=2700, help="ISMCTS iterations per decision")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--players", default=",".join(PLAYERS), help="which of " + ", ".join(PLAYERS))
    parser.add_argument("--learned", default="network=shipped,net_prior=2",
                        help="the ISMCTS options of the learned player (key=value,...)")
    parser.add_argument("--json", help="write the per-match results here")
    args = parser.parse_args(argv)
    _, learned = parse_spec("ismcts:" + args.learned)
    kinds = parse_players(parser, args.players, PLAYERS)
    spec = search_spec(args.iterations)
    games = schedule([spec, "heuristic"], deals=args.deals, seed=args.seed)
    print(f"{len(games)} matches ({args.deals} deal sequences from both seats, seed {args.seed}) "
          f"against heuristic; search: {spec}")
    chunks = chunked(games, args.jobs)
    results: dict[str, list[Played]] = {}
    play = functools.partial(_play, iterations=args.iterations, learned=learned)
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        for kind in kinds:
            start = time.perf_counter()
            done = results[kind] = [p for part in pool.map(play, [kind] * len(chunks), chunks) for p in part]
            won = sum(p.won for p in done)
            low, high = wilson(won, len(done))
            hands = sum(p.hands for p in done)
            closes = sum(p.closes for p in done)
            failed = sum(p.failed_closes for p in done)
            theirs = sum(p.their_closes for p in done)
            their_failed = sum(p.their_failed_closes for p in done)
            per_hand = sum(p.points for p in done) / hands
            closed_points = sum(p.closed_points for p in done)
            decisions = sum(p.decisions for p in done)
            cpu = 1000 * sum(p.cpu for p in done) / max(decisions, 1)
            print(f"  {kind:8} {won:5} of {len(done)} = {won / len(done):6.1%}  "
                  f"(95% CI {low:.1%}-{high:.1%})  {per_hand:+.2f} game points/hand  "
                  f"closes failed {failed} of {closes} = {failed / max(closes, 1):.1%}, "
                  f"{closed_points:+d} game points in them (the heuristic's {their_failed} of {theirs} = "
                  f"{their_failed / max(theirs, 1):.1%})  CPU {cpu:.1f} ms/decision  "
                  f"{time.perf_counter() - start:6.0f} s", flush=True)
    print(f"machine: {machine()}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": args.seed, "deals": args.deals, "search": spec, "learned": args.learned,
                       "games": [{"deal_seed": g.deal_seed, "swap": g.swap} for g in games],
                       "results": {k: [vars(p) for p in v] for k, v in results.items()}}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
