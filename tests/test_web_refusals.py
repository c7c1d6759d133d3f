"""Online play in the player's language (issue 36, items 3 to 6), in Chromium, in English
and in German: the server's refusals shown from the catalog with their links, never
"Failed to fetch"; the rules, rated or not and the clock wherever a game is offered; a
guest offered a rated seat led to logging in; quick pairing saying whom it looks for and
when the computer comes; challenge games in the lobby and games against the computer
on the player's page.

Every sentence expected is read from the message catalog (the oracle the page must
follow), filled as the page is told to fill it; every wait is for something the page
shows, never a sleep."""

from __future__ import annotations

import os
import re
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

import test_web_e2e
from server_support import Server
from sixtysix import i18n
from sixtysix.game.refusal import NOT_HELD
from test_web_e2e import NO_PAUSE

#: The same Chromium as the other browser tests.
browser = test_web_e2e.browser

LANGS = ["en-GB", "de-DE"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PASSWORD = "a long enough password"
#: The computer levels as the page names them (common.js, levelName).
LEVEL_WORDS = {"random": "random", "easy": "easy", "medium": "medium", "net": "learned", "hard": "hard",
               "expert": "expert"}
SUIT_SIGNS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("refusals")
    s = Server(f"sqlite:///{folder / 'games.db'}", folder / "server.log")
    yield s
    s.kill()


def said(lang: str, text: str, context: str | None = None, **values: Any) -> str:
    """``text`` as the catalog of ``lang`` says it, its blanks filled."""
    messages = i18n.catalog(lang.split("-")[0])["messages"]
    assert isinstance(messages, dict)
    found = messages.get(f"{context}\x04{text}" if context else text)
    return (found if isinstance(found, str) and found else text).format(**values)


def card_as_written(lang: str, card: str) -> str:
    """A card as it looks on the card in ``lang`` (a German queen is a D)."""
    rank = {"9": "9", "T": "10"}.get(card[0]) or said(lang, card[0], "card rank")
    return rank + SUIT_SIGNS[card[1]]


def device(browser: Any, server: Server, lang: str, viewport: dict[str, int] = DESKTOP) -> Any:
    """A page in a browser context of its own (its own cookies and storage), in ``lang``."""
    context = browser.new_context(viewport=viewport, locale=lang)
    context.add_init_script(NO_PAUSE)
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang.split("-")[0])
    return page


