"""ASGI middleware of the server: security headers, and a limit on request bodies.

Security headers (:class:`SecurityHeaders`).

Every response says ``X-Content-Type-Options: nosniff`` (a browser takes it for
what its type says), ``X-Frame-Options: DENY`` (no page of ours inside another
site's frame, where a click could be stolen) and ``Referrer-Policy: same-origin``
(a game's link, which names the game, is not sent to other sites). Pages (HTML)
also get a Content Security Policy that allows only the server's own scripts,
styles, pictures and connections, and no inline script: the pages load every
script from ``/static``.

>>> dict(SECURITY_HEADERS)[b"x-frame-options"]
b'DENY'

Body limit (:class:`BodyLimit`): a request whose ``Content-Length`` is over the
limit is answered with 413 at once, before any of its body is read; one sent
in chunks is cut off with 413 as soon as what came in passes the limit. Either
way the answer has the server's error form, ``{"error": ..., "code":
"too_large"}``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "BodyLimit", "BodyTooLarge", "SecurityHeaders"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The policy of the pages: our own origin only, WebSockets to it included.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

#: Headers on every response.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response, and
    the Content Security Policy to HTML ones (headers the app set itself are kept)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                extra = list(SECURITY_HEADERS)
                if any(name.lower() == b"content-type" and value.startswith(b"text/html")
                       for name, value in headers):
                    extra.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                headers += [(name, value) for name, value in extra if name not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyTooLarge(HTTPException):
    """Raised while a body is read, once it has passed the limit (the framework passes
    HTTP exceptions on to the app's handler, which answers in the server's form)."""

    def __init__(self) -> None:
        super().__init__(413, "the request body is too large")


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes (see the module)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        if limit < 0:
            raise ValueError(f"the body limit must be at least 0, not {limit}")
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = next((value for name, value in scope.get("headers", ()) if name == b"content-length"), None)
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            refusal = JSONResponse({"error": f"the request body is too large: at most {self.limit} bytes",
                                    "code": "too_large"}, status_code=413, headers={"Connection": "close"})
            await refusal(scope, receive, send)
            return
        received = 0
        limit = self.limit

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge()
            return message

        await self.app(scope, limited_receive, send)
