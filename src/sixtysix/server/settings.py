"""How a server runs: :class:`Settings`, the limits that protect it from a misbehaving
client among them, and where its database is by default."""

from __future__ import annotations

import os
from dataclasses import dataclass

from sixtysix.play.userdata import data_dir
from sixtysix.server.clocks import GRACE, HAND_BREAK
from sixtysix.server.hall import SPECTATORS

__all__ = ["Settings", "default_database_url"]


def default_database_url() -> str:
    """``SIXTYSIX_DATABASE_URL`` if set, else a SQLite file in the user's data
    directory (:func:`sixtysix.play.userdata.data_dir`, shared with the terminal game)."""
    url = os.environ.get("SIXTYSIX_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{data_dir() / 'games.db'}"


@dataclass
class Settings:
    """How the server runs; the limits protect it from a misbehaving client."""

    database_url: str = "sqlite://"
    #: Messages a connection may send: ``message_burst`` at once, ``message_rate`` a second.
    message_rate: float = 20.0
    message_burst: float = 40.0
    #: Refused messages after which a connection is closed.
    max_strikes: int = 200
    #: Open WebSocket connections per client address.
    connections_per_client: int = 32
    #: Spectators one game takes at once (``None``: no limit); the next is refused
    #: (``too_many_spectators``). Seats are always taken.
    spectators_per_game: int | None = SPECTATORS
    #: Games a client address (and an account) may start, every way games start (the lobby,
    #: a seat taken, quick pairing, a rematch, a tournament's match: sixtysix.server.fairplay):
    #: a burst, then one every ``1 / create_rate`` seconds.
    create_rate: float = 0.5
    create_burst: float = 40.0
    #: Seconds a new connection has to introduce itself.
    hello_timeout: float = 10.0
    #: The largest request body taken, in bytes (refused with 413 before it is read).
    max_body_bytes: int = 16 * 1024
    #: Seconds after which a game nobody has moved in is marked abandoned (checked at
    #: start-up and every ``abandon_check_every`` seconds): it stays in storage and in the
    #: lobby's list of abandoned games, but nobody can play it any more (``None``: never).
    abandoned_after: float | None = 24 * 3600.0
    abandon_check_every: float = 600.0
    #: Games waiting or being played that one client address may have made or sat down in at once.
    unfinished_per_client: int = 20
    #: Games waiting or being played that one account may hold a seat in at once.
    unfinished_per_account: int = 10
    #: Rated games a day between the same two accounts, and between people with a seat held
    #: from one client address (``too_many_rated``).
    rated_per_pair: int = 10
    rated_per_address: int = 50
    #: Rated matches a player may call off (before the first trick is complete) in a day;
    #: the next bars him from rated play for ``abort_bar`` seconds, each further bar within
    #: a day twice as long (``rated_barred``).
    abort_budget: int = 3
    abort_bar: float = 15 * 60.0
    #: Tournaments an account (and an address) may make: a burst, then one every
    #: ``1 / tournament_rate`` seconds; and how many of its own may be coming or played at once.
    tournament_rate: float = 1 / 600
    tournament_burst: float = 3.0
    tournaments_per_account: int = 3
    #: Puzzle attempts a client address may make (each may move two ratings): a burst,
    #: then ``puzzle_rate`` a second (``too_many_attempts``).
    puzzle_rate: float = 0.5
    puzzle_burst: float = 60.0
    tournaments_per_address: int = 5
    #: This process's number when several serve one database (see docs/web.md), else ``None``.
    shard: int | None = None
    #: External engines offered as computer opponents, ``(name, command)`` (``sixtysix serve
    #: --engine NAME=COMMAND``); each game against one runs ``make_bot("engine:" + command)``.
    engines: tuple[tuple[str, str], ...] = ()
    #: Seconds a player of a game against a person may be away (no connection) while the
    #: opponent is at the table before losing the match (``sixtysix serve --grace``).
    grace: float = GRACE
    #: Seconds after a deal before the first player's clock starts.
    hand_break: float = HAND_BREAK
    #: Deals and the computer players' choices from this seed (``sixtysix serve --seed``):
    #: the same games again, for tests and demonstrations only (whoever knows it knows every
    #: deck). ``None``: the operating system's generator, which nobody can predict.
    seed: int | None = None
    #: Redis, for clients of one game on different processes (sixtysix.server.relay).
    redis_url: str | None = None
    #: With a ``shard``: seconds a shard's lease lasts unrenewed (it is renewed five times
    #: in that time), so how long the games of a killed process wait before another
    #: process takes them over (sixtysix.server.shards).
    lease: float = 10.0
    #: Seconds a login lasts (accounts: sixtysix.server.account_api): 30 days.
    session_lifetime: float = 30 * 24 * 3600.0
