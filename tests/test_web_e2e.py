"""End to end in a real browser (issue 5): Playwright drives Debian's Chromium
against ``sixtysix serve`` running as a process. A person plays a whole hand
against the computer by clicking, and two browser contexts play each other
through a shared link while a third watches."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import need_module
from server_support import Server, need
from sixtysix import Hand
from sixtysix.present.explain import explain
from web_support import chromium

CARDS_OF = "nodes => nodes.map(n => n.dataset.card)"
#: Suit names as the page writes them: letter and sign.
SUITS = {"clubs": ("C", "♣"), "diamonds": ("D", "♦"), "hearts": ("H", "♥"), "spades": ("S", "♠")}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("e2e")
    s = Server(f"sqlite:///{folder / 'games.db'}", folder / "server.log")
    yield s
    s.kill()


@pytest.fixture(autouse=True)
def no_blocked_content(browser: Any) -> Iterator[None]:
    """After each test: no page logged a Content Security Policy violation (the server
    allows only its own scripts, styles and connections; docs/web.md)."""
    yield
    for context in browser.contexts:
        for page in context.pages:
            blocked = [m.text for m in page.console_messages() if "Content Security Policy" in m.text]
            assert not blocked, blocked


#: Run in every page before its own scripts: finished tricks are not kept on the table, so
#: that tests about other things play at full speed (the test of keeping them sets its own).
NO_PAUSE = "localStorage.setItem('sixtysix-trick-pause', '0')"


def new_page(browser: Any, **options: Any) -> Any:
    """A page in a context of its own, with :data:`NO_PAUSE`."""
    page = browser.new_page(**options)
    page.add_init_script(NO_PAUSE)
    return page


#: A page shows the player's turn or the match's result.
YOUR_TURN_OR_RESULT = ("() => document.getElementById('status').classList.contains('your-turn') || "
                       "!document.getElementById('result').hidden")


def position(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.position || ''"))


def wait_moved(page: Any, before: str) -> None:
    """Wait until the page shows a new position (the server answered)."""
    page.wait_for_function("before => (document.body.dataset.position || '') !== before", arg=before)


def take_turn(page: Any, drag: bool = False) -> None:
    """Click what a person would: a highlighted card (or drag it onto the table), or else
    the first button offered. The hand may end (the computer's last trick or its 66) while
    the player reaches for a card: the result then covers the table, the click cannot land,
    and the turn is over (a race the player loses too; once this test's flake)."""
    before = position(page)
    legal = page.locator("#my-hand button.card.legal")
    if legal.count():
        if drag:
            landed = _unless_result(page, lambda: legal.first.drag_to(page.locator("#trick"), timeout=15000))
        else:
            landed = _unless_result(page, lambda: legal.first.click(timeout=15000))
        if not landed:
            return
        choice = page.locator("#choices button.primary[data-action$='+']")
        # A king or queen that can be married: say yes.
        if choice.count() and not _unless_result(page, lambda: choice.first.click(timeout=15000)):
            return
    else:
        # The first choice that cannot lose the hand at once (no question asked), if any.
        safe = page.locator("#choices button[data-action]:not([data-action='C']):not(.risky)")
        button = safe.first if safe.count() else page.locator("#choices button[data-action]").first
        if not _unless_result(page, lambda: button.click(timeout=15000)):
            return
        if page.locator("#confirm").is_visible():
            page.click("#confirm-yes")
    wait_moved(page, before)


def _unless_result(page: Any, act: Any) -> bool:
    """Do ``act`` (a click); ``False`` if it could not land because the result of the
    hand was shown over the table meanwhile (any other failure is raised)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        act()
    except PlaywrightTimeout:
        if result_shown(page):
            return False
        raise
    return True


def wait_my_turn(page: Any) -> None:
    """Wait until the page says it is the player's turn: against the computer, the position
    then stays as it is until the player acts (the computer may still be moving before)."""
    page.wait_for_function("() => document.getElementById('status').classList.contains('your-turn')")


#: How long a wait for the other browser may take on a loaded machine (two cores shared
#: with other tests): its state comes over the server and is drawn in its own process.
LOADED = 120_000
RESULT_SHOWN = "() => !document.getElementById('result').hidden"
#: Where a page's game stands, from its last state: hand, actions and the seat to act.
STANDING = ("() => state && state.view ? "
            "[state.game.hand_number, state.game.actions, state.view.to_act] : null")


def to_move(seats: dict[int, Any]) -> Any | None:
    """The page of the player to act, ``None`` when the hand is over, as the page further
    on says it (the other may not have its last state yet): the test, not a page, decides
    whose page to wait on, so that it never waits on the player who is not to act (the
    flake under load: the winner of a trick draws by itself, his page not showing his turn
    for a moment, and the test waited on the other page for a turn that could not come)."""
    standings = [s for s in (page.evaluate(STANDING) for page in seats.values()) if s is not None]
    seat = max(standings, key=lambda s: (s[0], s[1]))[2]
    return None if seat is None else seats[seat]


def my_turn(page: Any) -> bool:
    return bool(page.evaluate("document.getElementById('status').classList.contains('your-turn')"))


def result_shown(page: Any) -> bool:
    return page.locator("#result").is_visible()


def test_a_person_plays_a_whole_hand_against_the_computer_by_clicking(browser: Any, server: Server) -> None:
    page = new_page(browser, viewport={"width": 390, "height": 844})  # a phone
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Tester")
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    # Counted at the player's first turn: the computer, if it leads, has led (and may have
    # closed) by then, and nothing moves while the cards are counted.
    wait_my_turn(page)
    assert page.locator("#my-name").inner_text().startswith("Tester")
    assert page.locator("#my-hand button.card").count() == 6
    # The hand in the order the terminal game shows it (issue 18, item 7): trumps first.
    from sixtysix.game.cards import Card, Suit
    from sixtysix.present.text.screen import sorted_cards

    trump_word = page.locator("#trump-label").inner_text().split()[-1]
    trump = Suit.parse(SUITS[trump_word][0])
    shown = page.locator("#my-hand button.card").evaluate_all(CARDS_OF)
    assert shown == [str(c) for c in sorted_cards([Card.parse(x) for x in shown], trump)]
    on_table = page.locator("#trick [data-card]").count()  # the computer may have led already
    assert page.locator("#opponent-hand img").count() + on_table == 6
    # The stock and the turned-up trump; only the stock if the computer, leading
    # first, closed at once (a random player may, R6.1: the trump is turned down).
    closed = page.locator("#stock-label").inner_text().startswith("Closed by")
    assert page.locator("#stock img").count() == (1 if closed else 2)
    clicks = 0
    while not result_shown(page):
        if my_turn(page):
            take_turn(page, drag=clicks % 2 == 0)  # every other card is dragged onto the table
            clicks += 1
        else:
            page.wait_for_function(YOUR_TURN_OR_RESULT)
        assert clicks < 60
    text = page.locator("#result-text").inner_text()
    assert re.search(r"\bwins?\b", text) or "Tied" in text
    game_id = page.url.rsplit("/", 1)[1]
    info = server.get(f"/api/games/{game_id}")
    # At least two of the player's cards: a hand can end after two tricks (40 + 21 < 66
    # after one, so not sooner).
    assert len(info["results"]) == 1 and clicks >= 2
    page.click("#result-close")
    assert not result_shown(page) and errors == []
    # A reload finds the game where it was (the seat's token is kept by the browser). The
    # next hand is dealt at once, and the computer may lead it: its card may arrive after
    # the result, so the position is read once it is the player's turn (it then stays).
    wait_my_turn(page)
    before = position(page)
    cards = page.locator("#my-hand button.card").evaluate_all(CARDS_OF)
    page.reload()
    page.wait_for_function("before => document.body.dataset.position === before", arg=before)
    assert page.locator("#my-hand button.card").evaluate_all(CARDS_OF) == cards
    assert not result_shown(page)  # an old result is not shown again
    page.close()


def test_a_finished_match_offers_its_record_a_replay_and_a_rematch(browser: Any, server: Server,
                                                                   tmp_path: Path) -> None:
    page = new_page(browser, viewport={"width": 1200, "height": 800})  # a desktop
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Finisher")
    page.fill("input[name=target]", "1")  # one game point ends the match
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    game_url = page.url
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    for _ in range(400):
        if page.locator("#rematch").is_visible():
            break
        if result_shown(page):
            # Read the result once it is shown (it may have arrived since the check
            # above): the end of the match, or a tied hand with no game point.
            if re.search(r"wins? the match", page.locator("#result-title").inner_text()):
                break
            page.click("#result-close")  # a tied hand: play on
        elif my_turn(page):
            take_turn(page)
        else:
            page.wait_for_function(YOUR_TURN_OR_RESULT)
    assert re.search(r"wins? the match", page.locator("#result-title").inner_text())  # "You win" (issue 36)
    # The record downloads, and it replays to the same score.
    with page.expect_download() as download:
        page.click("#result-buttons a:has-text('Download the record')")
    path = tmp_path / "game.json"
    download.value.save_as(path)
    from sixtysix.game.record import load, replay_json

    result = replay_json(load(path))
    assert max(result["score"]) >= 1 and result["winner"] is not None
    # The replay page shows every position with both hands face up.
    page.click("#result-buttons a:has-text('Replay')")
    page.wait_for_selector("#hand-0 .card")
    assert page.locator("#hand-0 .card").count() == 6 and page.locator("#hand-1 .card").count() == 6
    first = page.locator("#position").inner_text()
    page.click("#next")
    assert page.locator("#position").inner_text() != first
    # The analysis board (issue 18, item 3): each action gets a verdict once the hand is
    # analysed, and the hand's mistakes are listed, each a jump to its position.
    page.wait_for_function("() => /\\S/.test(document.getElementById('verdict').textContent) && "
                           "!document.getElementById('verdict').textContent.startsWith('Analysing')")
    verdict = page.locator("#verdict").inner_text()
    assert re.match(r"(The only legal action|A best action|As good as any|Mistake|Inaccuracy)",
                    verdict), verdict
    board = page.locator("#mistakes").inner_text()
    assert board.startswith(("Mistakes in this hand:", "No mistake in this hand."))
    jumps = page.locator("#mistakes button")
    if jumps.count():  # a random computer player makes some; its first one, shown
        jumps.first.click()
        assert re.match(r"(Mistake|Inaccuracy)", page.locator("#verdict").inner_text())
    # A rematch: a new game, the same seats.
    page.goto(game_url)
    page.wait_for_selector("#rematch")
    page.click("#rematch")
    page.wait_for_url(lambda url: url != game_url and "/game/" in url)
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    assert page.locator("#my-name").inner_text().startswith("Finisher")
    assert page.locator("#my-hand button.card").count() == 6
    page.close()


def test_two_browsers_play_through_a_shared_link_and_a_third_watches(browser: Any, server: Server) -> None:
    ann_ctx, bob_ctx, eve_ctx = (browser.new_context() for _ in range(3))
    for ctx in (ann_ctx, bob_ctx, eve_ctx):
        ctx.add_init_script(NO_PAUSE)
        ctx.set_default_timeout(LOADED)  # three browsers and a server on two loaded cores
    ann, bob, eve = ann_ctx.new_page(), bob_ctx.new_page(), eve_ctx.new_page()
    ann.goto(server.base + "/")
    ann.fill("input[name=name]", "Ann")
    ann.click("#play-person")
    ann.wait_for_url(re.compile(r"/game/"))
    link = ann.locator("#share-link")
    link.wait_for()
    shared = link.input_value()
    assert shared == ann.url
    assert "Waiting for the second player" in ann.locator("#status").inner_text()
    bob.goto(shared)
    bob.fill("#join-form input[name=name]", "Bob")
    bob.click("#join-button")
    bob.wait_for_function("() => document.body.dataset.position !== undefined")
    ann.wait_for_function("() => document.getElementById('share').hidden")
    eve.goto(shared)  # the seats are taken: she watches
    eve.wait_for_function("() => document.body.dataset.position !== undefined")
    assert "You are watching" in eve.locator("#status").inner_text()
    assert eve.locator("#my-hand button.card").count() == 0  # no card of either player shown
    hands: dict[Any, set[str]] = {ann: set(), bob: set()}
    seats = {ann.evaluate("state.you"): ann, bob.evaluate("state.you"): bob}
    assert sorted(seats) == [0, 1]
    while not (result_shown(ann) and result_shown(bob)):
        for page in (ann, bob):
            hands[page] |= set(page.locator("#my-hand button.card").evaluate_all(CARDS_OF))
        mover = to_move(seats)
        if mover is None:  # the hand is over: its result comes to both
            for page in (ann, bob):
                page.wait_for_function(RESULT_SHOWN, timeout=LOADED)
            continue
        # The player's own page says so once it has drawn for him (automatic drawing).
        mover.wait_for_function(YOUR_TURN_OR_RESULT, timeout=LOADED)
        if not result_shown(mover):
            take_turn(mover)
    assert len(hands[ann]) >= 6 and len(hands[bob]) >= 6
    eve.wait_for_function("!document.getElementById('result').hidden")
    # Each player reads "you" of himself (issue 36, item 12); the spectator reads names.
    texts = {page: page.locator("#result-text").inner_text() for page in (ann, bob, eve)}
    assert "Ann" not in texts[ann] and "Bob" not in texts[bob], texts
    assert "you" not in texts[eve].lower() and ("Ann" in texts[eve] or "Bob" in texts[eve]), texts
    numbers = re.findall(r"\d+", texts[eve])  # the same facts, with "you" for the reader's name
    assert re.findall(r"\d+", texts[ann]) == numbers == re.findall(r"\d+", texts[bob]), texts
    for ctx in (ann_ctx, bob_ctx, eve_ctx):
        ctx.close()


def test_a_schnapsen_game_from_the_lobby_deals_five_cards_and_exchanges_the_jack(browser: Any,
                                                                                   server: Server) -> None:
    """The 20-card preset in the browser: five cards a hand (S2.1), no nine anywhere (S1.1), a
    stock of ten, the trump jack offered for the exchange and turned up after it (S4.1), and
    hands played to a result that is never a tie (S6.3). Hands are played until the exchange
    has come up (deals are random: a few hands at most, as a rule)."""
    page = new_page(browser, viewport={"width": 1200, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Schnapser")
    page.select_option("select[name=rules]", "schnapsen")
    page.fill("input[name=target]", "100")  # the match outlasts the test
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    game_id = page.url.rsplit("/", 1)[1]
    assert server.get(f"/api/games/{game_id}")["rules"] == {"preset": "schnapsen", "target": 100}
    hands_started: set[str] = set()
    results = 0
    exchanged = False
    for _ in range(600):
        if exchanged and results >= 1:
            break
        if result_shown(page):
            assert re.search(r"\bwins?\b", page.locator("#result-text").inner_text())  # no ties (S6.3)
            results += 1
            page.click("#result-close")
            continue
        if not my_turn(page):
            page.wait_for_function(YOUR_TURN_OR_RESULT)
            continue
        # No nine is ever shown: not in my hand, on the table or face up (S1.1).
        shown = page.locator("img.card-img").evaluate_all("nodes => nodes.map(n => n.getAttribute('src'))")
        assert shown and not [src for src in shown if "/cards/9" in src], shown
        mine = page.locator("#my-hand button.card").count()
        assert 1 <= mine <= 5
        hand_number = position(page).split(":")[0]
        if hand_number not in hands_started:  # my first turn of a hand: five cards each
            hands_started.add(hand_number)
            assert mine == 5
            on_table = page.locator("#trick [data-card]").count()
            assert page.locator("#opponent-hand img").count() + on_table == 5
            label = page.locator("#stock-label").inner_text()
            assert label == "Stock: 10" or label.startswith("Closed by"), label
        exchange = page.locator("#choices button[data-action='X']")
        if exchange.count():
            suit = page.locator("#trump-label").inner_text().split()[-1]  # "Trump: ♦ diamonds"
            letter, sign = SUITS[suit]
            face_up = page.locator("#stock img.trump-card").get_attribute("src").rsplit("/", 1)[1][:2]
            assert exchange.inner_text().startswith(f"Exchange your J{sign} for the turned-up "), \
                exchange.inner_text()
            before = position(page)
            exchange.click()
            wait_moved(page, before)
            # The jack now lies face up under the stock and the card it replaced is mine (S4.1).
            assert page.locator("#stock img.trump-card").get_attribute("alt") == f"jack of {suit}"
            held = page.locator("#my-hand button.card").evaluate_all(CARDS_OF)
            assert face_up in held and f"J{letter}" not in held and len(held) == mine
            exchanged = True
            continue
        take_turn(page)
    assert exchanged and results >= 1, (exchanged, results, len(hands_started))
    info = server.get(f"/api/games/{game_id}")
    assert len(info["results"]) == results and info["status"] == "playing"
    assert errors == []
    page.close()


def test_closing_and_declaring_under_66_ask_first_unless_the_player_turned_that_off(
        browser: Any, server: Server) -> None:
    """Issue 18, item 2: the two actions that can lose a hand at once (R6.4, R8.3) ask for
    confirmation; going back sends nothing; confirming plays the action; the setting,
    kept by the browser, turns the question off."""
    page = new_page(browser, viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Careful")
    page.fill("input[name=target]", "100")  # the match outlasts the test
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    asked: set[str] = set()
    turned_off = False
    for _ in range(400):
        if asked >= {"C", "66"} and turned_off:
            break
        if result_shown(page):
            page.click("#result-close")
            continue
        if not my_turn(page):
            page.wait_for_function(YOUR_TURN_OR_RESULT)
            continue
        close = page.locator("#choices button[data-action='C']")
        risky = page.locator("#choices button.risky[data-action^='66']")
        target = close if close.count() and "C" not in asked else \
            risky if risky.count() and "66" not in asked else None
        if target is None and asked >= {"C", "66"} and (close.count() or risky.count()):
            # Both questions seen: turn them off, and the next risky click plays at once.
            page.click("#settings-button")
            page.uncheck("#setting-confirm")
            page.click("#settings-close")
            before = position(page)
            (close if close.count() else risky).first.click()
            assert not page.locator("#confirm").is_visible()
            wait_moved(page, before)
            turned_off = True
            continue
        if target is None:
            take_turn(page)
            continue
        action = "C" if target is close else "66"
        before = position(page)
        target.first.click()
        dialog = page.locator("#confirm")
        assert dialog.is_visible()
        title = page.locator("#confirm-title").inner_text()
        assert title == "Close the stock?" if action == "C" else re.fullmatch(r"Declare 66 with \d+\?", title)
        # The game points at stake are the server's (wire: failed_close_points,
        # false_declaration_points), shown as sent.
        clicked = str(target.first.get_attribute("data-action"))
        stake = page.evaluate("(a) => a === 'C' ? state.view.failed_close_points"
                              " : state.view.false_declaration_points[a]", clicked)
        text = page.locator("#confirm-text").inner_text()
        assert stake in (2, 3) and f"your opponent scores {stake} game points" in text
        page.click("#confirm-no")  # going back sends nothing
        assert not dialog.is_visible()
        assert position(page) == before and my_turn(page)
        if action == "C":  # confirmed, the stock is closed
            target.first.click()
            page.click("#confirm-yes")
            wait_moved(page, before)
            page.wait_for_function(
                "() => document.getElementById('stock-label').textContent.startsWith('Closed')")
        asked.add(action)
    assert asked == {"C", "66"} and turned_off
    # The setting is kept by the browser: off after a reload too.
    page.reload()
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    page.click("#settings-button")
    assert not page.locator("#setting-confirm").is_checked()
    page.click("#settings-close")
    assert errors == []
    page.close()


HELD_TABLE = """() => ({
  held: document.body.dataset.held,
  cards: [...document.querySelectorAll('#trick .played')].map(n => n.dataset.card),
  label: (document.querySelector('#trick .held-label') || {}).textContent || '',
  legal: document.querySelectorAll('#my-hand button.card.legal').length,
  choices: document.querySelectorAll('#choices button').length,
  turn: document.getElementById('status').classList.contains('your-turn'),
})"""


def test_a_finished_trick_stays_on_the_table_until_the_player_goes_on(browser: Any, server: Server) -> None:
    """Issue 18, item 1: with "until I go on", a trick that ends stays on the table with
    both cards, who won it and its points, and nothing can be played meanwhile; "Go on"
    (or a tap on the table) shows the table as it is now: after a trick the computer
    won, its next lead. The points are checked against the card values of RULES.md R1."""
    values = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.add_init_script("localStorage.setItem('sixtysix-trick-pause', 'tap')")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Watcher")
    page.fill("input[name=target]", "100")
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    held = {"computer": 0, "me": 0}
    ends = 0
    for _ in range(400):
        if held["computer"] >= 2 and held["me"] >= 1 and ends >= 1:
            break
        page.wait_for_function(YOUR_TURN_OR_RESULT + " || document.body.dataset.held !== 'no'")
        if page.evaluate("document.body.dataset.held") == "end":  # the hand is over (next test)
            ends += 1
            page.click("#go-on")
            page.wait_for_selector("#result", state="visible")
            page.click("#result-close")
            continue
        # Read at once (the page's scripts do not run meanwhile): a state may end the hand
        # and its kept trick at any moment.
        table = page.evaluate(HELD_TABLE)
        if table["held"] == "yes":
            cards, label = table["cards"], table["label"]
            assert len(cards) == 2, cards
            assert table["legal"] == 0 and table["choices"] == 0 and not table["turn"]  # nothing to play
            points = int(re.fullmatch(r".* the trick \(\+(\d+)\)", label).group(1))  # type: ignore[union-attr]
            assert points == sum(values[c[0]] for c in cards)
            mine = label.startswith("You win")
            held["me" if mine else "computer"] += 1
            # The computer may end the hand (declare) while the trick is shown: the result
            # then covers the table, and the new hand starts with nothing kept.
            spot = "#go-on" if held["me" if mine else "computer"] % 2 else "#trick"  # a tap goes on too
            if not _unless_result(page, lambda spot=spot: page.click(spot, timeout=15000)):
                continue
            page.wait_for_function("() => document.body.dataset.held === 'no'")
            if not mine and my_turn(page):
                # The computer won and led again: its lead is on the table now.
                assert page.locator("#trick .played").count() in (0, 1)
            continue
        if result_shown(page):
            page.click("#result-close")
            continue
        take_turn(page)
    assert held["computer"] >= 2 and held["me"] >= 1 and ends >= 1
    assert errors == []
    page.close()


def test_a_hand_ends_with_its_last_trick_and_both_hands_shown_before_the_result(
        browser: Any, server: Server) -> None:
    """Issue 18, item 1: when a hand is over, the table shows its last trick and the cards
    each player still held, face up, then the result; the next hand only after that.
    Checked against the game's record, replayed by the engine, once the match is over."""
    from sixtysix.game.record import loads

    page = browser.new_page(viewport={"width": 1200, "height": 800})
    page.add_init_script("localStorage.setItem('sixtysix-trick-pause', 'tap')")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Ender")
    page.fill("input[name=target]", "1")  # the first hand that is won ends the match
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    game_id = page.url.rsplit("/", 1)[1]
    shown: list[tuple[int, list[str], list[str], list[str]]] = []
    for _ in range(400):
        if page.locator("#rematch").is_visible():
            break
        page.wait_for_function(YOUR_TURN_OR_RESULT + " || document.body.dataset.held !== 'no'")
        held = page.evaluate("document.body.dataset.held")
        if held == "yes":
            page.click("#go-on")
            page.wait_for_function("() => document.body.dataset.held !== 'yes'")
        elif held == "end":
            table = page.evaluate("""() => ({
              number: Number(document.getElementById('status').textContent.match(/Hand (\\d+)/)[1]),
              mine: [...document.querySelectorAll('#my-hand .shown')].map(n => n.dataset.card),
              theirs: [...document.querySelectorAll('#opponent-hand .shown')].map(n => n.dataset.card),
              trick: [...document.querySelectorAll('#trick .played')].map(n => n.dataset.card),
              result: !document.getElementById('result').hidden })""")
            assert not table["result"]  # the result comes after
            shown.append((table["number"], table["mine"], table["theirs"], table["trick"]))
            page.click("#go-on")
            page.wait_for_selector("#result", state="visible")
            if not page.locator("#rematch").is_visible():
                page.click("#result-close")  # a tied hand: the match goes on
        elif result_shown(page):
            page.click("#result-close")
        else:
            take_turn(page)
    assert shown and errors == []
    from sixtysix.game.hand import Hand

    record = loads(json.dumps(server.get(f"/api/games/{game_id}/record")))
    for number, mine, theirs, trick in shown:
        entry = record.hands[number - 1]
        hand = Hand.deal(entry.deck, entry.dealer, record.rules)
        for action in entry.actions:
            hand.push(action)
        assert hand.is_over()
        assert sorted(mine) == sorted(str(c) for c in hand.cards(0))  # the creator sits in seat 0
        assert sorted(theirs) == sorted(str(c) for c in hand.cards(1))
        last = hand.view(0).tricks[-1]
        assert trick == [str(last.lead), str(last.follow)]
    page.close()


def test_the_game_installs_as_an_app_and_its_pages_open_offline(browser: Any, server: Server) -> None:
    """Issue 18, item 5: a web app manifest with icons, and a service worker that registers for
    the whole site and keeps the page's files: offline, the lobby and a game's page still open
    (the game itself then says it cannot connect)."""
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    registration = page.evaluate("""async () => {
      const r = await navigator.serviceWorker.ready;
      return { scope: r.scope, script: r.active.scriptURL };
    }""")
    assert registration == {"scope": server.base + "/", "script": server.base + "/sw.js"}
    manifest_url = page.evaluate("document.querySelector('link[rel=manifest]').href")
    manifest = page.evaluate("url => fetch(url).then(r => r.json())", manifest_url)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = set()
    for icon in manifest["icons"]:
        response = page.request.get(server.base + icon["src"])
        assert response.ok and response.headers["content-type"].startswith(icon["type"])
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes  # what browsers ask of an installable app
    # The worker controls the page once reloaded; then the network goes away.
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    page.reload()
    assert page.locator("h1").inner_text() == "Sixty-six"
    page.goto(server.base + "/game/some-game")
    page.wait_for_selector("#offline-banner:not([hidden])")  # and it tries again (test_web_offline)
    context.set_offline(False)
    assert errors == []
    context.close()


#: What the accessibility check asks: WCAG 2.0 and 2.1, levels A and AA (labels, roles,
#: names of controls, contrast...), by axe-core.
WCAG = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
        "resultTypes": ["violations"]}


def accessibility_problems(page: Any) -> list[str]:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        need(False, "axe-playwright-python is not installed")
    found = Axe().run(page, options=WCAG).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']]}" for v in found]


def test_every_screen_passes_an_automated_accessibility_check(browser: Any, server: Server) -> None:
    """Issue 18, item 5: the lobby, the table at the player's turn, a trick kept on the table,
    the end of a hand, its result, the settings, a question before closing, and the replay
    page, at desktop and phone size: no WCAG A/AA violation axe-core can find."""
    problems: dict[str, list[str]] = {}
    for width, height in ((1280, 800), (390, 844)):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.add_init_script("localStorage.setItem('sixtysix-trick-pause', 'tap')")

        def look(screen: str, page: Any = page, width: int = width) -> None:
            found = accessibility_problems(page)
            if found:
                problems[f"{screen} at {width} px"] = found

        page.goto(server.base + "/")
        look("lobby")
        page.fill("input[name=name]", "Reader")
        page.fill("input[name=target]", "1")
        page.select_option("select[name=level]", "random")
        page.click("#play-computer")
        page.wait_for_url(re.compile(r"/game/"))
        seen: set[str] = set()
        for _ in range(400):
            if page.locator("#rematch").is_visible():  # the match is over
                if "result" not in seen:
                    look("a result")
                    seen.add("result")
                break
            page.wait_for_function(YOUR_TURN_OR_RESULT + " || document.body.dataset.held !== 'no'")
            held = page.evaluate("document.body.dataset.held")
            if result_shown(page):  # over the hand's end, which stays under it
                if "result" not in seen:
                    look("a result")
                    seen.add("result")
                page.click("#result-close")
            elif held == "yes":
                if "yes" not in seen:
                    look("a kept trick")
                    seen.add("yes")
                page.click("#go-on")
                page.wait_for_function("() => document.body.dataset.held !== 'yes'")
            elif held == "end":
                if "end" not in seen:
                    look("the end of a hand")
                    seen.add("end")
                page.click("#go-on")
                page.wait_for_selector("#result", state="visible")
            else:
                if "turn" not in seen:
                    look("the table")
                    page.click("#settings-button")
                    look("the settings")
                    page.click("#settings-close")
                    page.click("#hint-button")
                    page.wait_for_selector("#hint .hint-advice")
                    look("a hint")
                    seen.add("turn")
                close = page.locator("#choices button[data-action='C']")
                if close.count() and "question" not in seen:
                    close.first.click()
                    look("a question")
                    page.click("#confirm-no")
                    seen.add("question")
                take_turn(page)
        page.click("#result-buttons a:has-text('Replay')")
        page.wait_for_selector("#hand-0 .card")
        page.click("#next")
        page.wait_for_selector("#mistakes span")  # the hand's analysis is shown
        look("the replay and its analysis")
        assert {"turn", "yes", "end", "result"} <= seen
        page.close()
    assert not problems, problems


def test_a_hand_played_with_the_keyboard_only(browser: Any, server: Server) -> None:
    """Issue 18, item 5: keys as in the terminal game: a number plays that card of the hand
    as shown, d draws, m takes the marriage; no click at all until the hand is over. (The
    page's automatic drawing is turned off: the player draws himself.)"""
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.add_init_script("localStorage.setItem('sixtysix-auto-draw', 'off')")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Keys")
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    pressed = 0
    for _ in range(100):
        page.wait_for_function(YOUR_TURN_OR_RESULT)
        if result_shown(page):
            break
        before = position(page)
        hand = page.locator("#my-hand button.card").evaluate_all(CARDS_OF)
        legal = page.locator("#my-hand button.card.legal").evaluate_all(CARDS_OF)
        if legal:
            page.keyboard.press(str(hand.index(legal[0]) + 1))
            if page.locator("#choices button[data-action$='+']").count():
                page.keyboard.press("m")  # a king or queen that can be married: yes
        elif page.locator("#choices button[data-action='D']").count():
            page.keyboard.press("d")
        else:  # nothing but closing or declaring: the player's to decide, with the mouse
            take_turn(page)
            continue
        pressed += 1
        if not result_shown(page):
            wait_moved(page, before)
    assert result_shown(page) and pressed >= 2 and errors == []
    page.close()


#: Every text a person can read on a page: what is shown, and the texts of pictures,
#: labels, tooltips and empty fields.
PAGE_TEXTS = """() => {
  const texts = [document.body.innerText, document.title];
  for (const node of document.querySelectorAll("[alt], [aria-label], [title], [placeholder]")) {
    for (const name of ["alt", "aria-label", "title", "placeholder"]) {
      if (node.getAttribute(name)) texts.push(node.getAttribute(name));
    }
  }
  return texts.join("\\n");
}"""


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{\w+\}", " ", text))}


def english_leftovers(text: str, lang: str) -> set[str]:
    """Words of ``text`` that only the English messages use: the words of every message
    in the template (sixtysix.pot) that no translation into ``lang`` uses too (names
    such as Pagat or Computer are the same in both, and are not counted)."""
    need_module("babel")
    from babel.messages.pofile import read_po

    from sixtysix.i18n import LOCALE_DIR

    with (LOCALE_DIR / "sixtysix.pot").open("rb") as handle:
        template = read_po(handle)
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "sixtysix.po").open("rb") as handle:
        catalog = read_po(handle)
    english: set[str] = set()
    for message in template:
        for original in message.id if isinstance(message.id, tuple) else (message.id,):
            english |= _words(original or "")
    local: set[str] = set()
    for message in catalog:
        for translated in message.string if isinstance(message.string, tuple) else (message.string,):
            local |= _words(translated or "")
    return _words(text) & (english - local)


