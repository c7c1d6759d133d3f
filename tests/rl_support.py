"""Support for the RL adapter tests: the ``rl`` extra is required in CI, optional elsewhere."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def require(module: str) -> ModuleType:
    """Import ``module``; skip the test module without it, except in CI, where that is a failure."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must provide the rl extra ({module} is missing)", pytrace=False)
        pytest.skip(f"the rl extra is not installed ({module} is missing)", allow_module_level=True)
