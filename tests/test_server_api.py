"""The game server through its REST API and WebSocket, in process (issue 5).

Each test builds an app on an in-memory SQLite database and talks to it as a
browser would: JSON over HTTP, then a WebSocket per player or spectator.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from helpers import need_module

fastapi = need_module("fastapi", "the web extra")
from fastapi.testclient import TestClient  # noqa: E402

from server_support import Client, connect, finished  # noqa: E402
from sixtysix.game.cards import CARDS, Card  # noqa: E402
from sixtysix.game.record import loads, replay_json  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.app import STATIC  # noqa: E402
from sixtysix.server.protocol import MAX_MESSAGE_BYTES  # noqa: E402


@pytest.fixture
def client() -> Iterator[TestClient]:
    # The message limits are raised: a test sends far faster than a person (they are
    # tested on their own below).
    with TestClient(create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6))) as c:
        yield c


@contextmanager
def player(client: TestClient, game_id: str, token: str | None, seat: int | None) -> Iterator[Client]:
    yield from connect(client, game_id, token, seat)


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def person_game(client: TestClient, rules: str = "classic,target=1") -> tuple[str, str, str]:
    game = new_game(client, kind="person", rules=rules, name="Ann")
    joined = client.post(f"/api/games/{game['id']}/join", json={"name": "Bob"})
    assert joined.status_code == 200, joined.text
    return game["id"], game["token"], joined.json()["token"]


def play_out(players: list[Client], rng: random.Random, limit: int = 2000) -> None:
    """Both seats play random legal actions until the match is over."""
    for _ in range(limit):
        for p in players:
            p.sync()
        if finished(players[0].state or {}):
            return
        mover = next(p for p in players if p.my_turn)
        mover.act_random(rng)
    raise AssertionError("the match did not end")


# Pages and pictures ----------------------------------------------------------------

def test_pages_and_scripts_are_served_as_they_are(client: TestClient) -> None:
    for path in ("/", "/game/anything", "/replay/anything"):
        page = client.get(path)
        assert page.status_code == 200 and "<html" in page.text
    script = client.get("/static/game.js")
    assert script.status_code == 200 and "WebSocket" in script.text


def test_the_rules_page_is_served_with_its_script(client: TestClient) -> None:
    page = client.get("/rules")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<html" in page.text and 'src="/static/rules.js"' in page.text and "data-i18n" in page.text
    script = client.get("/static/rules.js")
    assert script.status_code == 200 and "showRules" in script.text
    # Kept by the service worker, so that it opens without a network too.
    worker = client.get("/sw.js").text
    assert '"/rules"' in worker and '"/static/rules.js"' in worker


def test_every_card_has_its_own_svg_picture(client: TestClient) -> None:
    pictures = set()
    for card in CARDS:
        response = client.get(f"/cards/{card}.svg")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("image/svg+xml")
        root = ET.fromstring(response.text)  # well-formed XML
        assert root.get("data-card") == str(card)
        pictures.add(response.text)
    assert len(pictures) == 24
    assert client.get("/cards/back.svg").status_code == 200
    assert client.get("/cards/ZZ.svg").status_code == 404


# Against the computer ----------------------------------------------------------------

def test_a_game_against_the_computer_is_played_to_the_end(client: TestClient) -> None:
    game = new_game(client, kind="computer", level="random", rules="classic,target=3", name="Eve")
    assert game["game"]["status"] == "playing"
    assert game["game"]["players"] == ["Eve", "Computer (random)"]
    rng = random.Random(1)
    with player(client, game["id"], game["token"], 0) as me:
        actions = 0
        while not finished(me.until(lambda s: finished(s) or s["view"]["to_act"] == 0)):
            assert set(me.view["legal"]) and all(a for a in me.view["legal"])
            me.act_random(rng)
            actions += 1
            me.sync()  # the state after my action
        final = me.state
    assert final is not None and actions > 0
    score = final["game"]["score"]
    assert max(score) >= 3 and final["game"]["winner"] == score.index(max(score))
    # The record is given out now, and it replays to the same result (docs/design.md §4).
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    record = loads(response.text)
    result = replay_json(record)
    assert result["score"] == score and result["winner"] == final["game"]["winner"]
    assert json.loads(response.text)["players"] == ["Eve", "Computer (random)"]
    # The players' results are stored.
    rows = client.app.state.manager.storage.results(game["id"])  # type: ignore[attr-defined]
    assert [(r.seat, r.game_points, r.won) for r in rows] == \
        [(0, score[0], score[0] > score[1]), (1, score[1], score[1] > score[0])]
    frames = client.get(f"/api/games/{game['id']}/replay").json()["frames"]
    assert frames[0]["index"] == 0 and all(len(f["view"]["hands"][0]) <= 6 for f in frames)
    assert len(frames) == sum(len(h.actions) + 1 for h in record.hands)  # type: ignore[union-attr]


def test_the_record_of_an_unfinished_game_is_refused(client: TestClient) -> None:
    game = new_game(client, kind="computer", level="random")
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.status_code == 409 and "not finished" in response.json()["error"]
    assert client.get(f"/api/games/{game['id']}/replay").status_code == 409


def test_a_reconnecting_player_gets_back_into_the_game_where_it_was(client: TestClient) -> None:
    game = new_game(client, kind="computer", level="random")
    rng = random.Random(2)
    with player(client, game["id"], game["token"], 0) as me:
        for _ in range(3):
            me.until(lambda s: s["view"]["to_act"] == 0)
            me.act_random(rng)
            me.sync()
        me.until(lambda s: s["view"]["to_act"] == 0)
        before = me.state
    with player(client, game["id"], game["token"], 0) as again:
        assert again.state is not None and before is not None
        assert again.state["view"] == before["view"]
        assert again.state["game"]["score"] == before["game"]["score"]


# Against a person, with spectators ------------------------------------------------------

def test_two_people_play_through_a_shared_link_and_a_spectator_sees_no_hidden_card(
        client: TestClient) -> None:
    game = new_game(client, kind="person", rules="classic,target=2", name="Ann")
    gid = game["id"]
    assert game["link"] == f"/game/{gid}"
    assert client.get("/api/games").json()["open"][0]["id"] == gid
    with player(client, gid, game["token"], 0) as ann:
        assert ann.state is not None and ann.state["game"]["status"] == "waiting"
        reply = ann.request({"type": "act", "action": ann.view["hand"][0]})
        assert reply["code"] == "not_started"
        joined = client.post(f"/api/games/{gid}/join", json={"name": "Bob"}).json()
        assert joined["seat"] == 1
        second = client.post(f"/api/games/{gid}/join", json={"name": "Cy"})
        assert second.status_code == 409 and "watch" in second.json()["error"]
        lobby = client.get("/api/games").json()
        assert [g["id"] for g in lobby["playing"]] == [gid] and lobby["open"] == []
        with player(client, gid, joined["token"], 1) as bob, player(client, gid, None, None) as watcher:
            ann.sync()
            assert ann.state is not None and ann.state["game"]["players"] == ["Ann", "Bob"]
            rng = random.Random(3)
            for _ in range(2000):
                for p in (ann, bob, watcher):
                    p.sync()
                w = watcher.view
                assert w["seat"] is None and w["hand"] == [] and w["legal"] == []
                hidden = {Card.parse(c) for c in ann.view["hand"] + bob.view["hand"]}
                # How the previous hand ended is public (test_server_hidden checks it against
                # that hand); the rest must name no card either player holds now.
                now = {k: v for k, v in watcher.state.items() if k != "last_hand"}
                shown = set(json.dumps(now).replace('"', " ").split())
                assert not {str(c) for c in hidden} & shown - {str(Card.parse(w["dealt_trump_card"]))}
                assert watcher.request({"type": "act", "action": "66"})["code"] == "spectator"
                if finished(ann.state or {}):
                    break
                mover, other = (ann, bob) if ann.my_turn else (bob, ann)
                # A card of its own, or at the last trick (its hand empty, having led) the mover's.
                attempt = (other.view["hand"] or mover.view["legal"])[0]
                assert other.request({"type": "act", "action": attempt})["code"] in ("not_your_turn",)
                mover.act_random(rng)
            assert finished(bob.state or {}) and finished(watcher.state or {})


def test_a_game_let_go_from_memory_while_a_client_says_hello_is_still_the_one_it_plays(
        client: TestClient) -> None:
    """A game nobody is connected to is dropped from memory after each request and
    rebuilt from storage when asked for, but not while a client is saying hello: that
    client must be attached to the live game, not to a dropped copy (it would then
    never hear of the moves made on the live one)."""
    game = new_game(client, kind="person", rules="classic,target=1", name="Ann")
    gid = game["id"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        # The server has looked the game up and waits for the hello; this request reads
        # the game and would let it go from memory (nobody is attached yet).
        assert client.get(f"/api/games/{gid}").json()["status"] == "waiting"
        ws.send_json({"type": "hello", "token": game["token"]})
        ann = Client(ws, 0)
        ann.recv()
        assert ann.state is not None and ann.state["game"]["status"] == "waiting"
        joined = client.post(f"/api/games/{gid}/join", json={"name": "Bob"})
        assert joined.status_code == 200, joined.text
        ann.sync()  # everything sent to Ann before her ping's answer
        assert ann.state["game"]["status"] == "playing"
        assert ann.state["game"]["players"] == ["Ann", "Bob"]
        with player(client, gid, joined.json()["token"], 1) as bob:
            rng = random.Random(5)
            play_out([ann, bob], rng)
            assert finished(bob.state or {})


def test_a_rematch_keeps_the_seats(client: TestClient) -> None:
    gid, t0, t1 = person_game(client)
    with player(client, gid, t0, 0) as a, player(client, gid, t1, 1) as b:
        assert a.request({"type": "rematch"})["code"] == "not_over"
        play_out([a, b], random.Random(4))
        a.send({"type": "rematch"})
        b.send({"type": "rematch"})  # between people a rematch is an offer Bob accepts (issue 36)
        new_a = next(m for m in iter(a.recv, None) if m["type"] == "rematch")
        new_b = next(m for m in iter(b.recv, None) if m["type"] == "rematch")
    assert new_a["game"] == new_b["game"] != gid
    with player(client, new_a["game"], t1, 1) as b2:
        assert b2.state is not None and b2.state["you"] == 1
        assert b2.state["game"]["players"] == ["Ann", "Bob"] and b2.state["game"]["score"] == [0, 0]


# Bad input: a clear error, nothing changed ------------------------------------------------

BAD_MESSAGES = [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_message"),
    ('"act"', "bad_message"),
    ('{"type": "teleport"}', "unknown_type"),
    ('{"no": "type"}', "bad_message"),
    ('{"type": "act"}', "bad_message"),
    ('{"type": "act", "action": 12}', "bad_message"),
    ('{"type": "act", "action": "XYZ"}', "bad_action"),
    ('{"type": "act", "action": "KH", "index": -1}', "bad_message"),
    ('{"type": "hello", "token": null}', "bad_message"),
    (json.dumps({"type": "act", "action": "KH", "pad": "x" * MAX_MESSAGE_BYTES}), "too_large"),
    (b"\xff\xfe binary", "bad_json"),
]


@pytest.mark.parametrize(("raw", "code"), BAD_MESSAGES)
def test_a_bad_message_gets_an_error_and_the_game_goes_on(client: TestClient, raw: str | bytes,
                                                          code: str) -> None:
    gid, t0, t1 = person_game(client)
    with player(client, gid, t0, 0) as a, player(client, gid, t1, 1) as b:
        a.sync()
        mover = a if a.my_turn else b
        before = mover.state
        reply = mover.request(raw)
        assert reply["code"] == code and reply["reason"]
        assert mover.state == before  # nothing changed
        action = mover.view["legal"][0]
        mover.act(action)
        mover.sync()
        assert mover.state is not None and mover.state["view"]["history"][-1] == [mover.seat, action]


def test_an_illegal_action_names_the_legal_ones(client: TestClient) -> None:
    gid, t0, t1 = person_game(client)
    with player(client, gid, t0, 0) as a, player(client, gid, t1, 1) as b:
        a.sync()
        mover = a if a.my_turn else b
        absent = next(str(c) for c in CARDS if str(c) not in mover.view["hand"])
        reply = mover.request({"type": "act", "action": absent})
        assert reply["code"] == "illegal"
        assert all(action in reply["reason"] for action in mover.view["legal"])
        stale = mover.request({"type": "act", "action": mover.view["legal"][0], "index": 5})
        assert stale["code"] == "stale"
        assert mover.view["history"] == []


def test_forged_tokens_and_unknown_games_are_refused(client: TestClient) -> None:
    gid, t0, _ = person_game(client)
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "hello", "token": t0[:-2] + "xx"})
        assert ws.receive_json()["code"] == "bad_token"
    with client.websocket_connect("/ws/no-such-game") as ws:
        assert ws.receive_json()["code"] == "no_game"
    with client.websocket_connect(f"/ws/{gid}") as ws:
        ws.send_json({"type": "act", "action": "KH"})
        assert ws.receive_json()["code"] == "no_hello"
    assert client.get("/api/games/no-such-game").status_code == 404
    assert client.post("/api/games/no-such-game/join", json={}).status_code == 404


@pytest.mark.parametrize(("body", "status"), [
    ({"kind": "robot"}, 400),
    ({"kind": "computer", "level": "grandmaster"}, 400),
    ({"rules": "chess"}, 400),
    ({"rules": "classic,target=banana"}, 400),
    ({"target": 0}, 422),
    ({"target": True}, 422),  # once read as target 1
    ({"target": "7"}, 422),
    ({"name": "x" * 500}, 422),
    ({"kind": ["computer"]}, 422),
])
def test_a_bad_new_game_request_is_refused_with_a_reason(client: TestClient, body: dict[str, Any],
                                                         status: int) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == status
    assert response.json()["error"] and response.json()["code"]
    assert client.get("/api/games").json()["playing"] == []


def test_a_request_that_is_not_json_gets_a_clear_error(client: TestClient) -> None:
    response = client.post("/api/games", content=b"not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json()["code"] == "bad_request" and "JSON" in response.json()["error"]


def test_messages_and_new_games_are_rate_limited() -> None:
    settings = Settings(database_url="sqlite://", message_rate=0.001, message_burst=3, create_rate=0.001,
                        create_burst=2)
    with TestClient(create_app(settings)) as c:
        game = new_game(c, kind="computer", level="random")
        new_game(c, kind="computer", level="random")
        refused = c.post("/api/games", json={"kind": "computer"})
        assert refused.status_code == 429 and "too many" in refused.json()["error"].lower()
        with player(c, game["id"], game["token"], 0) as me:
            for _ in range(5):
                me.send({"type": "ping"})
            replies = [me.recv() for _ in range(5)]
            kinds = [r.get("code", r["type"]) for r in replies if r["type"] != "state"]
            while len(kinds) < 5:
                r = me.recv()
                if r["type"] != "state":
                    kinds.append(r.get("code", r["type"]))
        assert kinds == ["pong", "pong", "pong", "rate_limited", "rate_limited"]


def test_a_binary_or_silent_first_message_is_not_a_hello(client: TestClient) -> None:
    game = new_game(client, kind="computer", level="random")
    with client.websocket_connect(f"/ws/{game['id']}") as ws:
        ws.send_bytes(b"\x00\x01")
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad_json"


def test_a_client_too_far_behind_is_dropped_and_the_game_goes_on() -> None:
    import asyncio

    from sixtysix.server.games import Connection

    async def scenario() -> tuple[bool, list[str]]:
        sent: list[str] = []
        hung_up: list[str] = []
        gate = asyncio.Event()

        async def slow_send(message: dict[str, Any]) -> None:
            await gate.wait()
            sent.append(message["type"])

        async def hang_up() -> None:
            hung_up.append("closed")

        conn = Connection(slow_send, 0, hang_up)
        writer = asyncio.create_task(conn.run_writer())
        for _ in range(Connection.QUEUE + 5):
            conn.push({"type": "state"})
        gate.set()
        await writer
        return conn.closed, hung_up + sent

    closed, events = asyncio.run(scenario())
    assert closed and events[0] == "closed" and len(events) <= 2


def test_connections_per_address_are_limited() -> None:
    from starlette.websockets import WebSocketDisconnect

    settings = Settings(database_url="sqlite://", connections_per_client=2)
    with TestClient(create_app(settings)) as c:
        game = new_game(c, kind="computer", level="random")
        with player(c, game["id"], None, None), player(c, game["id"], None, None):
            path = f"/ws/{game['id']}"
            # Told why (once a bare HTTP 403), then closed with 1013 (try again later).
            with pytest.raises(WebSocketDisconnect) as refused, c.websocket_connect(path) as ws:
                refusal = ws.receive_json()
                assert refusal["type"] == "error" and refusal["code"] == "too_many_connections"
                ws.receive_json()
            assert refused.value.code == 1013
        # Once those are closed, the address may connect again.
        with player(c, game["id"], game["token"], 0) as me:
            assert me.state is not None and me.state["you"] == 0


def test_a_lone_surrogate_is_refused_and_the_connection_goes_on(client: TestClient) -> None:
    """A ping whose id is an escaped lone surrogate once stopped the connection's writer
    (its pong could not be written as UTF-8): now it is refused and the next ping is
    answered."""
    game = new_game(client, kind="computer", level="random")
    with player(client, game["id"], game["token"], 0) as me:
        me.ws.send_text('{"type": "ping", "id": "\\udfff"}')
        refused = me.recv()
        while refused["type"] == "state":
            refused = me.recv()
        assert refused["type"] == "error" and refused["code"] == "bad_json"
        assert "lone surrogate" in refused["reason"]
        me.sync()  # answered: the writer still runs


@pytest.mark.parametrize("path", ["/api/games", "join"])
def test_a_name_with_a_lone_surrogate_is_refused(client: TestClient, path: str) -> None:
    """A name goes to every player and spectator: text that cannot be written as UTF-8
    must not get in (pydantic's JSON reader refuses it; kept as a regression test)."""
    body = '{"kind": "person", "name": "Ann\\udfff"}'
    if path == "join":
        path = f"/api/games/{new_game(client, kind='person')['id']}/join"
        body = '{"name": "Bob\\udfff"}'
    response = client.post(path, content=body.encode(), headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    assert response.json()["code"] == "bad_request" and "unicode" in response.json()["error"]


@pytest.mark.parametrize("path", ["/", "/static/lobby.js", "/cards/AH.svg", "/api/games", "/api/games/nope"])
def test_every_response_carries_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "same-origin"
    policy = response.headers.get("content-security-policy")
    if response.headers["content-type"].startswith("text/html"):
        assert policy is not None and "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy
    else:
        assert policy is None


def test_every_page_is_served_whole_by_its_route_and_by_its_file_name(client: TestClient) -> None:
    """A page's file holds its title and body; the head's shared lines are put in when it
    is served, under its route and under /static/NAME.html (what the service worker keeps)."""
    routes = {"index": "/", "game": "/game/x", "replay": "/replay/x", "lesson": "/learn", "rules": "/rules"}
    shared = (STATIC / "head.part.html").read_text(encoding="utf-8").strip().splitlines()
    assert len(shared) >= 5
    for name, route in routes.items():
        own = (STATIC / f"{name}.html").read_text(encoding="utf-8")
        served = client.get(route)
        assert served.status_code == 200 and served.headers["content-type"].startswith("text/html")
        assert client.get(f"/static/{name}.html").text == served.text, name
        head = served.text[served.text.index("<head>"):served.text.index("</head>")]
        assert head.count("<title") == 1 and all(line in head for line in shared), name
        assert head.index('<meta charset="utf-8">') < head.index("<title"), name  # first, as HTML wants
        assert served.text.replace(head, "") == own.replace(own[own.index("<head>"):own.index("</head>")], "")
    assert client.get("/static/head.part.html").status_code == 404  # a part, not a page
    assert client.get("/static/nothing.html").status_code == 404


def test_the_pages_hold_no_inline_script_or_style_the_policy_would_block(client: TestClient) -> None:
    """The Content Security Policy allows only scripts and styles from the server's own
    files: a page with inline code would break under it."""
    for path in ("/", "/static/game.html", "/static/replay.html", "/learn", "/rules"):
        page = client.get(path).text
        assert "<script>" not in page and "<style" not in page and " style=" not in page, path
        assert " onclick=" not in page and "javascript:" not in page, path


def _asgi_post(body_chunks: list[bytes],
               headers: list[tuple[bytes, bytes]]) -> tuple[int, dict[str, Any], int]:
    """POST /api/games straight into the ASGI app: the status, the JSON answer, and how
    many chunks of the body the app read."""
    import asyncio

    app = create_app(Settings(database_url="sqlite://", max_body_bytes=16 * 1024))
    reads = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal reads
        if reads >= len(body_chunks):
            return {"type": "http.disconnect"}
        reads += 1
        return {"type": "http.request", "body": body_chunks[reads - 1], "more_body": reads < len(body_chunks)}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/games", "raw_path": b"/api/games", "query_string": b"",
             "root_path": "", "headers": [(b"content-type", b"application/json"), *headers],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000)}
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), reads