def test_switching_to_german_changes_every_visible_string(browser: Any, server: Server) -> None:
    """Issue 18, item 4: the language switch turns the lobby and the table German: no
    word that only the English messages use is left on either, in the page's texts or
    its pictures' and buttons' labels; the cards show the German letters."""
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server.base + "/")
    page.wait_for_function("() => document.querySelectorAll('#language option').length > 1")
    names = page.locator("#language option").evaluate_all("nodes => nodes.map(n => n.textContent)")
    assert names == ["English", "Deutsch", "Български", "Magyar"]
    assert page.evaluate("document.documentElement.lang") == "en"
    english_lobby = page.evaluate(PAGE_TEXTS)
    assert english_leftovers(english_lobby, "de"), "the oracle finds the English words"
    page.select_option("#language", "de")  # the page reloads in German
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.wait_for_function("() => document.querySelector('#open-games li') !== null")
    assert english_leftovers(page.evaluate(PAGE_TEXTS), "de") == set()
    page.fill("input[name=name]", "Anna")
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    wait_my_turn(page)
    table = page.evaluate(PAGE_TEXTS)
    assert english_leftovers(table, "de") == set(), table
    assert "Trumpf" in table and "Talon" in table
    # The settings and a question before closing are German too.
    page.click("#settings-button")
    assert english_leftovers(page.evaluate(PAGE_TEXTS), "de") == set()
    page.click("#settings-close")
    # The cards' letters: a German queen is a D, a jack a B (and the picture's name says so).
    from sixtysix.i18n import card_name, use

    for code in page.locator("#my-hand button.card").evaluate_all(CARDS_OF):
        image = page.locator(f"#my-hand button.card[data-card='{code}'] img")
        with use("de"):
            assert image.get_attribute("alt") == card_name(code)
        svg = server.get_text(image.get_attribute("src"))
        letter = {"J": "B", "Q": "D", "K": "K", "A": "A", "T": "10", "9": "9"}[code[0]]
        assert f">{letter}</text>" in svg
    page.close()


