"""A seat taken by an account belongs to the account (issue 36): the same account on
another device sits in its own seat, every connection of the seat is kept in step, and
the grace period of a player gone runs only when no connection of the account is left.
A guest's seat stays with the browser's token."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")
argon2 = need_module("argon2", "argon2-cffi, in the web extra")

from fastapi.testclient import TestClient  # noqa: E402

from server_support import Client  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402

PASSWORD = "correct horse battery"


@pytest.fixture
def app() -> Any:
    app = create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6))
    app.state.accounts.hasher = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    return app


def register(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/account/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


def log_in(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/account/login", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return {"X-CSRF-Token": answer.json()["csrf"]}


@contextmanager
def socket(client: TestClient, game_id: str, token: str | None, **headers: str) -> Iterator[Client]:
    """A connection to the game, introduced with ``token`` (the seat is what the server says)."""
    with client.websocket_connect(f"/ws/{game_id}", headers=headers) as ws:
        ws.send_json({"type": "hello", "token": token})
        conn = Client(ws, None)
        conn.recv()
        assert conn.state is not None
        conn.seat = conn.state["you"]
        yield conn


def rated_game(app: Any) -> tuple[TestClient, TestClient, TestClient, str, str]:
    """Anna (desktop) and Bob at a rated game; Anna's phone logged in to her account.
    Returns the three browsers, the game and Bob's token."""
    desktop, phone, bob = TestClient(app), TestClient(app), TestClient(app)
    a = register(desktop, "Anna")
    register(bob, "Bob")
    log_in(phone, "Anna")
    made = desktop.post("/api/games", json={"kind": "person", "rated": True}, headers=a).json()
    joined = bob.post(f"/api/games/{made['id']}/join", json={}, headers={
        "X-CSRF-Token": bob.get("/api/account").json()["csrf"]})
    assert joined.status_code == 200, joined.text
    return desktop, phone, bob, made["id"], joined.json()["token"]


def test_the_same_account_on_another_device_sits_in_its_own_seat_in_step(app: Any) -> None:
    desktop, phone, bob, game_id, bob_token = rated_game(app)
    with socket(phone, game_id, None) as on_phone, socket(desktop, game_id, None) as on_desktop, \
            socket(bob, game_id, bob_token) as b:
        # No token in this browser: the account's session seats Anna all the same.
        assert on_phone.seat == on_desktop.seat == 0 and b.seat == 1
        assert on_phone.view["hand"] and on_phone.view == on_desktop.view
        mover, other = (on_phone, on_desktop) if on_phone.my_turn else (b, b)
        if mover is b:
            b.act(b.view["legal"][0])
            b.sync()
            on_phone.sync()
            mover, other = on_phone, on_desktop
        played = mover.view["legal"][0]
        mover.act(played)
        mover.sync()
        other.sync()
        # The desktop, which did not act, is told the same position as the phone that did.
        assert other.state is not None and mover.state is not None
        assert other.state["game"]["actions"] == mover.state["game"]["actions"]
        assert other.view == mover.view and played in str(other.view)
        b.sync()
        assert b.state is not None and b.state["game"]["away"] == {}


def test_the_grace_period_runs_only_when_no_connection_of_the_account_is_left(app: Any) -> None:
    desktop, phone, bob, game_id, bob_token = rated_game(app)
    with socket(bob, game_id, bob_token) as b:
        with socket(desktop, game_id, None):
            with socket(phone, game_id, None):
                b.sync()
            b.sync()  # the phone gone, the desktop still there: Anna is not away
            assert b.state is not None and b.state["game"]["away"] == {}
        b.until(lambda state: "0" in state["game"]["away"])


def test_a_guest_seat_stays_with_the_token_and_another_site_cannot_use_the_cookie(app: Any) -> None:
    _, phone, _, game_id, bob_token = rated_game(app)
    guest = TestClient(app)
    with socket(guest, game_id, None) as watching:
        assert watching.seat is None and watching.state is not None
        assert watching.state["view"]["hand"] == []  # the public view: no cards of a hand
    # A page of another site opening the socket with Anna's cookie watches, as a guest would.
    with socket(phone, game_id, None, origin="https://elsewhere.example") as foreign:
        assert foreign.seat is None
    with socket(phone, game_id, None, origin="http://testserver") as own:
        assert own.seat == 0
    # Bob's token still seats him, from any browser (a guest's seat is his token's).
    with socket(guest, game_id, bob_token) as b:
        assert b.seat == 1
