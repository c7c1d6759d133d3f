"""Games over HTTP: making one, taking its free seat, answering a challenge, and a
game's facts, record, replay and analysis board. A FastAPI router.

- ``POST /api/games`` ``{"kind": "computer"|"person", "level", "rules", "target", "name"}``:
  a new game; the answer holds its ``id``, the creator's seat ``token`` and the link to share.
- ``POST /api/games/{id}/join`` ``{"name"}``: take the free seat of a game against a person.
- ``POST /api/games/{id}/decline``: the player challenged says no, or the challenger
  takes the challenge back.
- ``GET /api/games/{id}``: a game's public facts.
- ``GET /api/games/{id}/record``: the record (docs/design.md §4) of a finished game.
- ``GET /api/games/{id}/replay``: every position of a finished game, cards face up.
- ``GET /api/games/{id}/analysis/{n}``: every action of hand ``n`` of a finished game rated.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from sixtysix.game.record import dumps
from sixtysix.server.account_api import ActingUser
from sixtysix.server.accounts import Accounts
from sixtysix.server.boards import frames
from sixtysix.server.depends import Analysed, Client, Manager, Served
from sixtysix.server.errors import GameError, Reason
from sixtysix.server.games import Game, GameManager, parse_clock, parse_rules
from sixtysix.server.messages import GameInfo, Seated

__all__ = ["JoinGame", "NewGame", "router"]

router = APIRouter(prefix="/api/games")


class NewGame(BaseModel):
    # Strict: ``true`` is not the target 1, nor ``"7"`` the number 7.
    model_config = ConfigDict(strict=True)

    kind: str = Field("computer", max_length=16)
    level: str | None = Field(None, max_length=32)
    rules: str = Field("classic", max_length=200)
    target: int | None = Field(None, ge=1, le=100)
    name: str = Field("", max_length=100)
    #: Against the computer: the player may take actions back (the record says so).
    takeback: bool = False
    #: A time control (``5+3``, ``20/move``: sixtysix.play.clock), or none.
    clock: str | None = Field(None, max_length=16)
    #: Whether the match counts for the ratings (needs an account: sixtysix.server.ratings).
    rated: bool = False
    #: A challenge: the name of the only player (an account) who may take the free seat.
    opponent: str | None = Field(None, max_length=64)


class JoinGame(BaseModel):
    model_config = ConfigDict(strict=True)

    name: str = Field("", max_length=100)


def seated(game: Game, seat: int, token: str) -> Seated:
    """The answer to a player who took a seat: its token, the link, the game's facts."""
    return Seated(id=game.id, seat=seat, token=token, link=f"/game/{game.id}", game=game.info())


# The answers are typed for this code's sake: FastAPI checks none of them again (response_model=None).
@router.post("", status_code=201, response_model=None)
async def create_game(body: NewGame, user: ActingUser, services: Served, client: Client) -> Seated:
    manager = services.manager
    invited = None if body.opponent is None else _invited(services.accounts, body.opponent)
    game, token = manager.create(rules=parse_rules(body.rules, body.target), kind=body.kind, level=body.level,
                                 name=body.name, creator=client, takeback=body.takeback,
                                 clock=parse_clock(body.clock), rated=body.rated,
                                 user=None if user is None else (user.id, user.name), invited=invited)
    manager.wake_bot(game)
    return seated(game, 0, token)


def _invited(accounts: Accounts, name: str) -> tuple[int, str]:
    found = accounts.user_by_name(name)
    if found is None:
        raise GameError(Reason.NO_PLAYER)
    return found.id, found.name


@router.post("/{game_id}/decline", response_model=None)
async def decline(game_id: str, user: ActingUser, manager: Manager) -> GameInfo:
    """The player challenged says no, or the challenger takes it back."""
    if user is None:
        raise GameError(Reason.ANSWER_NEEDS_LOGIN)
    game = manager.get(game_id)
    manager.decline(game, user.id)
    info = game.info()
    manager.release(game)
    return info


@router.post("/{game_id}/join", response_model=None)
async def join_game(game_id: str, body: JoinGame, user: ActingUser, manager: Manager,
                    client: Client) -> Seated:
    account = None if user is None else (user.id, user.name)
    game, seat, token = manager.join(game_id, body.name, user=account, address=client)
    answer = seated(game, seat, token)
    manager.release(game)
    return answer


@router.get("/{game_id}", response_model=None)
async def game_info(game_id: str, manager: Manager) -> GameInfo:
    game = manager.get(game_id)
    info = game.info()
    manager.release(game)  # kept in memory only while someone is connected
    return info


def finished(manager: GameManager, game_id: str) -> Game:
    """The finished game ``game_id`` (released at once: it changes no more); one not
    finished is refused, as its record would show the hidden cards of the hand in play."""
    game = manager.get(game_id)
    manager.release(game)
    if not game.over:
        raise GameError(Reason.NOT_FINISHED)
    return game


@router.get("/{game_id}/record")
async def game_record(game_id: str, manager: Manager) -> Response:
    game = finished(manager, game_id)
    return Response(dumps(game.record(), indent=2) + "\n", media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="sixtysix-{game.id}.json"'})


@router.get("/{game_id}/analysis/{number}")
async def game_analysis(game_id: str, number: int, manager: Manager, analyses: Analysed) -> dict[str, Any]:
    """The analysis board: every action of a finished hand rated (sixtysix.present.review.judge:
    the exact solver once the stock is small or closed, else the search from the actor's
    own view)."""
    game = finished(manager, game_id)
    if not 1 <= number <= len(game.match.hands):
        raise GameError(Reason.NO_HAND, number=number, hands=len(game.match.hands))
    return await analyses.of(game.id, number, game.match.hands[number - 1])


@router.get("/{game_id}/replay")
async def game_replay(game_id: str, manager: Manager) -> dict[str, Any]:
    game = finished(manager, game_id)
    return {"game": game.info(), "frames": frames(game.record())}
