"""Security headers on every HTTP response of the server.

Every response says ``X-Content-Type-Options: nosniff`` (a browser takes it for
what its type says), ``X-Frame-Options: DENY`` (no page of ours inside another
site's frame, where a click could be stolen) and ``Referrer-Policy: same-origin``
(a game's link, which names the game, is not sent to other sites). Pages (HTML)
also get a Content Security Policy that allows only the server's own scripts,
styles, pictures and connections, and no inline script: the pages load every
script from ``/static``.

>>> dict(SECURITY_HEADERS)[b"x-frame-options"]
b'DENY'
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["CONTENT_SECURITY_POLICY", "SECURITY_HEADERS", "SecurityHeaders"]

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
