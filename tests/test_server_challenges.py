"""Challenges (docs/web.md, "Finding an opponent"): a game for one named player only,
never listed, answered by taking the seat or declining."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")
argon2 = need_module("argon2", "argon2-cffi, in the web extra")

from fastapi.testclient import TestClient  # noqa: E402

from sixtysix.server import Settings, create_app  # noqa: E402


@pytest.fixture
def app() -> Any:
    app = create_app(Settings(database_url="sqlite://"))
    app.state.accounts.hasher = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    return app


@pytest.fixture
def anna(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def register(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/account/register", json={"name": name, "password": "correct horse battery"})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def test_a_challenge_is_for_the_player_named_only(app: Any, anna: TestClient) -> None:
    bob, cleo, guest = TestClient(app), TestClient(app), TestClient(app)
    a, b, c = register(anna, "Anna"), register(bob, "Bob"), register(cleo, "Cleo")
    challenge = {"kind": "person", "opponent": "Bob"}
    assert guest.post("/api/games", json=challenge).json()["code"] == "needs_account"
    assert anna.post("/api/games", json={**challenge, "opponent": "nobody"}, headers=a).status_code == 404
    assert anna.post("/api/games", json={"kind": "person", "opponent": "anna"},
                     headers=a).json()["code"] == "same_player"
    game = anna.post("/api/games", json={"kind": "person", "opponent": "bob", "clock": "5+3", "rated": True},
                     headers=a).json()
    gid = game["id"]
    assert game["game"]["players"] == ["Anna", "Bob"] and game["game"]["challenge"]
    # Not listed in the lobby; listed for both players.
    assert gid not in [g["id"] for g in guest.get("/api/games").json()["open"]]
    assert [g["id"] for g in bob.get("/api/challenges").json()["incoming"]] == [gid]
    assert [g["id"] for g in anna.get("/api/challenges").json()["outgoing"]] == [gid]
    assert cleo.get("/api/challenges").json() == {"incoming": [], "outgoing": []}
    assert guest.get("/api/challenges").json()["code"] == "not_logged_in"
    # Nobody else may take the seat or decline; Bob may take it.
    assert cleo.post(f"/api/games/{gid}/join", json={}, headers=c).json()["code"] == "not_invited"
    assert guest.post(f"/api/games/{gid}/join", json={}).json()["code"] == "not_invited"
    assert cleo.post(f"/api/games/{gid}/decline", headers=c).json()["code"] == "not_invited"
    joined = bob.post(f"/api/games/{gid}/join", json={"name": "whoever"}, headers=b).json()
    assert joined["seat"] == 1 and joined["game"]["players"] == ["Anna", "Bob"] and joined["game"]["rated"]
    assert bob.get("/api/challenges").json()["incoming"] == []
    assert bob.post(f"/api/games/{gid}/decline", headers=b).json()["code"] == "no_challenge"


def test_a_challenge_declined_or_taken_back_is_called_off(app: Any, anna: TestClient) -> None:
    bob = TestClient(app)
    a, b = register(anna, "Anna"), register(bob, "Bob")
    for who, headers in ((bob, b), (anna, a)):
        gid = anna.post("/api/games", json={"kind": "person", "opponent": "Bob"}, headers=a).json()["id"]
        answer = who.post(f"/api/games/{gid}/decline", headers=headers).json()
        assert answer["status"] == "aborted" and answer["winner"] is None
        assert bob.get("/api/challenges").json()["incoming"] == []
        assert bob.post(f"/api/games/{gid}/join", json={}, headers=b).json()["code"] == "no_seat"


def resign(client: TestClient, game_id: str, token: str) -> None:
    """The seat of ``token`` gives the match up (over the WebSocket, as the page does)."""
    with client.websocket_connect(f"/ws/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        while ws.receive_json()["type"] != "state":
            pass
        ws.send_json({"type": "resign"})
        while (message := ws.receive_json())["type"] != "state" or message["game"]["status"] == "playing":
            pass


def test_a_challenge_taken_is_listed_being_played_and_finished(app: Any, anna: TestClient) -> None:
    """Issue 36, item 6: spectators find a challenge's game in the lobby once it is taken."""
    bob, guest = TestClient(app), TestClient(app)
    a, b = register(anna, "Anna"), register(bob, "Bob")
    gid = anna.post("/api/games", json={"kind": "person", "opponent": "Bob", "clock": "5+3", "target": 3},
                    headers=a).json()["id"]
    # Item 4: the challenge says its rules, clock and whether it is rated.
    (offered,) = bob.get("/api/challenges").json()["incoming"]
    assert (offered["id"], offered["clock"], offered["rated"], offered["target"]) == (gid, "5+3", False, 3)
    assert offered["rules_json"] == {"preset": "classic", "target": 3}
    lists = guest.get("/api/games").json()
    assert gid not in [g["id"] for name in ("open", "playing", "finished") for g in lists[name]]
    token = bob.post(f"/api/games/{gid}/join", json={}, headers=b).json()["token"]
    lists = guest.get("/api/games").json()
    assert [g["players"] for g in lists["playing"] if g["id"] == gid] == [["Anna", "Bob"]]
    resign(bob, gid, token)
    lists = guest.get("/api/games").json()
    assert gid not in [g["id"] for g in lists["playing"]]
    finished = [(g["players"], g["winner"]) for g in lists["finished"] if g["id"] == gid]
    assert finished == [(["Anna", "Bob"], 0)]


def test_a_players_page_lists_his_games_against_the_computer(app: Any, anna: TestClient) -> None:
    """Issue 36, item 6: a logged-in player finds his games against the computer on his page."""
    a = register(anna, "Anna")
    game = anna.post("/api/games", json={"kind": "computer", "level": "random"}, headers=a).json()
    resign(anna, game["id"], game["token"])
    listed = anna.get("/api/players/Anna").json()["games"]
    assert [(g["id"], g["kind"], g["level"], g["won"]) for g in listed] == [
        (game["id"], "computer", "random", False)]
