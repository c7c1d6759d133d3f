"""Who may start which game: the one limiter of games starting (every way they start),
the limits of rated play, and what a rated game needs. Each refusal is a
:class:`~sixtysix.server.errors.GameError` naming the limit."""

from __future__ import annotations

from sixtysix.rules import Rules
from sixtysix.server.errors import GameError, Reason
from sixtysix.server.fairplay import Admission, RatedPlay, Starter
from sixtysix.server.ratings import Ratings, pool_of
from sixtysix.server.status import GameKind

__all__ = ["Gate"]


class Gate:
    """The limits games start under (``admission``: ``None``, no limit), those of rated
    play (``rated_play``) and the ratings (``ratings``: ``None``, no game is rated)."""

    def __init__(self, admission: Admission | None, rated_play: RatedPlay | None,
                 ratings: Ratings | None) -> None:
        self.admission = admission
        self.rated_play = rated_play
        self.ratings = ratings

    def admit(self, starters: list[Starter], *, rate: bool = True) -> None:
        """Refuse a game one of ``starters`` may not start (sixtysix.server.fairplay), else
        count it against each of them (against the creation rate unless ``rate`` is false)."""
        if self.admission is None:
            return
        self._check(starters, rate)
        if rate:
            for starter in starters:
                self.admission.count(starter)

    def _check(self, starters: list[Starter], rate: bool) -> None:
        assert self.admission is not None
        for starter in starters:
            self.admission.check(starter, rate=rate)

    def check_start(self, starters: list[Starter], *, rated: bool = False, rate: bool = True) -> None:
        """Refuse, changing nothing, a game between the people ``starters`` (seat 0's first)
        that a game's making and joining would refuse for a limit: quick pairing and
        tournaments ask before they make the game and seat the second player."""
        if self.admission is not None:
            self._check(starters, rate)
        if rated and len(starters) == 2:
            self.check_rated_play((starters[0].user, starters[1].user),
                                  (starters[0].address, starters[1].address), mine=1)

    def check_rated_play(self, users: tuple[int | None, int | None],
                         addresses: tuple[str | None, str | None], mine: int = 0) -> None:
        """Refuse a rated game a player of it is barred from, or one over the day's limits
        for its two accounts or their addresses (:class:`RatedPlay`); ``mine``: the seat of
        the one asking."""
        rated_play = self.rated_play
        if rated_play is None:
            return
        for seat in sorted((0, 1), key=lambda seat: seat != mine):
            user = users[seat]
            if user is not None:
                rated_play.check_player(user, mine=seat == mine)
        first, second = users
        if first is not None and second is not None:
            rated_play.check_pair((first, second), addresses, mine)

    def check_rated(self, rules: Rules, kind: GameKind, level: str | None, user: tuple[int, str] | None,
                    takeback: bool) -> None:
        """Refuse a rated game that cannot be rated: no ratings here, no account, rules
        other than a preset's own, takebacks, a computer level with no rating."""
        if self.ratings is None:
            raise GameError(Reason.NOT_RATED)
        if user is None:
            raise GameError(Reason.RATED_NEEDS_ACCOUNT)
        if pool_of(rules) is None:
            raise GameError(Reason.RATED_PRESET)
        if takeback:
            raise GameError(Reason.TAKEBACK_RATED)
        levels = self.ratings.levels
        if kind is GameKind.COMPUTER and (level is None or level not in levels):
            rated = ", ".join(sorted(levels, key=lambda name: levels[name].rating))
            raise GameError(Reason.LEVEL_UNRATED, level=str(level), levels=rated)
