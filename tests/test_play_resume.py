"""``sixtysix play --plain --resume FILE`` (issue 37, item 1): a match stopped mid-hand
goes on from its record, the same hand, the same cards, the same deals to come; and the
question before closing in line mode (item 2)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from sixtysix.bots import make_bot
from sixtysix.cli import main
from sixtysix.cli.play import LineUI
from sixtysix.game.actions import Action
from sixtysix.game.record import MatchRecord, MatchReplay, load, replay
from sixtysix.play.session import PlaySession
from sixtysix.present.text.style import Style


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str],
         answers: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    status = main(["play", "--plain", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_stopped_match_goes_on_from_its_record(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    status, out, _err = play(monkeypatch, capsys, ["--seed", "3", "--opponent", "random", "--name", "Ann",
                                                   "--save", str(path)], "1\n1\n1\nquit\n")
    assert status == 0 and "You stopped the game" in out
    stopped = load(str(path))
    assert isinstance(stopped, MatchRecord)
    left = replay(stopped)
    assert isinstance(left, MatchReplay) and not left.finished
    actions = sum(len(hand.actions) for hand in stopped.hands)
    # Going on: the first answer is the next action of the same hand.
    status, out, err = play(monkeypatch, capsys, ["--resume", str(path)], "1\nquit\n")
    assert status == 0, err
    assert f"You continue the match saved in {path}" in out and "You stopped the game" in out
    after = load(str(path))
    assert isinstance(after, MatchRecord)
    assert after.hands[:len(stopped.hands) - 1] == stopped.hands[:-1]
    assert after.hands[len(stopped.hands) - 1].deck == stopped.hands[-1].deck
    assert sum(len(hand.actions) for hand in after.hands) > actions
    assert after.extra["players"] == ["Ann", "computer (random)"] and after.extra["seed"] == 3


def test_resume_refuses_a_finished_match_and_a_missing_one(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(tmp_path / "data"))
    status, _out, err = play(monkeypatch, capsys, ["--resume"], "")
    assert status == 2 and err.startswith("sixtysix: error: there is no unfinished match to continue")
    path = tmp_path / "done.json"
    play(monkeypatch, capsys, ["--seed", "7", "--opponent", "random", "--save", str(path)], "1\n" * 2000)
    status, _out, err = play(monkeypatch, capsys, ["--resume", str(path)], "")
    assert status == 2 and "holds no unfinished match" in err and err.count("\n") == 1


def test_line_mode_asks_before_closing_when_a_person_types() -> None:
    session = PlaySession(make_bot("medium", seed=1), seed=0)
    out = io.StringIO()
    ui = LineUI(session, stdin=io.StringIO("c\nn\nc\ny\nquit\n"), stdout=out, style=Style(), confirm=True)
    ui.run()
    story = out.getvalue()
    assert story.count("Close the stock? No more cards are drawn") == 2
    assert "If you do not reach 66, your opponent scores 3 game points." in story
    view = session.view
    assert view is not None and view.closed_by == 0 and Action.parse("C") not in view.legal


class Interrupting(io.StringIO):
    """Input that is interrupted (Ctrl-C) at the first question."""

    def readline(self, size: int | None = -1) -> str:
        raise KeyboardInterrupt


def test_ctrl_c_and_ctrl_d_both_say_where_the_match_stopped(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", Interrupting())
    status = main(["play", "--plain", "--seed", "3", "--save", str(path)])
    out = capsys.readouterr().out
    assert status == 130
    assert "Interrupted: the match stops here (You 0, Computer 0)." in out
    assert isinstance(load(str(path)), MatchRecord)  # saved all the same
    status, out, _err = play(monkeypatch, capsys, ["--seed", "3"], "")
    assert status == 0 and "End of input: the match stops here (You 0, Computer 0)." in out
