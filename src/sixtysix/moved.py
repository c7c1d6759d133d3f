"""Old addresses of modules that moved into subpackages (December 2026), kept for a deprecation
period: importing one warns and gives the module at its new address.

The package's modules once stood side by side in ``sixtysix``; they now live in subpackages that
show the layers (``sixtysix.game``, ``sixtysix.search``, ``sixtysix.play``, ``sixtysix.measure``,
``sixtysix.present``). The names :mod:`sixtysix` itself exports did not move.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     import sixtysix.hand as old
>>> import sixtysix.game.hand as new
>>> old is new, caught[0].category.__name__
(True, 'DeprecationWarning')
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
import warnings
from collections.abc import Sequence

#: ``old address -> new address``; a module below an old package moves with it.
MOVED: dict[str, str] = {
    **{f"sixtysix.{name}": f"sixtysix.game.{name}" for name in (
        "actions", "cards", "deck", "result", "hand", "refusal", "views", "worlds", "match",
        "record", "observation", "player", "table")},
    **{f"sixtysix.{name}": f"sixtysix.search.{name}" for name in ("solver", "net")},
    "sixtysix.sampling": "sixtysix.game.worlds",
    "sixtysix.deal": "sixtysix.game.worlds",
    "sixtysix.analysis": "sixtysix.bots.analysis",
    "sixtysix.bots.base": "sixtysix.game.player",
    **{f"sixtysix.{name}": f"sixtysix.play.{name}" for name in ("runner", "session", "clock", "userdata")},
    **{f"sixtysix.{name}": f"sixtysix.measure.{name}" for name in ("stats", "glicko")},
    **{f"sixtysix.{name}": f"sixtysix.present.{name}" for name in (
        "text", "explain", "wire", "svg", "review", "lessons")},
}


def new_address(old: str) -> str | None:
    """Where the module once imported as ``old`` lives now, or None if it did not move.

    >>> new_address("sixtysix.text.words"), new_address("sixtysix.kernel")
    ('sixtysix.present.text.words', None)
    """
    for before, after in MOVED.items():
        if old == before or old.startswith(before + "."):
            return after + old[len(before):]
    return None


class MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old address and loads it as the module at the new one, with a warning."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if new_address(fullname) is None:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        new = new_address(spec.name)
        assert new is not None
        warnings.warn(f"{spec.name} moved to {new}: import it from there", DeprecationWarning,
                      stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module: types.ModuleType) -> None:
        """The module at its new address is already executed."""


def install() -> None:
    """Put the finder on ``sys.meta_path`` once."""
    if not any(isinstance(finder, MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(MovedModules())
