"""The worlds of one decision: full hands that agree with a seat's view, drawn
uniformly or, with inference, by the likelihood of what the opponent did
(:mod:`sixtysix.bots.inference`) or by a learned estimate of the odds that he holds
each card (:mod:`sixtysix.net`). The search bots (``ismcts``, ``santase-ismcts``)
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

import bisect
import itertools
import logging
import math
import random
from collections.abc import Callable, Mapping

from sixtysix.bots.inference import Inference
from sixtysix.cards import CARDS
from sixtysix.hand import Hand
from sixtysix.kernel import STOCK_CARDS
from sixtysix.kernel._pure_search import odds_table  # the one table of the odds' sums (both kernels)
from sixtysix.sampling import Constraints
from sixtysix.views import View

__all__ = ["Worlds"]

_log = logging.getLogger(__name__)


class Worlds:
    """The worlds of one decision: full hands that agree with the view.

    A template is built once with :meth:`Hand.from_view
    <sixtysix.hand.Hand.from_view>`; each world is a copy of it with the
    opponent's hand and the stock filled in from a layout. Layouts are
    enumerated (and dealt out in a shuffled round robin) when there are at
    most ``enumerate_below`` of them, else sampled uniformly as
    :meth:`Constraints.sample <sixtysix.sampling.Constraints.sample>` does,
    on card indices.

    ``weigh`` (inference from the opponent's actions, an
    :class:`~sixtysix.bots.inference.Inference`) gives each layout a log-weight; layouts
    are then drawn by weight from ``pool`` uniform samples (or from all layouts when
    they are enumerated), a hand drawn again with a fresh stock order. ``odds`` (a learned estimate:
    card index -> the odds that the opponent holds the card, positive) weighs a hand
    by the product of its cards' odds, which is what independent estimates per card
    say once the hand's size is known (a conditional Bernoulli distribution); such
    hands are drawn exactly, card by card, without a pool.

    >>> view = Hand.random(seed=3).view(1)
    >>> worlds = Worlds(view, random.Random(1))
    >>> odds = {card.index: 9.0 if card.suit == view.trump else 1.0 for card in view.unseen()}
    >>> heavy = Worlds(view, random.Random(1), odds=odds)
    >>> def trumps(w): return sum(c.suit == view.trump for c in w.view(0).hand)
    >>> sum(trumps(heavy.world()) for _ in range(200)) > sum(trumps(worlds.world()) for _ in range(200))
    True
    """

    def __init__(self, view: View, rng: random.Random, enumerate_below: int = 0,
                 weigh: Inference | None = None, pool: int = 256,
                 odds: Mapping[int, float] | None = None) -> None:
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
        #: With ``odds`` and sampled layouts: the allowed cards' odds, and the
        #: elementary symmetric sums of the odds of cards i.. taken j at a time.
        self._odds: list[float] | None = None
        self._sums: list[list[float]] = []
        if self.count <= enumerate_below:
            self.layouts = []
            for layout in c.layouts():
                mask = sum(card.mask for card in layout.opponent)
                self.layouts.append((mask, [card.index for card in layout.stock]))
            rng.shuffle(self.layouts)
        mask, stock = self.layouts[0] if self.layouts else self._sample()
        cards = [card for card in c.unseen | c.must_hold if mask & card.mask]
        self.template = Hand.from_view(view, cards, [CARDS[i] for i in stock])
        #: With ``weigh`` (inference): the opponent's hands to draw from, and their
        #: cumulative weights; ``None`` when every layout is as likely as the next.
        self._hands: list[int] | None = None
        self._cumulative: list[float] = []
        #: The weighed layouts' weights (the largest 1), for measurements.
        self.weights: list[float] = []
        product: Callable[[int], float] | None = None
        if odds is not None:
            by_card = [float(odds.get(i, 1.0)) for i in range(len(CARDS))]
            if any(not (w > 0 and math.isfinite(w)) for w in by_card):
                raise ValueError("odds must be positive and finite")
            # Scaled so that the largest is 1 (the same distribution, no overflow), with the
            # kernel's sums of products: the one table both draws use.
            allowed, sums = odds_table(by_card, self._allowed, self._free)
            if self.layouts is not None or weigh is not None:
                table = dict(zip(self._allowed, allowed, strict=True))

                def odds_of(mask: int) -> float:
                    p = 1.0
                    for i, w in table.items():
                        if mask >> i & 1:
                            p *= w
                    return p

                product = odds_of
            elif max(allowed, default=1.0) != min(allowed, default=1.0):
                # Drawn card by card: the card i is taken with chance
                # odds[i] * sums[i+1][j-1] / sums[i][j] while j are still to take.
                self._odds, self._sums = allowed, sums
        if weigh is not None or product is not None:
            self._weigh(weigh, product, pool)

    def _weigh(self, weigh: Inference | None, product: Callable[[int], float] | None, pool: int) -> None:
        """Weigh layouts by ``weigh`` (the likelihood of what the opponent did in each)
        and by ``product`` (the odds of his hand): all of them when the layouts are
        enumerated, else ``pool`` uniform samples (a weighted sample of a uniform sample:
        importance resampling). Layouts are then drawn by weight."""
        if self.layouts is not None:
            candidates = self.layouts
        else:
            candidates = [(mask, self._stock_for(mask)) for mask in
                          (self._sample_hand() for _ in range(pool))]
        logs = [0.0] * len(candidates)
        if weigh is not None:
            logs = [weigh.log_weight(layout, self.rng) for layout in candidates]
        top = max(logs, default=-math.inf)
        if top == -math.inf:
            _log.debug("no world explains the opponent's actions: worlds drawn uniformly")
            return
        weights = [math.exp(v - top) for v in logs]
        if product is not None:
            weights = [w * product(mask) for w, (mask, _) in zip(weights, candidates, strict=True)]
        if max(weights) <= 0 or max(weights) == min(weights):
            return  # nothing learnt: uniform, as without inference
        self._hands = [mask for mask, _ in candidates]
        self._cumulative = list(itertools.accumulate(weights))
        self.weights = weights

    def _sample(self) -> tuple[int, list[int]]:
        mask = self._sample_hand() if self._odds is None else self._sample_by_odds()
        return mask, self._stock_for(mask)

    def _sample_by_odds(self) -> int:
        odds, sums, allowed = self._odds, self._sums, self._allowed
        assert odds is not None
        rnd = self.rng.random
        mask = self._must
        j = self._free
        for i, card in enumerate(allowed):
            if not j:
                break
            if rnd() * sums[i][j] < odds[i] * sums[i + 1][j - 1]:
                mask |= 1 << card
                j -= 1
        return mask

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

    @property
    def weighted(self) -> bool:
        """Whether layouts are drawn by weight (inference), not uniformly."""
        return self._hands is not None or self._odds is not None

    def card_odds(self) -> list[float]:
        """The odds by card index that sampled layouts are drawn by (what the kernel's
        search takes, :class:`sixtysix.kernel.Search`), or none when hands are not drawn
        by odds card by card (uniform, enumerated or weighed as a whole)."""
        if self._odds is None:
            return []
        odds = [1.0] * len(CARDS)
        for card, w in zip(self._allowed, self._odds, strict=True):
            odds[card] = w
        return odds

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
        hands = self._hands
        if hands is not None:
            cumulative = self._cumulative
            i = bisect.bisect_right(cumulative, self.rng.random() * cumulative[-1])
            i = min(i, len(hands) - 1)
            if layouts is not None:
                return layouts[i]
            return hands[i], self._stock_for(hands[i])
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
