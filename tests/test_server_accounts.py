"""Optional player accounts (issue 21, part 1): registration, login, sessions, CSRF.

Each test talks to an app as a browser would, with its cookie jar, on SQLite and,
when ``SIXTYSIX_TEST_POSTGRES_URL`` is set, on PostgreSQL. Hashing uses cheap
argon2 parameters (the server's own are tested once, by the rehash at login);
the throttle's clock is moved by hand: nothing sleeps, nothing is timed.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import random
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from http.cookies import SimpleCookie
from typing import Any

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")
argon2 = need_module("argon2", "argon2-cffi, in the web extra")
from fastapi.testclient import TestClient  # noqa: E402
from sqlalchemy import create_engine, inspect, text  # noqa: E402

from server_support import Client, ManualTime, connect  # noqa: E402
from sixtysix import cli  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402
from sixtysix.server.account_api import CSRF_HEADER, DEVICE_COOKIE, SESSION_COOKIE, ActingUser, CurrentUser  # noqa: E402
from sixtysix.server.accounts import (  # noqa: E402
    DELETED_NAME,
    AccountError,
    Accounts,
    Throttle,
    User,
    check_name,
    name_key,
)

#: Quick to compute, still argon2id: the tests hash many passwords.
CHEAP = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "correct horse battery"




@pytest.fixture
def clock() -> ManualTime:
    return ManualTime(1000.0)


@pytest.fixture
def app(database_url: str, clock: ManualTime) -> Any:
    app = create_app(Settings(database_url=database_url))
    accounts: Accounts = app.state.accounts
    accounts.hasher = CHEAP
    accounts.throttle = Throttle(clock=clock)
    return app


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def accounts_of(client: TestClient) -> Accounts:
    accounts: Accounts = client.app.state.accounts  # type: ignore[attr-defined]
    return accounts


def post(client: TestClient, path: str, body: Any, headers: dict[str, str]) -> Any:
    # JSON as a browser sends it, ASCII-escaped: a lone surrogate goes as "\udfff".
    return client.post(path, content=json.dumps(body),
                       headers={"Content-Type": "application/json", **headers})


def register(client: TestClient, name: str = "Ann", password: str = PASSWORD, **headers: str) -> Any:
    return post(client, "/api/account/register", {"name": name, "password": password}, headers)


def login(client: TestClient, name: str = "Ann", password: str = PASSWORD, **headers: str) -> Any:
    return post(client, "/api/account/login", {"name": name, "password": password}, headers)


def me(client: TestClient) -> dict[str, Any]:
    answer = client.get("/api/account")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def refused(answer: Any, status: int, code: str) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["code"] == code, body
    assert set(body) <= {"error", "code", "text", "args"} and body["error"]
    reason: str = body["error"]
    return reason


def fresh(client: TestClient) -> TestClient:
    """Another browser on the same app (its own cookies)."""
    return TestClient(client.app)


# Register, log in, log out, who am I ----------------------------------------------

def test_a_guest_is_nobody_and_plays_as_before(client: TestClient) -> None:
    assert me(client) == {"name": None}
    game = client.post("/api/games", json={"kind": "computer", "name": "Guest player"})
    assert game.status_code == 201 and game.json()["token"]


def test_register_logs_in_and_logout_logs_out(client: TestClient) -> None:
    answer = register(client, "Ann")
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert body["name"] == "Ann" and set(body) == {"name", "csrf"}
    assert me(client) == body
    out = client.post("/api/account/logout", headers={CSRF_HEADER: body["csrf"]})
    assert out.status_code == 200 and out.json() == {"name": None}
    assert SESSION_COOKIE not in client.cookies
    assert me(client) == {"name": None}
    # Logging out twice (no session any more) is harmless.
    assert client.post("/api/account/logout").json() == {"name": None}


def test_login_opens_a_session_of_its_own(client: TestClient) -> None:
    register(client, "Ann")
    other = fresh(client)
    assert me(other) == {"name": None}
    answer = login(other, "ann")  # any case
    assert answer.status_code == 200, answer.text
    assert answer.json()["name"] == "Ann"
    assert me(other)["name"] == "Ann"
    assert me(other)["csrf"] != me(client)["csrf"]
    assert accounts_of(client).sessions_of(accounts_of(client).user_by_name("ANN") or User(0, "")) == 2


def test_a_session_ends_when_it_expires(client: TestClient) -> None:
    accounts = accounts_of(client)
    register(client, "Ann")
    assert me(client)["name"] == "Ann"
    start = accounts.now()
    accounts.now = lambda: start + datetime.timedelta(days=30, seconds=1)
    assert me(client) == {"name": None}
    assert SESSION_COOKIE not in client.cookies  # the stale cookie is cleared


def test_a_forged_or_unknown_session_cookie_is_a_guest(client: TestClient) -> None:
    client.cookies.set(SESSION_COOKIE, "not-a-session")
    assert me(client) == {"name": None}
    client.cookies.set(SESSION_COOKIE, "x" * 5000)
    assert me(client) == {"name": None}


# Names -----------------------------------------------------------------------------

@pytest.mark.parametrize("taken", ["ann", "ANN", "Ａｎｎ", "ａｎｎ"])
def test_a_name_is_taken_in_any_case_and_any_unicode_form(client: TestClient, taken: str) -> None:
    assert register(client, "Ann").status_code == 201
    reason = refused(register(fresh(client), taken), 409, "name_taken")
    assert "taken" in reason


def test_a_composed_and_a_decomposed_name_are_one_name(client: TestClient) -> None:
    assert register(client, "Zoe\u0301").json()["name"] == "Zo\u00e9"  # shown composed
    refused(register(fresh(client), "ZO\u00c9"), 409, "name_taken")


def test_names_compare_by_case_folding() -> None:
    assert name_key("Straße") == name_key("STRASSE") == "strasse"
    assert check_name("Ｚoë") == "Zoë"  # the shown name is the NFKC form


@pytest.mark.parametrize(("name", "code", "words", "facts"), [
    ("Al", "name_length", "3 to 20", {"min": 3, "max": 20, "length": 2}),
    ("A" * 21, "name_length", "3 to 20", {"min": 3, "max": 20, "length": 21}),
    ("", "name_length", "3 to 20", {"min": 3, "max": 20, "length": 0}),
    ("1ann", "name_start", "starts with a letter", {"char": "1"}),
    ("_ann", "name_start", "starts with a letter", {"char": "_"}),
    ("-ann", "name_start", "starts with a letter", {"char": "-"}),
    ("ann smith", "name_characters", "only letters", {"char": " "}),
    ("ann.smith", "name_characters", "only letters", {"char": "."}),
    ("ann@x", "name_characters", "only letters", {"char": "@"}),
    ("ann\x00x", "name_characters", "only letters", {"char": "\x00"}),
    ("ann\u20ddx", "name_characters", "only letters", {"char": "\u20dd"}),
    ("ann\u00bd", "name_characters", "only letters", {"char": "\u2044"}),  # NFKC: ½ is 1, U+2044, 2
    ("computer", "name_reserved", "kept for the server", {"start": "Computer"}),
    ("Computer_2", "name_reserved", "kept for the server", {"start": "Computer"}),
    ("GUEST", "name_reserved", "kept", {"start": "Guest"}),
    ("Admin1", "name_reserved", "kept", {"start": "Admin"}),
    ("ＡＤＭＩＮ", "name_reserved", "kept", {"start": "Admin"}),
    ("SixtySix", "name_reserved", "kept", {"start": "Sixtysix"}),
    ("sixtysixer", "name_reserved", "kept", {"start": "Sixtysix"}),
    ("c0mputer", "name_reserved", "kept", {"start": "Computer"}),
    ("ADM1N", "name_reserved", "kept", {"start": "Admin"}),
    ("Adm1n_x", "name_reserved", "kept", {"start": "Admin"}),
    ("m0derator", "name_reserved", "kept", {"start": "Moderator"}),
])
def test_each_broken_name_rule_has_its_own_code_and_facts(client: TestClient, name: str, code: str,
                                                           words: str,
                                                           facts: dict[str, Any]) -> None:
    """Issue 36, item 9: the page words each rule on its own (from the code and its facts),
    not one long message for every bad name."""
    answer = register(client, name)
    reason = refused(answer, 422, code)
    assert words in reason
    assert answer.json()["args"] == facts


@pytest.mark.parametrize("name", ["Ann", "bob_42", "Zoë-Li", "Ивана", "Đorđe", "Ελένη", "山田太郎", "नमस्ते",
                                  "Ádám", "a-_"])
def test_names_in_any_script_are_welcome(client: TestClient, name: str) -> None:
    answer = register(client, name)
    assert answer.status_code == 201, answer.text
    assert answer.json()["name"] == name


# Look-alike and blank names (issue 34) -------------------------------------------------

@pytest.mark.parametrize(("name", "code_point"), [
    ("Ann\ufe0f", "U+FE0F"), ("Ann\ufe00", "U+FE00"), ("An\u034fn", "U+034F"), ("Ann\u180b", "U+180B"),
    ("\u3164\u3164\u3164", "U+3164"), ("\u115f\u115f\u115f", "U+115F"), ("A\u1160nn", "U+1160"),
    ("Ann\uffa0", "U+FFA0"), ("ann\u200bx", "U+200B"), ("Ann\U000e0100", "U+E0100"), ("Ann\u17b4", "U+17B4"),
])
def test_invisible_characters_are_refused_in_one_line(client: TestClient, name: str, code_point: str) -> None:
    assert register(client, "Ann").status_code == 201
    reason = refused(register(fresh(client), name), 422, "invisible_name")
    assert code_point in reason and "invisible" in reason and "\n" not in reason


@pytest.mark.parametrize(("first", "second"), [
    ("Anna", "\u0410nna"),  # Cyrillic А
    ("anna", "\u0430nna"),  # Cyrillic а
    ("Bob1", "BobI"), ("Bob1", "Bobl"), ("Paypal", "PayPaI"), ("Lolo", "L0l0"),
])
def test_a_name_that_looks_like_a_taken_one_is_refused(client: TestClient, first: str, second: str) -> None:
    assert register(client, first).status_code == 201
    reason = refused(register(fresh(client), second), 409, "name_look_alike")
    assert repr(first) in reason and "\n" not in reason
    # Names that only resemble each other are welcome.
    assert register(fresh(client), first + "x").status_code == 201


def test_names_of_an_older_database_get_their_skeletons(tmp_path: Any) -> None:
    """A users table made before skeletons (or with another version of them) gets them at
    start-up, in an indexed column: a look-alike of an old name is refused."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, name VARCHAR(64), "
                          "name_key VARCHAR(128) UNIQUE, password_hash VARCHAR(255), created DATETIME, "
                          "last_login DATETIME)"))
        conn.execute(text("INSERT INTO users (name, name_key, password_hash, created) "
                          "VALUES ('Anna', 'anna', 'x', '2026-01-01 00:00:00')"))
    Accounts(engine, hasher=CHEAP)
    assert "ix_users_name_skeleton" in {index["name"] for index in inspect(engine).get_indexes("users")}
    with engine.begin() as conn:
        assert conn.execute(text("SELECT name_skeleton FROM users")).scalar_one() == "anna"
        conn.execute(text("UPDATE users SET name_skeleton = 'stale', skeleton_version = -1"))
    accounts = Accounts(engine, hasher=CHEAP)
    with pytest.raises(AccountError, match="looks like 'Anna'"):
        asyncio.run(accounts.register("\u0410nna", PASSWORD))
    with engine.connect() as conn:
        plan = " ".join(str(row) for row in conn.execute(text(
            "EXPLAIN QUERY PLAN SELECT name FROM users WHERE name_skeleton = 'anna'")))
    assert "ix_users_name_skeleton" in plan


