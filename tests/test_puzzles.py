"""Puzzles (issue 38, item 1): the puzzle's JSON, the verifier against plain minimax over
every world, wrong puzzles rejected, the miner resumable and the same for any number of
processes, and the command line's errors in one line with status 2."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from pathlib import Path

import pytest

from sixtysix import Action, Hand
from sixtysix.cli import main
from sixtysix.game.worlds import enumerate_worlds
from sixtysix.puzzles import (
    InvalidPuzzleError,
    Kind,
    Puzzle,
    Theme,
    assess,
    check,
    dumps,
    loads,
)
from sixtysix.puzzles.mine import Miner, mine
from sixtysix.puzzles.verify import principal_line
from sixtysix.search.solver import Solver

SAMPLE = Path(__file__).parent / "puzzles" / "sample.jsonl"


def sample() -> list[Puzzle]:
    return [loads(line) for line in SAMPLE.read_text(encoding="utf-8").splitlines() if line.strip()]


# An oracle that shares nothing with the verifier but the worlds ------------------------
def minimax(hand: Hand, memo: dict[tuple[int, ...], int] | None = None) -> int:
    """Plain minimax over push and pop, remembering positions by their key: seat 0's game
    points (as tests/test_solver.py, with a memo so that a stock of two is quick)."""
    if hand.is_over():
        result = hand.result()
        assert result is not None
        if result.winner is None:
            return 0
        return result.game_points if result.winner == 0 else -result.game_points
    memo = {} if memo is None else memo
    key = hand.key()
    if key not in memo:
        values = []
        for action in hand.legal_actions():
            hand.push(action)
            values.append(minimax(hand, memo))
            hand.pop()
        memo[key] = max(values) if hand.to_act == 0 else min(values)
    return memo[key]


def oracle(position: Hand) -> dict[Action, list[int]]:
    """Each legal action's game points for the player to act, one per world, by minimax."""
    seat = position.to_act
    assert seat is not None
    sign = 1 if seat == 0 else -1
    out: dict[Action, list[int]] = {a: [] for a in position.legal_actions()}
    memo: dict[tuple[int, ...], int] = {}
    for world in enumerate_worlds(position.view(seat), None):
        for action in out:
            world.push(action)
            out[action].append(sign * minimax(world, memo))
            world.pop()
    return out


def only_best(values: dict[Action, list[int]]) -> tuple[Action, int] | None:
    """The action better than every other in every world, and by how much at least."""
    for action, mine_ in values.items():
        gaps = [mine_[w] - max(v[w] for a, v in values.items() if a != action) for w in range(len(mine_))]
        if len(values) > 1 and min(gaps) > 0:
            return action, min(gaps)
    return None


def small_endings(seed: int, count: int, *, close: bool, cards: int = 3) -> list[Hand]:
    """Positions of random hands with at most ``cards`` cards a hand, the stock exhausted or
    (``close``) closed with most of it unseen, so that plain minimax is quick."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        hand = Hand.random(seed=rng.randrange(10**9), dealer=rng.randrange(2))
        while not hand.is_over() and (hand.stock_open or hand.cards_mask(0).bit_count() > cards
                                      or hand.cards_mask(1).bit_count() > cards):
            legal = hand.legal_actions()
            close_now = [a for a in legal if str(a) == "C"] if close and hand.stock_size <= 8 else []
            plain = [a for a in legal if not a.is_declaration] or legal
            hand.push(close_now[0] if close_now else rng.choice(plain))
        if not hand.is_over() and len(hand.legal_actions()) > 1:
            found.append(hand)
    return found


@pytest.mark.parametrize("close", [False, True], ids=["exhausted", "closed"])
def test_assess_agrees_with_minimax_in_every_world(close: bool) -> None:
    for position in small_endings(38 + close, 12, close=close):
        table = assess(position)
        truth = oracle(position)
        assert table.kind is (Kind.OPEN if len(next(iter(truth.values()))) == 1 else Kind.HIDDEN)
        assert [list(col) for col in zip(*table.rows, strict=True)] == [truth[a] for a in table.actions]
        answer = only_best(truth)
        best = table.best()
        assert (best, table.margin(best) if best else None) == (answer or (None, None))


# The sample file -----------------------------------------------------------------------
def test_every_puzzle_of_the_sample_verifies() -> None:
    puzzles = sample()
    assert len(puzzles) >= 10
    assert {p.kind for p in puzzles} == set(Kind)
    for puzzle in puzzles:
        assert check(puzzle) == [], puzzle.id


def confirmed(puzzle: Puzzle) -> bool:
    """Whether minimax over every world finds the puzzle's first action, margin and value."""
    truth = oracle(puzzle.position())
    return only_best(truth) == (puzzle.first, puzzle.margin) and min(truth[puzzle.first]) == puzzle.value


