"""The terminal game's messages in plain words (issue 37, item 3)."""

from __future__ import annotations

from need import need_tui

need_tui()

from support import game, log, make_app, settle, synchronous  # noqa: E402

from sixtysix.game.actions import ActionKind  # noqa: E402


@synchronous
async def test_m_without_a_marriage_says_so() -> None:
    app = make_app(seed=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert screen.my_turn
        assert not any(a.kind is ActionKind.MARRIAGE for a in screen.legal())
        await pilot.press("m")
        await settle(pilot)
        story = log(screen)
        assert "You have no marriage to announce now" in story
        assert "select one first" not in story
