"""Accounts, offline pages, the beginner's settings and "You", in Chromium, in English and
German (issue 36, items 9, 10 and 12, and the web settings).

- Each broken rule of a name or password is worded on its own, from the catalog.
- The account's page changes the password and deletes the account (its games stay).
- A recovery code printed by ``sixtysix accounts reset NAME`` sets a new password once.
- Offline, every page (lobby, game, /learn, /tournaments, a player's page) is the real
  page with a banner saying that the server cannot be reached; it tries again, and
  when the network is back the page fills in.
- Drawing needs no click (on by default); memory mode hides the card points; automatic
  66 makes the next game against the computer with the rules option ``auto_declare``.
- A result's words and table say "You" of the reader, never the name the server gave him.

The words a page should show come from the catalogs through Python's gettext (the
terminal game's way of reading them), not from the page's own code. Every wait is for
something the page shows, never a sleep.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import test_web_e2e
from server_support import Server
from sixtysix import Hand, i18n
from sixtysix.game.record import loads
from sixtysix.rules import Rules
from test_web_e2e import result_shown

#: The same Chromium as the other browser tests.
browser = test_web_e2e.browser

PASSWORD = "correct horse battery"
LANGS = ["en-GB", "de-DE"]


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("accounts") / "games.db"


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{database}", database.parent / "server.log")
    yield s
    s.kill()


def words(lang: str, text: str, **values: Any) -> str:
    """``text`` as the catalog of ``lang`` has it, its placeholders filled in."""
    return i18n.translation(lang[:2]).gettext(text).format(**values)


def plural(lang: str, one: str, many: str, n: int, **values: Any) -> str:
    return i18n.translation(lang[:2]).ngettext(one, many, n).format(n=n, **values)


def person(browser: Any, server: Server, lang: str, script: str = "") -> Any:
    """A page of a browser context of its own (cookies, storage, service worker), in the
    lobby, its language loaded; finished tricks are not kept on the table."""
    context = browser.new_context(locale=lang, viewport={"width": 1280, "height": 800})
    context.add_init_script("localStorage.setItem('sixtysix-trick-pause', '0');" + script)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang[:2])
    return page


def register(page: Any, name: str, password: str = PASSWORD) -> str:
    """Register from the lobby's dialog; what the dialog says (empty when it worked)."""
    page.click("#show-register")
    page.fill("#account-name-input", name)
    page.fill("#account-password", password)
    page.click("#account-submit")
    page.wait_for_function("() => document.getElementById('account-error').textContent !== '' || "
                           "!document.getElementById('account-user').hidden")
    said = str(page.locator("#account-error").inner_text())
    if said:
        page.click("#account-cancel")
    return said


