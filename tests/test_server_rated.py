"""Rated matches over the HTTP API: accounts at the seats, ratings moved once by a
match that ended by the rules, player pages and leaderboards (docs/web.md, "Ratings").

The statistics of a player page are checked against the records' own results
(``replay --json``'s per-hand objects, docs/records.md), not against the code that
counts them."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")
argon2 = need_module("argon2", "argon2-cffi, in the web extra")

from fastapi.testclient import TestClient  # noqa: E402

from server_support import Client, connect  # noqa: E402
from sixtysix.game.record import loads, replay_json  # noqa: E402
from sixtysix.measure.glicko import Rating  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.ratings import LEVEL_RATINGS  # noqa: E402

PASSWORD = "correct horse battery"


@pytest.fixture
def app() -> Any:
    app = create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6))
    app.state.accounts.hasher = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    return app


@pytest.fixture
def anna(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def register(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def play_out(players: list[Client], rng: random.Random) -> None:
    for _ in range(5000):
        for p in players:
            p.sync()
        state = players[0].state
        assert state is not None
        if state["game"]["status"] != "playing":
            return
        movers = [p for p in players if p.my_turn]
        if movers:
            movers[0].act_random(rng)
    raise AssertionError("the match did not end")


def test_a_rated_match_between_two_accounts_moves_both_ratings_once(app: Any, anna: TestClient) -> None:
    bob = TestClient(app)
    guest = TestClient(app)
    a = register(anna, "Anna")
    b = register(bob, "Bob")
    # A rated game needs an account, a preset's own rules, no takebacks.
    refused = guest.post("/api/games", json={"kind": "person", "rated": True})
    assert refused.status_code == 403 and refused.json()["code"] == "needs_account"
    for body, code in (({"rules": "classic,tie_bonus=0"}, "bad_rated"),
                       ({"kind": "computer", "takeback": True}, "bad_takeback"),
                       ({"kind": "computer", "level": "mybot"}, "bad_level")):
        answer = anna.post("/api/games", json={"kind": "person", "rated": True, **body}, headers=a)
        assert answer.status_code in (400, 403) and answer.json()["code"] == code, answer.text
    # Without the CSRF header a logged-in request is refused.
    assert anna.post("/api/games", json={"kind": "person"}).json()["code"] == "bad_csrf"
    game = anna.post("/api/games", json={"kind": "person", "rules": "classic,target=3", "rated": True,
                                         "name": "Not Anna"}, headers=a).json()
    gid = game["id"]
    assert game["game"]["players"][0] == "Anna" and game["game"]["rated"]  # the account's name
    assert guest.post(f"/api/games/{gid}/join", json={"name": "G"}).json()["code"] == "needs_account"
    assert anna.post(f"/api/games/{gid}/join", json={}, headers=a).json()["code"] == "same_player"
    joined = bob.post(f"/api/games/{gid}/join", json={"name": "x"}, headers=b).json()
    assert joined["game"]["players"] == ["Anna", "Bob"] and joined["game"]["accounts"] == [True, True]
    assert joined["game"]["ratings"] == {"0": 1500, "1": 1500}
    with ExitStack() as stack:
        players = [stack.enter_context(contextmanager(connect)(anna, gid, game["token"], 0)),
                   stack.enter_context(contextmanager(connect)(bob, gid, joined["token"], 1))]
        assert players[0].request({"type": "hint"})["code"] == "no_hints"
        play_out(players, random.Random(4))
        final = players[0].state
    assert final is not None
    info = final["game"]
    winner = info["winner"]
    assert info["status"] == "finished" and winner in (0, 1)
    expected = {winner: Rating().update([(Rating(), 1.0)]), 1 - winner: Rating().update([(Rating(), 0.0)])}
    assert info["rating_changes"] == {str(s): [1500, round(expected[s].rating)] for s in (0, 1)}
    for client, name, seat in ((anna, "Anna", 0), (bob, "bob", 1)):
        page = client.get(f"/api/players/{name}").json()
        assert page["ratings"][0]["rating"] == round(expected[seat].rating)
        assert page["ratings"][0]["provisional"] and page["ratings"][0]["games"] == 1
        assert [h["game"] for h in page["history"]] == [gid]
        assert page["games"][0]["id"] == gid and page["games"][0]["won"] == (winner == seat)
    # The game, read back after it left memory, shows the same changes; nothing rates it again.
    assert anna.get(f"/api/games/{gid}").json()["rating_changes"] == info["rating_changes"]
    # Both are on the leaderboard, best first, marked provisional; the levels are there too,
    # with their fixed ratings.
    board = guest.get("/api/leaderboard?pool=classic").json()
    assert [p["name"] for p in board["players"]] == [["Anna", "Bob"][winner], ["Anna", "Bob"][1 - winner]]
    assert all(p["provisional"] for p in board["players"])
    assert {row["level"]: row["rating"] for row in board["levels"]} == {
        level: round(r.rating) for level, r in LEVEL_RATINGS.items()}
    assert guest.get("/api/players/nobody").status_code == 404


def test_a_player_page_counts_what_the_records_say(app: Any, anna: TestClient) -> None:
    a = register(anna, "Anna")
    rng = random.Random(11)
    records = []
    for _ in range(3):
        body = {"kind": "computer", "level": "random", "rules": "classic,target=3", "rated": True}
        game = anna.post("/api/games", json=body, headers=a).json()
        with contextmanager(connect)(anna, game["id"], game["token"], 0) as me:
            for _ in range(3000):
                me.sync()
                assert me.state is not None
                if me.state["game"]["status"] != "playing":
                    break
                if me.my_turn:
                    me.act_random(rng)
        records.append(anna.get(f"/api/games/{game['id']}/record").json())
    page = anna.get("/api/players/anna").json()
    stats = page["statistics"]["all"]
    # The oracle: the records' per-hand results.
    hands = won = points_won = points_lost = schneider_for = closes = 0
    for record in records:
        result = replay_json(loads(json.dumps(record)))
        for hand in result["hands"]:
            hands += 1
            if hand["winner"] == 0:
                won += 1
                points_won += hand["game_points"]
                loser = 1
                if hand["reason"] in ("declared", "played_out", "closed_succeeded") and \
                        (hand["points"][loser] < 33 or hand["tricks"][loser] == 0):
                    schneider_for += 1
            elif hand["winner"] == 1:
                points_lost += hand["game_points"]
            closes += hand["closed_by"] == 0
    assert (stats["matches"], stats["hands"], stats["hands_won"]) == (3, hands, won)
    assert (stats["points_won"], stats["points_lost"], stats["closes"]) == (points_won, points_lost, closes)
    assert stats["schneider_for"] == schneider_for  # R9.1: the loser under 33, or without a trick
    assert page["statistics"]["by_opponent"]["computer:random"]["matches"] == 3
    # Three rated matches against a level, each in the history.
    assert page["ratings"][0]["games"] == 3
    assert [h["opponent"] for h in page["history"]] == ["computer:random"] * 3
