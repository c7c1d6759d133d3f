"""How a refusal reads over HTTP: one JSON form for all of them, ``{"error": "...",
"code": "..."}``, with the status the refusal names; the framework's own refusals
(no such route, a body too large or unreadable, a field of the wrong type) alike."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from sixtysix.present.lessons import LessonError
from sixtysix.server.account_api import account_error
from sixtysix.server.accounts import AccountError
from sixtysix.server.errors import GameError, Reason

__all__ = ["HTTP_CODES", "install_error_handlers"]

#: Error codes of the framework's own refusals, by HTTP status.
HTTP_CODES = {404: "not_found", 405: "bad_method", 413: "too_large", 415: "bad_request"}


async def refused(request: Request, exc: GameError) -> JSONResponse:
    """A refusal of ours as the client reads it: its code, its English words, and the
    sentence and arguments a page shows in its reader's language."""
    return JSONResponse({"error": str(exc), "code": exc.code, "text": exc.sentence, "args": exc.args_shown},
                        status_code=exc.status)


async def lesson_refused(request: Request, exc: LessonError) -> JSONResponse:
    """A lesson's refusal, in the same form."""
    return JSONResponse({"error": str(exc), "code": exc.code, "text": exc.sentence, "args": exc.args_shown},
                        status_code=exc.status)


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    """The framework's own refusals (no such route, a body too large or unreadable) in
    the same form as ours."""
    code = HTTP_CODES.get(exc.status_code, "bad_request")
    detail = str(exc.detail)
    if exc.status_code == 400 and "parsing the body" in detail:
        detail = "the body is not valid JSON (or is nested too deeply)"
    why = Reason.NOT_FOUND if exc.status_code == 404 else Reason.BAD_REQUEST
    args = {} if why is Reason.NOT_FOUND else {"problem": detail}
    return JSONResponse({"error": detail, "code": code, "text": why.sentence, "args": args},
                        status_code=exc.status_code, headers=getattr(exc, "headers", None))


async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """One sentence naming each wrong field, in the same form as every other error."""
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        problems = "the body is not valid JSON"
    else:
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: "
                             f"{e.get('msg', 'invalid')}" for e in errors[:5])
    return JSONResponse({"error": f"bad request: {problems}", "code": "bad_request",
                         "text": Reason.BAD_REQUEST.sentence, "args": {"problem": problems}}, status_code=422)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every refusal, ours and the framework's, in the one form."""
    app.add_exception_handler(GameError, refused)  # type: ignore[arg-type]
    app.add_exception_handler(LessonError, lesson_refused)  # type: ignore[arg-type]
    app.add_exception_handler(AccountError, account_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, bad_request)  # type: ignore[arg-type]
