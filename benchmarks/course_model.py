"""Does modelling RdeepBot help against it? ISMCTS with and without an opponent model.

Run:  python benchmarks/course_model.py [--deals 100] [--seed 6101] [--jobs 2]
                                        [--players honest,modelled] [--json FILE]

The deals of ``course_ceiling.py`` (the arena's schedule against
``schnapsen:rdeep`` on the platform's engine, each deal from both seats) are
played by ``hard``'s search at a fixed budget
(``ismcts:iterations=2700,c=0.4,bias=2.0``) through the bridge:

``honest``    as it is: at the opponent's nodes the bandit picks the reply
              that is best for the opponent;
``modelled``  with ``opponent_model``: at the opponent's nodes the search
              plays what an emulation of RdeepBot would choose from the
              opponent's view of that world.

The emulation (:class:`RdeepModel`) does what the platform's ``RdeepBot``
does, on our engine: for each legal action, 16 worlds sampled from the
opponent's view, the action and then random play to the end of the fourth
trick (the current one counted), scored by the share of the points on the
table that are his; the best average wins. It sees the opponent's view only.
``--fidelity N`` instead plays N deals of RdeepBot against itself on the
platform and reports how often the emulation, and a second RdeepBot with
other random numbers, choose the move RdeepBot chose.

Prints deals won with the 95% interval (Wilson), the games won by one player
and lost by the other on the same deal and seat, and the machine. Needs
``sixtysix[schnapsen]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from course_ceiling import play_all, rdeep_deals, save  # benchmarks/course_ceiling.py
from machine import machine  # benchmarks/machine.py
from oracles import OPTIONS, parse_players, search_spec  # benchmarks/oracles.py

from sixtysix.actions import Action
from sixtysix.arena.schedule import Game
from sixtysix.bots.base import BaseBot
from sixtysix.bots.ismcts import ISMCTSBot, Worlds
from sixtysix.cards import iter_mask
from sixtysix.hand import Hand
from sixtysix.kernel import Phase
from sixtysix.views import View

try:
    from schnapsen import game as _game
    from schnapsen.bots import RdeepBot

    from sixtysix.compat.schnapsen import SixtySixBot, make_player, play_deal, to_move, view_of
except ImportError:  # pragma: no cover - a message instead of a traceback
    print("needs the schnapsen package: pip install 'sixtysix[schnapsen]'", file=sys.stderr)
    sys.exit(2)

PLAYERS = ("honest", "modelled")
ITERATIONS = 2700


class RdeepModel(BaseBot):
    """RdeepBot's rule on our engine: sampled worlds, short random rollouts, point share."""

    name = "rdeep-model"

    def __init__(self, seed: int | None = None, samples: int = 16, depth: int = 4) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.depth = depth

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        worlds = Worlds(view, self.rng)
        order = list(legal)
        self.rng.shuffle(order)  # ties go to a random one of the best, as RdeepBot's do
        best, best_total = order[0], -1.0
        for action in order:
            total = sum(self._rollout(worlds.world(), view.seat, action.code) for _ in range(self.samples))
            if total > best_total:
                best, best_total = action, total
        return best

    def _rollout(self, world: Hand, seat: int, code: int) -> float:
        rng = self.rng
        state = world.kernel
        target = state.tricks_won(0) + state.tricks_won(1) + self.depth
        state.push(code)
        while state.phase != Phase.OVER and state.tricks_won(0) + state.tricks_won(1) < target:
            codes = list(iter_mask(state.legal_mask()))
            state.push(codes[rng.randrange(len(codes))])
        mine, theirs = world.score(seat), world.score(1 - seat)
        return mine / (mine + theirs) if mine + theirs else 0.5


def _play(kind: str, games: list[Game]) -> list[int]:
    """1 for each game our player won, 0 for each it lost."""
    out = []
    for game in games:
        ours = 0 if not game.specs[0].startswith("schnapsen:") else 1
        seed = game.bot_seeds[ours]
        model = RdeepModel(seed + 1) if kind == "modelled" else None
        players: list[Any] = [None, None]
        players[ours] = SixtySixBot(ISMCTSBot(seed, iterations=ITERATIONS, opponent_model=model, **OPTIONS))
        players[1 - ours] = make_player(game.specs[1 - ours], game.bot_seeds[1 - ours])
        out.append(int(play_deal(players, game.deal_seed).winner == ours))
    return out


def fidelity(deals: int) -> None:
    """How often the emulation, and RdeepBot itself run again, choose RdeepBot's move."""
    counts = {"positions": 0, "model": 0, "again": 0}
    spent = [0.0]

    class Probe(_game.Bot):  # type: ignore[misc]
        def __init__(self, seed: int) -> None:
            super().__init__("probe")
            self.bot = RdeepBot(16, 4, random.Random(seed))
            self.again = RdeepBot(16, 4, random.Random(seed + 1))
            self.model = RdeepModel(seed + 2)

        def get_move(self, perspective: Any, leader_move: Any) -> Any:
            move = self.bot.get_move(perspective, leader_move)
            if len(perspective.valid_moves()) > 1:
                view = view_of(perspective, leader_move)
                start = time.perf_counter()
                modelled = self.model.choose(view, view.legal)
                spent[0] += time.perf_counter() - start
                counts["positions"] += 1
                counts["model"] += to_move(modelled, perspective) == move
                counts["again"] += self.again.get_move(perspective, leader_move) == move
            return move

    engine = _game.SchnapsenGamePlayEngine()
    for n in range(deals):
        engine.play_game(Probe(1000 + 2 * n), Probe(5000 + 2 * n), random.Random(n))
    n = counts["positions"]
    print(f"{n} decisions of RdeepBot with a choice, {deals} deals of RdeepBot against itself:")
    print(f"  RdeepBot again (other random numbers) chose the same move {counts['again'] / n:6.1%}")
    print(f"  the emulation on our engine chose the same move           {counts['model'] / n:6.1%}"
          f"  ({1000 * spent[0] / n:.1f} ms a decision)")
    print(f"machine: {machine()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals, each played from both seats")
    parser.add_argument("--seed", type=int, default=6101, help="the arena seed of the deals")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--players", default=",".join(PLAYERS), help="which of " + ", ".join(PLAYERS))
    parser.add_argument("--fidelity", type=int, metavar="N", help="measure the emulation on N deals instead")
    parser.add_argument("--json", help="write the per-game results here")
    args = parser.parse_args(argv)
    if args.fidelity:
        fidelity(args.fidelity)
        return 0
    kinds = parse_players(parser, args.players, PLAYERS)
    spec = search_spec(ITERATIONS)
    games = rdeep_deals(spec, args.deals, args.seed)
    results = play_all(kinds, _play, games, args.jobs)
    if len(results) == 2:
        a, b = (results[k] for k in PLAYERS)
        print(f"  same deal and seat: won by honest only {sum(x > y for x, y in zip(a, b, strict=True))}, "
              f"by modelled only {sum(y > x for x, y in zip(a, b, strict=True))}")
    print(f"machine: {machine()}")
    if args.json:
        save(args.json, args.seed, spec, games, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
