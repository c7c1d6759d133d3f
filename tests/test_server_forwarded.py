"""Client addresses behind ``sixtysix serve``: forwarded headers are believed only from
the proxies named by ``--forwarded-allow-ips`` (none by default), so a client cannot
pose as many addresses to escape the per-address limits (issue: 300 connections and
4,000 games from one host by forging ``X-Forwarded-For``)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

from helpers import need_module
from server_support import Server

#: Unfinished games an address may have (the server's default; its burst of new games,
#: 40, is larger).
LIMIT = 20


def create(server: Server, forged: str) -> int:
    """POST a new game with a forged X-Forwarded-For; the HTTP status."""
    request = urllib.request.Request(
        server.base + "/api/games", json.dumps({"kind": "computer", "level": "random"}).encode(),
        method="POST", headers={"Content-Type": "application/json", "X-Forwarded-For": forged})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_forged_forwarded_header_does_not_escape_the_limit(tmp_path: Path) -> None:
    need_module("uvicorn", "the web extra")
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log")
    try:
        statuses = [create(server, f"10.0.{i // 250}.{i % 250 + 1}") for i in range(LIMIT + 1)]
    finally:
        server.kill()
    assert statuses[:LIMIT] == [201] * LIMIT
    assert statuses[LIMIT] == 429  # every request counted against the one real address


def test_a_named_proxy_is_believed(tmp_path: Path) -> None:
    need_module("uvicorn", "the web extra")
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "server.log",
                    "--forwarded-allow-ips", "127.0.0.1")
    try:
        statuses = [create(server, f"10.0.{i // 250}.{i % 250 + 1}") for i in range(LIMIT + 5)]
        # The same forwarded address is one client: its own burst runs out.
        same = [create(server, "10.9.9.9") for _ in range(LIMIT + 1)]
    finally:
        server.kill()
    assert statuses == [201] * (LIMIT + 5)
    assert same[:LIMIT] == [201] * LIMIT and same[LIMIT] == 429


def test_the_server_limits_the_c_allocators_arenas_where_it_can() -> None:
    """`sixtysix serve` asks glibc for two malloc arenas (benchmarks/soak.py: the memory a
    flood leaves behind); elsewhere it leaves the allocator alone and says so."""
    import platform
    import sys

    from sixtysix.cli.serve import limit_malloc_arenas

    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert limit_malloc_arenas() is glibc
