"""Finished games shown whole: the analysis board (every action of a hand rated, worked
out on first demand and kept) and the replay (every position, cards face up)."""

from __future__ import annotations

import asyncio
import collections
import json
import random
from typing import Any

from sixtysix.bots.analysis import Budget
from sixtysix.game.hand import Hand
from sixtysix.game.record import MatchRecord, MatchReplay, dumps, replay
from sixtysix.present.review import judge
from sixtysix.present.wire import public_view_json

__all__ = ["ANALYSES_KEPT", "ANALYSIS_BUDGET", "Analyses", "analyse_hand", "frames", "hand_frames"]

#: Analysed hands kept in memory (each a few kilobytes).
ANALYSES_KEPT = 256
#: The search's budget for a position with a large open stock: a quarter of a second.
ANALYSIS_BUDGET = Budget(worlds=24, time=0.25)


class Analyses:
    """The analysis board's hands: each worked out on first demand in a thread, one hand
    at a time, and the latest :data:`ANALYSES_KEPT` kept."""

    def __init__(self, kept: int = ANALYSES_KEPT) -> None:
        self.kept = kept
        self._done: collections.OrderedDict[tuple[str, int], dict[str, Any]] = collections.OrderedDict()
        self._working = asyncio.Lock()

    async def of(self, game_id: str, number: int, played: Hand) -> dict[str, Any]:
        """Hand ``number`` of the game ``game_id`` (``played``), rated action by action."""
        key = (game_id, number)
        async with self._working:
            if key not in self._done:
                self._done[key] = await asyncio.to_thread(analyse_hand, played, number)
                while len(self._done) > self.kept:
                    self._done.popitem(last=False)
        return self._done[key]


def analyse_hand(played: Hand, number: int) -> dict[str, Any]:
    """Every action of the finished hand ``played`` rated for the player who took it: its
    value, the best value and action(s), what it gave away; a forced action (the only
    legal one) is not rated. The search is seeded by the hand: the same board every time."""
    hand = Hand.deal(played.deck, played.dealer, played.rules)
    rated: list[dict[str, Any]] = []
    for index, action in enumerate(played.actions):
        seat = hand.to_act
        if len(hand.legal_actions()) > 1:
            verdict = judge(hand, action, budget=ANALYSIS_BUDGET,
                            rng=random.Random(f"sixtysix-analysis-{number}-{index}"))
            rated.append({"index": index, "seat": seat, "action": str(action),
                          "value": round(verdict.value, 3), "best": [str(a) for a in verdict.best],
                          "best_value": round(verdict.best_value, 3), "loss": round(verdict.loss, 3),
                          "exact": verdict.exact})
        else:
            rated.append({"index": index, "seat": seat, "action": str(action), "forced": True})
        hand.push(action)
    return {"hand": number, "actions": rated}


def frames(record: MatchRecord) -> list[dict[str, Any]]:
    """Every position of a finished game's ``record`` with both hands face up (nothing is
    hidden any more)."""
    replayed = replay(json.loads(dumps(record)))
    assert isinstance(replayed, MatchReplay)
    shown: list[dict[str, Any]] = []
    for number, played in enumerate(replayed.match.hands, start=1):
        shown += hand_frames(played, number)
    return shown


def hand_frames(played: Hand, number: int = 1) -> list[dict[str, Any]]:
    """Every position of the hand ``played`` (from its deal to its last action), both
    hands face up: the frames of :func:`frames` for one hand."""
    hand = Hand.deal(played.deck, played.dealer, played.rules)
    result = played.result()
    shown: list[dict[str, Any]] = []
    for i in range(len(played.actions) + 1):
        if i == len(played.actions) and result is not None and result.reason == "forfeit" and \
                result.winner is not None:
            hand.forfeit(1 - result.winner)  # the last frame shows the forfeit's result
        view = public_view_json(hand)
        view["hands"] = [sorted(str(c) for c in hand.cards(s)) for s in (0, 1)]
        view["stock"] = [str(c) for c in hand.stock] if hand.stock_size else []
        shown.append({"hand": number, "index": i, "view": view})
        if i < len(played.actions):
            hand.push(played.actions[i])
    return shown
