"""A match: hands to the target (R9.3), with the cut for the first deal (R2.1),
the dealer rotation (R2.5, option ``next_dealer``) and the tie bonus (R9.2).

>>> match = Match(seed=3)
>>> while not match.is_over():
...     hand = match.deal()
...     while not hand.is_over():
...         hand.push(hand.legal_actions()[0])
>>> max(match.score) >= 7
True
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable

from sixtysix.game.cards import CARDS, Card
from sixtysix.game.deck import random_deck
from sixtysix.game.hand import Hand
from sixtysix.game.result import HandResult
from sixtysix.rules import CLASSIC, FirstDealer, NextDealer, Rules

__all__ = ["Match", "MatchInfo", "MatchOverError", "cut_for_deal"]


@dataclasses.dataclass(frozen=True)
class MatchInfo:
    """The public state of the match around the hand being shown (for screens): the
    hand's number, counted from 1, the score, the target and the tie bonus at stake."""

    hand_number: int
    score: tuple[int, int]
    target: int
    pending_bonus: int = 0


class MatchOverError(ValueError):
    """Raised when a hand is dealt after the match is decided, or before the last one ended."""


def cut_for_deal(rng: random.Random) -> tuple[int, list[tuple[Card, Card]]]:
    """R2.1: each player cuts a card; the higher rank deals; equal ranks cut again.

    Returns the first dealer and every pair of cut cards (seat 0's first).
    """
    cuts: list[tuple[Card, Card]] = []
    while True:
        a, b = rng.sample(CARDS, 2)
        cuts.append((a, b))
        if a.rank != b.rank:
            return (0 if a.rank > b.rank else 1), cuts


class Match:
    """Hands to the target. Deal each hand with :meth:`deal`; the score, the
    dealer and the tie bonus follow from the finished hands."""

    def __init__(
        self,
        rules: Rules = CLASSIC,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        first_dealer: int | None = None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.rng = rng if rng is not None else random.Random(seed)
        self.cuts: list[tuple[Card, Card]] = []
        if first_dealer is None:
            if rules.first_dealer is FirstDealer.CUT:
                first_dealer, self.cuts = cut_for_deal(self.rng)
            else:
                first_dealer = self.rng.randrange(2)
        if first_dealer not in (0, 1):
            raise ValueError(f"first_dealer must be seat 0 or 1, not {first_dealer!r}")
        self.first_dealer = first_dealer
        self.hands: list[Hand] = []

    @property
    def hand(self) -> Hand | None:
        """The hand being played (or the last one)."""
        return self.hands[-1] if self.hands else None

    def next_dealer(self) -> int:
        """The dealer of the next hand (R2.5 alternate, or the winner deals)."""
        if not self.hands:
            return self.first_dealer
        last = self.hands[-1]
        if self.rules.next_dealer is NextDealer.ALTERNATE:
            return 1 - last.dealer
        result = last.result()
        if result is None or result.winner is None:
            return last.dealer  # after a tie the same dealer deals again
        return result.winner

    def deal(self, deck: str | Iterable[Card] | None = None) -> Hand:
        """Deal the next hand, from ``deck`` or shuffled by the match's generator."""
        if self.is_over():
            raise MatchOverError("the match is over")
        if self.hands and not self.hands[-1].is_over():
            raise MatchOverError("the current hand is not finished")
        cards = random_deck(self.rng, self.rules.deck) if deck is None else deck
        hand = Hand.deal(cards, self.next_dealer(), self.rules)
        # The players see the match score (search bots play for the match, not the hand).
        hand.match_score = self.score
        hand.match_bonus = self.pending_bonus
        self.hands.append(hand)
        return hand

    def results(self) -> list[HandResult]:
        """Results of the finished hands, each with the tie bonus it collected (R9.2)."""
        out: list[HandResult] = []
        ties = 0
        for hand in self.hands:
            result = hand.result()
            if result is None:
                break
            if result.winner is None:
                ties += 1
            else:
                if ties:
                    result = dataclasses.replace(result, bonus=ties * self.rules.tie_bonus)
                ties = 0
            out.append(result)
        return out

    @property
    def score(self) -> tuple[int, int]:
        """Game points of each seat, tie bonuses included."""
        score = [0, 0]
        for result in self.results():
            if result.winner is not None:
                score[result.winner] += result.game_points + result.bonus
        return score[0], score[1]

    @property
    def pending_bonus(self) -> int:
        """Game points the winner of the next decided hand will collect from ties."""
        ties = 0
        for result in self.results():
            ties = ties + 1 if result.winner is None else 0
        return ties * self.rules.tie_bonus

    def is_over(self) -> bool:
        """Whether a player has reached the target (R9.3)."""
        return max(self.score) >= self.rules.target

    @property
    def winner(self) -> int | None:
        a, b = self.score
        # R9.3: the first to reach the target wins; equal scores (only possible
        # with target = 0, before any hand) name nobody.
        if max(a, b) < self.rules.target or a == b:
            return None
        return 0 if a > b else 1
