"""The terminal game's tests need Textual: skipped without it, except in CI where
a missing component is a failure."""

from __future__ import annotations

import importlib
import os

import pytest


def need_tui() -> None:
    """Skip the calling test module when Textual or platformdirs is missing (fail in CI)."""
    for module in ("textual", "platformdirs"):
        try:
            importlib.import_module(module)
        except ImportError:
            if os.environ.get("CI") == "true":
                raise
            pytest.skip(f"{module} is not installed (pip install -e '.[test]')", allow_module_level=True)