def test_minimax_over_every_world_confirms_the_open_and_the_smallest_hidden_puzzles() -> None:
    chosen = [p for p in sample() if p.kind is Kind.OPEN or p.worlds <= 5 or not p.position().stock_open]
    assert sum(p.kind is Kind.HIDDEN for p in chosen) >= 2
    assert all(confirmed(p) for p in chosen)


@pytest.mark.slow
def test_minimax_over_every_world_confirms_the_hidden_puzzles_of_a_stock_of_two() -> None:
    chosen = [p for p in sample() if p.kind is Kind.HIDDEN and p.position().stock_size == 2]
    assert len(chosen) >= 5
    assert all(confirmed(p) for p in chosen)


def test_a_puzzle_round_trips_through_its_json() -> None:
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        puzzle = loads(line)
        assert json.loads(dumps(puzzle)) == json.loads(line)
        assert loads(dumps(puzzle)) == puzzle
    kept = json.loads(line)
    kept["x-note"] = {"by": "a reader"}
    assert json.loads(dumps(loads(json.dumps(kept))))["x-note"] == {"by": "a reader"}


@pytest.mark.parametrize(("change", "message"), [
    ({"margin": 5}, "margin"),
    ({"value": -3}, "value"),
    ({"worlds": 7}, "worlds"),
    ({"themes": ["schwarz"]}, "themes"),
    ({"id": "000000000000"}, "id"),
])
def test_a_wrong_claim_is_rejected(change: dict[str, object], message: str) -> None:
    obj = json.loads(dumps(sample()[0]))
    obj.update(change)
    problems = check(loads(json.dumps(obj)))
    assert len(problems) == 1 and problems[0].startswith(message), problems


def test_another_first_action_or_a_poor_line_is_rejected() -> None:
    for puzzle in sample():
        position = puzzle.position()
        other = next(a for a in position.legal_actions() if a != puzzle.first)
        wrong = dataclasses.replace(puzzle, solution=(other, *puzzle.solution[1:]))
        assert any(p.startswith(f"solution: {other} is not the only best") for p in check(wrong))
        short = dataclasses.replace(puzzle, solution=puzzle.solution[:1])
        if len(puzzle.solution) > 1:
            assert "solution: the line stops before the end of the hand" in check(short)


def test_a_line_with_a_reply_that_is_not_best_is_rejected() -> None:
    solver = Solver()
    for puzzle in sample():
        after = puzzle.position()
        after.push(puzzle.first)
        if after.is_over():
            continue
        sign = 1 if after.to_act == 0 else -1
        value = sign * solver.kernel.value(after.kernel)
        for reply in after.legal_actions():
            child = after.copy()
            child.push(reply)
            worth = child.kernel.value() if child.is_over() else solver.kernel.value(child.kernel)
            if sign * worth < value:
                poor = dataclasses.replace(puzzle, solution=(puzzle.first, *principal_line(after, reply)))
                assert f"solution: action 2 ({reply}) is not best for its player" in check(poor)
                return
    pytest.fail("no sample puzzle has a reply that is not best")


