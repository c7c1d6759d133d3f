"""Player pages and leaderboards: what the server shows of a player with an account.

- ``GET /api/players/{name}``: the player's ratings (one per preset he played rated
  matches under), his rated matches' history, his latest finished games (each opens
  in the analysis board, ``/replay/{id}``) and his statistics: matches and hands won,
  game points per hand, Schneider and Schwarz for and against, stocks closed and how
  often the close succeeded, in all and by rules and by opponent.
- ``GET /api/leaderboard?pool=classic``: the best established ratings of a preset,
  and the computer levels' fixed ratings beside them.

Only public facts: names, results and ratings; never a token, a password hash or
an unfinished game's cards. The statistics are worked out from the games' records
(the last :data:`GAMES_COUNTED` finished games), with :func:`sixtysix.present.explain.explain`
naming what set each hand's game points.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from fastapi import APIRouter, Query

from sixtysix.present.explain import Reason, Scale, explain
from sixtysix.rules import Rules
from sixtysix.server.accounts import Accounts
from sixtysix.server.errors import GameError
from sixtysix.server.errors import Reason as Refusal
from sixtysix.server.games import replay_stored
from sixtysix.server.puzzle_desk import PuzzleDesk, Solver
from sixtysix.server.ratings import Ratings
from sixtysix.server.status import GameKind
from sixtysix.server.storage import Storage

__all__ = ["GAMES_COUNTED", "Tally", "profile_router"]

#: The finished games a player page counts and lists.
GAMES_COUNTED = 100


@dataclass
class Tally:
    """A player's results in some of his games."""

    matches: int = 0
    matches_won: int = 0
    hands: int = 0
    hands_won: int = 0
    #: Game points won and lost in the hands (tie bonuses left out).
    points_won: int = 0
    points_lost: int = 0
    schneider_for: int = 0
    schneider_against: int = 0
    schwarz_for: int = 0
    schwarz_against: int = 0
    #: Stocks the player closed, and the closes that won the hand.
    closes: int = 0
    closes_won: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = asdict(self)
        net = self.points_won - self.points_lost
        data["points_per_hand"] = round(net / self.hands, 3) if self.hands else None
        return data


def _count(tallies: list[Tally], seat: int, won_match: bool, match_hands: list[Any]) -> None:
    for tally in tallies:
        tally.matches += 1
        tally.matches_won += int(won_match)
    for hand in match_hands:
        if not hand.is_over():
            continue
        why = explain(hand.view(seat))
        for tally in tallies:
            tally.hands += 1
            if why.winner == seat:
                tally.hands_won += 1
                tally.points_won += why.game_points
            elif why.winner is not None:
                tally.points_lost += why.game_points
            if why.scale in (Scale.UNDER_33, Scale.NO_TRICK):
                if why.winner == seat:
                    tally.schneider_for += 1
                else:
                    tally.schneider_against += 1
            if why.scale is Scale.NO_TRICK:
                if why.winner == seat:
                    tally.schwarz_for += 1
                else:
                    tally.schwarz_against += 1
            if why.closer == seat and why.reason is not Reason.FORFEIT:
                tally.closes += 1
                tally.closes_won += int(why.winner == seat)


def _puzzles_json(puzzles: PuzzleDesk, solver: Solver) -> dict[str, Any]:
    rating, plays = puzzles.rating(solver)
    return {"rating": round(rating.rating), "deviation": round(rating.deviation), "plays": plays,
            "history": puzzles.history(solver)}


def profile_router(accounts: Accounts, ratings: Ratings, storage: Storage,
                   puzzles: PuzzleDesk | None = None) -> APIRouter:
    """The routes of the player pages and leaderboards (with ``puzzles``, a player's
    puzzle rating and rated attempts too)."""
    router = APIRouter()

    @router.get("/api/players/{name}")
    async def player(name: str) -> dict[str, Any]:
        user = accounts.user_by_name(name) if 0 < len(name) <= 64 else None
        if user is None:
            raise GameError(Refusal.NO_PLAYER)
        games = []
        everything = Tally()
        by_rules: dict[str, Tally] = {}
        by_opponent: dict[str, Tally] = {}
        for row in storage.games_of(user.id, limit=GAMES_COUNTED):
            seat = 0 if row.user0 == user.id else 1
            stored = storage.load(row.id)
            if stored is None:
                continue
            try:
                match = replay_stored(stored)
                preset = Rules.from_json(stored.rules).base
            except (ValueError, AssertionError):
                continue  # a record this version cannot read is left out, not fatal
            opponent = f"computer:{row.level}" if row.kind == GameKind.COMPUTER else "people"
            tallies = [everything, by_rules.setdefault(preset, Tally()),
                       by_opponent.setdefault(opponent, Tally())]
            _count(tallies, seat, row.winner == seat, match.hands)
            games.append({"id": row.id, "rules": preset, "seat": seat, "players": [row.name0, row.name1],
                          "score": [row.score0, row.score1], "won": row.winner == seat, "ended": row.ended,
                          "rated": bool(row.rated), "kind": row.kind, "level": row.level,
                          "date": row.updated.isoformat() + "Z"})
        return {
            "name": user.name,
            "ratings": [s.to_json() for s in ratings.standings(user.id)],
            "history": ratings.history(user.id),
            "puzzles": None if puzzles is None else _puzzles_json(puzzles, Solver.account(user.id)),
            "games": games,
            "statistics": {"all": everything.to_json(),
                           "by_rules": {k: v.to_json() for k, v in sorted(by_rules.items())},
                           "by_opponent": {k: v.to_json() for k, v in sorted(by_opponent.items())}},
        }

    @router.get("/api/leaderboard")
    async def leaderboard(pool: str = Query("classic", max_length=16),
                          limit: int = Query(50, ge=1, le=200)) -> dict[str, Any]:
        names = {}
        board = ratings.leaderboard(pool, limit)
        for standing in board:
            names[standing.user_id] = accounts.name_of(standing.user_id)
        return {
            "pool": pool,
            "players": [{"name": names[s.user_id], **s.to_json()} for s in board if names[s.user_id]],
            "levels": [{"level": level, "rating": round(r.rating), "deviation": round(r.deviation)}
                       for level, r in sorted(ratings.levels.items(), key=lambda item: -item[1].rating)],
        }

    return router
