"""Computer players. ``make_bot("random")``, ``make_bot("heuristic", seed=1)``.

Bot specs are ``name`` or ``name:key=value,key=value`` (e.g. ``random:seed=3``);
``file.py:ClassName`` or ``module:ClassName`` loads a bot class of one's own
(:mod:`sixtysix.bots.loader`). An external engine (docs/protocol.md) is
``engine:COMMAND`` or ``engine:cmd=COMMAND,time=0.5``, the command in shell
quoting rules.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sixtysix.bots.base import BaseBot, Bot, Event
from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.bots.ismcts import ISMCTSBot
from sixtysix.bots.levels import LEVELS
from sixtysix.bots.loader import is_class_spec, load_bot
from sixtysix.bots.pimc import PIMCBot
from sixtysix.bots.random_bot import RandomBot
from sixtysix.bots.santase_ismcts import SantaseISMCTSBot
from sixtysix.errors import ParseError

__all__ = ["BOTS", "BaseBot", "Bot", "Event", "RandomBot", "make_bot", "parse_spec"]

def _engine(**options: Any) -> Bot:
    from sixtysix.protocol.bot import EngineBot  # the protocol imports the bots

    return EngineBot(**options)


#: Bot factories by name; each takes ``seed`` and keyword options.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "medium": HeuristicBot,
    "pimc": PIMCBot,
    "ismcts": ISMCTSBot,
    "santase-ismcts": SantaseISMCTSBot,
    **LEVELS,
    "engine": _engine,
}


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


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """Build a bot from a spec; ``seed`` applies unless the spec gives one."""
    if is_class_spec(spec) and spec.partition(":")[0].strip().lower() not in BOTS:
        return load_bot(spec, seed=seed)
    name, options = parse_spec(spec)
    try:
        factory = BOTS[name]
    except KeyError:
        raise ParseError(f"unknown bot {name!r}: expected one of {', '.join(sorted(BOTS))}") from None
    options.setdefault("seed", seed)
    try:
        return factory(**options)
    except TypeError as exc:
        raise ParseError(f"bad options for bot {name!r}: {exc}") from None
