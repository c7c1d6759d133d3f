"""Fair ratings and fair limits (issue 34; sixtysix.server.fairplay, docs/web.md
"Ratings" and "Limits"): a rated match ended before both players acted is not rated
(the farming attack), a pair of accounts and an address play only so many rated games
a day, repeated aborts bar rated play for a while, and every way a game starts is
counted by the one limiter (lobby, seat taken, challenge, quick pairing with
``wait: 0``, rematch, tournament match). Each flood is measured beside a control
(another pair, account or address) in the same test; time is the test's own."""

from __future__ import annotations

import asyncio
import random
from contextlib import contextmanager
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")
argon2 = need_module("argon2", "argon2-cffi, in the web extra")

from fastapi.testclient import TestClient  # noqa: E402

from server_support import Client, ManualTime, connect  # noqa: E402
from sixtysix.measure.glicko import Rating  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.fairplay import Admission, GameLimits, RatedLimits, RatedPlay  # noqa: E402
from sixtysix.server.games import Game, GameError, GameManager, parse_clock  # noqa: E402
from sixtysix.server.ratings import Ratings  # noqa: E402
from sixtysix.server.storage import Storage  # noqa: E402
from sixtysix.server.tournaments import TournamentLimits, Tournaments  # noqa: E402

PASSWORD = "correct horse battery"
LEVELS = {"random": Rating(640, 44), "medium": Rating(1500, 30)}
ONE = Rules.parse("classic,target=1")



def make_app(**settings: Any) -> Any:
    app = create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6, **settings))
    app.state.accounts.hasher = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    return app


