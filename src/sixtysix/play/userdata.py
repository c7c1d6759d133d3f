"""Where the front ends keep the user's files: the terminal game's records,
settings and statistics, and the game server's default database.

The folder is the platform's user data directory for ``sixtysix`` (from
platformdirs, which the front ends' extras install), or the folder named by
the environment variable ``SIXTYSIX_DATA_DIR`` (tests and portable set-ups
use it).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_DIR_ENV", "data_dir"]

#: The environment variable that overrides the data directory.
DATA_DIR_ENV = "SIXTYSIX_DATA_DIR"


def data_dir() -> Path:
    """The data directory (created when missing)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        path = Path(override)
    else:
        import platformdirs

        path = Path(platformdirs.user_data_dir("sixtysix", appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path
