"""``sixtysix simulate``: output, JSON figures, seat swapping, errors."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from sixtysix.bots import RandomBot
from sixtysix.cli import main
from sixtysix.cli.simulate import simulate
from sixtysix.game.actions import Action
from sixtysix.game.views import View
from sixtysix.rules import Rules


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["simulate", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0 and err == ""
    assert len(out.strip().splitlines()) == 1  # one JSON object on one line
    data: dict[str, Any] = json.loads(out)
    return data


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "heuristic", "random", "--matches", "6", "--seed", "3")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("heuristic vs random: 6 matches, ")
    assert "rules classic, seed 3" in lines[0]
    assert lines[1].lstrip().startswith("A heuristic") and lines[2].lstrip().startswith("B random")
    for line in lines[1:3]:
        assert "wins" in line and "95% CI" in line and "game points/hand" in line
    assert out.rstrip().endswith("hands/s")


def test_json_figures(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "heuristic", "random", "--matches", "10", "--seed", "1")
    assert data["bots"] == ["heuristic", "random"]
    assert data["unit"] == "matches" and data["games"] == 10 and data["rules"] == "classic"
    assert sum(data["wins"]) + data["ties"] == 10 and data["ties"] == 0
    assert data["hands"] >= 10
    for side in (0, 1):
        low, high = data["win_rate_ci95"][side]
        assert low <= data["win_rate"][side] <= high
        low, high = data["game_points_per_hand_ci95"][side]
        assert low <= data["game_points_per_hand"][side] <= high
    assert data["win_rate"][0] == data["wins"][0] / 10
    assert data["hands_per_second"] > 0
    # Every hand gives its winner 1-3 game points (R9.1), plus tie bonuses (R9.2).
    per_hand = data["game_points_per_hand"]
    assert 1.0 <= (per_hand[0] + per_hand[1]) <= 3.0 + 1.0


def test_same_seed_same_figures(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_json(capsys, "random", "heuristic", "--matches", "4", "--seed", "9")
    second = run_json(capsys, "random", "heuristic", "--matches", "4", "--seed", "9")
    for data in (first, second):
        del data["seconds"], data["hands_per_second"]
    assert first == second


def test_hands_mode_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "heuristic", "medium", "--hands", "20", "--rules", "santase")
    assert data["unit"] == "hands" and data["games"] == 20 and data["hands"] == 20
    assert data["rules"] == "santase"
    assert sum(data["wins"]) + data["ties"] == 20
    status, out, _ = run(capsys, "heuristic", "random", "--hands", "3", "--rules", "classic,target=11")
    assert status == 0
    assert out.splitlines()[0] == "heuristic vs random: 3 hands (rules classic,target=11, seed 0)"


def test_default_is_matches(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "random", "random:seed=5")
    assert data["unit"] == "matches" and data["games"] == 100


class SeatRecorder(RandomBot):
    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.seats: set[int] = set()

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        self.seats.add(view.seat)
        return super().choose(view, legal)


def test_seats_are_swapped_every_other_game() -> None:
    a, b = SeatRecorder(1), SeatRecorder(2)
    summary = simulate(a, b, matches=2, seed=4)
    assert a.seats == b.seats == {0, 1}
    assert summary.games == 2 and len(summary.points[0]) == summary.hands
    # A pair of games replays the same deals: in single hands, both bots see both sides.
    c, d = SeatRecorder(3), SeatRecorder(4)
    simulate(c, d, hands=2, seed=4, rules=Rules.preset("pagat"))
    assert c.seats == d.seats == {0, 1}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nosuchbot", "random"], "unknown bot 'nosuchbot'"),
        (["heuristic:depth=3", "random"],
         "the bot 'heuristic:depth=3' has no option 'depth' (its options: seed, solve_cards)"),
        (["heuristic", "random", "--rules", "chess"], "unknown preset 'chess'"),
        (["heuristic", "random", "--rules", "classic,target=x"], "target"),
        (["heuristic", "random", "--matches", "0"], "at least 1"),
        (["heuristic", "random", "--hands", "-2"], "at least 1"),
    ],
)
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("sixtysix: error: ") and message in err


def test_matches_and_hands_are_exclusive(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "random", "random", "--matches", "2", "--hands", "2"])
    assert exc.value.code == 2
    capsys.readouterr()


def test_library_function_checks_its_arguments() -> None:
    with pytest.raises(ValueError):
        simulate(RandomBot(seed=1), RandomBot(seed=2))
    with pytest.raises(ValueError):
        simulate(RandomBot(seed=1), RandomBot(seed=2), matches=1, hands=1)
