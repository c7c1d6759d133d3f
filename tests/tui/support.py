"""Helpers for driving the terminal game with Textual's pilot."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from textual.content import Content
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Static

from sixtysix.analysis import Budget
from sixtysix.tui.app import SixtySixApp
from sixtysix.tui.game import GameScreen
from sixtysix.tui.storage import Settings


def make_app(seed: int = 5, **settings: object) -> SixtySixApp:
    """A seeded app with no animation and a small, reproducible hint budget."""
    options: dict[str, object] = {"speed": "off", "level": "medium"}
    options.update(settings)
    return SixtySixApp(seed=seed, settings=Settings(**options),  # type: ignore[arg-type]
                       hint_budget=Budget(worlds=4), replay_budget=Budget(worlds=4))


async def settle(pilot: Pilot[None]) -> None:
    """Wait until the workers (the computer, hints, analysis) are done and their results shown."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def text(widget: Widget) -> str:
    """What a Static shows, without markup."""
    assert isinstance(widget, Static)
    return Content.from_markup(str(widget.content)).plain


def game(app: SixtySixApp) -> GameScreen:
    screen = app.game
    assert screen is not None
    return screen


def synchronous(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an ``async`` test in its own event loop (no pytest plugin needed)."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run