def register(page: Any, name: str) -> None:
    page.click("#show-register")
    page.fill("#account-name-input", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-user", state="visible")


def invite(page: Any, *, rated: bool = False, clock: str = "") -> str:
    """From the lobby: a game against a friend (to one game point); the link."""
    page.fill("input[name=target]", "1")
    if rated:
        page.check("#rated")
    page.select_option("select[name=clock]", clock)
    page.click("#play-person")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_selector("#share-link")
    return str(page.url)


def terms(lang: str, rated: bool, clock: str | None) -> str:
    return f"{said(lang, 'rated' if rated else 'unrated')} \u00b7 {clock or said(lang, 'no clock')}"


@pytest.mark.parametrize("lang", LANGS)
def test_a_guest_offered_a_rated_seat_sees_the_terms_and_logs_in_to_take_it(browser: Any, server: Server,
                                                                            lang: str) -> None:
    """Items 3 and 4: the lobby row, the join panel and the table say "rated · 5+3"; a
    guest gets a "Log in" link, not a seat the server refuses; logged in, he is not
    asked for a name and sits down."""
    tag = lang[:2]
    host = f"Host_{tag}"
    ann = device(browser, server, lang)
    register(ann, host)
    link = invite(ann, rated=True, clock="5+3")
    game_id = link.rsplit("/", 1)[1]
    # An account for the guest to log in to, made elsewhere.
    elsewhere = device(browser, server, lang)
    register(elsewhere, f"Visitor_{tag}")
    elsewhere.context.close()

    guest = device(browser, server, lang, PHONE)
    row = guest.locator(f"#open-games li:has(a[href='/game/{game_id}'])")
    row.wait_for()
    assert row.locator(".terms").inner_text().strip() == terms(lang, True, "5+3")
    guest.goto(link)
    guest.wait_for_selector("#join:not([hidden])")
    assert guest.locator("#join-terms").inner_text() == terms(lang, True, "5+3")
    assert not guest.locator("#join-button").is_visible()
    login = guest.locator("#join-login a.login-link")
    assert login.inner_text() == said(lang, "Log in")
    assert guest.locator("#join-login").inner_text().startswith(
        said(lang, "A rated game needs an account: log in to take the seat."))
    shoot(guest, f"web-rated-seat-{tag}")
    login.click()
    guest.wait_for_selector("#account-dialog[open]")  # the lobby's login, opened for him
    guest.fill("#account-name-input", f"Visitor_{tag}")
    guest.fill("#account-password", PASSWORD)
    guest.click("#account-submit")
    guest.wait_for_url(link)  # back at the game
    guest.wait_for_selector("#join:not([hidden])")
    assert not guest.locator("#join-name").is_visible()  # his account's name: nothing to ask
    guest.click("#join-button")
    for page in (ann, guest):
        page.wait_for_function("() => (document.body.dataset.position || '').endsWith(':playing')")
        assert page.locator("#match-terms").inner_text().endswith(terms(lang, True, "5+3"))
    assert server.get(f"/api/games/{game_id}")["players"] == [host, f"Visitor_{tag}"]
    for page in (ann, guest):
        page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_are_shown_in_the_pages_language_with_their_links(browser: Any, server: Server,
                                                                  lang: str) -> None:
    """Item 3: an unreachable server, a rule's refusal naming a card, and a tournament's
    "finish your match first" linking the match; the standings name the computer and
    head the points column in the page's language."""
    page = device(browser, server, lang)
    # The server out of reach: the page's words, not the browser's ("Failed to fetch").
    page.route("**/api/games",
               lambda route: route.abort() if route.request.method == "POST" else route.continue_())
    page.click("#play-computer")
    error = page.locator("#new-game-error")
    error.wait_for()
    page.wait_for_function("() => document.getElementById('new-game-error').textContent !== ''")
    unreachable = said(lang, "The server cannot be reached: check the connection and try again.")
    assert error.inner_text() == unreachable
    page.unroute("**/api/games")

    # A rule's refusal over the WebSocket: the kernel's reason, its card as on the card.
    page.fill("input[name=target]", "1")
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_selector("#status.your-turn")
    hand = page.eval_on_selector_all("#my-hand [data-card]", test_web_e2e.CARDS_OF)
    absent = next(f"{r}{s}" for s in "CDHS" for r in "9TJQKA" if f"{r}{s}" not in hand)
    page.evaluate("card => socket.send(JSON.stringify({ type: 'act', action: card }))", absent)
    toast = page.locator("#toast")
    expected = said(lang, NOT_HELD, seat=0, card=card_as_written(lang, absent))
    page.wait_for_function("text => document.getElementById('toast').textContent === text", arg=expected)
    assert toast.is_visible()

    # A tournament: its next match refused while one is being played, linked.
    page.goto(server.base + "/")
    register(page, f"Entrant_{lang[:2]}")
    page.goto(server.base + "/tournaments")
    page.wait_for_selector("#tournament-form:not([hidden])")
    page.fill("input[name=name]", f"Arena {lang}")
    page.fill("input[name=starts_in]", "0")
    page.check("input[name=computers][value=easy]")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url(re.compile(r"/tournament/"))
    tournament = page.url
    page.click("#join-tournament")
    page.click("#next-match")
    page.wait_for_url(re.compile(r"/game/"))
    match = urllib.parse.urlparse(page.url).path
    page.goto(tournament)
    page.click("#next-match")
    link = page.locator("#tournament-error a")
    link.wait_for()
    assert link.inner_text() == said(lang, "Finish your match first.")
    assert link.get_attribute("href") == match
    computer = said(lang, "Computer ({level})", level=said(lang, "easy"))
    assert page.locator("#standings td", has_text=computer).count() == 1
    assert page.locator("#standings th").nth(2).inner_text() == said(lang, "Score", "tournament standings")
    page.context.close()


def shoot(page: Any, name: str) -> None:
    """A picture of the page for the docs, when $SIXTYSIX_SCREENSHOTS names a folder."""
    shots = os.environ.get("SIXTYSIX_SCREENSHOTS")
    if shots:
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)


