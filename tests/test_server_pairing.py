"""Quick pairing (sixtysix.server.pairing, docs/web.md "Quick pairing"): two people who
want the same game meet; ratings far apart, other rules or the same account do not;
nobody within the wait gives the computer level rated nearest the player; a player
who leaves the queue leaves no game behind."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from typing import Any

import pytest

from helpers import need_module

need_module("sqlalchemy", "the web extra")
need_module("fastapi", "the web extra")

from sixtysix.measure.glicko import Rating  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server.games import GameError, GameManager, parse_clock  # noqa: E402
from sixtysix.server.pairing import MAX_RANGE, RANGE, WIDEN, Pairing, Request  # noqa: E402
from sixtysix.server.ratings import Computer, Person, Ratings  # noqa: E402
from sixtysix.server.storage import Storage  # noqa: E402

LEVELS = {"random": Rating(640, 44), "easy": Rating(980, 38), "medium": Rating(1500, 30)}


class Seconds:
    """The pairing's clock, moved by the test (no waiting on real time)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def setup(clock: Seconds | None = None) -> tuple[GameManager, Pairing]:
    storage = Storage("sqlite://")
    manager = GameManager(storage, rng=random.Random(3),
                          ratings=Ratings(storage.engine, levels=LEVELS))
    if clock is None:
        return manager, Pairing(manager)
    # Looks over the queue only when the test asks (widen), never on its own.
    return manager, Pairing(manager, clock=clock, step=3600.0)


def wish(user: tuple[int, str] | None = None, *, rules: str = "classic", clock: str | None = "5+3",
         rated: bool = False, name: str = "") -> Request:
    shown = name or (user[1] if user else "Guest")
    return Request(Rules.parse(rules), parse_clock(clock), rated, user, shown, "127.0.0.1")


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_two_people_who_want_the_same_game_meet() -> None:
    _, pairing = setup()

    async def scenario() -> tuple[Any, Any]:
        first = asyncio.create_task(pairing.seek(wish((1, "Anna"), rated=True), wait=60))
        await asyncio.sleep(0)  # Anna is in the queue
        assert len(pairing.waiting) == 1
        second = await pairing.seek(wish((2, "Bob"), rated=True), wait=60)
        return await first, second

    anna, bob = run(scenario())
    assert anna.game is bob.game and (anna.seat, bob.seat) == (0, 1) and anna.opponent == "person"
    game = anna.game
    assert game.names == ["Anna", "Bob"] and game.users == [1, 2] and game.rated
    assert game.clock is not None and str(game.clock.control) == "5+3" and game.status == "playing"
    assert game.seat_of(anna.token) == 0 and game.seat_of(bob.token) == 1
    assert pairing.waiting == []


@pytest.mark.parametrize("other", [
    wish((2, "Bob"), rules="santase"),
    wish((2, "Bob"), clock="3+2"),
    wish((2, "Bob"), clock=None),
    wish((2, "Bob"), rated=True),
    wish((1, "Anna")),  # the same account in another tab
])
def test_different_wishes_do_not_meet(other: Request) -> None:
    _, pairing = setup()

    async def scenario() -> tuple[Any, Any]:
        first = asyncio.create_task(pairing.seek(wish((1, "Anna")), wait=0.05))
        await asyncio.sleep(0)
        second = await pairing.seek(other, wait=0.05)
        return await first, second

    anna, bob = run(scenario())
    assert anna.opponent == bob.opponent == "computer" and anna.game is not bob.game


def test_ratings_far_apart_do_not_meet_and_near_ones_do() -> None:
    manager, pairing = setup()
    ratings = manager.ratings
    assert ratings is not None
    # Anna wins often against medium: her classic rating rises well above Bob's 1500.
    for n in range(6):
        ratings.rate(f"warm-{n}", "classic", (Person(1, "Anna"), Computer("medium")), winner=0)
    strong = ratings.standing(1, "classic").rating.rating
    assert strong - 1500 > RANGE

    async def scenario(user: tuple[int, str]) -> tuple[Any, Any]:
        first = asyncio.create_task(pairing.seek(wish((1, "Anna"), rated=True), wait=0.05))
        await asyncio.sleep(0)
        second = await pairing.seek(wish(user, rated=True), wait=0.05)
        return await first, second

    anna, bob = run(scenario((2, "Bob")))
    assert anna.opponent == bob.opponent == "computer"
    # Nobody came: each gets the computer level rated nearest his own rating.
    assert anna.game.level == "medium" and bob.game.level == "medium"
    for n in range(6):
        ratings.rate(f"warm-c-{n}", "classic", (Person(3, "Cleo"), Computer("medium")), winner=0)
    anna, cleo = run(scenario((3, "Cleo")))
    assert anna.game is cleo.game


