"""Puzzles over HTTP (the page ``/puzzles``; docs/puzzles.md): a FastAPI router.

- ``GET /api/puzzles/next?theme=T&lang=L``: a puzzle near the solver's rating (of theme
  ``T``, if given) that he has not tried, as his seat sees it;
- ``GET /api/puzzles/daily``: the daily puzzle, the same for everyone on a day (UTC);
- ``GET /api/puzzles/themes``: the themes, with their names and how many puzzles each;
- ``GET /api/puzzles/me``: the solver's puzzle rating and his rated attempts;
- ``GET /api/puzzles/{id}``: one puzzle, as its solver sees it;
- ``POST /api/puzzles/{id}/attempt`` ``{"action": "AD"}``: right or wrong, why, the
  solution played out and the ratings before and after;
- ``GET /api/puzzles/{id}/replay``, ``/analysis/1``, ``/record``: the analysis board of
  the position (the solution played to the end of the hand, cards face up).

The solver is the account of the session's cookie, else the guest browser whose token is
in the ``X-Puzzle-Guest`` header (a random string the page keeps); with neither an
attempt is judged but not rated. Attempts count against a limit per client address.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from sixtysix import i18n
from sixtysix.errors import ParseError
from sixtysix.game.actions import Action
from sixtysix.measure.glicko import Rating
from sixtysix.present.wire import seat_view_json
from sixtysix.puzzles.puzzle import Puzzle, dumps
from sixtysix.puzzles.rating import daily, nearest
from sixtysix.puzzles.shipped import by_id, shipped
from sixtysix.puzzles.solving import judge, prompt, solution_steps, theme_name
from sixtysix.puzzles.themes import Theme
from sixtysix.server.account_api import ActingUser, CurrentUser
from sixtysix.server.boards import hand_frames
from sixtysix.server.depends import Analysed, Client
from sixtysix.server.errors import GameError, LimitError
from sixtysix.server.limits import BucketsByKey
from sixtysix.server.puzzle_desk import PuzzleDesk, Solver
from sixtysix.server.refusals import Reason

__all__ = ["GUEST_HEADER", "puzzle_router"]

#: The header that carries a guest browser's token.
GUEST_HEADER = "X-Puzzle-Guest"
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


class AttemptBody(BaseModel):
    action: str = Field(max_length=8)


def _solver(request: Request, user_id: int | None) -> Solver | None:
    if user_id is not None:
        return Solver.account(user_id)
    token = request.headers.get(GUEST_HEADER)
    if token is None:
        return None
    if not _TOKEN.fullmatch(token):
        raise GameError(Reason.BAD_GUEST)
    return Solver.guest(hashlib.sha256(token.encode()).hexdigest()[:40])


def _puzzle(puzzle_id: str) -> Puzzle:
    found = by_id(puzzle_id)
    if found is None:
        raise GameError(Reason.NO_PUZZLE)
    return found


def _theme(name: str | None) -> Theme | None:
    if not name:
        return None
    try:
        return Theme(name)
    except ValueError:
        raise GameError(Reason.NO_THEME) from None


def _rating_json(rating: Rating) -> dict[str, float]:
    return {"rating": round(rating.rating, 1), "deviation": round(rating.deviation, 1)}


def challenge_json(puzzle: Puzzle, desk: PuzzleDesk, solver: Solver | None, lang: str,
                   *, daily_puzzle: bool = False) -> dict[str, Any]:
    """What the solver sees of ``puzzle`` before his attempt: his view, never the other
    hand, nor the themes (they would tell the answer)."""
    position = puzzle.position()
    seat = position.to_act
    assert seat is not None
    player, plays = desk.rating(solver) if solver is not None else (None, 0)
    with i18n.use(lang) as chosen:
        return {"id": puzzle.id, "lang": chosen, "kind": str(puzzle.kind), "worlds": puzzle.worlds,
                "seat": seat, "view": seat_view_json(position, seat), "prompt": prompt(puzzle),
                "legal": [str(a) for a in position.legal_actions()],
                "rating": _rating_json(desk.puzzle_rating(puzzle)), "daily": daily_puzzle,
                "player": None if player is None else {**_rating_json(player), "plays": plays}}


def attempt_json(puzzle: Puzzle, desk: PuzzleDesk, solver: Solver | None, text: str,
                 lang: str) -> dict[str, Any]:
    """The verdict on the action ``text``, the solution played out and the ratings."""
    position = puzzle.position()
    try:
        chosen = Action.parse(text)
    except ParseError:
        raise GameError(Reason.PUZZLE_NOT_AN_ACTION) from None
    if not position.is_legal(chosen):
        raise GameError(Reason.PUZZLE_ILLEGAL)
    seat = position.to_act
    assert seat is not None
    with i18n.use(lang) as chosen_lang:
        verdict = judge(puzzle, chosen)
        shown = solution_steps(puzzle)
        line = [{"seat": step.seat, "action": str(step.action), "words": step.words} for step in shown]
        steps = [seat_view_json(step.after, seat) for step in shown]
        answer: dict[str, Any] = {
            "id": puzzle.id, "lang": chosen_lang, "solved": verdict.solved, "chosen": str(chosen),
            "reason": verdict.reason, "seat": seat, "solution": line, "steps": steps,
            "themes": [{"theme": str(t), "name": theme_name(t)} for t in puzzle.themes],
            "value": puzzle.value, "margin": puzzle.margin, "analysis": f"/replay/puzzle/{puzzle.id}"}
    if solver is None:
        current = desk.puzzle_rating(puzzle)
        answer["ratings"] = None
        answer["rating"] = _rating_json(current)
    else:
        answer["ratings"] = desk.record(solver, puzzle, str(chosen), verdict.solved).to_json()
    return answer


def _finished(puzzle: Puzzle) -> Any:
    hand = puzzle.position()
    for action in puzzle.solution:
        hand.push(action)
    return hand


def puzzle_router(desk: PuzzleDesk, *, rate: float, burst: float) -> APIRouter:
    """The routes of the module text over ``desk``; attempts limited per client address."""
    router = APIRouter(prefix="/api/puzzles")
    # The desk's clock: a test moves it by hand.
    attempts = BucketsByKey(rate, burst, clock=lambda: desk.now())
    rng = random.Random()

    def today() -> dt.date:
        return dt.datetime.fromtimestamp(desk.now(), dt.UTC).date()

    @router.get("/themes")
    async def themes(lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
        counts = {t: sum(t in p.themes for p in shipped()) for t in Theme}
        with i18n.use(lang):
            return {"themes": [{"theme": str(t), "name": theme_name(t), "count": counts[t]}
                               for t in Theme if counts[t]], "count": len(shipped())}

    @router.get("/next")
    async def next_puzzle(request: Request, user: CurrentUser, theme: str | None = Query(None, max_length=20),
                          lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
        solver = _solver(request, None if user is None else user.id)
        wanted = _theme(theme)
        player = desk.rating(solver)[0] if solver is not None else Rating()
        done = desk.done(solver) if solver is not None else set()
        moved = desk.puzzle_ratings()
        found = nearest(shipped(), player, rng, theme=wanted, done=done.__contains__,
                        rating_of=lambda p: moved.get(p.id) or p.rating or Rating())
        if found is None:
            raise GameError(Reason.NO_PUZZLE_LEFT)
        return challenge_json(found, desk, solver, lang)

    @router.get("/daily")
    async def daily_puzzle(request: Request, user: CurrentUser,
                           lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
        solver = _solver(request, None if user is None else user.id)
        answer = challenge_json(daily(shipped(), today()), desk, solver, lang, daily_puzzle=True)
        answer["date"] = today().isoformat()
        return answer

    @router.get("/me")
    async def me(request: Request, user: CurrentUser) -> dict[str, Any]:
        solver = _solver(request, None if user is None else user.id)
        if solver is None:
            return {"rating": None, "plays": 0, "history": []}
        rating, plays = desk.rating(solver)
        return {"rating": _rating_json(rating), "plays": plays, "history": desk.history(solver)}

    @router.get("/{puzzle_id}")
    async def one(puzzle_id: str, request: Request, user: CurrentUser,
                  lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
        solver = _solver(request, None if user is None else user.id)
        return challenge_json(_puzzle(puzzle_id), desk, solver, lang)

    @router.post("/{puzzle_id}/attempt")
    async def attempt(puzzle_id: str, body: AttemptBody, request: Request, user: ActingUser, client: Client,
                      lang: str = Query(i18n.DEFAULT, max_length=35)) -> dict[str, Any]:
        puzzle = _puzzle(puzzle_id)
        solver = _solver(request, None if user is None else user.id)
        if not attempts.allow(client):
            raise LimitError(Reason.PUZZLE_ATTEMPTS)
        return attempt_json(puzzle, desk, solver, body.action, lang)

    _board_routes(router)
    return router


def _board_routes(router: APIRouter) -> None:
    """The routes of a puzzle's analysis board: its solution played out as a replay, the
    analysis of its hand and its record."""

    @router.get("/{puzzle_id}/replay")
    async def replay(puzzle_id: str) -> dict[str, Any]:
        puzzle = _puzzle(puzzle_id)
        seat = puzzle.position().to_act
        return {"game": {"id": puzzle.id, "kind": "puzzle", "seat": seat, "players": ["", ""],
                         "score": [0, 0], "start": len(puzzle.position().actions)},
                "frames": hand_frames(_finished(puzzle))}

    @router.get("/{puzzle_id}/analysis/{number}")
    async def analysis(puzzle_id: str, number: int, analyses: Analysed) -> dict[str, Any]:
        puzzle = _puzzle(puzzle_id)
        if number != 1:
            raise GameError(Reason.NO_HAND, number=number, hands=1)
        return await analyses.of(f"puzzle:{puzzle.id}", 1, _finished(puzzle))

    @router.get("/{puzzle_id}/record")
    async def record(puzzle_id: str) -> Response:
        puzzle = _puzzle(puzzle_id)
        name = f"sixtysix-puzzle-{puzzle.id}.json"
        return Response(dumps(puzzle) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})