def test_the_browser_language_is_used_and_unknown_ones_are_english(browser: Any, server: Server) -> None:
    """A browser set to Bulgarian opens the lobby in Bulgarian without a choice; one set to
    a language without a catalog (French) gets English."""
    for locale, lang, word in (("bg-BG", "bg", "Нова игра"), ("fr-FR", "en", "New game")):
        context = browser.new_context(locale=locale)
        page = context.new_page()
        page.goto(server.base + "/")
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        assert word in page.locator("#new-game h2").inner_text()
        context.close()


def test_a_takeback_against_the_computer_gives_the_card_back(browser: Any, server: Server) -> None:
    """Issue 18, item 2: a game made with takebacks allowed offers Take back once the
    player has acted in the hand; it gives back the position before his last card, and
    the page says the match is played with takebacks. (Drawing is left to the player: a
    takeback of a draw the page made by itself gives back the choice to draw or close.)"""
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.add_init_script("localStorage.setItem('sixtysix-auto-draw', 'off')")
    page.goto(server.base + "/")
    page.fill("input[name=name]", "Undoer")
    page.select_option("select[name=level]", "random")
    page.check("input[name=takeback]")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    wait_my_turn(page)
    assert page.locator("#take-back").count() == 0  # nothing of mine to take back yet
    assert "takebacks allowed, 0 taken" in page.locator("#hand-number").inner_text()
    for _ in range(30):
        hand_before = page.evaluate("document.body.dataset.position").split(":")[0]
        cards = sorted(page.locator("#my-hand button.card").evaluate_all(CARDS_OF))
        take_turn(page)
        page.wait_for_function(YOUR_TURN_OR_RESULT)
        if result_shown(page) or page.evaluate("document.body.dataset.position").split(":")[0] != hand_before:
            page.goto(page.url)  # a new hand: start over from its first turn
            wait_my_turn(page)
            continue
        if page.locator("#take-back").count():
            break
    before = position(page)
    page.click("#take-back")
    wait_moved(page, before)
    wait_my_turn(page)
    assert sorted(page.locator("#my-hand button.card").evaluate_all(CARDS_OF)) == cards
    assert "takebacks allowed, 1 taken" in page.locator("#hand-number").inner_text()
    page.close()


