"""Questions before an action that cannot be taken back (issue 37, item 2): closing and
declaring under 66 ask first, as the browser's game does, unless the setting is off."""

from __future__ import annotations

from need import need_tui

need_tui()

from support import game, make_app, settle, synchronous, text  # noqa: E402
from textual.widgets import Select  # noqa: E402

from sixtysix.game.actions import Action  # noqa: E402
from sixtysix.tui.screens import ConfirmScreen, SettingsScreen  # noqa: E402
from sixtysix.tui.storage import Settings, load_settings  # noqa: E402


@synchronous
async def test_c_asks_before_closing() -> None:
    app = make_app(seed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert Action.parse("C") in screen.legal()
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert text(app.screen.query_one("#confirm-title")) == "Close the stock?"
        assert "your opponent scores 3 game points" in text(app.screen.query_one("#confirm-text"))
        await pilot.press("escape")
        await settle(pilot)
        view = screen.session.view
        assert app.screen is screen and view is not None and view.closed_by is None
        await pilot.press("c")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert screen.session.view is not None and screen.session.view.closed_by == 0


@synchronous
async def test_without_the_setting_c_closes_at_once() -> None:
    app = make_app(seed=0, confirm=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        await pilot.press("c")
        await settle(pilot)
        assert app.screen is screen
        assert screen.session.view is not None and screen.session.view.closed_by == 0


@synchronous
async def test_the_setting_is_on_by_default_and_kept() -> None:
    assert Settings().confirm and load_settings().confirm
    app = make_app(seed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#confirm", Select).value = False
        await pilot.click("#save")
        await pilot.pause()
    assert not load_settings().confirm