def test_nobody_comes_the_computer_rated_nearest_the_player_does() -> None:
    manager, pairing = setup()
    ratings = manager.ratings
    assert ratings is not None
    for n in range(8):  # Dan loses to easy often: his rating falls near easy's
        ratings.rate(f"d-{n}", "classic", (Person(4, "Dan"), Computer("easy")), winner=1)
    dan = ratings.standing(4, "classic").rating.rating
    nearest = min(LEVELS, key=lambda level: abs(LEVELS[level].rating - dan))
    paired = run(pairing.seek(wish((4, "Dan"), rated=True), wait=0))
    assert paired.opponent == "computer" and paired.game.level == nearest and paired.game.rated
    guest = run(pairing.seek(wish(None), wait=0))
    assert guest.game.level == "medium" and not guest.game.rated  # a guest counts as 1500


def test_a_rated_wish_without_an_account_is_refused_at_once() -> None:
    _, pairing = setup()
    with pytest.raises(GameError) as info:
        run(pairing.seek(wish(None, rated=True), wait=60))
    assert info.value.code == "needs_account" and pairing.waiting == []


def test_a_player_who_stops_waiting_leaves_the_queue_and_no_game() -> None:
    manager, pairing = setup()

    async def scenario() -> None:
        task = asyncio.create_task(pairing.seek(wish((1, "Anna")), wait=60))
        await asyncio.sleep(0)
        assert len(pairing.waiting) == 1
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    before = set(manager.games)
    run(scenario())
    assert pairing.waiting == [] and set(manager.games) == before


def test_a_stopping_server_tells_its_waiting_players_to_ask_again_elsewhere() -> None:
    manager, pairing = setup()

    async def scenario() -> None:
        task = asyncio.create_task(pairing.seek(wish((1, "Anna")), wait=600))
        await asyncio.sleep(0)
        assert len(pairing.waiting) == 1
        pairing.stop()
        with pytest.raises(GameError) as told:
            await task
        # 503: behind nginx (deploy/nginx.conf) the request goes on to another process.
        assert (told.value.code, told.value.status) == ("stopping", 503)
        with pytest.raises(GameError) as late:  # nobody new waits here
            await pairing.seek(wish((2, "Bob")), wait=600)
        assert late.value.code == "stopping"

    before = set(manager.games)
    run(scenario())
    assert pairing.waiting == [] and set(manager.games) == before  # no game made, not even the computer


def test_over_http_two_players_meet_and_a_lone_one_gets_the_computer() -> None:
    from fastapi.testclient import TestClient

    from sixtysix.server import Settings, create_app

    with TestClient(create_app(Settings(database_url="sqlite://"))) as client:
        lone = client.post("/api/pairing", json={"rules": "classic", "wait": 0}).json()
        assert lone["opponent"] == "computer" and lone["game"]["kind"] == "computer" and lone["token"]
        assert client.post("/api/pairing", json={"rated": True, "wait": 0}).json()["code"] == "needs_account"
        assert client.post("/api/pairing", json={"wait": 601}).status_code == 422
        body = {"rules": "santase", "clock": "3+2", "wait": 30}
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            first = pool.submit(lambda: client.post("/api/pairing", json={**body, "name": "Ann"}).json())
            pairing: Pairing = client.app.state.pairing  # type: ignore[attr-defined]
            while not pairing.waiting:  # Ann's request is in the queue (the app's own loop)
                concurrent.futures.wait([first], timeout=0.01)
            second = client.post("/api/pairing", json={**body, "name": "Bob"}).json()
            ann = first.result()
        assert ann["id"] == second["id"] and (ann["seat"], second["seat"]) == (0, 1)
        assert ann["opponent"] == second["opponent"] == "person"
        assert second["game"]["players"] == ["Ann", "Bob"] and second["game"]["clock"]["control"] == "3+2"


