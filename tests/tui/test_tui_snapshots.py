"""Snapshot tests of the main screens (pytest-textual-snapshot), at 80x24 and 160x50.

Every screen is seeded (deals, the computer, the analysis) and has no
animation, so the pictures are the same on every run. After a deliberate
change of the look, review the new pictures and accept them with
``pytest tests/tui/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from need import need_tui

need_tui()

from support import make_app, play_one_hand, result, settle  # noqa: E402
from textual.pilot import Pilot  # noqa: E402

from sixtysix.game.record import load  # noqa: E402
from sixtysix.tui.app import SixtySixApp  # noqa: E402
from sixtysix.tui.statistics import Statistics  # noqa: E402

SIZES = [(80, 24), (160, 50)]
EXAMPLE = Path(__file__).parent.parent / "examples" / "0000.json"


def keys(*presses: str) -> Any:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        for key in presses:
            await pilot.press(key)
            await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_game_at_the_start(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(seed=5), terminal_size=size, run_before=keys())


@pytest.mark.parametrize("size", SIZES)
def test_game_in_play(snap_compare: Any, size: tuple[int, int]) -> None:
    # Lead, draw, lead: a trick on the table, a last trick gone (R3.5).
    assert snap_compare(make_app(seed=5), terminal_size=size, run_before=keys("1", "d", "3"))


def test_game_hand_over(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot)
        assert isinstance(pilot.app, SixtySixApp) and pilot.app.game is not None
        await play_one_hand(pilot, pilot.app.game)

    assert snap_compare(make_app(seed=5), terminal_size=(80, 24), run_before=run_before)


def test_settings(snap_compare: Any) -> None:
    assert snap_compare(make_app(seed=5), terminal_size=(80, 24), run_before=keys("o"))


def test_keys(snap_compare: Any) -> None:
    assert snap_compare(make_app(seed=5), terminal_size=(80, 24), run_before=keys("question_mark"))


def test_rules(snap_compare: Any) -> None:
    assert snap_compare(make_app(seed=5), terminal_size=(80, 24), run_before=keys("r"))


def test_statistics(snap_compare: Any, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    stats = Statistics(data_dir / "statistics.sqlite3")
    for won in (True, False, True):
        match = stats.start_match(level="medium", preset="classic", rules="classic", undo=False)
        stats.add_result(match, 1, result(0, (70, 20), (5, 1), 2), human_seat=0)
        stats.finish_match(match, won=won, score=(7, 2) if won else (2, 7))
    stats.close()
    assert snap_compare(make_app(seed=5), terminal_size=(80, 24), run_before=keys("t"))


@pytest.mark.parametrize("size", SIZES)
def test_replay_viewer(snap_compare: Any, size: tuple[int, int]) -> None:
    from sixtysix.bots.analysis import Budget

    app = SixtySixApp(replay=(load(str(EXAMPLE)), EXAMPLE.name), replay_budget=Budget(worlds=4))
    # Step to the 21st action: the stock is exhausted, the verdict is exact.
    assert snap_compare(app, terminal_size=size, run_before=keys(*["right"] * 21))
