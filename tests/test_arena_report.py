"""Saved arena runs read back and merged: ``sixtysix report`` (sixtysix.arena.runs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sixtysix.arena import load_run, merge_runs, summarize
from sixtysix.cli import main


def arena(tmp_path: Path, seed: int, *bots: str, deals: int = 6, hands: bool = True) -> Path:
    out = tmp_path / f"run-{seed}-{'-'.join(bots)}.json"
    args = ["arena", *bots, "--hands" if hands else "--matches", str(deals), "--seed", str(seed),
            "--jobs", "1", "--quiet", "--save", str(out), "--bootstrap", "50"]
    assert main(args) == 0
    return out


def read(path: Path) -> Any:
    return json.loads(path.read_text())


def test_one_run_reported_again_gives_the_arenas_own_summary(tmp_path: Path) -> None:
    path = arena(tmp_path, 3, "heuristic", "random", "easy", hands=False, deals=3)
    doc = read(path)
    run = load_run(doc)
    summary = summarize(list(run.specs), list(run.results), rules=run.rules, seed=run.seeds[0],
                        unit=run.unit, deals=run.deals, resamples=50)
    assert summary.to_json() == doc["summary"]


def test_runs_with_other_seeds_merge_into_one_arena(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    paths = [arena(tmp_path, seed, "heuristic", "random") for seed in (1, 2, 3)]
    merged = tmp_path / "merged.json"
    capsys.readouterr()
    assert main(["report", *map(str, paths), "--save", str(merged), "--bootstrap", "50"]) == 0
    out = capsys.readouterr().out
    assert "18 deals" in out and "seeds 1, 2, 3" in out and "3 runs merged" in out
    doc = read(merged)
    assert doc["deals_per_pair"] == 18 and doc["seeds"] == [1, 2, 3]
    pair = doc["summary"]["pairs"][0]
    parts = [read(p)["summary"]["pairs"][0] for p in paths]
    for key in ("games", "hands", "boards", "ties"):
        assert pair[key] == sum(part[key] for part in parts), key
    for key in ("wins", "hand_wins", "won_both"):
        assert pair[key] == [sum(part[key][i] for part in parts) for i in (0, 1)], key
    boards = {(g["board"], g["swap"]) for g in doc["games"]}
    assert len(boards) == len(doc["games"]) == 36
    # The merged run reads back as it was written.
    again = load_run(doc)
    assert again.seeds == (1, 2, 3) and again.deals == 18 and len(again.results) == 36


def test_the_merged_run_on_standard_output_and_the_old_json_file(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(arena(tmp_path, seed, "heuristic", "random", deals=2)) for seed in (1, 2)]
    capsys.readouterr()
    assert main(["report", *paths, "--json", "--bootstrap", "0"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    printed = json.loads(out)
    assert printed["seeds"] == [1, 2] and printed["run"] == {"merged": paths}
    # The old spelling: --json OUT writes the file, prints the report, and warns in one line.
    old = tmp_path / "old.json"
    assert main(["report", *paths, "--json", str(old), "--bootstrap", "0"]) == 0
    out, err = capsys.readouterr()
    assert "2 runs merged" in out
    assert err.startswith("sixtysix: warning: --json OUT is deprecated") and err.count("\n") == 1
    assert read(old) == printed


def test_a_run_given_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = arena(tmp_path, 4, "heuristic", "random")
    assert main(["report", str(path), str(path)]) == 2
    assert "again (the same seed used twice?)" in capsys.readouterr().err


def test_runs_of_other_bots_or_rules_do_not_merge(tmp_path: Path) -> None:
    a = load_run(read(arena(tmp_path, 5, "heuristic", "random")), "a")
    b = load_run(read(arena(tmp_path, 6, "random", "heuristic")), "b")
    with pytest.raises(ValueError, match="other bots"):
        merge_runs([a, b], ["a", "b"])
    doc = read(arena(tmp_path, 7, "heuristic", "random"))
    doc["rules"] = "santase"
    with pytest.raises(ValueError, match="other rules"):
        merge_runs([a, load_run(doc, "c")], ["a", "c"])


@pytest.mark.parametrize("damage", [
    lambda d: d.update(format="something/else"),
    lambda d: d.pop("games"),
    lambda d: d["games"][0].pop("score"),
    lambda d: d["games"][0].update(board=99),
    lambda d: d["games"][0].update(specs=["random", "random"]),
    lambda d: d.update(games=[]),
])
def test_a_damaged_run_is_refused_with_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                damage: Any) -> None:
    path = arena(tmp_path, 8, "heuristic", "random", deals=2)
    doc = read(path)
    damage(doc)
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sixtysix: error: ") and str(path) in err and "Traceback" not in err


def test_a_file_that_is_not_json_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    assert main(["report", str(path)]) == 2
    assert "is not JSON" in capsys.readouterr().err
