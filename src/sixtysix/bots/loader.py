"""Bots from the user's own code: specs of the form ``TARGET:ClassName[:options]``.

``TARGET`` is a Python file (``mybots/greedy.py``) or an importable module
(``mypackage.bots``); ``ClassName`` is a class in it whose instances are bots
(after a module, a name starting with a capital letter, which tells
``mypackage.bots:Greedy`` from a built-in bot's options; after a file, any
name); ``options`` are ``key=value`` pairs, as for the built-in bots, passed to
the class, and checked against what it takes (a wrong one is refused naming
those it has). The class gets ``seed`` too when it takes one.

Loading a spec runs the named code, as ``python FILE`` would: such specs are
for the command line and the library, where the user names his own code;
the game server only accepts its fixed computer levels.

>>> is_class_spec("mybots/greedy.py:GreedyBot"), is_class_spec("pimc:worlds=64")
(True, False)
>>> load_bot("sixtysix.bots.random_bot:RandomBot", seed=3).name
'random'
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from sixtysix.bots.spec import check_options, parse_options
from sixtysix.errors import ParseError
from sixtysix.game.player import Bot

__all__ = ["is_class_spec", "load_bot"]


def _is_file(target: str) -> bool:
    return target.endswith(".py") or "/" in target or "\\" in target


def is_class_spec(spec: str) -> bool:
    """Whether ``spec`` names a class (``TARGET:ClassName...``) rather than a built-in bot:
    a Python file with anything after it, or a module and a capitalised name.

    >>> is_class_spec("mybot.py:lower"), is_class_spec("bots.greedy:Greedy"), is_class_spec("pimc:time=1")
    (True, True, False)
    """
    parts = spec.strip().split(":", 2)
    if len(parts) < 2:
        return False
    return _is_file(parts[0].strip()) or (parts[1].isidentifier() and parts[1][:1].isupper())


def _file_module(path: Path) -> ModuleType:
    """Run a Python file once per process, as a module of its own."""
    resolved = path.resolve()
    name = f"sixtysix_user_bot_{resolved.stem}_{hashlib.sha1(str(resolved).encode()).hexdigest()[:10]}"
    if name in sys.modules:
        return sys.modules[name]
    if not resolved.is_file():
        raise ParseError(f"bot file {str(path)!r} not found")
    spec = importlib.util.spec_from_file_location(name, resolved)
    if spec is None or spec.loader is None:
        raise ParseError(f"bot file {str(path)!r} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ParseError(f"cannot load bot file {str(path)!r}: {type(exc).__name__}: {exc}") from None
    return module


def _module(target: str) -> ModuleType:
    if _is_file(target):
        return _file_module(Path(target))
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        raise ParseError(f"bot module {target!r} not found ({exc}); give a file path "
                         "like mybot.py:ClassName, or put the module on PYTHONPATH") from None
    except Exception as exc:
        raise ParseError(f"cannot import bot module {target!r}: {type(exc).__name__}: {exc}") from None


def load_bot(spec: str, *, seed: int | None = None) -> Bot:
    """Build a bot from ``TARGET:ClassName[:key=value,...]``."""

    target, class_name, *rest = (part.strip() for part in spec.strip().split(":", 2))
    if not class_name.isidentifier():
        raise ParseError(f"bad bot {spec!r}: expected FILE.py:Class or FILE.py:Class:key=value,...")
    options = parse_options(rest[0] if rest else "", spec)
    cls = getattr(_module(target), class_name, None)
    if not isinstance(cls, type):
        raise ParseError(f"{target!r} has no class {class_name!r}")
    check_options(cls, options, spec)
    if "seed" not in options:
        parameters = inspect.signature(cls).parameters.values()
        if any(p.name == "seed" or p.kind is p.VAR_KEYWORD for p in parameters):
            options["seed"] = seed
    try:
        bot: Any = cls(**options)
    except TypeError as exc:  # the names were checked: the class's own code failed
        raise ParseError(f"cannot start the bot {spec!r}: {type(exc).__name__}: {exc}") from None
    if not isinstance(bot, Bot):
        raise ParseError(f"{class_name} is not a bot: it needs a name and a choose(view, legal) method")
    return bot
