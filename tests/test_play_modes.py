"""Which front end ``sixtysix play`` starts: the full-screen game on a terminal, the
line mode with ``--plain``, on a pipe, or (with a notice) when Textual is missing;
and ``sixtysix view``, which needs a terminal."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

import sixtysix.tui
from helpers import need
from sixtysix.cli import main
from sixtysix.tui.options import GameOptions

EXAMPLE = Path(__file__).parent / "examples" / "0000.json"


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def on_terminal(monkeypatch: pytest.MonkeyPatch, answers: str = "quit\n") -> Terminal:
    out = Terminal()
    monkeypatch.setattr("sys.stdin", Terminal(answers))
    monkeypatch.setattr("sys.stdout", out)
    return out


def fake_full_screen(monkeypatch: pytest.MonkeyPatch) -> list[GameOptions]:
    """Replace the full-screen game by a stub that records how it was started."""
    started: list[GameOptions] = []
    import types

    stub = types.ModuleType("sixtysix.tui.run")
    stub.run_game = lambda args: started.append(args) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sixtysix.tui.run", stub)
    monkeypatch.setattr(sixtysix.tui, "available", lambda: True)
    return started


def test_a_terminal_gets_the_full_screen_game(monkeypatch: pytest.MonkeyPatch) -> None:
    started = fake_full_screen(monkeypatch)
    on_terminal(monkeypatch)
    assert main(["play", "--seed", "4", "--opponent", "easy"]) == 0
    assert len(started) == 1 and started[0].seed == 4 and started[0].opponent == "easy"
    assert isinstance(started[0], GameOptions)  # the game takes options, not a parsed command line


def test_plain_keeps_the_line_mode_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    started = fake_full_screen(monkeypatch)
    out = on_terminal(monkeypatch)
    assert main(["play", "--plain", "--seed", "4"]) == 0
    assert started == []
    assert "Choose by notation or number" in out.getvalue()


def test_a_pipe_gets_the_line_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    started = fake_full_screen(monkeypatch)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert main(["play", "--seed", "4"]) == 0
    assert started == [] and "You stopped the game" in out.getvalue()


def test_without_textual_the_line_mode_with_a_notice(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sixtysix.tui, "available", lambda: False)
    out = on_terminal(monkeypatch)
    assert main(["play", "--seed", "4"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs Textual" in err and "pip install -e '.[tui]'" in err
    assert "You stopped the game" in out.getvalue()


def test_view_needs_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["view", str(EXAMPLE)]) == 2
    assert "needs a terminal" in capsys.readouterr().err


def test_view_refuses_a_bad_record_in_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    need(sixtysix.tui.available(), "Textual is not installed")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sixtysix/1", "rules": "classic", "dealer": 0, "deck": "QD", "actions": []}')
    on_terminal(monkeypatch)
    assert main(["view", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sixtysix: error:") and err.count("\n") == 1
