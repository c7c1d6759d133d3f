"""What ``sixtysix serve`` guards by itself when clients reach it directly (no proxy).

uvicorn closes a connection idle after a response (``timeout_keep_alive``), but it
gives a request no time limit: a client that opens a connection and sends half a
request line, or headers a byte at a time, holds the connection (a file descriptor)
for ever, and a header may grow without bound (200 MiB taken, measured with uvicorn
0.55 and ``httptools``). 21,000 such
connections filled every file descriptor of the server, and a normal request failed.
The guard, in uvicorn's own HTTP protocol (a subclass: uvicorn offers no such option):

- a request's head and body must arrive within :attr:`Guard.request_timeout` seconds
  of its first byte (of the connection's opening, for the first): else it is answered
  408, if nothing is being answered on the connection, and closed;
- a request's head (its line and headers) may hold :attr:`Guard.head_limit` bytes:
  else 431, and closed;
- one address may hold :attr:`Guard.per_address` connections at once (HTTP and
  WebSocket alike): the next is answered 429 at once and closed;
- one address may open WebSockets at :attr:`Guard.upgrade_rate` a second, after a
  burst of :attr:`Guard.upgrade_burst`: a faster one is answered 429 before its
  handshake, so that spectators reconnecting in a loop (450 of them from 15 addresses
  took about 180 handshakes a second) cost the server almost nothing. Addresses of trusted
  proxies (``--forwarded-allow-ips``) are not counted: behind a proxy every client
  comes from it, and the application counts each client's own address.

uvicorn's own head limit (``h11_max_incomplete_event_size``) holds only for its
pure-Python parser; the server runs ``httptools`` (faster), whose heads are limited here.
A proxy such as nginx (docs/web.md) adds more of its own: timeouts between two reads of
a body, and limits of requests and connections a second.
"""

from __future__ import annotations

import asyncio
import collections
import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.auto import AutoWebSocketsProtocol

from sixtysix.server.limits import BucketsByKey
from sixtysix.server.refusals import Reason

__all__ = ["Guard", "protocols"]

#: The end of a request's head.
_HEAD_END = b"\r\n\r\n"
_REASONS = {408: "Request Timeout", 429: "Too Many Requests", 431: "Request Header Fields Too Large"}


@dataclass
class Guard:
    """The limits, and the connections open by address."""

    #: Connections one address may hold at once.
    per_address: int = 64
    #: Seconds a request (head and body) has to arrive, from its first byte.
    request_timeout: float = 10.0
    #: Bytes a request's head may hold.
    head_limit: int = 16 * 1024
    #: WebSockets one address may open a second, on average, and at once.
    upgrade_rate: float = 2.0
    upgrade_burst: float = 20.0
    #: Addresses never counted (trusted proxies); ``"*"`` among them: none counted.
    exempt: frozenset[str] = frozenset()
    _open: dict[object, str] = field(default_factory=dict, init=False, repr=False)
    _count: collections.Counter[str] = field(default_factory=collections.Counter, init=False, repr=False)
    _upgrades: BucketsByKey = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._upgrades = BucketsByKey(self.upgrade_rate, self.upgrade_burst)

    def may_upgrade(self, address: str) -> bool:
        """Whether ``address`` may open a WebSocket now (its token taken if so)."""
        if address in self.exempt or "*" in self.exempt:
            return True
        return self._upgrades.take(address) == 0.0

    def admit(self, connection: object, address: str) -> bool:
        """Count ``connection`` (a transport) for ``address``; ``False`` if that is one too many."""
        if address in self.exempt or "*" in self.exempt:
            return True
        if self._count[address] >= self.per_address:
            return False
        self._count[address] += 1
        self._open[connection] = address
        return True

    def release(self, connection: object) -> None:
        """``connection`` closed (said once or more: counted down once)."""
        address = self._open.pop(connection, None)
        if address is not None:
            self._count[address] -= 1
            if self._count[address] <= 0:
                del self._count[address]

    def open(self, address: str) -> int:
        """Connections ``address`` holds now."""
        return self._count.get(address, 0)


def refusal(reason: Reason) -> bytes:
    """A whole HTTP answer that closes the connection, its body the API's error form.

    >>> refusal(Reason.TOO_MANY_CONNECTIONS).split(b"\\r\\n")[0]
    b'HTTP/1.1 429 Too Many Requests'
    """
    status = reason.status
    body = json.dumps({"error": reason.sentence, "code": reason.code, "text": reason.sentence,
                       "args": {}}).encode()
    return (f"HTTP/1.1 {status} {_REASONS[status]}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode() + body


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with :class:`Guard`'s limits."""

    guard: ClassVar[Guard]
    _deadline: asyncio.TimerHandle | None = None
    #: Whether the bytes coming belong to a request's head, how many came, and the last
    #: few (the head's end may be split between two reads).
    _in_head = True
    _head_bytes = 0
    _tail = b""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.guard.admit(transport, self.client[0] if self.client else "unknown"):
            self._refuse(Reason.TOO_MANY_CONNECTIONS)
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.guard.release(self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        if self._in_head:
            self._arm()
            end = (self._tail + data).find(_HEAD_END)
            self._head_bytes += len(data) if end < 0 else end - len(self._tail)
            self._tail = data[-3:]
            if self._head_bytes > self.guard.head_limit:
                self._refuse(Reason.HEAD_TOO_LARGE)
                return
        super().data_received(data)

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        self._in_head, self._head_bytes, self._tail = True, 0, b""  # what comes next: a new head
        super().on_message_complete()

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._disarm()  # a WebSocket now: its own protocol counts it down when it closes
        if not self.guard.may_upgrade(self.client[0] if self.client else "unknown"):
            self._refuse(Reason.NEW_CONNECTIONS)
            return
        super().handle_websocket_upgrade(*args)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = asyncio.get_running_loop().call_later(self.guard.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.cycle is None or self.cycle.response_complete:  # nothing is being answered
            self._refuse(Reason.TOO_SLOW)
        else:
            self.transport.close()

    def _refuse(self, reason: Reason) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(refusal(reason))
            self.transport.close()


#: uvicorn's WebSocket protocol (of the ``websockets`` library, a dependency).
_WebSocketProtocol: Any = AutoWebSocketsProtocol or asyncio.Protocol


class GuardedWebSocket(_WebSocketProtocol):  # type: ignore[misc]
    """uvicorn's WebSocket protocol, counted down by the :class:`Guard` when it closes."""

    guard: ClassVar[Guard]

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.release(self.transport)
        super().connection_lost(exc)


def protocols(guard: Guard) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol] | None]:
    """The HTTP and WebSocket protocol classes for uvicorn's ``http`` and ``ws`` options,
    guarded by ``guard``."""
    http = type("GuardedHttp", (GuardedHttp,), {"guard": guard})
    if AutoWebSocketsProtocol is None:  # no WebSocket library: uvicorn serves none
        return http, None
    return http, type("GuardedWebSocket", (GuardedWebSocket,), {"guard": guard})
