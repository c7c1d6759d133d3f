"""The HTTP API of player accounts (:mod:`sixtysix.server.accounts`): a FastAPI router.

- ``POST /api/account/register`` ``{"name", "password"}``: a new account, logged in
  (201, ``{"name", "csrf"}`` and the session cookie).
- ``POST /api/account/login`` ``{"name", "password"}``: a session (``{"name", "csrf"}``
  and the cookie); ``wrong_password`` (401) for an unknown name as for a wrong password.
- ``POST /api/account/logout``: ends the session and clears the cookie.
- ``GET /api/account``: who the session's cookie belongs to, ``{"name", "csrf"}``, or
  ``{"name": null}`` for a guest.
- ``POST /api/account/password`` ``{"old", "new"}``: a new password; every session of the
  account ends, and the answer brings a new one (``{"name", "csrf"}`` and the cookie).
- ``POST /api/account/reset`` ``{"name", "code", "new"}``: a new password set with a
  recovery code an operator issued (``sixtysix accounts reset NAME``); the code is used
  up, every session ends and the answer logs in (``bad_code``, 401, for a wrong name,
  code or an expired code, all alike). Throttled as a login.
- ``POST /api/account/delete`` ``{"password"}``: deletes the account (its password asked
  again, throttled as a login); refused (``live_games``, 409) while it sits in a game
  not finished. Its finished games stay, each of its seats showing
  :data:`~sixtysix.server.accounts.DELETED_NAME` and no account; its ratings leave the
  leaderboards; its chat lines go. The answer logs out.

A refusal is ``{"error", "code", "args"}``: ``args`` holds the facts a page words the
code with (``{"min": 3, "max": 20, "length": 2}`` for ``name_length``).

A login or registration also sets the device cookie (:data:`DEVICE_COOKIE`, a
random token the server keeps the SHA-256 of, for a year, ``Path=/api/account``):
the browser's later logins to that account are throttled on their own, so that
failures from elsewhere never lock the owner out (:class:`~sixtysix.server.accounts.Throttle`).

The cookies (:data:`SESSION_COOKIE`) are ``HttpOnly``, ``SameSite=Lax``, and
``Secure`` when the request came over https (as uvicorn says, behind a proxy named
with ``--forwarded-allow-ips``). A state-changing request that a session cookie
authenticates must carry the session's CSRF token in ``X-CSRF-Token`` (else 403,
``bad_csrf``); :func:`acting_user` checks it for later routes. A POST here that
carries an ``Origin`` header must come from the server's own host (else 403,
``bad_origin``): that guards login and registration, which have no session yet.

Routes that want to know who is asking take a parameter ``user: CurrentUser``
(:func:`current_user`, for reading) or ``user: ActingUser`` (:func:`acting_user`,
for changing something); both are ``None`` for a guest.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from sixtysix.server.accounts import (
    DELETED_NAME,
    AccountError,
    Accounts,
    Attempt,
    Login,
    User,
    check_name,
    check_password,
    throttled,
)

__all__ = ["CSRF_HEADER", "DEVICE_COOKIE", "SESSION_COOKIE", "ActingUser", "CurrentUser", "Keepers",
           "account_error",
           "account_router", "acting_user", "current_user", "session_of", "socket_user"]

#: The session cookie's name; its value is the session's token.
SESSION_COOKIE = "sixtysix_session"
#: The device cookie's name; its value is the browser's device token (see the module).
DEVICE_COOKIE = "sixtysix_device"
#: Seconds a device cookie lasts: a year.
DEVICE_LIFETIME = 365 * 24 * 3600
CSRF_HEADER = "X-CSRF-Token"
#: Answers about accounts are never kept by a cache.
NO_STORE = {"Cache-Control": "no-store"}
_UNKNOWN = object()


class Credentials(BaseModel):
    # Strict, with room above the limits of accounts.py: a name or password too long
    # is refused there, with its own code, rather than here as a bad request.
    model_config = ConfigDict(strict=True)

    name: str = Field(max_length=100)
    password: str = Field(max_length=1000)


class NewPassword(BaseModel):
    model_config = ConfigDict(strict=True)

    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000)


class Recovery(BaseModel):
    model_config = ConfigDict(strict=True)

    name: str = Field(max_length=100)
    code: str = Field(max_length=100)
    new: str = Field(max_length=1000)


class Farewell(BaseModel):
    model_config = ConfigDict(strict=True)

    password: str = Field(max_length=1000)


@dataclass(frozen=True)
class Keepers:
    """What else keeps an account's traces, for deleting it: how many games not finished
    it sits in (``live_games``, by its id), and the services that anonymise what it
    played (``forget``, each called with its id and :data:`DELETED_NAME`)."""

    live_games: Callable[[int], int]
    forget: Sequence[Callable[[int, str], object]] = ()


async def account_error(request: Request, exc: AccountError) -> JSONResponse:
    """The server's error form, ``{"error": reason, "code": code, "args": facts}``, for an
    :class:`AccountError` (with ``Retry-After`` when throttled); the app registers it as an
    exception handler."""
    headers = dict(NO_STORE)
    if exc.retry_after is not None:
        headers["Retry-After"] = str(exc.retry_after)
    return JSONResponse({"error": str(exc), "code": exc.code, "args": exc.facts}, status_code=exc.status,
                        headers=headers)


def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


def session_of(request: Request) -> Login | None:
    """The live session of the request's cookie, looked up once per request."""
    found: Login | object | None = getattr(request.state, "account_session", _UNKNOWN)
    if found is _UNKNOWN:
        token = request.cookies.get(SESSION_COOKIE)
        found = _accounts(request).session(token) if token else None
        request.state.account_session = found
    return found if isinstance(found, Login) else None


