"""The shipped puzzle set (issue 38): at least 2,000 puzzles over at least eight themes,
every one verified again from its record (the verifier solves every world its view
allows), every open one and every small hidden one confirmed by the plain minimax of
tests/test_puzzles.py, which shares nothing with the solver; and ``sixtysix puzzles
export`` writes exactly the set, as JSON lines and as a lichess-style CSV."""

from __future__ import annotations

import collections
import csv
import dataclasses
import io
import json
from pathlib import Path

import pytest

from sixtysix.cli import main
from sixtysix.cli.puzzles import CSV_COLUMNS
from sixtysix.puzzles import Kind, Theme, check, dumps, loads
from sixtysix.puzzles.mine import Miner, mine_seed
from sixtysix.puzzles.rating import CALIBRATION_LEVELS, calibrated
from sixtysix.puzzles.shipped import shipped
from sixtysix.rules import Rules
from test_puzzles import confirmed


def test_the_set_is_large_and_covers_eight_themes_at_least() -> None:
    puzzles = shipped()
    assert len(puzzles) >= 2000
    assert len({p.id for p in puzzles}) == len(puzzles)
    themes = collections.Counter(t for p in puzzles for t in p.themes)
    assert len(themes) >= 8 and Theme.SCHWARZ in themes
    assert {p.kind for p in puzzles} == set(Kind)


@pytest.mark.one_pass  # about five seconds on the compiled kernel, far more on the pure one
def test_every_shipped_puzzle_verifies() -> None:
    wrong = {p.id: problems for p in shipped() if (problems := check(p))}
    assert wrong == {}


@pytest.mark.slow
@pytest.mark.one_pass
def test_minimax_confirms_every_open_shipped_puzzle() -> None:
    chosen = [p for p in shipped() if p.kind is Kind.OPEN]
    assert len(chosen) > 1000
    assert [p.id for p in chosen if not confirmed(p)] == []


@pytest.mark.slow
@pytest.mark.one_pass
def test_minimax_confirms_every_small_hidden_shipped_puzzle() -> None:
    chosen = [p for p in shipped()
              if p.kind is Kind.HIDDEN and (p.worlds <= 5 or not p.position().stock_open)]
    assert len(chosen) > 50
    assert [p.id for p in chosen if not confirmed(p)] == []


def test_export_writes_the_set_as_json_lines(tmp_path: Path) -> None:
    out = tmp_path / "set.jsonl"
    assert main(["puzzles", "export", "--out", str(out)]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [loads(line) for line in lines] == list(shipped())
    assert all(json.loads(line)["format"] == "sixtysix-puzzle/1" for line in lines)


def test_export_writes_a_lichess_style_csv(tmp_path: Path) -> None:
    out = tmp_path / "set.csv"
    assert main(["puzzles", "export", "--format", "csv", "--out", str(out)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == len(shipped())
    for row, puzzle in zip(rows, shipped(), strict=True):
        record = puzzle.record.to_json()
        assert row["PuzzleId"] == puzzle.id and row["Deck"] == record["deck"]
        # The rules as --rules takes them, never a Python dictionary.
        assert Rules.parse(row["Rules"]) == puzzle.record.rules and "{" not in row["Rules"]
        assert row["Actions"].split() == record["actions"]
        assert row["Moves"].split() == [str(a) for a in puzzle.solution]
        assert row["Themes"].split() == [str(t) for t in puzzle.themes]
        assert puzzle.rating is not None and int(row["Rating"]) == round(puzzle.rating.rating)
        assert (row["Kind"], int(row["Value"]), int(row["Margin"]), int(row["Worlds"])) == \
            (str(puzzle.kind), puzzle.value, puzzle.margin, puzzle.worlds)


def test_export_of_a_file_that_is_not_one_is_one_line(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "sixtysix-puzzle/1"}\n', encoding="utf-8")
    assert main(["puzzles", "export", "--from", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "bad.jsonl, line 1: missing" in err


def test_a_run_aimed_at_a_theme_keeps_only_that_theme() -> None:
    # Seed 225 of the random player against the heuristic one gave a shipped Schwarz puzzle.
    aimed = Miner(players=("random", "heuristic"), themes=frozenset({Theme.SCHWARZ}))
    found = mine_seed(225, aimed)
    assert found and all(Theme.SCHWARZ in p.themes for p in found)
    assert {p.id for p in found} <= {p.id for p in shipped()}
    assert mine_seed(225, Miner(players=("random", "heuristic"), themes=frozenset({Theme.REVOKE}))) == []


@pytest.mark.parametrize(("argv", "message"), [
    (["--themes", "squeeze"], "--themes: 'squeeze' names an unknown theme"),
    (["--players", "heuristic"], "--players names two players, not 'heuristic'"),
])
def test_mine_refuses_unknown_themes_and_a_lone_player(argv: list[str], message: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "mine", "--count", "1", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and message in err


def test_calibrate_writes_the_attempts_and_the_rating_they_give(tmp_path: Path) -> None:
    puzzle = next(p for p in shipped() if p.kind is Kind.OPEN)
    bare = dataclasses.replace(puzzle, rating=None, calibration=())
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text(dumps(bare) + "\n", encoding="utf-8")
    assert main(["puzzles", "calibrate", str(source), "--out", str(out)]) == 0
    (again,) = [loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [level for level, _ in again.calibration] == list(CALIBRATION_LEVELS)
    assert again.rating == calibrated(again.calibration)
    # medium is seeded and searches by no clock: its attempt is the shipped one.
    assert dict(again.calibration)["medium"] == dict(puzzle.calibration)["medium"]
