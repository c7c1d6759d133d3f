"""One deal of Sixty-six as a make/unmake state machine.

The state of a hand is a handful of integers: each player's cards are a 24-bit
mask, the stock is a list of card indices, and every :meth:`Hand.push` saves a
small tuple so that :meth:`Hand.pop` restores the state exactly. Search bots
call these millions of times, so the hot paths avoid allocation where they can.

States (docs/design.md §2): **lead** (the leader's turn, R3.6 steps 3-6),
**follow**, **draw** (R3.6 steps 1-2, only while the stock is open and
``close_before_draw`` holds) and **over**.

This module is the state machine. What a hand is built from and what it gives
have modules of their own, whose names are importable from here too: the deck
(:mod:`sixtysix.game.deck`: ``random_deck``, ``deck_from``), the result
(:mod:`sixtysix.game.result`: ``HandResult``, ``result_of``) and the worlds a view allows
(:mod:`sixtysix.game.worlds`, behind :meth:`Hand.from_view`).

>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> hand.trump, hand.to_act, hand.stock_size
(<Suit.CLUBS: 0>, 1, 12)
>>> [str(a) for a in hand.legal_actions()]
['TC', 'JD', 'QD', 'AD', 'KS', 'AS', 'C']
>>> hand.push(Action.parse("KS")); hand.push(Action.parse("9C"))
>>> hand.state, hand.to_act, [str(a) for a in hand.legal_actions()]
(<HandState.DRAW: 'draw'>, 0, ['C', 'D', '66'])
>>> _ = hand.pop(); _ = hand.pop(); hand.state
<HandState.LEAD: 'lead'>
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from sixtysix.errors import IllegalActionError
from sixtysix.game.actions import (
    ACTIONS,
    Action,
    action_of,
    actions_of_mask,
)
from sixtysix.game.cards import CARDS, Card, Suit
from sixtysix.game.deck import deck_from, random_deck
from sixtysix.game.refusal import Refusal, refusal
from sixtysix.game.result import HandResult, result_of
from sixtysix.game.views import View, world_key
from sixtysix.game.views import view as _view
from sixtysix.kernel import DEAL_LAYOUTS, Phase, State, config
from sixtysix.rules import CLASSIC, Rules
from sixtysix.states import HandState

__all__ = ["FORFEIT_POINTS", "Hand", "STATE_NAMES", "replay_actions"]

#: The states by the kernel's phase numbers (tables.Phase).
STATE_NAMES = (HandState.LEAD, HandState.FOLLOW, HandState.DRAW, HandState.OVER)

class _Record(NamedTuple):
    """The public record of the actions before a hand object's kernel state (from_view),
    in the kernel's terms."""

    tricks: tuple[tuple[int, int, int, int], ...]
    marriages: tuple[tuple[int, int, int, int], ...]
    exchange: tuple[int, int]


_NO_RECORD = _Record((), (), (-1, -1))

#: Game points the opponent of a player's program that failed scores (the
#: most a hand can give, R9.1; see :meth:`Hand.forfeit`).
FORFEIT_POINTS = 3


