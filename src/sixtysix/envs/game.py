"""The game behind both RL adapters: single hands or whole matches, seeded, with rewards.

Rewards are game points (R9): when a hand ends, its winner gains the game
points it scored (with any tie bonus it collected in a match, R9.2) and the
loser as many negative; a tie gives both 0. Over a match episode the rewards
of a seat add up to its match score minus the opponent's.
"""

from __future__ import annotations

import random
from typing import Literal

from sixtysix.game.hand import Hand
from sixtysix.game.match import Match
from sixtysix.game.result import HandResult
from sixtysix.rules import Rules

__all__ = ["EPISODES", "Episode", "parse_rules"]

#: What one episode is.
EPISODES = ("hand", "match")

EpisodeKind = Literal["hand", "match"]


def parse_rules(rules: str | Rules) -> Rules:
    """A :class:`Rules`, from itself or from text such as ``"classic,target=11"``."""
    return rules if isinstance(rules, Rules) else Rules.parse(rules)


class Episode:
    """One episode's deals: a single hand (a random dealer) or a match (the cut, R2.1)."""

    def __init__(self, rules: Rules, kind: str, rng: random.Random) -> None:
        if kind not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}, not {kind!r}")
        self.rules = rules
        self.kind = kind
        self.rng = rng
        self.match: Match | None = None
        if kind == "match":
            self.match = Match(rules, rng=rng)
            self.hand = self.match.deal()
        else:
            self.hand = Hand.random(dealer=rng.randrange(2), rules=rules, rng=rng)

    def result(self) -> HandResult:
        """The result of the hand just finished, with the tie bonus it collected."""
        if self.match is not None:
            return self.match.results()[-1]
        result = self.hand.result()
        assert result is not None, "the hand is not over"
        return result

    def rewards(self) -> tuple[int, int]:
        """Each seat's reward for the hand just finished."""
        result = self.result()
        if result.winner is None:
            return 0, 0
        points = result.game_points + result.bonus
        return (points, -points) if result.winner == 0 else (-points, points)

    def next_hand(self) -> bool:
        """Deal the next hand of a match; ``False`` when the episode is over."""
        if self.match is None or self.match.is_over():
            return False
        self.hand = self.match.deal()
        return True

    def match_info(self, seat: int) -> tuple[int, int, int, int] | None:
        """``(mine, theirs, target, bonus at stake)`` for :func:`~sixtysix.envs.observation.encode`."""
        if self.match is None:
            return None
        score = self.match.score
        return score[seat], score[1 - seat], self.rules.target, self.match.pending_bonus