def test_a_body_over_the_limit_is_refused_before_it_is_read() -> None:
    """A 100 MB POST once grew the server by 280 MB before it was refused: now a
    Content-Length over the limit is answered at once, nothing of the body read."""
    chunks = [b"x" * (1 << 20)] * 100
    status, answer, reads = _asgi_post(chunks, [(b"content-length", str(100 << 20).encode())])
    assert (status, answer["code"], reads) == (413, "too_large", 0)
    assert answer["error"] == "the request body is too large: at most 16384 bytes"


def test_a_body_sent_in_chunks_is_cut_off_at_the_limit() -> None:
    chunks = [b" " * 1024] * 1000  # 1 MB in 1 KiB chunks, no Content-Length
    status, answer, reads = _asgi_post(chunks, [])
    assert (status, answer["code"]) == (413, "too_large")
    assert reads == 17  # 16 KiB taken, the 17th chunk passes the limit: nothing more is read


def test_the_frameworks_refusals_have_the_servers_error_form(client: TestClient) -> None:
    for response, status, code in (
            (client.get("/no/such/page"), 404, "not_found"),
            (client.delete("/api/games"), 405, "bad_method"),
            (client.post("/api/games", content=b"[" * 5000 + b"]" * 5000,
                         headers={"Content-Type": "application/json"}), 400, "bad_request")):
        assert response.status_code == status
        assert set(response.json()) == {"error", "code", "text", "args"} and response.json()["code"] == code


