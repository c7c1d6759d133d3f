"""The hidden cards: every way of filling them in that a seat's view allows.

A seat sees its own cards and everything public (R11); the opponent's hand and the order
of the stock are hidden. This module is where they are filled in, for every user: the
search bots (:mod:`sixtysix.bots.worlds`), the analysis, hints, puzzles, the OpenSpiel
game and the bridge to the course platform. Two views of the same question:

* **layouts** (the opponent's hand and the stock's order) and the **worlds** they make
  of a view, uniform among those the view allows (determinization), below;
* **whole packs** in dealing order that agree with what a seat saw, card by card, and
  when each of the opponent's cards came to him (:class:`Deal`, :func:`fill_pack`),
  after them.

The key of the world a view and a layout make is :func:`sixtysix.game.views.world_key`.

**Layouts and worlds.** A seat sees its own cards and everything public (R11); the opponent's hand and
the order of the stock are hidden. A *layout* fills them in, and a *world* is
the full :class:`~sixtysix.game.hand.Hand` that a layout makes of the view (built
with :meth:`Hand.from_view <sixtysix.game.hand.Hand.from_view>`, so that
``world.view(seat) == view``). A search bot samples worlds, searches each as a
game of perfect information and combines the results.

:class:`Constraints` holds what the view proves about the hidden cards:

* cards the opponent **must hold**: a marriage partner he showed and has not
  played, the trump he took in an exchange, the turned-up trump he took with
  the last draw (:meth:`View.known_opponent_cards
  <sixtysix.game.views.View.known_opponent_cards>`);
* the **last card of the stock** while it has cards: the turned-up trump, or
  the nine exchanged for it, also after a close (R2.3, R6.2);
* cards the opponent **cannot hold**, from his follows in phase 2 (R7.2). In
  phase 2 nobody draws, so what his follow proved stays true for the rest of
  the hand. Following, he failed to follow suit: he is void in the suit led;
  he also failed to trump a plain lead: he holds no trump; he followed suit
  under the card led: he holds no card of that suit above it (when trumps
  are led this means no higher trump). Nothing else reveals anything: in
  phase 1 any card may be played (R3.2), a leader may lead any card (R7.1),
  and the seat's own follows say nothing about the opponent.

The follow deductions also hold under table rules (``enforce_follow =
false``): there an illegal follow ends the hand at once (R10.2), so in a hand
still being played every completed phase-2 follow was legal. A void proved
after the stock ran out changes nothing (the opponent holds exactly the unseen
cards then) but is still checked for consistency.

The functions: :func:`count_layouts`, :func:`enumerate_worlds` (exact, when
few layouts remain), :func:`sample_worlds` (uniform samples) and
:func:`worlds` / :class:`Sampler` (all layouts when they are few, else samples:
what a search bot calls at each decision). A view that no layout agrees with
raises :class:`InconsistentViewError`; a real view never does.

Within these constraints every layout is equally likely. A layout is the
opponent's hand together with the order of the stock while the stock is open.
Once it is closed (or exhausted) its order can no longer matter, so a layout is
the opponent's hand alone, and the worlds built here then hold the rest of the
stock in pack order (ahead of the fixed last card): worlds with the same
opponent hand are equal, ``key()`` included.

>>> import math, random
>>> from sixtysix import Action, Hand
>>> hand = Hand.random(seed=4)
>>> view = hand.view(hand.to_act)
>>> c = Constraints.from_view(view)
>>> len(c.unseen), c.opponent_hand_size, c.stock_size, c.stock_ordered
(17, 6, 12, True)
>>> count_layouts(view) == math.comb(17, 6) * math.factorial(11)
True
>>> ws = sample_worlds(view, 5, random.Random(1))
>>> all(w.view(view.seat) == view for w in ws)
True
>>> hand.push(Action.parse("C"))       # the leader closes: order no longer counts
>>> count_layouts(hand.view(hand.to_act)) == math.comb(17, 6)
True

**Whole packs.** The deal seen from one seat: where each card of the pack went, and whole packs that
agree with what the seat saw.

A pack is dealt by the kernel's table, :data:`~sixtysix.kernel.DEAL_LAYOUTS`
(R2.3, R2.4; S2.1 for the 20-card pack): each seat gets the cards at fixed
positions, the card at one position is turned up for trump, and the stock is
drawn from the others in order, two cards a trick, the trick winner first (R3.4),
the turned-up trump last. :class:`Deal` says where, for a set of rules.

A seat sees the cards it was dealt and drew and the turned-up trump. Of the
opponent's places it learns only what he shows (a card played, a marriage, the
exchange: :func:`shown_cards`) and so by when he held that card. :func:`fill_pack`
puts together a whole pack that agrees with all of it: the OpenSpiel game resamples
an information state with it (:mod:`sixtysix.envs.openspiel`), and the bridge to the
course platform rebuilds that platform's game in our engine
(:mod:`sixtysix.compat.schnapsen`).

>>> from sixtysix.rules import Rules
>>> deal = Deal.of(Rules.preset("schnapsen"))
>>> deal.dealt(0, dealer=1), deal.dealt(1, dealer=1), deal.trump, deal.draw(0), deal.draws
((0, 1, 2, 7, 8), (3, 4, 5, 9, 10), 6, (11, 12), 5)

Seat 0 holds the clubs, the jack of diamonds is turned up, and the opponent, who
was dealt his cards, has led the ace of spades at the first trick:

>>> known = dict(zip(deal.dealt(0, dealer=1), [Card.parse(c) for c in ("JC", "QC", "KC", "TC", "AC")]))
>>> known[deal.trump] = Card.parse("JD")
>>> places = [(0, position) for position in deal.dealt(1, dealer=1)]
>>> pack = fill_pack(deal, known, places, [(0, Card.parse("AS"))], random.Random(1))
>>> pack.index(Card.parse("AS")) in deal.dealt(1, dealer=1), pack[deal.trump], len(set(pack))
(True, Card.parse('JD'), 20)

"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from sixtysix.game.actions import DECLARE_MARRIAGE, EXCHANGE, MARRIAGE, Action
from sixtysix.game.cards import CARDS, Card, Rank, Suit, pack
from sixtysix.game.hand import Hand
from sixtysix.game.views import View
from sixtysix.kernel.tables import DEAL_LAYOUTS, DealLayout
from sixtysix.rules import Rules

__all__ = [
    "DEALS",
    "Constraints",
    "Deal",
    "InconsistentViewError",
    "Layout",
    "Sampler",
    "World",
    "count_layouts",
    "enumerate_worlds",
    "fill_pack",
    "sample_worlds",
    "shown_cards",
    "worlds",
]

#: The most worlds :func:`enumerate_worlds` builds unless told otherwise.
DEFAULT_ENUMERATION_LIMIT = 100_000


class InconsistentViewError(ValueError):
    """A view that no layout of the hidden cards agrees with (never so for a real view)."""


class Layout(NamedTuple):
    """The hidden cards filled in: the opponent's hand and the stock in drawing order."""

    opponent: frozenset[Card]
    stock: tuple[Card, ...]


