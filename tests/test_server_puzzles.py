"""Puzzles on the server (sixtysix.server.puzzle_api, puzzle_desk): what a solver sees,
the verdict, the ratings stored after each attempt (checked against the Glicko-2 oracle
of tests/glicko_oracle.py and the database's rows), the daily puzzle, the limits. On
SQLite and, with ``SIXTYSIX_TEST_POSTGRES_URL``, on PostgreSQL; the clock is moved by hand."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")
argon2 = need_module("argon2", "argon2-cffi, in the web extra")

from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from glicko_oracle import glicko2  # noqa: E402
from server_support import ManualTime, cards_mentioned  # noqa: E402
from sixtysix.game.actions import ActionKind  # noqa: E402
from sixtysix.game.hand import Hand  # noqa: E402
from sixtysix.present.wire import seat_view_json  # noqa: E402
from sixtysix.puzzles.puzzle import Puzzle  # noqa: E402
from sixtysix.puzzles.rating import daily  # noqa: E402
from sixtysix.puzzles.shipped import by_id, shipped  # noqa: E402
from sixtysix.puzzles.verify import assess  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.accounts import Accounts  # noqa: E402
from sixtysix.server.puzzle_api import GUEST_HEADER  # noqa: E402

CHEAP = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
ANN = {GUEST_HEADER: "ann-browser-0123456789"}
BOB = {GUEST_HEADER: "bob-browser-9876543210"}
NOON = dt.datetime(2027, 3, 14, 12, 0, tzinfo=dt.UTC).timestamp()


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime(NOON)


@pytest.fixture
def app(database_url: str, clock: ManualTime) -> Any:
    app = create_app(Settings(database_url=database_url, puzzle_burst=40))
    app.state.puzzles.now = clock
    accounts: Accounts = app.state.accounts
    accounts.hasher = CHEAP
    return app


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def stored(app: Any, table: str, key: str, value: str) -> dict[str, Any]:
    engine = create_engine(app.state.settings.database_url)
    with engine.connect() as conn:
        row = conn.execute(text(f"SELECT * FROM {table} WHERE {key} = :v"), {"v": value}).mappings().one()
    engine.dispose()
    return dict(row)


def seat_of(puzzle: Puzzle) -> int:
    seat = puzzle.position().to_act
    assert seat is not None
    return seat


def test_a_solver_sees_his_view_and_nothing_of_the_opponents_hand(client: TestClient) -> None:
    answer = client.get("/api/puzzles/next", headers=ANN).json()
    puzzle = by_id(answer["id"])
    assert puzzle is not None
    position = puzzle.position()
    seat = position.to_act
    assert seat is not None and answer["seat"] == seat
    # The view is the seat's, as a player at a table gets it (the boundary tested there).
    assert answer["view"] == seat_view_json(position, seat)
    assert answer["legal"] == [str(a) for a in position.legal_actions()]
    assert cards_mentioned({k: v for k, v in answer.items() if k not in ("view", "legal")}) == set()
    assert "themes" not in answer and "solution" not in answer and "record" not in answer


def test_an_attempt_moves_both_ratings_as_glicko2_says_and_they_are_stored(app: Any,
                                                                          client: TestClient) -> None:
    first = client.get("/api/puzzles/next", headers=ANN).json()
    puzzle = by_id(first["id"])
    assert puzzle is not None and puzzle.rating is not None
    wrong = next(a for a in first["legal"] if a != str(puzzle.first))
    answer = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"action": wrong}, headers=ANN).json()
    assert answer["solved"] is False and answer["reason"].startswith("Not best")
    # The solution, after the lead its first action answers where there is one (on the table).
    answered = [str(puzzle.record.actions[-1])] if puzzle.position().view(seat_of(puzzle)).lead else []
    assert [s["action"] for s in answer["solution"]] == answered + [str(a) for a in puzzle.solution]
    ratings = answer["ratings"]
    assert ratings["rated"]
    r, rd, sigma = glicko2(1500, 350, 0.06, [(puzzle.rating.rating, puzzle.rating.deviation, 0.0)])
    assert ratings["player"]["after"]["rating"] == pytest.approx(r, abs=1e-3)
    assert ratings["player"]["after"]["deviation"] == pytest.approx(rd, abs=1e-3)
    pr, _, _ = glicko2(puzzle.rating.rating, puzzle.rating.deviation, puzzle.rating.volatility,
                         [(1500, 350, 1.0)])
    assert ratings["puzzle"]["after"]["rating"] == pytest.approx(pr, abs=1e-3)
    row = stored(app, "puzzle_solvers", "solver", stored_key(app))
    assert row["rating"] == pytest.approx(r, abs=1e-3) and row["plays"] == 1
    prow = stored(app, "puzzle_ratings", "puzzle_id", puzzle.id)
    assert prow["rating"] == pytest.approx(pr, abs=1e-3) and prow["plays"] == 1 and prow["solved"] == 0
    # A second attempt at the same puzzle is judged, and rates nothing.
    again = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"action": str(puzzle.first)},
                        headers=ANN).json()
    assert again["solved"] is True and again["ratings"]["rated"] is False
    assert stored(app, "puzzle_ratings", "puzzle_id", puzzle.id)["plays"] == 1
    # The next solve starts from the stored rating.
    second = client.get("/api/puzzles/next", headers=ANN).json()
    assert second["id"] != puzzle.id and second["player"]["rating"] == pytest.approx(r, abs=0.05)
    nxt = by_id(second["id"])
    assert nxt is not None and nxt.rating is not None
    solved = client.post(f"/api/puzzles/{nxt.id}/attempt", json={"action": str(nxt.first)},
                         headers=ANN).json()
    want = glicko2(r, rd, sigma, [(nxt.rating.rating, nxt.rating.deviation, 1.0)])
    assert solved["solved"] is True and solved["reason"].startswith("Right")
    assert solved["ratings"]["player"]["after"]["rating"] == pytest.approx(want[0], abs=1e-3)
    history = client.get("/api/puzzles/me", headers=ANN).json()
    assert history["plays"] == 2 and {h["puzzle"] for h in history["history"]} == {nxt.id, puzzle.id}
    assert history["rating"]["rating"] == pytest.approx(want[0], abs=0.05)


def stored_key(app: Any) -> str:
    engine = create_engine(app.state.settings.database_url)
    with engine.connect() as conn:
        key = conn.execute(text("SELECT solver FROM puzzle_solvers")).scalar_one()
    engine.dispose()
    return str(key)


def test_the_reason_names_what_the_solver_computes(client: TestClient) -> None:
    # The first open puzzle won by 1 game point where another action loses 1.
    puzzle, wrong = next(
        (p, a) for p in shipped() if p.kind == "open" and p.value == 1
        for table in [assess(p.position())] for a in table.actions if a != p.first and table.value(a) == -1)
    answer = client.post(f"/api/puzzles/{puzzle.id}/attempt?lang=de", json={"action": str(wrong)}).json()
    assert answer["ratings"] is None  # no account, no guest token: judged, not rated
    assert answer["lang"] == "de" and answer["solved"] is False
    assert "verliert 1 Spielpunkt" in answer["reason"] and "gewinnt 1 Spielpunkt" in answer["reason"]


def test_the_daily_puzzle_is_the_same_for_two_solvers_on_a_day(client: TestClient, clock: ManualTime) -> None:
    today = dt.date(2027, 3, 14)
    ann = client.get("/api/puzzles/daily", headers=ANN).json()
    bob = client.get("/api/puzzles/daily", headers=BOB).json()
    guest = client.get("/api/puzzles/daily").json()
    assert ann["id"] == bob["id"] == guest["id"] == daily(shipped(), today).id
    assert ann["daily"] and ann["date"] == "2027-03-14"
    clock.t += 11 * 3600.0 + 59 * 60  # 23:59 the same day
    assert client.get("/api/puzzles/daily", headers=BOB).json()["id"] == ann["id"]
    clock.t += 120.0  # the next day
    tomorrow = client.get("/api/puzzles/daily", headers=ANN).json()
    assert tomorrow["date"] == "2027-03-15" and tomorrow["id"] == daily(shipped(), today + dt.timedelta(1)).id


def test_an_account_is_its_own_solver(client: TestClient) -> None:
    made = client.post("/api/account/register", json={"name": "Ann", "password": "correct horse battery"})
    assert made.status_code == 201, made.text
    csrf = made.json()["csrf"]
    puzzle = client.get("/api/puzzles/next").json()
    refused = client.post(f"/api/puzzles/{puzzle['id']}/attempt", json={"action": puzzle["legal"][0]})
    assert refused.status_code == 403 and refused.json()["code"] == "bad_csrf"
    answer = client.post(f"/api/puzzles/{puzzle['id']}/attempt", json={"action": puzzle["legal"][0]},
                         headers={"X-CSRF-Token": csrf}).json()
    assert answer["ratings"]["rated"]
    assert client.get("/api/puzzles/me").json()["plays"] == 1
    assert client.get("/api/puzzles/me", headers=BOB).json()["plays"] == 1  # the account, not the header
    # The player's page shows the puzzle rating and its history.
    page = client.get("/api/players/Ann").json()["puzzles"]
    mine = client.get("/api/puzzles/me").json()
    assert page["plays"] == 1 and page["rating"] == round(mine["rating"]["rating"])
    assert page["history"] == mine["history"] and page["history"][0]["puzzle"] == puzzle["id"]


def test_a_deleted_account_leaves_its_puzzle_rating_and_the_puzzles_keep_theirs(client: TestClient) -> None:
    made = client.post("/api/account/register", json={"name": "Ann", "password": "correct horse battery"})
    csrf = {"X-CSRF-Token": made.json()["csrf"]}
    puzzle = client.get("/api/puzzles/next").json()
    client.post(f"/api/puzzles/{puzzle['id']}/attempt", json={"action": puzzle["legal"][0]}, headers=csrf)
    moved = client.get(f"/api/puzzles/{puzzle['id']}").json()["rating"]
    gone = client.post("/api/account/delete", json={"password": "correct horse battery"}, headers=csrf)
    assert gone.status_code == 200, gone.text
    assert client.get(f"/api/puzzles/{puzzle['id']}").json()["rating"] == moved
    made = client.post("/api/account/register", json={"name": "Ann", "password": "correct horse battery"})
    assert made.status_code == 201, made.text
    assert client.get("/api/puzzles/me").json()["plays"] == 0  # a new account under the name starts afresh


def test_themes_choose_the_puzzles(client: TestClient) -> None:
    themes = client.get("/api/puzzles/themes?lang=de").json()
    assert len(themes["themes"]) >= 8 and themes["count"] == len(shipped())
    names = {t["theme"]: t["name"] for t in themes["themes"]}
    assert names["declare"] == "Auf 66 zählen und ansagen"
    for theme in ("tie", "schwarz"):
        answer = client.get(f"/api/puzzles/next?theme={theme}", headers=ANN).json()
        puzzle = by_id(answer["id"])
        assert puzzle is not None and theme in puzzle.themes


@pytest.mark.parametrize(("method", "path", "body", "code"), [
    ("GET", "/api/puzzles/nope", None, "no_puzzle"),
    ("GET", "/api/puzzles/next?theme=squeeze", None, "no_theme"),
    ("POST", "/api/puzzles/{id}/attempt", {"action": "ZZ"}, "bad_action"),
    ("POST", "/api/puzzles/{id}/attempt", {"action": "close"}, "bad_action"),
    ("POST", "/api/puzzles/{id}/attempt", {"action": "9S" * 5}, "bad_request"),
    ("GET", "/api/puzzles/{id}/analysis/2", None, "no_hand"),
])
def test_bad_requests_get_one_line_and_a_code(client: TestClient, method: str, path: str, body: Any,
                                              code: str) -> None:
    puzzle = shipped()[0]
    answer = client.request(method, path.format(id=puzzle.id), json=body)
    assert answer.status_code in (400, 404, 422) and answer.json()["code"] == code
    assert "\n" not in answer.json()["error"]


def test_an_illegal_action_and_a_bad_guest_token_are_refused(client: TestClient) -> None:
    puzzle = shipped()[0]
    legal = {str(a) for a in puzzle.position().legal_actions()}
    illegal = next(c for c in ("9C", "9D", "9H", "9S", "AC", "AD", "AH", "AS") if c not in legal)
    answer = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"action": illegal})
    assert answer.status_code == 400 and answer.json()["code"] == "illegal"
    bad = client.get("/api/puzzles/next", headers={GUEST_HEADER: "short"})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_guest"


def test_attempts_count_against_a_limit_per_address(client: TestClient) -> None:
    puzzle = shipped()[0]
    answers = [client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"action": str(puzzle.first)},
                           headers={GUEST_HEADER: f"guest-number-{n:08d}"}) for n in range(41)]
    assert [a.status_code for a in answers[:40]] == [200] * 40
    assert answers[40].status_code == 429 and answers[40].json()["code"] == "too_many_attempts"


def test_the_analysis_board_of_a_puzzle_is_its_solution_played_out(client: TestClient) -> None:
    puzzle = shipped()[0]
    replay = client.get(f"/api/puzzles/{puzzle.id}/replay").json()
    start = len(puzzle.position().actions)
    assert replay["game"]["start"] == start and replay["game"]["kind"] == "puzzle"
    assert len(replay["frames"]) == start + len(puzzle.solution) + 1
    assert replay["frames"][-1]["view"]["result"] is not None
    record = client.get(f"/api/puzzles/{puzzle.id}/record")
    assert record.status_code == 200 and record.json()["id"] == puzzle.id
    assert client.get(f"/replay/puzzle/{puzzle.id}").status_code == 200
    assert client.get("/puzzles").status_code == 200


def answers_a_lead_then_closed_on(puzzle: Puzzle) -> bool:
    """Whether the puzzle's player answers a lead, and the opponent, taking the trick, closes."""
    position = puzzle.position()
    me = position.to_act
    if me is None or position.view(me).lead is None or len(puzzle.solution) < 2:
        return False
    position.push(puzzle.first)
    return position.to_act == 1 - me and puzzle.solution[1].kind is ActionKind.CLOSE