def test_sounds_are_off_until_the_player_turns_them_on(browser: Any, server: Server) -> None:
    """Issue 18, item 5: sound effects, off by default, one switch under Settings."""
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    page.goto(server.base + "/")
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    wait_my_turn(page)
    take_turn(page)
    wait_my_turn(page)
    assert page.evaluate("document.body.dataset.sound") is None  # nothing played
    page.click("#settings-button")
    assert not page.locator("#setting-sound").is_checked()
    page.check("#setting-sound")
    page.click("#settings-close")
    page.evaluate("delete document.body.dataset.sound")
    take_turn(page)
    page.wait_for_function("() => document.body.dataset.sound !== undefined")
    assert page.evaluate("localStorage.getItem('sixtysix-sound')") == "on"
    page.close()


def follow_the_lesson(page: Any, stop_at: int | None = None) -> int:
    """Play the guided game as a newcomer would: do what the prompt suggests (the card or
    button it highlights), press Go on under each finished trick, wait for the computer.
    Stops at the end panel (or when step ``stop_at`` is the learner's); returns the clicks."""
    clicks = 0
    for _ in range(200):
        if page.locator("#lesson-end").is_visible():
            return clicks
        page.wait_for_function(
            "() => document.body.dataset.held === 'yes' || !document.getElementById('lesson-end').hidden || "
            "document.querySelector('#my-hand button.suggested, #choices button.suggested') !== null")
        if page.locator("#lesson-end").is_visible():
            return clicks
        step = page.evaluate("document.body.dataset.step")
        if page.evaluate("document.body.dataset.held") == "yes":
            page.click("#go-on")
            page.wait_for_function("() => document.body.dataset.held !== 'yes'")
            continue
        if stop_at is not None and int(step) == stop_at:
            return clicks
        page.locator("#choices button.suggested, #my-hand button.suggested").first.click()
        clicks += 1
        # A king or queen that may go with a marriage asks which (at once, in the page): the
        # marriage is the suggestion.
        marriage = page.locator("#choices button.suggested[data-action$='+']")
        if marriage.count():
            marriage.click()
            clicks += 1
        page.wait_for_function("before => document.body.dataset.step !== before", arg=step)
    raise AssertionError("the lesson did not end")


