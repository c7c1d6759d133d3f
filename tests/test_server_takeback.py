"""Takebacks against the computer in the web game (issue 18, item 2): a setting of the
game, chosen when it is made; a takeback brings back the player's view as it was
before his last action (the server's own earlier message is the oracle), survives a
restart, and the finished match's record says how many were taken, as the terminal
game's records do."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from helpers import need_module

need_module("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from server_support import Client, connect, finished  # noqa: E402
from sixtysix.game.record import loads, replay_json  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402


@contextmanager
def server(url: str = "sqlite://") -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=url, message_rate=1e6, message_burst=1e6))) as c:
        yield c


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def my_turn(me: Client) -> dict[str, Any]:
    return me.until(lambda s: finished(s) or (s["view"] is not None and s["view"]["to_act"] == 0))


def acted_in_this_hand(state: dict[str, Any]) -> bool:
    return any(seat == 0 for seat, _ in state["view"]["history"])


def test_a_takeback_brings_back_the_view_before_the_players_last_action() -> None:
    rng = random.Random(7)
    with server() as client:
        game = new_game(client, kind="computer", level="random", rules="classic,target=2",
                        takeback=True)
        assert game["game"]["takeback"] is True and game["game"]["taken_back"] == 0
        with contextmanager(connect)(client, game["id"], game["token"], 0) as me:
            # Play until it is my turn again in a hand where I have acted: the view just
            # before my last action is the one a takeback must give back.
            before: dict[str, Any] | None = None
            while True:
                state = my_turn(me)
                assert not finished(state)
                if before is not None and acted_in_this_hand(state) and \
                        state["game"]["hand_number"] == before["game"]["hand_number"]:
                    break
                before = state
                me.act_random(rng)
                me.sync()
            assert before is not None
            me.send({"type": "takeback", "hand": state["game"]["hand_number"],
                     "index": state["game"]["actions"]})
            me.sync()
            assert not me.errors, me.errors
            back = me.state
            assert back is not None
            assert back["view"] == before["view"]
            assert back["game"]["actions"] == before["game"]["actions"]
            assert back["game"]["taken_back"] == 1
            # The computer was told the hand afresh: the match goes on to its end.
            while not finished(my_turn(me)):
                me.act_random(rng)
                me.sync()
            final = me.state
        assert final is not None
        response = client.get(f"/api/games/{game['id']}/record")
        assert response.status_code == 200
        assert json.loads(response.text)["undo"] == {"allowed": True, "taken_back": 1}
        # The record replays to the score the server reached (the actions taken back are gone).
        assert replay_json(loads(response.text))["score"] == final["game"]["score"]


def test_a_takeback_is_stored_and_a_restarted_server_resumes_after_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    rng = random.Random(3)
    with server(url) as client:
        game = new_game(client, kind="computer", level="random", takeback=True)
        with contextmanager(connect)(client, game["id"], game["token"], 0) as me:
            state = my_turn(me)
            while not acted_in_this_hand(state):
                me.act_random(rng)
                me.sync()
                state = my_turn(me)
            me.send({"type": "takeback"})
            me.sync()
            assert not me.errors
            kept = me.state
    assert kept is not None
    with server(url) as client, contextmanager(connect)(client, game["id"], game["token"], 0) as me:
        again = my_turn(me)
        assert again["view"] == kept["view"]
        assert again["game"]["taken_back"] == 1 and again["game"]["takeback"] is True


def test_takebacks_are_refused_where_they_are_not_allowed() -> None:
    with server() as client:
        refused = client.post("/api/games", json={"kind": "person", "takeback": True})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_takeback"
        plain = new_game(client, kind="computer", level="random")
        with contextmanager(connect)(client, plain["id"], plain["token"], 0) as me:
            assert me.request({"type": "takeback"})["code"] == "no_takeback"
        game = new_game(client, kind="computer", level="random", takeback=True)
        with contextmanager(connect)(client, game["id"], game["token"], 0) as me:
            # At the first turn of a match the player has not acted yet.
            state = my_turn(me)
            assert not acted_in_this_hand(state)
            assert me.request({"type": "takeback"})["code"] == "nothing_to_take_back"
            rng = random.Random(1)
            while True:
                me.act_random(rng)
                me.sync()
                state = my_turn(me)
                if acted_in_this_hand(state):
                    break
            stale = me.request({"type": "takeback", "hand": state["game"]["hand_number"],
                                "index": state["game"]["actions"] + 1})
            assert stale["code"] == "stale"
        # A spectator cannot take anything back.
        with contextmanager(connect)(client, game["id"], None, None) as watcher:
            assert watcher.request({"type": "takeback"})["code"] == "spectator"
