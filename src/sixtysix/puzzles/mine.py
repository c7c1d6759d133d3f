"""Puzzles found in games between our players.

For each seed the miner deals a hand and lets two of our players play it
(:data:`PLAYERS`: the heuristic player and the tree search at a small budget, seats
taken in turn), then looks at every decision of the game, from the player to act's
view. A position becomes a puzzle when

1. its view allows at most ``limit`` worlds (:func:`sixtysix.puzzles.verify.assess`);
2. one action is the only best one, by at least ``margin`` game points, in a few
   worlds drawn first (a cheap test that rejects most positions), then in every world;
3. it is not trivial: one of the probes (:data:`PROBES`: the heuristic player, with
   and without its exact search of the last cards, and the tree search at a smaller
   budget, each seeing only the view) chooses another action.

A game gives at most one open and one hidden puzzle (the first found). Everything is
seeded, so a seed gives the same puzzles on any machine and any number of processes.

>>> found = mine_seed(3)
>>> all(p.seed == 3 for p in found)
True
"""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from sixtysix.bots import make_bot
from sixtysix.game.actions import Action
from sixtysix.game.hand import Hand
from sixtysix.game.player import Bot
from sixtysix.game.record import HandRecord
from sixtysix.game.worlds import count_layouts, sample_worlds
from sixtysix.play.runner import play_hand
from sixtysix.puzzles.puzzle import Kind, Puzzle, position_id
from sixtysix.puzzles.themes import Theme, classify
from sixtysix.puzzles.verify import (
    DEFAULT_WORLDS,
    Assessment,
    assess,
    close_line,
    principal_line,
    solve_worlds,
)
from sixtysix.rules import CLASSIC, Rules
from sixtysix.search.solver import Solver

__all__ = ["PLAYERS", "PROBES", "Miner", "mine", "mine_seed"]

#: The players whose games the miner looks at (they swap seats from seed to seed).
PLAYERS = ("heuristic", "ismcts:iterations=400")
#: The players a puzzle must fool, one at least: they choose from the view alone. The
#: heuristic player searches the last twelve cards exactly, so it is asked a second time
#: without that search (its rules of thumb alone): otherwise no open position fools it.
PROBES = ("heuristic", "heuristic:solve_cards=0", "ismcts:iterations=100")
#: Worlds drawn for the cheap first test.
_FIRST_WORLDS = 6


@dataclass(frozen=True)
class Miner:
    """What the miner looks for (the defaults are the ``sixtysix puzzles mine`` ones)."""

    #: Game points by which the solution must beat every other action in every world.
    margin: int = 1
    #: The most worlds a position's view may allow (all of them are solved).
    limit: int = DEFAULT_WORLDS
    rules: Rules = CLASSIC
    #: Every how many seeds a game is played under table rules (``enforce_follow =
    #: false``, R10.2), where a revoke may be a choice; 0: never.
    table_rules_every: int = 10
    players: tuple[str, str] = PLAYERS
    probes: tuple[str, ...] = field(default=PROBES)
    #: Keep only puzzles with one of these themes (none: every puzzle), to aim a run at
    #: the rare ones.
    themes: frozenset[Theme] = frozenset()

    def rules_for(self, seed: int) -> Rules:
        """The rules of the game of ``seed``."""
        every = self.table_rules_every
        if every and seed % every == every - 1 and self.rules.enforce_follow:
            return self.rules.replace(enforce_follow=False)
        return self.rules

    def game(self, seed: int) -> Hand:
        """The hand of ``seed`` played to its end by :attr:`players`."""
        bots = [make_bot(spec, seed=seed) for spec in self.players]
        if seed % 2:
            bots.reverse()
        return play_hand(Hand.random(seed=seed, dealer=seed % 2, rules=self.rules_for(seed)), bots)

    def puzzles(self, seed: int) -> list[Puzzle]:
        """The puzzles of the game of ``seed`` (at most one of each kind)."""
        played = self.game(seed)
        probes = [(spec, make_bot(spec, seed=seed)) for spec in self.probes]
        hand = Hand.deal(played.deck, played.dealer, played.rules)
        rng = random.Random(seed)
        solver = Solver()
        found: dict[Kind, Puzzle] = {}
        for action in played.actions:
            if len(found) < len(Kind):
                puzzle = self._at(hand, seed, rng, solver, probes)
                if puzzle is not None and puzzle.kind not in found and self._wanted(puzzle):
                    found[puzzle.kind] = puzzle
            hand.push(action)
        return [found[k] for k in Kind if k in found]

    def _wanted(self, puzzle: Puzzle) -> bool:
        return not self.themes or not self.themes.isdisjoint(puzzle.themes)

    def _candidate(self, hand: Hand, rng: random.Random, solver: Solver) -> Action | None:
        """The only best action by the margin in a few drawn worlds, if there is one."""
        view = hand.view(hand.to_act)  # type: ignore[arg-type]
        if len(view.legal) < 2 or count_layouts(view) > self.limit:
            return None
        actions = tuple(hand.legal_actions())
        rows = solve_worlds(sample_worlds(view, _FIRST_WORLDS, rng), solver)
        best = Assessment(Kind.HIDDEN, actions, rows).best()
        if best is None or Assessment(Kind.HIDDEN, actions, rows).margin(best) < self.margin:
            return None
        return best

    def _at(self, hand: Hand, seed: int, rng: random.Random, solver: Solver,
            probes: Sequence[tuple[str, Bot]]) -> Puzzle | None:
        """The puzzle at ``hand``'s position, if it is one."""
        best = self._candidate(hand, rng, solver)
        if best is None:
            return None
        view = hand.view(hand.to_act)  # type: ignore[arg-type]
        missed = tuple(spec for spec, bot in probes if bot.choose(view, view.legal) != best)
        if not missed:
            return None
        table = assess(hand, self.limit, solver)
        if table.best() != best or table.margin(best) < self.margin:
            return None
        line = principal_line(hand, best, solver)
        record = HandRecord(deck=hand.deck, actions=hand.actions, dealer=hand.dealer, rules=hand.rules)
        return Puzzle(
            id=position_id(record), kind=table.kind, record=record, solution=line,
            value=table.value(best), margin=table.margin(best), worlds=len(table.rows),
            themes=classify(hand, line, close_line(hand, best, solver)), seed=seed, missed_by=missed)


def mine_seed(seed: int, miner: Miner = Miner()) -> list[Puzzle]:
    """The puzzles of the game of ``seed`` (see the module text)."""
    return miner.puzzles(seed)


def _batch(args: tuple[Miner, Sequence[int]]) -> list[list[Puzzle]]:
    miner, seeds = args
    return [miner.puzzles(seed) for seed in seeds]


def mine(start: int, miner: Miner = Miner(), jobs: int = 1) -> Generator[Puzzle, None, None]:
    """Puzzles of the games of seeds ``start``, ``start + 1``, ... without end, in seed
    order whatever ``jobs`` (processes) is: the caller stops when it has enough."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    if jobs == 1:
        seed = start
        while True:
            yield from miner.puzzles(seed)
            seed += 1
    per = 4
    with ProcessPoolExecutor(jobs) as pool:
        seed = start
        while True:
            chunks = [(miner, range(seed + i * per, seed + (i + 1) * per)) for i in range(jobs)]
            for batch in pool.map(_batch, chunks):
                for found in batch:
                    yield from found
            seed += jobs * per
