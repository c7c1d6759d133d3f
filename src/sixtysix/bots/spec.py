"""Bot specs: ``name:key=value,...`` as the command line and the arena take them."""

from __future__ import annotations

from typing import Any

from sixtysix.errors import ParseError

__all__ = ["parse_spec"]


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
    options: dict[str, Any] = {}
    if name.strip().lower() == "engine" and not rest.lstrip().startswith("cmd="):
        return "engine", {"cmd": rest.strip()} if rest.strip() else {}
    for part in filter(None, (p.strip() for p in _split_options(rest))):
        key, sep, raw = part.partition("=")
        if not sep:
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
    return name.strip().lower(), options