# Passwords -------------------------------------------------------------------------

@pytest.mark.parametrize(("password", "code", "words"), [
    ("short", "password_length", "8 to 128"), ("", "password_length", "8 to 128"),
    ("x" * 129, "password_length", "8 to 128"),
    ("AnnSmith", "password_is_name", "not be the name"), ("annsmith", "password_is_name", "not be the name"),
    ("ＡＮＮＳＭＩＴＨ", "password_is_name", "not be the name"),
])
def test_bad_passwords_are_refused_in_words(client: TestClient, password: str, code: str, words: str) -> None:
    reason = refused(register(client, "AnnSmith", password), 422, code)
    assert words in reason


# The oracle: passwords on every published list of the most used ones (and their usual
# disguises: capitals, digits for letters, reversed), and ones guessed by pattern.
@pytest.mark.parametrize("password", ["12345678", "password", "Password", "P@ssw0rd", "drowssap", "iloveyou",
                                      "qwerty123", "11111111", "sunshine", "football"])
def test_common_passwords_are_refused(client: TestClient, password: str) -> None:
    """Issue 36, item 9: "12345678" was accepted."""
    refused(register(client, "Ann", password), 422, "common_password")
    assert me(client) == {"name": None}


@pytest.mark.parametrize("password", ["x" * 128, "abcdefgh", "qwertzuiop1", "Passwort1", "Ann12345",
                                      "aaaaaaaaaaaa", "2020-01-01"])
