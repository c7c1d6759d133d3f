"""The kernel search's options, checked once: :class:`TreeConfig`.

One frozen value holds how :class:`~sixtysix.kernel.Search` grows and values its tree;
both kernels take it whole and read it once, when a search is made, and check nothing
of it again: a bad value is refused here, as a :class:`ValueError` that names the
option. The bots' :class:`~sixtysix.bots.search_config.SearchConfig` extends it with
the bot's own options (the budget, helper processes, the network, endgames), so that a
bot's config is a tree config and each option is declared once. Standard library only.

>>> tree = TreeConfig(c=0.4, bias=2.0)
>>> tree.c, tree.epsilon, tree.cards_only
(0.4, 0.1, False)
>>> TreeConfig(epsilon=1.5)
Traceback (most recent call last):
...
ValueError: epsilon must be between 0 and 1, not 1.5
>>> TreeConfig(c="abc")
Traceback (most recent call last):
...
ValueError: c must be a number, not 'abc'
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TreeConfig", "at_least", "between", "check_flags", "check_reals"]


@dataclass(frozen=True, slots=True, kw_only=True)
class TreeConfig:
    """How the kernel's search grows and values its tree (see :class:`~sixtysix.kernel.Search`).

    ``c``: the UCB1 exploration constant, on rewards in [-1, 1]. ``epsilon``: the share
    of random card choices in playouts (between 0 and 1). ``bias``: progressive bias
    toward the playout policy's action (off at 0). ``settle`` and ``tolerance``: stop
    once the choice is settled, or hardly matters (off at 0). ``net_prior``: the weight
    of the root prior (a learned policy, given to the search with each decision) as
    PUCT uses it (off at 0). ``cards_only``: the tree holds card plays only, the
    playout policy's fixed part taking the rest (the search of ``santase-ismcts``).
    Numbers are at least 0.

    >>> from sixtysix.kernel import Search
    >>> search = Search(0, TreeConfig(c=0.4, settle=0.1), [g / 3 for g in range(-3, 4)])
    >>> search.config.settle, search.solve_cards, search.root_prior
    (0.1, -1, ())
    >>> TreeConfig(settle=-1)
    Traceback (most recent call last):
    ...
    ValueError: settle must be at least 0, not -1
    """

    c: float = 0.5
    epsilon: float = 0.1
    bias: float = 0.0
    settle: float = 0.0
    tolerance: float = 0.0
    net_prior: float = 0.0
    cards_only: bool = False

    def __post_init__(self) -> None:
        check_reals(self, ("c", "epsilon", "bias", "settle", "tolerance", "net_prior"))
        check_flags(self, ("cards_only",))
        at_least("c", self.c, 0)
        between("epsilon", self.epsilon, 0, 1)
        at_least("bias", self.bias, 0)
        at_least("settle", self.settle, 0)
        at_least("tolerance", self.tolerance, 0)
        at_least("net_prior", self.net_prior, 0)


def check_reals(config: object, names: tuple[str, ...]) -> None:
    """Each of ``config``'s options ``names`` a number or None (not a string, nor a
    truth value: a spec's ``c=abc`` names the option, no Python in sight)."""
    for name in names:
        value = getattr(config, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise ValueError(f"{name} must be a number, not {value!r}")


def check_flags(config: object, names: tuple[str, ...]) -> None:
    """Each of ``config``'s options ``names`` true or false (1 and 0 count as such)."""
    for name in names:
        if getattr(config, name) not in (True, False):
            raise ValueError(f"{name} must be true or false, not {getattr(config, name)!r}")


def at_least(name: str, value: float, low: float) -> None:
    """Refuse ``value`` below ``low`` (or not a number, NaN), naming the option.

    >>> at_least("settle", float("nan"), 0)
    Traceback (most recent call last):
    ...
    ValueError: settle must be at least 0, not nan
    """
    if not value >= low:
        raise ValueError(f"{name} must be at least {low}, not {value}")


def between(name: str, value: float, low: float, high: float) -> None:
    """Refuse ``value`` outside ``low``..``high`` (or NaN), naming the option."""
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, not {value}")
