"""The computer opponents a server offers: our levels, and the operator's engines.

An engine is an external program speaking the bot protocol (docs/protocol.md),
named by the operator with ``sixtysix serve --engine NAME=COMMAND``. Web users
pick an opponent by name only: the commands come from the operator, never
from a request.

>>> opponents = Opponents({"mybot": "sh mybot.sh"})
>>> opponents.names
('random', 'easy', 'medium', 'net', 'hard', 'expert', 'mybot')
>>> opponents.spec("hard"), opponents.spec("mybot")
('hard:workers=1', 'engine:sh mybot.sh')
>>> parse_engine("fast=cmd='python mybot.py',time=0.5")
('fast', "cmd='python mybot.py',time=0.5")
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable, Mapping
from typing import Any

from sixtysix.bots import make_bot
from sixtysix.errors import ParseError

__all__ = ["COMPUTER_LEVELS", "DEFAULT_LEVEL", "SEARCH_LEVELS", "EngineOptionError", "Opponents",
           "parse_engine"]

#: The computer levels a game may be played against (see :mod:`sixtysix.bots.levels`), and
#: ``net``, the learned player (the shipped network alone, :class:`sixtysix.bots.NetBot`),
#: in the order of their ratings (``level_ratings.json``).
COMPUTER_LEVELS = ("random", "easy", "medium", "net", "hard", "expert")
#: Levels that search (and take a ``workers`` option).
SEARCH_LEVELS = ("hard", "expert")
#: The level of a game that names none.
DEFAULT_LEVEL = "medium"

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")


class EngineOptionError(ValueError):
    """A wrong ``--engine NAME=COMMAND``: the message says what is wrong."""


def parse_engine(text: str) -> tuple[str, str]:
    """The name and the command of ``NAME=COMMAND`` (checked by :class:`Opponents`)."""
    name, sep, command = text.partition("=")
    if not sep or not name.strip() or not command.strip():
        raise EngineOptionError(f"--engine {text!r}: expected NAME=COMMAND, e.g. mybot=\"python mybot.py\"")
    return name.strip(), command.strip()


class Opponents:
    """The levels, then the engines in the order given (``name -> command``).

    Every engine is checked when this is built: a name of letters, digits,
    ``_ . -`` that is no level, and a command that ``make_bot("engine:" + command)``
    accepts and whose program exists. Raises :class:`EngineOptionError`.
    """

    def __init__(self, engines: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        self.engines: dict[str, str] = {}
        pairs = engines.items() if isinstance(engines, Mapping) else engines
        for name, command in pairs:
            if any(other.lower() == name.lower() for other in self.engines):
                raise EngineOptionError(f"--engine {name}: the name is given twice")
            _check_engine(name, command)
            self.engines[name] = command
        self.names: tuple[str, ...] = COMPUTER_LEVELS + tuple(self.engines)

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def is_engine(self, name: str) -> bool:
        return name in self.engines

    def spec(self, name: str) -> str:
        """The bot spec for ``make_bot`` of a known opponent."""
        if name in self.engines:
            return "engine:" + self.engines[name]
        if name not in COMPUTER_LEVELS:
            raise KeyError(name)
        # The server plays many games at once: its search bots stay on one core
        # each instead of starting a helper process per game.
        return f"{name}:workers=1" if name in SEARCH_LEVELS else name

    def to_json(self) -> dict[str, Any]:
        """What the lobby offers (``GET /api/opponents``): names only, never commands."""
        return {"default": DEFAULT_LEVEL,
                "opponents": [{"name": n, "kind": "engine" if n in self.engines else "level"}
                              for n in self.names]}


def _check_engine(name: str, command: str) -> None:
    where = f"--engine {name}"
    if not _NAME.fullmatch(name):
        raise EngineOptionError(f"{where}: a name is 1 to 32 letters, digits, '_', '.' or '-', "
                                f"starting with a letter or digit")
    if name.lower() in COMPUTER_LEVELS:
        raise EngineOptionError(f"{where}: {name!r} is a computer level; give the engine another name")
    try:
        bot = make_bot("engine:" + command)
    except (ParseError, ValueError) as exc:
        raise EngineOptionError(f"{where}: {exc}") from None
    program = getattr(bot, "command", [""])[0]
    if shutil.which(program) is None:
        raise EngineOptionError(f"{where}: no program {program!r} found to run")