def test_easily_guessed_passwords_are_refused(client: TestClient, password: str) -> None:
    refused(register(client, "Ann", password), 422, "weak_password")


@pytest.mark.parametrize("password", ["пароль-пароль-7", "a b\tc\nd e", "correct horse battery",
                                      "Herz-Dame sticht 9", "Tr0ub4dor&3"])
def test_any_unicode_password_of_8_to_128_characters_works(client: TestClient, password: str) -> None:
    assert register(client, "Ann", password).status_code == 201
    assert login(fresh(client), "Ann", password).status_code == 200


def test_a_password_is_the_same_in_any_unicode_normal_form(client: TestClient) -> None:
    assert register(client, "Ann", "caf\u00e9 au lait").status_code == 201  # é composed
    assert login(fresh(client), "Ann", "cafe\u0301 au lait").status_code == 200  # e + combining accent


@pytest.mark.parametrize("body", [
    {"name": "Ann"}, {"password": PASSWORD}, {"name": 7, "password": PASSWORD},
    {"name": "Ann", "password": ["a"] * 9}, {"name": "Ann", "password": None},
    {"name": "A" * 101, "password": PASSWORD}, {"name": "Ann", "password": "x" * 1001},
])
def test_everything_from_the_client_is_type_checked(client: TestClient, body: dict[str, Any]) -> None:
    for path in ("/api/account/register", "/api/account/login"):
        refused(client.post(path, json=body), 422, "bad_request")
    refused(client.post("/api/account/login", content=b"{not json",
                        headers={"Content-Type": "application/json"}), 422, "bad_request")


