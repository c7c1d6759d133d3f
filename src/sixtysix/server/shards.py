"""Which server process serves which shard of the games: leases in the database.

With several processes (``sixtysix serve --shard K``), a game belongs to the shard
of its id's prefix (``sK-``), and one process at a time serves a shard: its
*holder*, written in the ``shards`` table with a lease that the holder renews
every heartbeat. A lease not renewed for :attr:`Keeper.lease` seconds has run out.

- A process starts by claiming its own shard, its *home*. It takes it when it is
  free or its lease ran out (the process before it was killed). When another
  process holds it as an adopter, the home marks it *wanted* and that process hands
  it back at its next heartbeat. When another process holds it as its home and
  keeps renewing, two processes were started with one ``--shard``: the second
  refuses to start (:class:`ShardError`).
- A process stopped properly releases its shards; a process killed stops renewing.
  Either way, at their next heartbeat the other processes find the shard free or
  run out, and one of them adopts it (one atomic ``UPDATE`` decides which): it
  resumes the shard's unfinished games from the database and, with Redis, takes
  the shard's inbox, so clients reaching any process are relayed to it
  (sixtysix.server.relay). Time during which no process served a game is nobody's:
  the clock of the seat to act starts again when the game is taken over.
- A process serves a shard only while its lease is valid by its own monotonic
  clock, counted from before the renewal was sent and ending a heartbeat before the
  lease the others see runs out: a process that stalled (paused, swapped out) stops
  writing before anyone may take its games over. Never two processes write one game.

The database is the one place that says who holds what; nothing here needs Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import Boolean, Float, Integer, String, insert, or_, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from sixtysix.server.redis_errors import REDIS_FAILURES
from sixtysix.server.storage import FAILURES, create_tables

__all__ = ["Holder", "Keeper", "ShardError", "Shards"]

#: What letting a shard's games go may raise: storing their clocks, leaving their channel.
LET_GO_FAILURES: tuple[type[Exception], ...] = (*FAILURES, *REDIS_FAILURES)

log = logging.getLogger("sixtysix.server")


class ShardError(RuntimeError):
    """A process cannot serve its shard (another live process serves it as its own)."""


class Base(DeclarativeBase):
    pass


class ShardRow(Base):
    """One shard: who holds it, until when, and whether its home process wants it back."""

    __tablename__ = "shards"

    shard: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    #: The holding process's name (random at each start); ``None``: free.
    holder: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: Whether the holder serves the shard as its own (``--shard``) or adopted it.
    home: Mapped[bool] = mapped_column(Boolean, default=False)
    #: When the holder's lease runs out, seconds since the epoch.
    until: Mapped[float] = mapped_column(Float, default=0.0)
    #: A process started for this shard that waits for the adopter to hand it back, and
    #: until when that wish holds (renewed while it waits).
    wanted: Mapped[str | None] = mapped_column(String(32), nullable=True)
    wanted_until: Mapped[float] = mapped_column(Float, default=0.0)


@dataclass(frozen=True)
class Holder:
    """Who holds a shard, as the table says."""

    holder: str | None
    home: bool
    until: float


class Shards:
    """The ``shards`` table: each call one short transaction."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        create_tables(Base.metadata, engine)

    def holder(self, shard: int) -> Holder | None:
        with self.engine.connect() as db:
            row = db.execute(select(ShardRow.holder, ShardRow.home, ShardRow.until)
                             .where(ShardRow.shard == shard)).first()
        return None if row is None else Holder(row.holder, bool(row.home), float(row.until))

    def claim(self, shard: int, me: str, *, home: bool, now: float, lease: float) -> bool:
        """Take ``shard`` if it is free, run out or already ``me``'s; returns whether it is
        ``me``'s now. An adopter (``home`` false) leaves alone a shard its home waits for."""
        self._ensure(shard)
        taken = or_(ShardRow.holder.is_(None), ShardRow.until < now, ShardRow.holder == me)
        condition = [ShardRow.shard == shard, taken]
        if not home:
            condition.append(or_(ShardRow.wanted.is_(None), ShardRow.wanted_until < now,
                                 ShardRow.wanted == me))
        with self.engine.begin() as db:
            result = db.execute(update(ShardRow).where(*condition).values(
                holder=me, home=home, until=now + lease,
                **({"wanted": None, "wanted_until": 0.0} if home else {})))
        return result.rowcount == 1

    def want(self, shard: int, me: str, *, now: float, lease: float) -> None:
        """Ask the process holding ``me``'s home shard to hand it back."""
        self._ensure(shard)
        with self.engine.begin() as db:
            db.execute(update(ShardRow).where(ShardRow.shard == shard)
                       .values(wanted=me, wanted_until=now + lease))

    def renew(self, me: str, *, now: float, lease: float) -> tuple[set[int], set[int]]:
        """Extend ``me``'s leases; returns the shards ``me`` still holds, and those of them
        adopted whose home process waits for them."""
        with self.engine.begin() as db:
            db.execute(update(ShardRow).where(ShardRow.holder == me).values(until=now + lease))
            rows = db.execute(select(ShardRow.shard, ShardRow.home, ShardRow.wanted, ShardRow.wanted_until)
                              .where(ShardRow.holder == me)).all()
        held = {row.shard for row in rows}
        wanted = {row.shard for row in rows
                  if not row.home and row.wanted is not None and row.wanted != me and row.wanted_until >= now}
        return held, wanted

    def free(self, *, now: float) -> list[int]:
        """Shards nobody serves (released, or their holder's lease ran out) and no home waits for."""
        with self.engine.connect() as db:
            rows = db.execute(select(ShardRow.shard).where(
                or_(ShardRow.holder.is_(None), ShardRow.until < now),
                or_(ShardRow.wanted.is_(None), ShardRow.wanted_until < now)).order_by(ShardRow.shard)).all()
        return [row.shard for row in rows]

    def release(self, shard: int, me: str) -> None:
        with self.engine.begin() as db:
            db.execute(update(ShardRow).where(ShardRow.shard == shard, ShardRow.holder == me)
                       .values(holder=None, until=0.0))

    def _ensure(self, shard: int) -> None:
        with self.engine.connect() as db:
            if db.execute(select(ShardRow.shard).where(ShardRow.shard == shard)).first() is not None:
                return
        with contextlib.suppress(IntegrityError), self.engine.begin() as db:  # another made it first
            db.execute(insert(ShardRow).values(shard=shard, holder=None, home=False, until=0.0,
                                               wanted=None, wanted_until=0.0))


