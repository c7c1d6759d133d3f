"""``sixtysix arena``: schedule, executors, report, JSON, plot, Dask, errors.

Optional components (rich, matplotlib, distributed) are needed by some
tests. Without CI set, a missing one skips those tests with the reason;
under CI (``CI=true``) it fails them, so that CI cannot pass by skipping.
"""

from __future__ import annotations

import io
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from helpers import need_module
from sixtysix.arena import (
    InlineExecutor,
    open_executor,
    play_game,
    run_games,
    schedule,
    summarize,
)
from sixtysix.arena.report import labels_for, render_rich
from sixtysix.cli import build_parser, main
from sixtysix.cli.options import DeprecatedOptionWarning
from sixtysix.cli.progress import Lines
from sixtysix.errors import ParseError

THREE = ["random", "heuristic", "random:seed=5"]


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def require(module: str) -> ModuleType:
    """Import an optional component: skip without it, except under CI, where
    a missing component is a failure."""
    return need_module(module)


def test_require_skips_locally_but_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require("sixtysix_no_such_module")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception):
        require("sixtysix_no_such_module")
    assert require("json") is json


def arena(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["arena", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def arena_json(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> dict[str, Any]:
    status, _out, err = arena(capsys, *argv, "--save", str(path))
    assert status == 0, err
    assert err == ""  # no progress lines in a short run that is not on a terminal
    data: dict[str, Any] = json.loads(path.read_text())
    return data


# -- schedule -------------------------------------------------------------------


def test_schedule_round_robin_with_swapped_seats() -> None:
    games = schedule(THREE, deals=3, seed=11)
    assert len(games) == 3 * 3 * 2
    assert sorted({(min(g.bots), max(g.bots)) for g in games}) == [(0, 1), (0, 2), (1, 2)]
    for first, second in zip(games[::2], games[1::2], strict=True):
        # The two games of a board: the same cards, the seats exchanged.
        assert (first.pair, first.board, first.swap) == (second.pair, second.board, 0)
        assert second.swap == 1
        assert second.bots == first.bots[::-1] and second.specs == first.specs[::-1]
        assert second.deal_seed == first.deal_seed
        assert [THREE[b] for b in first.bots] == list(first.specs)
    # Every pair plays the same boards (duplicate across pairs too).
    for board in range(3):
        assert len({g.deal_seed for g in games if g.board == board}) == 1
    assert len({g.deal_seed for g in games}) == 3
    # Every game has its own bot seeds.
    seeds = [s for g in games for s in g.bot_seeds]
    assert len(set(seeds)) == len(seeds)


def test_schedule_is_determined_by_the_seed() -> None:
    assert schedule(THREE, deals=4, seed=1) == schedule(THREE, deals=4, seed=1)
    other = schedule(THREE, deals=4, seed=2)
    assert {g.deal_seed for g in other}.isdisjoint(g.deal_seed for g in schedule(THREE, deals=4, seed=1))
    hands = schedule(THREE, deals=4, seed=1, hands=True)
    assert {g.unit for g in hands} == {"hand"}
    # A schedule is a prefix of a longer one: more deals only add boards.
    longer = schedule(["a", "b"], deals=6, seed=1)
    assert schedule(["a", "b"], deals=3, seed=1) == longer[:6]


def test_schedule_rejects_too_little() -> None:
    with pytest.raises(ValueError, match="at least two bots"):
        schedule(["random"], deals=1, seed=0)
    with pytest.raises(ValueError, match="at least 1"):
        schedule(["random", "random"], deals=0, seed=0)


def test_games_record_seats_and_scores() -> None:
    for game in schedule(["heuristic", "random"], deals=2, seed=4):
        result = play_game(game)
        assert result.winner in (0, 1)
        assert result.score[result.winner] >= 7  # classic target (R9.3)
        assert sum(h.scored(0) for h in result.hands) == result.score[0]
        assert sum(h.scored(1) for h in result.hands) == result.score[1]
        assert result.winner_bot == game.bots[result.winner]
    single = play_game(schedule(["heuristic", "random"], deals=1, seed=4, hands=True)[1])
    assert len(single.hands) == 1 and single.game.unit == "hand"


def test_inline_executor_reports_errors_and_order() -> None:
    games = schedule(["random", "random"], deals=3, seed=8)
    seen: list[int] = []
    with InlineExecutor() as executor:
        results = run_games(games, executor, on_done=lambda done: seen.append(len(done)))
    assert [r.game for r in results] == games and sum(seen) == len(games)
    with pytest.raises(ParseError, match="unknown bot"):
        run_games(schedule(["random", "nosuch"], deals=1, seed=0), InlineExecutor())


def test_one_and_two_jobs_give_the_same_results() -> None:
    games = schedule(THREE, deals=2, seed=6)
    with open_executor(1) as inline:
        one = [r.to_json() for r in run_games(games, inline, jobs=1)]
    with open_executor(2) as pool:
        two = [r.to_json() for r in run_games(games, pool, jobs=2)]
    assert one == two


# -- the command ------------------------------------------------------------------


@pytest.mark.slow
def test_three_bot_round_robin(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    require("matplotlib")
    out_json, out_png = tmp_path / "arena.json", tmp_path / "ratings.png"
    status, out, err = arena(capsys, *THREE, "--matches", "3", "--seed", "2", "--jobs", "1",
                             "--save", str(out_json), "--plot", str(out_png))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == ("Arena: 3 bots, 3 pairs x 3 deals x 2 seatings = 18 matches, "
                        f"{json.loads(out_json.read_text())['summary']['hands']:,} hands "
                        "(rules classic, seed 2)")
    ratings = lines[lines.index(next(x for x in lines if x.startswith("Ratings"))) + 1:][:4]
    assert ratings[0].split() == ["#", "bot", "Elo", "95%", "CI", "games", "score"]
    assert sorted(row.split()[1] for row in ratings[1:]) == sorted(THREE)
    assert all(row.split()[4] == "to" and row.split()[6] == "12" for row in ratings[1:])
    pairs_at = next(i for i, x in enumerate(lines) if x.startswith("Pairs"))
    assert lines[pairs_at + 1].split()[:3] == ["A", "B", "matches"]
    assert [row.split()[:3] for row in lines[pairs_at + 2:pairs_at + 5]] == [
        ["random", "heuristic", "6"], ["random", "random:seed=5", "6"], ["heuristic", "random:seed=5", "6"]]
    assert lines[-1].startswith("18 matches (") and lines[-1].endswith("hands/s")

    data = json.loads(out_json.read_text())
    assert data["format"] == "sixtysix-arena/1"
    assert data["bots"] == THREE and data["seed"] == 2 and data["rules"] == "classic"
    assert data["unit"] == "match" and data["deals_per_pair"] == 3
    assert len(data["games"]) == 18
    for game in data["games"]:
        assert set(game) >= {"pair", "board", "swap", "bots", "specs", "deal_seed", "bot_seeds",
                             "winner", "winner_bot", "score", "hands"}
        assert game["specs"] == [THREE[b] for b in game["bots"]]
        assert game["score"][game["winner"]] >= 7
        for seat in (0, 1):
            assert sum(h["game_points"] + h["bonus"] for h in game["hands"]
                       if h["winner"] == seat) == game["score"][seat]
    summary = data["summary"]
    assert summary["games"] == 18 and summary["hands"] == sum(len(g["hands"]) for g in data["games"])
    elos = [r["elo"] for r in summary["ratings"]]
    assert sum(elos) / 3 == pytest.approx(1500)
    for r in summary["ratings"]:
        assert r["ci95"][0] <= r["elo"] <= r["ci95"][1] and r["games"] == 12
    for pair in summary["pairs"]:
        assert pair["games"] == 6 and sum(pair["wins"]) + pair["ties"] == 6
        assert pair["boards"] == 3
        assert sum(pair["won_both"]) + pair["split"] + pair["boards_with_ties"] == 3
        low, high = pair["win_rate_ci95"][0]
        assert low <= pair["win_rate"][0] <= high
        for side in (0, 1):
            low, high = pair["game_points_per_hand_ci95"][side]
            assert low <= pair["game_points_per_hand"][side] <= high
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_results_do_not_depend_on_jobs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["heuristic", "random", "--matches", "4", "--seed", "7", "--bootstrap", "200"]
    one = arena_json(capsys, tmp_path / "one.json", *argv, "--jobs", "1")
    two = arena_json(capsys, tmp_path / "two.json", *argv, "--jobs", "2")
    assert one["games"] == two["games"]
    assert one["summary"] == two["summary"]
    assert (one["run"]["jobs"], two["run"]["jobs"]) == (1, 2)


def test_single_hands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = arena_json(capsys, tmp_path / "h.json", "random", "heuristic", "--hands", "5",
                      "--jobs", "1", "--bootstrap", "0", "--rules", "santase")
    assert data["unit"] == "hand" and data["rules"] == "santase"
    assert len(data["games"]) == 10 and all(len(g["hands"]) == 1 for g in data["games"])
    assert data["summary"]["rating_scale"]["interval"] == "Fisher information"


def test_json_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = arena(capsys, "random", "random", "--matches", "1", "--jobs", "1", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["labels"] == ["random", "random#2"] and len(data["games"]) == 2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.mark.parametrize("argv", [
    ["heuristic"],
    ["heuristic", "nosuch"],
    ["heuristic", "random:depth"],
    ["heuristic", "random", "--matches", "0"],
    ["heuristic", "random", "--hands", "0"],
    ["heuristic", "random", "--matches", "2", "--hands", "2"],
    ["heuristic", "random", "--jobs", "0"],
    ["heuristic", "random", "--bootstrap", "-1"],
    ["heuristic", "random", "--rules", "nosuch"],
    ["heuristic", "random", "--save", "no/such/dir/out.json"],
    ["heuristic", "random", "--save", "-"],
    ["heuristic", "random", "--cluster", "tcp://127.0.0.1:{port}"],
    ["heuristic", "random", "--cluster", "no-port-here"],
])
def test_bad_input_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    argv = [a.format(port=free_port()) if "{port}" in a else a for a in argv]
    status, out, err = arena(capsys, *argv)
    assert status == 2
    assert out == ""
    assert err.startswith("sixtysix: error: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(("argv", "message"), [
    (["--matches", "many"], "argument --matches: invalid int value: 'many'"),
    (["--hands", "1.5"], "argument --hands: invalid int value: '1.5'"),
    (["--seed", "1.5"], "argument --seed: invalid int value: '1.5'"),
    (["--jobs", "two"], "argument --jobs: invalid int value: 'two'"),
    (["--bootstrap", "1e3"], "argument --bootstrap: invalid int value: '1e3'"),
    (["--platform", "chess"], "argument --platform: invalid choice: 'chess'"),
])
def test_numbers_are_read_by_the_parser(capsys: pytest.CaptureFixture[str], argv: list[str],
                                        message: str) -> None:
    """As in every subcommand: what is not a number is a usage error (status 2) naming the option."""
    with pytest.raises(SystemExit) as exc:
        main(["arena", "heuristic", "random", *argv])
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


def test_the_options_are_numbers_and_switches() -> None:
    args = build_parser().parse_args(["arena", "a", "b", "--jobs", "2", "--hands", "7"])
    assert (args.bots, args.hands, args.matches, args.seed, args.jobs, args.bootstrap) == (
        ["a", "b"], 7, None, 0, 2, 1000)
    assert (args.json, args.save, args.platform) == (False, None, "sixtysix")
    args = build_parser().parse_args(["report", "run.json", "--json", "--bootstrap", "0"])
    assert (args.json, args.save, args.bootstrap) == (True, None, 0)


def test_help_shows_the_new_spellings_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    out = capsys.readouterr().out
    assert "[--hands N]" in out and "[--json]" in out and "[--save RUN.json]" in out
    assert "[--platform {sixtysix,schnapsen}]" in out and "--engine" not in out


# -- old spellings: they play the same arena and warn in one line --------------------


SAME = ["--seed", "4", "--jobs", "1", "--bootstrap", "0"]


def warnings_in(err: str) -> list[str]:
    lines = err.splitlines()
    assert all(line.startswith("sixtysix: warning: ") for line in lines), err
    return lines


def test_old_hands_switch_engine_and_json_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    new = arena_json(capsys, tmp_path / "new.json", "random", "heuristic", "--hands", "3", *SAME,
                     "--platform", "sixtysix")
    # The switch before the bots: the word after it is the first bot.
    status, out, err = arena(capsys, "--hands", "random", "heuristic", "--matches", "3", *SAME,
                             "--engine", "sixtysix", "--json", str(tmp_path / "old.json"))
    assert status == 0, err
    hands, engine, json_file = warnings_in(err)
    assert "--hands without a number is deprecated" in hands and "--hands N" in hands
    assert "--engine is deprecated here: use --platform" in engine
    assert "--json OUT is deprecated" in json_file and f"--save {tmp_path / 'old.json'}" in json_file
    assert out.startswith("Arena: 2 bots")  # the report, as before; the file besides
    old = json.loads((tmp_path / "old.json").read_text())
    assert old["games"] == new["games"] and old["summary"] == new["summary"] and old["unit"] == "hand"


def test_old_hands_switch_after_the_bots_and_json_dash(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = arena(capsys, "random", "heuristic", "--hands", "2", *SAME, "--json")
    assert status == 0 and err == ""
    new = json.loads(out)
    status, out, err = arena(capsys, "random", "heuristic", "--hands", "--matches", "2", *SAME, "--json", "-")
    assert status == 0
    assert len(warnings_in(err)) == 2 and "--json alone" in err
    old = json.loads(out)
    assert old["games"] == new["games"] and old["unit"] == "hand"


def test_old_spellings_warn_as_deprecated_option_warnings() -> None:
    parser = build_parser()
    for argv in (["arena", "a", "b", "--hands"], ["arena", "a", "b", "--engine", "sixtysix"],
                 ["arena", "a", "b", "--json", "out.json"], ["report", "r.json", "--json", "out.json"]):
        with pytest.warns(DeprecatedOptionWarning):
            parser.parse_args(argv)


def test_a_word_after_hands_among_the_bots_is_an_error_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    """``arena A --hands B C`` was refused by the old switch too (B and C left over)."""
    with pytest.raises(SystemExit) as exc:
        main(["arena", "random", "--hands", "heuristic", "random"])
    assert exc.value.code == 2
    assert "argument --hands: invalid int value: 'heuristic'" in capsys.readouterr().err


# -- display -----------------------------------------------------------------------


def test_progress_lines_do_not_spam_logs() -> None:
    log = io.StringIO()
    progress = Lines(100, "matches", log, tty=False)
    for _ in range(100):
        progress.advance(1)
    progress.stop()
    assert log.getvalue() == ""  # a quick run says nothing; a long one, a line every 30 s
    screen = io.StringIO()
    progress = Lines(10, "matches", screen, tty=True)
    for _ in range(10):
        progress.advance(1)
    progress.stop()
    assert screen.getvalue().startswith("\rarena: ") and "10/10 matches" in screen.getvalue()


def test_rich_tables() -> None:
    require("rich")
    games = schedule(THREE, deals=2, seed=3)
    summary = summarize(THREE, run_games(games, InlineExecutor()), rules="classic", seed=3,
                        unit="match", deals=2, resamples=50)
    out = io.StringIO()
    render_rich(summary, out)
    text = out.getvalue()
    for label in labels_for(THREE):
        assert label in text
    assert "Ratings" in text and "game points/hand" in text and "won both games of a deal" in text


# -- Dask --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dask_address() -> Iterator[str]:
    distributed = require("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        yield str(cluster.scheduler_address)


def test_arena_on_a_dask_cluster(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                 dask_address: str) -> None:
    argv = [*THREE, "--matches", "2", "--seed", "5", "--bootstrap", "100"]
    here = arena_json(capsys, tmp_path / "here.json", *argv, "--jobs", "1")
    status, out, err = arena(capsys, *argv, "--cluster", dask_address, "--save", str(tmp_path / "dask.json"))
    assert status == 0, err
    assert f"on the Dask cluster at {dask_address}" in out.splitlines()[-1]
    there = json.loads((tmp_path / "dask.json").read_text())
    assert there["games"] == here["games"] and there["summary"] == here["summary"]
    assert there["run"]["cluster"] == dask_address


def test_local_dask_cluster(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    require("distributed")
    argv = ["heuristic", "random", "--matches", "2", "--seed", "1", "--bootstrap", "50"]
    here = arena_json(capsys, tmp_path / "here.json", *argv, "--jobs", "1")
    status, out, err = arena(capsys, *argv, "--cluster", "local", "--jobs", "1",
                             "--save", str(tmp_path / "local.json"))
    assert status == 0, err
    assert "on a local Dask cluster of 1 worker" in out.splitlines()[-1]
    assert json.loads((tmp_path / "local.json").read_text())["games"] == here["games"]


def test_default_jobs_leave_each_multi_core_bot_its_cores(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 4)
    status, out, _ = arena(capsys, "ismcts:iterations=20,workers=2", "random", "--hands", "1",
                           "--bootstrap", "0", "--json", "--quiet")
    assert status == 0
    assert json.loads(out)["run"]["jobs"] == 2  # four cores, two per bot