def test_the_lobby_lists_games_between_people_and_keeps_games_against_the_computer_private(
        client: TestClient) -> None:
    """Issue 18, item 6: a game against the computer is not listed (its link still opens it)."""
    computer = client.post("/api/games", json={"kind": "computer", "level": "random", "name": "Solo"}).json()
    person = client.post("/api/games", json={"kind": "person", "name": "Host"}).json()
    client.post(f"/api/games/{person['id']}/join", json={"name": "Guest"})
    lobby = client.get("/api/games").json()
    listed = {g["id"] for part in ("open", "playing", "finished") for g in lobby[part]}
    assert person["id"] in listed and computer["id"] not in listed
    assert client.get(f"/api/games/{computer['id']}").json()["kind"] == "computer"



def test_the_running_server_marks_games_nobody_moves_in_abandoned_and_lists_them_so() -> None:
    """Issue 18, item 6: a server set to abandon games after 0.2 s without an action checks
    while it runs: a game waiting for a friend who never comes leaves the open games and
    is listed as abandoned; its page is told and actions are refused."""
    import time

    settings = Settings(database_url="sqlite://", abandoned_after=0.2, abandon_check_every=0.05)
    with TestClient(create_app(settings)) as client:
        game = new_game(client, kind="person", name="Alone")
        assert [g["id"] for g in client.get("/api/games").json()["open"]] == [game["id"]]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            lobby = client.get("/api/games").json()
            if lobby["abandoned"]:
                break
            time.sleep(0.05)  # polling a server-side timer; the deadline bounds it
        assert [g["id"] for g in lobby["abandoned"]] == [game["id"]] and lobby["open"] == []
        assert client.get(f"/api/games/{game['id']}").json()["status"] == "abandoned"


def first_deal(seed: int | None) -> tuple[Card, ...]:
    """The deck of the first game a fresh server deals (``sixtysix serve --seed``)."""
    app = create_app(Settings(database_url="sqlite://", seed=seed))
    with TestClient(app) as client:
        game = client.post("/api/games", json={"kind": "computer", "level": "random"}).json()
        hand = app.state.manager.get(game["id"]).hand
        assert hand is not None
        return tuple(hand.deck)


def test_a_seeded_server_deals_the_same_games_again_and_an_unseeded_one_does_not() -> None:
    assert first_deal(5) == first_deal(5)
    assert sorted(first_deal(5)) == sorted(CARDS)
    # Unseeded: the operating system's deals (two the same once in 24! runs).
    assert first_deal(None) != first_deal(None)
