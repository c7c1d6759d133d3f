"""A match between a person and a computer player, advanced step by step: the game loop
the terminal game and the plain-text ``play`` share (:class:`PlaySession`), and the
events it reports, values each front end renders in its own way.

The session never shows the person anything but his own view (R11); the computer
player is given only its own. It lives in the core's upper layer, below every front
end: ``sixtysix.cli.play`` and ``sixtysix.tui`` both build on it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from sixtysix.errors import BotError, IllegalActionError, InvalidRecordError
from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import Card
from sixtysix.game.deck import random_deck
from sixtysix.game.hand import Hand
from sixtysix.game.match import Match, MatchInfo
from sixtysix.game.player import Bot
from sixtysix.game.record import MatchRecord, MatchReplay, record_from_match, replay
from sixtysix.game.result import HandResult
from sixtysix.game.table import Forfeited, Table
from sixtysix.game.views import View
from sixtysix.rules import Rules

__all__ = ["Acted", "BotError", "HandOver", "HandStarted", "MatchOver", "MatchStarted", "PlayEvent",
           "PlaySession", "UndoError"]


# Events: what the human may learn, as it happens ------------------------------------

@dataclass(frozen=True)
class MatchStarted:
    """The cut for the first deal (R2.1) decided who deals first."""

    first_dealer: int
    cuts: tuple[tuple[Card, Card], ...]
    seed: int | None


@dataclass(frozen=True)
class HandStarted:
    """A new hand is dealt (numbered from 1)."""

    number: int
    #: The human's view of the fresh deal.
    view: View


@dataclass(frozen=True)
class Acted:
    """``seat`` took ``action``; ``before`` and ``after`` are the human's views around it."""

    seat: int
    action: Action
    before: View
    after: View


@dataclass(frozen=True)
class HandOver:
    """A hand ended; ``score`` and ``pending_bonus`` are the match's after it."""

    number: int
    #: The result, with the tie bonus it collected (R9.2).
    result: HandResult
    #: The final action and its seat.
    last: tuple[int, Action] | None
    score: tuple[int, int]
    pending_bonus: int
    #: The human's view of the finished hand.
    view: View


@dataclass(frozen=True)
class MatchOver:
    """Someone reached the target (R9.3)."""

    winner: int | None
    score: tuple[int, int]


PlayEvent = MatchStarted | HandStarted | Acted | HandOver | MatchOver