def current_user(request: Request) -> User | None:
    """The account the request's session belongs to, or ``None`` (a guest): a dependency
    for routes that only read (``user: User | None = Depends(current_user)``)."""
    login = session_of(request)
    return None if login is None else login.user


def socket_user(websocket: WebSocket, accounts: Accounts) -> int | None:
    """The account whose session cookie a WebSocket to a game carries (its id), or ``None``:
    a guest, or a page of another site (``Origin`` not this host's: a page elsewhere
    cannot take a logged-in player's seat with his cookie)."""
    token = websocket.cookies.get(SESSION_COOKIE)
    if not token or not _same_origin(websocket):
        return None
    login = accounts.session(token)
    return None if login is None else login.user.id


def _same_origin(connection: HTTPConnection) -> bool:
    """Whether a request (or WebSocket) came from a page of this host, or from no page at all."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    host = connection.headers.get("host", "").lower()
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host


def _check_csrf(request: Request, login: Login) -> None:
    sent = request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(sent.encode("utf-8", "surrogateescape"), login.csrf.encode("ascii")):
        why = "no X-CSRF-Token header" if not sent else "a wrong X-CSRF-Token header"
        raise AccountError(f"{why}: a request made with the session cookie must carry the session's "
                           "CSRF token (GET /api/account gives it)", "bad_csrf", 403)


def acting_user(request: Request) -> User | None:
    """Like :func:`current_user`, for routes that change something: a request that its
    session cookie authenticates must carry the CSRF token, else ``bad_csrf`` (403). A
    guest (no live session) is ``None``, as before accounts."""
    login = session_of(request)
    if login is None:
        return None
    _check_csrf(request, login)
    return login.user


#: A route's parameter ``user: CurrentUser`` is :func:`current_user`'s answer.
CurrentUser = Annotated[User | None, Depends(current_user)]
#: A route's parameter ``user: ActingUser`` is :func:`acting_user`'s answer (CSRF checked).
ActingUser = Annotated[User | None, Depends(acting_user)]


def _check_origin(request: Request) -> None:
    if not _same_origin(request):
        origin = request.headers.get("origin", "")
        host = request.headers.get("host", "").lower()
        raise AccountError(f"the request came from another site ({origin[:100]!r}, not {host!r})",
                           "bad_origin", 403)


def _address(request: Request) -> str:
    return str(getattr(request.client, "host", None) or "unknown")


def signed_in(accounts: Accounts, request: Request, login: Login, status: int = 200) -> JSONResponse:
    """The answer to a login: the account's name and CSRF token, the session's cookie (as
    long as the session lasts) and the device cookie."""
    response = JSONResponse({"name": login.user.name, "csrf": login.csrf}, status_code=status,
                            headers=NO_STORE)
    secure = request.url.scheme == "https"
    response.set_cookie(SESSION_COOKIE, login.token, max_age=int(accounts.session_lifetime), path="/",
                        httponly=True, samesite="lax", secure=secure)
    device = accounts.remember_device(login.user, request.cookies.get(DEVICE_COOKIE))
    response.set_cookie(DEVICE_COOKIE, device, max_age=DEVICE_LIFETIME, path="/api/account",
                        httponly=True, samesite="lax", secure=secure)
    return response


def signed_out(request: Request) -> JSONResponse:
    """A guest's answer: no name, and the session's cookie cleared."""
    response = JSONResponse({"name": None}, headers=NO_STORE)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")
    return response


def _attempt(accounts: Accounts, request: Request, name: str) -> Attempt:
    """A password attempt for ``name`` from this request, refused while it is throttled
    (before any hashing)."""
    tried = accounts.attempt(name, _address(request), request.cookies.get(DEVICE_COOKIE))
    wait = accounts.throttle.login(tried)
    if wait:
        raise throttled(wait)
    return tried


def _replace_session(accounts: Accounts, request: Request) -> None:
    # Logging in anew on a browser that had a session: the old one ends.
    old = session_of(request)
    if old is not None:
        accounts.close_session(old.token)


def account_router(accounts: Accounts, keepers: Keepers | None = None) -> APIRouter:
    """The routes above for ``accounts``; the app keeps ``accounts`` as ``app.state.accounts``
    (where :func:`current_user` finds it) and registers :func:`account_error`. The cookie
    lasts as long as the session (``accounts.session_lifetime``). ``keepers`` are told when
    an account is deleted (none: nothing else keeps a trace)."""
    keepers = keepers or Keepers(live_games=lambda user_id: 0)
    router = APIRouter(prefix="/api/account", dependencies=[Depends(_check_origin)])

    @router.get("")
    async def who_am_i(request: Request) -> Any:
        login = session_of(request)
        if login is None:
            return signed_out(request) if SESSION_COOKIE in request.cookies else \
                JSONResponse({"name": None}, headers=NO_STORE)
        return JSONResponse({"name": login.user.name, "csrf": login.csrf}, headers=NO_STORE)

    @router.post("/register")
    async def register(body: Credentials, request: Request) -> JSONResponse:
        check_password(body.password, check_name(body.name))  # a refused one costs no registration
        wait = accounts.throttle.register(_address(request))
        if wait:
            raise throttled(wait)
        user = await accounts.register(body.name, body.password)
        _replace_session(accounts, request)
        return signed_in(accounts, request, accounts.open_session(user), 201)

    @router.post("/login")
    async def login(body: Credentials, request: Request) -> JSONResponse:
        tried = _attempt(accounts, request, body.name)
        user = await accounts.authenticate(body.name, body.password)
        accounts.throttle.succeeded(tried)
        _replace_session(accounts, request)
        return signed_in(accounts, request, accounts.open_session(user))

    @router.post("/logout")
    async def logout(request: Request) -> JSONResponse:
        login = session_of(request)
        if login is not None:
            _check_csrf(request, login)
            accounts.close_session(login.token)
        return signed_out(request)

    _settings_routes(router, accounts, keepers)
    return router


def _settings_routes(router: APIRouter, accounts: Accounts, keepers: Keepers) -> None:
    """The routes of an account's settings: a new password, a recovery code, deleting it."""

    @router.post("/password")
    async def change_password(body: NewPassword, request: Request) -> JSONResponse:
        user = acting_user(request)
        if user is None:
            raise AccountError("not logged in: log in to change your password", "not_logged_in", 401)
        check_password(body.new, user.name)  # a refused new password costs no attempt
        tried = _attempt(accounts, request, user.name)
        await accounts.change_password(user, body.old, body.new)
        accounts.throttle.succeeded(tried)
        return signed_in(accounts, request, accounts.open_session(user))

    @router.post("/reset")
    async def reset(body: Recovery, request: Request) -> JSONResponse:
        tried = _attempt(accounts, request, body.name)
        user = await accounts.reset_password(body.name, body.code, body.new)
        accounts.throttle.succeeded(tried)
        _replace_session(accounts, request)
        return signed_in(accounts, request, accounts.open_session(user))

    @router.post("/delete")
    async def delete_account(body: Farewell, request: Request) -> JSONResponse:
        user = acting_user(request)
        if user is None:
            raise AccountError("not logged in: log in to delete your account", "not_logged_in", 401)
        live = keepers.live_games(user.id)
        if live:
            raise AccountError(f"the account sits in {live} game(s) not finished: finish or resign them "
                               "first",
                               "live_games", 409, args={"n": live})
        tried = _attempt(accounts, request, user.name)
        await accounts.check_owner(user, body.password)
        accounts.throttle.succeeded(tried)
        for forget in keepers.forget:
            forget(user.id, DELETED_NAME)
        accounts.delete(user)
        return signed_out(request)
