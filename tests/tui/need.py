"""The terminal game's tests need Textual: skipped without it, except in CI where
a missing component is a failure."""

from __future__ import annotations

from helpers import need_module


def need_tui() -> None:
    """Skip the calling test module when Textual or platformdirs is missing (fail in CI)."""
    for module in ("textual", "platformdirs"):
        need_module(module)
