"""The schedule of an arena: which games are played, from which seeds.

Every pair of bots plays the same ``deals`` boards. A board is one seed for
the cards (a whole match of deals, or one hand with ``hands=True``) and is
played twice, the second time with the seats exchanged, so that both bots
get the same cards from both sides. All pairs share the boards, as teams in
a duplicate bridge tournament do: board 7 deals the same cards to every pair.

Each game gets its own seeds, derived from the arena seed by hashing, never
from a generator shared between games: a game's seeds depend only on the
arena seed and on its place in the schedule (pair, board, seating, seat), so
the games can be played in any order, on any number of workers.

>>> games = schedule(["heuristic", "random"], deals=2, seed=1)
>>> for g in games:
...     print(g.board, g.swap, g.specs)
0 0 ('heuristic', 'random')
0 1 ('random', 'heuristic')
1 0 ('heuristic', 'random')
1 1 ('random', 'heuristic')
>>> games[0].deal_seed == games[1].deal_seed != games[2].deal_seed
True
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Game", "derive_seed", "pairs", "schedule"]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from the text of ``parts`` (stable across processes and runs).

    >>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    True
    """
    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


def pairs(count: int) -> list[tuple[int, int]]:
    """The round robin of ``count`` bots: every pair once, in a fixed order.

    >>> pairs(3)
    [(0, 1), (0, 2), (1, 2)]
    """
    return list(itertools.combinations(range(count), 2))


@dataclass(frozen=True)
class Game:
    """One game of the schedule: a match (or a single hand) between two bots.

    ``bots`` and ``specs`` are in seat order (seat 0 first). ``swap`` is 0
    when the pair's first bot sits in seat 0 and 1 when the seats are
    exchanged; the two games of a board differ only in ``swap`` and in the
    bots' seeds.
    """

    pair: int
    board: int
    swap: int
    bots: tuple[int, int]
    specs: tuple[str, str]
    deal_seed: int
    bot_seeds: tuple[int, int]
    unit: str  # "match" or "hand"
    rules: str
    #: Whose engine plays the game: ours, or the ``schnapsen`` course platform's
    #: (one deal, with ``rules`` the preset ``course``; see sixtysix.compat.schnapsen).
    engine: str = "sixtysix"

    def side(self, bot: int) -> int:
        """The seat of bot number ``bot`` in this game."""
        return self.bots.index(bot)

    @classmethod
    def from_json(cls, obj: Any, *, unit: str, rules: str) -> Game:
        """The inverse of :meth:`to_json` (the unit and rules are the run's)."""
        return cls(int(obj["pair"]), int(obj["board"]), int(obj["swap"]),
                   (int(obj["bots"][0]), int(obj["bots"][1])), (str(obj["specs"][0]), str(obj["specs"][1])),
                   int(obj["deal_seed"]), (int(obj["bot_seeds"][0]), int(obj["bot_seeds"][1])), unit, rules)

    def to_json(self) -> dict[str, Any]:
        return {
            "pair": self.pair,
            "board": self.board,
            "swap": self.swap,
            "bots": list(self.bots),
            "specs": list(self.specs),
            "deal_seed": self.deal_seed,
            "bot_seeds": list(self.bot_seeds),
        }


def schedule(
    specs: Sequence[str],
    *,
    deals: int,
    seed: int,
    hands: bool = False,
    rules: str = "classic",
    engine: str = "sixtysix",
) -> list[Game]:
    """Every game of the arena, ordered by pair, board and seating.

    ``specs`` are the bots' spec strings; the bots are built from them (and
    the seeds of the game) by whoever plays the game.
    """
    if len(specs) < 2:
        raise ValueError(f"an arena needs at least two bots, not {len(specs)}")
    if deals < 1:
        raise ValueError(f"the number of deals per pair must be at least 1, not {deals}")
    unit = "hand" if hands else "match"
    games: list[Game] = []
    for number, (a, b) in enumerate(pairs(len(specs))):
        for board in range(deals):
            deal_seed = derive_seed(seed, unit, "deal", board)
            for swap in (0, 1):
                seated = (b, a) if swap else (a, b)
                games.append(Game(
                    pair=number,
                    board=board,
                    swap=swap,
                    bots=seated,
                    specs=(specs[seated[0]], specs[seated[1]]),
                    deal_seed=deal_seed,
                    bot_seeds=(derive_seed(seed, "bot", number, board, swap, 0),
                               derive_seed(seed, "bot", number, board, swap, 1)),
                    unit=unit,
                    rules=rules,
                    engine=engine,
                ))
    return games