@pytest.mark.parametrize("lang", LANGS)
def test_quick_pairing_says_whom_it_looks_for_and_announces_the_computer(browser: Any, server: Server,
                                                                          lang: str) -> None:
    """Item 5: while a guest waits, the page shows the ratings he is paired across,
    widening as he waits, and the computer to come; when it comes, the game says so."""
    page = device(browser, server, lang)
    outlook = server.get("/api/pairing/outlook?rules=classic&target=1")
    level = said(lang, LEVEL_WORDS[outlook["computer"]])
    # A short wait, so that the computer comes within the test (the page's own choices are longer).
    page.evaluate("() => { const o = document.querySelector('#pairing-wait option'); "
                  "o.value = '6'; o.selected = true; }")
    page.fill("input[name=target]", "1")
    page.click("#quick-pairing")
    status = page.locator("#pairing-outlook")
    first = said(lang, "Players rated {low}\u2013{high}, more the longer you wait.", low=1200, high=1800)
    page.wait_for_function("text => document.getElementById('pairing-outlook').textContent.startsWith(text)",
                           arg=first)
    announced = status.inner_text()
    assert level in announced and f"({level})" in announced
    # The range widens while he waits.
    page.wait_for_function("() => { const m = /(\\d+)\u2013(\\d+)/.exec("
                           "document.getElementById('pairing-outlook').textContent); "
                           "return m !== null && Number(m[1]) < 1200 && Number(m[2]) > 1800; }")
    shoot(page, f"web-pairing-{lang[:2]}")
    page.wait_for_url(re.compile(r"/game/"), timeout=30_000)
    expected = said(lang, "Nobody came in time: you play the computer ({level}).", level=level)
    page.wait_for_function("text => document.getElementById('toast').textContent === text", arg=expected)
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_challenge_games_are_listed_and_a_players_page_lists_his_games_against_the_computer(
        browser: Any, server: Server, lang: str) -> None:
    """Item 6 (and the challenge's terms, item 4)."""
    tag = lang[:2]
    anna, bob = device(browser, server, lang), device(browser, server, lang)
    register(anna, f"Asker_{tag}")
    register(bob, f"Asked_{tag}")
    anna.fill("#challenge-name", f"Asked_{tag}")
    anna.select_option("select[name=clock]", "5+3")
    anna.click("#challenge")
    anna.wait_for_url(re.compile(r"/game/"))
    game_id = anna.url.rsplit("/", 1)[1]
    bob.reload()
    incoming = bob.locator("#challenges-incoming li")
    incoming.wait_for()
    assert incoming.inner_text().find(terms(lang, False, "5+3")) > 0
    bob.click("#challenges-incoming a")
    bob.wait_for_selector("#join:not([hidden])")
    assert not bob.locator("#join-name").is_visible()
    bob.click("#join-button")
    bob.wait_for_function("() => (document.body.dataset.position || '').endsWith(':playing')")
    # A spectator finds it in the lobby.
    spectator = device(browser, server, lang)
    spectator.locator(f"#playing-games a[href='/game/{game_id}']").wait_for()
    # A game against the computer, on Anna's page, with the computer named in her language.
    anna.goto(server.base + "/")
    anna.fill("input[name=target]", "1")
    anna.select_option("select[name=level]", "random")
    anna.click("#play-computer")
    anna.wait_for_url(re.compile(r"/game/"))
    computer_game = anna.url.rsplit("/", 1)[1]
    anna.wait_for_function("() => document.body.dataset.position !== undefined")
    anna.evaluate("() => socket.send(JSON.stringify({ type: 'resign' }))")
    anna.wait_for_function("() => !document.body.dataset.position.endsWith(':playing')")
    spectator.goto(f"{server.base}/player/Asker_{tag}")
    listed = spectator.locator(f"#player-games li:has(a[href='/replay/{computer_game}'])")
    listed.wait_for()
    computer = said(lang, "Computer ({level})", level=said(lang, "random"))
    assert computer in listed.inner_text()
    for page in (anna, bob, spectator):
        page.context.close()