def refusals(lang: str) -> list[tuple[str, str, str]]:
    """Names and passwords that break one rule each, and what the page should say."""
    sentence = {
        "length": "A name has {min} to {max} characters; this one has {length}.",
        "characters": "A name has only letters, digits, _ and -: {char} is none of them.",
        "weak": "This password is too easy to guess: use a few words that do not belong together.",
        "start": "A name starts with a letter, not with {char}.",
        "reserved": "Names starting with {start} are kept for the server: choose another.",
    }
    return [
        ("Al", PASSWORD, words(lang, sentence["length"], min=3, max=20, length=2)),
        ("1ann", PASSWORD, words(lang, sentence["start"], char="\u201c1\u201d")),
        ("ann.smith", PASSWORD, words(lang, sentence["characters"], char="\u201c.\u201d")),
        ("Ann Smith", PASSWORD, words(lang, sentence["characters"], char=words(lang, "a space"))),
        ("Admin_7", PASSWORD, words(lang, sentence["reserved"], start="Admin")),
        ("Ann", "short", words(lang, "A password has {min} to {max} characters; this one has {length}.",
                               min=8, max=128, length=5)),
        ("Ann", "12345678", words(lang, "This password is one of the most common ones: choose another.")),
        ("Ann", "Passwort1", words(lang, sentence["weak"])),
        ("Annabella", "ANNABELLA", words(lang, "The password must not be the name.")),
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_each_broken_name_or_password_rule_is_worded_on_its_own(browser: Any, server: Server,
                                                                 lang: str) -> None:
    """Issue 36, item 9: every bad name got the same long message, and "12345678" was a
    password."""
    page = person(browser, server, lang)
    cases = refusals(lang)
    said = [register(page, name, password) for name, password, _ in cases]
    assert said == [expected for _, _, expected in cases]
    assert len(set(said)) == len(said)
    if lang.startswith("de"):  # the catalog's German, not the English
        assert all(mine != english for mine, (_, _, english) in zip(said, refusals("en"), strict=True))
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_account_page_changes_the_password_and_deletes_the_account(browser: Any, server: Server,
                                                                        lang: str) -> None:
    name = f"Settings_{lang[:2]}"
    page = person(browser, server, lang)
    assert register(page, name) == ""
    page.click("#account-settings")
    page.wait_for_url(re.compile(r"/account$"))
    page.wait_for_selector("#password-panel:not([hidden])")
    assert page.locator("#account-heading").inner_text() == words(lang, "Your account: {name}", name=name)
    # A wrong current password, then a common new one, then a good change.
    for old, new, answer in (("not my password", "a new password", words(lang, "Wrong name or password.")),
                             (PASSWORD, "password1", words(lang, "This password is one of the most common "
                                                                 "ones: choose another."))):
        page.fill("#old-password", old)
        page.fill("#new-password", new)
        page.click("#password-submit")
        page.wait_for_function("t => document.getElementById('password-error').textContent === t", arg=answer)
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "a new password")
    page.click("#password-submit")
    done = words(lang, "The password is changed. Your other devices are logged out.")
    page.wait_for_function("t => document.getElementById('password-done').textContent === t", arg=done)
    assert server.post("/api/account/login", {"name": name, "password": "a new password"})["name"] == name
    # Deleting asks for the box to be ticked and the password.
    page.fill("#delete-password", "a new password")
    page.click("#delete-submit")
    tick = words(lang, "Tick the box to say that you want to delete the account.")
    page.wait_for_function("t => document.getElementById('delete-error').textContent === t", arg=tick)
    page.check("#delete-sure")
    page.click("#delete-submit")
    page.wait_for_selector("#account-deleted:not([hidden])")
    assert page.locator("#password-panel").is_hidden()
    assert page.request.get(server.base + "/api/account").json() == {"name": None}
    assert page.request.get(server.base + f"/api/players/{name}").status == 404
    page.goto(server.base + "/account")
    page.wait_for_selector("#account-guest-note:not([hidden])")
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_recovery_code_from_the_command_line_sets_a_new_password(browser: Any, server: Server,
                                                                   database: Path, lang: str) -> None:
    name = f"Forgetful_{lang[:2]}"
    page = person(browser, server, lang)
    assert register(page, name) == ""
    page.click("#logout")
    page.wait_for_selector("#account-guest", state="visible")
    out = subprocess.run([sys.executable, "-m", "sixtysix", "accounts", "reset", name.lower(),
                          "--database-url", f"sqlite:///{database}"], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    found = re.search(r"Recovery code for (\S+): (\S+)", out)
    assert found is not None and found.group(1) == name, out
    code = found.group(2)
    page.click("#show-login")
    page.click("#account-forgot")
    assert page.locator("#account-title").inner_text() == words(lang, "Set a new password")
    page.fill("#account-name-input", name)
    page.fill("#account-code", "WRONG-CODE-0000")
    page.fill("#account-password", "the stock is closed")
    page.click("#account-submit")
    wrong = words(lang, "Wrong name or recovery code, or the code has expired.")
    page.wait_for_function("t => document.getElementById('account-error').textContent === t", arg=wrong)
    page.fill("#account-code", code.lower())
    page.click("#account-submit")
    page.wait_for_selector("#account-user", state="visible")
    assert page.locator("#account-name").inner_text() == words(lang, "Signed in as {name}", name=name)
    login = server.post("/api/account/login", {"name": name, "password": "the stock is closed"})
    assert login["name"] == name
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_says_when_it_cannot_reach_the_server_and_tries_again(browser: Any, server: Server,
                                                                         lang: str) -> None:
    """Issue 36, item 10: offline, the lobby opened with empty lists and no word, a game's
    page said "Failed to fetch" once, /learn and /tournaments were the browser's error
    page. Now each is the real page with a banner, and fills in when the server answers."""
    name = f"Offline_{lang[:2]}"
    server.post("/api/account/register", {"name": name, "password": PASSWORD})
    game = server.post("/api/games", {"kind": "computer", "level": "random", "name": "Anna"})["id"]
    page = person(browser, server, lang)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    banner = {words(lang, "The server cannot be reached: trying again…")} | {
        plural(lang, "The server cannot be reached: trying again in {n} second…",
               "The server cannot be reached: trying again in {n} seconds…", n) for n in range(1, 31)}
    pages = {"/": "#open-games li", f"/game/{game}": "#table:not([hidden])", "/learn": "#my-hand [data-card]",
             "/tournaments": "#upcoming li", f"/player/{name}": "#player-name:not(:empty)"}
    for path, filled in pages.items():
        page.context.set_offline(True)
        page.goto(server.base + path)
        page.wait_for_selector("#offline-banner:not([hidden])")
        said = page.locator("#offline-text").inner_text()
        assert said in banner, (path, said)
        assert page.locator(filled).count() == 0, path
        assert "Failed to fetch" not in page.locator("body").inner_text()
        assert page.evaluate("document.documentElement.lang") == lang[:2]
        # Back online: the browser says so and the page tries at once (else at its next try).
        page.context.set_offline(False)
        page.wait_for_selector("#offline-banner", state="hidden")
        page.wait_for_selector(filled)
    assert errors == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_drawing_needs_no_click_and_memory_mode_hides_the_points(browser: Any, server: Server,
                                                                   lang: str) -> None:
    """Automatic drawing is on by default: the player is never asked to draw, he only
    plays cards, and the record shows the draws after the tricks he won. Memory mode (the
    terminal game's setting) hides both players' card points."""
    page = person(browser, server, lang)
    hidden = {plural(lang, "{n} trick (points hidden)", "{n} tricks (points hidden)", n) for n in range(13)}
    drawn = 0
    for match in range(5):  # until the player has won a trick before the stock ran out
        page.goto(server.base + "/")
        page.fill("input[name=target]", "1")
        page.select_option("select[name=level]", "random")
        page.click("#play-computer")
        page.wait_for_url(re.compile(r"/game/"))
        page.wait_for_function("() => document.body.dataset.position !== undefined")
        game_id = page.url.rsplit("/", 1)[1]
        if match == 0:
            page.click("#settings-button")
            assert page.locator("#setting-auto-draw").is_checked()  # on by default, as card apps have it
            page.check("#setting-memory")
            page.click("#settings-close")
        play_cards_only(page, hidden)
        record = loads(page.request.get(f"{server.base}/api/games/{game_id}/record").text())
        drawn += sum(1 for entry in record.hands for seat, action in seats_and_actions(entry, record.rules)
                     if seat == 0 and action == "D")
        if drawn:
            break
    assert drawn  # the page drew for the player, who never clicked a draw
    page.context.close()


def play_cards_only(page: Any, hidden: set[str]) -> None:
    """Play the match to its end by clicking cards only (a marriage said yes to): at every
    turn of the player there is a card to play, and the points are hidden."""
    for _ in range(300):
        page.wait_for_function(test_web_e2e.YOUR_TURN_OR_RESULT + " || document.body.dataset.held === 'end'")
        if page.locator("#rematch").is_visible():
            return
        if result_shown(page):
            page.click("#result-close")
            continue
        if page.evaluate("document.body.dataset.held") == "end":
            continue
        for points in ("#my-points", "#opponent-points"):
            shown = page.locator(points).inner_text()
            assert shown in hidden, shown
        assert page.locator("#choices button[data-action='D']").count() == 0
        legal = page.locator("#my-hand button.card.legal")
        assert legal.count() > 0, page.locator("#status").inner_text()
        before = page.evaluate("document.body.dataset.position")
        legal.first.click()
        choice = page.locator("#choices button.primary[data-action$='+']")
        if choice.count():
            choice.first.click()
        page.wait_for_function("b => document.body.dataset.position !== b || "
                               "!document.getElementById('result').hidden", arg=before)
    raise AssertionError("the match did not end")


def seats_and_actions(entry: Any, rules: Any) -> Iterator[tuple[int, str]]:
    """Who took each action of a recorded hand: replayed with the kernel (the oracle)."""
    hand = Hand.deal(entry.deck, entry.dealer, rules)
    for action in entry.actions:
        seat = hand.to_act
        assert seat is not None
        yield seat, str(action)
        hand.push(action)


@pytest.mark.parametrize("lang", LANGS)
def test_automatic_66_makes_the_next_game_against_the_computer_with_auto_declare(browser: Any, server: Server,
                                                                                  lang: str) -> None:
    page = person(browser, server, lang)
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    first = page.url.rsplit("/", 1)[1]
    page.click("#settings-button")
    assert not page.locator("#setting-auto-declare").is_checked()
    page.check("#setting-auto-declare")
    page.click("#settings-close")
    page.goto(server.base + "/")
    page.click("#play-computer")
    page.wait_for_url(lambda url: "/game/" in url and first not in url)
    second = page.url.rsplit("/", 1)[1]
    rules = [Rules.from_json(page.request.get(f"{server.base}/api/games/{g}").json()["rules"])
             for g in (first, second)]
    assert [r.auto_declare for r in rules] == [False, True]
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_result_says_you_never_the_name_the_server_gave_the_reader(browser: Any, server: Server,
                                                                      lang: str) -> None:
    """Issue 36, item 12: "Player 1" (the name of a player who gave none) appeared in the
    results where the page means the reader."""
    page = person(browser, server, lang)
    page.fill("input[name=target]", "1")
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    assert page.locator("#my-name").inner_text().startswith("Player 1")  # the server's name for him
    for _ in range(200):
        page.wait_for_function(test_web_e2e.YOUR_TURN_OR_RESULT)
        if result_shown(page):
            break
        test_web_e2e.take_turn(page)
    else:
        raise AssertionError("the hand did not end")
    page.wait_for_selector("#result-text:not(:empty)")
    text = page.locator("#result-text").inner_text()
    headers = page.locator("#result-table th").all_inner_texts()
    assert "Player 1" not in text and "Player 1" not in headers, (text, headers)
    you = words(lang, "You")
    assert headers[1] == you and headers[2] != you
    game = page.request.get(page.url.replace("/game/", "/api/games/")).json()
    if game["winner"] == 0:
        assert page.locator("#result-title").inner_text() == words(lang, "You win the match")
    page.context.close()
