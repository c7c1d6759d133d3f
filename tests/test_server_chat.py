"""Chat at the table (docs/web.md, "Chat"): the players' chat reaches the two players
only, the spectators' chat the spectators only; lines are cleaned, limited in length
and rate, kept for those who connect later, and never a way around a refusal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")

from fastapi.testclient import TestClient  # noqa: E402

from server_support import Client, connect  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.protocol import MAX_CHAT  # noqa: E402


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6))) as c:
        yield c


def person_game(client: TestClient) -> tuple[str, str, str]:
    game = client.post("/api/games", json={"kind": "person", "name": "Ann"}).json()
    joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Bob"}).json()
    return game["id"], game["token"], joined["token"]


def chats(client: Client) -> list[dict[str, Any]]:
    client.sync()
    return [m for m in client.messages if m["type"] == "chat"]


def test_players_and_spectators_each_have_their_own_chat(client: TestClient) -> None:
    gid, ann_token, bob_token = person_game(client)
    seat = contextmanager(connect)
    with seat(client, gid, ann_token, 0) as ann, seat(client, gid, bob_token, 1) as bob, \
            seat(client, gid, None, None) as watcher, seat(client, gid, None, None) as other:
        ann.send({"type": "chat", "text": "  good\tluck \u0007 <b>Bob</b>  "})
        watcher.send({"type": "chat", "text": "Ann holds the ace, surely"})
        heard = {name: [(m["room"], m["name"], m["text"]) for m in chats(c)]
                 for name, c in (("ann", ann), ("bob", bob), ("watcher", watcher), ("other", other))}
        # Cleaned (control characters and runs of spaces gone), not escaped: the page shows text.
        line = ("players", "Ann", "good luck <b>Bob</b>")
        assert heard["ann"] == heard["bob"] == [line]
        assert heard["watcher"] == heard["other"] == [("spectators", None, "Ann holds the ace, surely")]
        # Someone who connects later gets his room's latest lines, and only those.
        with seat(client, gid, bob_token, 1) as again, seat(client, gid, None, None) as late:
            assert [m["text"] for m in chats(again)] == ["good luck <b>Bob</b>"]
            assert [m["text"] for m in chats(late)] == ["Ann holds the ace, surely"]


@pytest.mark.parametrize(("text", "code"), [
    ("", "bad_chat"), ("   \n\t ", "bad_chat"), (7, "bad_chat"), (None, "bad_chat"),
    ("x" * (MAX_CHAT + 1), "bad_chat"),
])
def test_a_bad_line_of_chat_is_refused_with_a_reason(client: TestClient, text: Any, code: str) -> None:
    gid, ann_token, _ = person_game(client)
    with contextmanager(connect)(client, gid, ann_token, 0) as ann:
        body = {"type": "chat"} if text is None else {"type": "chat", "text": text}
        reply = ann.request(body)
        assert reply["code"] == code and reply["reason"]
        assert chats(ann) == []


def test_chat_is_rate_limited_and_the_players_chat_is_for_people(client: TestClient) -> None:
    gid, ann_token, _ = person_game(client)
    with contextmanager(connect)(client, gid, ann_token, 0) as ann:
        replies = [ann.request({"type": "chat", "text": f"line {n}"}) if n >= 5 else
                   ann.send({"type": "chat", "text": f"line {n}"}) for n in range(6)]
        assert replies[5] is not None and replies[5]["code"] == "chat_rate_limited"
        assert [m["text"] for m in chats(ann)] == [f"line {n}" for n in range(5)]
    computer = client.post("/api/games", json={"kind": "computer", "level": "random"}).json()
    with contextmanager(connect)(client, computer["id"], computer["token"], 0) as me:
        assert me.request({"type": "chat", "text": "hello computer"})["code"] == "no_chat"
    # A message that is too large is refused before it is read as chat.
    with contextmanager(connect)(client, gid, None, None) as watcher:
        assert watcher.request(json.dumps({"type": "chat", "text": "x" * 2000}))["code"] == "too_large"


def test_chat_outlives_the_server_process(tmp_path: Any) -> None:
    # Stored line by line: a game read back after a restart (or taken over by another
    # process) shows each room its latest lines, as before.
    url = f"sqlite:///{tmp_path / 'games.db'}"
    settings = Settings(database_url=url, message_rate=1e6, message_burst=1e6)
    seat = contextmanager(connect)
    with TestClient(create_app(settings)) as first:
        gid, ann_token, bob_token = person_game(first)
        with seat(first, gid, ann_token, 0) as ann, seat(first, gid, None, None) as watcher:
            ann.send({"type": "chat", "text": "good luck"})
            watcher.send({"type": "chat", "text": "what a hand"})
            ann.sync()
            watcher.sync()
    with TestClient(create_app(settings)) as second, seat(second, gid, bob_token, 1) as bob, \
            seat(second, gid, None, None) as late:
        assert [(m["room"], m["seat"], m["name"], m["text"]) for m in chats(bob)] == [
            ("players", 0, "Ann", "good luck")]
        assert [(m["room"], m["seat"], m["text"]) for m in chats(late)] == [
            ("spectators", None, "what a hand")]



def test_storage_reads_back_each_room_s_latest_lines_in_order(database_url: str) -> None:
    from sixtysix.rules import Rules
    from sixtysix.server.storage import CHAT_KEPT, Storage

    storage = Storage(database_url)
    for game_id in ("s1-a", "s1-b"):
        storage.create_game(game_id, rules=Rules().to_json(), kind="person", level=None, first_dealer=0,
                            tokens=("a", None), names=("Ann", ""), status="waiting")
    for n in range(CHAT_KEPT + 7):  # two games' lines interleaved
        storage.add_chat("s1-a", "spectators", None, None, f"watcher {n}")
        storage.add_chat("s1-b", "spectators", None, None, f"other {n}")
        if n % 10 == 0:
            storage.add_chat("s1-a", "players", 0, "Ann", f"ann {n}")
    for stored in (storage.load("s1-a"), *[g for g in storage.unfinished("s1-") if g.id == "s1-a"]):
        assert stored is not None
        # Players' lines first, then the spectators'; a room's lines never crowd out the other's;
        # each room's latest, oldest first.
        assert [line["text"] for line in stored.chat] == (
            [f"ann {n}" for n in range(0, CHAT_KEPT + 7, 10)]
            + [f"watcher {n}" for n in range(7, CHAT_KEPT + 7)])
        assert stored.chat[0] == {"room": "players", "seat": 0, "name": "Ann", "text": "ann 0"}
    other = [g for g in storage.unfinished("s1-") if g.id == "s1-b"]
    assert [line["text"] for line in other[0].chat] == [f"other {n}" for n in range(7, CHAT_KEPT + 7)]
    storage.close()


def test_the_chat_budget_is_the_seat_s_however_many_connections_hold_it() -> None:
    # One seat with 29 connections once delivered 551 lines in 30 s: the budget was each
    # connection's. Now it is the seat's (5 at once, then one every 2 s), with a clock
    # moved by hand; the other seat, the control, keeps its own.
    from sixtysix.server.games import CHAT_BURST, CHAT_RATE
    from sixtysix.server.limits import BucketsByKey

    now = [0.0]
    app = create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6))
    app.state.manager.chat_limit = BucketsByKey(CHAT_RATE, CHAT_BURST, clock=lambda: now[0])
    seat = contextmanager(connect)
    with TestClient(app) as client:
        gid, ann_token, bob_token = person_game(client)
        with seat(client, gid, bob_token, 1) as bob, ExitStack() as stack:
            anns = [stack.enter_context(seat(client, gid, ann_token, 0)) for _ in range(6)]
            for n in range(4):
                for k, ann in enumerate(anns):
                    ann.send({"type": "chat", "text": f"ann {k}.{n}"})
            refused = 0
            for ann in anns:
                ann.sync()
                refused += sum(1 for e in ann.errors if e["code"] == "chat_rate_limited")
            heard = [m["text"] for m in chats(bob) if m["seat"] == 0]
            assert len(heard) == CHAT_BURST == 5 and refused == 6 * 4 - 5
            # The control: the other seat says its five lines in the same moment.
            for n in range(5):
                bob.send({"type": "chat", "text": f"bob {n}"})
            bob.sync()
            assert [m["text"] for m in chats(anns[0]) if m["seat"] == 1] == [f"bob {n}" for n in range(5)]
            assert not [e for e in bob.errors if e["code"] == "chat_rate_limited"]
            # Two seconds later the seat has one line more, on any of its connections.
            now[0] += 1 / CHAT_RATE
            anns[3].send({"type": "chat", "text": "later"})
            anns[3].sync()
            assert anns[5].request({"type": "chat", "text": "too soon"})["code"] == "chat_rate_limited"
            assert [m["text"] for m in chats(bob) if m["seat"] == 0][5:] == ["later"]


def test_spectators_chat_budget_is_their_address_s_in_the_game() -> None:
    from sixtysix.rules import Rules
    from sixtysix.server.games import CHAT_BURST, Connection, GameManager
    from sixtysix.server.protocol import Chat
    from sixtysix.server.storage import Storage

    storage = Storage("sqlite://")
    manager = GameManager(storage, clock=lambda: 0.0)
    game, _ = manager.create(rules=Rules(), kind="person", name="Ann")

    async def nowhere(message: dict[str, Any]) -> None:
        return None

    crowd = [Connection(nowhere, None, address="10.0.0.7") for _ in range(4)]
    other = Connection(nowhere, None, address="10.0.0.8")
    for conn in (*crowd, other):
        manager.attach(game, conn)
    replies = [manager.say(game, None, conn, Chat(f"line {n}")) for n in range(3) for conn in crowd]
    assert sum(reply is None for reply in replies) == CHAT_BURST
    assert all(r is None or r["code"] == "chat_rate_limited" for r in replies)
    # Another address (the control) has its own budget.
    assert [manager.say(game, None, other, Chat(f"mine {n}")) for n in range(5)] == [None] * 5
    assert [line["text"] for line in game.chat["spectators"]] == (
        [f"line {n}" for n in range(3) for _ in crowd][:5] + [f"mine {n}" for n in range(5)])
    storage.close()