def test_the_guided_first_game_runs_to_its_end_by_following_each_prompt(browser: Any, server: Server) -> None:
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.click("#learn")
    page.wait_for_url(re.compile(r"/learn$"))
    page.wait_for_selector("#my-hand button.card.suggested")
    assert page.locator("#lesson-prompt").inner_text().startswith("You lead the first trick")
    assert page.locator("#my-hand button.card.suggested").evaluate_all(CARDS_OF) == ["JC"]
    # Only what the rules allow is offered: the turned-up trump is not in the hand, and
    # every card of the hand may be led.
    assert page.locator("#my-hand button.card:disabled").count() == 0
    clicks = follow_the_lesson(page)
    from sixtysix.present.lessons import FIRST

    assert clicks == sum(1 for s in FIRST.steps if s.seat == FIRST.learner) + 1  # the marriage: two clicks
    assert page.locator("#lesson-end-title").inner_text() == "You won the hand!"
    assert page.locator("#lesson-learnt li").count() == len(FIRST.learnt)
    assert "2 game points" in page.locator("#lesson-end-text").inner_text()
    # Again: the same deal from the start.
    page.click("#lesson-again")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    assert page.locator("#lesson-end").is_hidden()
    assert page.locator("#my-hand button.card.suggested").evaluate_all(CARDS_OF) == ["JC"]
    assert errors == []
    page.close()