def test_text_that_is_not_a_puzzle_is_refused_with_the_field_named() -> None:
    line = dumps(sample()[0])
    for change, words in [({"format": "x"}, "format"), ({"kind": "closed"}, "kind"),
                          ({"solution": ["10H"]}, "solution: write TH"), ({"solution": []}, "solution"),
                          ({"themes": ["squeeze"]}, "themes"), ({"record": {"format": "x"}}, "record")]:
        obj = json.loads(line)
        obj.update(change)
        with pytest.raises(InvalidPuzzleError, match=words):
            loads(json.dumps(obj))
    with pytest.raises(InvalidPuzzleError, match="not valid JSON"):
        loads("{")


# The miner -------------------------------------------------------------------------------
@pytest.mark.one_pass  # both kernels are compared in test_kernel_diff; mining is slow on the pure one
def test_mined_puzzles_verify_fool_a_probe_and_are_the_same_for_two_processes() -> None:
    one = list(itertools.islice(mine(0), 6))
    two = list(itertools.islice(mine(0, jobs=2), 6))
    assert one == two
    for puzzle in one:
        assert puzzle.missed_by and check(puzzle) == []
        view_actions = puzzle.position().legal_actions()
        assert puzzle.first in view_actions and len(view_actions) > 1


def test_table_rules_games_are_mined_every_tenth_seed() -> None:
    miner = Miner()
    assert [miner.rules_for(s).enforce_follow for s in range(10)] == [True] * 9 + [False]


# The command line ------------------------------------------------------------------------
@pytest.mark.one_pass  # both kernels are compared in test_kernel_diff; mining is slow on the pure one
def test_mine_appends_and_resumes_where_it_stopped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.jsonl"
    assert main(["puzzles", "mine", "--count", "2", "--out", str(out)]) == 0
    first = out.read_text().splitlines()
    assert len(first) == 2 and "2/2 seed" in capsys.readouterr().err
    assert main(["puzzles", "mine", "--count", "4", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[:2] == first and len(lines) == 4 and len({loads(x).id for x in lines}) == 4
    whole = tmp_path / "whole.jsonl"
    assert main(["puzzles", "mine", "--count", "4", "--out", str(whole)]) == 0
    assert whole.read_text().splitlines() == lines
    assert main(["puzzles", "mine", "--count", "3", "--out", str(out)]) == 0
    assert "holds 4 puzzles already" in capsys.readouterr().err


def test_verify_prints_one_line_per_bad_puzzle_and_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = SAMPLE.read_text().splitlines()
    bad = json.loads(good[0])
    bad["margin"] = 6
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join([good[1], json.dumps(bad), "not json", good[2]]) + "\n")
    assert main(["puzzles", "verify", str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.splitlines()
    assert len(err) == 2
    assert err[0].startswith(f"sixtysix: error: {path}, line 2 ({bad['id']}): margin")
    assert err[1].startswith(f"sixtysix: error: {path}, line 3: not valid JSON")
    assert captured.out == "2 puzzles verified, 2 wrong\n"
    assert main(["puzzles", "verify", str(SAMPLE)]) == 0


@pytest.mark.parametrize("argv", [
    ["puzzles", "verify", "nosuch.jsonl"],
    ["puzzles", "mine", "--count", "0"],
    ["puzzles", "mine", "--count", "1", "--jobs", "0"],
    ["puzzles", "mine", "--count", "1", "--margin", "9"],
    ["puzzles", "mine", "--count", "1", "--rules", "nosuch"],
])
def test_the_command_lines_errors_are_one_line_and_status_2(
        argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("sixtysix: error: ") and "Errno" not in err


def test_mine_refuses_a_file_that_is_not_puzzles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text("{}\n")
    assert main(["puzzles", "mine", "--count", "1", "--out", str(path)]) == 2
    assert capsys.readouterr().err == f"sixtysix: error: {path}, line 1: format must be " \
                                      "'sixtysix-puzzle/1', not None\n"


def test_themes_are_found_in_the_sample() -> None:
    found = {t for p in sample() for t in p.themes}
    assert found >= {Theme.DECLARE, Theme.CLOSE, Theme.LAST_TRUMP, Theme.TIE, Theme.DONT_CLOSE}
