"""Offers between people (issue 36): a rematch, a takeback in an unrated game and calling
the match off are offered by one player and done only when the other accepts (by asking
the same); the other may decline, and an offer not answered in time lapses. Against the
computer each is done at once (the computer accepts)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")

from fastapi.testclient import TestClient  # noqa: E402

from server_support import Client, ManualTime, connect, finished  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.offers import OFFER_TIMEOUT  # noqa: E402

seat = contextmanager(connect)


@pytest.fixture
def time() -> ManualTime:
    return ManualTime()


@pytest.fixture
def client(time: ManualTime) -> Iterator[TestClient]:
    app = create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6))
    app.state.services.manager.offers.now = time  # the offers' time only: they lapse by hand
    with TestClient(app) as c:
        yield c


def people(client: TestClient, **body: Any) -> tuple[str, str, str]:
    game = client.post("/api/games", json={"kind": "person", "rules": "classic,target=1", "name": "Ann",
                                           **body}).json()
    joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Bob"}).json()
    return game["id"], game["token"], joined["token"]


def play_out(players: list[Client], rng: random.Random) -> None:
    for _ in range(2000):
        for p in players:
            p.sync()
        if finished(players[0].state or {}):
            return
        next(p for p in players if p.my_turn).act_random(rng)
    raise AssertionError("the match did not end")


def offers(player: Client) -> dict[str, Any]:
    player.sync()
    assert player.state is not None
    return {name: offer["seat"] for name, offer in player.state["game"]["offers"].items()}


def test_a_rematch_between_people_is_made_only_when_the_other_accepts(client: TestClient) -> None:
    gid, t0, t1 = people(client)
    with seat(client, gid, t0, 0) as ann, seat(client, gid, t1, 1) as bob:
        play_out([ann, bob], random.Random(4))
        ann.send({"type": "rematch"})
        assert offers(bob) == {"rematch": 0} == offers(ann)
        assert all(m["type"] != "rematch" for m in ann.messages + bob.messages)  # nothing made yet
        ann.send({"type": "rematch"})  # asking again changes nothing
        assert offers(bob) == {"rematch": 0}
        bob.send({"type": "rematch"})  # Bob accepts
        made = [next(m for m in iter(p.recv, None) if m["type"] == "rematch")["game"] for p in (ann, bob)]
    assert made[0] == made[1] != gid
    with seat(client, made[0], t1, 1) as bob_again:
        assert bob_again.state is not None and bob_again.state["game"]["status"] == "playing"


def test_a_declined_offer_is_told_and_a_lapsed_one_is_forgotten(client: TestClient, time: ManualTime) -> None:
    gid, t0, t1 = people(client)
    with seat(client, gid, t0, 0) as ann, seat(client, gid, t1, 1) as bob:
        play_out([ann, bob], random.Random(4))
        ann.send({"type": "rematch"})
        assert offers(bob) == {"rematch": 0}
        bob.send({"type": "decline", "offer": "rematch"})
        assert offers(ann) == {}
        assert {"type": "declined", "offer": "rematch", "seat": 1} in ann.messages
        assert bob.request({"type": "decline", "offer": "rematch"})["code"] == "no_offer"
        assert bob.request({"type": "decline", "offer": "draw"})["code"] == "bad_offer"
        # Not answered in time: Bob's rematch is then an offer of his own, not an acceptance.
        ann.send({"type": "rematch"})
        assert offers(bob) == {"rematch": 0}
        time.t += OFFER_TIMEOUT + 1
        bob.send({"type": "rematch"})
        assert offers(ann) == {"rematch": 1}
        assert all(m["type"] != "rematch" for m in ann.messages + bob.messages)


def test_calling_off_between_people_needs_both(client: TestClient) -> None:
    gid, t0, t1 = people(client)
    with seat(client, gid, t0, 0) as ann, seat(client, gid, t1, 1) as bob:
        ann.send({"type": "abort"})
        assert offers(bob) == {"abort": 0}
        assert bob.state is not None and bob.state["game"]["status"] == "playing"
        bob.send({"type": "abort"})
        bob.until(lambda state: state["game"]["status"] == "aborted")
        assert ann.until(lambda state: state["game"]["status"] == "aborted")["game"]["winner"] is None


def test_a_takeback_between_people_gives_the_card_back_once_the_other_agrees(client: TestClient) -> None:
    gid, t0, t1 = people(client)
    with seat(client, gid, t0, 0) as ann, seat(client, gid, t1, 1) as bob:
        ann.sync()
        bob.sync()
        first, second = (ann, bob) if ann.my_turn else (bob, ann)
        hand_before = list(first.view["hand"])
        card = first.view["legal"][0]
        first.act(card)
        first.sync()
        assert first.state is not None and first.state["game"]["actions"] == 1
        first.send({"type": "takeback"})
        assert offers(second) == {"takeback": first.seat}
        assert first.state["game"]["actions"] == 1  # not before the other agrees
        second.send({"type": "takeback"})
        state = first.until(lambda s: s["game"]["actions"] == 0)
        assert sorted(state["view"]["hand"]) == sorted(hand_before) and state["game"]["offers"] == {}
        assert state["game"]["taken_back"] == 1 and first.my_turn
        # An action lapses an offer of a takeback: the position it was for is gone.
        first.act(card)
        first.send({"type": "takeback"})
        assert offers(second) == {"takeback": first.seat}
        second.sync()
        second.act(second.view["legal"][0])
        assert offers(first) == {}
        ann.send({"type": "resign"})  # (a record is given out once the match is over)
        ann.until(lambda s: s["game"]["status"] == "finished")
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["undo"] == {"allowed": True, "taken_back": 1}  # (by agreement)


def test_no_takeback_in_a_game_with_a_clock_and_none_without_an_action(client: TestClient) -> None:
    gid, t0, t1 = people(client, clock="5+3")
    with seat(client, gid, t0, 0) as ann, seat(client, gid, t1, 1):
        assert ann.request({"type": "takeback"})["code"] == "no_takeback"
    gid, t0, t1 = people(client)
    with seat(client, gid, t0, 0) as ann, seat(client, gid, t1, 1):
        assert ann.request({"type": "takeback"})["code"] == "nothing_to_take_back"


def test_the_computer_accepts_at_once(client: TestClient) -> None:
    game = client.post("/api/games", json={"kind": "computer", "level": "random"}).json()
    with seat(client, game["id"], game["token"], 0) as me:
        me.send({"type": "abort"})
        assert me.until(lambda state: state["game"]["status"] == "aborted")["game"]["offers"] == {}
