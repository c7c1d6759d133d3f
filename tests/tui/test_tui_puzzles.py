"""The terminal game's Puzzles screen (issue 38): opened with ``z`` from the game, a
puzzle solved with the keyboard, the verdict and the rating as Glicko-2 says (the
oracle of tests/glicko_oracle.py), the rating kept in the data directory, a wrong answer,
the solution, the daily puzzle and a theme."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from need import need_tui

need_tui()

from support import make_app, settle, synchronous, text  # noqa: E402
from textual.widgets import OptionList, Select  # noqa: E402

from glicko_oracle import glicko2  # noqa: E402
from sixtysix.present.text.words import card_text  # noqa: E402
from sixtysix.puzzles.rating import daily  # noqa: E402
from sixtysix.puzzles.shipped import by_id, shipped  # noqa: E402
from sixtysix.tui.puzzles import PuzzleScreen  # noqa: E402


async def choose(pilot: object, screen: PuzzleScreen, action: str) -> None:
    """Move the list's highlight to ``action`` with the arrow keys, then Enter."""
    options = screen.query_one("#puzzle-actions", OptionList)
    target = next(i for i in range(options.option_count) if options.get_option_at_index(i).id == action)
    while options.highlighted != target:
        await pilot.press("down" if (options.highlighted or 0) < target else "up")  # type: ignore[attr-defined]
    await pilot.press("enter")  # type: ignore[attr-defined]
    await pilot.pause()  # type: ignore[attr-defined]


@synchronous
async def test_a_puzzle_solved_with_the_keyboard_moves_the_rating_as_glicko2_says(data_dir: Path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        await pilot.press("z")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PuzzleScreen) and screen.puzzle is not None
        puzzle = screen.puzzle
        assert puzzle.rating is not None
        position = puzzle.position()
        # The position is the player's view: no card of the opponent's hand he has not seen.
        shown = text(screen.query_one("#puzzle-position"))
        seat = position.to_act
        assert seat is not None
        unseen = set(position.cards(1 - seat)) - set(position.view(seat).known_opponent_cards())
        assert unseen and not [c for c in unseen if card_text(c) in shown]
        assert all(card_text(c) in shown for c in position.cards(seat))
        await choose(pilot, screen, str(puzzle.first))
        verdict = text(screen.query_one("#puzzle-verdict"))
        assert verdict.startswith("Right:")
        r, rd, sigma = glicko2(1500, 350, 0.06, [(puzzle.rating.rating, puzzle.rating.deviation, 1.0)])
        assert f"Your rating: 1500 → {round(r)} (+{round(r) - 1500})" in verdict
        saved = json.loads((data_dir / "puzzles.json").read_text())
        assert saved["rating"][0] == pytest.approx(r, abs=1e-3) and saved["tried"] == {puzzle.id: True}
        await pilot.press("s")
        await pilot.pause()
        assert "Solution: " in text(screen.query_one("#puzzle-verdict"))
        # The next puzzle, answered wrongly: the rating goes down from the kept one.
        await pilot.press("n")
        await pilot.pause()
        second = screen.puzzle
        assert second is not None and second.id != puzzle.id and second.rating is not None
        wrong = next(str(a) for a in second.position().legal_actions() if a != second.first)
        await choose(pilot, screen, wrong)
        assert text(screen.query_one("#puzzle-verdict")).startswith("Not best")
        after = glicko2(r, rd, sigma, [(second.rating.rating, second.rating.deviation, 0.0)])
        saved = json.loads((data_dir / "puzzles.json").read_text())
        assert saved["rating"][0] == pytest.approx(after[0], abs=1e-3)
        assert saved["tried"] == {puzzle.id: True, second.id: False}


@synchronous
async def test_the_daily_puzzle_and_a_theme(data_dir: Path) -> None:
    today = dt.date(2027, 5, 1)
    app = make_app()
    async with app.run_test(size=(120, 50)) as pilot:
        await settle(pilot)
        app.push_screen(PuzzleScreen(seed=3, today=today))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PuzzleScreen)
        await pilot.press("y")
        await pilot.pause()
        assert screen.puzzle == daily(shipped(), today)
        assert text(screen.query_one("#puzzle-title")).startswith("Daily puzzle")
        screen.query_one("#puzzle-theme", Select).value = "tie"
        await pilot.pause()
        assert screen.puzzle is not None and "tie" in screen.puzzle.themes
        assert by_id(screen.puzzle.id) == screen.puzzle
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PuzzleScreen)
