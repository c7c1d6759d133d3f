"""Puzzles in the browser (issue 38): a guest solves puzzles in Debian's Chromium with
the keyboard and the mouse, and his rating moves as Glicko-2 says: the page's numbers
are the server's stored rows (read from the database file) and an independent
computation (tests/glicko_oracle.py). The daily puzzle is the same for two browsers, the
page reads in German, its analysis board opens, and axe finds no WCAG A/AA violation."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from glicko_oracle import glicko2
from server_support import Server
from sixtysix.measure.glicko import Rating
from sixtysix.puzzles.puzzle import Puzzle
from sixtysix.puzzles.rating import daily
from sixtysix.puzzles.shipped import shipped
from test_web_e2e import accessibility_problems
from web_support import chromium

CARD = re.compile(r"^[9TJQKA][CDHS]$")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("puzzles") / "games.db"


@pytest.fixture(scope="module")
def server(database: Path) -> Iterator[Server]:
    s = Server(f"sqlite:///{database}", database.parent / "server.log")
    yield s
    s.kill()


def stored(database: Path, query: str, **values: str) -> dict[str, Any]:
    engine = create_engine(f"sqlite:///{database}")
    with engine.connect() as conn:
        row = dict(conn.execute(text(query), values).mappings().one())
    engine.dispose()
    return row


def open_puzzle(browser: Any, server: Server, path: str, lang: str = "en") -> tuple[Any, Any]:
    context = browser.new_context(locale=lang, reduced_motion="reduce")
    page = context.new_page()
    page.goto(server.base + path)
    page.wait_for_function("() => document.body.dataset.state === 'asking'")
    return context, page


def card_puzzles(kind: str) -> list[Puzzle]:
    """Shipped puzzles whose first action is a plain card, not yet taken by this module's tests."""
    return [p for p in shipped() if p.kind == kind and CARD.match(str(p.first)) and p.rating is not None]


def test_a_guest_solves_a_puzzle_and_his_rating_moves_as_glicko2_says(browser: Any, server: Server,
                                                                      database: Path) -> None:
    right = card_puzzles("open")[0]
    wrong_one = card_puzzles("hidden")[0]
    assert right.rating is not None and wrong_one.rating is not None
    context, page = open_puzzle(browser, server, f"/puzzles/{right.id}")
    assert page.evaluate("document.body.dataset.puzzle") == right.id
    assert accessibility_problems(page) == []
    # With the keyboard: the solution's card has the focus, Enter plays it.
    page.focus(f"#my-hand button[data-card='{right.first}']")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.state === 'solved'")
    assert page.inner_text("#puzzle-verdict").startswith("Right:")
    guest = stored(database, "SELECT * FROM puzzle_solvers")
    r, rd, sigma = glicko2(1500, 350, 0.06, [(right.rating.rating, right.rating.deviation, 1.0)])
    assert guest["rating"] == pytest.approx(r, abs=1e-3) and guest["deviation"] == pytest.approx(rd, abs=1e-3)
    assert page.inner_text("#rating-change") == f"Your rating: 1500 → {round(r)} (+{round(r) - 1500})"
    row = stored(database, "SELECT * FROM puzzle_ratings WHERE puzzle_id = :p", p=right.id)
    want = glicko2(right.rating.rating, right.rating.deviation, right.rating.volatility, [(1500, 350, 0.0)])
    assert row["rating"] == pytest.approx(want[0], abs=1e-3) and row["solved"] == 1
    # The solution is played out move by move; on request, at once and whole.
    page.click("#show-solution") if page.is_visible("#show-solution") else None
    answered = right.position().view(right.position().to_act).lead is not None  # the lead on the table first
    page.wait_for_function("n => document.querySelectorAll('#puzzle-line li').length === n",
                           arg=len(right.solution) + answered)
    assert accessibility_problems(page) == []
    # A wrong answer to the next puzzle, with the mouse: the rating goes down from the stored one.
    page.goto(server.base + f"/puzzles/{wrong_one.id}")
    page.wait_for_function("() => document.body.dataset.state === 'asking'")
    legal = page.evaluate(
        "[...document.querySelectorAll('#my-hand button:not([disabled])')].map(b => b.dataset.card)")
    wrong = next(card for card in legal if card != str(wrong_one.first))
    page.click(f"#my-hand button[data-card='{wrong}']")
    page.wait_for_function("() => document.body.dataset.state === 'failed'")
    assert page.inner_text("#puzzle-verdict").startswith("Not best")
    after = glicko2(r, rd, sigma, [(wrong_one.rating.rating, wrong_one.rating.deviation, 0.0)])
    assert stored(database, "SELECT * FROM puzzle_solvers")["rating"] == pytest.approx(after[0], abs=1e-3)
    assert page.inner_text("#rating-change") == \
        f"Your rating: {round(r)} → {round(after[0])} (−{round(r) - round(after[0])})".replace("−", "\u2212")
    assert page.inner_text("#puzzle-rating") == f"Your puzzle rating: {round(after[0])}"
    # Its analysis board: the solution played to the end, cards face up.
    page.click("#analysis")
    page.wait_for_url(re.compile(r"/replay/puzzle/"))
    page.wait_for_selector("#hand-0 .card")
    assert page.inner_text("#match-score") == f"Puzzle {wrong_one.id}"
    context.close()