class PlaySession:
    """A match between a person (``human_seat``) and a bot, advanced step by step.

    :meth:`start` and :meth:`play` return the events since the last call and
    stop whenever the human is to act (then :attr:`view` is the human's view)
    or the match is over. The session never shows the human anything but his
    own view; the bot is given only its own. The match itself (with the
    hidden cards) stays inside: front ends use :attr:`view`, :meth:`info`,
    :attr:`score` and the events.
    """

    def __init__(self, opponent: Bot, *, rules: Rules | None = None, human_seat: int = 0,
                 seed: int | None = None) -> None:
        if human_seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {human_seat!r}")
        self.opponent = opponent
        self.human_seat = human_seat
        self.bot_seat = 1 - human_seat
        self.seed = seed
        self._match = Match(rules if rules is not None else Rules(), seed=seed)
        players: list[Bot | None] = [None, None]
        players[self.bot_seat] = opponent
        self._table = Table(players)
        self._started = False
        self._finished = False
        #: How many times the human took an action back (:meth:`undo`).
        self.undos = 0

    @classmethod
    def resume(cls, record: MatchRecord, opponent: Bot, *, human_seat: int = 0) -> PlaySession:
        """The session of an unfinished match, from its record: the hands are replayed
        (every action checked), the computer is told the hand in play afresh, and the
        next deals come from the record's seed as if the match had never stopped.
        Raises :class:`InvalidRecordError` for a bad record or a finished match.

        >>> from sixtysix.bots import RandomBot
        >>> first = PlaySession(RandomBot(seed=1), seed=7)
        >>> _ = first.start()
        >>> again = PlaySession.resume(first.record(), RandomBot(seed=1))
        >>> again.view == first.view and again.score == first.score
        True
        """
        played = replay(record)
        if not isinstance(played, MatchReplay) or played.finished:
            raise InvalidRecordError("the match of this record is over: there is nothing to continue")
        seed = record.extra.get("seed")
        seed = seed if isinstance(seed, int) and not isinstance(seed, bool) else None
        session = cls(opponent, rules=record.rules, human_seat=human_seat, seed=seed)
        match = played.match
        # The deals to come: the seed's stream, past the cut and the deals already made.
        fresh = session._match
        for _hand in match.hands:
            random_deck(fresh.rng, match.rules.deck)
        match.seed, match.rng = seed, fresh.rng if seed is not None else random.Random()
        if fresh.first_dealer == match.first_dealer:
            match.cuts = fresh.cuts
        session._match = match
        session._started = True
        hand = match.hand
        if hand is not None and not hand.is_over():
            session._table.resume(hand)
            session._table.retell(session.bot_seat)
        return session

    # Queries ---------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self._match.rules

    @property
    def score(self) -> tuple[int, int]:
        """Game points of each seat so far."""
        return self._match.score

    @property
    def hand_number(self) -> int:
        return len(self._match.hands)

    @property
    def over(self) -> bool:
        return self._match.is_over()

    @property
    def waiting(self) -> bool:
        """Whether the human is to act."""
        hand = self._match.hand
        return hand is not None and not hand.is_over() and hand.to_act == self.human_seat

    @property
    def view(self) -> View | None:
        """The human's view of the current hand, or ``None`` before the first deal."""
        hand = self._match.hand
        return None if hand is None else hand.view(self.human_seat)

    def info(self) -> MatchInfo:
        """The public match state for the screen."""
        return MatchInfo(self.hand_number, self._match.score, self.rules.target,
                         self._match.pending_bonus)

    def at_stake(self, action: Action) -> int | None:
        """What ``action`` of the human's may cost at once, as the kernel scores it: for a
        declaration of 66 that would be false, the game points the opponent scores (R8.3,
        or R6.4 for the closer); for closing, those the opponent scores should the close
        fail (R6.4); else ``None``. Front ends ask before such an action.

        >>> from sixtysix.bots import RandomBot
        >>> session = PlaySession(RandomBot(seed=1), seed=0)
        >>> _ = session.start()
        >>> session.at_stake(Action.parse("C"))  # closing before the opponent has a trick
        3
        """
        hand = self._match.hand
        view = self.view
        if hand is None or view is None or not self.waiting or action not in view.legal:
            return None
        if action.kind is not ActionKind.CLOSE and not action.is_declaration:
            return None
        after = hand.kernel.copy()
        after.push(action.code)
        if action.kind is ActionKind.CLOSE:
            return after.failed_close_points()
        return after.game_points if after.winner != self.human_seat else None

    # Driving the game -------------------------------------------------------------
    def start(self) -> list[PlayEvent]:
        """Begin the match: the cut, the first deal and the computer's moves up to the human's turn."""
        if self._started:
            return self.advance()
        self._started = True
        events: list[PlayEvent] = [MatchStarted(self._match.first_dealer, tuple(self._match.cuts), self.seed)]
        return events + self.advance()

    def play(self, action: Action) -> list[PlayEvent]:
        """The human takes ``action`` (raises :class:`IllegalActionError` if it is not legal)."""
        hand = self._match.hand
        if hand is None or not self.waiting:
            raise IllegalActionError(action, (), "it is not your turn")
        # An illegal action raises in Hand.push, naming the legal ones, and changes nothing.
        return self._apply(hand, self.human_seat, action) + self.advance()

    def advance(self) -> list[PlayEvent]:
        """Deal and let the computer act until the human is to act or the match is over."""
        events: list[PlayEvent] = []
        table = self._table
        while True:
            if self._match.is_over():
                if not self._finished:
                    self._finished = True
                    table.match_over(self._match.score)
                    events.append(MatchOver(self._match.winner, self._match.score))
                return events
            hand = self._match.hand
            if hand is None or hand.is_over():
                hand = self._match.deal()
                table.start(hand)
                events.append(HandStarted(self.hand_number, hand.view(self.human_seat)))
            if hand.to_act == self.human_seat:
                return events
            before = hand.view(self.human_seat)
            done = table.step()  # a choice outside the legal ones raises BotError
            if isinstance(done, Forfeited):  # an external engine failed: it loses the hand
                events.append(HandOver(self.hand_number, self._match.results()[-1], None,
                                       self._match.score, self._match.pending_bonus,
                                       hand.view(self.human_seat)))
                continue
            events.extend(self._acted(hand, done.seat, done.action, before))

    @property
    def can_undo(self) -> bool:
        """Whether :meth:`undo` can take something back: the human is to act and
        has acted in the current hand."""
        hand = self._match.hand
        return self.waiting and hand is not None and self.human_seat in hand.actors()

    def undo(self) -> View:
        """Take back the human's last action in the current hand, and the computer's
        actions after it; returns the human's view, his turn again.

        Only the hand being played can be taken back. The computer is told the
        hand afresh (``new_hand`` and one ``observe`` per action kept), so that
        what it remembers matches the hand again. Raises :class:`UndoError`
        when there is nothing to take back.
        """
        hand = self._match.hand
        if hand is None or not self.can_undo:
            raise UndoError("there is nothing of yours to take back in this hand")
        actors = hand.actors()
        last = max(i for i, seat in enumerate(actors) if seat == self.human_seat)
        while len(hand.actions) > last:
            hand.pop()
        self._table.retell()
        self.undos += 1
        view = hand.view(self.human_seat)
        assert self.waiting
        return view

    def _apply(self, hand: Hand, seat: int, action: Action) -> list[PlayEvent]:
        before = hand.view(self.human_seat)
        self._table.play(action)
        return self._acted(hand, seat, action, before)

    def _acted(self, hand: Hand, seat: int, action: Action, before: View) -> list[PlayEvent]:
        after = hand.view(self.human_seat)
        events: list[PlayEvent] = [Acted(seat, action, before, after)]
        if hand.is_over():
            result = self._match.results()[-1]
            events.append(HandOver(self.hand_number, result, (seat, action),
                                   self._match.score, self._match.pending_bonus, after))
        return events

    def record(self, *, finished_only: bool = False, **extra: Any) -> MatchRecord:
        """The game record of the match so far (docs/design.md §4); it may be unfinished.

        With ``finished_only`` a hand in progress is left out: its deck would
        tell the stock order and the computer's cards to anyone reading the file.
        """
        record = record_from_match(self._match, **extra)
        hand = self._match.hand
        if finished_only and hand is not None and not hand.is_over():
            record.hands = record.hands[:-1]
        return record


class UndoError(ValueError):
    """There is no action of the human's to take back."""


# The line front end ----------------------------------------------------------------