def test_a_lone_surrogate_is_not_text(client: TestClient) -> None:
    refused(register(client, "ann\ud800"), 422, "bad_request")
    refused(register(client, "Ann", "abc\udfffdefgh"), 422, "bad_request")
    refused(login(client, "Ann", "abc\udfffdefgh"), 422, "bad_request")


def test_the_stored_hash_is_argon2_and_never_the_password(client: TestClient) -> None:
    register(client, "Ann")
    stored = accounts_of(client).password_hash("Ann")
    assert stored is not None and stored.startswith("$argon2id$")
    assert PASSWORD not in stored
    assert argon2.PasswordHasher().verify(stored, PASSWORD)


def test_an_old_hash_is_replaced_at_login(client: TestClient) -> None:
    accounts = accounts_of(client)
    register(client, "Ann")
    before = accounts.password_hash("Ann")
    assert before is not None and "m=1024,t=1,p=1" in before
    accounts.hasher = argon2.PasswordHasher()  # the server's own parameters
    assert login(fresh(client), "Ann").status_code == 200
    after = accounts.password_hash("Ann")
    assert after is not None and after != before
    assert not accounts.hasher.check_needs_rehash(after)
    assert login(fresh(client), "Ann").status_code == 200


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    register(client, "Ann")
    wrong = login(fresh(client), "Ann", "not the password")
    unknown = login(fresh(client), "Nobody", PASSWORD)
    malformed = login(fresh(client), "no such name!", PASSWORD)
    for answer in (wrong, unknown, malformed):
        refused(answer, 401, "wrong_password")
        assert SESSION_COOKIE not in answer.cookies
    assert wrong.json() == unknown.json() == malformed.json()
    assert dict(wrong.headers) .keys() == dict(unknown.headers).keys()


# Throttling ------------------------------------------------------------------------

def test_failed_logins_are_throttled_per_name(client: TestClient, clock: ManualTime,
                                              monkeypatch: Any) -> None:
    register(client, "Ann")
    accounts = accounts_of(client)
    for _ in range(5):
        refused(login(fresh(client), "Ann", "wrong password"), 401, "wrong_password")
    # The sixth attempt never reaches argon2, even with the right password.
    calls: list[str] = []
    monkeypatch.setattr(accounts, "_verify", lambda *a: calls.append("verify") or True)
    answer = login(fresh(client), "ANN", PASSWORD)
    refused(answer, 429, "throttled")
    assert answer.headers["Retry-After"] == "10"
    assert calls == []
    monkeypatch.undo()
    # Another name is not held up, the address has tries left.
    register(client, "Bob")
    assert login(fresh(client), "Bob").status_code == 200
    clock.t += 4
    assert login(fresh(client), "Ann").headers["Retry-After"] == "6"
    clock.t += 6
    refused(login(fresh(client), "Ann", "wrong again"), 401, "wrong_password")
    refused(login(fresh(client), "Ann"), 429, "throttled")
    clock.t += 10
    assert login(fresh(client), "Ann").status_code == 200  # one per 10 seconds


def test_a_successful_login_does_not_count(client: TestClient) -> None:
    register(client, "Ann")
    for _ in range(20):
        assert login(fresh(client), "Ann").status_code == 200


def test_failed_logins_are_throttled_per_address(client: TestClient, clock: ManualTime) -> None:
    for n in range(20):
        refused(login(client, f"Name{n}", "wrong password"), 401, "wrong_password")
    answer = login(client, "Another", "wrong password")
    refused(answer, 429, "throttled")
    assert answer.headers["Retry-After"] == "2"
    clock.t += 2
    refused(login(client, "Another", "wrong password"), 401, "wrong_password")


def browser(client: TestClient, address: str) -> TestClient:
    """Another browser on the same app, at client address ``address``."""
    return TestClient(client.app, client=(address, 50000))