def test_the_rating_range_widens_while_a_player_waits() -> None:
    """Issue 36, item 5: two players too far apart at first meet once the longer wait's
    reach covers them (as lichess widens a seek's range), and not before."""
    clock = Seconds()
    manager, pairing = setup(clock)
    ratings = manager.ratings
    assert ratings is not None
    for n in range(6):
        ratings.rate(f"warm-{n}", "classic", (Person(1, "Anna"), Computer("medium")), winner=0)
    gap = ratings.standing(1, "classic").rating.rating - 1500
    assert RANGE < gap < MAX_RANGE
    needed = (gap - RANGE) / WIDEN  # seconds of waiting until Anna's reach covers Bob

    async def scenario() -> tuple[Any, Any]:
        anna = asyncio.create_task(pairing.seek(wish((1, "Anna"), rated=True), wait=600))
        await asyncio.sleep(0)
        bob = asyncio.create_task(pairing.seek(wish((2, "Bob"), rated=True), wait=600))
        await asyncio.sleep(0)
        assert len(pairing.waiting) == 2  # too far apart when Bob came
        clock.t += needed - 1
        pairing.widen()
        assert len(pairing.waiting) == 2 and not anna.done()
        clock.t += 2
        pairing.widen()
        return await anna, await bob

    anna, bob = run(scenario())
    assert anna.game is bob.game and (anna.seat, bob.seat) == (0, 1) and anna.opponent == "person"
    assert pairing.waiting == []


def test_the_queue_is_looked_over_again_while_players_wait() -> None:
    """The waiting players' own tasks widen the range (every step): nobody new need come."""
    clock = Seconds()
    manager, _ = setup()
    pairing = Pairing(manager, clock=clock, step=0.01)
    ratings = manager.ratings
    assert ratings is not None
    for n in range(6):
        ratings.rate(f"warm-{n}", "classic", (Person(1, "Anna"), Computer("medium")), winner=0)
    gap = ratings.standing(1, "classic").rating.rating - 1500
    assert RANGE < gap < MAX_RANGE

    async def scenario() -> tuple[Any, Any]:
        anna = asyncio.create_task(pairing.seek(wish((1, "Anna"), rated=True), wait=600))
        await asyncio.sleep(0)
        bob = asyncio.create_task(pairing.seek(wish((2, "Bob"), rated=True), wait=600))
        await asyncio.sleep(0)
        assert len(pairing.waiting) == 2
        clock.t += (gap - RANGE) / WIDEN + 1  # the pairing's clock: their reach covers them now
        return await asyncio.wait_for(asyncio.gather(anna, bob), 30)  # a bound, not a wait

    anna, bob = run(scenario())
    assert anna.game is bob.game and anna.opponent == "person"


def test_a_waiting_player_is_told_his_range_the_others_waiting_and_the_computer_to_come() -> None:
    clock = Seconds()
    _, pairing = setup(clock)
    guest = wish(None)
    told = pairing.outlook(guest, 0)
    # A guest counts as 1500; the computer level rated nearest 1500 is medium (LEVELS).
    assert told == {"rating": 1500, "low": 1500 - RANGE, "high": 1500 + RANGE, "widens": True, "waiting": 0,
                    "computer": "medium"}
    later = pairing.outlook(guest, 10)
    assert (later["low"], later["high"]) == (1500 - RANGE - 10 * WIDEN, 1500 + RANGE + 10 * WIDEN)
    widest = pairing.outlook(guest, 3600)
    assert widest["high"] - widest["rating"] == MAX_RANGE and widest["widens"] is False

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        task = asyncio.create_task(pairing.seek(wish((1, "Anna")), wait=600))
        await asyncio.sleep(0)
        try:
            # Anna waits for this game: another player is told so, Anna herself is not
            # counted, and nor is a wish for other rules.
            return (pairing.outlook(wish((2, "Bob")), 0), pairing.outlook(wish((1, "Anna")), 0),
                    pairing.outlook(wish((2, "Bob"), rules="santase"), 0))
        finally:
            task.cancel()

    bob, anna, other = run(scenario())
    assert (bob["waiting"], anna["waiting"], other["waiting"]) == (1, 0, 0)


def test_over_http_a_waiting_player_reads_his_outlook() -> None:
    from fastapi.testclient import TestClient

    from sixtysix.server import Settings, create_app

    with TestClient(create_app(Settings(database_url="sqlite://"))) as client:
        asked = {"rules": "classic", "clock": "5+3", "waited": 5}
        told = client.get("/api/pairing/outlook", params=asked).json()
        assert told["rating"] == 1500 and told["high"] - told["low"] == 2 * (RANGE + 5 * WIDEN)
        # The level announced is the one that comes when nobody does.
        lone = client.post("/api/pairing", json={"rules": "classic", "clock": "5+3", "wait": 0}).json()
        assert lone["opponent"] == "computer" and lone["game"]["level"] == told["computer"]
        refused = client.get("/api/pairing/outlook", params={"clock": "soon"})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_clock"