def test_a_hidden_puzzles_line_shows_every_reply_of_the_opponent_from_the_trick_on_the_table(
        client: TestClient) -> None:
    """A hidden puzzle whose player answers a lead, and whose opponent then closes: the line
    shown after the attempt reads the first trick whole, the opponent's card on the table
    first (replayed from the record, not taken from the line), then every action of the
    solution in turn, each with the seat that took it as the engine says, none missing;
    the table's view after each (the lead's: the puzzle's own position)."""
    puzzle = next(p for p in shipped() if p.kind == "hidden" and answers_a_lead_then_closed_on(p))
    position = puzzle.position()
    me = position.to_act
    assert me is not None
    record = puzzle.record
    before = Hand.deal(record.deck, record.dealer, record.rules)
    for action in record.actions[:-1]:
        before.push(action)
    leader = before.to_act
    assert leader == 1 - me
    answer = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"action": str(puzzle.first)},
                         headers=ANN).json()
    assert answer["solved"] is True
    line = answer["solution"]
    assert [(s["seat"], s["action"]) for s in line[:2]] == [(leader, str(record.actions[-1])),
                                                            (me, str(puzzle.first))]
    hand, seats = position.copy(), []
    for action in puzzle.solution:
        seats.append((hand.to_act, str(action)))
        hand.push(action)
    assert [(s["seat"], s["action"]) for s in line[1:]] == seats
    assert [s["seat"] for s in line].count(1 - me) == 1 + sum(seat == 1 - me for seat, _ in seats)
    assert answer["steps"][0] == seat_view_json(position, me) and len(answer["steps"]) == len(line)
    assert all("(Enter)" not in s["words"] for s in line)  # no key of the terminal game in the page's line
