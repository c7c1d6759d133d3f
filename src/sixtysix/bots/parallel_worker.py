"""A helper process of :class:`sixtysix.bots.parallel.SearchPool`: an ISMCTS bot that
answers root-statistics requests over its standard input and output. A module of its
own so that the pool (which the ISMCTS bot uses) does not import the bot back."""

from __future__ import annotations

import random
from typing import IO

from sixtysix.bots.ismcts import ISMCTSBot
from sixtysix.bots.parallel import _receive, _send

__all__ = ["serve"]


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> None:
    """A helper's loop: the bot's :class:`~sixtysix.bots.search_config.SearchConfig` and
    seed first, then ``(view, until)`` requests, answered with root statistics, until end
    of input or ``None``."""
    config, seed = _receive(stdin)
    bot = ISMCTSBot(config=config.replace(workers=1), rng=random.Random(seed))
    while True:
        try:
            request = _receive(stdin)
        except EOFError:
            return
        if request is None:
            return
        view, until = request
        _send(stdout, bot.root_stats(view, until))
