"""The options of the ISMCTS search, checked once: :class:`SearchConfig`.

One frozen value holds everything :class:`~sixtysix.bots.ismcts.ISMCTSBot` is asked
to do; the bot, its helper processes (:mod:`sixtysix.bots.parallel`) and the levels
(:mod:`sixtysix.bots.levels`) all take it. A bad value is a :class:`ValueError` that
names the option. It extends the kernel's :class:`~sixtysix.kernel.tree.TreeConfig`
(the tree's options, declared and checked there) with the bot's own, so the bot hands
it whole to :class:`sixtysix.kernel.Search`.

>>> config = SearchConfig(iterations=2700, c=0.4, bias=2.0)
>>> config.iterations, config.time, config.workers
(2700, None, 1)
>>> SearchConfig().iterations  # neither iterations nor time: a default budget
1000
>>> SearchConfig(time=0.5).iterations is None
True
>>> config.replace(workers=2).workers
2
>>> SearchConfig(c="abc")
Traceback (most recent call last):
...
ValueError: c must be a number, not 'abc'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sixtysix.bots.net_bot import load_network
from sixtysix.errors import ParseError
from sixtysix.kernel.tree import TreeConfig, at_least, check_flags, check_reals

if TYPE_CHECKING:
    from sixtysix.search.net import Network

__all__ = ["DEFAULT_ITERATIONS", "SearchConfig", "check_names"]

#: Iterations per decision when neither ``iterations`` nor ``time`` is given.
DEFAULT_ITERATIONS = 1000


@dataclass(frozen=True, kw_only=True)
class SearchConfig(TreeConfig):
    """The ISMCTS search's options (see :mod:`sixtysix.bots.ismcts` for what each does).

    The tree's options are the kernel's (:class:`~sixtysix.kernel.tree.TreeConfig`):
    ``c`` (the UCB1 exploration constant on rewards in [-1, 1]), ``epsilon`` (the share
    of random card choices in playouts), ``bias`` (progressive bias toward the playout
    policy's action; off at 0), ``settle`` and ``tolerance`` (stop once the choice is
    settled; off at 0), ``net_prior`` and ``cards_only`` (below). The bot's own: the
    budget, ``iterations`` and ``time`` (seconds per decision), whichever ends first
    (:data:`DEFAULT_ITERATIONS` when neither is given); ``match`` (play for the match
    when the view carries its score). ``workers``: processes searching each decision. ``network`` (a
    :class:`~sixtysix.search.net.Network`, or a weights file or ``shipped``, loaded when the
    config is made) with ``net_prior`` (its policy as a PUCT prior at the root; off at
    0). The close check (:mod:`sixtysix.bots.endgame`): ``endgame_close`` (a close the
    search chose, checked by αμ) with ``endgame_moves``, ``endgame_worlds`` and
    ``endgame_nodes``. ``cards_only``: the tree holds card plays only, the playout
    policy's fixed part taking the rest (declaring, drawing, the exchange; nobody closes),
    and the tree going on after the stock is closed: the search of ``santase-ismcts``.

    >>> SearchConfig(workers=0)
    Traceback (most recent call last):
    ...
    ValueError: workers must be at least 1, not 0
    """

    iterations: int | None = None
    time: float | None = None
    match: bool = True
    workers: int = 1
    network: Network | None = None
    endgame_moves: int = 3
    endgame_worlds: int = 40
    endgame_nodes: int = 20_000
    endgame_close: bool = False

    def __post_init__(self) -> None:
        if self.iterations is None and self.time is None:
            object.__setattr__(self, "iterations", DEFAULT_ITERATIONS)
        if self.network is not None:
            object.__setattr__(self, "network", load_network(self.network))
        self._check_numbers()
        super().__post_init__()  # the tree's options
        self._check_budget()
        self._check_network()
        self._check_endgame()

    def replace(self, **changes: Any) -> SearchConfig:
        """A copy with ``changes`` (checked as a new config is; a name it does not have
        is refused naming those it has, :func:`check_names`)."""
        check_names(changes)
        return dataclasses.replace(self, **changes)

    def _check_numbers(self) -> None:
        """Each number a number (a spec's ``c=abc`` names the option, no Python in sight)."""
        for name in _WHOLE:
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"{name} must be a whole number, not {value!r}")
        check_flags(self, ("match", "endgame_close"))
        check_reals(self, _REAL)

    def _check_budget(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.time is not None and not self.time > 0:
            raise ValueError(f"time must be positive, not {self.time}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, not {self.workers}")

    def _check_network(self) -> None:
        if self.network is None and self.net_prior:
            raise ValueError("net_prior needs a network: network=FILE.npz (or network=shipped)")

    def _check_endgame(self) -> None:
        at_least("endgame_moves", self.endgame_moves, 1)
        at_least("endgame_worlds", self.endgame_worlds, 1)
        at_least("endgame_nodes", self.endgame_nodes, 1)


def check_names(options: Mapping[str, object]) -> None:
    """Refuse an option the search does not have, in one line naming those it has.

    >>> check_names({"c": 0.4, "anchor": "heuristic"})
    Traceback (most recent call last):
    ...
    sixtysix.errors.ParseError: the search has no option 'anchor' (its options: iterations, time, match, ...)
    """
    # The bot's own options first (the budget), then the tree's.
    tree = [field.name for field in dataclasses.fields(TreeConfig)]
    names = [field.name for field in dataclasses.fields(SearchConfig) if field.name not in tree] + tree
    unknown = sorted(set(options) - set(names))
    if unknown:
        raise ParseError(f"the search has no option {unknown[0]!r} (its options: {', '.join(names)})")


#: The options that are whole numbers, and those that are any number.
_WHOLE = ("iterations", "workers", "endgame_moves", "endgame_worlds", "endgame_nodes")
_REAL = ("time",)

