"""Support for the RL adapter tests: the ``rl`` extra is required in CI, optional elsewhere."""

from __future__ import annotations

from types import ModuleType

from helpers import need_module


def require(module: str) -> ModuleType:
    """Import ``module``; skip the test module without it, except in CI, where it is a failure."""
    return need_module(module, "the rl extra")
