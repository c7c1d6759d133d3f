"""Computer players. ``make_bot("random")``, ``make_bot("heuristic", seed=1)``.

Bot specs are ``name`` or ``name:key=value,key=value`` (e.g. ``random:seed=3``);
``file.py:ClassName`` or ``module:ClassName`` loads a bot class of one's own
(:mod:`sixtysix.bots.loader`). An external engine (docs/protocol.md) is
``engine:COMMAND`` or ``engine:cmd=COMMAND,time=0.5``, the command in shell
quoting rules. A learned network without search is ``net:weights=FILE.npz``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sixtysix.bots.heuristic import HeuristicBot
from sixtysix.bots.ismcts import ISMCTSBot
from sixtysix.bots.levels import LEVELS
from sixtysix.bots.loader import is_class_spec, load_bot
from sixtysix.bots.net_bot import NetBot
from sixtysix.bots.pimc import PIMCBot
from sixtysix.bots.random_bot import RandomBot
from sixtysix.bots.santase_ismcts import SantaseISMCTSBot
from sixtysix.bots.spec import check_options, parse_spec
from sixtysix.errors import ParseError
from sixtysix.game.player import BaseBot, Bot, Event
from sixtysix.protocol.bot import EngineBot

__all__ = ["BOTS", "BaseBot", "Bot", "Event", "RandomBot", "make_bot", "parse_spec"]

def _engine(**options: Any) -> Bot:
    """An external engine (``engine:COMMAND``), its command and options checked first."""
    if not str(options.get("cmd") or "").strip():
        raise ParseError("the bot 'engine:' needs the command that starts the engine, "
                         "as in engine:python mybot.py")
    check_options(EngineBot, options, f"engine:{options['cmd']}")
    return EngineBot(**options)


#: Bot factories by name; each takes ``seed`` and keyword options.
BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "medium": HeuristicBot,
    "pimc": PIMCBot,
    "ismcts": ISMCTSBot,
    "santase-ismcts": SantaseISMCTSBot,
    "net": NetBot,
    **LEVELS,
    "engine": _engine,
}


def make_bot(spec: str, *, seed: int | None = None) -> Bot:
    """Build a bot from a spec; ``seed`` applies unless the spec gives one."""
    if is_class_spec(spec) and spec.partition(":")[0].strip().lower() not in BOTS:
        return load_bot(spec, seed=seed)
    name, options = parse_spec(spec)
    try:
        factory = BOTS[name]
    except KeyError:
        raise ParseError(f"unknown bot {name!r}: expected one of {', '.join(sorted(BOTS))}") from None
    check_options(factory, options, spec)
    options.setdefault("seed", seed)
    return factory(**options)