def test_failures_from_elsewhere_never_lock_the_owner_out(client: TestClient, clock: ManualTime) -> None:
    """Issue 34, item 4: an attacker fails logins for the owner's name from address after
    address, first until the name's limit refuses, then one every 10 s. The owner, on the
    browser he logged in with before, logs in every time; the same owner on a browser
    new to the account (the control, at the same address) is refused by the name's limit."""
    owner = browser(client, "10.0.0.1")
    assert register(owner, "Ann").status_code == 201
    attackers = (browser(client, f"10.1.{n // 250}.{n % 250}") for n in range(10_000))
    statuses = []
    while not statuses or statuses[-1] != 429:  # the attacker empties the name's budget
        attacker = next(attackers)
        statuses += [login(attacker, "Ann", "wrong password").status_code for _ in range(5)]
    assert statuses.count(401) == 20  # 5 from each address, 20 in all for the name
    owner_ok = new_device_ok = 0
    for _ in range(40):
        clock.t += 10
        assert login(next(attackers), "Ann", "wrong password").status_code in (401, 429)
        new_device_ok += login(browser(client, "10.0.0.1"), "Ann").status_code == 200
        answer = login(owner, "Ann")
        assert answer.status_code == 200, answer.text
        owner_ok += 1
    assert owner_ok == 40
    assert new_device_ok == 0  # the control: the attack does hold the name's limit


def test_guessing_is_still_throttled_per_name_and_address_and_per_name(client: TestClient,
                                                                        clock: ManualTime) -> None:
    owner = browser(client, "10.0.0.1")
    assert register(owner, "Ann").status_code == 201
    # Per name and address: 5 failures, then one per 10 s; the owner's device is not held up.
    guesser = browser(client, "10.2.0.1")
    for _ in range(5):
        refused(login(guesser, "Ann", "wrong password"), 401, "wrong_password")
    answer = login(guesser, "Ann")
    refused(answer, 429, "throttled")
    assert answer.headers["Retry-After"] == "10"
    assert login(owner, "Ann").status_code == 200
    # Per name, over every address: 20 failures in all (15 more from 3 other addresses).
    for n in range(2, 5):
        for _ in range(5):
            refused(login(browser(client, f"10.2.0.{n}"), "Ann", "wrong password"), 401, "wrong_password")
    refused(login(browser(client, "10.2.0.99"), "Ann", "wrong password"), 429, "throttled")
    clock.t += 10  # one more guess for the name, from one address only
    refused(login(browser(client, "10.2.0.99"), "Ann", "wrong password"), 401, "wrong_password")
    refused(login(browser(client, "10.2.0.98"), "Ann", "wrong password"), 429, "throttled")
    # A device the account knows is throttled on its own: the owner's wrong guesses too.
    for _ in range(5):
        refused(login(owner, "Ann", "wrong password"), 401, "wrong_password")
    refused(login(owner, "Ann"), 429, "throttled")
    clock.t += 10
    assert login(owner, "Ann").status_code == 200


def test_a_browser_is_one_device_and_an_account_keeps_its_latest(client: TestClient) -> None:
    assert register(client, "Ann").status_code == 201
    token = client.cookies[DEVICE_COOKIE]
    assert login(client, "Ann").status_code == 200 and client.cookies[DEVICE_COOKIE] == token
    accounts = accounts_of(client)
    user = accounts.user_by_name("Ann")
    assert user is not None and accounts.devices_of(user) == 1
    for _ in range(25):
        assert login(fresh(client), "Ann").status_code == 200
    assert accounts.devices_of(user) == 20
    # A device token the server never gave is not taken: the browser gets one of the server's.
    forged = fresh(client)
    answer = login(forged, "Ann", Cookie=f"{DEVICE_COOKIE}=chosen-by-the-client")
    assert answer.status_code == 200
    assert forged.cookies[DEVICE_COOKIE] not in ("", "chosen-by-the-client")


def test_junk_logins_do_not_give_a_name_fresh_guesses(app: Any, clock: ManualTime) -> None:
    """Issue 34, item 10: logins for names nobody has, and failures for many other names
    from many addresses, overflow the throttle's tables (of 8 keys here) without making
    them forget the name whose budget is used up."""
    accounts: Accounts = app.state.accounts
    accounts.throttle = throttle = Throttle(clock=clock, size=8, name_burst=6)
    for n in range(30):
        asyncio.run(accounts.register(f"Junk{n}", PASSWORD))
    asyncio.run(accounts.register("Ann", PASSWORD))
    with TestClient(app) as client:
        guesser = browser(client, "10.2.0.1")
        for _ in range(5):
            refused(login(guesser, "Ann", "wrong password"), 401, "wrong_password")
        refused(login(guesser, "Ann", "wrong password"), 429, "throttled")
        # Names nobody has, from 200 addresses: counted per address only.
        for n in range(200):
            refused(login(browser(client, f"10.3.0.{n}"), f"Nobody{n}", "wrong password"), 401,
                    "wrong_password")
        assert len(throttle.names) == 1 and len(throttle.pairs) == 1
        assert len(throttle.addresses) == 8  # full: 200 addresses went through it
        # Existing names, each failed once from an address of its own: the tables overflow.
        for n in range(30):
            refused(login(browser(client, f"10.4.0.{n}"), f"Junk{n}", "wrong password"), 401,
                    "wrong_password")
        assert len(throttle.names) == len(throttle.pairs) == 8
        # Ann's budgets are as they were: none from 10.2.0.1, one guess for the name.
        refused(login(guesser, "Ann", "wrong password"), 429, "throttled")
        refused(login(browser(client, "10.2.0.2"), "Ann", "wrong password"), 401, "wrong_password")
        refused(login(browser(client, "10.2.0.3"), "Ann", "wrong password"), 429, "throttled")


