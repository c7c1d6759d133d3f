"""``sixtysix serve``: its options and the default database (issue 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import need_module

need_module("fastapi", "the web extra")

from sixtysix.cli import main  # noqa: E402
from sixtysix.server import default_database_url  # noqa: E402


def test_serve_is_a_command_with_a_database_option(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "--database-url" in out and "--port" in out and "--host" in out


@pytest.mark.parametrize("argv", [["--port", "0"], ["--port", "70000"], ["--message-rate", "0"],
                                  ["--shard", "-1"], ["--lease", "0"], ["--stop-wait", "-1"],
                                  ["--stop-wait", "7200"]])
def test_bad_options_are_refused_with_a_message(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("sixtysix: error:") and "Traceback" not in err


def test_the_default_database_is_a_sqlite_file_in_the_data_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SIXTYSIX_DATABASE_URL", raising=False)
    monkeypatch.delenv("SIXTYSIX_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_database_url()
    assert url == f"sqlite:///{tmp_path / 'sixtysix' / 'games.db'}"
    assert (tmp_path / "sixtysix").is_dir()
    # The same folder as the terminal game's, also when the environment names it.
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(tmp_path / "portable"))
    assert default_database_url() == f"sqlite:///{tmp_path / 'portable' / 'games.db'}"
    monkeypatch.setenv("SIXTYSIX_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert default_database_url() == "postgresql+psycopg://u@h/db"
