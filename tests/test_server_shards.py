"""Shards and their leases (sixtysix.server.shards): a stopped or killed server process's
games are taken over by another, handed back when it returns, and never written by two
processes at once; two processes started with one ``--shard`` are refused."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers import need_module

need_module("sqlalchemy", "the web extra")

from sixtysix.play.clock import TimeControl  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server.games import Connection, GameError, GameManager  # noqa: E402
from sixtysix.server.shards import Keeper, ShardError, Shards  # noqa: E402
from sixtysix.server.storage import Storage  # noqa: E402


@pytest.fixture
def shards(database_url: str) -> Iterator[Shards]:
    storage = Storage(database_url)
    yield Shards(storage.engine)
    storage.close()


# The table ----------------------------------------------------------------------------
def test_a_lease_is_one_process_s_until_it_runs_out(shards: Shards) -> None:
    assert shards.claim(1, "a", home=True, now=100.0, lease=10.0)
    assert not shards.claim(1, "b", home=False, now=105.0, lease=10.0)  # a's lease holds
    assert shards.claim(1, "a", home=True, now=105.0, lease=10.0)  # the holder again: renewed
    assert shards.holder(1) is not None and shards.holder(1).until == 115.0  # type: ignore[union-attr]
    assert shards.free(now=114.0) == []
    assert shards.free(now=116.0) == [1]  # a stopped renewing: run out
    assert shards.claim(1, "b", home=False, now=116.0, lease=10.0)
    held = shards.holder(1)
    assert held is not None and held.holder == "b" and not held.home


def test_renewal_keeps_what_is_still_held_and_says_what_is_wanted_back(shards: Shards) -> None:
    assert shards.claim(1, "a", home=True, now=0.0, lease=10.0)
    assert shards.claim(2, "a", home=False, now=0.0, lease=10.0)
    assert shards.renew("a", now=5.0, lease=10.0) == ({1, 2}, set())
    shards.want(2, "home-of-2", now=6.0, lease=10.0)
    assert shards.renew("a", now=7.0, lease=10.0) == ({1, 2}, {2})
    assert shards.renew("a", now=17.0, lease=10.0) == ({1, 2}, set())  # the wish ran out (16)
    # Taken by another while "a" stalled: a's renewal no longer holds it.
    assert shards.claim(1, "b", home=False, now=30.0, lease=10.0)
    assert shards.renew("a", now=31.0, lease=10.0) == ({2}, set())


def test_an_adopter_leaves_alone_a_shard_its_home_waits_for(shards: Shards) -> None:
    assert shards.claim(3, "old", home=True, now=0.0, lease=1.0)
    shards.want(3, "home", now=5.0, lease=10.0)
    assert shards.free(now=5.0) == []  # released or run out, but wanted by its home
    assert not shards.claim(3, "other", home=False, now=5.0, lease=10.0)
    assert shards.claim(3, "home", home=True, now=5.0, lease=10.0)
    held = shards.holder(3)
    assert held is not None and held.holder == "home" and held.home
    # Once the home holds it, its wish is gone: nothing is handed back.
    assert shards.renew("home", now=6.0, lease=10.0) == ({3}, set())


def test_only_the_holder_releases(shards: Shards) -> None:
    assert shards.claim(4, "a", home=True, now=0.0, lease=10.0)
    shards.release(4, "b")
    assert shards.free(now=1.0) == []
    shards.release(4, "a")
    assert shards.free(now=1.0) == [4]


# Keepers of several processes, in one event loop -----------------------------------------
class Process:
    """What a server process does when its keeper adopts or gives up a shard, noted with the
    moments (time.monotonic) it happened."""

    def __init__(self, shards: Shards, home: int) -> None:
        self.events: list[tuple[str, int, float]] = []
        self.valid: dict[int, float] = {}
        self.keeper = Keeper(shards, home, adopt=self._adopt, give_up=self._give_up,
                             valid=self.valid.__setitem__, heartbeat=0.2, lease=2.0)

    async def _adopt(self, shard: int) -> None:
        self.events.append(("adopt", shard, time.monotonic()))

    async def _give_up(self, shard: int) -> None:
        self.events.append(("give_up", shard, time.monotonic()))
        self.valid.pop(shard, None)

    def kill(self) -> None:
        """Stop as a killed process does: no more renewals, nothing released."""
        assert self.keeper._task is not None
        self.keeper._task.cancel()


async def until(predicate: Callable[[], bool], seconds: float = 30.0) -> None:
    """Let the keepers run until ``predicate`` holds (bounded: a broken keeper fails the test)."""
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "the keepers did not get there"
        await asyncio.sleep(0.02)


def test_keepers_take_over_a_killed_process_s_shard_and_hand_it_back(shards: Shards) -> None:
    async def scenario() -> None:
        one, two = Process(shards, 1), Process(shards, 2)
        await one.keeper.start()
        await two.keeper.start()
        assert one.keeper.held == {1} and two.keeper.held == {2}
        assert [e[:2] for e in one.events] == [("adopt", 1)]
        one.kill()
        killed_valid_until = one.valid[1]
        await until(lambda: two.keeper.held == {1, 2})
        taken = next(moment for kind, shard, moment in two.events if (kind, shard) == ("adopt", 1))
        # The killed process's own clock had stopped it writing before the other took over.
        assert killed_valid_until <= taken
        # It comes back: it waits for the adopter to hand its shard back.
        again = Process(shards, 1)
        await asyncio.wait_for(again.keeper.start(), 30)
        assert again.keeper.held == {1}
        assert ("give_up", 1) in [e[:2] for e in two.events]
        given = next(moment for kind, shard, moment in two.events if (kind, shard) == ("give_up", 1))
        back = next(moment for kind, shard, moment in again.events if (kind, shard) == ("adopt", 1))
        assert given <= back  # never both
        await until(lambda: two.keeper.held == {2})
        # A proper stop releases at once (the row says nobody holds it: no lease to run out),
        # and the other process takes it at its next heartbeat.
        await two.keeper.close()
        released = shards.holder(2)
        assert released is not None and released.holder in (None, again.keeper.me)
        await until(lambda: again.keeper.held == {1, 2})
        await again.keeper.close()

    asyncio.run(scenario())


def test_keepers_told_of_a_release_or_a_wish_act_at_once(shards: Shards) -> None:
    # Heartbeats of ten minutes: nothing below can happen in time unless the keepers tell
    # each other (as the server does through Redis) and act on it.
    async def scenario() -> None:
        one, two = Process(shards, 1), Process(shards, 2)
        for process in (one, two):
            process.keeper.heartbeat, process.keeper.lease = 600.0, 3600.0
        others: dict[Keeper, list[Keeper]] = {}

        def wire(process: Process) -> None:
            async def announce() -> None:
                for other in others[process.keeper]:
                    other.wake()
            process.keeper.announce = announce

        others[one.keeper], others[two.keeper] = [two.keeper], [one.keeper]
        wire(one)
        wire(two)
        await one.keeper.start()
        await two.keeper.start()
        await one.keeper.close()  # a proper stop, told: two takes shard 1 over
        await until(lambda: two.keeper.held == {1, 2})
        # One comes back and says it wants its shard: two hands it back, and says so.
        again = Process(shards, 1)
        again.keeper.heartbeat, again.keeper.lease = 600.0, 3600.0
        others[again.keeper], others[two.keeper] = [two.keeper], [again.keeper]
        wire(again)
        await asyncio.wait_for(again.keeper.start(), 30)
        assert again.keeper.held == {1}
        await until(lambda: two.keeper.held == {2})
        for keeper in (two.keeper, again.keeper):
            others[keeper] = []
            await keeper.close()

    asyncio.run(scenario())


def test_a_process_started_again_at_once_after_a_kill_waits_for_the_old_lease(shards: Shards) -> None:
    async def scenario() -> None:
        first = Process(shards, 6)
        await first.keeper.start()
        first.kill()
        held = shards.holder(6)
        assert held is not None and held.home
        again = Process(shards, 6)
        await asyncio.wait_for(again.keeper.start(), 30)
        assert time.time() >= held.until  # not before the killed process's lease ran out
        assert again.keeper.held == {6} and [e[:2] for e in again.events] == [("adopt", 6)]
        await again.keeper.close()

    asyncio.run(scenario())


def test_a_second_process_for_one_shard_is_refused(shards: Shards) -> None:
    async def scenario() -> None:
        first = Process(shards, 5)
        await first.keeper.start()
        second = Process(shards, 5)
        with pytest.raises(ShardError, match="shard 5 is served by another running process"):
            await asyncio.wait_for(second.keeper.start(), 30)
        assert first.keeper.held == {5} and second.events == []
        await first.keeper.close()

    asyncio.run(scenario())


def test_a_process_that_stalled_gives_its_shard_up_when_it_wakes(shards: Shards) -> None:
    async def scenario() -> None:
        slow, other = Process(shards, 1), Process(shards, 2)
        await slow.keeper.start()
        await other.keeper.start()
        slow.kill()  # stalls: no heartbeat for longer than the lease
        await until(lambda: other.keeper.held == {1, 2})
        await slow.keeper.tick()  # wakes up: its renewal finds the shard gone
        assert ("give_up", 1) in [e[:2] for e in slow.events] and 1 not in slow.keeper.held
        assert other.keeper.held == {1, 2}
        for process in (slow, other):
            await process.keeper.close()

    asyncio.run(scenario())


def test_a_keeper_needs_a_lease_longer_than_two_heartbeats(shards: Shards) -> None:
    async def nothing(shard: int) -> None:
        return None

    with pytest.raises(ValueError, match="two heartbeats"):
        Keeper(shards, 1, adopt=nothing, give_up=nothing, valid=lambda s, t: None, heartbeat=1.0, lease=2.0)


# The games' manager --------------------------------------------------------------------
class FakeTime:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def test_a_game_given_up_keeps_its_clock_and_goes_on_where_it_stood(database_url: str) -> None:
    clock = FakeTime()
    one = GameManager(Storage(database_url), shard=1, now=clock, hand_break=0.0)
    game, _ = one.create(rules=Rules(), kind="person", name="Ann", clock=TimeControl.parse("5+3"))
    one.join(game.id, "Bob")
    rng = random.Random(3)
    for _ in range(5):
        hand = game.hand
        assert hand is not None and hand.to_act is not None
        clock.now += 4.0
        one.act(game, hand.to_act, rng.choice(hand.legal_actions()))
    assert game.clock is not None and game.clock.running is not None
    seat = game.to_act
    assert seat is not None
    before = game.clock.remaining(seat, clock.now)
    messages: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        messages.append(message)

    watcher = Connection(send, None)
    game.connections.add(watcher)
    clock.now += 30.0  # the seat to act thinks for 30 s, then the process hands the shard over
    assert one.give_up(1) == [game.id]
    assert game.id not in one.games and not one.holds(1)
    with pytest.raises(GameError) as refused:
        one.get(game.id)
    assert refused.value.code == "misdirected" and refused.value.status == 503
    queued = [watcher.queue.get_nowait() for _ in range(watcher.queue.qsize())]
    assert [m["type"] for m in queued if m is not None] == ["error", "_close"]
    assert queued[0] is not None and queued[0]["code"] == "moved"
    # Another process takes it over a minute later: the 30 s are charged, the minute is not.
    clock.now += 60.0
    two = GameManager(Storage(database_url), shard=2, now=clock, hand_break=0.0)
    two.held[1] = float("inf")
    (taken,) = two.resume_shard(1)
    assert taken.id == game.id and json.dumps(taken.record().to_json()) == json.dumps(game.record().to_json())
    assert taken.clock is not None and taken.clock.remaining(seat, clock.now) == pytest.approx(before - 30.0)
    hand = taken.hand
    assert hand is not None
    two.act(taken, seat, hand.legal_actions()[0])
    assert len(Storage(database_url).load(game.id).hands[-1].actions) == len(hand.actions)  # type: ignore[union-attr]


def test_a_lease_run_out_stops_every_write_at_once(database_url: str) -> None:
    manager = GameManager(Storage(database_url), shard=1)
    game, _ = manager.create(rules=Rules(), kind="person", name="Ann")
    manager.join(game.id, "Bob")
    manager.held[1] = time.monotonic() - 1.0  # the lease this process knows of has run out
    hand = game.hand
    assert hand is not None and hand.to_act is not None
    for write in (lambda: manager.act(game, hand.to_act, hand.legal_actions()[0]),  # type: ignore[arg-type]
                  lambda: manager.resign(game, 0)):
        with pytest.raises(GameError) as refused:
            write()
        assert refused.value.code == "moved"
    with pytest.raises(GameError) as starting:
        manager.create(rules=Rules(), kind="person", name="Cleo")
    assert starting.value.code == "starting"
    assert Storage(database_url).load(game.id).hands[-1].actions == []  # type: ignore[union-attr]


def test_a_game_asked_for_before_its_turn_to_be_resumed_restarts_its_clock_too(database_url: str) -> None:
    clock = FakeTime()
    one = GameManager(Storage(database_url), shard=1, now=clock, hand_break=0.0)
    game, _ = one.create(rules=Rules(), kind="person", name="Ann", clock=TimeControl.parse("5+3"))
    one.join(game.id, "Bob")
    seat = game.to_act
    assert seat is not None and game.clock is not None
    clock.now += 10.0
    before = game.clock.remaining(seat, clock.now)
    one.give_up(1)
    clock.now += 120.0  # two minutes with no process serving the game
    two = GameManager(Storage(database_url), shard=2, now=clock, hand_break=0.0)
    two.held[1] = float("inf")
    (stored,) = two.take_shard(1)
    asked = two.get(game.id)  # a client came first
    assert asked.clock is not None and asked.clock.remaining(seat, clock.now) == pytest.approx(before)
    assert two.resume(stored) is None and two.games[game.id] is asked  # not rebuilt twice