def test_registrations_are_limited_per_address(client: TestClient, clock: ManualTime) -> None:
    for n in range(10):
        assert register(client, f"Player{n}").status_code == 201
    answer = register(client, "Player10")
    refused(answer, 429, "throttled")
    assert answer.headers["Retry-After"] == "60"
    clock.t += 60
    assert register(client, "Player10").status_code == 201


def test_refused_names_cost_no_registration(client: TestClient) -> None:
    for _ in range(30):
        refused(register(client, "x"), 422, "name_length")
    assert register(client, "Ann").status_code == 201


# CSRF and Origin ---------------------------------------------------------------------

def test_a_cookie_authenticated_change_needs_the_csrf_token(client: TestClient) -> None:
    csrf = register(client, "Ann").json()["csrf"]
    body = {"old": PASSWORD, "new": "a new password"}
    for headers in ({}, {CSRF_HEADER: ""}, {CSRF_HEADER: "wrong"}, {CSRF_HEADER: csrf + "x"},
                    {CSRF_HEADER: csrf.upper()}):
        reason = refused(client.post("/api/account/password", json=body, headers=headers), 403, "bad_csrf")
        assert "X-CSRF-Token" in reason
        refused(client.post("/api/account/logout", headers=headers), 403, "bad_csrf")
    assert me(client)["name"] == "Ann"  # still logged in
    assert client.post("/api/account/password", json=body, headers={CSRF_HEADER: csrf}).status_code == 200
    assert client.post("/api/account/logout", headers={CSRF_HEADER: me(client)["csrf"]}).status_code == 200


def test_the_csrf_token_of_another_session_is_refused(client: TestClient) -> None:
    register(client, "Ann")
    other = fresh(client)
    register(other, "Bob")
    refused(client.post("/api/account/logout", headers={CSRF_HEADER: me(other)["csrf"]}), 403, "bad_csrf")


def test_login_and_register_from_another_site_are_refused(client: TestClient) -> None:
    for origin in ("https://evil.example", "http://testserver.evil.example", "null", "http://testserver:81"):
        reason = refused(register(client, "Ann", Origin=origin), 403, "bad_origin")
        assert "another site" in reason
        refused(login(client, "Ann", Origin=origin), 403, "bad_origin")
    assert me(client) == {"name": None}
    assert register(client, "Ann", Origin="http://testserver").status_code == 201
    assert login(fresh(client), "Ann", Origin="http://TestServer").status_code == 200


# Passwords changed, sessions ended -------------------------------------------------------

def test_a_new_password_ends_every_other_session(client: TestClient) -> None:
    register(client, "Ann")
    phone = fresh(client)
    login(phone, "Ann")
    assert me(phone)["name"] == "Ann"
    old_cookie = client.cookies[SESSION_COOKIE]
    answer = client.post("/api/account/password", json={"old": PASSWORD, "new": "a new password"},
                         headers={CSRF_HEADER: me(client)["csrf"]})
    assert answer.status_code == 200, answer.text
    assert answer.json()["name"] == "Ann"
    assert me(phone) == {"name": None}
    assert me(client)["name"] == "Ann"  # with a new session
    assert client.cookies[SESSION_COOKIE] != old_cookie
    refused(login(fresh(client), "Ann", PASSWORD), 401, "wrong_password")
    assert login(fresh(client), "Ann", "a new password").status_code == 200


def test_a_password_change_needs_the_old_password_and_a_good_new_one(client: TestClient) -> None:
    csrf = register(client, "Ann").json()["csrf"]
    change = lambda old, new: client.post(  # noqa: E731
        "/api/account/password", json={"old": old, "new": new}, headers={CSRF_HEADER: csrf})
    refused(change("not my password", "a new password"), 401, "wrong_password")
    refused(change(PASSWORD, "short"), 422, "password_length")
    refused(change(PASSWORD, "12345678"), 422, "common_password")
    assert me(client)["name"] == "Ann"
    refused(fresh(client).post("/api/account/password", json={"old": PASSWORD, "new": "a new password"}),
            401, "not_logged_in")


# Cookies and what answers hold ---------------------------------------------------------