class World(NamedTuple):
    """A world for search and its weight (all layouts are equally likely: weight 1)."""

    hand: Hand
    weight: float


def _by_index(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.index))


@dataclass(frozen=True)
class Constraints:
    """What a view proves about the cards hidden from ``seat`` (see the module text)."""

    #: The seat whose view this is; the constraints are about its opponent.
    seat: int
    #: Cards in the opponent's hand now.
    opponent_hand_size: int
    #: Cards in the stock, counting its last card.
    stock_size: int
    #: Cards the opponent is known to hold.
    must_hold: frozenset[Card]
    #: Unseen cards the opponent cannot hold (phase-2 follows): they lie in the stock.
    cannot_hold: frozenset[Card]
    #: Suits the opponent was shown to be void in by his phase-2 follows.
    voids: frozenset[Suit]
    #: The last card of the stock (turned-up trump or exchanged nine), if any is left.
    stock_last: Card | None
    #: Cards whose place is not known: the opponent's free cards and the stock
    #: before its last card (:meth:`View.unseen <sixtysix.game.views.View.unseen>`).
    unseen: frozenset[Card]
    #: Whether the stock order is part of a layout (the stock is open).
    stock_ordered: bool
    _allowed: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    _unseen: tuple[Card, ...] = field(init=False, repr=False, compare=False)
    _must: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        allowed = _by_index(self.unseen - self.cannot_hold)
        object.__setattr__(self, "_allowed", allowed)
        object.__setattr__(self, "_unseen", _by_index(self.unseen))
        object.__setattr__(self, "_must", _by_index(self.must_hold))
        if (self.stock_last is None) != (self.stock_size == 0):
            raise InconsistentViewError("the stock has a last card exactly when it is not empty")
        if self.must_hold & self.unseen or self.stock_last in self.unseen | self.must_hold:
            raise InconsistentViewError("a card is both known and unseen")
        if not self.cannot_hold <= self.unseen:
            raise InconsistentViewError("cannot_hold must be a set of unseen cards")
        free = self.free
        if free < 0:
            raise InconsistentViewError(
                f"the opponent holds {self.opponent_hand_size} cards but {len(self.must_hold)} are known")
        if len(self.unseen) != free + self.stock_free:
            raise InconsistentViewError(
                f"{len(self.unseen)} unseen cards do not fill {free} free places in the opponent's "
                f"hand and {self.stock_free} in the stock")
        if len(allowed) < free:
            raise InconsistentViewError(
                f"the opponent has {free} unknown cards but only {len(allowed)} unseen cards "
                "are allowed by his phase-2 follows")

    @classmethod
    def from_view(cls, view: View) -> Constraints:
        """Derive the constraints on the cards hidden from ``view.seat``.

        Raises :class:`ValueError` for a finished hand (nothing is hidden any more)
        and :class:`InconsistentViewError` when no layout agrees with the view.
        """
        if view.state == "over":
            raise ValueError("the hand is over: there is nothing hidden left to sample")
        seat = view.seat
        opponent = 1 - seat
        size = len(view.hand)
        if view.lead is not None:
            size += 1 if view.lead[0] == seat else -1
        known = view.known_opponent_cards()
        unseen = view.unseen()
        excluded, voids = _follow_exclusions(view)
        if excluded & known:
            shown = " ".join(str(c) for c in _by_index(excluded & known))
            raise InconsistentViewError(
                f"player {opponent} is known to hold {shown}, which his phase-2 follows rule out")
        last = view.stock_bottom
        return cls(
            seat=seat,
            opponent_hand_size=size,
            stock_size=view.stock_size,
            must_hold=known,
            cannot_hold=excluded & unseen,
            voids=voids,
            stock_last=last,
            unseen=unseen,
            stock_ordered=view.stock_open,
        )

    # Counting ---------------------------------------------------------------------
    @property
    def free(self) -> int:
        """Cards of the opponent's hand that are not known."""
        return self.opponent_hand_size - len(self.must_hold)

    @property
    def stock_free(self) -> int:
        """Places in the stock before its fixed last card."""
        return max(self.stock_size - 1, 0)

    @property
    def allowed(self) -> frozenset[Card]:
        """Unseen cards the opponent may hold."""
        return frozenset(self._allowed)

    def count(self) -> int:
        """The number of layouts: opponent hands, times stock orders while the stock is open."""
        n = math.comb(len(self._allowed), self.free)
        if self.stock_ordered:
            n *= math.factorial(self.stock_free)
        return n

    def admits(self, opponent: Iterable[Card], stock: Sequence[Card]) -> bool:
        """Whether an opponent hand and a stock (drawing order) agree with the constraints."""
        opp = frozenset(opponent)
        rest = list(stock[:-1]) if stock else []
        if len(opp) != self.opponent_hand_size or len(stock) != self.stock_size:
            return False
        if stock and stock[-1] != self.stock_last:
            return False
        if not self.must_hold <= opp or opp & self.cannot_hold:
            return False
        return len(set(rest)) == len(rest) and (opp - self.must_hold) | set(rest) == self.unseen \
            and not opp & set(rest)

    # Layouts ------------------------------------------------------------------------
    def _stock(self, rest: list[Card]) -> tuple[Card, ...]:
        return (*rest, self.stock_last) if self.stock_last is not None else ()

    def sample(self, rng: random.Random) -> Layout:
        """One layout, uniformly among all of them."""
        chosen = rng.sample(self._allowed, self.free)
        taken = set(chosen)
        rest = [c for c in self._unseen if c not in taken]
        if self.stock_ordered:
            rng.shuffle(rest)
        return Layout(frozenset((*self._must, *chosen)), self._stock(rest))

    def layouts(self) -> Iterator[Layout]:
        """Every layout once, in a fixed order (stock in pack order when closed)."""
        for chosen in itertools.combinations(self._allowed, self.free):
            opp = frozenset((*self._must, *chosen))
            taken = set(chosen)
            rest = [c for c in self._unseen if c not in taken]
            if self.stock_ordered:
                for order in itertools.permutations(rest):
                    yield Layout(opp, self._stock(list(order)))
            else:
                yield Layout(opp, self._stock(rest))


