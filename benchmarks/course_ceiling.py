"""How far can a player get against RdeepBot on the course platform? Oracles measure it.

Run:  python benchmarks/course_ceiling.py [--deals 500] [--seed 6101] [--jobs 2]
                                          [--players honest,hand,all,exact]

The same deals (the arena's schedule for ``ours`` against ``schnapsen:rdeep``
on the platform's engine: every deal from both seats, the same seeds for
every bot) are played by four players of ours against the platform's
``RdeepBot`` (16 samples, depth 4):

``honest``  ISMCTS (``ismcts:iterations=2700,c=0.4,bias=2.0``, the ``hard``
            search at a fixed budget) through the bridge: it sees its view only;
``hand``    the same search, told the opponent's hand at every decision of
            phase 1 (it still guesses the order of the stock);
``all``     the same search, told the opponent's hand and the stock order;
``exact``   the exact solver on the true position at every decision (perfect
            information, perfect play against a perfect opponent).

``hand``, ``all`` and ``exact`` cheat: they read the engine's own game state,
which a platform bot must never see. They are not bots to play with; they
bound what any honest player can reach. The gap ``honest`` → ``hand`` is the
most that reading the opponent's cards (inference) can add; ``hand`` → ``all``
is the order of the stock, which no player can know (luck of the draw); and
``all`` → ``exact`` what the search loses to exact play.

Prints each player's deals won with the 95% interval (Wilson) and the
machine; ``--json FILE`` keeps the per-game results. Needs
the ``schnapsen`` extra.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from machine import machine  # benchmarks/machine.py
from oracles import OPTIONS, Told, parse_players, search_spec  # benchmarks/oracles.py

from sixtysix.arena.executor import chunked
from sixtysix.arena.schedule import Game, schedule
from sixtysix.game.hand import Hand
from sixtysix.game.views import View
from sixtysix.measure.stats import wilson
from sixtysix.search.solver import Solver

try:
    from schnapsen import game as _game

    from sixtysix.compat.schnapsen import SixtySixBot, make_player, play_deal, to_card, to_move, view_of
except ImportError:  # pragma: no cover - a message instead of a traceback
    print("needs the schnapsen package: pip install -e '.[schnapsen]'", file=sys.stderr)
    sys.exit(2)

PLAYERS = ("honest", "hand", "all", "exact")


def _truth(perspective: Any, leader_move: Any, view: View) -> tuple[set[Any], list[Any]]:
    """The opponent's hand and the stock (drawing order) as the engine holds them."""
    state = perspective._PlayerPerspective__game_state  # the oracle's peek (see above)
    other = state.follower if leader_move is None else state.leader
    cards = {to_card(c) for c in other.hand.get_cards()}
    if view.lead is not None:
        cards.discard(view.lead[1])
    return cards, [to_card(c) for c in state.talon._cards]


class _Peeking(_game.Bot):  # type: ignore[misc]
    """An oracle on the platform: ``hand``, ``all`` or ``exact``."""

    def __init__(self, kind: str, seed: int, iterations: int) -> None:
        super().__init__(kind)
        self.kind = kind
        self.search = Told(seed, iterations=iterations, **OPTIONS)
        self.inner = SixtySixBot(self.search)

    def get_move(self, perspective: Any, leader_move: Any) -> Any:
        view = view_of(perspective, leader_move)
        cards, stock = _truth(perspective, leader_move, view)
        if self.kind == "exact":
            if len(view.legal) == 1:
                return to_move(view.legal[0], perspective)
            solution = Solver().solve(Hand.from_view(view, cards, stock))
            return to_move(solution.best[0], perspective)
        self.search.hand = sum(c.mask for c in cards)
        self.search.stock = [c.index for c in stock] if self.kind == "all" else None
        return self.inner.get_move(perspective, leader_move)

    def notify_game_end(self, won: bool, perspective: Any) -> None:
        self.inner.notify_game_end(won, perspective)


def _play(kind: str, games: list[Game], iterations: int = 2700) -> list[int]:
    """1 for each game our player won, 0 for each it lost."""
    out = []
    for game in games:
        ours = 0 if not game.specs[0].startswith("schnapsen:") else 1
        players: list[Any] = [None, None]
        if kind == "honest":
            players[ours] = make_player(game.specs[ours], game.bot_seeds[ours])
        else:
            players[ours] = _Peeking(kind, game.bot_seeds[ours], iterations)
        players[1 - ours] = make_player(game.specs[1 - ours], game.bot_seeds[1 - ours])
        out.append(int(play_deal(players, game.deal_seed).winner == ours))
    return out


def rdeep_deals(spec: str, deals: int, seed: int) -> list[Game]:
    """The arena's games of ``spec`` against ``schnapsen:rdeep`` on the platform's engine
    (one deal is the whole game there: the arena's deals are hands), announced."""
    games = schedule([spec, "schnapsen:rdeep"], deals=deals, seed=seed, hands=True,
                     rules="course", engine="schnapsen")
    print(f"{len(games)} games ({deals} deals from both seats, seed {seed}) against "
          f"schnapsen:rdeep on the platform's engine; search: {spec}")
    return games


def play_all(kinds: list[str], play: Callable[[str, list[Game]], list[int]], games: list[Game],
             jobs: int) -> dict[str, list[int]]:
    """``play(kind, games)`` for each kind of player, the games split over ``jobs``
    processes; prints each one's deals won as they are known."""
    chunks = chunked(games, jobs)
    results: dict[str, list[int]] = {}
    with concurrent.futures.ProcessPoolExecutor(jobs) as pool:
        for kind in kinds:
            start = time.perf_counter()
            won = results[kind] = [w for part in pool.map(play, [kind] * len(chunks), chunks) for w in part]
            low, high = wilson(sum(won), len(won))
            print(f"  {kind:8} {sum(won):5} of {len(won)} = {sum(won) / len(won):6.1%}  "
                  f"(95% CI {low:.1%}-{high:.1%})  {time.perf_counter() - start:6.0f} s", flush=True)
    return results


def save(path: str, seed: int, spec: str, games: list[Game], results: dict[str, list[int]]) -> None:
    """The per-game results (1 won, 0 lost) of each player, with the deals they were."""
    with open(path, "w") as f:
        json.dump({"seed": seed, "deals": len(games) // 2, "search": spec,
                   "games": [{"deal_seed": g.deal_seed, "swap": g.swap} for g in games],
                   "won": results}, f)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals, each played from both seats")
    parser.add_argument("--seed", type=int, default=6101, help="the arena seed of the deals")
    parser.add_argument("--iterations", type=int, default=2700, help="ISMCTS iterations per decision")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--players", default=",".join(PLAYERS), help="which of " + ", ".join(PLAYERS))
    parser.add_argument("--json", help="write the per-game results here")
    args = parser.parse_args(argv)
    kinds = parse_players(parser, args.players, PLAYERS)
    spec = search_spec(args.iterations)
    games = rdeep_deals(spec, args.deals, args.seed)
    results = play_all(kinds, functools.partial(_play, iterations=args.iterations), games, args.jobs)
    print(f"machine: {machine()}")
    if args.json:
        save(args.json, args.seed, spec, games, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
