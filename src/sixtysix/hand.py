"""One deal of Sixty-six as a make/unmake state machine.

The state of a hand is a handful of integers: each player's cards are a 24-bit
mask, the stock is a list of card indices, and every :meth:`Hand.push` saves a
small tuple so that :meth:`Hand.pop` restores the state exactly. Search bots
call these millions of times, so the hot paths avoid allocation where they can.

States (DESIGN.md §4): **lead** (the leader's turn, R3.6 steps 3-6),
**follow**, **draw** (R3.6 steps 1-2, only while the stock is open and
``close_before_draw`` holds) and **over**.

>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> hand.trump, hand.to_act, hand.stock_size
(<Suit.CLUBS: 0>, 1, 12)
>>> [str(a) for a in hand.legal_actions()]
['TC', 'JD', 'QD', 'AD', 'KS', 'AS', 'C']
>>> hand.push(Action.parse("KS")); hand.push(Action.parse("9C"))
>>> hand.state, hand.to_act, [str(a) for a in hand.legal_actions()]
('draw', 0, ['C', 'D', '66'])
>>> _ = hand.pop(); _ = hand.pop(); hand.state
'lead'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sixtysix.actions import (
    ACTIONS,
    CLOSE,
    DECLARE,
    DECLARE_MARRIAGE,
    DRAW,
    EXCHANGE,
    MARRIAGE,
    Action,
)
from sixtysix.cards import CARDS, RANK_POINTS, Card, Suit, pack, parse_cards
from sixtysix.errors import IllegalActionError, InvalidDeckError, ParseError
from sixtysix.rules import CLASSIC, Rules

if TYPE_CHECKING:
    from sixtysix.views import View

__all__ = ["Hand", "HandResult", "REASONS", "conceded", "deck_from", "random_deck"]

# States.
LEAD = 0
FOLLOW = 1
DRAWING = 2
OVER = 3
STATE_NAMES = ("lead", "follow", "draw", "over")

#: Every ``reason`` a finished hand can report (DESIGN.md §3).
REASONS = ("declared", "false_declaration", "closed_failed", "closed_succeeded",
           "played_out", "tie", "revoke", "forfeit")

#: Game points the opponent of a player's program that failed scores (the
#: most a hand can give, R9.1; see :meth:`Hand.forfeit`).
FORFEIT_POINTS = 3

#: Points needed to win a hand (R8).
WINNING_TOTAL = 66
#: Under this many points a loser who won a trick concedes 2 game points (R9.1).
SCHNEIDER = 33
STOCK_CARDS = 12  # the stock counts the turned-up trump (R2.3)
#: Pending marriage points of both seats in one integer (marriage_counts =
#: next_trick): seat 0 in the low bits, seat 1 shifted (at most 100 each).
PENDING_SHIFT = 8
PENDING_MASK = (1 << PENDING_SHIFT) - 1

# Lookup tables over card indices (index = suit * 6 + rank).
SUIT_MASK = tuple(0x3F << (6 * s) for s in range(4))
SUIT_OF = tuple(i // 6 for i in range(24))
POINTS = tuple(RANK_POINTS[i % 6] for i in range(24))
#: Cards of the same suit ranking above each card.
ABOVE = tuple(SUIT_MASK[i // 6] & ~((2 << i) - 1) for i in range(24))
KINGS = sum(1 << (6 * s + 3) for s in range(4))
#: The nine of each suit (R4).
NINES = tuple(1 << (6 * s) for s in range(4))
#: The marriage value in each suit, by trump suit (R5.1).
BIT_EXCHANGE = 1 << EXCHANGE
BIT_CLOSE = 1 << CLOSE
BIT_DRAW = 1 << DRAW
BIT_DECLARE = 1 << DECLARE


def _card_tables() -> tuple[tuple[tuple[Action, ...], ...], tuple[tuple[Action, ...], ...]]:
    low: list[tuple[Action, ...]] = []
    high: list[tuple[Action, ...]] = []
    for m in range(4096):
        low.append(tuple(ACTIONS[i] for i in range(12) if m >> i & 1))  # type: ignore[misc]
        high.append(tuple(ACTIONS[i + 12] for i in range(12) if m >> i & 1))  # type: ignore[misc]
    return tuple(low), tuple(high)


_LOW_CARDS, _HIGH_CARDS = _card_tables()


def follow_mask(hand: int, lead: int, trump: int) -> int:
    """The cards a follower may play in phase 2 (R7.2), as a mask.

    Follow suit and win if possible; else follow suit; else trump; else anything.
    """
    suit = SUIT_OF[lead]
    same = hand & SUIT_MASK[suit]
    if same:
        return (same & ABOVE[lead]) or same
    if suit != trump:
        trumps = hand & SUIT_MASK[trump]
        if trumps:
            return trumps
    return hand


def random_deck(rng: random.Random, size: int = 24) -> list[Card]:
    """Shuffle and cut a pack (R2.2: the cut leaves at least two cards in each packet)."""
    deck = list(pack(size))
    rng.shuffle(deck)
    cut = rng.randint(2, len(deck) - 2)
    return deck[cut:] + deck[:cut]


def deck_from(deck: str | Iterable[Card], size: int = 24) -> list[Card]:
    """Check a deck: exactly the cards of the pack, each once (R1.1, R2.4; S1.1 for 20)."""
    try:
        cards = parse_cards(deck) if isinstance(deck, str) else list(deck)
    except ParseError as exc:
        raise InvalidDeckError(f"invalid deck: {exc}") from None
    seen: set[Card] = set()
    cards_of_pack = pack(size)
    allowed = frozenset(cards_of_pack)
    for card in cards:
        if not isinstance(card, Card):
            raise InvalidDeckError(f"invalid deck: {card!r} is not a card")
        if card in seen:
            raise InvalidDeckError(f"invalid deck: {card} appears twice")
        if card not in allowed:
            raise InvalidDeckError(f"invalid deck: {card} is not in the {size}-card pack")
        seen.add(card)
    if len(cards) != size:
        missing = " ".join(str(c) for c in cards_of_pack if c not in seen)
        raise InvalidDeckError(f"invalid deck: {len(cards)} cards, expected {size}"
                               + (f" (missing {missing})" if missing else ""))
    return cards


def conceded(tricks: int, score: int) -> int:
    """Game points won against a loser with this many tricks and this score (R9.1):
    3 without a trick (Schwarz), 2 under 33 (Schneider), else 1.

    >>> conceded(0, 0), conceded(2, 32), conceded(1, 33)
    (3, 2, 1)
    """
    if not tricks:
        return 3
    return 2 if score < SCHNEIDER else 1


def _close_points(view: View) -> int:
    """:func:`conceded` for the closer's opponent when the stock was closed, as ``view``
    shows it: what a successful close is worth under S5.3, and 3 exactly when the
    opponent had no trick then (R6.4)."""
    assert view.closed_by is not None and view.closed_at is not None
    opponent = 1 - view.closed_by
    before = [t for t in view.tricks[:view.closed_at] if t.winner == opponent]
    points = sum(t.points for t in before) + view.counted_marriages(opponent, view.closed_at)
    return conceded(len(before), points)


@dataclass(frozen=True)
class HandResult:
    """How a finished hand ended (DESIGN.md §3)."""

    winner: int | None
    game_points: int
    reason: str
    points: tuple[int, int]
    tricks: tuple[int, int]
    marriages: tuple[tuple[tuple[Suit, int], ...], tuple[tuple[Suit, int], ...]]
    closed_by: int | None
    bonus: int = 0

    def to_json(self) -> dict[str, Any]:
        """The result object that ``sixtysix replay --json`` prints."""
        return {
            "winner": self.winner,
            "game_points": self.game_points,
            "reason": self.reason,
            "points": list(self.points),
            "tricks": list(self.tricks),
            "marriages": [[[s.letter, v] for s, v in seat] for seat in self.marriages],
            "closed_by": self.closed_by,
            "bonus": self.bonus,
        }

    @classmethod
    def from_json(cls, obj: Any) -> HandResult:
        """The inverse of :meth:`to_json` (raises :class:`ParseError` on a wrong shape)."""
        try:
            return cls(
                winner=None if obj["winner"] is None else int(obj["winner"]),
                game_points=int(obj["game_points"]),
                reason=str(obj["reason"]),
                points=(int(obj["points"][0]), int(obj["points"][1])),
                tricks=(int(obj["tricks"][0]), int(obj["tricks"][1])),
                marriages=tuple(tuple((Suit.parse(m[0]), int(m[1])) for m in seat)
                                for seat in obj["marriages"]),  # type: ignore[arg-type]
                closed_by=None if obj["closed_by"] is None else int(obj["closed_by"]),
                bonus=int(obj.get("bonus", 0)),
            )
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            raise ParseError(f"not a hand result: {exc}") from None

    def describe(self) -> str:
        """A sentence for people."""
        if self.winner is None:
            return f"Tied hand ({self.points[0]}-{self.points[1]}): nobody scores."
        why = {
            "declared": "declared 66",
            "false_declaration": "the opponent declared 66 falsely",
            "closed_failed": "the closer did not make 66",
            "closed_succeeded": "closed and made 66",
            "played_out": "all cards were played",
            "revoke": "the opponent revoked",
            "forfeit": "the opponent's program failed and forfeited",
        }[self.reason]
        gp = self.game_points
        return (f"Player {self.winner} wins {gp} game point{'s' if gp != 1 else ''} "
                f"({why}); points {self.points[0]}-{self.points[1]}, "
                f"tricks {self.tricks[0]}-{self.tricks[1]}.")


class Hand:
    """One deal: from the deal to the end of the hand.

    ``deck`` lists the pack top first (R2.4). Seats are 0 and 1; the player
    who is not the ``dealer`` leads first (R3.1).
    """

    __slots__ = (
        "rules", "dealer", "deck", "trump", "seed",
        "_hands", "_won", "_tricks", "_marr", "_pending", "_stock", "_drawn",
        "_state", "_to_act", "_lead", "_closed_by", "_closed_trick",
        "_close_points", "_bonus_seat", "_outcome", "_lmask", "_undo", "_prefix", "_dealt_trump",
        "_trump_mask", "_nine", "_enforce", "_auto", "_draw_state", "_close_min",
        "_exchange_min", "_close_first", "_exchange_first", "_marriage_first", "_marriages_p2", "_last_bonus",
        "_next_trick", "_king_lead", "match_score", "match_bonus",
    )

    rules: Rules
    dealer: int
    deck: tuple[Card, ...]
    trump: Suit
    seed: int | None
    #: The match score (game points of seats 0 and 1) before this hand, when it is
    #: part of a match (set by :meth:`sixtysix.match.Match.deal`), else ``None``.
    #: Public, and no rule reads it: it is there for the players' views.
    match_score: tuple[int, int] | None
    #: Game points the winner of this hand collects from tied hands before it (R9.2).
    match_bonus: int

    def __init__(self, deck: str | Iterable[Card], dealer: int = 0, rules: Rules = CLASSIC) -> None:
        cards = deck_from(deck, rules.deck)
        if type(dealer) is not int or dealer not in (0, 1):
            raise ValueError(f"dealer must be seat 0 or 1, not {dealer!r}")
        self._deal(tuple(cards), [c.index for c in cards], dealer, rules)

    @classmethod
    def _trusted(cls, idx: list[int], dealer: int, rules: Rules) -> Hand:
        """Deal card indices known to be a shuffled pack of ``rules.deck`` cards, without
        the checks of the constructor (for fast random play)."""
        hand = object.__new__(cls)
        hand._deal(tuple([CARDS[i] for i in idx]), idx, dealer, rules)
        return hand

    def _deal(self, deck: tuple[Card, ...], idx: list[int], dealer: int, rules: Rules) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck = deck
        self.seed = None
        non_dealer = 1 - dealer
        hands = [0, 0]
        first: tuple[int, ...]
        second: tuple[int, ...]
        if rules.deck == 24:
            # R2.3/R2.4: three to the non-dealer, three to the dealer, again; then the trump.
            first, second, turned = (0, 1, 2, 6, 7, 8), (3, 4, 5, 9, 10, 11), 12
        else:
            # S2.1: three each, the trump turned up, then two each.
            first, second, turned = (0, 1, 2, 7, 8), (3, 4, 5, 9, 10), 6
        for i in first:
            hands[non_dealer] |= 1 << idx[i]
        for i in second:
            hands[dealer] |= 1 << idx[i]
        self._hands = hands
        trump = SUIT_OF[idx[turned]]
        # The turned-up trump is drawn last. A smaller pack's stock is the end of a
        # 12-card one, as if the first draws had been made, so that every rule that
        # counts the stock (STOCK_CARDS - drawn) reads the same for both packs.
        rest = idx[turned + 1:] if rules.deck == 24 else idx[11:]
        drawn = STOCK_CARDS - rules.stock_cards
        self._stock = [0] * drawn + rest + [idx[turned]]
        self._drawn = drawn
        self._won = [0, 0]
        self._tricks = [0, 0]
        self._marr = [0, 0]
        self._pending = 0
        self._state = LEAD
        self._to_act = non_dealer
        self._lead = -1
        self._closed_by = -1
        self._closed_trick = -1
        self._close_points = 0
        self._bonus_seat = -1
        self._outcome: tuple[int | None, int, str] | None = None
        self._lmask = -1
        self._undo: list[tuple[int, ...]] = []
        # Public actions before this object's first state (see from_view), as (code, seat).
        self._prefix: tuple[tuple[int, int], ...] = ()
        self._dealt_trump = idx[turned]
        self.match_score = None
        self.match_bonus = 0
        self._setup_rules(rules, trump)

    def _setup_rules(self, rules: Rules, trump: int) -> None:
        # Rule options as plain attributes (hot paths read them).
        self.trump = Suit(trump)
        self._trump_mask = SUIT_MASK[trump]
        self._nine = trump * 6 + rules.exchange_rank  # the card exchanged (R4.1, S4.1)
        self._enforce = rules.enforce_follow
        self._auto = rules.auto_declare
        self._draw_state = rules.close_before_draw
        # Without closing (option closing), no stock is ever large enough to close (R6.1).
        self._close_min = rules.close_min_stock if rules.closing else STOCK_CARDS + 1
        self._exchange_min = rules.exchange_min_stock
        self._exchange_first = rules.exchange_first_lead
        self._close_first = rules.close_first_lead
        self._marriage_first = rules.marriage_first_lead
        self._marriages_p2 = rules.marriages_in_phase2
        self._last_bonus = rules.last_trick_bonus
        self._next_trick = rules.marriage_counts == "next_trick"
        self._king_lead = rules.marriage_lead == "king"

    # Construction ------------------------------------------------------------
    @classmethod
    def deal(cls, deck: str | Iterable[Card], dealer: int = 0, rules: Rules = CLASSIC) -> Hand:
        """Deal from a recorded deck (R2.4)."""
        return cls(deck, dealer, rules)

    @classmethod
    def random(
        cls,
        seed: int | None = None,
        *,
        dealer: int = 0,
        rules: Rules = CLASSIC,
        rng: random.Random | None = None,
    ) -> Hand:
        """Shuffle, cut and deal (R2.2). Same seed, same deal.

        >>> Hand.random(seed=7).deck == Hand.random(seed=7).deck
        True
        """
        hand = cls(random_deck(rng if rng is not None else random.Random(seed), rules.deck), dealer, rules)
        hand.seed = seed
        return hand

    def copy(self) -> Hand:
        """An independent copy, with its history (so it can be popped)."""
        other = object.__new__(Hand)
        _copy_slots(self, other)
        other._hands = self._hands[:]
        other._won = self._won[:]
        other._tricks = self._tricks[:]
        other._marr = self._marr[:]
        other._stock = self._stock[:]
        other._undo = self._undo[:]
        return other

    @classmethod
    def from_view(
        cls, view: View, opponent: Iterable[Card], stock: Sequence[Card] = ()
    ) -> Hand:
        """The full state that ``view`` shows, with the hidden cards filled in.

        ``opponent`` is the opponent's hand and ``stock`` the cards left in the
        stock in drawing order (the turned-up trump last). This is how search
        bots build the worlds they sample (determinization): the result agrees
        with everything in the view, and ``hand.view(view.seat)`` equals it.
        History before this state cannot be popped.

        >>> hand = Hand.random(seed=2)
        >>> seat = hand.to_act
        >>> world = Hand.from_view(hand.view(seat), hand.cards(1 - seat), hand.stock)
        >>> world.key() == hand.key()
        True
        """
        if view.state == "over":
            raise ValueError("the hand is over: there is nothing hidden left to fill in")
        seat = view.seat
        opp = list(opponent)
        stock_cards = list(stock)
        rules = view.rules
        trump = view.trump
        played = view.played
        own = view.hand
        everything = [*own, *opp, *stock_cards, *played]
        if len(set(everything)) != rules.deck or len(everything) != rules.deck:
            raise ValueError("the hidden cards and the view do not make up the pack exactly once")
        if len(stock_cards) != view.stock_size:
            raise ValueError(f"the stock must have {view.stock_size} cards, not {len(stock_cards)}")
        expected_opp = len(own) + (1 if view.lead is not None and view.lead[0] == seat else 0) - (
            1 if view.lead is not None and view.lead[0] != seat else 0)
        if len(opp) != expected_opp:
            raise ValueError(f"the opponent must hold {expected_opp} cards, not {len(opp)}")
        face_up = view.exchange_card if view.exchange is not None else view.dealt_trump_card
        if stock_cards and stock_cards[-1] != face_up:
            raise ValueError(f"the last card of the stock must be the turned-up {face_up}")
        hand = object.__new__(cls)
        hand._setup_rules(rules, trump)
        hand.rules = rules
        hand.dealer = view.dealer
        hand.deck = ()
        hand.seed = None
        hand._dealt_trump = view.dealt_trump_card.index
        masks = [0, 0]
        for card in own:
            masks[seat] |= card.mask
        for card in opp:
            masks[1 - seat] |= card.mask
        hand._hands = masks
        drawn = STOCK_CARDS - view.stock_size
        hand._stock = [0] * drawn + [c.index for c in stock_cards]
        hand._drawn = drawn
        hand._won = list(view.card_points)
        hand._tricks = list(view.tricks_won)
        marr = [0, 0]
        for m in view.marriages:
            marr[m.seat] += m.value
        pending = view.pending_marriages
        if hand._next_trick:
            # Only redeemed marriages are in _marr; the rest wait (marriage_counts).
            marr = [marr[0] - pending[0], marr[1] - pending[1]]
            hand._pending = pending[0] | pending[1] << PENDING_SHIFT
        else:
            hand._pending = 0
        hand._marr = marr
        hand._state = STATE_NAMES.index(view.state)
        assert view.to_act is not None
        hand._to_act = view.to_act
        hand._lead = view.lead[1].index if view.lead is not None else -1
        closer = -1 if view.closed_by is None else view.closed_by
        hand._closed_by = closer
        hand._closed_trick = -1 if view.closed_at is None else view.closed_at
        hand._close_points = _close_points(view) if closer >= 0 else 0
        hand._bonus_seat = -1
        hand._outcome = None
        hand._lmask = -1
        hand._undo = []
        hand._prefix = tuple((a.code, s) for s, a in view.history)
        hand.match_score = view.match_score
        hand.match_bonus = view.match_bonus
        return hand

    # Queries -------------------------------------------------------------------
    @property
    def state(self) -> str:
        """``lead``, ``follow``, ``draw`` or ``over``."""
        return STATE_NAMES[self._state]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        return None if self._state == OVER else self._to_act

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        return self._to_act if self._state != FOLLOW else 1 - self._to_act

    @property
    def lead_card(self) -> Card | None:
        """The card led to the current trick, if one is on the table."""
        return CARDS[self._lead] if self._lead >= 0 else None

    @property
    def actions(self) -> list[Action]:
        """Every action so far, in order."""
        return [ACTIONS[code] for code, _ in self._log()]  # type: ignore[misc]

    def _log(self) -> list[tuple[int, int]]:
        """Every action so far with the seat that took it, as codes."""
        return [*self._prefix, *((u[0], u[2]) for u in self._undo)]

    @property
    def dealt_trump_card(self) -> Card:
        """The card turned up at the deal (R2.3), seen by both players."""
        return CARDS[self._dealt_trump]

    @property
    def stock_size(self) -> int:
        """Cards left in the stock, counting the turned-up trump (R2.3)."""
        return STOCK_CARDS - self._drawn

    @property
    def stock(self) -> list[Card]:
        """The cards left in the stock, next to be drawn first (hidden information)."""
        return [CARDS[i] for i in self._stock[self._drawn:]]

    @property
    def trump_card(self) -> Card | None:
        """The turned-up trump while it lies face up (R11.1), else ``None``."""
        if self._closed_by >= 0 or self._drawn >= STOCK_CARDS:
            return None
        return CARDS[self._stock[-1]]

    @property
    def closed_by(self) -> int | None:
        return None if self._closed_by < 0 else self._closed_by

    @property
    def stock_open(self) -> bool:
        """Neither closed nor exhausted: phase 1 (R3)."""
        return self._closed_by < 0 and self._drawn < STOCK_CARDS

    def cards(self, seat: int) -> frozenset[Card]:
        """The cards in a seat's hand (hidden from the other seat)."""
        m = self._hands[seat]
        return frozenset(c for c in CARDS if m & c.mask)

    def cards_mask(self, seat: int) -> int:
        return self._hands[seat]

    def card_points(self, seat: int) -> int:
        """Card points taken in tricks (R1.3)."""
        return self._won[seat]

    def tricks_won(self, seat: int) -> int:
        return self._tricks[seat]

    def marriage_points(self, seat: int) -> int:
        """Marriage points announced, counted or not (R5.3)."""
        # Under next_trick those waiting are kept apart (otherwise _marr has them all).
        return self._marr[seat] + (self.pending_points(seat) if self._next_trick else 0)

    def pending_points(self, seat: int) -> int:
        """Marriage points announced that do not count yet: all of a seat's while it
        has no trick (R5.3), or under ``marriage_counts = next_trick`` those
        announced since its last trick won."""
        if self._next_trick:
            return self._pending >> (PENDING_SHIFT * seat) & PENDING_MASK
        return 0 if self._tricks[seat] else self._marr[seat]

    def score(self, seat: int) -> int:
        """The total toward 66: card points, counted marriages, last-trick bonus (R5.3, R7.3)."""
        total = self._won[seat]
        if self._tricks[seat]:
            total += self._marr[seat]
        if self._bonus_seat == seat:
            total += self._last_bonus
        return total

    def is_over(self) -> bool:
        return self._state == OVER

    def result(self) -> HandResult | None:
        """The outcome of a finished hand, or ``None`` while it is being played."""
        if self._outcome is None:
            return None
        winner, game_points, reason = self._outcome
        marriages: tuple[list[tuple[Suit, int]], list[tuple[Suit, int]]] = ([], [])
        for code, seat in self._log():
            if MARRIAGE <= code < EXCHANGE or code >= DECLARE_MARRIAGE:
                suit = SUIT_OF[code - MARRIAGE] if code < EXCHANGE else code - DECLARE_MARRIAGE
                marriages[seat].append((Suit(suit), 40 if suit == self.trump else 20))
        return HandResult(
            winner=winner,
            game_points=game_points,
            reason=reason,
            points=(self.score(0), self.score(1)),
            tricks=(self._tricks[0], self._tricks[1]),
            marriages=(tuple(marriages[0]), tuple(marriages[1])),
            closed_by=self.closed_by,
        )

    def key(self) -> tuple[int, ...]:
        """The whole game state as a tuple (history aside): equal keys, equal futures."""
        return (self._state, self._to_act, self._lead, self._hands[0], self._hands[1],
                self._won[0], self._won[1], self._tricks[0], self._tricks[1],
                self._marr[0], self._marr[1], self._drawn, self._closed_by,
                self._closed_trick, self._close_points, self._bonus_seat, self._pending,
                *self._stock[self._drawn:])

    # Legal actions -------------------------------------------------------------
    def legal_mask(self) -> int:
        """The legal actions as a bitmask over action codes (cached until the next push/pop)."""
        m = self._lmask
        if m >= 0:
            return m
        st = self._state
        p = self._to_act
        h = self._hands[p]
        if st == FOLLOW:
            # R3.2 any card while the stock is open; R7.2 in phase 2; R10.2 table rules.
            if self._enforce and (self._closed_by >= 0 or self._drawn >= STOCK_CARDS):
                m = follow_mask(h, self._lead, self.trump)
            else:
                m = h
        elif st == LEAD:
            m = h
            won = self._tricks[p] > 0
            ntricks = self._tricks[0] + self._tricks[1]
            stock_open = self._closed_by < 0 and self._drawn < STOCK_CARDS
            # R5.1-R5.4: marriages while the stock is open, or in the turn of closing.
            if (ntricks or self._marriage_first) and (
                stock_open or self._marriages_p2
                or (self._closed_by == p and self._closed_trick == ntricks)
            ):
                pairs = h & KINGS & (h << 1)
                while pairs:
                    king = pairs & -pairs
                    pairs ^= king
                    # R5.1: lead either card; marriage_lead = king: the King.
                    m |= (king if self._king_lead else king | king >> 1) << MARRIAGE
                    # R5.5 (not when the marriage only counts with a later trick).
                    if won and not self._auto and not self._next_trick:
                        m |= 1 << (DECLARE_MARRIAGE + SUIT_OF[king.bit_length() - 1])
            if stock_open:
                stock = STOCK_CARDS - self._drawn
                # R4.1: won a trick, stock open, holds the trump nine (S4.1: or the
                # jack, and perhaps at the first lead).
                if (won or (self._exchange_first and not ntricks)) and stock >= self._exchange_min \
                        and h & (1 << self._nine):
                    m |= BIT_EXCHANGE
                # R6.1: close while the stock is open, also before the first lead.
                if stock >= self._close_min and (ntricks or self._close_first):
                    m |= BIT_CLOSE
            if won and not self._auto:  # R8.1
                m |= BIT_DECLARE
        elif st == DRAWING:
            m = BIT_DRAW
            if STOCK_CARDS - self._drawn >= self._close_min:
                m |= BIT_CLOSE
            if not self._auto:
                m |= BIT_DECLARE
        else:
            m = 0
        self._lmask = m
        return m

    def legal_actions(self) -> list[Action]:
        """The legal actions, cards first in index order."""
        m = self.legal_mask()
        actions = [*_LOW_CARDS[m & 0xFFF], *_HIGH_CARDS[(m >> 12) & 0xFFF]]
        m >>= 24
        while m:
            low = m & -m
            m ^= low
            actions.append(ACTIONS[low.bit_length() + 23])  # type: ignore[arg-type]
        return actions

    def is_legal(self, action: Action) -> bool:
        return bool(self.legal_mask() >> action.code & 1)

    # Make / unmake -------------------------------------------------------------
    def push(self, action: Action) -> None:
        """Apply a legal action. An illegal one raises :class:`IllegalActionError`
        naming the legal ones, and changes nothing."""
        code = action.code
        if not self.legal_mask() >> code & 1:
            raise IllegalActionError(action, self.legal_actions(), self._why_illegal(action))
        self._push(code)

    def push_text(self, text: str, *, lenient: bool = False) -> Action:
        """Parse and push an action token; returns the action."""
        action = Action.parse(text, lenient=lenient)
        self.push(action)
        return action

    def push_code(self, code: int) -> None:
        """Apply the action with this code, which must be legal (no check: for search)."""
        self._push(code)

    def _push(self, code: int) -> None:
        hands = self._hands
        won = self._won
        tricks = self._tricks
        marr = self._marr
        p = self._to_act
        self._undo.append((code, self._state, p, self._lead, hands[0], hands[1], won[0], won[1],
                           tricks[0], tricks[1], marr[0], marr[1], self._drawn,
                           self._closed_by, self._closed_trick, self._close_points,
                           self._stock[-1], self._pending))
        self._lmask = -1
        if code < 24:
            if self._state == FOLLOW:
                self._follow(p, code)
            else:
                hands[p] ^= 1 << code
                self._lead = code
                self._state = FOLLOW
                self._to_act = 1 - p
        elif code < EXCHANGE:
            card = code - MARRIAGE
            value = 40 if SUIT_OF[card] == self.trump else 20  # R5.1
            if self._next_trick:
                self._pending += value << (PENDING_SHIFT * p)  # counts when p next wins a trick
            else:
                marr[p] += value
            if self._auto and tricks[p] and self.score(p) >= WINNING_TOTAL:
                self._declare(p)  # R5.5 under auto_declare: the card is not led
                return
            hands[p] ^= 1 << card
            self._lead = card
            self._state = FOLLOW
            self._to_act = 1 - p
        elif code == DRAW:
            self._draw(p)
            self._state = LEAD
        elif code == CLOSE:
            # R6.4: the failed-close penalty is judged at the moment of closing.
            self._closed_by = p
            self._closed_trick = tricks[0] + tricks[1]
            # The opponent's state now: what a successful close is worth under S5.3
            # (close_scoring), and whether he had a trick (R6.4).
            self._close_points = self._concede(1 - p)
            self._state = LEAD
        elif code == EXCHANGE:
            stock = self._stock
            hands[p] ^= (1 << self._nine) | (1 << stock[-1])
            stock[-1] = self._nine
        elif code == DECLARE:
            self._declare(p)
        else:  # 66+S: show the marriage and declare without leading (R5.5)
            suit = code - DECLARE_MARRIAGE
            marr[p] += 40 if suit == self.trump else 20
            self._declare(p)

    def _draw(self, winner: int) -> None:
        # R3.4: the winner draws first, then the loser.
        d = self._drawn
        stock = self._stock
        self._hands[winner] |= 1 << stock[d]
        self._hands[1 - winner] |= 1 << stock[d + 1]
        self._drawn = d + 2

    def _follow(self, p: int, card: int) -> None:
        hands = self._hands
        lead = self._lead
        leader = 1 - p
        phase2 = self._closed_by >= 0 or self._drawn >= STOCK_CARDS
        if phase2 and not self._enforce and not follow_mask(hands[p], lead, self.trump) >> card & 1:
            # R10.2: the revoke stands, is established with the trick, and ends the hand.
            hands[p] ^= 1 << card
            self._lead = -1
            self._finish(leader, 3 if self._won[p] == 0 else 2, "revoke")
            return
        hands[p] ^= 1 << card
        # R3.3: the higher card of the suit led, unless trumped.
        if SUIT_OF[card] == SUIT_OF[lead]:
            winner = p if card > lead else leader
        elif SUIT_OF[card] == self.trump:
            winner = p
        else:
            winner = leader
        self._won[winner] += POINTS[lead] + POINTS[card]
        self._tricks[winner] += 1
        if self._pending:
            # marriage_counts = next_trick: the winner's pending marriages count now.
            shift = PENDING_SHIFT * winner
            self._marr[winner] += self._pending >> shift & PENDING_MASK
            self._pending &= ~(PENDING_MASK << shift)
        self._lead = -1
        self._to_act = winner
        if not hands[winner]:
            # All cards played. R7.3: the last trick earns the bonus unless the hand was closed.
            if self._closed_by < 0:
                self._bonus_seat = winner
            self._played_out()
            return
        if self._closed_by < 0 and self._drawn < STOCK_CARDS:
            if self._draw_state:
                self._state = DRAWING
            else:
                self._draw(winner)
                self._state = LEAD
        else:
            self._state = LEAD
        if self._auto and self.score(winner) >= WINNING_TOTAL:
            self._declare(winner)

    def _concede(self, loser: int) -> int:
        """Game points won against ``loser`` (R9.1): Schwarz by tricks, Schneider under 33."""
        return conceded(self._tricks[loser], self.score(loser))

    def _close_success(self) -> int:
        """Game points of a successful close: by the opponent's points and tricks at
        the end (R6.3), or at the moment of closing (S5.3, ``close_scoring``)."""
        if self.rules.close_scoring == "at_close":
            return self._close_points
        return self._concede(1 - self._closed_by)

    def _failed_close(self) -> int:
        # R6.4 with option failed_close.
        if self.rules.failed_close == "three" or self._close_points == 3:  # no trick at the close
            return 3
        return 2

    def _false_declaration(self, opponent: int) -> int:
        # R8.3 with option false_declaration.
        if self.rules.false_declaration == "two_or_three" and not self._tricks[opponent]:
            return 3
        return 2

    def _declare(self, p: int) -> None:
        o = 1 - p
        correct = self.score(p) >= WINNING_TOTAL
        closer = self._closed_by
        if closer < 0:
            if correct:
                self._finish(p, self._concede(o), "declared")  # R8.2
            else:
                self._finish(o, self._false_declaration(o), "false_declaration")  # R8.3
        elif p == closer:
            if correct:
                self._finish(p, self._close_success(), "closed_succeeded")  # R6.3, S5.3
            else:
                self._finish(o, self._failed_close(), "closed_failed")  # R6.4
        elif correct:
            self._finish(p, self._failed_close(), "closed_failed")  # R6.4
        else:
            self._finish(closer, self._false_declaration(closer), "false_declaration")

    def _played_out(self) -> None:
        # R8.5: a closed hand by R6.3/R6.4, otherwise the higher total; equal is a tie.
        # S6.3 (played_out = last_trick): the winner of the last trick wins; he may
        # declare as he wins it, so with 66 he scores as declared, else one game point.
        # A closer must declare too: one who loses the last trick has failed.
        closer = self._closed_by
        last = self._to_act
        by_last_trick = self.rules.played_out == "last_trick"
        if closer >= 0:
            if self.score(closer) >= WINNING_TOTAL and (not by_last_trick or last == closer):
                self._finish(closer, self._close_success(), "closed_succeeded")
            else:
                self._finish(1 - closer, self._failed_close(), "closed_failed")
            return
        if by_last_trick:
            points = self._concede(1 - last) if self.score(last) >= WINNING_TOTAL else 1
            self._finish(last, points, "played_out")
            return
        s0, s1 = self.score(0), self.score(1)
        if s0 == s1:
            self._finish(None, 0, "tie")  # R9.2
        else:
            winner = 0 if s0 > s1 else 1
            self._finish(winner, self._concede(1 - winner), "played_out")

    def forfeit(self, seat: int) -> None:
        """End the hand because ``seat``'s program failed (it crashed, ran out of
        time or sent something that is not a legal action; see the bot protocol).

        Not a rule of the game: the hand stops where it is and the opponent
        scores :data:`FORFEIT_POINTS`, as after the worst loss (R9.1). Undo it
        with :meth:`pop`, which also takes back the action before it.

        >>> hand = Hand.random(seed=1)
        >>> hand.forfeit(hand.to_act)
        >>> hand.result().reason, hand.result().game_points
        ('forfeit', 3)
        """
        if type(seat) is not int or seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        if self._state == OVER:
            raise IllegalActionError("forfeit", (), "the hand is over")
        self._finish(1 - seat, FORFEIT_POINTS, "forfeit")

    def _finish(self, winner: int | None, game_points: int, reason: str) -> None:
        self._state = OVER
        self._outcome = (winner, game_points, reason)

    def pop(self) -> Action:
        """Undo the last action and return it."""
        (code, self._state, self._to_act, self._lead, h0, h1, w0, w1, t0, t1, m0, m1,
         self._drawn, self._closed_by, self._closed_trick, self._close_points,
         self._stock[-1], self._pending) = self._undo.pop()
        self._hands[0] = h0
        self._hands[1] = h1
        self._won[0] = w0
        self._won[1] = w1
        self._tricks[0] = t0
        self._tricks[1] = t1
        self._marr[0] = m0
        self._marr[1] = m1
        # Only the action that ended the hand sets these, and nothing follows it.
        self._bonus_seat = -1
        self._outcome = None
        self._lmask = -1
        return ACTIONS[code]  # type: ignore[return-value]

    def view(self, seat: int) -> View:
        """What ``seat`` may know (R11), and nothing more (DESIGN.md §5)."""
        from sixtysix.views import view

        return view(self, seat)

    def peek(self) -> Action | None:
        """The last action, if any."""
        log = self._log()
        return ACTIONS[log[-1][0]] if log else None

    def actors(self) -> list[int]:
        """The seat that took each action in :attr:`actions`."""
        return [seat for _, seat in self._log()]

    # Explanations ----------------------------------------------------------------
    def _why_illegal(self, action: Action) -> str:
        st = self._state
        if st == OVER:
            return "the hand is over"
        code = action.code
        p = self._to_act
        if code < EXCHANGE and action.card is not None and not self._hands[p] & action.card.mask:
            return f"player {p} does not hold {action.card}"
        if st == FOLLOW:
            if code >= 24:
                return "a card must be played to the trick"
            return "in phase 2 the follower must follow suit and win if he can, else trump (R7.2)"
        if st == DRAWING and code < EXCHANGE:
            return "the trick winner must first draw (D), close (C) or declare (66)"
        if code in (DECLARE,) or code >= DECLARE_MARRIAGE:
            if self._auto:
                return "declarations are automatic under auto_declare"
            return "only a player who has won a trick may declare (R8.1)"
        if code == EXCHANGE:
            return "the exchange needs the lead, a trick won, the trump nine and an open stock (R4.1)"
        if code == CLOSE:
            return "only the leader may close, while the stock is open (R6.1)"
        if code == DRAW:
            return "there is nothing to draw now"
        return "no marriage may be announced now (R5)"

    def __repr__(self) -> str:
        deck = " ".join(str(c) for c in self.deck)
        return f"<Hand dealer={self.dealer} rules={self.rules} deck={deck!r} actions={len(self._undo)}>"

    def _repr_html_(self) -> str:
        """The full state (both hands, the stock) drawn with the web client's cards, for Jupyter."""
        from sixtysix.svg import hand_html

        return hand_html(self)

    def describe(self) -> str:
        """A multi-line text of the full state (both hands: for debugging, not for players)."""
        lines = [f"trump {self.trump.letter}, stock {self.stock_size}, state {self.state}, "
                 f"to act {self.to_act}"]
        for seat in (0, 1):
            cards = " ".join(str(c) for c in sorted(self.cards(seat)))
            lines.append(f"  seat {seat}: {cards}  points {self.score(seat)} "
                         f"tricks {self._tricks[seat]}")
        return "\n".join(lines)


def replay_actions(hand: Hand, tokens: Sequence[str]) -> None:
    """Push action tokens strictly (records)."""
    for token in tokens:
        hand.push(Action.parse(token))


def _slot_copier() -> Callable[[Hand, Hand], None]:
    """A function that copies every slot of one hand into another: written out
    slot by slot, it is several times faster than a loop of getattr/setattr
    (:meth:`Hand.copy` runs once per world in the search bots)."""
    lines = ["def copy_slots(src, dst):"]
    lines += [f"    dst.{name} = src.{name}" for name in Hand.__slots__]
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)
    copier: Callable[[Hand, Hand], None] = namespace["copy_slots"]
    return copier


_copy_slots = _slot_copier()
