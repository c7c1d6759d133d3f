"""Offers between the players of a game: a rematch, a takeback (unrated games without a
clock), calling the match off. One player offers, the other accepts (by asking the same)
or declines, within :data:`OFFER_TIMEOUT` seconds, as on lichess; the computer accepts
at once. An offer of a takeback or to call off lapses when the game moves on."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtysix.server.errors import GameError, Reason
from sixtysix.server.messages import DeclinedMessage, OfferInfo
from sixtysix.server.rematch import Rematches
from sixtysix.server.service import GameService
from sixtysix.server.status import GameKind, GameStatus, Offer

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["OFFER_TIMEOUT", "Offers", "offers_json"]

#: Seconds an offer waits for the other player's answer.
OFFER_TIMEOUT = 60.0


def offers_json(game: Game, at: float) -> dict[str, OfferInfo]:
    """The offers waiting in ``game`` at ``at``, as a client shows them (lapsed ones left out)."""
    return {str(offer): OfferInfo(seat=seat, expires_in=round(until - at, 1))
            for offer, (seat, until) in sorted(game.offers.items()) if until > at}


class Offers:
    """Offers made and answered; what an accepted offer does is the ``service``'s (a
    takeback, calling off) or the ``rematches``'."""

    def __init__(self, service: GameService, rematches: Rematches, now: Callable[[], float], *,
                 timeout: float = OFFER_TIMEOUT) -> None:
        self.service = service
        self.rematches = rematches
        self.now = now
        self.timeout = timeout

    def ask(self, game: Game, seat: int, offer: Offer, *, hand_number: int | None = None,
            index: int | None = None) -> None:
        """``seat`` offers ``offer``, or accepts the other player's same offer. Against the
        computer (which accepts at once), or when nobody else is at the table yet (calling
        off a game still waiting), it is done at once."""
        alone = game.bot_seat is not None or game.status is GameStatus.WAITING
        if alone or (offer is Offer.REMATCH and game.rematch is not None):
            self._grant(game, seat, offer, hand_number, index)
            return
        waiting = self.pending(game, offer)
        # Checked for the one who offered: a takeback accepted is of the other's actions.
        self._check(game, seat if waiting is None else waiting, offer)
        if waiting == 1 - seat:
            del game.offers[offer]
            self._grant(game, waiting, offer, None, None)
        elif waiting is None:
            game.offers[offer] = (seat, self.now() + self.timeout)
            game.broadcast()

    def decline(self, game: Game, seat: int, offer: Offer) -> None:
        """``seat`` says no to the other player's offer, or takes back its own: both told."""
        if self.pending(game, offer) is None:
            raise GameError(Reason.NO_OFFER, offer=offer)
        del game.offers[offer]
        declined = DeclinedMessage(type="declined", offer=str(offer), seat=seat)
        for conn in game.connections:
            conn.push(declined)
        game.broadcast()

    def pending(self, game: Game, offer: Offer) -> int | None:
        """The seat whose ``offer`` waits for an answer (a lapsed one is forgotten)."""
        found = game.offers.get(offer)
        if found is None:
            return None
        if found[1] <= self.now():
            del game.offers[offer]
            return None
        return found[0]

    @staticmethod
    def moved_on(game: Game) -> None:
        """The game moved on: an offer of a takeback or to call off is for a position gone."""
        game.offers.pop(Offer.TAKEBACK, None)
        game.offers.pop(Offer.ABORT, None)

    def _check(self, game: Game, seat: int, offer: Offer) -> None:
        """Refuse an offer that could not be done now (nothing is offered then)."""
        if offer is Offer.REMATCH:
            if not game.over or game.status is GameStatus.ABORTED:
                raise GameError(Reason.NOT_OVER)
        elif offer is Offer.ABORT:
            if not game.abortable:
                raise GameError(Reason.NOT_ABORTABLE)
        else:
            check_takeback(game, seat)

    def _grant(self, game: Game, seat: int, offer: Offer, hand_number: int | None, index: int | None) -> None:
        """Do what ``seat`` offered (accepted, or against the computer)."""
        if offer is Offer.REMATCH:
            self.rematches.make(game, seat)
        elif offer is Offer.ABORT:
            self.service.abort(game, seat)
        else:
            # Between people the other player agreed: the asking player's last action goes,
            # and the other's after it, whoever is to act now.
            agreed = game.bot_seat is None
            self.service.take_back(game, seat, hand_number=None if agreed else hand_number,
                                   index=None if agreed else index, agreed=agreed)
            self.moved_on(game)


def check_takeback(game: Game, seat: int) -> None:
    """Refuse a takeback between people that cannot be: a rated match, one with a clock,
    a hand over, nothing of ``seat``'s in the hand."""
    hand = game.hand
    if game.kind is not GameKind.PERSON or game.rated or game.clock is not None:
        raise GameError(Reason.NO_TAKEBACK)
    if game.status is not GameStatus.PLAYING or hand is None or hand.is_over():
        raise GameError(Reason.OVER)
    if seat not in hand.actors():
        raise GameError(Reason.NOTHING_TO_TAKE_BACK)