def _follow_exclusions(view: View) -> tuple[frozenset[Card], frozenset[Suit]]:
    """Cards the opponent of ``view.seat`` cannot hold because of his phase-2 follows (R7.2)."""
    opponent = 1 - view.seat
    trump = view.trump
    exhaust = view.rules.tricks_to_exhaust
    start = exhaust if view.closed_at is None else min(view.closed_at, exhaust)
    excluded: set[Card] = set()
    voids: set[Suit] = set()
    for trick in view.tricks[start:]:
        if trick.leader == opponent or trick.winner is None:
            continue  # his own lead says nothing; a revoked trick ended the hand
        led, card = trick.lead, trick.follow
        if card.suit == led.suit:
            if card.rank < led.rank:
                # He could not win, so he had no higher card of the suit.
                excluded.update(c for c in CARDS if c.suit == led.suit and c.rank > led.rank)
            continue
        voids.add(led.suit)
        if led.suit != trump and card.suit != trump:
            voids.add(trump)  # no card of the suit led and he did not trump
    excluded.update(c for c in CARDS if c.suit in voids)
    return frozenset(excluded), frozenset(voids)


# Worlds -------------------------------------------------------------------------------
def _build(view: View, layout: Layout) -> Hand:
    return Hand.from_view(view, layout.opponent, layout.stock)