class Keeper:
    """A process's leases: its home shard claimed at start, renewed every ``heartbeat``
    seconds, shards left by stopped processes adopted, adopted ones handed back.

    ``adopt(shard)`` starts serving a shard's games (resumed from the database) and
    ``give_up(shard)`` stops (the games leave memory, their clients are told to
    reconnect); ``valid(shard, until)`` tells the games' manager until when (a
    :func:`time.monotonic` moment) this process may write a shard's games."""

    def __init__(self, shards: Shards, home: int, *,
                 adopt: Callable[[int], Awaitable[None]], give_up: Callable[[int], Awaitable[None]],
                 valid: Callable[[int, float], None], heartbeat: float = 2.0, lease: float = 10.0,
                 wall: Callable[[], float] = time.time) -> None:
        if not 0 < 2 * heartbeat < lease:
            raise ValueError("a lease must last more than two heartbeats")
        self.shards = shards
        self.home = home
        self.me = secrets.token_hex(8)
        self.heartbeat = heartbeat
        self.lease = lease
        self.wall = wall
        self._adopt, self._give_up, self._valid = adopt, give_up, valid
        #: The shards this process serves now.
        self.held: set[int] = set()
        self._task: asyncio.Task[None] | None = None
        self._managing: asyncio.Task[None] | None = None
        #: Tells the other processes to look at the shards now (they :meth:`wake`): when
        #: this one released its shards, or wants its own back. Without it they see it at
        #: their next heartbeat.
        self.announce: Callable[[], Awaitable[None]] | None = None
        self._poked = asyncio.Event()
        self._again = False

    async def start(self) -> None:
        """Claim the home shard, waiting for an adopter to hand it back or for the lease of
        a killed process to run out; :class:`ShardError` if a live process serves it as
        its own. Then keep the leases in the background."""
        seen: Holder | None = None
        waited = 0.0
        announced = False
        while True:
            started = time.monotonic()
            now = self.wall()
            if self.shards.claim(self.home, self.me, home=True, now=now, lease=self.lease):
                break
            holder = self.shards.holder(self.home)
            if holder is not None and holder.home:
                if seen is not None and holder.holder == seen.holder and holder.until > seen.until \
                        and waited > self.heartbeat:
                    raise ShardError(f"shard {self.home} is served by another running process: "
                                     "was --shard given twice?")
                if seen is None or holder.holder != seen.holder:
                    log.info("shard %d is still held by a process that stopped: waiting up to %.0f s",
                             self.home, holder.until - now)
                seen = holder
            else:
                self.shards.want(self.home, self.me, now=now, lease=self.lease)
                if not announced:  # the adopter hands it back at once
                    announced = await self._announce()
            with contextlib.suppress(TimeoutError):  # until the next try, or a word that it is free
                await asyncio.wait_for(self._poked.wait(), self.heartbeat / 2)
            self._poked.clear()
            waited += time.monotonic() - started
        self._valid(self.home, started + self.lease - self.heartbeat)
        self.held.add(self.home)
        await self._adopt(self.home)
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def _keep(self) -> None:
        """Renew every heartbeat, whatever else is going on: taking a big shard over
        takes seconds, and must never let this process's own leases run out. Hand-backs
        and takeovers run beside it, one round at a time."""
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                wanted, now, started = await self.renew()
            except asyncio.CancelledError:
                raise
            except Exception:
                # A boundary: the heartbeat must outlive whatever a round meets (the database
                # hiccupped, a shard lost could not be let go); leases run out by themselves.
                log.exception("the shard leases could not be renewed")
                continue
            if self._managing is None or self._managing.done():
                self._managing = asyncio.get_running_loop().create_task(
                    self._manage_logged(wanted, now=now, started=started))

    async def tick(self) -> None:
        """One heartbeat, all of it in turn: renew, hand back, take the home shard back, adopt."""
        wanted, now, started = await self.renew()
        await self.manage(wanted, now=now, started=started)

    async def renew(self) -> tuple[set[int], float, float]:
        """Renew this process's leases; a shard found lost (this process stalled past its
        lease and another took it) is given up at once. Returns the shards held that their
        home wants back, the wall time and the monotonic moment the renewal started."""
        started = time.monotonic()
        now = self.wall()
        held, wanted = self.shards.renew(self.me, now=now, lease=self.lease)
        valid_until = started + self.lease - self.heartbeat
        for shard in sorted(self.held - held):
            log.warning("shard %d: the lease was lost; its games are no longer served here", shard)
            self.held.discard(shard)
            await self._give_up(shard)
        for shard in sorted(held & self.held):  # not one being handed back meanwhile
            self._valid(shard, valid_until)
        return wanted & self.held, now, started

    async def manage(self, wanted: set[int], *, now: float, started: float) -> None:
        """Hand back what is wanted, take the home shard back, adopt free shards."""
        handed = False
        for shard in sorted(wanted):
            if shard not in self.held:
                continue
            log.info("shard %d: handed back to its own process", shard)
            self.held.discard(shard)
            await self._give_up(shard)
            self.shards.release(shard, self.me)
            handed = True
        if handed:
            await self._announce()  # its process, waiting for it, takes it at once
        if self.home not in self.held:
            await self._take(self.home, home=True, now=now, started=started)
        for shard in self.shards.free(now=now):
            if shard not in self.held and shard != self.home:
                await self._take(shard, home=False, now=now, started=started)

    async def _announce(self) -> bool:
        if self.announce is None:
            return False
        try:
            await self.announce()
        except REDIS_FAILURES:  # Redis is down: the others see it at their next heartbeat
            log.warning("could not tell the other processes to look at the shards", exc_info=True)
            return False
        return True

    def wake(self) -> None:
        """Look for free shards now rather than at the next heartbeat (another process
        said it released its own: its players wait for whoever takes them)."""
        self._poked.set()  # a start waiting for the home shard tries again
        if self._task is None:
            return
        self._again = True  # a round under way goes round once more
        if self._managing is None or self._managing.done():
            self._managing = asyncio.get_running_loop().create_task(self._round())

    async def _round(self) -> None:
        try:
            wanted, now, started = await self.renew()
        except Exception:  # a boundary: a background round, as the heartbeat's (see _keep)
            log.exception("the shard leases could not be renewed")
            return
        await self._manage_logged(wanted, now=now, started=started)

    async def _manage_logged(self, wanted: set[int], *, now: float, started: float) -> None:
        while True:
            self._again = False
            try:
                await self.manage(wanted, now=now, started=started)
            except Exception:
                # A boundary: taking a shard over rebuilds its games from their records;
                # whatever one round meets is logged, and the next heartbeat tries again.
                log.exception("the shards could not be handed back or taken over")
            if not self._again:
                return
            try:  # woken meanwhile: the shards are read again
                wanted, now, started = await self.renew()
            except Exception:  # a boundary, as above
                log.exception("the shard leases could not be renewed")
                return

    async def _take(self, shard: int, *, home: bool, now: float, started: float) -> None:
        if not self.shards.claim(shard, self.me, home=home, now=now, lease=self.lease):
            if home:
                self.shards.want(shard, self.me, now=now, lease=self.lease)
            return
        if home:
            log.info("shard %d: taken back", shard)
        else:
            log.warning("shard %d: taken over from a process that stopped", shard)
        self._valid(shard, started + self.lease - self.heartbeat)
        self.held.add(shard)
        await self._adopt(shard)

    async def close(self) -> None:
        """Stop renewing and release every shard (the games are all in the database):
        the other processes take them over at their next heartbeat."""
        for task in (self._task, self._managing):
            if task is not None:
                task.cancel()
                # Each logged what it met already (see _keep, _manage_logged).
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for shard in sorted(self.held):
            try:
                await self._give_up(shard)
            except LET_GO_FAILURES:  # its games are all in the database
                log.warning("shard %d: its games could not all be let go", shard, exc_info=True)
            try:
                self.shards.release(shard, self.me)
            except FAILURES:
                log.exception("shard %d could not be released: it is taken over when its lease runs out",
                              shard)
        if self.held:
            await self._announce()
        self.held.clear()
