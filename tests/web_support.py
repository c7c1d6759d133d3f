"""What the browser tests of the page (tests/test_web_page.py) share: Debian's Chromium
driven by Playwright against ``sixtysix serve`` as a process, pages in a given language
and screen size, and the steps a person takes at the table."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from server_support import need

CHROMIUM = os.environ.get("SIXTYSIX_TEST_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: The sizes the page is laid out for: a desktop, a phone upright and a phone on its side.
SCREENS = {"desktop": (1280, 800), "phone": (390, 844), "landscape": (844, 390)}
#: The page shows the player's turn, the result panel, a kept trick or a finished hand.
SOMETHING_TO_DO = ("() => document.getElementById('status').classList.contains('your-turn') || "
                   "!document.getElementById('result').hidden || document.body.dataset.held !== 'no'")


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium under Playwright (the test is skipped where either is missing)."""
    need(Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM} (.ci/run installs Debian's)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        need(False, "playwright is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def open_page(browser: Any, lang: str, screen: str = "desktop", pause: str = "tap",
              script: str = "") -> Any:
    """A page in a context of its own, in ``lang``, sized as ``screen``; finished tricks
    kept as ``pause`` says (the page's setting), and ``script`` run before its own."""
    width, height = SCREENS[screen]
    context = browser.new_context(locale=lang, viewport={"width": width, "height": height},
                                  is_mobile=screen != "desktop", has_touch=screen != "desktop",
                                  reduced_motion="reduce")  # boxes where they stay, not where they fly in
    context.add_init_script(f"localStorage.setItem('sixtysix-trick-pause', '{pause}');" + script)
    return context.new_page()


def play_the_computer(page: Any, base: str, target: int = 1, name: str = "Tester", lang: str = "en") -> str:
    """Start a match against the random computer from the lobby; the game's id."""
    page.goto(base + "/")
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.fill("input[name=name]", name)
    page.fill("input[name=target]", str(target))
    page.select_option("select[name=level]", "random")
    page.click("#play-computer")
    page.wait_for_url(re.compile(r"/game/"))
    page.wait_for_function("() => document.body.dataset.position !== undefined")
    return str(page.url.rsplit("/", 1)[1])


def held(page: Any) -> str:
    """What the table keeps: "yes" (a finished trick), "end" (a finished hand) or "no"."""
    return str(page.evaluate("document.body.dataset.held"))


def result_shown(page: Any) -> bool:
    return bool(page.locator("#result").is_visible())


def take_turn(page: Any) -> None:
    """Play what a person would: the first playable card (a marriage said yes to), else the
    first action that cannot lose the hand at once; then wait until the server answered.
    The hand may end meanwhile (the result then covers the table): the turn is over."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    before = page.evaluate("document.body.dataset.position")
    legal = page.locator("#my-hand button.card.legal")
    safe = page.locator("#choices button[data-action]:not([data-action='C']):not(.risky)")
    try:
        if legal.count():
            legal.first.click(timeout=15000)
            choice = page.locator("#choices button.primary[data-action$='+']")
            if choice.count():
                choice.first.click(timeout=15000)
        else:
            button = safe.first if safe.count() else page.locator("#choices button[data-action]").first
            button.click(timeout=15000)
            if page.locator("#confirm").is_visible():
                page.click("#confirm-yes")
    except PlaywrightTimeout:
        if result_shown(page):
            return
        raise
    page.wait_for_function("before => document.body.dataset.position !== before", arg=before)
