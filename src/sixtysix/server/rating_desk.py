"""The ratings of the games being played: each side's rating shown as a match starts,
a rated match rated once when it ends, and the counts of rated play (games started,
matches called off early) kept for the limits of :mod:`sixtysix.server.fairplay`."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtysix.rules import Rules
from sixtysix.server.fairplay import RatedPlay
from sixtysix.server.ratings import Computer, Person, Ratings, Side, pool_of
from sixtysix.server.status import GameKind
from sixtysix.server.storage import FAILURES, GameRow, Storage

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["RatingDesk"]

log = logging.getLogger("sixtysix.server")


class RatingDesk:
    """The players' ratings (``None``: no game is rated) and the limits of rated play
    (``None``: none), as the games being played use them."""

    def __init__(self, storage: Storage, ratings: Ratings | None, rated_play: RatedPlay | None,
                 now: Callable[[], float]) -> None:
        self.storage = storage
        self.ratings = ratings
        self.rated_play = rated_play
        self.now = now

    @staticmethod
    def sides(game: Game) -> tuple[Side, Side] | None:
        """The game's two sides as the ratings know them (``None``: a guest plays)."""
        sides: list[Side] = []
        for seat in (0, 1):
            user = game.users[seat]
            if seat == game.bot_seat and game.level is not None:
                sides.append(Computer(game.level))
            elif user is not None:
                sides.append(Person(user, game.names[seat]))
            else:
                return None
        return sides[0], sides[1]

    def note(self, game: Game) -> None:
        """Each side's rating as the match starts (shown beside the names), and for a
        match rated already, how it moved them."""
        pool = pool_of(game.rules)
        sides = self.sides(game) if game.rated else None
        if self.ratings is None or pool is None or sides is None:
            return
        try:
            changes = self.ratings.changes(game.id)
            for seat, side in enumerate(sides):
                if isinstance(side, Person) and side.user_id in changes:
                    game.rating_changes[seat] = changes[side.user_id]
                    game.ratings_before[seat] = changes[side.user_id][0]
                else:
                    game.ratings_before[seat] = self.ratings.rating_of(side, pool).rating
        except (*FAILURES, KeyError):  # the ratings are shown, not needed: the game goes on
            # (KeyError: a computer level this server no longer rates)
            log.exception("could not read the ratings of game %s", game.id)

    def rate(self, game: Game) -> None:
        """A rated match ended by the rules (its target, resigned, time, left): each
        player's rating updated, once. Aborted and abandoned matches are never rated."""
        pool = pool_of(game.rules)
        sides = self.sides(game)
        winner = game.winner
        if not game.rated or self.ratings is None or pool is None or sides is None or winner is None:
            return
        try:
            changes = self.ratings.rate(game.id, pool, sides, winner)
        except (*FAILURES, ValueError):
            # The database failed (rated later by rate_missing), or a computer level this
            # server no longer rates: the game's end stands all the same.
            log.exception("could not rate game %s", game.id)
            return
        for change in changes:
            seat = game.users.index(change.user_id)
            game.rating_changes[seat] = (change.before.rating, change.after.rating)

    def rate_missing(self, prefix: str, limit: int = 200) -> int:
        """Rate the latest rated matches (whose ids start with ``prefix``) that finished
        but were never rated (the process stopped between storing the end and rating
        it); returns how many. Each match is rated once however often this runs."""
        if self.ratings is None:
            return 0
        done = sum(self._rate_row(row) for row in self.storage.rated_finished(prefix=prefix, limit=limit))
        if done:
            log.info("%d finished rated matches rated at start-up", done)
        return done

    def _rate_row(self, row: GameRow) -> bool:
        ratings = self.ratings
        assert ratings is not None
        pool = pool_of(Rules.from_json(json.loads(row.rules)))
        if pool is None or row.winner not in (0, 1) or ratings.changes(row.id):
            return False
        sides: list[Side] = []
        for seat, user, name in ((0, row.user0, row.name0), (1, row.user1, row.name1)):
            if row.kind == GameKind.COMPUTER and seat == 1 and row.level is not None:
                sides.append(Computer(row.level))
            elif user is not None:
                sides.append(Person(user, name))
        if len(sides) != 2 or not all(ratings.rateable(side) for side in sides):
            return False
        try:
            return bool(ratings.rate(row.id, pool, (sides[0], sides[1]), row.winner))
        except FAILURES:  # tried again at the next start-up
            log.exception("could not rate game %s", row.id)
            return False

    def started(self, game: Game) -> None:
        """Count a rated game between two accounts that has started (both seats taken)."""
        first, second = game.users
        if self.rated_play is None or first is None or second is None or game.bot_seat is not None:
            return
        try:
            self.rated_play.started(game.id, (first, second), game.addresses)
        except FAILURES:  # the count is not worth a failed game
            log.exception("could not count the rated game %s", game.id)

    def count_abort(self, game: Game, seat: int) -> None:
        """``seat`` called off the rated ``game`` before its first trick was complete (or
        resigned, ran out of time, left then): counted against his abort budget."""
        user = game.users[seat]
        if self.rated_play is None or user is None or seat == game.bot_seat:
            return
        try:
            until = self.rated_play.aborted(game.id, user)
        except FAILURES:  # the budget is not worth a failed game
            log.exception("could not count the abort of game %s", game.id)
            return
        if until is not None:
            log.info("game %s: account %d barred from rated play for %.0f s (aborts)", game.id, user,
                     until - self.now())
