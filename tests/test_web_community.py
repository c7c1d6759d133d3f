"""Online play as a community, in Chromium (issue 21): two registered players play a
rated match from the lobby to its end and see their ratings change, on the game page,
the leaderboard and their player pages; a clock runs out; a player who leaves loses
after the grace period.

The server runs with a short grace period (``--grace``), so that leaving is tested in
seconds; every wait is for something the page shows, never a sleep."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import test_web_e2e
from server_support import Server
from test_web_e2e import NO_PAUSE, accessibility_problems, result_shown, take_turn

#: The same Chromium as the other browser tests.
browser = test_web_e2e.browser

GRACE = 3
PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("community")
    s = Server(f"sqlite:///{folder / 'games.db'}", folder / "server.log", "--grace", str(GRACE))
    yield s
    s.kill()


def person(browser: Any, server: Server, name: str | None) -> Any:
    """A page in a browser context of its own (its own cookies), registered as ``name``."""
    context = browser.new_context(viewport={"width": 1200, "height": 850})
    context.add_init_script(NO_PAUSE)
    page = context.new_page()
    page.goto(server.base + "/")
    if name is not None:
        page.click("#show-register")
        page.fill("#account-name-input", name)
        page.fill("#account-password", PASSWORD)
        page.click("#account-submit")
        page.wait_for_selector("#account-user", state="visible")
    return page


def invite(page: Any, *, target: int | None = None, rated: bool = False, clock: str = "") -> str:
    """From the lobby: a game against a friend; returns the link to send."""
    if target is not None:
        page.fill("input[name=target]", str(target))
    if rated:
        page.check("#rated")
    if clock:
        page.select_option("select[name=clock]", clock)
    page.click("#play-person")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_selector("#share-link")
    return str(page.url)


def accept(page: Any, link: str) -> None:
    page.goto(link)
    page.click("#join-button")
    page.wait_for_function("() => document.body.dataset.position !== undefined")


def my_turn(page: Any) -> bool:
    return bool(page.evaluate("document.getElementById('status').classList.contains('your-turn')"))


def play_to_the_end(server: Server, link: str, pages: list[Any]) -> None:
    """Both players take turns (as a person clicks) until the match is over. Whenever
    neither page shows its turn, both are waited for until they show the position the
    server holds (nobody else moves in a game between two people without a clock)."""
    game_id = link.rsplit("/", 1)[1]
    for _ in range(600):
        for page in pages:
            if result_shown(page):
                if "match" in page.locator("#result-title").inner_text():
                    return
                page.click("#result-close")  # a hand's result: play on
        step(server, game_id, pages)
    raise AssertionError("the match did not end")


def step(server: Server, game_id: str, pages: list[Any]) -> None:
    """The player whose turn a page shows acts; if none does, both pages are waited for
    until they show the position the server holds."""
    mover = next((p for p in pages if my_turn(p)), None)
    if mover is not None:
        take_turn(mover)
        return
    info = server.get(f"/api/games/{game_id}")
    held = f"{info['hand_number']}:{info['actions']}:{info['status']}"
    for page in pages:
        page.wait_for_function("p => document.body.dataset.position === p", arg=held)


def test_a_rated_match_from_the_lobby_moves_both_ratings(browser: Any, server: Server) -> None:
    anna, bob = person(browser, server, "Anna"), person(browser, server, "Bob")
    # Anna posts a seek (an open rated game); Bob accepts it from the lobby's list.
    link = invite(anna, target=1, rated=True)
    game_id = link.rsplit("/", 1)[1]
    bob.reload()
    bob.click(f"#open-games a[href='/game/{game_id}']")
    bob.click("#join-button")
    bob.wait_for_function("() => document.body.dataset.position !== undefined")
    for page in (anna, bob):  # the ratings as the match starts, beside the names
        page.wait_for_function("() => document.getElementById('my-name').textContent.includes('(1500)')")
    play_to_the_end(server, link, [anna, bob])
    texts = []
    for page in (anna, bob):
        page.wait_for_function(
            "() => /rating: 1500 \u2192 \\d+/.test(document.getElementById('result-text').textContent)")
        texts.append(page.locator("#result-text").inner_text())
    up = [int(m) for m in re.findall(r"rating: 1500 \u2192 (\d+)", texts[0])]
    assert len(up) == 2 and sorted(up)[0] < 1500 < sorted(up)[1]
    # The leaderboard lists both, the winner first; each player page shows the rating.
    anna.goto(server.base + "/")
    anna.wait_for_function("() => document.querySelectorAll('#leaderboard-players a').length === 2")
    board = anna.locator("#leaderboard-players").inner_text()
    assert re.search(r"(Anna|Bob) \d+\?", board)
    anna.click("#leaderboard-players a >> nth=0")
    anna.wait_for_selector("#player-ratings td")
    assert re.search(r"\d+\?", anna.locator("#player-ratings").inner_text())
    assert re.search(r"[01] / 1 \((0|100)%\)", anna.locator("#player-statistics").inner_text())
    assert not accessibility_problems(anna)


def test_a_clock_that_runs_out_before_the_first_trick_calls_the_match_off(browser: Any,
                                                                          server: Server) -> None:
    anna, bob = person(browser, server, None), person(browser, server, None)
    link = invite(anna, clock="20/move")
    accept(bob, link)
    for page in (anna, bob):
        page.wait_for_selector("#my-clock:not([hidden])")
        assert re.fullmatch(r"\d+(\.\d)?|0:\d\d", page.locator("#my-clock").inner_text())
    # Nobody moves: 5 seconds of break, then 20 of the first player's clock.
    anna.wait_for_selector("#result-title:has-text('called off')", timeout=40000)
    assert "before its first trick" in anna.locator("#result-text").inner_text()


def test_a_player_who_leaves_loses_after_the_grace_period(browser: Any, server: Server) -> None:
    anna, bob = person(browser, server, None), person(browser, server, None)
    link = invite(anna)
    accept(bob, link)
    # One trick, so that leaving loses the match rather than calling it off.
    game_id = link.rsplit("/", 1)[1]
    for _ in range(20):
        if anna.locator("#resign").count():
            break
        step(server, game_id, [anna, bob])
    anna.wait_for_selector("#resign")
    bob.context.close()
    anna.wait_for_function("() => /left the table/.test(document.getElementById('status').textContent)")
    # The one who stayed reads "You win the match" (issue 36, item 12).
    anna.wait_for_selector("#result-title:text-matches('^You win the match$')", timeout=GRACE * 1000 + 15000)
    assert "did not come back in time" in anna.locator("#result-text").inner_text()


def test_players_and_a_spectator_chat_each_in_their_own_room(browser: Any, server: Server) -> None:
    anna, bob = person(browser, server, None), person(browser, server, None)
    link = invite(anna)
    accept(bob, link)
    watcher = person(browser, server, None)
    watcher.goto(link)  # both seats are taken: the page watches
    watcher.wait_for_selector("#chat:not([hidden])")
    assert watcher.locator("#chat-title").inner_text() == "Spectators' chat"
    watcher.fill("#chat-input", "<img src=x onerror=alert(1)> nice lead")
    watcher.press("#chat-input", "Enter")
    watcher.wait_for_selector("#chat-lines li:has-text('nice lead')")
    # Shown as text, not markup; the players do not see the spectators' chat.
    assert watcher.locator("#chat-lines img").count() == 0
    assert "<img src=x onerror=alert(1)> nice lead" in watcher.locator("#chat-lines").inner_text()
    anna.fill("#chat-input", "good luck")
    anna.click("#chat-form button")
    bob.wait_for_selector("#chat-lines li:has-text('good luck')")
    assert "nice lead" not in bob.locator("#chat-lines").inner_text()
    assert "good luck" not in watcher.locator("#chat-lines").inner_text()
    # Muting hides the other side's lines.
    bob.check("#chat-mute")
    assert not bob.locator("#chat-lines li:has-text('good luck')").is_visible()


def test_two_players_pressing_quick_pairing_meet_at_one_table(browser: Any, server: Server) -> None:
    anna, bob = person(browser, server, "Pairer_A"), person(browser, server, "Pairer_B")
    for page in (anna, bob):
        page.select_option("select[name=rules]", "santase")
        page.select_option("select[name=clock]", "10+5")
    anna.click("#quick-pairing")
    anna.wait_for_selector("#pairing-status:not([hidden])")
    bob.click("#quick-pairing")
    for page in (anna, bob):
        page.wait_for_url(re.compile(r"/game/"))
    assert anna.url == bob.url
    for page in (anna, bob):
        page.wait_for_function("() => document.body.dataset.position !== undefined")
        page.wait_for_selector("#opponent-clock:not([hidden])")
    assert "Pairer_B" in anna.locator("#opponent-name").inner_text()
    assert "Pairer_A" in bob.locator("#opponent-name").inner_text()


def test_a_player_challenges_another_by_name_who_accepts_from_the_lobby(browser: Any, server: Server) -> None:
    anna, bob = person(browser, server, "Challenger"), person(browser, server, "Challenged")
    anna.fill("#challenge-name", "challenged")
    anna.click("#challenge")
    anna.wait_for_url(re.compile(r"/game/"))
    bob.reload()
    bob.wait_for_selector("#challenges-incoming li:has-text('Challenger challenges you')")
    bob.click("#challenges-incoming a:has-text('Accept')")
    bob.click("#join-button")
    for page in (anna, bob):
        page.wait_for_function("() => document.body.dataset.position !== undefined && "
                               "document.body.dataset.position.endsWith(':playing')")
    assert "Challenged" in anna.locator("#opponent-name").inner_text()


def test_an_arena_with_a_computer_entrant_from_its_page(browser: Any, server: Server) -> None:
    anna = person(browser, server, "Arena_Anna")
    anna.goto(server.base + "/tournaments")
    anna.wait_for_selector("#tournament-form:not([hidden])")
    anna.fill("input[name=name]", "Evening arena")
    anna.fill("input[name=starts_in]", "0")
    anna.check("input[name=computers][value=easy]")
    anna.click("#tournament-form button[type=submit]")
    anna.wait_for_url(re.compile(r"/tournament/"))
    tournament = anna.url
    anna.click("#join-tournament")
    anna.wait_for_selector("#standings td:has-text('Arena_Anna')")
    anna.click("#next-match")
    anna.wait_for_url(re.compile(r"/game/"))
    anna.wait_for_function("() => document.body.dataset.position !== undefined")
    assert "Computer (easy)" in anna.locator("#opponent-name").inner_text()
    anna.click("#abort")  # before the first trick: called off, counts nothing
    anna.click("#confirm-yes")
    anna.wait_for_selector("#result-title:has-text('called off')")
    anna.click("#back-to-tournament")  # the game page offers the way back
    anna.wait_for_url(tournament)
    anna.wait_for_selector("#tournament-games li:has-text('called off')")
    rows = anna.locator("#standings").inner_text()
    assert re.search(r"Arena_Anna\s+0\s+0\s+0", rows)
    assert not accessibility_problems(anna)
