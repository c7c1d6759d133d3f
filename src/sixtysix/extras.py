"""How to install an optional extra: the one command every hint and page gives.

The package is not published yet; it is installed from a copy of its repository,
in that copy's folder, so a hint names the command that works there today:

>>> install_command("rl")
"pip install -e '.[rl]'"
>>> install_command("cluster", "net")
"pip install -e '.[cluster,net]'"

The extras themselves are declared once, in ``pyproject.toml``
(``[project.optional-dependencies]``); a test checks that every hint names one.
"""

from __future__ import annotations


def install_command(*extras: str) -> str:
    """The ``pip`` command that installs the extras named, run in a copy of the repository."""
    if not extras:
        raise ValueError("name at least one extra")
    return f"pip install -e '.[{','.join(extras)}]'"
