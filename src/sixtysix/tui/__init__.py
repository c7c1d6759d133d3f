"""The full-screen terminal game (Textual): ``sixtysix play`` on a terminal.

Textual, Rich and platformdirs come with the ``tui`` extra
(``pip install -e '.[tui]'``); nothing else in the package needs them.
:func:`available` tells whether they are installed, without importing the app.
"""

from __future__ import annotations

import importlib.util

__all__ = ["available"]


def available() -> bool:
    """Whether the full-screen game can run (Textual and platformdirs are installed)."""
    return all(importlib.util.find_spec(name) is not None for name in ("textual", "platformdirs"))
