"""Records, settings and statistics of the terminal game (no screen needed)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from need import need_tui

need_tui()

from support import result  # noqa: E402

from sixtysix.game.record import load, loads  # noqa: E402
from sixtysix.tui.statistics import SCHEMA_VERSION, Statistics, StatisticsError, loser_scale  # noqa: E402
from sixtysix.tui.storage import (  # noqa: E402
    Settings,
    data_dir,
    export_record,
    list_records,
    load_settings,
    new_record_path,
    save_settings,
    write_record,
)

ONE_HAND = ('{"format": "sixtysix/1", "rules": "classic", "dealer": 0, '
            '"deck": "QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH", '
            '"actions": ["KS", "9C", "D"], "players": ["Ann", "Bob"]}')


def test_the_data_directory_follows_the_environment(data_dir: Path) -> None:
    assert data_dir_is(data_dir)


def data_dir_is(path: Path) -> bool:
    return data_dir() == path and path.is_dir()


def test_settings_round_trip_and_survive_a_damaged_file(data_dir: Path) -> None:
    assert load_settings() == Settings()  # nothing saved yet
    chosen = Settings(level="hard", preset="santase", memory=True, auto_declare=True, speed="off",
                      undo=True, name="Ann")
    save_settings(chosen)
    assert load_settings() == chosen
    (data_dir / "settings.json").write_text("{not json", encoding="utf-8")
    assert load_settings() == Settings()
    (data_dir / "settings.json").write_text(json.dumps({"level": "grandmaster", "speed": "slow",
                                                        "colour": "blue"}), encoding="utf-8")
    assert load_settings() == Settings(speed="slow")


def test_settings_give_the_rules_text() -> None:
    assert Settings(preset="pagat").rules_text == "pagat"
    assert Settings(preset="classic", auto_declare=True).rules_text == "classic,auto_declare=true"


def test_records_are_listed_newest_first_and_bad_files_are_reported(data_dir: Path) -> None:
    from datetime import datetime

    first = new_record_path(datetime(2026, 1, 2, 3, 4, 5), seed=7)
    second = new_record_path(datetime(2026, 1, 3, 3, 4, 5))
    assert first.name == "2026-01-02-030405-seed7.json"
    write_record(first, loads(ONE_HAND))
    write_record(second, loads(ONE_HAND))
    assert new_record_path(datetime(2026, 1, 3, 3, 4, 5)).name == "2026-01-03-030405-2.json"
    (first.parent / "broken.json").write_text("{}", encoding="utf-8")
    infos = list_records()
    assert [i.path.name for i in infos] == [first.parent.joinpath("broken.json").name, second.name,
                                            first.name]
    assert infos[0].record is None and "unreadable" in infos[0].summary()
    assert infos[1].summary() == "Ann v Bob: one hand, classic"
    match = '{"format": "sixtysix/1", "rules": "classic", "first_dealer": 0, "hands": [], "undo": {}}'
    third = first.parent / "match.json"
    third.write_text(match, encoding="utf-8")
    (info,) = [i for i in list_records() if i.path == third]
    assert info.summary() == "player 0 0, player 1 0 (unfinished); 0 hands, classic"
    assert not list(first.parent.glob("*.tmp"))


def test_export_copies_a_record(tmp_path: Path) -> None:
    source = new_record_path(seed=1)
    write_record(source, loads(ONE_HAND))
    out = tmp_path / "out"
    out.mkdir()
    dest = export_record(source, out)
    assert dest == out / source.name and load(str(dest)) == load(str(source))
    named = export_record(source, out / "mine.json")
    assert named.read_text(encoding="utf-8") == source.read_text(encoding="utf-8")
    with pytest.raises(OSError):
        export_record(source, tmp_path / "no" / "such" / "dir" / "x.json")
    with pytest.raises(OSError, match="the record itself"):
        export_record(source, source)


def test_schneider_and_schwarz_follow_the_losers_take() -> None:
    # R9.1: under 33 is Schneider (2 game points), no trick is Schwarz (3).
    assert loser_scale(result(0, (70, 32), (4, 2), 2)) == (True, False)
    assert loser_scale(result(1, (0, 66), (0, 3), 3)) == (True, True)
    assert loser_scale(result(0, (66, 40), (4, 3), 1)) == (False, False)
    # A false declaration's 2 or 3 points are not the loser's take.
    assert loser_scale(result(0, (10, 50), (1, 3), 2, "false_declaration")) == (False, False)
    assert loser_scale(result(None, (65, 65), (6, 6), 0, "tie")) == (False, False)


def test_statistics_add_up_per_level_and_preset(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    stats = Statistics(path)
    outcomes = [True, True, False, True, True, True, False, False]
    for won in outcomes:
        match = stats.start_match(level="medium", preset="classic", rules="classic", undo=False)
        first = result(0, (70, 20), (5, 1), 2) if won else result(1, (20, 70), (1, 5), 2)
        stats.add_result(match, 1, first, human_seat=0)
        stats.add_result(match, 2, result(0, (66, 0), (3, 0), 3), human_seat=0)
        stats.finish_match(match, won=won, score=(7, 3) if won else (3, 7))
    other = stats.start_match(level="hard", preset="santase", rules="santase", undo=True)
    stats.add_result(other, 1, result(1, (40, 70), (2, 4), 1), human_seat=0)
    stats.start_match(level="easy", preset="pagat", rules="pagat", undo=False)  # left at once
    stats.close()

    stats = Statistics(path)  # across sessions
    medium, hard = stats.summary()
    assert (medium.level, medium.preset, medium.matches, medium.matches_won) == ("medium", "classic", 8, 5)
    assert (medium.hands, medium.hands_won) == (16, 13)
    assert (medium.points_won, medium.points_lost) == (5 * 2 + 8 * 3, 3 * 2)
    assert medium.points_per_hand == pytest.approx((34 - 6) / 16)
    assert (medium.schneider_for, medium.schneider_against) == (13, 3)
    assert (medium.schwarz_for, medium.schwarz_against) == (8, 0)
    assert (medium.best_streak, medium.worst_streak, medium.current_streak) == (3, 2, -2)
    assert (hard.matches, hard.matches_finished, hard.hands, hard.hands_won) == (1, 0, 1, 0)
    assert stats.totals() == (9, 5, 17, 13)


def test_a_newer_statistics_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "stats.sqlite3"
    Statistics(path).close()
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StatisticsError, match="newer version"):
        Statistics(path)
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StatisticsError, match="cannot be used"):
        Statistics(garbage)
