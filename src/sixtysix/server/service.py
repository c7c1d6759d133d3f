"""The game service: what players do to a game and what time decides, applied the same
way for all of them. Synchronous, on the event loop between two awaits: each change is
checked (the rules by the engine, :meth:`sixtysix.game.hand.Hand.push`; the rest here),
stored, then applied, and a change that cannot be stored changes nothing.

An action, a resignation, a takeback, a challenge declined, a match called off, a
clock run out or a player gone too long: each ends here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtysix.errors import IllegalActionError
from sixtysix.game.actions import Action
from sixtysix.game.player import Event
from sixtysix.play.clock import Clock, Kind
from sixtysix.server.clocks import ClockScheduler
from sixtysix.server.computers import ComputerPlayers
from sixtysix.server.errors import GameError, IllegalError, Reason
from sixtysix.server.notices import Notices
from sixtysix.server.rating_desk import RatingDesk
from sixtysix.server.serving import Serving
from sixtysix.server.status import Ending, GameStatus
from sixtysix.server.storage import FAILURES, Storage
from sixtysix.server.storage import now as storage_now

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["SHORT", "GameService"]

log = logging.getLogger("sixtysix.server")

#: Why a match made rated was not rated: it ended before both players had acted (before
#: its first trick was complete), as on lichess.
SHORT = "short"


class GameService:
    """Changes to the games: stored in ``storage``, only for the games this process
    serves (``serving``). ``wake`` is called with a game that time changed (set by the
    game manager: the computer may be to act)."""

    def __init__(self, storage: Storage, serving: Serving, clocks: ClockScheduler, ratings: RatingDesk,
                 computers: ComputerPlayers, notices: Notices) -> None:
        self.storage = storage
        self.serving = serving
        self.clocks = clocks
        self.ratings = ratings
        self.computers = computers
        self.notices = notices
        self.now = clocks.now
        self.wake: Callable[[Game], object] = lambda game: None
        #: Rates a match that ended by the rules (the game manager's, looked up at each end).
        self.rate: Callable[[Game], None] = ratings.rate

    def deal(self, game: Game, score: tuple[int, int] | None = None) -> None:
        """Deal the next hand and store it (with ``score``, the match's score after the
        hands before, in the same transaction)."""
        hand = game.match.deal()
        number = len(game.match.hands)
        self.storage.add_hand(game.id, number, " ".join(str(c) for c in hand.deck), hand.dealer, score)
        game.table.start(hand)

    # Acting ------------------------------------------------------------------------
    def act(self, game: Game, seat: int, action: Action, *, hand_number: int | None = None,
            index: int | None = None) -> None:
        """``seat`` takes ``action``: checked, applied, stored, broadcast."""
        hand = game.hand
        if game.status is GameStatus.WAITING:
            raise GameError(Reason.NOT_STARTED)
        if game.status is GameStatus.ABANDONED:
            raise GameError(Reason.ABANDONED)
        if hand is None or game.over or game.status is not GameStatus.PLAYING:
            raise GameError(Reason.OVER)
        if (hand_number is not None and hand_number != len(game.match.hands)) or \
                (index is not None and index != len(hand.actions)):
            raise GameError(Reason.STALE)
        if hand.to_act != seat:
            raise GameError(Reason.NOT_YOUR_TURN)
        self.apply(game, seat, action)
        game.broadcast()

    def apply(self, game: Game, seat: int, action: Action) -> None:
        """Play ``action`` at the table: checked by the engine, stored, then every player told."""
        hand = game.hand
        assert hand is not None
        self.serving.check(game)
        number, index = len(game.match.hands), len(hand.actions)
        at = self.now()
        clock: Clock | None = None
        if game.clock is not None:
            if game.clock.flagged(at) is not None:
                self.check_time(game, at)  # too late: the clock's rule applies, not the action
                raise GameError(Reason.TIME)
            clock = game.clock.copy()
            if clock.running is not None:
                clock.stop(at)

        def store(_: Event) -> None:
            # The clock as the action leaves it (the next seat's running) goes with it.
            if clock is not None:
                self.clocks.start_clock(game, clock, at)
            if clock is None:
                self.storage.add_action(game.id, number, index, str(action))
            else:
                self.storage.add_action(game.id, number, index, str(action), clock_state=clock.to_json())

        try:
            game.table.play(action, commit=store)
        except IllegalActionError as exc:
            raise IllegalError(exc) from None
        except FAILURES:
            log.exception("could not store an action of game %s", game.id)
            raise GameError(Reason.SAVE_FAILED) from None
        if clock is not None:
            game.clock = clock
        game.last_action_at = storage_now()
        game.offers.clear()  # a takeback or calling off was offered for a position gone
        if hand.is_over():
            self._hand_over(game)

    def forfeit(self, game: Game, seat: int) -> bool:
        """``seat`` (the computer, whose program failed, or a player whose move clock ran
        out) loses the hand in play by forfeit: stored, applied, the next hand dealt.
        Returns whether it could be stored."""
        hand = game.hand
        assert hand is not None and not hand.is_over()
        if not self.serving.serves(game.id):
            return False
        try:
            self.storage.add_forfeit(game.id, len(game.match.hands), seat,
                                     clock_state=None if game.clock is None else game.clock.to_json())
        except FAILURES:
            log.exception("could not store a forfeit of game %s", game.id)
            return False
        game.table.forfeit(seat)
        self._hand_over(game)
        return True

    def _hand_over(self, game: Game) -> None:
        """After the last action (or a forfeit) of a hand: the score stored, then the next
        deal or the end of the match (the computer player is told it and closed)."""
        score = game.score
        if not game.over:
            self.deal(game, score)
            self.clocks.run_clock(game, self.now())
            self.notices.lobby_changed(game)
            return
        game.status = GameStatus.FINISHED
        clock = game.clock
        if clock is not None and clock.running is not None:
            clock.stop(self.now())
        self.storage.finish_game(game.id, game.match.winner, score, (game.names[0], game.names[1]),
                                 clock_state=None if clock is None else clock.to_json())
        game.table.match_over(game.match.score)
        self.computers.close(game)
        game.away.clear()
        self.rate(game)
        self.notices.finished(game)

    def take_back(self, game: Game, seat: int, *, hand_number: int | None = None,
                  index: int | None = None, agreed: bool = False) -> None:
        """``seat`` takes back its last action of the hand being played, and the computer's
        actions after it (a game against the computer that allows takebacks): forgotten
        by the database, the hand and the computer player alike, and counted in the record.
        Only the hand being played; only when it is the player's turn (the computer is not
        thinking). ``agreed``: a game between people whose other player accepted the
        takeback (sixtysix.server.offers), whoever is to act."""
        hand = game.hand
        if not game.takeback and not agreed:
            raise GameError(Reason.NO_TAKEBACK)
        if game.status is not GameStatus.PLAYING or hand is None or hand.is_over():
            raise GameError(Reason.OVER)
        if (hand_number is not None and hand_number != len(game.match.hands)) or \
                (index is not None and index != len(hand.actions)):
            raise GameError(Reason.STALE)
        if hand.to_act != seat and not agreed:
            raise GameError(Reason.NOT_YOUR_TURN)
        actors = hand.actors()
        if seat not in actors:
            raise GameError(Reason.NOTHING_TO_TAKE_BACK)
        keep = max(i for i, who in enumerate(actors) if who == seat)
        self.serving.check(game)
        try:
            self.storage.take_back(game.id, len(game.match.hands), keep)
        except FAILURES:
            log.exception("could not store a takeback of game %s", game.id)
            raise GameError(Reason.SAVE_FAILED) from None
        while len(hand.actions) > keep:
            hand.pop()
        game.taken_back += 1
        game.last_action_at = storage_now()
        if game.player is not None:
            game.table.retell(game.player.seat)
        game.broadcast()

    # Ending ------------------------------------------------------------------------
    def end(self, game: Game, ended: Ending, *, loser: int, at: float) -> None:
        """The match ends as ``ended`` says: ``loser`` loses it, or nobody wins if it was
        called off. Stored, then the computer player is closed."""
        self.serving.check(game)
        winner = None if ended is Ending.ABORTED else 1 - loser
        # Before both players acted: a rated match is not rated (lichess's rule), and it
        # counts against the abort budget of the player who ended it.
        game.ended_early = game.status is GameStatus.PLAYING and game.abortable
        early = game.rated and game.ended_early
        unrated = SHORT if early and ended is not Ending.ABORTED else None
        clock = game.clock
        if clock is not None and clock.running is not None:
            clock.stop(at)
        self.storage.finish_game(game.id, winner, game.score, (game.names[0], game.names[1]),
                                 ended=ended, clock_state=None if clock is None else clock.to_json(),
                                 unrated=unrated)
        game.finish(ended, winner)
        if unrated is not None:
            game.rated, game.unrated = False, unrated
        if early:
            self.ratings.count_abort(game, loser)
        if ended is not Ending.ABORTED:
            self.rate(game)
        self.notices.finished(game)
        game.away.clear()
        self.computers.stop(game)
        self.clocks.schedule(game)

    def resign(self, game: Game, seat: int) -> None:
        """``seat`` gives up the match: the opponent wins it (the score stays as it is)."""
        if game.status is not GameStatus.PLAYING or game.over:
            raise GameError(Reason.NOT_PLAYING)
        self.end(game, Ending.RESIGNED, loser=seat, at=self.now())
        game.broadcast()

    def decline(self, game: Game, user_id: int) -> None:
        """The player challenged says no, or the challenger takes the challenge back: the
        game is called off."""
        if game.invited is None or game.status is not GameStatus.WAITING:
            raise GameError(Reason.NO_CHALLENGE)
        if user_id not in (game.invited, game.users[0]):
            raise GameError(Reason.NOT_YOUR_CHALLENGE)
        self.end(game, Ending.ABORTED, loser=0, at=self.now())
        game.broadcast()

    def abort(self, game: Game, seat: int) -> None:
        """Call the match off (before its first trick is complete): nobody wins."""
        if not game.abortable:
            raise GameError(Reason.NOT_ABORTABLE)
        self.end(game, Ending.ABORTED, loser=seat, at=self.now())
        game.broadcast()

    # Time --------------------------------------------------------------------------
    def check_time(self, game: Game, at: float | None = None) -> bool:
        """Apply what time decided by ``at`` (now): a player whose clock ran out loses the
        match (a match clock) or the hand (a move clock); a player away past the grace
        period while the opponent is at the table loses the match; either before the first
        trick is complete calls the match off instead. Returns whether the game changed."""
        at = self.now() if at is None else at
        if not self.serving.serves(game.id):
            return False
        changed = self._clock_fell(game, at)
        changed = self._away_too_long(game, at) or changed
        if changed:
            game.broadcast()
            self.wake(game)
        self.clocks.schedule(game)
        return changed

    def _clock_fell(self, game: Game, at: float) -> bool:
        if game.status is not GameStatus.PLAYING or game.over or game.clock is None:
            return False
        seat = game.clock.flagged(at)
        if seat is None:
            return False
        self._out_of_time(game, seat, at)
        return True

    def _away_too_long(self, game: Game, at: float) -> bool:
        if game.status is not GameStatus.PLAYING or game.over:
            return False
        present = game.present()
        for seat, until in sorted(game.away.items()):
            if at >= until and 1 - seat in present:
                log.info("game %s: seat %d did not come back in time", game.id, seat)
                self.end(game, Ending.ABORTED if game.abortable else Ending.LEFT, loser=seat, at=at)
                return True
        return False

    def _out_of_time(self, game: Game, seat: int, at: float) -> None:
        clock = game.clock
        assert clock is not None
        log.info("game %s: seat %d ran out of time (%s)", game.id, seat, clock.control)
        if game.abortable:
            self.end(game, Ending.ABORTED, loser=seat, at=at)
        elif clock.control.kind is Kind.MATCH:
            self.end(game, Ending.TIME, loser=seat, at=at)
        else:
            # A move clock: the hand is lost by forfeit (3 game points to the opponent, as
            # for a failed program) and the match goes on.
            clock.stop(at)
            clock.left[seat] = clock.control.seconds
            if not self.forfeit(game, seat):
                raise GameError(Reason.SAVE_FAILED)
