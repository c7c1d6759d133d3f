"""The shipped puzzle set (issue 38): at least 2,000 puzzles over at least eight themes,
every one verified again from its record (the verifier solves every world its view
allows), every open one and every small hidden one confirmed by the plain minimax of
tests/test_puzzles.py, which shares nothing with the solver; and ``sixtysix puzzles
export`` writes exactly the set, as JSON lines and as a lichess-style CSV."""

from __future__ import annotations

import collections
import csv
import io
import json
from pathlib import Path

import pytest

from sixtysix.cli import main
from sixtysix.cli.puzzles import CSV_COLUMNS
from sixtysix.puzzles import Kind, Theme, check, loads
from sixtysix.puzzles.shipped import shipped
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