class Hand:
    """One deal: from the deal to the end of the hand.

    ``deck`` lists the pack top first (R2.4). Seats are 0 and 1; the player
    who is not the ``dealer`` leads first (R3.1).

    The state itself is a :class:`sixtysix.kernel.State`, :attr:`kernel`: the
    rules live there. A hand adds the checks (an illegal action raises
    :class:`IllegalActionError` naming the legal ones), cards and actions as
    objects, the history before a sampled world (:meth:`from_view`) and the match
    context.
    """

    __slots__ = ("rules", "dealer", "deck", "trump", "seed", "kernel", "_prefix", "_prefix_record",
                 "_dealt_trump", "match_score", "match_bonus")

    rules: Rules
    dealer: int
    deck: tuple[Card, ...]
    trump: Suit
    seed: int | None
    #: The whole state, in the rules kernel. Search code works on it directly (its
    #: ``push`` checks nothing); everything else goes through the hand.
    kernel: State
    #: The match score (game points of seats 0 and 1) before this hand, when it is
    #: part of a match (set by :meth:`sixtysix.game.match.Match.deal`), else ``None``.
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
        self.kernel = State.deal(idx, dealer, _config(rules))
        self.trump = Suit(self.kernel.trump)
        # Public actions before this object's first state (see from_view), as (code, seat),
        # and what the kernel decided by them (see trick_history).
        self._prefix: tuple[tuple[int, int], ...] = ()
        self._prefix_record = _NO_RECORD
        self._dealt_trump = idx[DEAL_LAYOUTS[rules.deck].trump]
        self.match_score = None
        self.match_bonus = 0

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
        other.rules = self.rules
        other.dealer = self.dealer
        other.deck = self.deck
        other.trump = self.trump
        other.seed = self.seed
        other.kernel = self.kernel.copy()
        other._prefix = self._prefix
        other._prefix_record = self._prefix_record
        other._dealt_trump = self._dealt_trump
        other.match_score = self.match_score
        other.match_bonus = self.match_bonus
        return other

    @classmethod
    def from_kernel(cls, state: State, dealer: int, rules: Rules) -> Hand:
        """The hand a kernel state is, dealt again and replayed with the hand's checks.

        ``state`` must hold its whole history from the deal (as the environments'
        tables do); a forfeit, which is not an action, is replayed too.

        >>> hand = Hand.random(seed=4)
        >>> hand.push(hand.legal_actions()[0])
        >>> Hand.from_kernel(hand.kernel, hand.dealer, hand.rules).key() == hand.key()
        True
        """
        work = state.copy()
        codes = [code for code, _ in work.history()]
        while work.depth():
            work.pop()
        layout = DEAL_LAYOUTS[rules.deck]
        deck = [-1] * rules.deck
        places = ((layout.non_dealer, work.hand(1 - dealer)), (layout.dealer, work.hand(dealer)))
        for positions, mask in places:
            cards = [c for c in range(24) if mask >> c & 1]
            if len(cards) != len(positions):
                raise ValueError("the state does not hold its history from the deal")
            for position, card in zip(positions, cards, strict=True):
                deck[position] = card
        for position, card in zip(layout.stock, work.stock_cards(), strict=True):
            deck[position] = card
        hand = cls.deal([CARDS[c] for c in deck], dealer, rules)
        for code in codes:
            hand.push(action_of(code))
        if state.phase == Phase.OVER and not hand.is_over():
            hand.forfeit(1 - state.winner)  # the only ending that is not an action
        return hand

    @classmethod
    def from_view(
        cls, view: View, opponent: Iterable[Card], stock: Sequence[Card] = ()
    ) -> Hand:
        """The full state that ``view`` shows, with the hidden cards filled in.

        ``opponent`` is the opponent's hand and ``stock`` the cards left in the
        stock in drawing order (the turned-up trump last). This is how search
        bots build the worlds they sample (determinization): the result agrees
        with everything in the view, and ``hand.view(view.seat)`` equals it.
        History before this state cannot be popped. The checks (a
        :class:`ValueError` if the cards do not fit the view) and the state are
        :func:`sixtysix.game.views.world_key`'s; this adds the hand around them.

        >>> hand = Hand.random(seed=2)
        >>> seat = hand.to_act
        >>> world = Hand.from_view(hand.view(seat), hand.cards(1 - seat), hand.stock)
        >>> world.key() == hand.key()
        True
        """
        key = world_key(view, opponent, stock)
        hand = object.__new__(cls)
        hand.rules = view.rules
        hand.dealer = view.dealer
        hand.deck = ()
        hand.seed = None
        hand.kernel = State.from_key(_config(view.rules), key)
        hand.trump = view.trump
        hand._dealt_trump = view.dealt_trump_card.index
        hand._prefix = tuple((a.code, s) for s, a in view.history)
        hand._prefix_record = _Record(
            tuple((t.leader, t.lead.index, t.follow.index, -1 if t.winner is None else t.winner)
                  for t in view.tricks),
            tuple((m.seat, int(m.suit), m.value, m.at_trick) for m in view.marriages),
            (-1, -1) if view.exchange is None else (view.exchange[0], view.exchange[1].index))
        hand.match_score = view.match_score
        hand.match_bonus = view.match_bonus
        return hand

    # Queries -------------------------------------------------------------------
    @property
    def state(self) -> HandState:
        """``lead``, ``follow``, ``draw`` or ``over``."""
        return STATE_NAMES[self.kernel.phase]

    @property
    def to_act(self) -> int | None:
        """The seat to act, or ``None`` when the hand is over."""
        k = self.kernel
        return None if k.phase == Phase.OVER else k.to_act

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the current trick."""
        k = self.kernel
        return k.to_act if k.phase != Phase.FOLLOW else 1 - k.to_act

    @property
    def lead_card(self) -> Card | None:
        """The card led to the current trick, if one is on the table."""
        lead = self.kernel.lead
        return CARDS[lead] if lead >= 0 else None

    @property
    def actions(self) -> list[Action]:
        """Every action so far, in order."""
        return [action_of(code) for code, _ in self._log()]

    def _log(self) -> list[tuple[int, int]]:
        """Every action so far with the seat that took it, as codes."""
        return [*self._prefix, *self.kernel.history()]

    # The public record: what the kernel decided as the actions were taken (a world built
    # by from_view adds what its view says of the actions before it).
    def trick_history(self) -> list[tuple[int, int, int, int]]:
        """Every completed trick as ``(leader, lead, follow, winner)``, cards as indices,
        the winner -1 for the revoked trick that ended the hand (R10.2): the kernel's
        :meth:`~sixtysix.kernel.State.trick_history`.

        >>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
        >>> hand.push(Action.parse("KS")); hand.push(Action.parse("9C"))
        >>> [(leader, str(CARDS[lead]), str(CARDS[follow]), winner)
        ...  for leader, lead, follow, winner in hand.trick_history()]
        [(1, 'KS', '9C', 0)]
        """
        return [*self._prefix_record.tricks, *self.kernel.trick_history()]

    def marriages_shown(self) -> list[tuple[int, int, int, int]]:
        """Every marriage shown as ``(seat, suit, value, at_trick)`` (R5.1, R5.5): the
        kernel's :meth:`~sixtysix.kernel.State.marriages_shown`."""
        return [*self._prefix_record.marriages, *self.kernel.marriages_shown()]

    def exchanged(self) -> tuple[int, int]:
        """Who exchanged and the turned-up card he took (R4.1), or ``(-1, -1)``: the
        kernel's :meth:`~sixtysix.kernel.State.exchanged`."""
        before = self._prefix_record.exchange
        return before if before[0] >= 0 else self.kernel.exchanged()

    @property
    def dealt_trump_card(self) -> Card:
        """The card turned up at the deal (R2.3), seen by both players."""
        return CARDS[self._dealt_trump]

    @property
    def stock_size(self) -> int:
        """Cards left in the stock, counting the turned-up trump (R2.3)."""
        return self.kernel.stock_size

    @property
    def stock(self) -> list[Card]:
        """The cards left in the stock, next to be drawn first (hidden information)."""
        return [CARDS[i] for i in self.kernel.stock_cards()]

    @property
    def trump_card(self) -> Card | None:
        """The turned-up trump while it lies face up (R11.1), else ``None``."""
        k = self.kernel
        if not k.stock_open:
            return None
        return CARDS[k.stock_cards()[-1]]

    @property
    def closed_by(self) -> int | None:
        closer = self.kernel.closed_by
        return None if closer < 0 else closer

    @property
    def stock_open(self) -> bool:
        """Neither closed nor exhausted: phase 1 (R3)."""
        return self.kernel.stock_open

    def cards(self, seat: int) -> frozenset[Card]:
        """The cards in a seat's hand (hidden from the other seat)."""
        m = self.kernel.hand(seat)
        return frozenset(c for c in CARDS if m & c.mask)

    def cards_mask(self, seat: int) -> int:
        return self.kernel.hand(seat)

    def card_points(self, seat: int) -> int:
        """Card points taken in tricks (R1.3)."""
        return self.kernel.card_points(seat)

    def tricks_won(self, seat: int) -> int:
        return self.kernel.tricks_won(seat)

    def marriage_points(self, seat: int) -> int:
        """Marriage points announced, counted or not (R5.3)."""
        k = self.kernel
        return k.marriage_points(seat) + k.pending_points(seat)

    def pending_points(self, seat: int) -> int:
        """Marriage points announced that do not count yet: all of a seat's while it
        has no trick (R5.3), or under ``marriage_counts = next_trick`` those
        announced since its last trick won."""
        k = self.kernel
        if k.tricks_won(seat):
            return k.pending_points(seat)
        return k.marriage_points(seat) + k.pending_points(seat)

    def score(self, seat: int) -> int:
        """The total toward 66: card points, counted marriages, last-trick bonus (R5.3, R7.3)."""
        return self.kernel.score(seat)

    def is_over(self) -> bool:
        return self.kernel.phase == Phase.OVER

    def result(self) -> HandResult | None:
        """The outcome of a finished hand, or ``None`` while it is being played."""
        if self.kernel.phase != Phase.OVER:
            return None
        return result_of(self.kernel, self._log())

    def key(self) -> tuple[int, ...]:
        """The whole game state as a tuple (history aside): equal keys, equal futures."""
        return self.kernel.key()

    # Legal actions -------------------------------------------------------------
    def legal_mask(self) -> int:
        """The legal actions as a bitmask over action codes."""
        return self.kernel.legal_mask()

    def legal_actions(self) -> list[Action]:
        """The legal actions, cards first in index order."""
        return actions_of_mask(self.kernel.legal_mask())

    def is_legal(self, action: Action) -> bool:
        return bool(self.kernel.legal_mask() >> action.code & 1)

    # Make / unmake -------------------------------------------------------------
    def push(self, action: Action) -> None:
        """Apply a legal action. An illegal one raises :class:`IllegalActionError`
        naming the legal ones, and changes nothing."""
        code = action.code
        if not self.kernel.legal_mask() >> code & 1:
            raise IllegalActionError(action, self.legal_actions(), self._why_illegal(action))
        self.kernel.push(code)

    def push_text(self, text: str, *, lenient: bool = False) -> Action:
        """Parse and push an action token; returns the action."""
        action = Action.parse(text, lenient=lenient)
        self.push(action)
        return action

    def push_code(self, code: int) -> None:
        """Apply the action with this code, which must be legal (no check: for search)."""
        self.kernel.push(code)

    def forfeit(self, seat: int) -> None:
        """End the hand because ``seat``'s program failed (it crashed, ran out of
        time or sent something that is not a legal action; see the bot protocol).

        Not a rule of the game: the hand stops where it is and the opponent
        scores :data:`FORFEIT_POINTS`, as after the worst loss (R9.1). Undo it
        with :meth:`pop`, which also takes back the action before it.

        >>> hand = Hand.random(seed=1)
        >>> hand.forfeit(hand.to_act)
        >>> hand.result().reason, hand.result().game_points
        (<Reason.FORFEIT: 'forfeit'>, 3)
        """
        if type(seat) is not int or seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, not {seat!r}")
        if self.kernel.phase == Phase.OVER:
            raise IllegalActionError("forfeit", (), "the hand is over")
        self.kernel.forfeit(seat)

    def pop(self) -> Action:
        """Undo the last action and return it."""
        return action_of(self.kernel.pop())

    def view(self, seat: int) -> View:
        """What ``seat`` may know (R11), and nothing more (docs/design.md §6)."""
        return _view(self, seat)

    def peek(self) -> Action | None:
        """The last action, if any."""
        log = self._log()
        return ACTIONS[log[-1][0]] if log else None

    def actors(self) -> list[int]:
        """The seat that took each action in :attr:`actions`."""
        return [seat for _, seat in self._log()]

    # Explanations ----------------------------------------------------------------
    def _why_illegal(self, action: Action) -> Refusal:
        """Why ``action`` is refused now (:mod:`sixtysix.game.refusal`)."""
        return refusal(self.kernel, self.rules, action)

    def __repr__(self) -> str:
        deck = " ".join(str(c) for c in self.deck)
        return (f"<Hand dealer={self.dealer} rules={self.rules} deck={deck!r} "
                f"actions={self.kernel.depth()}>")

    def _repr_html_(self) -> str:
        """The full state (both hands, the stock) drawn with the web client's cards, for Jupyter."""
        from sixtysix.present.svg import hand_html

        return hand_html(self)

    def describe(self) -> str:
        """A multi-line text of the full state (both hands: for debugging, not for players)."""
        lines = [f"trump {self.trump.letter}, stock {self.stock_size}, state {self.state}, "
                 f"to act {self.to_act}"]
        for seat in (0, 1):
            cards = " ".join(str(c) for c in sorted(self.cards(seat)))
            lines.append(f"  seat {seat}: {cards}  points {self.score(seat)} "
                         f"tricks {self.tricks_won(seat)}")
        return "\n".join(lines)


def replay_actions(hand: Hand, tokens: Sequence[str]) -> None:
    """Push action tokens strictly (records)."""
    for token in tokens:
        hand.push(Action.parse(token))


_CONFIGS: dict[Rules, object] = {}


def _config(rules: Rules) -> Any:
    """The kernel's reading of ``rules``, made once per set of rules."""
    found = _CONFIGS.get(rules)
    if found is None:
        found = _CONFIGS[rules] = config(rules)
    return found
