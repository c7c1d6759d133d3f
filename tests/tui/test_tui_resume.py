"""Leaving and continuing a match (issue 37, item 1): ``q`` asks mid-hand, the saved
record is the match's state, the start screen offers to continue it, ``play --resume``
does, and the statistics count an unfinished match as neither won nor lost."""

from __future__ import annotations

from pathlib import Path

from need import need_tui

need_tui()

from support import game, make_app, play_one_hand, play_one_hand_step, settle, synchronous, text  # noqa: E402

from sixtysix.bots.analysis import Budget  # noqa: E402
from sixtysix.game.record import MatchRecord, load, replay  # noqa: E402
from sixtysix.tui.app import SixtySixApp  # noqa: E402
from sixtysix.tui.screens import ConfirmScreen, StartScreen  # noqa: E402
from sixtysix.tui.statistics import Statistics  # noqa: E402
from sixtysix.tui.storage import Settings, find_resumable, latest_unfinished  # noqa: E402


async def leave_mid_hand(seed: int) -> tuple[Path, object, tuple[int, int]]:
    """Play a hand and a move of the next, then leave with ``q``, answering the question;
    returns the record file, the view left and the score."""
    app = make_app(seed=seed)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        await play_one_hand(pilot, screen)
        await pilot.press("enter")
        await settle(pilot)
        await play_one_hand_step(pilot, screen)
        view, score = screen.session.view, screen.session.score
        await pilot.press("q")
        await pilot.pause()
        # Mid-hand, q asks first; Esc stays in the game.
        assert isinstance(app.screen, ConfirmScreen)
        assert "sixtysix play --resume" in text(app.screen.query_one("#confirm-text"))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and app.is_running
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert not app.is_running
    return screen.record_path, view, score


@synchronous
async def test_q_asks_and_the_start_screen_continues_the_match(data_dir: Path) -> None:
    path, view, score = await leave_mid_hand(seed=5)
    record = load(str(path))
    assert isinstance(record, MatchRecord) and not replay(record).finished  # type: ignore[union-attr]
    # An unfinished match is neither won nor lost.
    stats = Statistics(data_dir / "statistics.sqlite3")
    assert stats.unfinished() == 1
    (line,) = stats.summary()
    assert (line.matches_won, line.matches_finished) == (0, 0)
    stats.close()
    found = latest_unfinished()
    assert found is not None and found.path == path and found.level == "medium"
    # A start without a seed offers the match; c continues it where it was left.
    app = SixtySixApp(settings=Settings(speed="off"), hint_budget=Budget(worlds=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert f"You {score[0]}, computer {score[1]}, playing hand 2" in text(
            app.screen.query_one("#start-summary"))
        await pilot.press("c")
        await settle(pilot)
        screen = game(app)
        assert screen.record_path == path
        assert screen.session.view == view and screen.session.score == score
        assert "Hand 2" in text(screen.query_one("#status"))
        assert screen.my_turn
        await play_one_hand(pilot, screen)
        await pilot.press("n")  # leaves the match (saved) for a new one
        await settle(pilot)
    record = load(str(path))
    assert isinstance(record, MatchRecord) and len(record.hands) == 3
    # Still one match in the statistics, its hands counted once each.
    stats = Statistics(data_dir / "statistics.sqlite3")
    (line,) = stats.summary()
    assert (line.matches, line.hands) == (1, 2)  # the new match has no hand yet
    assert stats.match_of(str(path)) == 1
    stats.close()


@synchronous
async def test_n_on_the_start_screen_starts_a_new_match(data_dir: Path) -> None:
    path, _view, _score = await leave_mid_hand(seed=6)
    app = SixtySixApp(settings=Settings(speed="off"), hint_budget=Budget(worlds=4))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await settle(pilot)
        assert game(app).record_path != path and game(app).resumed is None
        assert game(app).session.hand_number == 1


@synchronous
async def test_resume_from_the_command_line_and_without_asking(data_dir: Path) -> None:
    path, view, _score = await leave_mid_hand(seed=7)
    found = find_resumable(str(path))
    app = SixtySixApp(settings=Settings(speed="off", confirm=False), resume=found)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = game(app)
        assert screen.session.view == view
        assert "You continue the match saved in" in "\n".join(screen.query_one("#log").lines())  # type: ignore[attr-defined]
        # With the confirmations turned off, q leaves at once.
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