def test_the_session_cookie_is_http_only_and_same_site_lax(client: TestClient) -> None:
    answer = register(client, "Ann")
    cookie = SimpleCookie()
    for header in answer.headers.get_list("set-cookie"):
        cookie.load(header)
    morsel = cookie[SESSION_COOKIE]
    assert morsel["httponly"] is True
    assert morsel["samesite"].lower() == "lax"
    assert morsel["path"] == "/"
    assert int(morsel["max-age"]) == 30 * 24 * 3600
    assert not morsel["secure"]  # plain http here
    assert answer.headers["cache-control"] == "no-store"
    # The device cookie: only for the account routes, for a year, never for scripts.
    device = cookie[DEVICE_COOKIE]
    assert device["httponly"] is True and device["samesite"].lower() == "lax"
    assert device["path"] == "/api/account" and int(device["max-age"]) == 365 * 24 * 3600


def test_the_cookie_is_secure_over_https(app: Any) -> None:
    with TestClient(app, base_url="https://testserver") as secure:
        header = register(secure, "Ann").headers["set-cookie"]
    assert "secure" in header.lower().split("; ")


def test_no_answer_holds_a_hash_a_token_or_a_password(client: TestClient) -> None:
    answers = [register(client, "Ann"), me(client), login(fresh(client), "Ann"),
               login(fresh(client), "Ann", "wrong password"), register(fresh(client), "Ann")]
    token = client.cookies[SESSION_COOKIE]
    stored = accounts_of(client).password_hash("Ann")
    assert stored is not None
    for answer in answers:
        text = answer if isinstance(answer, dict) else answer.json()
        flat = json.dumps(text)
        for secret in (PASSWORD, stored, stored.rsplit("$", 1)[1], token, "argon2"):
            assert secret not in flat, (secret, flat)
    # Nor does the lobby, nor a game.
    assert "Ann" not in client.get("/api/games").text


# The dependency later routes use ---------------------------------------------------------

def test_current_user_and_acting_user_for_later_routes(app: Any) -> None:
    @app.get("/test/whoami")
    async def whoami(user: CurrentUser) -> dict[str, Any]:
        return {"user": None if user is None else [user.id, user.name]}

    @app.post("/test/act")
    async def act(user: ActingUser) -> dict[str, Any]:
        return {"user": None if user is None else user.name}

    with TestClient(app) as client:
        assert client.get("/test/whoami").json() == {"user": None}
        assert client.post("/test/act").json() == {"user": None}  # a guest needs no token
        csrf = register(client, "Ann").json()["csrf"]
        user = client.get("/test/whoami").json()["user"]
        assert user[1] == "Ann" and isinstance(user[0], int)
        refused(client.post("/test/act"), 403, "bad_csrf")
        assert client.post("/test/act", headers={CSRF_HEADER: csrf}).json() == {"user": "Ann"}


# Recovery codes (issue 36, item 9) ---------------------------------------------------------

