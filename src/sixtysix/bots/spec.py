"""Bot specs: ``name:key=value,...`` as the command line and the arena take them,
and the check of a spec's options against what the bot takes (:func:`check_options`),
so that a wrong option is refused in one line naming those there are.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sixtysix.errors import ParseError

__all__ = ["check_options", "parse_options", "parse_spec"]

#: Parameters a factory takes that a spec cannot give (objects, not text).
_NOT_OPTIONS = frozenset({"self", "rng", "config"})


def _split_options(rest: str) -> list[str]:
    """Split ``key=value,...`` at the commas outside quotes (a quoted value keeps them)."""
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    for char in rest:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``name:key=value,...`` into the name and typed options.

    >>> parse_spec("pimc:worlds=64,time=0.5")
    ('pimc', {'worlds': 64, 'time': 0.5})

    An engine's command is everything after ``engine:``, or the ``cmd`` option
    (quoted when it holds a comma):

    >>> parse_spec("engine:python mybot.py --level=2")
    ('engine', {'cmd': 'python mybot.py --level=2'})
    >>> parse_spec("engine:cmd='node bot.js a,b',time=0.5")
    ('engine', {'cmd': "'node bot.js a,b'", 'time': 0.5})
    """
    name, _, rest = spec.strip().partition(":")
    if name.strip().lower() == "engine" and not rest.lstrip().startswith("cmd="):
        return "engine", {"cmd": rest.strip()} if rest.strip() else {}
    return name.strip().lower(), parse_options(rest, spec)


def parse_options(rest: str, spec: str) -> dict[str, Any]:
    """The typed options of ``key=value,...`` (``rest``), part of ``spec``, which an error names.

    >>> parse_options("time=0.5,playout=random", "pimc:time=0.5,playout=random")
    {'time': 0.5, 'playout': 'random'}
    >>> parse_options("x", "mybot.py:HighCard:x")
    Traceback (most recent call last):
    ...
    sixtysix.errors.ParseError: bad bot option 'x' in 'mybot.py:HighCard:x': expected key=value
    """
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in _split_options(rest))):
        key, sep, raw = part.partition("=")
        if not sep or not key.strip():
            raise ParseError(f"bad bot option {part!r} in {spec!r}: expected key=value")
        value: Any = raw
        for convert in (int, float):
            try:
                value = convert(raw)
                break
            except ValueError:
                pass
        if key.strip() == "cmd":
            value = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        options[key.strip()] = value
    return options


#: What a value of each type is called in an error.
_KINDS = {bool: "true or false", int: "a whole number", float: "a number"}


def _accepted(hint: object) -> set[type]:
    """The plain types a parameter's annotation allows (``int | None``: int and None's type)."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return {t for arg in typing.get_args(hint) for t in _accepted(arg)}
    return {hint} if isinstance(hint, type) else {object}


def _fits(value: object, accepted: set[type]) -> bool:
    if value is None or accepted & {object, str, Path}:  # not given; text of any kind; not said
        return True
    if isinstance(value, bool):
        return bool in accepted
    if isinstance(value, int) and (int in accepted or float in accepted):
        return True
    return isinstance(value, float) and float in accepted


def check_options(factory: Callable[..., object], options: Mapping[str, object], spec: str) -> None:
    """Refuse an option ``factory`` does not take (naming those it takes), a value of the
    wrong kind (``time=abc`` where a number is meant) and a required option left out.
    A factory taking any keyword (``**options``) checks the names of those itself.

    >>> def greedy(seed: int | None = None, *, depth: int = 2) -> None: ...
    >>> check_options(greedy, {"depth": 3}, "greedy:depth=3")
    >>> check_options(greedy, {"time": "abc"}, "greedy:time=abc")
    Traceback (most recent call last):
    ...
    sixtysix.errors.ParseError: the bot 'greedy:time=abc' has no option 'time' (its options: seed, depth)
    >>> check_options(greedy, {"depth": "deep"}, "greedy:depth=deep")
    Traceback (most recent call last):
    ...
    sixtysix.errors.ParseError: the option depth of the bot 'greedy:depth=deep' is a whole number, not 'deep'
    """
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return  # a built-in that keeps its signature to itself: it checks what it gets
    any_keyword = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    named = {name: p for name, p in parameters.items()
             if name not in _NOT_OPTIONS and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    for key in options:
        if key not in named and not any_keyword:
            listed = ", ".join(named) if named else "none"
            raise ParseError(f"the bot {spec!r} has no option {key!r} (its options: {listed})")
    for name, p in named.items():
        if p.default is p.empty and name not in options:
            raise ParseError(f"the bot {spec!r} needs the option {name} ({name}=...)")
    try:
        target = factory.__init__ if isinstance(factory, type) else factory  # type: ignore[misc]
        hints = typing.get_type_hints(target)
    except (NameError, TypeError, AttributeError):  # the user's own annotations may not resolve
        return
    for key, value in options.items():
        accepted = _accepted(hints.get(key, object) if key in named else object)
        if not _fits(value, accepted):
            kinds = [_KINDS[t] for t in (bool, int, float) if t in accepted]
            raise ParseError(f"the option {key} of the bot {spec!r} is {' or '.join(kinds)}, not {value!r}")
