"""A seat belongs to the account (issue 36, item 1), in Chromium: a player who opens his
game on a phone sits in his own seat there, in step with the desktop, and plays the
rated match to its end on the phone once the desktop is closed, without losing it for
leaving. In English and in German (the assertions read the page's data, not its words).

The server runs with a short grace period (``--grace``): a seat taken for away would
lose the match within seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import test_web_community
import test_web_e2e
from server_support import Server
from test_web_community import PASSWORD, invite, step
from test_web_e2e import NO_PAUSE, result_shown

#: The same Chromium as the other browser tests.
browser = test_web_e2e.browser

GRACE = 3
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("seats")
    s = Server(f"sqlite:///{folder / 'games.db'}", folder / "server.log", "--grace", str(GRACE))
    yield s
    s.kill()


def device(browser: Any, server: Server, lang: str, viewport: dict[str, int]) -> Any:
    """A page in a browser context of its own (its own cookies and storage), in ``lang``."""
    context = browser.new_context(viewport=viewport, locale=lang)
    context.add_init_script(NO_PAUSE)
    page = context.new_page()
    page.goto(server.base + "/")
    return page


def sign(page: Any, name: str, *, new: bool) -> None:
    """Register ``name`` (``new``) or log in to it from the lobby's dialog."""
    page.click("#show-register" if new else "#show-login")
    page.fill("#account-name-input", name)
    page.fill("#account-password", PASSWORD)
    page.click("#account-submit")
    page.wait_for_selector("#account-user", state="visible")


def hand_of(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all("#my-hand [data-card]", test_web_e2e.CARDS_OF))


def play_to_the_end(server: Server, game_id: str, pages: list[Any]) -> None:
    """Both take turns until the server says the match is over (in any language)."""
    for _ in range(600):
        if server.get(f"/api/games/{game_id}")["status"] != "playing":
            return
        for page in pages:
            if result_shown(page):
                page.click("#result-close")  # a hand's result: play on
        step(server, game_id, pages)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("lang", ["en-GB", "de-DE"])
def test_a_rated_match_moves_from_the_desktop_to_the_phone_and_is_played_to_its_end(
        browser: Any, server: Server, lang: str) -> None:
    anna_name, bob_name = f"Seat_A_{lang[:2]}", f"Seat_B_{lang[:2]}"
    desktop = device(browser, server, lang, DESKTOP)
    sign(desktop, anna_name, new=True)
    link = invite(desktop, target=1, rated=True)
    game_id = link.rsplit("/", 1)[1]
    # The phone, logged in to the same account, opens the link while the game waits: it
    # is Anna's own game there too (no "take the seat" offered, the link to share shown).
    phone = device(browser, server, lang, PHONE)
    sign(phone, anna_name, new=False)
    phone.goto(link)
    phone.wait_for_selector("#share-link", state="visible")
    assert phone.locator("#join").is_hidden()
    bob = device(browser, server, lang, DESKTOP)
    sign(bob, bob_name, new=True)
    test_web_community.accept(bob, link)
    for page in (desktop, phone):
        page.wait_for_function("() => (document.body.dataset.position || '').endsWith(':playing')")
        page.wait_for_function("() => document.querySelectorAll('#my-hand [data-card]').length > 0")
    assert hand_of(phone) == hand_of(desktop) != []
    # One turn from the desktop: the phone shows the same position.
    step(server, game_id, [desktop, bob])
    step(server, game_id, [desktop, bob])
    info = server.get(f"/api/games/{game_id}")
    held = f"{info['hand_number']}:{info['actions']}:{info['status']}"
    phone.wait_for_function("p => document.body.dataset.position === p", arg=held)
    assert hand_of(phone) == hand_of(desktop)
    # Anna closes the desktop and plays on on the phone, past the grace period.
    desktop.context.close()
    play_to_the_end(server, game_id, [phone, bob])
    ended = server.get(f"/api/games/{game_id}")
    assert ended["status"] == "finished" and ended["ended"] is None  # by the rules, not by leaving
    assert ended["players"] == [anna_name, bob_name] and max(ended["score"]) >= 1
    phone.context.close()
    bob.context.close()


def guests(browser: Any, server: Server, lang: str) -> tuple[Any, Any, str]:
    """Two guests at an unrated game between people (to one game point); the link."""
    ann, bob = device(browser, server, lang, DESKTOP), device(browser, server, lang, PHONE)
    link = invite(ann, target=1)
    test_web_community.accept(bob, link)
    for page in (ann, bob):
        page.wait_for_function("() => (document.body.dataset.position || '').endsWith(':playing')")
    return ann, bob, link


@pytest.mark.parametrize("lang", ["en-GB", "de-DE"])
def test_calling_off_and_taking_back_are_offers_the_other_answers(browser: Any, server: Server,
                                                                   lang: str) -> None:
    """Issue 36, item 2: the other player is asked, and may say no."""
    ann, bob, link = guests(browser, server, lang)
    game_id = link.rsplit("/", 1)[1]
    # A takeback: the player who acted asks, the other accepts, the card is back.
    mover = ann if test_web_community.my_turn(ann) else bob
    other = bob if mover is ann else ann
    before = hand_of(mover)
    step(server, game_id, [ann, bob])
    mover.wait_for_selector("#take-back")
    mover.click("#take-back")
    other.wait_for_selector("#offer #accept-offer")
    mover.wait_for_selector("#offer #withdraw-offer")  # and is told that the other is asked
    other.click("#accept-offer")
    for page in (ann, bob):
        page.wait_for_function("() => document.body.dataset.position === '1:0:playing'")
    assert hand_of(mover) == before
    # Calling off: Bob declines, Ann is told; asked again, Bob accepts.
    ann.click("#abort")
    ann.click("#confirm-yes")
    bob.wait_for_selector("#offer #decline-offer")
    assert bob.locator("#offer").inner_text().strip() != ""
    bob.click("#decline-offer")
    ann.wait_for_selector("#toast:not([hidden])")
    ann.wait_for_selector("#offer", state="hidden")
    assert server.get(f"/api/games/{game_id}")["status"] == "playing"
    ann.click("#abort")
    ann.click("#confirm-yes")
    bob.click("#offer #accept-offer")
    for page in (ann, bob):
        page.wait_for_function("() => document.body.dataset.position.endsWith(':aborted')")
    for page in (ann, bob):
        page.context.close()


@pytest.mark.parametrize("lang", ["en-GB", "de-DE"])
def test_a_rematch_starts_only_when_the_other_player_accepts(browser: Any, server: Server, lang: str) -> None:
    ann, bob, link = guests(browser, server, lang)
    game_id = link.rsplit("/", 1)[1]
    play_to_the_end(server, game_id, [ann, bob])
    for page in (ann, bob):
        page.wait_for_selector("#rematch")
    ann.click("#rematch")
    ann.wait_for_selector("#rematch:disabled")  # offered: waiting for Bob
    bob.wait_for_selector("#offer #accept-offer")
    assert bob.locator("#rematch").inner_text() != ann.locator("#rematch").inner_text()
    assert server.get(f"/api/games/{game_id}")["rematch"] is None  # nothing made yet
    bob.click("#rematch")  # the result panel's button accepts
    for page in (ann, bob):
        page.wait_for_url(lambda url: url != link and "/game/" in url)
    assert ann.url == bob.url
    for page in (ann, bob):
        page.context.close()
