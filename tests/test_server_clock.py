"""The server's clocks, resignations, aborts and absent players (docs/web.md, "Clocks").

Time is the test's own: the manager reads it from a function the test moves, and
the checks an event loop would run at the deadlines are called by hand. The rules
checked here, from the documentation rather than the code:

- a match clock (``M+S``) that runs out loses the match; a move clock (``S/move``)
  that runs out loses the hand, the opponent scoring 3 game points (as a failed
  program's forfeit), and the match goes on;
- either, before the first trick of the match is complete, calls the match off;
- a player's clock starts ``hand_break`` seconds after a deal, runs only while he is
  to act, and gains the increment after each decision taken in time;
- a player of a game against a person who has no connection while the opponent is
  at the table loses the match after the grace period (or it is called off before
  the first trick);
- resigning loses the match; aborting is only before the first trick is complete.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from helpers import need_module

need_module("sqlalchemy", "the web extra")
need_module("fastapi", "the web extra")

from server_support import ManualTime  # noqa: E402
from sixtysix.game.record import MatchRecord, loads, replay  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server.games import Connection, Game, GameError, GameManager, parse_clock  # noqa: E402
from sixtysix.server.storage import Storage  # noqa: E402

BREAK = 5.0
GRACE = 60.0




@pytest.fixture
def time_() -> ManualTime:
    return ManualTime(1_000_000.0)


@pytest.fixture
def manager(database_url: str, time_: ManualTime) -> Iterator[GameManager]:
    m = GameManager(Storage(database_url), rng=random.Random(5), now=time_, grace=GRACE, hand_break=BREAK)
    yield m
    m.storage.close()


def two_players(manager: GameManager, clock: str | None, rules: str = "classic,target=7") -> Game:
    game, _ = manager.create(rules=Rules.parse(rules), kind="person", name="Anna",
                             clock=parse_clock(clock))
    manager.join(game.id, "Bob")
    return game


async def _ignore(_: dict[str, Any]) -> None:
    return None


def connect(manager: GameManager, game: Game, seat: int | None) -> Connection:
    conn = Connection(_ignore, seat)
    manager.attach(game, conn)
    return conn


def first_trick(manager: GameManager, game: Game) -> None:
    """Play on (first legal card each time) until a trick of the match is complete."""
    hand = game.hand
    assert hand is not None
    while hand.tricks_won(0) + hand.tricks_won(1) == 0:
        seat = hand.to_act
        assert seat is not None
        manager.act(game, seat, next(a for a in hand.legal_actions() if a.card is not None))


def stored_record(manager: GameManager, game: Game) -> dict[str, Any]:
    again = GameManager(manager.storage, now=manager.now)
    stored = again.get(game.id)
    return stored.record().to_json()


# The time controls a request may give -------------------------------------------------
def test_time_controls_from_a_request() -> None:
    assert str(parse_clock("5+3")) == "5+3" and str(parse_clock("20/move")) == "20/move"
    assert parse_clock(None) is None and parse_clock("") is None
    for bad in ("fast", "5", 7, "0/move", "0.01+0", "x" * 40):
        with pytest.raises(GameError) as info:
            parse_clock(bad)
        assert info.value.code == "bad_clock"


def test_a_clock_starts_after_the_break_and_runs_only_for_the_seat_to_act(manager: GameManager,
                                                                          time_: ManualTime) -> None:
    game = two_players(manager, "2+3")
    clock = game.clock
    assert clock is not None
    hand = game.hand
    assert hand is not None
    first = hand.to_act
    assert clock.running == first and clock.since == time_.t + BREAK
    time_.t += BREAK + 10
    info = game.info()["clock"]
    assert info["running"] == first and info["left"][first] == 110.0 and info["left"][1 - first] == 120.0
    manager.act(game, first, hand.legal_actions()[0])
    # 10 seconds spent, 3 given back; the other seat's clock runs from now.
    assert game.clock is not None
    assert game.clock.left[first] == 113.0
    assert game.clock.running == hand.to_act and game.clock.since == time_.t


def test_a_match_clock_that_runs_out_after_the_first_trick_loses_the_match(manager: GameManager,
                                                                          time_: ManualTime) -> None:
    game = two_players(manager, "1+0")
    first_trick(manager, game)
    hand = game.hand
    assert hand is not None
    late = hand.to_act
    assert late is not None
    time_.t += BREAK + 61
    assert manager.check_time(game)
    assert game.status == "finished" and game.ended == "time" and game.winner == 1 - late
    assert game.info()["winner"] == 1 - late and game.info()["ended"] == "time"
    with pytest.raises(GameError) as info:
        manager.act(game, late, hand.legal_actions()[0])
    assert info.value.code == "over"
    # Stored: the record says how the match ended; the results name the winner.
    record = stored_record(manager, game)
    assert record["clock"] == "1+0" and record["end"] == {"reason": "time", "winner": 1 - late}
    assert [r.won for r in manager.storage.results(game.id)] == [s == 1 - late for s in (0, 1)]


def test_an_action_after_the_deadline_is_refused_and_the_clock_rule_applies(manager: GameManager,
                                                                           time_: ManualTime) -> None:
    game = two_players(manager, "1+0")
    first_trick(manager, game)
    hand = game.hand
    assert hand is not None
    late = hand.to_act
    assert late is not None
    time_.t += BREAK + 60.5  # the timer has not fired yet: the action itself finds it out
    with pytest.raises(GameError) as info:
        manager.act(game, late, hand.legal_actions()[0])
    assert info.value.code == "time"
    assert game.ended == "time" and game.winner == 1 - late


def test_a_clock_running_out_before_the_first_trick_calls_the_match_off(manager: GameManager,
                                                                        time_: ManualTime) -> None:
    for control in ("1+0", "10/move"):
        game = two_players(manager, control)
        time_.t += BREAK + 61
        assert manager.check_time(game)
        assert game.status == "aborted" and game.ended == "aborted" and game.winner is None
        assert manager.storage.results(game.id) == []  # nothing counted
        with pytest.raises(GameError) as info:
            manager.make_rematch(game, 0)
        assert info.value.code == "not_over"


def test_a_move_clock_that_runs_out_forfeits_the_hand(manager: GameManager, time_: ManualTime) -> None:
    game = two_players(manager, "10/move", rules="classic,target=7")
    first_trick(manager, game)
    hand = game.hand
    assert hand is not None
    late = hand.to_act
    assert late is not None
    time_.t += 9.0  # in time: a move clock gives each decision its whole time anew
    manager.act(game, late, hand.legal_actions()[0])
    assert game.clock is not None and game.clock.left[late] >= 0
    slow = hand.to_act
    assert slow is not None
    time_.t += 10.5
    assert manager.check_time(game)
    # The hand is lost by forfeit: the opponent scores 3 game points; the match goes on.
    assert hand.is_over() and hand.result().winner == 1 - slow and hand.result().game_points == 3
    assert game.score[1 - slow] == 3 and game.score[slow] == 0
    assert game.status == "playing" and len(game.match.hands) == 2
    # The next hand's first clock starts after the break, with the whole time.
    nxt = game.hand
    assert nxt is not None and game.clock.running == nxt.to_act
    assert game.clock.since == time_.t + BREAK and game.info()["clock"]["left"] == [10.0, 10.0]
    # The stored record replays to the same score: the forfeit is in it.
    record = loads(json.dumps(stored_record(manager, game)))
    assert isinstance(record, MatchRecord)
    result = replay(record)
    assert result.match.results()[0].winner == 1 - slow  # type: ignore[union-attr]


def test_resigning_loses_the_match_and_aborting_is_only_before_the_first_trick(manager: GameManager,
                                                                              time_: ManualTime) -> None:
    game = two_players(manager, None)
    hand = game.hand
    assert hand is not None
    assert game.info()["abortable"]
    first_trick(manager, game)
    assert not game.info()["abortable"]
    with pytest.raises(GameError) as info:
        manager.abort(game, 0)
    assert info.value.code == "not_abortable"
    manager.resign(game, 1)
    assert game.status == "finished" and game.ended == "resigned" and game.winner == 0
    with pytest.raises(GameError):
        manager.resign(game, 0)  # once over, no second ending
    assert [r.won for r in manager.storage.results(game.id)] == [True, False]
    rematch = manager.make_rematch(game, 1)
    assert rematch.status == "playing" and rematch.clock is None

    other = two_players(manager, "3+2")
    manager.abort(other, 1)
    assert other.status == "aborted" and other.winner is None
    assert manager.storage.results(other.id) == []
    assert stored_record(manager, other)["end"] == {"reason": "aborted", "winner": None}
    waiting, _ = manager.create(rules=Rules(), kind="person", name="Alone")
    manager.abort(waiting, 0)  # nobody came: the creator may call it off
    assert waiting.status == "aborted"


def test_a_player_who_leaves_loses_after_the_grace_period(manager: GameManager, time_: ManualTime) -> None:
    game = two_players(manager, None)
    first_trick(manager, game)
    anna, bob = connect(manager, game, 0), connect(manager, game, 1)
    assert game.away == {}
    manager.detach(game, bob)
    assert game.away == {1: time_.t + GRACE}
    assert game.info()["away"] == {"1": GRACE}
    time_.t += GRACE - 1
    assert not manager.check_time(game)
    # Back in time: nothing happens, and a new absence starts a new grace period.
    bob = connect(manager, game, 1)
    assert game.away == {}
    manager.detach(game, bob)
    time_.t += GRACE - 1
    assert not manager.check_time(game) and game.status == "playing"
    time_.t += 1
    assert manager.check_time(game)
    assert game.status == "finished" and game.ended == "left" and game.winner == 0
    assert anna in game.connections


def test_nobody_loses_while_both_are_away_and_a_spectator_does_not_count(manager: GameManager,
                                                                         time_: ManualTime) -> None:
    game = two_players(manager, None)
    first_trick(manager, game)
    anna, bob = connect(manager, game, 0), connect(manager, game, 1)
    watcher = connect(manager, game, None)
    manager.detach(game, anna)
    manager.detach(game, bob)
    assert set(game.away) == {0, 1}
    time_.t += 10 * GRACE
    assert not manager.check_time(game) and game.status == "playing"
    manager.detach(game, watcher)


def test_leaving_before_the_first_trick_calls_the_match_off(manager: GameManager, time_: ManualTime) -> None:
    game = two_players(manager, None)
    connect(manager, game, 0)  # Bob joined but never came to the table
    assert set(game.away) == {1}
    time_.t += GRACE
    assert manager.check_time(game)
    assert game.status == "aborted" and game.winner is None


def test_a_clock_survives_a_restart_without_charging_the_time_the_server_was_down(
        database_url: str, time_: ManualTime) -> None:
    first = GameManager(Storage(database_url), rng=random.Random(1), now=time_, hand_break=BREAK)
    game = two_players(first, "2+1")
    first_trick(first, game)
    hand = game.hand
    assert hand is not None and game.clock is not None
    to_act = hand.to_act
    assert to_act is not None
    time_.t += 30  # thinking...
    left = game.clock.left[to_act]
    first.storage.close()
    time_.t += 3600  # the server is down for an hour
    second = GameManager(Storage(database_url), rng=random.Random(1), now=time_, hand_break=BREAK)
    assert second.resume_all() == 1
    again = second.games[game.id]
    assert again.clock is not None and again.clock.running == to_act
    assert again.clock.remaining(to_act, time_.t) == left  # his thinking before the stop is forgiven too
    assert not second.check_time(again)
    second.storage.close()


def test_a_clock_keeps_running_while_a_game_is_out_of_memory(manager: GameManager, time_: ManualTime) -> None:
    game, _ = manager.create(rules=Rules(), kind="person", name="Anna", clock=parse_clock("1+0"))
    manager.join(game.id, "Bob")
    first_trick(manager, game)
    anna, bob = connect(manager, game, 0), connect(manager, game, 1)
    manager.detach(game, anna)
    manager.detach(game, bob)  # nobody at the table: the game leaves memory
    assert game.id not in manager.games
    time_.t += 3600
    back = manager.get(game.id)
    assert back.clock is not None and back.clock.flagged(time_.t) is not None
    connect(manager, back, 0)
    assert back.status == "finished" and back.ended == "time"


def test_takebacks_and_clocks_do_not_mix(manager: GameManager) -> None:
    with pytest.raises(GameError) as info:
        manager.create(rules=Rules(), kind="computer", level="easy", takeback=True,
                       clock=parse_clock("5+3"))
    assert info.value.code == "bad_takeback"


# Over the wire: the server's own timer, resign and abort messages -----------------------
def test_over_the_wire_the_server_applies_a_move_clock_by_itself_and_a_player_resigns() -> None:
    from fastapi.testclient import TestClient

    from server_support import connect as ws_connect
    from sixtysix.server import Settings, create_app

    settings = Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6, hand_break=0.0)
    with TestClient(create_app(settings)) as client:
        assert client.post("/api/games", json={"kind": "person", "clock": "5 minutes"}).json()["code"] == \
            "bad_clock"
        refused = client.post("/api/games", json={"kind": "computer", "clock": "5+3", "takeback": True})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_takeback"
        game = client.post("/api/games", json={"kind": "person", "rules": "classic,target=7",
                                                "name": "Ann", "clock": "3/move"}).json()
        gid = game["id"]
        assert game["game"]["clock"] == {"control": "3/move", "kind": "move", "left": [3.0, 3.0],
                                         "running": None, "starts_in": 0.0}
        bob_token = client.post(f"/api/games/{gid}/join", json={"name": "Bob"}).json()["token"]
        assert client.get("/api/games").json()["playing"][0]["clock"] == "3/move"
        with contextlib.ExitStack() as stack:
            ann = stack.enter_context(contextmanager(ws_connect)(client, gid, game["token"], 0))
            bob = stack.enter_context(contextmanager(ws_connect)(client, gid, bob_token, 1))
            # Play the first trick, then let the clock run out: the state that shows the
            # forfeited hand comes from the server's timer, unasked.
            rng = random.Random(2)
            while True:
                ann.sync()
                bob.sync()
                assert ann.state is not None
                if ann.state["game"]["abortable"] is False:
                    break
                (ann if ann.my_turn else bob).act_random(rng)
            while ann.state is None or ann.state["game"]["hand_number"] < 2:
                ann.recv()
            info = ann.state["game"]
            assert sorted(info["score"]) == [0, 3] and info["status"] == "playing"
            assert info["results"][0]["reason"] == "forfeit"
            # Bob resigns: both see the match end with Ann the winner.
            bob.sync()
            assert bob.request({"type": "abort"})["code"] == "not_abortable"
            bob.send({"type": "resign"})
            for p in (ann, bob):
                while p.state is None or p.state["game"]["status"] == "playing":
                    p.recv()
                assert p.state["game"]["ended"] == "resigned" and p.state["game"]["winner"] == 0
        record = client.get(f"/api/games/{gid}/record").json()
        assert record["clock"] == "3/move" and record["end"] == {"reason": "resigned", "winner": 0}
        assert record["hands"][0]["forfeit"] in (0, 1)