def count_layouts(view: View) -> int:
    """The number of layouts that agree with ``view`` (stock orders only while the stock is open)."""
    return Constraints.from_view(view).count()


def enumerate_worlds(view: View, limit: int | None = DEFAULT_ENUMERATION_LIMIT) -> list[Hand]:
    """Every world that agrees with ``view``, one per layout.

    Raises :class:`ValueError` if there are more than ``limit`` (``None``: no limit).
    """
    c = Constraints.from_view(view)
    if limit is not None:
        n = c.count()
        if n > limit:
            raise ValueError(f"{n} layouts agree with the view, more than the limit of {limit}")
    return [_build(view, layout) for layout in c.layouts()]


def sample_worlds(view: View, n: int, rng: random.Random | None = None) -> list[Hand]:
    """``n`` worlds drawn independently and uniformly among the layouts that agree with ``view``."""
    if n < 0:
        raise ValueError(f"n must not be negative, not {n}")
    c = Constraints.from_view(view)
    r = rng if rng is not None else random.Random()
    return [_build(view, c.sample(r)) for _ in range(n)]


def worlds(
    view: View, n: int, rng: random.Random | None = None, *, exact_below: int = 0
) -> list[World]:
    """Worlds for a search: every layout (each of weight 1) when there are at most ``n``
    or fewer than ``exact_below``, else ``n`` uniform samples (each of weight 1).

    With exact enumeration the weighted average over the worlds is the exact
    expectation over all layouts; with samples it is an unbiased estimate.
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, not {n}")
    c = Constraints.from_view(view)
    total = c.count()
    if total <= n or total < exact_below:
        return [World(_build(view, layout), 1.0) for layout in c.layouts()]
    r = rng if rng is not None else random.Random()
    return [World(_build(view, c.sample(r)), 1.0) for _ in range(n)]


class Sampler:
    """Worlds for a search bot, with its own random source (see :func:`worlds`).

    >>> from sixtysix import Hand
    >>> hand = Hand.random(seed=9)
    >>> sampler = Sampler(8, seed=1)
    >>> len(sampler.worlds(hand.view(hand.to_act)))
    8
    """

    def __init__(
        self, n: int = 32, *, exact_below: int = 0, rng: random.Random | None = None,
        seed: int | None = None,
    ) -> None:
        if n < 1:
            raise ValueError(f"n must be at least 1, not {n}")
        self.n = n
        self.exact_below = exact_below
        self.rng = rng if rng is not None else random.Random(seed)

    def worlds(self, view: View) -> list[World]:
        """All worlds, or ``n`` samples, for ``view`` (weights all 1)."""
        return worlds(view, self.n, self.rng, exact_below=self.exact_below)


@dataclass(frozen=True)
class Deal:
    """A pack and where its cards go at the deal (the kernel's :class:`~sixtysix.kernel.DealLayout`)."""

    #: The cards of the pack, in card-code order.
    cards: tuple[Card, ...]
    layout: DealLayout

    @classmethod
    def of(cls, rules: Rules) -> Deal:
        """The deal of the pack that ``rules`` play with (24 or 20 cards)."""
        return DEALS[rules.deck]

    @property
    def size(self) -> int:
        return len(self.cards)

    @functools.cached_property
    def mask(self) -> int:
        """The pack's cards as a mask over card codes."""
        return sum(card.mask for card in self.cards)

    @property
    def trump(self) -> int:
        """The position of the card turned up for trump."""
        return self.layout.trump

    @property
    def stock(self) -> tuple[int, ...]:
        """The positions of the stock in drawing order, the turned-up trump last."""
        return self.layout.stock

    @property
    def draws(self) -> int:
        """How many times both players draw before the stock is exhausted (R3.4, S2.2)."""
        return len(self.layout.stock) // 2

    def dealt(self, seat: int, dealer: int) -> tuple[int, ...]:
        """The positions dealt to ``seat`` when ``dealer`` deals (R2.4, S2.1)."""
        return self.layout.dealer if seat == dealer else self.layout.non_dealer

    def draw(self, n: int) -> tuple[int, int]:
        """The positions the trick winner and the loser take at the ``n``-th draw (from 0,
        R3.4): at the last, the loser takes the turned-up trump (or the card exchanged for it)."""
        return self.layout.stock[2 * n], self.layout.stock[2 * n + 1]


#: The deal of each pack, by its size.
DEALS = {size: Deal(pack(size), layout) for size, layout in DEAL_LAYOUTS.items()}


def shown_cards(action: Action, trump: Suit, rules: Rules) -> list[Card]:
    """The cards a player shows he held by taking ``action``: the card played, both
    cards of a marriage (R5), the trump nine (jack, S4.1) given in the exchange (R4.1).

    >>> from sixtysix.rules import CLASSIC
    >>> [str(c) for c in shown_cards(Action.parse("KS+"), Suit.HEARTS, CLASSIC)]
    ['KS', 'QS']
    >>> [str(c) for c in shown_cards(Action.parse("X"), Suit.HEARTS, Rules.preset("schnapsen"))]
    ['JH']
    """
    code = action.code
    if code < MARRIAGE:
        assert action.card is not None
        return [action.card]
    if code < EXCHANGE:
        assert action.card is not None
        card = action.card
        return [card, Card(card.suit, Rank.QUEEN if card.rank == Rank.KING else Rank.KING)]
    if code == EXCHANGE:
        return [Card(trump, Rank(rules.exchange_rank))]
    if code >= DECLARE_MARRIAGE:
        assert action.suit is not None
        return [Card(action.suit, Rank.KING), Card(action.suit, Rank.QUEEN)]
    return []


def fill_pack(deal: Deal, known: Mapping[int, Card], places: Iterable[tuple[int, int]],
              needs: Iterable[tuple[int, Card]], rng: random.Random | None = None) -> list[Card]:
    """A whole pack, in dealing order, that agrees with what one seat saw.

    ``known`` are the cards the seat saw where they lay (its own cards, the turned-up
    trump, ...). ``places`` are the opponent's positions whose cards it did not see, as
    ``(time, position)``: he holds the card there from ``time`` on. ``needs`` are the
    cards he showed, as ``(time, card)``: he held ``card`` at ``time``. Times are any
    count that grows with the hand (actions, tricks).

    Each card he showed that has no known place goes to one of his places held by then,
    the earliest shown first (any place open to one card is then open to every later
    one): with ``rng``, uniformly among the places still free, so that every such
    assignment is equally likely; without, to the latest. The cards left fill the
    positions left, shuffled with ``rng``, else in the order of the pack.

    Raises :class:`ValueError` when no pack agrees: the opponent showed a card before
    he held any place it could come from (with ``rng``, another choice of places for
    the earlier cards may still succeed), or the known cards do not fit the pack.
    """
    deck: list[Card | None] = [None] * deal.size
    for position, card in known.items():
        deck[position] = card
    placed = set(known.values())
    free = {position: time for time, position in places}
    due: dict[Card, int] = {}
    for time, card in needs:
        if card not in placed and time < due.get(card, time + 1):
            due[card] = time
    for time, card in sorted(((t, c) for c, t in due.items()), key=lambda need: (need[0], need[1].index)):
        choices = [position for position, held in free.items() if held <= time]
        if not choices:
            raise ValueError(f"the opponent played or showed {card} before he could hold it")
        chosen = rng.choice(choices) if rng is not None else max(choices, key=lambda p: (free[p], p))
        deck[chosen] = card
        del free[chosen]
    rest = [card for card in deal.cards if card not in placed and card not in due]
    if rng is not None:
        rng.shuffle(rest)
    empty = [position for position, card in enumerate(deck) if card is None]
    if len(empty) != len(rest):
        raise ValueError(f"{len(empty)} places are left for {len(rest)} cards: the known cards "
                         "and the pack do not agree")
    for position, card in zip(empty, rest, strict=True):
        deck[position] = card
    return [card for card in deck if card is not None]

