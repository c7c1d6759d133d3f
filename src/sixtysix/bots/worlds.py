"""The worlds of one decision: full hands that agree with a seat's view, drawn
uniformly (or enumerated when few). The search bots (``ismcts``, ``santase-ismcts``)
take their worlds from here.

>>> import random
>>> from sixtysix import Hand
>>> view = Hand.random(seed=3).view(1)
>>> worlds = Worlds(view, random.Random(1))
>>> world = worlds.world()
>>> world.view(1).hand == view.hand, world.view(1).legal == view.legal
(True, True)
"""

from __future__ import annotations

import random

from sixtysix.game.cards import CARDS
from sixtysix.game.hand import Hand
from sixtysix.game.views import View
from sixtysix.game.worlds import Constraints
from sixtysix.kernel import STOCK_CARDS

__all__ = ["Worlds"]


class Worlds:
    """The worlds of one decision: full hands that agree with the view.

    A template is built once with :meth:`Hand.from_view
    <sixtysix.game.hand.Hand.from_view>`; each world is a copy of it with the
    opponent's hand and the stock filled in from a layout. Layouts are
    enumerated (and dealt out in a shuffled round robin) when there are at
    most ``enumerate_below`` of them, else sampled uniformly as
    :meth:`Constraints.sample <sixtysix.game.worlds.Constraints.sample>` does,
    on card indices.

    >>> view = Hand.random(seed=3).view(1)
    >>> Worlds(view, random.Random(1)).layouts is None  # sampled
    True
    >>> hand = Hand.random(seed=3)
    >>> for _ in range(8):
    ...     hand.push(hand.legal_actions()[0])
    >>> view = hand.view(hand.to_act)
    >>> count = Worlds(view, random.Random(1)).count
    >>> worlds = Worlds(view, random.Random(1), enumerate_below=count)
    >>> len(worlds.layouts) == count
    True
    """

    def __init__(self, view: View, rng: random.Random, enumerate_below: int = 0) -> None:
        c = Constraints.from_view(view)
        self.rng = rng
        self.count = c.count()
        self.opponent = 1 - view.seat
        self.drawn = STOCK_CARDS - view.stock_size
        self._allowed = sorted(card.index for card in c.allowed)
        self._unseen = sorted(card.index for card in c.unseen)
        self._must = sum(card.mask for card in c.must_hold)
        self._free = c.free
        self._ordered = c.stock_ordered
        self._last = c.stock_last.index if c.stock_last is not None else -1
        self.layouts: list[tuple[int, list[int]]] | None = None
        self._next = 0
        if self.count <= enumerate_below:
            self.layouts = []
            for layout in c.layouts():
                mask = sum(card.mask for card in layout.opponent)
                self.layouts.append((mask, [card.index for card in layout.stock]))
            rng.shuffle(self.layouts)
        mask, stock = self.layouts[0] if self.layouts else self._sample()
        cards = [card for card in c.unseen | c.must_hold if mask & card.mask]
        self.template = Hand.from_view(view, cards, [CARDS[i] for i in stock])

    def _sample(self) -> tuple[int, list[int]]:
        mask = self._sample_hand()
        return mask, self._stock_for(mask)

    def _sample_hand(self) -> int:
        # Sorting by random keys gives a uniform permutation, and costs less
        # than random.sample and random.shuffle, which draw in Python.
        rnd = self.rng.random
        mask = self._must
        for i in sorted(self._allowed, key=lambda _: rnd())[:self._free]:
            mask |= 1 << i
        return mask

    def _stock_for(self, mask: int) -> list[int]:
        """A uniform stock order for the opponent's hand ``mask``."""
        rest = [i for i in self._unseen if not mask >> i & 1]
        if self._ordered:
            rnd = self.rng.random
            rest.sort(key=lambda _: rnd())
        if self._last >= 0:
            rest.append(self._last)
        return rest

    def draw(self, n: int) -> list[tuple[int, list[int]]]:
        """``n`` layouts drawn as :meth:`layout` draws them (for a search that deals a
        fixed list of layouts in turn)."""
        return [self.layout() for _ in range(n)]

    def sampler(self) -> tuple[int, list[int], int, list[int], bool, int]:
        """How a uniform layout is drawn: the cards the opponent must hold (a mask), the
        cards he may hold, how many of those he holds, the unseen cards, whether the
        stock's order is unknown, and the stock's known last card (-1: none)."""
        return self._must, self._allowed, self._free, self._unseen, self._ordered, self._last

    def layout(self) -> tuple[int, list[int]]:
        """The next layout: the opponent's cards as a mask and the stock as card indices."""
        layouts = self.layouts
        if layouts is None:
            return self._sample()
        i = self._next
        self._next = i + 1 if i + 1 < len(layouts) else 0
        return layouts[i]

    def build(self, layout: tuple[int, list[int]]) -> Hand:
        """A fresh world with this layout."""
        world = self.template.copy()
        world.kernel.deal_hidden(self.opponent, layout[0], layout[1])
        return world

    def world(self) -> Hand:
        """The next world."""
        return self.build(self.layout())
