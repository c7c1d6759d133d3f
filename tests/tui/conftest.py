"""Fixtures for the terminal game's tests: every test gets its own data directory."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh data directory (records, settings, statistics) for each test."""
    path = tmp_path / "data"
    monkeypatch.setenv("SIXTYSIX_DATA_DIR", str(path))
    return path