def test_a_wrong_card_in_the_guided_game_is_refused_with_a_reason(browser: Any, server: Server) -> None:
    page = new_page(browser, viewport={"width": 390, "height": 844})
    page.add_init_script("localStorage.setItem('sixtysix-lang', 'de')")
    page.goto(server.base + "/learn")
    page.wait_for_selector("#my-hand button.card.suggested")
    page.click("#my-hand button.card[data-card='AS']")
    page.wait_for_selector("#lesson-refusal:not([hidden])")
    refusal = page.locator("#lesson-refusal").inner_text()
    assert "B♣" in refusal and "A♠" in refusal  # why the jack is the better lead, in German
    assert page.evaluate("document.body.dataset.step") == "0"  # the lesson stays on its script
    # The suggestion is taken, and the refusal goes.
    page.click("#my-hand button.card.suggested")
    page.wait_for_function("() => document.body.dataset.step !== '0'")
    assert page.locator("#lesson-refusal").is_hidden()
    page.close()


def test_the_guided_game_passes_the_accessibility_check_and_fits_a_phone(browser: Any,
                                                                         server: Server) -> None:
    problems: dict[str, list[str]] = {}
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(browser, viewport={"width": width, "height": height})

        def look(screen: str, page: Any = page, width: int = width) -> None:
            found = accessibility_problems(page)
            if found:
                problems[f"{screen} at {width} px"] = found
            # Nothing wider than the screen: no sideways scrolling.
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (screen, width)

        page.goto(server.base + "/")
        look("the lobby with its link")
        page.goto(server.base + "/learn")
        page.wait_for_selector("#my-hand button.card.suggested")
        look("a prompt")
        page.click("#my-hand button.card[data-card='AS']")
        page.wait_for_selector("#lesson-refusal:not([hidden])")
        look("a refusal")
        page.click("#my-hand button.card.suggested")
        page.wait_for_selector("#go-on")
        look("a finished trick")
        follow_the_lesson(page, stop_at=9)  # the close: buttons, not cards
        look("a choice of buttons")
        follow_the_lesson(page)
        look("the end")
        page.close()
    assert not problems, problems