def test_the_daily_puzzle_is_the_same_in_two_browsers(browser: Any, server: Server) -> None:
    before = dt.datetime.now(dt.UTC).date()
    seen = []
    for _ in range(2):
        context, page = open_puzzle(browser, server, "/puzzles/daily")
        seen.append(page.evaluate("document.body.dataset.puzzle"))
        assert page.inner_text("#puzzle-heading").startswith("Daily puzzle")
        context.close()
    after = dt.datetime.now(dt.UTC).date()
    assert seen[0] == seen[1]
    assert seen[0] in {daily(shipped(), before).id, daily(shipped(), after).id}


def test_the_page_reads_in_german_and_offers_the_themes(browser: Any, server: Server) -> None:
    context, page = open_puzzle(browser, server, "/puzzles", lang="de")
    assert page.inner_text("#puzzle-prompt").startswith("Du bist dran")
    options = page.evaluate("[...document.querySelectorAll('#theme option')].map(o => o.value)")
    assert options[0] == "" and len(options) >= 9  # any theme, then eight at least
    with page.expect_response(lambda r: "/api/puzzles/next" in r.url and "theme=tie" in r.url) as asked:
        page.select_option("#theme", "tie")
    chosen = asked.value.json()["id"]  # the page shows it once it has drawn it
    page.wait_for_function("id => document.body.dataset.puzzle === id && "
                           "document.body.dataset.state === 'asking'", arg=chosen)
    assert any(p.id == chosen and "tie" in p.themes for p in shipped())
    assert accessibility_problems(page) == []
    context.close()


def test_the_rating_shown_is_the_newcomers_before_any_attempt(browser: Any, server: Server) -> None:
    context, page = open_puzzle(browser, server, "/puzzles")
    assert page.inner_text("#puzzle-rating") == f"Your puzzle rating: {round(Rating().rating)}"
    context.close()


def test_the_puzzles_page_and_every_page_read_in_the_language_of_the_link(browser: Any,
                                                                          server: Server) -> None:
    """``?lang=de`` opens the puzzles page in German in an English browser, as it opens
    every page (one mechanism, common.js): the page's text, its puzzle's prompt and the
    language switch say German; the switch then chosen (English) wins and is kept, the
    link's language taken out of the address."""
    context = browser.new_context(locale="en", reduced_motion="reduce")
    page = context.new_page()
    for path in ("/", "/rules", "/learn", "/tournaments", "/account"):
        page.goto(server.base + path + "?lang=de")
        page.wait_for_function("() => document.documentElement.lang === 'de'")
        assert page.evaluate("document.getElementById('language').value") == "de", path
    page.goto(server.base + "/puzzles?lang=de")
    page.wait_for_function("() => document.body.dataset.state === 'asking'")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.inner_text("#puzzle-prompt").startswith("Du bist dran")
    assert page.evaluate("document.getElementById('language').value") == "de"
    page.select_option("#language", "en")
    page.wait_for_function("() => document.documentElement.lang === 'en' && "
                           "document.body.dataset.state === 'asking'")
    assert "lang=" not in page.url
    assert page.inner_text("#puzzle-prompt").startswith("Your move")
    page.goto(server.base + "/puzzles")  # the choice is kept, the link's language was not
    page.wait_for_function("() => document.body.dataset.state === 'asking'")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.evaluate("localStorage.setItem('sixtysix-lang', 'de')")  # chosen German: the link's English wins
    page.goto(server.base + "/puzzles?lang=en")
    page.wait_for_function("() => document.body.dataset.state === 'asking'")
    assert page.evaluate("document.documentElement.lang") == "en"
    context.close()
