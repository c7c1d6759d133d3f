"""Which games this process serves: with several server processes on one database,
each serves the games of the shards it holds (sixtysix.server.shards), and never
writes another's (docs/web.md)."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from sixtysix.server.errors import GameError, Reason

if TYPE_CHECKING:
    from sixtysix.server.games import Game

__all__ = ["Serving", "owner_shard", "shard_prefix"]


def owner_shard(game_id: str) -> int | None:
    """The shard a game belongs to (its id's ``sK-`` prefix), if any.

    >>> owner_shard("s12-abc"), owner_shard("abc"), owner_shard("sx-abc")
    (12, None, None)
    """
    head, sep, _ = game_id.partition("-")
    if not sep or len(head) < 2 or head[0] != "s" or not head[1:].isdigit():
        return None
    return int(head[1:])


def shard_prefix(shard: int | None) -> str:
    """How the ids of a shard's games start (no shard: every id).

    >>> shard_prefix(3), shard_prefix(None)
    ('s3-', '')
    """
    return "" if shard is None else f"s{shard}-"


class Serving:
    """The shards this process serves now: its own ``shard`` (``None``: the only process)
    for ever, unless leases decide (then also those it took over from a stopped process,
    each while its lease is valid)."""

    def __init__(self, shard: int | None) -> None:
        #: This process's number: the ids of the games it creates start with ``s{shard}-``,
        #: a load balancer sends every request naming a game to the process of its prefix.
        self.shard = shard
        self.prefix = shard_prefix(shard)
        #: Each shard served, until a :func:`time.monotonic` moment.
        self.held: dict[int, float] = {} if shard is None else {shard: math.inf}

    def holds(self, shard: int | None) -> bool:
        """Whether this process may serve (write) the games of ``shard`` now."""
        if self.shard is None:
            return True
        return shard is not None and self.held.get(shard, 0.0) > time.monotonic()

    def serves(self, game_id: str) -> bool:
        """Whether this process serves the game ``game_id`` now (its shard's lease is valid)."""
        return self.shard is None or self.holds(owner_shard(game_id))

    def check(self, game: Game) -> None:
        """Refuse to change ``game`` unless this process serves it (``moved``, 503)."""
        if not self.serves(game.id):
            # Never two processes writing one game: its shard's lease is no longer valid here.
            raise GameError(Reason.MOVED)

    def shards(self) -> list[int | None]:
        """The shards whose games this process writes now (``[None]``: every game)."""
        if self.shard is None:
            return [None]
        return [shard for shard in sorted(self.held) if self.holds(shard)]
