"""The bot protocol: engines in any language play over standard input and output.

Like UCI for chess: the host (our arena, ``sixtysix play``) runs the engine
program and sends it one line per message; the engine answers ``go`` with
``action ACTION``. The specification is docs/protocol.md.

* :mod:`~sixtysix.protocol.messages`: every message, with its parse/format pair;
* :mod:`~sixtysix.protocol.client`: the host's side, asyncio (:class:`AsyncEngine`)
  and synchronous (:class:`Engine`);
* :mod:`~sixtysix.protocol.bot`: :class:`EngineBot`, an engine as one of our bots
  (the spec ``engine:"python mybot.py"``);
* :mod:`~sixtysix.protocol.engine`: :func:`serve`, any of our bots as an engine
  (``sixtysix engine BOT``).

Standard library only.
"""

from sixtysix.protocol.bot import EngineBot, split_command
from sixtysix.protocol.client import (
    AsyncEngine,
    Engine,
    EngineBlocked,
    EngineDied,
    EngineError,
    EngineFlooded,
    EngineTimeout,
    IllegalReply,
)
from sixtysix.protocol.engine import serve
from sixtysix.protocol.messages import NAME, VERSION, ProtocolError, parse

__all__ = [
    "NAME",
    "VERSION",
    "AsyncEngine",
    "Engine",
    "EngineBlocked",
    "EngineBot",
    "EngineDied",
    "EngineError",
    "EngineFlooded",
    "EngineTimeout",
    "IllegalReply",
    "ProtocolError",
    "parse",
    "serve",
    "split_command",
]