def register(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def seat(client: TestClient, game_id: str, token: str, number: int) -> Any:
    return contextmanager(connect)(client, game_id, token, number)


def first_trick(players: list[Client]) -> None:
    """Both players act (the first legal action each time) until the first trick is
    complete. A connection may be a message behind the other (each is synced on its
    own): the one whose state shows its turn acts, the other waits a round."""
    for _ in range(50):
        for p in players:
            p.sync()
        if any(p.state is not None and not p.state["game"]["abortable"] for p in players):
            return
        movers = [p for p in players if p.my_turn]
        if movers:
            movers[0].act(movers[0].view["legal"][0])
    raise AssertionError("the first trick was never complete")


def rating_of(client: TestClient, name: str) -> int | None:
    ratings = client.get(f"/api/players/{name}").json()["ratings"]
    return None if not ratings else int(ratings[0]["rating"])


# Rated results ------------------------------------------------------------------------------

def test_the_farming_attack_leaves_the_rating_where_it_was() -> None:
    """Anna makes a rated match to 1, Bob takes the seat and resigns at once: the match
    ends, Anna wins it, nobody's rating moves, and the game says it was not rated.
    Bob's fifth such resignation in a day is refused: he is barred from rated play. The
    control, in the same test: Cleo resigns after the first trick, and Anna's rating moves."""
    app = make_app()
    with TestClient(app) as anna:
        bob, cleo = TestClient(app), TestClient(app)
        a, b, c = register(anna, "Anna"), register(bob, "Bob"), register(cleo, "Cleo")
        rated = {"kind": "person", "rules": "classic,target=1", "rated": True}
        budget = Settings().abort_budget
        for _ in range(budget + 1):
            game = anna.post("/api/games", json=rated, headers=a).json()
            joined = bob.post(f"/api/games/{game['id']}/join", json={}, headers=b).json()
            with seat(bob, game["id"], joined["token"], 1) as me:
                me.send({"type": "resign"})
                info = me.until(lambda s: s["game"]["status"] != "playing")["game"]
            assert (info["status"], info["ended"], info["winner"]) == ("finished", "resigned", 0)
            assert info["rated"] is False and info["unrated"] == "short" and info["rating_changes"] == {}
        assert rating_of(anna, "Anna") is None and rating_of(anna, "Bob") is None
        assert anna.get("/api/players/Anna").json()["history"] == []
        record = anna.get(f"/api/games/{game['id']}/record").json()
        assert record["rated"] is False and record["unrated"] == "short"
        listed = {g["id"]: g for g in anna.get("/api/games").json()["finished"]}
        assert listed[game["id"]]["rated"] is False
        # Bob called off more rated matches than the budget allows: rated play is closed to him.
        game = anna.post("/api/games", json=rated, headers=a).json()
        barred = bob.post(f"/api/games/{game['id']}/join", json={}, headers=b)
        assert barred.status_code == 403 and barred.json()["code"] == "rated_barred"
        assert barred.json()["args"]["minutes"] > 0 and "\n" not in barred.json()["error"]
        # The control: both players act, then Cleo resigns: a rated result.
        joined = cleo.post(f"/api/games/{game['id']}/join", json={}, headers=c).json()
        with seat(anna, game["id"], game["token"], 0) as her, \
                seat(cleo, game["id"], joined["token"], 1) as me:
            first_trick([her, me])
            me.send({"type": "resign"})
            info = me.until(lambda s: s["game"]["status"] != "playing")["game"]
        assert info["rated"] is True and info["unrated"] is None and info["winner"] == 0
        won = round(Rating().update([(Rating(), 1.0)]).rating)
        assert info["rating_changes"]["0"] == [1500, won] and rating_of(anna, "Anna") == won


def test_a_pair_of_accounts_plays_only_so_many_rated_games_a_day() -> None:
    app = make_app(rated_per_pair=3)
    with TestClient(app) as anna:
        bob, cleo, dan = TestClient(app), TestClient(app), TestClient(app)
        a, b, c, d = (register(client, name) for client, name in
                      ((anna, "Anna"), (bob, "Bob"), (cleo, "Cleo"), (dan, "Dan")))
        rated = {"kind": "person", "rules": "classic,target=1", "rated": True}

        def start(host: TestClient, h: dict[str, str], guest: TestClient, g: dict[str, str]) -> Any:
            game = host.post("/api/games", json=rated, headers=h).json()
            return guest.post(f"/api/games/{game['id']}/join", json={}, headers=g)

        for _ in range(3):
            assert start(anna, a, bob, b).status_code == 200
        refused = start(anna, a, bob, b)
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_rated"
        assert "rated games with each other today" in refused.json()["error"]
        refused = start(bob, b, anna, a)  # whoever sits where
        assert refused.json()["code"] == "too_many_rated"
        # The control pair, and each of the two with someone else, play on.
        for host, h, guest, g in ((cleo, c, dan, d), (anna, a, cleo, c), (dan, d, bob, b)):
            assert start(host, h, guest, g).status_code == 200
        # Unrated games between the two are not limited.
        game = anna.post("/api/games", json={"kind": "person"}, headers=a).json()
        assert bob.post(f"/api/games/{game['id']}/join", json={}, headers=b).status_code == 200


def rated_manager(now: ManualTime, **limits: Any) -> GameManager:
    storage = Storage("sqlite://")
    return GameManager(storage, rng=random.Random(5), now=now,
                       ratings=Ratings(storage.engine, now=now, levels=LEVELS),
                       rated_play=RatedPlay(storage.engine, RatedLimits(**limits), now=now))


def test_an_address_plays_only_so_many_rated_games_a_day_and_the_day_rolls_on() -> None:
    now = ManualTime()
    manager = rated_manager(now, per_pair=100, per_address=3)

    def start(first: int, second: int, at: str, other: str = "10.0.0.9") -> Game:
        game, _ = manager.create(rules=ONE, kind="person", user=(first, f"P{first}"), rated=True, creator=at)
        manager.join(game.id, user=(second, f"P{second}"), address=other)
        return game

    for n in range(3):
        start(1, 10 + n, "10.0.0.1", f"10.0.1.{n}")
    with pytest.raises(GameError) as refused:
        start(1, 20, "10.0.0.1")
    assert refused.value.code == "too_many_rated" and "your opponent's address" in str(refused.value)
    with pytest.raises(GameError) as refused:
        start(2, 21, "10.0.0.2", "10.0.0.1")  # the address in either seat
    assert "your address" in str(refused.value)
    start(3, 22, "10.0.0.3", "10.0.0.4")  # the control: other addresses
    now.t += 86_400 + 1
    start(1, 20, "10.0.0.1")


def test_aborts_past_the_budget_bar_rated_play_for_a_while_and_longer_each_time() -> None:
    """The issue's "abort until the deal is good": Anna looks at her hand and calls the
    rated game against the computer off, again and again. The fourth time in a day she is
    barred from rated play for 15 minutes (unrated play stays open); the next abort
    after the bar bars her for 30. Bob, the control, calls off unrated games as often as
    he likes."""
    now = ManualTime()
    manager = rated_manager(now, abort_budget=3, bar=900.0)
    anna, bob = (1, "Anna"), (2, "Bob")

    def rated_game(who: tuple[int, str]) -> Game:
        return manager.create(rules=ONE, kind="computer", level="medium", user=who, rated=True)[0]

    def barred(who: tuple[int, str]) -> bool:
        try:
            manager.abort(rated_game(who), 0)
        except GameError as exc:
            assert exc.code == "rated_barred" and exc.status == 403
            return True
        return False

    for n in range(3):
        game = rated_game(anna)
        if n == 1:
            manager.resign(game, 0)  # a resignation before the first trick counts the same
            assert game.unrated == "short" and not game.rated
        else:
            manager.abort(game, 0)
        now.t += 60
    assert not barred(anna)  # the fourth abort: over the budget
    assert barred(anna)
    manager.create(rules=ONE, kind="computer", level="medium", user=anna)  # unrated: open
    for _ in range(10):
        game = manager.create(rules=ONE, kind="computer", level="medium", user=bob)[0]
        manager.abort(game, 0)
    assert not barred(bob)
    now.t += 899
    assert barred(anna)
    now.t += 2
    assert not barred(anna)  # free again, and over the budget still: barred twice as long
    now.t += 1799
    assert barred(anna)
    now.t += 2
    game = rated_game(anna)
    assert game.rated


def test_a_clock_that_runs_out_before_the_first_trick_counts_as_an_abort() -> None:
    now = ManualTime()
    manager = rated_manager(now, abort_budget=0)
    game, _ = manager.create(rules=ONE, kind="person", user=(1, "Anna"), rated=True, clock=parse_clock("1+0"))
    manager.join(game.id, user=(2, "Bob"))
    hand = game.hand
    assert hand is not None and hand.to_act is not None
    late = 1 - hand.to_act
    manager.act(game, hand.to_act, hand.legal_actions()[0])
    assert game.hand is not None and game.hand.to_act == late and game.abortable
    now.t += 60
    assert manager.check_time(game) and game.status == "aborted"
    with pytest.raises(GameError) as refused:
        manager.create(rules=ONE, kind="person", user=(late + 1, "X"), rated=True)
    assert refused.value.code == "rated_barred"
    manager.create(rules=ONE, kind="person", user=(2 - late, "Y"), rated=True)  # the other one: not him


def test_a_rematch_of_a_match_not_rated_after_all_is_made_rated_again() -> None:
    manager = rated_manager(ManualTime())
    game, _ = manager.create(rules=ONE, kind="person", user=(1, "Anna"), rated=True, creator="10.0.0.1")
    manager.join(game.id, user=(2, "Bob"), address="10.0.0.2")
    manager.resign(game, 1)
    assert (game.rated, game.unrated, game.winner) == (False, "short", 0)
    again = manager.make_rematch(game, 0)
    assert again.rated and again.unrated is None and again.users == [1, 2] and again.status == "playing"
    assert again.addresses == ["10.0.0.1", "10.0.0.2"]


# One limiter for every way a game starts ------------------------------------------------------

PATHS = ("lobby", "seat", "challenge", "pairing", "tournament", "rematch")


@pytest.mark.parametrize("limit", ["account", "address"])
def test_every_way_to_start_a_game_is_refused_at_the_cap(limit: str) -> None:
    """Anna holds two unfinished games (the cap of her account, or of her address): a game
    from the lobby, a seat taken, a challenge accepted, quick pairing with ``wait: 0``, a
    rematch and a tournament's match are each refused. The control: a player of another
    account and address, holding as many games less one, starts each of them."""
    caps = {"unfinished_per_account": 2} if limit == "account" else {"unfinished_per_client": 2}
    app = make_app(**caps)
    with TestClient(app, client=("10.0.0.1", 1000)) as host:
        register(host, "Host")
        tid = app.state.tournaments.create(name="Arena", kind="arena", rules=ONE, clock=None, rated=False,
                                           starts_in=0, minutes=60, creator=(1, "Host"), computers=["random"])

        def player(n: int, holding: int) -> tuple[TestClient, dict[str, str], str, dict[str, Any]]:
            """A player of his own address and account, with a finished game (to ask for a
            rematch of) and ``holding`` unfinished games."""
            client = TestClient(app, client=(f"10.0.1.{n}", 1000))
            name = f"Player{n}"
            headers = register(client, name)
            assert client.post(f"/api/tournaments/{tid}/join", headers=headers).status_code == 200
            body = {"kind": "computer", "level": "random"}
            done = client.post("/api/games", json=body, headers=headers).json()
            with seat(client, done["id"], done["token"], 0) as me:
                me.send({"type": "resign"})
                me.until(lambda s: s["game"]["status"] == "finished")
            for _ in range(holding):
                assert client.post("/api/games", json={"kind": "person"}, headers=headers).status_code == 201
            return client, headers, name, done

        def attempt(path: str, n: int, holding: int) -> tuple[int, str | None]:
            """(the HTTP status, or 0 for an answer on the WebSocket; the refusal's code)."""
            client, headers, name, done = player(n, holding)
            if path == "rematch":
                with seat(client, done["id"], done["token"], 0) as me:
                    me.send({"type": "rematch"})
                    while (message := me.recv())["type"] not in ("rematch", "error"):
                        pass
                return 0, message.get("code")
            if path == "lobby":
                answer = client.post("/api/games", json={"kind": "computer"}, headers=headers)
            elif path in ("seat", "challenge"):
                other = TestClient(app, client=(f"10.0.2.{n}", 1000))  # a host of his own
                other_headers = register(other, f"Host{n}")
                body = {"kind": "person"} if path == "seat" else {"kind": "person", "opponent": name}
                game = other.post("/api/games", json=body, headers=other_headers).json()
                answer = client.post(f"/api/games/{game['id']}/join", json={}, headers=headers)
            elif path == "pairing":
                answer = client.post("/api/pairing", json={"wait": 0}, headers=headers)
            else:
                answer = client.post(f"/api/tournaments/{tid}/next", json={"wait": 0}, headers=headers)
            return answer.status_code, answer.json().get("code")

        for n, path in enumerate(PATHS):
            assert attempt(path, 2 * n, holding=2) in ((429, "too_many_games"), (0, "too_many_games")), path
            assert attempt(path, 2 * n + 1, holding=1) in ((200, None), (201, None), (0, None)), path


def test_the_wait_0_and_resign_then_rematch_floods_stay_within_the_caps() -> None:
    """The issue's floods: quick pairing with ``wait: 0`` made 35 unfinished games on one
    address, resign-then-rematch 100 games in 1.8 s. Now the first stops at the address's
    cap of unfinished games, the second at the creation rate's burst (no token comes back
    in the test: the rate is next to nothing); another address, the control, is untouched."""
    app = make_app(unfinished_per_client=5, create_burst=12, create_rate=1e-9)
    storage = app.state.manager.storage
    with TestClient(app, client=("10.0.0.1", 1000)) as flood:
        answers = [flood.post("/api/pairing", json={"wait": 0}) for _ in range(40)]
        made = [r for r in answers if r.status_code == 200]
        assert len(made) == 5 and storage.unfinished_by("10.0.0.1") == 5
        assert {r.json()["code"] for r in answers if r.status_code != 200} == {"too_many_games"}

        rematcher = TestClient(app, client=("10.0.0.2", 1000))
        game = rematcher.post("/api/games", json={"kind": "computer", "level": "random"}).json()
        games, refusals = 1, []
        game_id = game["id"]
        for _ in range(40):
            with seat(rematcher, game_id, game["token"], 0) as me:
                me.send({"type": "resign"})
                me.until(lambda s: s["game"]["status"] == "finished")
                me.send({"type": "rematch"})
                while True:
                    message = me.recv()
                    if message["type"] in ("rematch", "error"):
                        break
            if message["type"] == "error":
                refusals.append(message["code"])
                break
            game_id, games = message["game"], games + 1
        assert games == 12 and refusals == ["rate_limited"]
        assert storage.unfinished_by("10.0.0.2") == 0

        control = TestClient(app, client=("10.0.0.3", 1000))
        assert control.post("/api/pairing", json={"wait": 0}).status_code == 200
        assert control.post("/api/games", json={"kind": "computer"}).status_code == 201


# Tournaments --------------------------------------------------------------------------------

def tournament_setup(limits: TournamentLimits | None,
                     per_account: int = 100) -> tuple[GameManager, Tournaments, ManualTime]:
    clock = ManualTime()
    storage = Storage("sqlite://")
    manager = GameManager(storage, rng=random.Random(6), now=clock,
                          admission=Admission(storage, GameLimits(per_account=per_account), clock=clock))
    return manager, Tournaments(storage.engine, manager, now=clock, limits=limits), clock


def arena(t: Tournaments, creator: tuple[int, str], address: str | None = None, minutes: float = 30) -> str:
    return t.create(name="Arena", kind="arena", rules=ONE, clock=None, rated=False, starts_in=0,
                    minutes=minutes, creator=creator, computers=["random"], address=address)


def test_making_tournaments_is_rate_limited_and_capped_per_account_and_address() -> None:
    _, t, clock = tournament_setup(TournamentLimits(rate=1 / 600, burst=2, per_account=3, per_address=4))
    anna, bob, cleo, dan = (1, "Anna"), (2, "Bob"), (3, "Cleo"), (4, "Dan")
    # The flood: a thousand tournaments asked for at once; the burst is made.
    made, refused = 0, set()
    for _ in range(1000):
        try:
            arena(t, dan, "10.0.0.4", minutes=120)
            made += 1
        except GameError as exc:
            refused.add((exc.code, exc.status))
    assert made == 2 and refused == {("rate_limited", 429)}
    arena(t, anna, "10.0.0.1", minutes=120)
    arena(t, anna, "10.0.0.1", minutes=120)
    with pytest.raises(GameError) as fast:
        arena(t, anna, "10.0.0.1", minutes=120)
    assert fast.value.code == "rate_limited"
    clock.t += 600
    arena(t, anna, "10.0.0.1", minutes=120)
    clock.t += 600
    with pytest.raises(GameError) as many:  # three of hers coming or being played
        arena(t, anna, "10.0.0.1", minutes=120)
    assert many.value.code == "too_many_tournaments" and many.value.status == 429
    assert str(many.value).startswith("You have 3")
    arena(t, bob, "10.0.0.1", minutes=120)  # the address's fourth
    clock.t += 600
    with pytest.raises(GameError) as here:
        arena(t, bob, "10.0.0.1", minutes=120)
    assert here.value.code == "too_many_tournaments" and str(here.value).startswith("Your address has 4")
    arena(t, cleo, "10.0.0.3", minutes=120)  # the control: another account and address
    clock.t += 120 * 60  # Anna's arenas are over: she may make another
    arena(t, anna, "10.0.0.1", minutes=120)


def test_the_list_shows_tournaments_with_players_first() -> None:
    _, t, clock = tournament_setup(None)
    real = arena(t, (1, "Anna"))
    for who in ((1, "Anna"), (2, "Bob")):
        t.join(real, who)
    coming = t.create(name="Later", kind="round_robin", rules=ONE, clock=None, rated=False, starts_in=60,
                      minutes=None, creator=(1, "Anna"), computers=[])
    t.join(coming, (3, "Cleo"))
    for _ in range(120):  # the spam: empty tournaments, each newer than the real ones
        clock.t += 1
        arena(t, (9, "Spammer"))
        t.create(name="Spam", kind="round_robin", rules=ONE, clock=None, rated=False, starts_in=60,
                 minutes=None, creator=(9, "Spammer"), computers=[])
    listed = t.listing()
    assert listed["running"][0]["id"] == real and listed["running"][0]["players"] == 2
    assert listed["upcoming"][0]["id"] == coming and listed["upcoming"][0]["players"] == 1
    assert all(entry["players"] == 0 for entry in listed["running"][1:] + listed["upcoming"][1:])


def test_tournament_matches_are_counted_like_every_other_game() -> None:
    """The issue: through tournaments one account held 1,300 unfinished games against the
    computer. Now its matches count against the same cap as any game: Anna, in twenty
    arenas, gets three matches and is refused the fourth; Bob, the control, plays in
    the arena where she was refused."""
    manager, t, _ = tournament_setup(None, per_account=3)
    anna, bob = (1, "Anna"), (2, "Bob")
    arenas = [arena(t, (10 + n, "Host")) for n in range(20)]
    started, refused = 0, set()
    for tid in arenas:
        t.join(tid, anna)
        try:
            found = asyncio.run(t.next_match(tid, anna, wait=0, address="10.0.0.1"))
            assert found is not None
            started += 1
        except GameError as exc:
            refused.add(exc.code)
    assert started == 3 and refused == {"too_many_games"}
    assert manager.storage.unfinished_of(1) == 3 and manager.storage.unfinished_by("10.0.0.1") == 3
    t.join(arenas[-1], bob)
    found = asyncio.run(t.next_match(arenas[-1], bob, wait=0, address="10.0.0.2"))
    assert found is not None and found.game.kind == "computer"


def test_a_database_from_before_tournaments_kept_an_address_is_brought_up_to_date(tmp_path: Any) -> None:
    import sqlite3

    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    storage = Storage(url)
    Tournaments(storage.engine, GameManager(storage))
    storage.close()
    with sqlite3.connect(path) as db:  # as an earlier version made it
        db.execute("DROP INDEX ix_tournaments_address")
        db.execute("ALTER TABLE tournaments DROP COLUMN address")
    storage = Storage(url)
    t = Tournaments(storage.engine, GameManager(storage), limits=TournamentLimits(per_address=1))
    arena(t, (1, "Anna"), "10.0.0.1")
    with pytest.raises(GameError) as refused:
        arena(t, (2, "Bob"), "10.0.0.1")
    assert refused.value.code == "too_many_tournaments"
    storage.close()
