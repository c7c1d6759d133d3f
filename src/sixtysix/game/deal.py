"""The deal seen from one seat: where each card of the pack went, and whole packs that
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
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from sixtysix.game.actions import CLOSE, DECLARE_MARRIAGE, DRAW, EXCHANGE, MARRIAGE, Action
from sixtysix.game.cards import CARDS, Card, Rank, Suit, pack
from sixtysix.game.views import View
from sixtysix.kernel.tables import DEAL_LAYOUTS, DealLayout
from sixtysix.rules import Rules

__all__ = ["DEALS", "Deal", "Packs", "fill_pack", "shown_cards"]


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


class Packs:
    """Whole packs that lead to a seat's view with a given layout of the hidden cards: the
    deal and draws (the hand's past) behind a world, so that the hand can be replayed
    from its first action (what inference from the opponent's plays needs:
    :mod:`sixtysix.kernel`'s ``likelihoods``).

    A layout (:mod:`sixtysix.search.sampling`) says what the opponent holds now and how the stock
    lies; it does not say which of his cards he was dealt and which he drew when. Each
    seat's cards went to its places in the pack: the ones it was dealt, and one of each
    draw (R3.4: the trick winner takes the first card, the loser the second; the loser
    of the last draw takes the face-up card, which is known). A card he played, showed
    in a marriage (R5) or gave in the exchange (R4) was held by then: it goes to a place
    he had received by that action. :meth:`pack` chooses among the places still free
    uniformly, the card needed earliest first, the cards still in hand last: any place
    open to a card is open to every card needed later, so the number of choices left
    never depends on the choices made, and every assignment is equally likely. The
    seat's own cards are placed once, when the packs are set up (the opponent never saw
    them, so no inference depends on where they lay).

    >>> from sixtysix import Action, Hand
    >>> hand = Hand.random(seed=3)
    >>> for token in ("9D", "JD", "D", "X"):
    ...     hand.push(Action.parse(token))
    >>> view = hand.view(0)
    >>> packs = Packs(view, random.Random(1))
    >>> deck = packs.pack(hand.kernel.hand(1), hand.kernel.stock_cards(), random.Random(2))
    >>> again = Hand.deal([CARDS[i] for i in deck], view.dealer, view.rules)
    >>> for _, action in view.history:
    ...     again.push(action)
    >>> again.key() == hand.key()
    True
    """

    def __init__(self, view: View, rng: random.Random) -> None:
        deal = Deal.of(view.rules)
        self._size = deal.size
        opponent = 1 - view.seat
        places: tuple[list[tuple[int, int]], list[tuple[int, int]]] = ([], [])
        needs: tuple[dict[int, int], dict[int, int]] = ({}, {})
        extra = _past(view, deal, places, needs)
        self._left = view.stock_size
        self._stock = deal.stock[len(deal.stock) - view.stock_size:-1]
        #: The pack with the seat's own cards and the turned-up trump in place.
        self._base = [-1] * deal.size
        self._base[deal.trump] = view.dealt_trump_card.index
        mine = sum(card.mask for card in view.hand) & ~extra[view.seat]
        free, order = _order(places[view.seat], needs[view.seat])
        loose = [card for card in _cards(mine) if card not in needs[view.seat]]
        _fill(self._base, free, order, loose, rng)
        self._places, self._needs = _order(places[opponent], needs[opponent])
        #: The opponent's cards that came to him from a place and were not used before now.
        self._loose = ~extra[opponent] & ~sum(1 << card for card in needs[opponent])

    def pack(self, opponent: int, stock: Sequence[int], rng: random.Random) -> list[int]:
        """A pack (card codes in dealing order) whose deal, with the view's actions, gives
        the view with the opponent holding ``opponent`` (a mask) and the stock ``stock``
        (card codes, next first, the face-up card last); the opponent's past drawn as
        the class says. Raises :class:`ValueError` if the layout does not fit the view."""
        if len(stock) != self._left:
            raise ValueError(f"a stock of {len(stock)} cards does not fit the view")
        deck = self._base[:]
        _fill(deck, self._places[:], self._needs, _cards(opponent & self._loose), rng)
        for position, card in zip(self._stock, stock, strict=False):
            deck[position] = card
        if -1 in deck or len(set(deck)) != self._size:
            raise ValueError("the layout does not fit the view: the pack is not whole")
        return deck


def _cards(mask: int) -> list[int]:
    """The card codes of a mask, lowest first."""
    out = []
    while mask > 0:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _order(places: Iterable[tuple[int, int]],
           needs: Mapping[int, int]) -> tuple[list[int], list[tuple[int, int]]]:
    """A seat's places (positions) from the earliest held on, and its needed cards from the
    earliest needed on, each with the number of places held by the time it was needed."""
    ordered = sorted(places)
    needed: list[tuple[int, int]] = []
    for card, time in sorted(needs.items(), key=lambda item: (item[1], item[0])):
        held = sum(1 for since, _ in ordered if since <= time)
        if held <= len(needed):
            raise ValueError(f"{CARDS[card]} was used before any place could have given it")
        needed.append((card, held))
    return [position for _, position in ordered], needed


def _fill(deck: list[int], free: list[int], needs: Sequence[tuple[int, int]], loose: list[int],
          rng: random.Random) -> None:
    """Put each needed card at a free place held by the time it was needed, the earliest
    needed first, then the ``loose`` cards at the places left, each choice uniform. The
    places open to the k-th needed card are the first of those still free (the ones taken
    before were open to it too), so one uniform index chooses."""
    rnd = rng.random
    for k, (card, held) in enumerate(needs):
        deck[free.pop(int(rnd() * (held - k)))] = card
    if len(loose) != len(free):
        raise ValueError(f"{len(loose)} cards held for {len(free)} places: the layout does not fit")
    rng.shuffle(loose)
    for position, card in zip(free, loose, strict=True):
        deck[position] = card


def _past(view: View, deal: Deal, places: tuple[list[tuple[int, int]], list[tuple[int, int]]],
          needs: tuple[dict[int, int], dict[int, int]]) -> list[int]:
    """Fill in each seat's places in the pack (``(time held from, position)``) and the
    cards it needed from them (card -> the first action at which it held it), from the
    view's actions; return, by seat, the cards held now that came from no place (the
    face-up trump taken in the exchange or with the last draw, R3.4, R4.1)."""
    for seat in (0, 1):
        places[seat].extend((0, position) for position in deal.dealt(seat, view.dealer))
    extra = [0, 0]
    face_up = view.dealt_trump_card.index
    exchange = view.exchange_card.index
    draws = tricks = 0
    closed = False
    on_table = False

    def draw(winner: int, time: int) -> None:
        nonlocal draws
        first, second = deal.draw(draws)
        draws += 1
        places[winner].append((time + 1, first))
        if draws == deal.draws:
            extra[1 - winner] |= 1 << face_up
        else:
            places[1 - winner].append((time + 1, second))

    for time, (seat, action) in enumerate(view.history):
        code = action.code
        if code == DRAW:
            draw(seat, time)
            continue
        closed = closed or code == CLOSE
        if code == EXCHANGE:
            extra[seat] |= 1 << face_up
            face_up = exchange
        for card in shown_cards(action, view.trump, view.rules):
            bit = 1 << card.index
            if extra[seat] & bit:
                if code < MARRIAGE:
                    extra[seat] &= ~bit  # played: gone from his hand
            elif card.index not in needs[seat]:
                needs[seat][card.index] = time
        if code < EXCHANGE:
            if on_table:  # the trick is complete; without a draw step its winner draws now (R3.4)
                winner = view.tricks[tricks].winner
                tricks += 1
                if not view.rules.close_before_draw and not closed and draws < deal.draws \
                        and winner is not None:
                    draw(winner, time)
            on_table = not on_table
    return extra
