"""``sixtysix serve`` facing clients directly (issue 34, "slow requests"): half-sent
requests were never timed out without a proxy, and 21,000 of them filled every file
descriptor (a normal GET failed). A real server on a loopback port: a request must
arrive in time, its head is limited, and one address holds a limited number of
connections, while a normal GET from another address still works."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")

from server_support import Server  # noqa: E402

#: The request timeout the server is given: small, so that the test is short.
TIMEOUT = 1.0
CAP = 4
ATTACKER = "127.0.0.2"  # loopback, another address than the normal client's (127.0.0.1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("guard")
    one = Server(f"sqlite:///{folder / 'games.db'}", folder / "server.log",
                 "--request-timeout", str(TIMEOUT), "--sockets-per-client", str(CAP))
    try:
        yield one
    finally:
        one.stop()


def open_from(server: Server, address: str, first: bytes = b"") -> socket.socket:
    sock = socket.socket()
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", server.port))
    if first:
        sock.sendall(first)
    return sock


def answer(sock: socket.socket, wait: float) -> bytes:
    """Everything the server sends until it closes the connection, waiting at most
    ``wait`` seconds for each read (a connection still open then fails the test)."""
    sock.settimeout(wait)
    received = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            raise AssertionError(f"still open after {wait} s: {received!r}") from None
        if not chunk:
            return received
        received += chunk


def test_a_half_sent_request_is_answered_408_and_closed_in_time(server: Server) -> None:
    sock = open_from(server, "127.0.0.1", b"GET /api/ga")  # half a request line
    began = time.monotonic()
    with contextlib.closing(sock):
        got = answer(sock, TIMEOUT + 5)
    assert time.monotonic() - began >= TIMEOUT * 0.9  # not before its time
    assert got.startswith(b"HTTP/1.1 408 ") and b'"code": "timeout"' in got
    # A request that arrives whole is answered (the control).
    assert isinstance(server.get("/api/games")["open"], list)


def test_a_request_head_sent_byte_by_byte_is_cut_at_the_timeout(server: Server) -> None:
    with contextlib.closing(open_from(server, "127.0.0.1")) as sock:
        began = time.monotonic()
        sent = 0
        with contextlib.suppress(OSError):
            for _ in range(200):  # a header a little at a time: each byte resets no timer
                sock.sendall(b"GET / HTTP/1.1\r\nX-Slow: " if not sent else b"a")
                sent += 1
                sock.settimeout(0.1)
                with contextlib.suppress(TimeoutError):
                    if sock.recv(65536).startswith(b"HTTP/1.1 408"):
                        break
        assert time.monotonic() - began < TIMEOUT + 10
    assert sent < 200


def test_a_huge_head_is_refused(server: Server) -> None:
    with contextlib.closing(open_from(server, "127.0.0.1")) as sock:
        # Sent at once: the server reads it whole before it refuses (no reset of unread data).
        sock.sendall(b"GET / HTTP/1.1\r\nX-Big: " + b"a" * (20 << 10))
        assert answer(sock, TIMEOUT + 5).startswith(b"HTTP/1.1 431 ")


def test_one_address_holds_so_many_connections_and_a_normal_get_still_works(server: Server) -> None:
    held = [open_from(server, ATTACKER, b"GET / HT") for _ in range(CAP)]
    try:
        # Beyond the cap: answered at once, one line, and closed.
        for _ in range(3):
            with contextlib.closing(open_from(server, ATTACKER)) as extra:
                refused = answer(extra, 5)
            assert refused.startswith(b"HTTP/1.1 429 ") and b"too_many_connections" in refused
        # Another address is served meanwhile.
        assert isinstance(server.get("/api/games")["open"], list)
        # The held ones are closed by the timeout; then the address may connect again.
        for sock in held:
            assert answer(sock, TIMEOUT + 5).startswith(b"HTTP/1.1 408 ")
    finally:
        for sock in held:
            sock.close()
    with contextlib.closing(open_from(server, ATTACKER, b"GET /api/games HTTP/1.1\r\nHost: x\r\n"
                                                        b"Connection: close\r\n\r\n")) as again:
        assert answer(again, 10).startswith(b"HTTP/1.1 200 ")


def test_websockets_count_against_the_cap_until_they_close(server: Server) -> None:
    from websockets.sync.client import connect

    game = server.post("/api/games", {"kind": "computer", "level": "random"})
    url = server.base.replace("http://", "ws://") + f"/ws/{game['id']}"
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(connect(url, sock=open_from(server, ATTACKER))) for _ in range(CAP)]
        with contextlib.closing(open_from(server, ATTACKER)) as extra:
            assert answer(extra, 5).startswith(b"HTTP/1.1 429 ")
        sockets[0].close()  # one closes (the server closed it when this returns): a place is free
        with contextlib.closing(open_from(server, ATTACKER)) as taken:
            assert answer(taken, TIMEOUT + 5).startswith(b"HTTP/1.1 408 ")  # taken, then timed out


def upgrade(server: Server, address: str, game_id: str) -> bytes:
    """The first line of the answer to a WebSocket handshake asked from ``address``."""
    request = (f"GET /ws/{game_id} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
               "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Version: 13\r\n\r\n").encode()
    with contextlib.closing(open_from(server, address, request)) as sock:
        sock.settimeout(10)
        received = b""
        while b"\r\n" not in received:
            chunk = sock.recv(4096)
            assert chunk, f"closed without an answer: {received!r}"
            received += chunk
        return received.split(b"\r\n")[0] + (b" too_many_connections" if b"too_many_connections" in received
                                                else b"")


def test_an_address_opens_websockets_at_a_rate_and_another_address_is_not_slowed(tmp_path: Path) -> None:
    """Spectators reconnecting in a loop (issue 34's churn: 450 from 15 addresses) each cost
    a handshake; past an address's burst of new WebSockets the next is refused before it.
    A rate of one WebSocket in 10,000 s gives a burst of one: the second is refused."""
    one = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log", "--websockets-per-second",
                 "0.0001")
    try:
        game = one.post("/api/games", {"kind": "computer", "level": "random"})
        assert upgrade(one, "127.0.0.3", game["id"]).startswith(b"HTTP/1.1 101 ")
        refused = upgrade(one, "127.0.0.3", game["id"])
        assert refused.startswith(b"HTTP/1.1 429 ") and refused.endswith(b"too_many_connections")
        assert upgrade(one, "127.0.0.4", game["id"]).startswith(b"HTTP/1.1 101 ")  # the control
        assert isinstance(one.get("/api/games")["open"], list)  # plain requests are not counted
    finally:
        one.stop()


def test_every_option_is_checked(tmp_path: Path) -> None:
    import subprocess
    import sys

    for option, value in (("--request-timeout", "0"), ("--sockets-per-client", "0"), ("--keep-alive", "-1"),
                          ("--websockets-per-second", "0")):
        done = subprocess.run([sys.executable, "-m", "sixtysix", "serve", "--database-url",
                               f"sqlite:///{tmp_path / 'x.db'}", option, value],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode != 0 and option in done.stderr and "Traceback" not in done.stderr
