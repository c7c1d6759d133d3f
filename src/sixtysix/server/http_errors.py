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
from sixtysix.server.errors import GameError
from sixtysix.server.fairplay import LimitError

__all__ = ["HTTP_CODES", "install_error_handlers"]

#: Error codes of the framework's own refusals, by HTTP status.
HTTP_CODES = {404: "not_found", 405: "bad_method", 413: "too_large", 415: "bad_request"}


async def refused(request: Request, exc: GameError | LimitError | LessonError) -> JSONResponse:
    """A refusal of ours as the client reads it."""
    return JSONResponse({"error": str(exc), "code": exc.code}, status_code=exc.status)


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    """The framework's own refusals (no such route, a body too large or unreadable) in
    the same form as ours."""
    code = HTTP_CODES.get(exc.status_code, "bad_request")
    detail = str(exc.detail)
    if exc.status_code == 400 and "parsing the body" in detail:
        detail = "the body is not valid JSON (or is nested too deeply)"
    return JSONResponse({"error": detail, "code": code}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
    """One sentence naming each wrong field, in the same form as every other error."""
    errors = exc.errors()
    if any(e.get("type") == "json_invalid" for e in errors):
        problems = "the body is not valid JSON"
    else:
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()) if p != 'body') or 'body'}: "
                             f"{e.get('msg', 'invalid')}" for e in errors[:5])
    return JSONResponse({"error": f"bad request: {problems}", "code": "bad_request"}, status_code=422)


def install_error_handlers(app: FastAPI) -> None:
    """Answer every refusal, ours and the framework's, in the one form."""
    for kind in (GameError, LimitError, LessonError):
        app.add_exception_handler(kind, refused)  # type: ignore[arg-type]
    app.add_exception_handler(AccountError, account_error)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, bad_request)  # type: ignore[arg-type]