def issue(database_url: str, name: str, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    """The code ``sixtysix accounts reset NAME`` prints, as the operator reads it."""
    status = cli.main(["accounts", "reset", name, "--database-url", database_url, *extra])
    out = capsys.readouterr().out
    assert status == 0, out
    found = re.search(r"Recovery code for (\S+): ([A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4})\n", out)
    assert found is not None, out
    return found.group(2)


def reset(client: TestClient, name: str, code: str, new: str = "a new password") -> Any:
    return post(client, "/api/account/reset", {"name": name, "code": code, "new": new}, {})


def test_a_recovery_code_sets_a_new_password_once(client: TestClient, database_url: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    register(client, "Ann")
    code = issue(database_url, "ANN", capsys)
    phone = fresh(client)
    refused(reset(phone, "Ann", "AAAA-BBBB-CCCC"), 401, "bad_code")
    refused(reset(phone, "Ann", code, "12345678"), 422, "common_password")  # the code is not used up
    answer = reset(phone, "ann", code.lower().replace("-", " "))  # as typed: any case, spaces for dashes
    assert answer.status_code == 200 and answer.json()["name"] == "Ann", answer.text
    assert me(phone)["name"] == "Ann"
    assert me(client) == {"name": None}  # every other session ended
    refused(reset(fresh(client), "Ann", code, "another new one"), 401, "bad_code")  # used up
    refused(login(fresh(client), "Ann", PASSWORD), 401, "wrong_password")
    assert login(fresh(client), "Ann", "a new password").status_code == 200


def test_a_recovery_code_expires_and_a_new_one_replaces_it(app: Any, database_url: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    with TestClient(app) as client:
        register(client, "Ann")
        register(fresh(client), "Bob")
        accounts = accounts_of(client)
        first = issue(database_url, "Ann", capsys)
        second = issue(database_url, "Ann", capsys)
        refused(reset(fresh(client), "Ann", first), 401, "bad_code")
        refused(reset(fresh(client), "Bob", second), 401, "bad_code")  # Ann's, not Bob's
        issued = accounts.issue_reset("Ann", 3600)
        later = issued.expires + datetime.timedelta(seconds=1)
        accounts.now = lambda: later
        refused(reset(fresh(client), "Ann", issued.code), 401, "bad_code")
        assert login(fresh(client), "Ann").status_code == 200


def test_recovery_codes_are_throttled_as_logins(client: TestClient, clock: ManualTime) -> None:
    register(client, "Ann")
    answers = [reset(fresh(client), "Ann", f"AAAA-BBBB-{n:04d}").status_code for n in range(6)]
    assert answers == [401] * 5 + [429]


def test_the_reset_command_names_an_unknown_account_in_one_line(database_url: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    create_app(Settings(database_url=database_url))
    assert cli.main(["accounts", "reset", "Nobody", "--database-url", database_url]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no account is called 'Nobody'" in err
    assert cli.main(["accounts", "reset", "Nobody", "--database-url", database_url, "--hours", "0"]) == 2
    assert "--hours" in capsys.readouterr().err


# Deleting an account (issue 36, item 9) -------------------------------------------------------

def test_deleting_an_account_keeps_its_games_anonymised(database_url: str) -> None:
    """A rated match between Ann and Bob is played out through the WebSocket; Ann deletes
    her account: the game and its record stay, her seat shows no name of hers and no
    account, her ratings leave the leaderboard, Bob's history keeps the match."""
    app = create_app(Settings(database_url=database_url, message_rate=1e6, message_burst=1e6))
    app.state.accounts.hasher = CHEAP
    with TestClient(app) as ann:
        csrf = register(ann, "Ann").json()["csrf"]
        bob = fresh(ann)
        bob_csrf = register(bob, "Bob").json()["csrf"]
        game = ann.post("/api/games", json={"kind": "person", "rules": "classic,target=3", "rated": True},
                        headers={CSRF_HEADER: csrf}).json()
        game_id = game["id"]
        joined = bob.post(f"/api/games/{game_id}/join", json={}, headers={CSRF_HEADER: bob_csrf}).json()
        farewell = post(ann, "/api/account/delete", {"password": PASSWORD}, {CSRF_HEADER: csrf})
        refused(farewell, 409, "live_games")
        with ExitStack() as stack:
            players = [stack.enter_context(contextmanager(connect)(ann, game_id, game["token"], 0)),
                       stack.enter_context(contextmanager(connect)(bob, game_id, joined["token"], 1))]
            play_out(players, random.Random(7))
        assert "Ann" in [p["name"] for p in ann.get("/api/leaderboard").json()["players"]]
        refused(post(ann, "/api/account/delete", {"password": "not my password"}, {CSRF_HEADER: csrf}),
                401, "wrong_password")
        refused(post(ann, "/api/account/delete", {"password": PASSWORD}, {}), 403, "bad_csrf")
        answer = post(ann, "/api/account/delete", {"password": PASSWORD}, {CSRF_HEADER: csrf})
        assert answer.status_code == 200 and answer.json() == {"name": None}, answer.text
        assert me(ann) == {"name": None}
        refused(login(fresh(ann), "Ann"), 401, "wrong_password")
        assert ann.get("/api/players/Ann").status_code == 404
        info = ann.get(f"/api/games/{game_id}").json()
        assert info["players"] == [DELETED_NAME, "Bob"] and info["accounts"] == [False, True]
        record = ann.get(f"/api/games/{game_id}/record")
        assert record.status_code == 200 and "Ann" not in record.text and DELETED_NAME in record.text
        assert "Ann" not in json.dumps(ann.get("/api/leaderboard").json())
        bobs = ann.get("/api/players/Bob").json()
        assert [h["game"] for h in bobs["history"]] == [game_id]
        assert bobs["history"][0]["opponent"] == DELETED_NAME
        assert [g["id"] for g in bobs["games"]] == [game_id]
        # The name is free again, and its new owner has none of the old games.
        assert register(fresh(ann), "Ann").status_code == 201
        assert ann.get("/api/players/Ann").json()["games"] == []


def test_deleting_needs_a_login(client: TestClient) -> None:
    refused(post(client, "/api/account/delete", {"password": PASSWORD}, {}), 401, "not_logged_in")


def play_out(players: list[Client], rng: random.Random) -> None:
    """Seeded random legal actions (the server's own list) until the match is over."""
    for _ in range(5000):
        for player in players:
            player.sync()
        state = players[0].state
        assert state is not None
        if state["game"]["status"] != "playing":
            return
        movers = [player for player in players if player.my_turn]
        if movers:
            movers[0].act_random(rng)
    raise AssertionError("the match did not end")
