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
