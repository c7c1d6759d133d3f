"""What one seat may know (R11): :func:`view` builds it from a hand.

A :class:`View` holds the seat's own cards, everything public (the turned-up
trump while face up, the stock size, every card played and every marriage
shown, the exchanged nine, who closed and when, trick winners) and nothing
else: never the opponent's hand or the order of the stock (R11.2). Players,
bots, screens and network clients are given views, never hands (docs/design.md §6).

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=5)
>>> v = hand.view(1)
>>> v.seat, v.to_act, len(v.hand), v.stock_size
(1, 1, 6, 12)
>>> v.hand == hand.cards(1)
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sixtysix.errors import ParseError
from sixtysix.game.actions import Action
from sixtysix.game.cards import CARDS, Card, Rank, Suit, pack
from sixtysix.game.result import HandResult
from sixtysix.kernel.tables import STOCK_CARDS, Phase, conceded, declared_total
from sixtysix.rules import MarriageCounts, Rules
from sixtysix.states import HandState

if TYPE_CHECKING:
    from sixtysix.game.hand import Hand

__all__ = ["Marriage", "PublicView", "Trick", "View", "match_of", "public_view", "view",
           "view_from_json", "world_key"]


@dataclass(frozen=True)
class Trick:
    """A completed trick as both players saw it. ``winner`` is ``None`` for a revoked trick (R10.2)."""

    leader: int
    lead: Card
    follow: Card
    winner: int | None

    @property
    def points(self) -> int:
        return self.lead.points + self.follow.points


@dataclass(frozen=True)
class Marriage:
    """A marriage shown: both cards are seen by the opponent (R11.1)."""

    seat: int
    suit: Suit
    value: int
    #: Index of the trick (from 0) the marriage was announced at.
    at_trick: int

    @property
    def cards(self) -> tuple[Card, Card]:
        return Card(self.suit, Rank.KING), Card(self.suit, Rank.QUEEN)


@dataclass(frozen=True)
class View:
    """Everything one seat may know, and nothing more (R11)."""

    seat: int
    rules: Rules
    dealer: int
    state: HandState
    to_act: int | None
    #: The seat's own cards.
    hand: frozenset[Card]
    trump: Suit
    #: The turned-up trump while it lies face up (R11.1), else ``None``.
    trump_card: Card | None
    #: The card turned up at the deal (seen by both players).
    dealt_trump_card: Card
    stock_size: int
    closed_by: int | None
    #: Tricks completed when the stock was closed.
    closed_at: int | None
    #: The card led to the current trick and its leader, if one is on the table.
    lead: tuple[int, Card] | None
    #: Every completed trick, in order (the seat's memory, R11.3).
    tricks: tuple[Trick, ...]
    marriages: tuple[Marriage, ...]
    #: Who exchanged the trump nine and the card he took (R4, R11.1).
    exchange: tuple[int, Card] | None
    #: Every action so far with the seat that took it; all actions are public.
    history: tuple[tuple[int, Action], ...]
    tricks_won: tuple[int, int]
    card_points: tuple[int, int]
    #: Totals toward 66 as R5.3 counts them (a player may compute both from what he saw).
    scores: tuple[int, int]
    #: The legal actions, when this seat is to act.
    legal: tuple[Action, ...]
    result: HandResult | None
    #: The match score (game points of seats 0 and 1) before this hand, when the hand
    #: is part of a match, else ``None``; the target is ``rules.target`` (R9.3).
    match_score: tuple[int, int] | None = None
    #: Game points the winner of this hand collects from tied hands before it (R9.2).
    match_bonus: int = 0

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    @property
    def last_trick(self) -> Trick | None:
        """The trick just completed, which players may look at until the next lead (R3.5)."""
        if self.tricks and self.lead is None:
            return self.tricks[-1]
        return None

    @property
    def stock_open(self) -> bool:
        return self.closed_by is None and self.stock_size > 0

    @property
    def played(self) -> frozenset[Card]:
        """Every card played to a trick, including one on the table now."""
        cards = {c for t in self.tricks for c in (t.lead, t.follow)}
        if self.lead is not None:
            cards.add(self.lead[1])
        return frozenset(cards)

    def counted_marriages(self, seat: int, tricks: int | None = None) -> int:
        """The marriage points of ``seat`` that count toward 66 once the first ``tricks``
        tricks are complete (all of them by default): all it announced once it has a
        trick (R5.3), or under ``marriage_counts = next_trick`` those announced up to
        the last trick it won.

        >>> from sixtysix import Hand
        >>> Hand.random(seed=5).view(0).counted_marriages(0)
        0
        """
        n = len(self.tricks) if tricks is None else tricks
        won = [i for i, t in enumerate(self.tricks[:n]) if t.winner == seat]
        if not won:
            return 0
        upto = won[-1] if self.rules.marriage_counts is MarriageCounts.NEXT_TRICK else n
        return sum(m.value for m in self.marriages if m.seat == seat and m.at_trick <= upto)

    def declared_total(self, action: Action) -> int:
        """What this seat would count by declaring with ``action`` (``66`` or ``66+S``): its
        score, and the marriage shown with ``66+S`` (the kernel's
        :func:`~sixtysix.kernel.tables.declared_total`, R8.1, R5.5). Under 66 the
        declaration is false (R8.3).

        >>> from sixtysix import Action, Hand
        >>> view = Hand.random(seed=5).view(0)
        >>> view.declared_total(Action.parse("66")) == view.scores[0]
        True
        """
        return declared_total(self.scores[self.seat], action.code, self.trump)

    def counts(self, marriage: Marriage) -> bool:
        """Whether a marriage shown counts toward 66 now (R5.3; marriage_counts)."""
        won = [i for i, t in enumerate(self.tricks) if t.winner == marriage.seat]
        if not won:
            return False
        return self.rules.marriage_counts is not MarriageCounts.NEXT_TRICK or marriage.at_trick <= won[-1]

    @property
    def pending_marriages(self) -> tuple[int, int]:
        """Marriage points announced by seats 0 and 1 that do not count yet."""
        totals = [0, 0]
        for m in self.marriages:
            totals[m.seat] += m.value
        return (totals[0] - self.counted_marriages(0), totals[1] - self.counted_marriages(1))

    def known_opponent_cards(self) -> frozenset[Card]:
        """Cards the opponent is known to hold: a marriage partner shown and not yet
        played, the trump taken in an exchange, the turned-up trump taken with the last draw."""
        gone = self.played | self.hand
        known: set[Card] = set()
        for m in self.marriages:
            if m.seat == self.opponent:
                known.update(m.cards)
        if self.exchange is not None and self.exchange[0] == self.opponent:
            known.add(self.exchange[1])
        draws = self.rules.tricks_to_exhaust
        if self.stock_size == 0 and self.closed_by is None and len(self.tricks) >= draws:
            # R3.4: the loser of the sixth trick (the fifth from 20 cards, S2.2) took
            # the turned-up trump (or the card exchanged for it).
            sixth = self.tricks[draws - 1]
            if sixth.winner == self.seat:
                known.add(self.face_up)
        return frozenset(known - gone)

    @property
    def stock_bottom(self) -> Card | None:
        """The last card of the stock while it has any: the turned-up trump, or the nine
        exchanged for it (R4), face up or, after a close, face down (R6.2); both players know it."""
        return self.face_up if self.stock_size > 0 else None

    @property
    def exchange_card(self) -> Card:
        """The trump that may be exchanged for the turned-up one: the nine (R4.1), or
        the jack from the 20-card pack (S4.1)."""
        return Card(self.trump, Rank(self.rules.exchange_rank))

    @property
    def face_up(self) -> Card:
        """The stock's last card, seen by both players: the turned-up trump or the card
        exchanged for it (R4); the last draw gave it to a hand (R3.4) once the stock is empty."""
        if self.exchange is not None:
            return self.exchange_card
        return self.dealt_trump_card

    def unseen(self) -> frozenset[Card]:
        """Cards whose place the seat does not know: in the opponent's hand or the stock."""
        seen = self.hand | self.played | self.known_opponent_cards()
        if self.stock_size > 0:
            # The turned-up trump (or the nine exchanged for it) stays the last
            # card of the stock, face down after a close.
            seen = seen | {self.face_up}
        return frozenset(c for c in pack(self.rules.deck) if c not in seen)

    def _repr_html_(self) -> str:
        """What the seat sees, drawn with the web client's cards, for Jupyter."""
        from sixtysix.present.svg import view_html

        return view_html(self)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready form (for protocols and web clients)."""
        return _ordered(_public_json(self), seat=self.seat, hand=sorted(str(c) for c in self.hand),
                        legal=[str(a) for a in self.legal])


#: The keys of a view's JSON, in the order they are written (the bot protocol's
#: ``view`` line and the web client read them by name; the order is kept for people).
_JSON_KEYS = ("seat", "rules", "dealer", "state", "to_act", "hand", "trump", "trump_card",
              "dealt_trump_card", "stock_size", "closed_by", "closed_at", "lead", "tricks",
              "marriages", "exchange", "history", "tricks_won", "card_points", "scores", "legal",
              "result", "match_score", "match_bonus")


def _public_json(v: View | PublicView) -> dict[str, Any]:
    """The JSON of the facts everybody may know, written once for both kinds of view."""
    return {
        "rules": v.rules.to_json(),
        "dealer": v.dealer,
        "state": v.state,
        "to_act": v.to_act,
        "trump": v.trump.letter,
        "trump_card": None if v.trump_card is None else str(v.trump_card),
        "dealt_trump_card": str(v.dealt_trump_card),
        "stock_size": v.stock_size,
        "closed_by": v.closed_by,
        "closed_at": v.closed_at,
        "lead": None if v.lead is None else [v.lead[0], str(v.lead[1])],
        "tricks": [[t.leader, str(t.lead), str(t.follow), t.winner] for t in v.tricks],
        "marriages": [[m.seat, m.suit.letter, m.value, m.at_trick] for m in v.marriages],
        "exchange": None if v.exchange is None else [v.exchange[0], str(v.exchange[1])],
        "history": [[seat, str(a)] for seat, a in v.history],
        "tricks_won": list(v.tricks_won),
        "card_points": list(v.card_points),
        "scores": list(v.scores),
        "result": None if v.result is None else v.result.to_json(),
        "match_score": None if v.match_score is None else list(v.match_score),
        "match_bonus": v.match_bonus,
    }


def _ordered(public: dict[str, Any], **own: Any) -> dict[str, Any]:
    """The public facts and a seat's own (or a spectator's empty ones) in :data:`_JSON_KEYS` order;
    keys beyond them (a spectator's ``hand_sizes``) last."""
    both = public | own
    return {key: both[key] for key in (*_JSON_KEYS, *(k for k in both if k not in _JSON_KEYS))}


def view_from_json(obj: Any) -> View:
    """The inverse of :meth:`View.to_json` (what the bot protocol's ``view`` line carries).

    >>> from sixtysix import Hand
    >>> v = Hand.random(seed=5).view(1)
    >>> view_from_json(v.to_json()) == v
    True
    """

    def card(text: Any) -> Card:
        return Card.parse(str(text))

    def maybe(text: Any) -> Card | None:
        return None if text is None else card(text)

    try:
        lead = obj["lead"]
        exchange = obj["exchange"]
        result = obj["result"]
        return View(
            seat=int(obj["seat"]),
            rules=Rules.from_json(obj["rules"]),
            dealer=int(obj["dealer"]),
            state=HandState(str(obj["state"])),
            to_act=None if obj["to_act"] is None else int(obj["to_act"]),
            hand=frozenset(card(c) for c in obj["hand"]),
            trump=Suit.parse(obj["trump"]),
            trump_card=maybe(obj["trump_card"]),
            dealt_trump_card=card(obj["dealt_trump_card"]),
            stock_size=int(obj["stock_size"]),
            closed_by=None if obj["closed_by"] is None else int(obj["closed_by"]),
            closed_at=None if obj["closed_at"] is None else int(obj["closed_at"]),
            lead=None if lead is None else (int(lead[0]), card(lead[1])),
            tricks=tuple(Trick(int(t[0]), card(t[1]), card(t[2]), None if t[3] is None else int(t[3]))
                         for t in obj["tricks"]),
            marriages=tuple(Marriage(int(m[0]), Suit.parse(m[1]), int(m[2]), int(m[3]))
                            for m in obj["marriages"]),
            exchange=None if exchange is None else (int(exchange[0]), card(exchange[1])),
            history=tuple((int(s), Action.parse(str(a))) for s, a in obj["history"]),
            tricks_won=(int(obj["tricks_won"][0]), int(obj["tricks_won"][1])),
            card_points=(int(obj["card_points"][0]), int(obj["card_points"][1])),
            scores=(int(obj["scores"][0]), int(obj["scores"][1])),
            legal=tuple(Action.parse(str(a)) for a in obj["legal"]),
            result=None if result is None else HandResult.from_json(result),
            # Optional (added later): a view without them is a hand outside a match.
            match_score=None if obj.get("match_score") is None else (
                int(obj["match_score"][0]), int(obj["match_score"][1])),
            match_bonus=int(obj.get("match_bonus", 0)),
        )
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
        raise ParseError(f"not a view: {exc!r}") from None


@dataclass(frozen=True)
class PublicView:
    """What everybody at the table may know of a hand, spectators included (R11): no
    card of either hand, no legal choices; how many cards each player holds. It is
    built from the hand itself (:func:`public_view`), field by field, so that a field
    added to :class:`View` never reaches a spectator unless it is added here too.

    >>> from sixtysix import Hand
    >>> table = public_view(Hand.random(seed=5))
    >>> table.hand_sizes, table.stock_size, table.tricks
    ((6, 6), 12, ())
    """

    rules: Rules
    dealer: int
    state: HandState
    to_act: int | None
    trump: Suit
    trump_card: Card | None
    dealt_trump_card: Card
    stock_size: int
    closed_by: int | None
    closed_at: int | None
    lead: tuple[int, Card] | None
    tricks: tuple[Trick, ...]
    marriages: tuple[Marriage, ...]
    exchange: tuple[int, Card] | None
    history: tuple[tuple[int, Action], ...]
    tricks_won: tuple[int, int]
    card_points: tuple[int, int]
    scores: tuple[int, int]
    result: HandResult | None
    #: How many cards each seat holds (public: counted as they are dealt, drawn and played).
    hand_sizes: tuple[int, int]
    match_score: tuple[int, int] | None = None
    match_bonus: int = 0

    def to_json(self) -> dict[str, Any]:
        """The JSON a spectator is sent: a view's keys, with ``seat`` ``null`` and no
        cards held or legal actions (``hand`` and ``legal`` empty), and ``hand_sizes``."""
        return _ordered(_public_json(self), seat=None, hand=[], legal=[],
                        hand_sizes=list(self.hand_sizes))


def public_view(hand: Hand) -> PublicView:
    """What everybody may know of ``hand`` (R11): the actions, the tricks, the marriages
    shown, the turned-up trump, the stock's size, the totals; nobody's cards. The tricks
    and their winners, the marriages and their values, the exchange and the close are
    the kernel's record of the hand (:meth:`Hand.trick_history
    <sixtysix.game.hand.Hand.trick_history>` and the like): nothing is worked out here."""
    k = hand.kernel
    history = tuple(zip(hand.actors(), hand.actions, strict=True))
    exchanger, taken = hand.exchanged()
    return PublicView(
        rules=hand.rules,
        dealer=hand.dealer,
        state=hand.state,
        to_act=hand.to_act,
        trump=hand.trump,
        trump_card=hand.trump_card,
        dealt_trump_card=hand.dealt_trump_card,
        stock_size=hand.stock_size,
        closed_by=hand.closed_by,
        closed_at=None if k.closed_at < 0 else k.closed_at,
        # A card on the table was led by the seat not to act (a forfeit leaves it there).
        lead=None if k.lead < 0 else (1 - k.to_act, CARDS[k.lead]),
        tricks=tuple(Trick(leader, CARDS[lead], CARDS[follow], None if winner < 0 else winner)
                     for leader, lead, follow, winner in hand.trick_history()),
        marriages=tuple(Marriage(seat, Suit(suit), value, at_trick)
                        for seat, suit, value, at_trick in hand.marriages_shown()),
        exchange=None if exchanger < 0 else (exchanger, CARDS[taken]),
        history=history,
        tricks_won=(hand.tricks_won(0), hand.tricks_won(1)),
        card_points=(hand.card_points(0), hand.card_points(1)),
        scores=(hand.score(0), hand.score(1)),
        result=hand.result(),
        hand_sizes=(len(hand.cards(0)), len(hand.cards(1))),
        match_score=hand.match_score,
        match_bonus=hand.match_bonus,
    )


#: The fields a seat's view copies from the public view (all but the hand sizes).
_SHARED = tuple(f.name for f in dataclasses.fields(PublicView) if f.name != "hand_sizes")


def view(hand: Hand, seat: int) -> View:
    """What ``seat`` may know of ``hand`` (R11): what everybody knows
    (:func:`public_view`), the seat's own cards, and its legal actions when it is to act."""
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    table = public_view(hand)
    # Every public fact is a field of both (a View holds them all, and the seat's own).
    public = {name: getattr(table, name) for name in _SHARED}
    return View(seat=seat, hand=hand.cards(seat),
                legal=tuple(hand.legal_actions()) if table.to_act == seat else (), **public)


def match_of(view: View) -> tuple[int, int, int, int] | None:
    """The match around ``view`` as :func:`sixtysix.game.observation.encode` takes it: (mine,
    the opponent's, the target, the tie bonus at stake), or ``None`` for a hand outside a match."""
    if view.match_score is None:
        return None
    return (view.match_score[view.seat], view.match_score[view.opponent], view.rules.target,
            view.match_bonus)


def world_key(view: View, opponent: Iterable[Card], stock: Sequence[Card] = ()) -> tuple[int, ...]:
    """The kernel key (``State.key``) of the full state that ``view`` shows, with the
    opponent's hand ``opponent`` and the cards left in the stock ``stock``, in drawing
    order (the turned-up trump last).

    Raises :class:`ValueError` if the hand is over or the hidden cards do not fit the
    view: the view's cards and the hidden ones must make up the pack exactly once, in
    the numbers the view shows. :meth:`Hand.from_view <sixtysix.game.hand.Hand.from_view>`
    makes a hand of that state; :mod:`sixtysix.game.worlds` fills the hidden cards in.

    >>> from sixtysix import Hand
    >>> hand = Hand.random(seed=2)
    >>> seat = hand.to_act
    >>> world_key(hand.view(seat), hand.cards(1 - seat), hand.stock) == hand.key()
    True
    """
    if view.state == HandState.OVER:
        raise ValueError("the hand is over: there is nothing hidden left to fill in")
    seat = view.seat
    opp = list(opponent)
    stock_cards = list(stock)
    rules = view.rules
    own = view.hand
    everything = [*own, *opp, *stock_cards, *view.played]
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
    masks = [0, 0]
    for card in own:
        masks[seat] |= card.mask
    for card in opp:
        masks[1 - seat] |= card.mask
    announced = [0, 0]
    for m in view.marriages:
        announced[m.seat] += m.value
    # Pending points are apart only under marriage_counts = next_trick.
    pending = view.pending_marriages if rules.marriage_counts is MarriageCounts.NEXT_TRICK else (0, 0)
    assert view.to_act is not None
    closer = -1 if view.closed_by is None else view.closed_by
    return (
        int(Phase[view.state.name]), view.to_act,  # the kernel's phase of the same name
        view.lead[1].index if view.lead is not None else -1, int(view.trump),
        masks[0], masks[1], *view.card_points, *view.tricks_won,
        announced[0] - pending[0], announced[1] - pending[1], pending[0], pending[1],
        STOCK_CARDS - view.stock_size, closer,
        -1 if view.closed_at is None else view.closed_at,
        _close_points(view) if closer >= 0 else 0,
        -1, *(c.index for c in stock_cards),
    )


def _close_points(view: View) -> int:
    """:func:`~sixtysix.kernel.conceded` for the closer's opponent when the stock was
    closed, as ``view`` shows it: what a successful close is worth under S5.3, and 3
    exactly when the opponent had no trick then (R6.4)."""
    assert view.closed_by is not None and view.closed_at is not None
    opponent = 1 - view.closed_by
    before = [t for t in view.tricks[:view.closed_at] if t.winner == opponent]
    points = sum(t.points for t in before) + view.counted_marriages(opponent, view.closed_at)
    return conceded(len(before), points)
