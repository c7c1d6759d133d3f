"""The command line's errors in one form (issue 37, item 9): ``view`` of a missing file
says it as ``replay`` does, one line, no ``[Errno 2]``, status 2; ``view`` names its
argument FILE as the other commands do."""

from __future__ import annotations

from pathlib import Path

import pytest

from sixtysix.cli import build_parser, main


def test_view_and_replay_say_a_missing_file_alike(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "nosuch.json")
    lines = []
    for command in ("view", "replay"):
        assert main([command, missing]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Errno" not in err
        lines.append(err)
    assert lines[0] == lines[1] == f"sixtysix: error: cannot read {missing}: No such file or directory\n"


def test_view_names_its_argument_file() -> None:
    usage = build_parser()._subparsers._group_actions[0].choices["view"].format_usage()  # type: ignore[union-attr]
    assert usage.rstrip().endswith("FILE")
