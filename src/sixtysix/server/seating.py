"""Games made and seats taken: a new game with its creator in seat 0 (against the
computer, or waiting for a person), a rematch with the same players, and the free seat
of a game between people taken. Each is checked against the limits of games starting
(sixtysix.server.gate) before anything is stored."""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sixtysix.game.match import Match
from sixtysix.play.clock import Clock, TimeControl
from sixtysix.rules import Rules
from sixtysix.server.clocks import ClockScheduler
from sixtysix.server.errors import GameError, Reason
from sixtysix.server.fairplay import Starter
from sixtysix.server.gate import Gate
from sixtysix.server.notices import Notices
from sixtysix.server.opponents import DEFAULT_LEVEL, Opponents
from sixtysix.server.rating_desk import RatingDesk
from sixtysix.server.service import GameService
from sixtysix.server.serving import Serving
from sixtysix.server.shard_host import ShardHost
from sixtysix.server.status import GameKind, GameStatus

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["Seating", "clean_name", "game_kind", "hash_token"]

#: An account holding a seat: its id and name.
Account = tuple[int, str]


def hash_token(token: str) -> str:
    """What is stored of a seat's token: its SHA-256 (a leaked database holds no usable token)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def clean_name(name: object) -> str:
    """A guest's name as shown: printable, its spaces single, at most 40 characters.

    >>> clean_name("  Anna\\u0007  Maria "), clean_name(None)
    ('Anna Maria', '')
    """
    if not isinstance(name, str):
        return ""
    return " ".join("".join(ch for ch in name if ch.isprintable()).split())[:40]


def game_kind(kind: object) -> GameKind:
    """The kind of game a request names; another word is refused (``bad_kind``).

    >>> game_kind("person")
    <GameKind.PERSON: 'person'>
    """
    if isinstance(kind, str) and kind in set(GameKind):
        return GameKind(kind)
    raise GameError(Reason.BAD_KIND, kinds=", ".join(GameKind))


@dataclass(frozen=True)
class Terms:
    """What a new game is played under, once checked."""

    kind: GameKind
    level: str | None
    takeback: bool
    clock: TimeControl | None
    rated: bool
    users: tuple[int | None, int | None]


class Seating:
    """Makes games and seats players; ``game_type`` makes a live game (given by the live
    games' module, sixtysix.server.games, which assembles this one)."""

    def __init__(self, host: ShardHost, service: GameService, gate: Gate, ratings: RatingDesk,
                 clocks: ClockScheduler, notices: Notices, opponents: Opponents, *, rng: random.Random,
                 game_type: type[Game]) -> None:
        self.host = host
        self.serving: Serving = host.serving
        self.storage = host.storage
        self.service = service
        self.gate = gate
        self.ratings = ratings
        self.clocks = clocks
        self.notices = notices
        self.opponents = opponents
        #: Deals come from the operating system's generator: nobody can predict a deck.
        self.rng = rng
        self.game_type = game_type

    def create(self, *, rules: Rules, kind: GameKind | str, level: str | None = None, name: str = "",
               rematch_of: Game | None = None, creator: str | None = None, takeback: bool = False,
               clock: TimeControl | None = None, user: Account | None = None, rated: bool = False,
               invited: Account | None = None, counted: bool = False) -> tuple[Game, str]:
        """A new game with the creator in seat 0; returns it and the creator's token (see
        :meth:`sixtysix.server.games.GameManager.create`)."""
        if not self.serving.holds(self.serving.shard):
            raise GameError(Reason.STARTING)
        addresses, starters = _starters(creator, user, rematch_of)
        self.gate.admit(starters, rate=not counted)
        terms = self._terms(rules, game_kind(kind), level, takeback, clock, user, rated, rematch_of)
        if terms.rated:
            self.gate.check_rated_play(terms.users, addresses)
        invited = _invited(terms.kind, user, invited, rematch_of)
        token = new_token()
        names = (user[1] if user is not None else clean_name(name) or "Player 1",
                 f"Computer ({terms.level})" if terms.kind is GameKind.COMPUTER
                 else "" if invited is None else invited[1])
        tokens: tuple[str | None, str | None] = (hash_token(token), None)
        if rematch_of is not None:
            names = (rematch_of.names[0], rematch_of.names[1])
            tokens = (rematch_of.tokens[0], rematch_of.tokens[1])
        game = self._open(rules, terms, names, tokens, addresses, None if invited is None else invited[0],
                          rematch_of)
        return game, token

    def _terms(self, rules: Rules, kind: GameKind, level: str | None, takeback: bool,
               clock: TimeControl | None, user: Account | None, rated: bool,
               rematch_of: Game | None) -> Terms:
        """The new game's kind, opponent, takebacks, clock and rating, checked (a rematch's
        as its match's were)."""
        if kind is GameKind.COMPUTER:
            level = level or DEFAULT_LEVEL
            if level not in self.opponents:
                raise GameError(Reason.BAD_LEVEL, level=str(level), levels=", ".join(self.opponents.names))
        else:
            level = None
            if takeback:
                raise GameError(Reason.TAKEBACK_COMPUTER_ONLY)
        if rematch_of is not None:
            takeback = rematch_of.takeback
            clock = None if rematch_of.clock is None else rematch_of.clock.control
        if takeback and clock is not None:
            raise GameError(Reason.TAKEBACK_CLOCK)
        users: tuple[int | None, int | None] = (None if user is None else user[0], None)
        if rematch_of is not None:
            # Made rated as the match it follows was (rated or, ended too soon, not rated after all).
            rated = rematch_of.rated or rematch_of.unrated is not None
            users = (rematch_of.users[0], rematch_of.users[1])
        elif rated:
            self.gate.check_rated(rules, kind, level, user, takeback)
        return Terms(kind, level, takeback, clock, rated, users)

    def _open(self, rules: Rules, terms: Terms, names: tuple[str, str], tokens: tuple[str | None, str | None],
              addresses: tuple[str | None, str | None], invited: int | None, rematch_of: Game | None) -> Game:
        """The new game stored, in memory, dealt, its clock running, the lobby told."""
        game_id = self.serving.prefix + secrets.token_urlsafe(9)
        match = Match(rules, rng=self.rng)
        seated = terms.kind is GameKind.COMPUTER or tokens[1] is not None
        status = GameStatus.PLAYING if seated else GameStatus.WAITING
        clock = None if terms.clock is None else Clock(terms.clock)
        game = self.game_type(game_id, rules=rules, kind=terms.kind, level=terms.level, match=match,
                              tokens=tokens, names=names, status=status, takeback=terms.takeback, clock=clock,
                              now=self.clocks.now, users=terms.users, rated=terms.rated, invited=invited,
                              addresses=addresses)
        self.storage.create_game(game_id, rules=rules.to_json(), kind=terms.kind, level=terms.level,
                                 first_dealer=match.first_dealer, tokens=tokens, names=names, status=status,
                                 rematch_of=None if rematch_of is None else rematch_of.id,
                                 creator=addresses[0], takeback=terms.takeback,
                                 clock=None if terms.clock is None else str(terms.clock),
                                 clock_state=None if clock is None else clock.to_json(), users=terms.users,
                                 rated=terms.rated, invited=invited, joiner=addresses[1])
        self.host.games[game_id] = game
        if terms.rated and status is GameStatus.PLAYING:
            self.ratings.started(game)
        self.ratings.note(game)
        self.service.deal(game)
        self.clocks.run_clock(game, self.clocks.now())
        self.notices.lobby_changed(game)
        return game

    def join(self, game_id: str, name: str = "", user: Account | None = None, address: str | None = None, *,
             counted: bool = False) -> tuple[Game, int, str]:
        """Take the free seat of a game against a person; returns the seat and its token
        (see :meth:`sixtysix.server.games.GameManager.join`)."""
        game = self.host.get(game_id)
        self.serving.check(game)
        self._check_seat(game, user)
        self.gate.admit([Starter(address, None if user is None else user[0])], rate=not counted)
        if game.rated:
            self.gate.check_rated_play((game.users[0], None if user is None else user[0]),
                                       (game.addresses[0], address), mine=1)
        token = new_token()
        digest = hash_token(token)
        shown = user[1] if user is not None else clean_name(name) or "Player 2"
        at = self.clocks.now()
        clock = None
        if game.clock is not None:
            clock = game.clock.copy()  # starts now that both are seated
            self.clocks.start_clock(game, clock, at)
        # Stored first: a failure changes nothing.
        self.storage.take_seat(game.id, 1, digest, shown, GameStatus.PLAYING,
                               clock_state=None if clock is None else clock.to_json(),
                               user=None if user is None else user[0], address=address)
        game.seat(1, digest, shown, None if user is None else user[0], address)
        if game.rated:
            self.ratings.started(game)
        self.ratings.note(game)
        game.status = GameStatus.PLAYING
        game.clock = clock
        self.clocks.update_away(game, at)
        game.broadcast()
        self.clocks.schedule(game)
        self.notices.lobby_changed(game)
        return game, 1, token

    @staticmethod
    def _check_seat(game: Game, user: Account | None) -> None:
        if game.kind is not GameKind.PERSON or game.tokens[1] is not None or \
                game.status is not GameStatus.WAITING:
            raise GameError(Reason.NO_SEAT)
        if game.invited is not None and (user is None or user[0] != game.invited):
            raise GameError(Reason.NOT_INVITED)
        if game.rated and user is None:
            raise GameError(Reason.RATED_SEAT_NEEDS_ACCOUNT)
        if game.rated and user is not None and user[0] == game.users[0]:
            raise GameError(Reason.PLAY_YOURSELF)


def _starters(creator: str | None, user: Account | None,
              rematch_of: Game | None) -> tuple[tuple[str | None, str | None], list[Starter]]:
    """The client addresses that take the seats, and who starts the game (for a rematch:
    both players, the computer aside)."""
    if rematch_of is None:
        return (creator, None), [Starter(creator, None if user is None else user[0])]
    addresses = (rematch_of.addresses[0], rematch_of.addresses[1])
    return addresses, [Starter(addresses[seat], rematch_of.users[seat]) for seat in (0, 1)
                       if seat != rematch_of.bot_seat]


def _invited(kind: GameKind, user: Account | None, invited: Account | None,
             rematch_of: Game | None) -> Account | None:
    """The player challenged, checked (a rematch is no challenge)."""
    if rematch_of is not None or invited is None:
        return None
    if kind is not GameKind.PERSON:
        raise GameError(Reason.CHALLENGE_PEOPLE)
    if user is None:
        raise GameError(Reason.CHALLENGE_NEEDS_ACCOUNT)
    if invited[0] == user[0]:
        raise GameError(Reason.CHALLENGE_YOURSELF)
    return invited