#: The rules page's sections, in the order a new player reads them.
RULES_SECTIONS = ("aim", "cards", "deal", "open", "strict", "marriages", "exchange", "closing", "declaring",
                  "scoring", "match", "variants")
#: Every picture on the page has arrived and is drawn (a broken one has no natural width).
PICTURES_SHOWN = "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)"
#: The page has written the sentences that name cards (no placeholder is left).
EXAMPLES_WRITTEN = ("() => [...document.querySelectorAll('[data-cards]')]"
                    ".every(n => n.textContent.trim() !== '' && !/\\{\\w+\\}/.test(n.textContent))")
#: How far the page scrolls sideways (nothing, on a page that fits its screen).
SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_the_rules_page_opens_from_the_lobby_and_teaches_with_card_pictures(browser: Any,
                                                                            server: Server) -> None:
    """How to play (/rules): the lobby's link opens it; every section is there, every card
    picture loads, the sentences that name cards are written, and at desktop and phone size
    it passes the accessibility check and a phone never scrolls sideways."""
    problems: dict[str, list[str]] = {}
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(browser, viewport={"width": width, "height": height}, locale="en-GB")
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(server.base + "/")
        page.click("a.rules-link")
        page.wait_for_url(server.base + "/rules")
        page.wait_for_function(EXAMPLES_WRITTEN)
        page.wait_for_function(PICTURES_SHOWN)
        assert page.title() == "Sixty-six: how to play"
        for section in RULES_SECTIONS:
            heading = page.locator(f"section#{section} h2")
            assert heading.is_visible() and heading.inner_text().strip(), section
            # The table of contents leads to each section.
            assert page.locator(f"nav.contents a[href='#{section}']").count() == 1, section
        pictures = page.locator("img[data-card]")
        assert pictures.count() >= 10
        alts = pictures.evaluate_all("nodes => nodes.map(n => n.alt)")
        assert all(alts) and "queen of hearts" in alts
        headings = page.locator("h2").all_inner_texts()
        assert "Exchanging the trump nine" in headings and "Closing the stock" in headings
        # Cards named in sentences are written as on the card.
        assert "K\u2660" in page.locator("[data-cards^='lead=']").inner_text()
        overflow = page.evaluate(SIDEWAYS)
        assert overflow <= 0, f"{overflow} px of sideways scrolling at {width} px"
        found = accessibility_problems(page)
        if found:
            problems[f"the rules at {width} px"] = found
        assert errors == []
        page.close()
    assert not problems, problems


def test_the_rules_page_speaks_the_browsers_language(browser: Any, server: Server) -> None:
    """A browser that asks for German gets the rules in German: German headings (the
    glossary's Trumpf, Talon, Stich), none of the English ones, German letters on the cards
    and in the sentences; the language switch then turns the page to Hungarian."""
    context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(server.base + "/rules")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.wait_for_function(EXAMPLES_WRITTEN)
    page.wait_for_function(PICTURES_SHOWN)
    headings = " | ".join(page.locator("h1, h2").all_inner_texts())
    assert "Trumpf" in headings and "Talon" in headings, headings
    for english in ("The aim", "The cards", "Exchanging the trump nine", "Closing the stock", "Marriages",
                    "While the stock is open", "Other rule sets"):
        assert english not in headings, english
    assert page.title() == "Sechsundsechzig: Spielregeln"
    # The pictures carry the German letters (a queen is a Dame: D), and so do the sentences.
    sources = page.locator("img[data-card]").evaluate_all("nodes => nodes.map(n => n.getAttribute('src'))")
    assert all("lang=de" in s for s in sources), sources
    assert page.locator("img[data-card='QH']").first.get_attribute("alt") == "Herz-Dame"
    assert "A\u2666" in page.locator("[data-cards^='trump=']").inner_text()
    assert page.evaluate(SIDEWAYS) <= 0
    page.select_option("#language", "hu")
    page.wait_for_function("() => document.documentElement.lang === 'hu'")
    assert "adu" in " ".join(page.locator("h2").all_inner_texts())
    context.close()


def test_a_name_with_markup_is_shown_as_text_everywhere(browser: Any, server: Server) -> None:
    """Issue 18, bad input: a name is text a player sends; the lobby, the invitation, the
    table and the result show it as written, never as markup."""
    name = '<b>Eve</b><img src=x onerror=owned()>'  # names are cut at 40 characters
    first = new_page(browser, viewport={"width": 1280, "height": 800})
    first.goto(server.base + "/")
    first.fill("input[name=name]", name)
    first.click("#play-person")
    first.wait_for_url(re.compile(r"/game/"))
    link = first.url
    second = new_page(browser, viewport={"width": 1280, "height": 800})
    second.goto(server.base + "/")
    row = second.locator("#open-games li", has_text="<b>Eve</b>")
    row.wait_for()
    assert name in row.inner_text() and row.locator("img, b").count() == 0
    second.goto(link)
    second.wait_for_selector("#join", state="visible")
    assert name in second.locator("#join-text").inner_text()
    second.fill("#join-form input[name=name]", "Bob")
    second.click("#join-button")
    second.wait_for_function("() => document.body.dataset.position !== undefined")
    assert second.locator("#opponent-name").inner_text() == name
    assert first.locator("#my-name").inner_text().startswith(name)
    for page in (first, second):
        assert page.locator(".name img, .name b, #match-score img").count() == 0
    first.close()
    second.close()


def test_a_player_registers_logs_out_and_logs_in_from_the_lobby(browser: Any, server: Server) -> None:
    """Accounts (issue 21): the header's dialog registers and logs in, errors are shown in
    words, a new game's name is the account's, and the dialog passes the accessibility check."""
    page = new_page(browser, viewport={"width": 390, "height": 844})
    page.goto(server.base + "/")
    page.click("#show-register")
    page.fill("#account-name-input", "x")
    page.fill("#account-password", "a long enough password")
    page.click("#account-submit")
    page.wait_for_function("() => document.getElementById('account-error').textContent !== ''")
    assert "3 to 20 characters" in page.text_content("#account-error")
    assert not accessibility_problems(page)
    page.fill("#account-name-input", "Lobby_Reader")
    page.click("#account-submit")
    page.wait_for_selector("#account-user", state="visible")
    assert page.text_content("#account-name") == "Signed in as Lobby_Reader"
    assert page.input_value("input[name=name]") == "Lobby_Reader"
    assert "sixtysix_session" not in page.evaluate("document.cookie")  # HttpOnly
    page.reload()
    page.wait_for_selector("#account-user", state="visible")  # the session outlives the page
    page.click("#logout")
    page.wait_for_selector("#account-guest", state="visible")
    assert page.input_value("input[name=name]") == ""
    page.click("#show-login")
    page.fill("#account-name-input", "lobby_reader")
    page.fill("#account-password", "not the password")
    page.click("#account-submit")
    page.wait_for_function("() => document.getElementById('account-error').textContent !== ''")
    assert page.text_content("#account-error") == "Wrong name or password."
    page.fill("#account-password", "a long enough password")
    page.click("#account-submit")
    page.wait_for_selector("#account-user", state="visible")
    assert page.text_content("#account-name") == "Signed in as Lobby_Reader"
    page.close()


def _explained_under_33() -> dict[str, Any]:
    """The ``why`` of a hand won against a loser with a trick and under 33 (R9.1)."""
    rng = random.Random(33)
    while True:
        hand = Hand.random(rng=rng)
        while not hand.is_over():
            legal = hand.legal_actions()
            hand.push(rng.choice(legal))
        why = explain(hand.view(0)).to_json()
        if why["scale"] == "under_33" and not why["at_close"]:
            return why


def test_the_result_names_the_threshold_the_server_sends(browser: Any, server: Server) -> None:
    """The page holds no rule number (tests/test_one_place.py): R9.1's 33 in its result
    sentence is the ``threshold`` the server sends, in English and in German."""
    why = _explained_under_33()
    page = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_function("() => typeof explainResult === 'function'")
    text = page.evaluate("why => explainResult(why, ['Anna', 'Bob'])", why)
    loser = ["Anna", "Bob"][1 - why["winner"]]
    assert f"{loser} has {why['loser_points']}, under 33." in text, text
    moved = page.evaluate("why => explainResult(why, ['Anna', 'Bob'])", {**why, "threshold": 40})
    assert "under 40." in moved and "33" not in moved.replace(str(why["loser_points"]), ""), moved
    page.close()
    german = browser.new_context(locale="de-DE")
    page = german.new_page()
    page.goto(server.base + "/")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    text = page.evaluate("why => explainResult(why, ['Anna', 'Bob'])", why)
    assert f"{loser} hat {why['loser_points']} Augen, unter 33." in text, text
    german.close()
