"""Text for people: a seat's view of a hand drawn as lines of text.

Everything here works from a :class:`~sixtysix.views.View` (what one seat may
know, R11) and public facts such as the match score, never from a
:class:`~sixtysix.hand.Hand`, so whatever it prints is safe to show to that
seat (docs/design.md §6). The functions return strings; how they reach the player
(a terminal line by line, a full-screen UI, a web page) is up to the caller.

A :class:`Style` decides how cards and emphasis look: the plain style prints
canonical notation (``KH``) and no escape codes; :class:`AnsiStyle` uses suit
symbols and terminal colours, with the rank letters printed on the cards in the
player's language (:func:`sixtysix.i18n.rank_letter`). Every sentence comes from
the message catalogs (:mod:`sixtysix.i18n`), in the language of the context.

>>> from sixtysix import Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> seats = Seats(seat=1)
>>> print(render_hand(hand.view(1), Style()))
TC* | AD QD JD | AS KS
>>> [str(a) for a in ordered_legal(hand.view(1))]
['TC', 'AD', 'QD', 'JD', 'AS', 'KS', 'C']
>>> parse_choice("2", hand.view(1))
Action.parse('AD')
>>> seats.pick(1, _("You lead {card}."), _("{name} leads {card}."), card="KS")
'You lead KS.'
>>> with i18n.use("de"):
...     print(render_hand(hand.view(1), AnsiStyle(color=False)))
...     parse_choice("dd", hand.view(1))
10♣* | A♦ D♦ B♦ | A♠ K♠
Action.parse('QD')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix import i18n
from sixtysix.actions import Action, ActionKind
from sixtysix.analysis import ActionValue
from sixtysix.cards import Card, Rank, Suit
from sixtysix.errors import ParseError
from sixtysix.explain import Reason, Scale, explain
from sixtysix.i18n import N_, _, ngettext
from sixtysix.kernel.tables import marriage_value
from sixtysix.views import View

__all__ = [
    "HELP",
    "render_hint",
    "AnsiStyle",
    "MatchInfo",
    "Seats",
    "Style",
    "action_meaning",
    "card_text",
    "describe_action",
    "describe_cuts",
    "describe_deal",
    "describe_match",
    "level_name",
    "describe_match_end",
    "describe_result",
    "describe_score",
    "ordered_legal",
    "parse_choice",
    "rank_word",
    "render_choices",
    "render_hand",
    "render_screen",
    "sorted_cards",
    "suit_name",
    "tricks_text",
    "why_illegal",
]

#: The suits' names, in the order of :class:`~sixtysix.cards.Suit` (translate with :func:`suit_name`).
SUIT_NAMES = (N_("clubs"), N_("diamonds"), N_("hearts"), N_("spades"))
#: The ranks' names (translate with :func:`rank_word`).
RANK_NAMES = {Rank.NINE: N_("nine"), Rank.JACK: N_("jack"), Rank.QUEEN: N_("queen"),
              Rank.KING: N_("king"), Rank.TEN: N_("ten"), Rank.ACE: N_("ace")}
RANK_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)


def suit_name(suit: Suit) -> str:
    """``hearts``: the suit's name in the current language."""
    return _(SUIT_NAMES[suit])


def rank_word(rank: Rank) -> str:
    """``nine``, ``jack`` ...: a rank in words, in the current language."""
    return _(RANK_NAMES[rank])


def _rank_word(card: Card) -> str:
    return rank_word(card.rank)


def card_text(card: Card) -> str:
    """A card as printed on it, in the current language: ``10♦``, ``Q♥`` (``D♥`` in German)."""
    rank = "10" if card.rank is Rank.TEN else i18n.rank_letter(card.rank.letter)
    return rank + card.suit.symbol


def tricks_text(n: int) -> str:
    """``1 trick``, ``3 tricks``."""
    return ngettext("{n} trick", "{n} tricks", n).format(n=n)


#: The help of the line game (translate with ``_(HELP)`` where it is shown).
HELP = N_("""\
How to play (Sixty-six; type these at the prompt, upper or lower case):
  a card           play it: KH, kh, 10h, TH, K♥ (rank A T K Q J 9, suit C D H S)
  KH+  or  QH+     announce the marriage in hearts and lead that card
  X  or exchange   swap the trump nine (jack in Schnapsen) for the turned-up trump
  C  or close      close the stock (no more drawing; strict play from now on)
  D  or draw       draw after a trick you won (Enter alone also draws)
  66 or declare    declare that you have reached 66 (a false claim loses)
  66+H             show the hearts marriage and declare 66 without leading
  a number         the action with that number in the list
  show             print the table again
  hint             ask the computer to rate every legal action for you
  ?  or help       this help
  quit             stop the game (the record is still saved with --save)
While the stock is open any card may follow. Once it is closed or exhausted
the follower must follow suit and win if he can, else trump if he can.
The first player to declare 66 correctly wins the hand: 1 game point, 2 if the
loser has under 33, 3 if he took no trick. Declaring is up to you.""")


class Style:
    """Plain text: canonical card notation, no colour. Subclass for other looks."""

    symbols = False

    def card(self, card: Card, trump: Suit | None = None) -> str:
        """A card; ``trump`` marks cards of that suit with ``*``."""
        text = self.card_token(card)
        if trump is not None and card.suit == trump:
            text += "*"
        return self.paint_suit(text, card.suit)

    def card_token(self, card: Card) -> str:
        return str(card)

    def suit(self, suit: Suit) -> str:
        """The suit's name (and symbol, where symbols are used)."""
        name = suit_name(suit)
        return self.paint_suit(f"{suit.symbol} {name}" if self.symbols else name, suit)

    def action(self, action: Action) -> str:
        """An action in the notation of docs/design.md §3, with its card styled."""
        if action.card is not None:
            text = self.card_token(action.card)
            if action.kind is ActionKind.MARRIAGE:
                text += "+"
            return self.paint_suit(text, action.card.suit)
        if action.kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
            letter = action.suit.symbol if self.symbols else action.suit.letter
            return "66+" + self.paint_suit(letter, action.suit)
        return str(action)

    def paint_suit(self, text: str, suit: Suit) -> str:
        return text

    def strong(self, text: str) -> str:
        return text

    def dim(self, text: str) -> str:
        return text

    def other(self, text: str) -> str:
        """Text about the opponent's doings."""
        return text

    def good(self, text: str) -> str:
        return text

    def bad(self, text: str) -> str:
        return text


class AnsiStyle(Style):
    """Suit symbols and ANSI colours, for terminals."""

    symbols = True

    def __init__(self, *, color: bool = True, symbols: bool = True) -> None:
        self.color = color
        self.symbols = symbols

    def card_token(self, card: Card) -> str:
        return card_text(card) if self.symbols else str(card)

    def _sgr(self, text: str, code: str) -> str:
        if not self.color:
            return text
        start, reset = f"\x1b[{code}m", "\x1b[0m"
        # A reset inside (a red card in a cyan sentence) must give the outer colour back.
        return start + text.replace(reset, reset + start) + reset

    def paint_suit(self, text: str, suit: Suit) -> str:
        return self._sgr(text, "31") if suit in (Suit.HEARTS, Suit.DIAMONDS) else text

    def strong(self, text: str) -> str:
        return self._sgr(text, "1")

    def dim(self, text: str) -> str:
        return self._sgr(text, "2")

    def other(self, text: str) -> str:
        return self._sgr(text, "36")

    def good(self, text: str) -> str:
        return self._sgr(text, "1;32")

    def bad(self, text: str) -> str:
        return self._sgr(text, "1;33")


@dataclass(frozen=True)
class Seats:
    """Who is who, from the point of view of the person reading: ``seat`` is
    "you", the other seat is called ``opponent`` (both translated where shown)."""

    seat: int = 0
    you: str = N_("You")
    opponent: str = N_("Computer")

    @property
    def other(self) -> str:
        """The opponent's name in the current language."""
        return _(self.opponent)

    def name(self, seat: int, *, start: bool = True) -> str:
        """The name of ``seat``: ``You`` (``you`` inside a sentence) or the opponent's name."""
        if seat == self.seat:
            you = _(self.you)
            return you if start else you.lower()
        return self.other

    def pick(self, seat: int, you: str, other: str, **values: object) -> str:
        """A sentence about ``seat``: ``you`` when it is the reader's, else ``other``
        (whose ``{name}`` is the opponent's name), with ``values`` filled in. Both
        come translated: ``seats.pick(seat, _("You lead {card}."), _("{name} leads {card}."), card=c)``."""
        text = you if seat == self.seat else other
        return text.format(name=self.other, **values)


@dataclass(frozen=True)
class MatchInfo:
    """The public state of the match around the hand being shown."""

    hand_number: int
    score: tuple[int, int]
    target: int
    pending_bonus: int = 0


# Ordering --------------------------------------------------------------------

def _suit_order(trump: Suit) -> list[Suit]:
    return [trump, *(s for s in Suit if s != trump)]


def sorted_cards(cards: frozenset[Card] | Sequence[Card], trump: Suit) -> list[Card]:
    """Cards grouped by suit, trumps first, each suit from the Ace down (R1.2)."""
    order = {s: i for i, s in enumerate(_suit_order(trump))}
    return sorted(cards, key=lambda c: (order[c.suit], -int(c.rank)))


def ordered_legal(view: View) -> list[Action]:
    """The seat's legal actions in the order they are listed and numbered:
    card plays in hand order, marriage leads, then the other actions."""
    order = {c: i for i, c in enumerate(sorted_cards(view.hand, view.trump))}

    def key(action: Action) -> tuple[int, int]:
        kind = action.kind
        if kind is ActionKind.PLAY and action.card is not None:
            return 0, order.get(action.card, 99)
        if kind is ActionKind.MARRIAGE and action.card is not None:
            return 1, order.get(action.card, 99)
        rest = (ActionKind.DRAW, ActionKind.EXCHANGE, ActionKind.CLOSE,
                ActionKind.DECLARE, ActionKind.DECLARE_MARRIAGE)
        return 2 + rest.index(kind), action.code

    return sorted(view.legal, key=key)


# The screen --------------------------------------------------------------------

def render_hand(view: View, style: Style) -> str:
    """The seat's cards, grouped by suit with trumps first and marked ``*``."""
    groups: list[str] = []
    cards = sorted_cards(view.hand, view.trump)
    for suit in _suit_order(view.trump):
        in_suit = [style.card(c, view.trump) for c in cards if c.suit == suit]
        if in_suit:
            groups.append(" ".join(in_suit))
    return " | ".join(groups) if groups else _("(no cards)")


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def _stock_line(view: View, seats: Seats, style: Style) -> str:
    suit = style.strong(style.suit(view.trump))
    if view.closed_by is not None:
        face_up = view.exchange_card if view.exchange is not None else view.dealt_trump_card
        detail = _cards(view.stock_size)
        if view.stock_size:
            detail = _("{cards}, {card} turned down").format(cards=detail, card=style.card(face_up))
        stock = seats.pick(view.closed_by, _("Stock: closed by you ({detail})"),
                           _("Stock: closed by {name} ({detail})"), detail=detail)
        return _("Trump: {suit}").format(suit=suit) + "   " + stock
    if view.stock_size == 0:
        return _("Trump: {suit}").format(suit=suit) + "   " + _("Stock: exhausted")
    if view.trump_card is not None:
        trump = _("Trump: {suit}, turned up {card}").format(suit=suit, card=style.card(view.trump_card))
    else:
        trump = _("Trump: {suit}").format(suit=suit)
    stock = ngettext("Stock: {n} card", "Stock: {n} cards", view.stock_size).format(n=view.stock_size)
    return f"{trump}   {stock}"


def _trick_text(view: View, seats: Seats, style: Style, memory: bool) -> str:
    trick = view.last_trick
    if trick is None:
        return ""
    text = seats.pick(trick.leader, _("You led {lead}, {name} played {follow}"),
                      _("{name} led {lead}, you played {follow}"),
                      lead=style.card(trick.lead), follow=style.card(trick.follow))
    if trick.winner is None:
        return text + " - " + _("revoked, it counts for nobody")
    if memory:
        won = seats.pick(trick.winner, _("you won it"), _("{name} won it"))
    else:
        won = seats.pick(trick.winner,
                         ngettext("you won it ({n} point)", "you won it ({n} points)", trick.points),
                         ngettext("{name} won it ({n} point)", "{name} won it ({n} points)", trick.points),
                         n=trick.points)
    return f"{text} - {won}"


def _marriages_text(view: View, seats: Seats, style: Style) -> str:
    parts = []
    for m in view.marriages:
        waits = _("counts with the next trick won") if view.rules.marriage_counts == "next_trick" \
            else _("counts once a trick is won")
        note = "" if view.counts(m) else f", {waits}"
        parts.append(f"{seats.name(m.seat, start=False)}: {style.suit(m.suit)} "
                     f"{style.card(m.cards[0])} {style.card(m.cards[1])} ({m.value}{note})")
    return "; ".join(parts) if parts else _("none")


def describe_score(score: tuple[int, int], seats: Seats, style: Style) -> str:
    """``You 3, Computer 5``."""
    me, them = seats.seat, 1 - seats.seat
    return f"{seats.name(me)} {score[me]}, {seats.name(them)} {score[them]}"


def render_screen(view: View, style: Style, seats: Seats, info: MatchInfo | None = None,
                  *, memory: bool = False) -> str:
    """Everything the seat may see at a decision, as lines of text (without the choices).

    With ``memory`` the running totals toward 66 are left out (R11.3).
    """
    me, them = seats.seat, 1 - seats.seat
    lines: list[str] = []
    trick = min(len(view.tricks) + 1, 12)
    if info:
        title = _("Hand {n}, trick {trick}").format(n=info.hand_number, trick=trick)
    else:
        title = _("Hand, trick {trick}").format(trick=trick)
    dealer = seats.pick(view.dealer, _("you deal"), _("{name} deals"))
    head = f"{title} ({dealer})"
    if info is not None:
        score = describe_score(info.score, seats, style)
        if info.pending_bonus:
            match = _("Match: {score} (first to {target}), +{bonus} for the winner of this hand (tie)"
                      ).format(score=score, target=info.target, bonus=info.pending_bonus)
        else:
            match = _("Match: {score} (first to {target})").format(score=score, target=info.target)
        head = f"{head}   {match}"
    lines.append(style.strong(f"== {head} =="))
    lines.append(_stock_line(view, seats, style))
    if view.exchange is not None and view.stock_open:
        who, card = view.exchange
        lines.append(seats.pick(who, _("Exchange: you took {card} for the trump {rank}"),
                                _("Exchange: {name} took {card} for the trump {rank}"),
                                card=style.card(card), rank=_rank_word(view.exchange_card)))
    if view.last_trick is not None:
        lines.append(_("Last trick: {trick}").format(trick=_trick_text(view, seats, style, memory)))
    lines.append(_("Marriages: {marriages}").format(marriages=_marriages_text(view, seats, style)))
    known = view.known_opponent_cards()
    if known and not memory:  # what was shown and not yet played: a memory aid (R11.3)
        cards = " ".join(style.card(c, view.trump) for c in sorted_cards(known, view.trump))
        lines.append(_("Known in {name}'s hand: {cards}").format(name=seats.name(them), cards=cards))
    if memory:
        lines.append(_("Tricks: {you} {your_tricks}, {name} {their_tricks} (points hidden: memory mode)"
                       ).format(you=seats.name(me), your_tricks=tricks_text(view.tricks_won[me]),
            name=seats.name(them), their_tricks=tricks_text(view.tricks_won[them])))
    else:
        lines.append(_("Points: {you} {your_points} ({your_tricks}), {name} {their_points} ({their_tricks})"
                       ).format(you=seats.name(me), your_points=view.scores[me],
                                your_tricks=tricks_text(view.tricks_won[me]), name=seats.name(them),
                                their_points=view.scores[them],
                                their_tricks=tricks_text(view.tricks_won[them])))
    if view.lead is not None:
        leader, card = view.lead
        lines.append(seats.pick(leader, _("On the table: You led {card}"),
                                _("On the table: {name} led {card}"), card=style.strong(style.card(card))))
    lines.append(_("Your hand: {cards}").format(cards=render_hand(view, style)))
    return "\n".join(lines)


# Choices ---------------------------------------------------------------------

def action_meaning(action: Action, view: View, style: Style) -> str:
    """A few words on what an action does (empty for a plain card play)."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        return ""
    if kind is ActionKind.MARRIAGE and action.card is not None:
        value = marriage_value(action.card.suit, view.trump)
        return _("marriage in {suit} ({value}), lead {card}").format(
            suit=suit_name(action.card.suit), value=value, card=style.card(action.card))
    if kind is ActionKind.EXCHANGE:
        if view.trump_card is not None:
            return _("exchange {card} for {trump}").format(card=style.card(view.exchange_card),
                                                           trump=style.card(view.trump_card))
        return _("exchange {card}").format(card=style.card(view.exchange_card))
    if kind is ActionKind.CLOSE:
        return _("close the stock without drawing") if view.state == "draw" else _("close the stock")
    if kind is ActionKind.DRAW:
        return _("draw (Enter)")
    if kind is ActionKind.DECLARE:
        return _("declare 66")
    assert action.suit is not None
    value = marriage_value(action.suit, view.trump)
    return _("show the {suit} marriage ({value}) and declare 66").format(suit=suit_name(action.suit),
                                                                         value=value)


def _situation(view: View, seats: Seats, style: Style) -> str:
    if view.state == "draw":
        return _("You won the trick.")
    if view.state == "follow" and view.lead is not None:
        leader, card = view.lead
        if view.stock_open:
            return _("Your turn: answer {name}'s {card}.").format(name=seats.name(leader),
                                                                  card=style.card(card))
        return _("Your turn: answer {name}'s {card} (follow suit and win if you can, else trump).").format(
            name=seats.name(leader), card=style.card(card))
    return _("Your lead.")


def render_choices(view: View, style: Style, seats: Seats | None = None) -> str:
    """The numbered legal actions, cards on one line, the others one a line."""
    seats = seats or Seats(view.seat)
    actions = ordered_legal(view)
    cards: list[str] = []
    others: list[str] = []
    for number, action in enumerate(actions, 1):
        meaning = action_meaning(action, view, style)
        if meaning:
            others.append(f"  {number:>2}  {style.action(action):<6} {meaning}")
        else:
            cards.append(f"{number}={style.action(action)}")
    lines = [_("{situation} Choose by notation or number (? for help):").format(
        situation=_situation(view, seats, style))]
    if cards:
        lines.append("  " + "  ".join(cards))
    lines.extend(others)
    return "\n".join(lines)


# Input -------------------------------------------------------------------------

def why_illegal(action: Action, view: View) -> str:
    """Why ``action`` is not legal for the seat now, in words for the player."""
    kind = action.kind
    card = action.card
    state = view.state
    if view.to_act != view.seat:
        return _("it is not your turn")
    if card is not None and kind in (ActionKind.PLAY, ActionKind.MARRIAGE) and card not in view.hand:
        return _("you do not hold {card}").format(card=card)
    if state == "draw":
        return _("you won the trick: first draw (D), close (C) or declare (66)")
    if state == "follow":
        if card is None or kind is not ActionKind.PLAY:
            return _("you must play a card to the trick")
        return _("the stock is closed or exhausted: follow suit and win if you can, else trump (R7.2)")
    if kind is ActionKind.MARRIAGE and card is not None:
        partner = Card(card.suit, Rank.QUEEN if card.rank is Rank.KING else Rank.KING)
        if partner not in view.hand:
            return _("a marriage needs both King and Queen: you do not hold {card}").format(card=partner)
        return _("no marriage may be announced now (R5)")
    if kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
        king, queen = Card(action.suit, Rank.KING), Card(action.suit, Rank.QUEEN)
        if king not in view.hand or queen not in view.hand:
            return _("you do not hold both {king} and {queen}").format(king=king, queen=queen)
    if kind in (ActionKind.DECLARE, ActionKind.DECLARE_MARRIAGE):
        if view.rules.auto_declare:
            return _("declarations are automatic under these rules")
        return _("you may declare only on lead after winning a trick (R8.1)")
    won = view.tricks_won[view.seat] > 0
    if kind is ActionKind.EXCHANGE:
        low = view.exchange_card
        if low not in view.hand:
            return _("only the holder of the trump {rank} ({card}) may exchange it (R4.1)").format(
                rank=_rank_word(low), card=low)
        if not won:
            return _("you may exchange only after winning a trick (R4.1)")
        if not view.stock_open:
            return _("the stock is closed or exhausted (R4.1)")
        return _("too few cards are left in the stock (R4)")
    if kind is ActionKind.CLOSE:
        if not view.stock_open:
            return _("the stock is already closed or exhausted (R6.1)")
        if not view.tricks and not view.rules.close_first_lead:
            return _("these rules do not allow closing before the first trick")
        return _("too few cards are left in the stock to close")
    if kind is ActionKind.DRAW:
        return _("there is nothing to draw now")
    return _("that is not allowed now")


_SUIT_CHARACTERS = frozenset("CDHScdhs♣♦♥♠")


def _canonical(raw: str) -> str:
    """A card (or a marriage lead) typed with the rank letters of the current language
    (``DH``, ``d♥``, ``DH+`` in German) in canonical notation (``QH``, ``QH+``);
    any other text as it is."""
    local = {i18n.rank_letter(r).upper(): r for r in "JQKA" if i18n.rank_letter(r).upper() != r}
    if len(raw) < 2 or raw[0].upper() not in local:
        return raw
    rest = raw[1:]
    if rest[0] in _SUIT_CHARACTERS and rest[1:] in ("", "+"):
        return local[raw[0].upper()] + rest
    return raw


def parse_choice(text: str, view: View) -> Action:
    """The action a player means by ``text``: a number from :func:`ordered_legal`,
    an action in lenient notation (cards also with the rank letters of the current
    language: ``DH`` or ``D♥`` for the queen of hearts in German), or Enter for the draw.

    Raises :class:`~sixtysix.errors.ParseError` saying why when it is not a
    legal action.
    """
    raw = _canonical(text.strip().replace("*", ""))
    actions = ordered_legal(view)
    draw = Action.parse("D")
    if not raw:
        if draw in actions:
            return draw
        raise ParseError(_("type an action or its number"))
    if raw.isdigit() and raw != "66":
        number = int(raw)
        if 1 <= number <= len(actions):
            return actions[number - 1]
        raise ParseError(_("there is no choice {number}: choose 1 to {last}").format(
            number=number, last=len(actions)))
    try:
        action = Action.parse(raw, lenient=True)
    except ParseError:
        raise ParseError(_("{text} is not an action: type a card (KH, 10h), a marriage (KH+), "
                           "X, C, D, 66, 66+H or a number from the list").format(text=repr(raw))) from None
    if action not in view.legal:
        raise ParseError(_("{action} is not allowed: {why}").format(action=action,
                                                                    why=why_illegal(action, view)))
    return action


# Events ------------------------------------------------------------------------

def _new_cards(before: View, after: View) -> list[Card]:
    return sorted(after.hand - before.hand)


def describe_action(seat: int, action: Action, before: View, after: View, seats: Seats,
                    style: Style, *, memory: bool = False) -> list[str]:
    """Sentences telling what happened when ``seat`` took ``action``.

    ``before`` and ``after`` are the reader's views around the action; the
    sentences use only what they show.
    """
    lines: list[str] = []
    kind = action.kind
    me = seats.seat
    mark = style.other if seat != me else (lambda s: s)
    if kind is ActionKind.MARRIAGE and action.card is not None:
        suit = action.card.suit
        value = marriage_value(suit, before.trump)
        king, queen = Card(suit, Rank.KING), Card(suit, Rank.QUEEN)
        facts = {"suit": style.suit(suit), "king": style.card(king), "queen": style.card(queen),
                 "value": value, "card": style.card(action.card)}
        if after.lead is not None and after.lead[0] == seat:
            text = seats.pick(seat, _("You announce the marriage in {suit}, {king} {queen} ({value}), "
                                      "and lead {card}."),
                              _("{name} announces the marriage in {suit}, {king} {queen} ({value}), "
                                "and leads {card}."), **facts)
        else:
            text = seats.pick(seat, _("You announce the marriage in {suit}, {king} {queen} ({value})."),
                              _("{name} announces the marriage in {suit}, {king} {queen} ({value})."),
                              **facts)
        lines.append(mark(text))
    elif kind is ActionKind.PLAY and action.card is not None:
        if before.lead is None:
            lines.append(mark(seats.pick(seat, _("You lead {card}."), _("{name} leads {card}."),
                                         card=style.card(action.card))))
        else:
            lines.append(mark(seats.pick(seat, _("You play {card}."), _("{name} plays {card}."),
                                         card=style.card(action.card))))
    elif kind is ActionKind.EXCHANGE:
        took = before.trump_card
        low = before.exchange_card
        lines.append(mark(seats.pick(
            seat, _("You exchange the trump {rank}: {card} is turned up, you take {trump}."),
            _("{name} exchanges the trump {rank}: {card} is turned up, {name} takes {trump}."),
            rank=_rank_word(low), card=style.card(low),
            trump=style.card(took) if took is not None else _("the trump card"))))
    elif kind is ActionKind.CLOSE:
        if before.state == "draw":
            text = seats.pick(seat, _("You close the stock without drawing. From now on: follow suit "
                                      "and win if you can, else trump."),
                              _("{name} closes the stock without drawing. From now on: follow suit "
                                "and win if you can, else trump."))
        else:
            text = seats.pick(seat, _("You close the stock. From now on: follow suit and win if you can, "
                                      "else trump."),
                              _("{name} closes the stock. From now on: follow suit and win if you can, "
                                "else trump."))
        lines.append(mark(text))
    elif kind is ActionKind.DECLARE:
        lines.append(mark(seats.pick(seat, _("You declare 66!"), _("{name} declares 66!"))))
    elif kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
        suit = action.suit
        value = marriage_value(suit, before.trump)
        lines.append(mark(seats.pick(seat, _("You show the marriage in {suit} ({value}) and declare 66!"),
                                     _("{name} shows the marriage in {suit} ({value}) and declares 66!"),
                                     suit=style.suit(suit), value=value)))
    # What followed from the action: a completed trick, a draw.
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        if trick.winner is None:
            lines.append(style.bad(_("The trick is revoked: it counts for nobody.")))
        elif memory:
            lines.append(seats.pick(trick.winner, _("You win the trick."), _("{name} wins the trick.")))
        else:
            lines.append(seats.pick(
                trick.winner,
                ngettext("You win the trick ({n} point).", "You win the trick ({n} points).", trick.points),
                ngettext("{name} wins the trick ({n} point).", "{name} wins the trick ({n} points).",
                         trick.points),
                n=trick.points))
    if after.stock_size < before.stock_size:
        lines.append(_describe_draw(before, after, seats, style))
    return lines


def _describe_draw(before: View, after: View, seats: Seats, style: Style) -> str:
    me = seats.seat
    mine = _new_cards(before, after)
    drew = style.card(mine[0]) if mine else _("a card")
    # R3.4: the trick winner draws first.
    winner = after.tricks[-1].winner if after.tricks else me
    winner = me if winner is None else winner
    if after.stock_size > 0:
        return seats.pick(winner, _("You draw {card}, {name} draws a card; {n} left in the stock."),
                          _("{name} draws a card, you draw {card}; {n} left in the stock."),
                          card=drew, n=after.stock_size)
    # The last face-down card to the trick winner, the turned-up trump to the loser.
    trump = before.trump_card
    shown = style.card(trump) if trump is not None else _("the trump card")
    return seats.pick(winner, _("You draw the last card, {card}; {name} takes the turned-up {trump}. "
                                "The stock is exhausted: follow suit and win if you can, else trump."),
                      _("{name} draws the last card; you take the turned-up {card}. "
                        "The stock is exhausted: follow suit and win if you can, else trump."),
                      card=drew, trump=shown)


def describe_cuts(cuts: Sequence[tuple[Card, Card]], first_dealer: int, seats: Seats,
                  style: Style) -> list[str]:
    """The cut for the first deal (R2.1)."""
    lines: list[str] = []
    me, them = seats.seat, 1 - seats.seat
    for pair in cuts:
        facts = {"name": seats.other, "mine": style.card(pair[me]), "theirs": style.card(pair[them])}
        if pair[0].rank == pair[1].rank:
            lines.append(_("Cut for the deal: you cut {mine}, {name} cuts {theirs} - equal, cut again."
                           ).format(**facts))
        else:
            lines.append(_("Cut for the deal: you cut {mine}, {name} cuts {theirs}.").format(**facts))
    lines.append(seats.pick(first_dealer, _("You deal first."), _("{name} deals first.")))
    return lines


def describe_deal(view: View, seats: Seats, style: Style, number: int) -> str:
    """The start of a hand: who deals and the trump turned up (R2.3)."""
    return style.strong(seats.pick(
        view.dealer,
        _("--- Hand {number}: You deal; {card} is turned up, trump is {suit}; {name} leads first. ---"),
        _("--- Hand {number}: {name} deals; {card} is turned up, trump is {suit}; you lead first. ---"),
        number=number, card=style.card(view.dealt_trump_card), suit=style.suit(view.trump)))


def _game_points(n: int) -> str:
    return ngettext("{n} game point", "{n} game points", n).format(n=n)


def _why(seats: Seats, winner: int, reason: Reason, declarer: int | None, points: int,
         last_trick: bool) -> str:
    """Why the hand ended as it did, as a sentence (without its full stop)."""
    loser = 1 - winner
    if reason is Reason.DECLARED and declarer is None:  # auto_declare: the program declared
        return seats.pick(winner, _("You reached 66"), _("{name} reached 66"))
    if reason is Reason.DECLARED:
        return seats.pick(winner, _("You declared 66 correctly"), _("{name} declared 66 correctly"))
    if reason is Reason.PLAYED_OUT and last_trick:  # S6.3
        return seats.pick(winner, _("All cards are played and you won the last trick"),
                          _("All cards are played and {name} won the last trick"))
    if reason is Reason.PLAYED_OUT:
        return seats.pick(winner, _("All cards are played and you have the higher total"),
                          _("All cards are played and {name} has the higher total"))
    if reason is Reason.CLOSED_SUCCEEDED:
        return seats.pick(winner, _("You closed the stock and made 66"),
                          _("{name} closed the stock and made 66"))
    if reason is Reason.CLOSED_FAILED:
        if declarer == winner:
            return seats.pick(winner, _("You reached 66 after {name} closed"),
                              _("{name} reached 66 after you closed"))
        if declarer == loser:
            return seats.pick(loser, _("You closed and declared 66 falsely"),
                              _("{name} closed and declared 66 falsely"))
        return seats.pick(loser, _("You closed but did not make 66"), _("{name} closed but did not make 66"))
    if reason is Reason.FALSE_DECLARATION:
        return seats.pick(loser, _("You declared 66 with only {points}"),
                          _("{name} declared 66 with only {points}"), points=points)
    if reason is Reason.REVOKE:
        return seats.pick(loser, _("You revoked (broke the follow rule, R10.2)"),
                          _("{name} revoked (broke the follow rule, R10.2)"))
    return seats.pick(loser, _("You forfeited (the program failed)"),
                      _("{name} forfeited (the program failed)"))


def _scale(seats: Seats, loser: int, scale: Scale | None) -> str:
    """Why the game points are as many as they are (R9.1), or nothing."""
    if scale is Scale.NO_TRICK:
        return seats.pick(loser, _("you took no trick"), _("{name} took no trick"))
    if scale is Scale.UNDER_33:
        return seats.pick(loser, _("you have under 33"), _("{name} has under 33"))
    if scale is Scale.THIRTY_THREE:
        return seats.pick(loser, _("you have 33 or more"), _("{name} has 33 or more"))
    return ""


def describe_result(view: View, seats: Seats, style: Style, *, bonus: int = 0) -> list[str]:
    """How the finished hand that ``view`` (the reader's) shows ended, why, and what it
    scored; ``bonus`` is what tied hands before added (R9.2). The facts come from
    :func:`sixtysix.explain.explain`: who declared or closed, which scale gave the
    game points, who earned the last-trick bonus (R7.3)."""
    result = view.result
    if result is None:
        raise ValueError("the hand is not over")
    why = explain(view, bonus)
    me, them = seats.seat, 1 - seats.seat

    def total(seat: int) -> str:
        taken = tricks_text(result.tricks[seat])
        if seat == why.last_trick_seat:
            taken = _("{tricks}, {bonus} for the last trick").format(tricks=taken, bonus=why.last_trick_bonus)
        return f"{seats.name(seat)} {result.points[seat]} ({taken})"

    points = _("Points: {first}, {second}.").format(first=total(me), second=total(them))
    winner = why.winner
    if winner is None:
        return [style.bad(_("The hand is tied: all cards are played and the totals are equal. "
                            "Nobody scores.")), points]
    played_out_last = why.reason is Reason.PLAYED_OUT and view.rules.played_out == "last_trick"
    sentence = _why(seats, winner, why.reason, why.declarer, why.loser_points, played_out_last)
    gp = _game_points(why.game_points)
    scale = ""
    if why.reason in (Reason.DECLARED, Reason.PLAYED_OUT, Reason.CLOSED_SUCCEEDED):
        scale = _scale(seats, 1 - winner, why.scale)
    if scale:
        gp = _("{points} ({why})").format(points=gp, why=scale)
    if why.bonus:
        gp = ngettext("{points}, plus {n} for the tied hand before",
                      "{points}, plus {n} for the tied hands before",
                      why.bonus).format(points=gp, n=why.bonus)
    outcome = seats.pick(winner, _("You win the hand: {points}."), _("{name} wins the hand: {points}."),
                         points=gp)
    text = _("{why}. {outcome}").format(why=sentence, outcome=outcome)
    return [(style.good if winner == me else style.bad)(text), points]


#: The computer's levels in words (translate with ``_``): the names every front end uses.
LEVEL_NAMES = {"random": N_("random"), "easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard"),
               "expert": N_("expert")}


def level_name(level: str) -> str:
    """An opponent level in the current language (a bot spec as it is).

    >>> level_name("medium"), level_name("pimc:time=0.5")
    ('medium', 'pimc:time=0.5')
    """
    return _(LEVEL_NAMES[level]) if level in LEVEL_NAMES else level


def describe_match(score: tuple[int, int], pending_bonus: int, seats: Seats, style: Style,
                   target: int) -> str:
    """``Match: You 3, Computer 5 (first to 7).``, after a hand (with the tie bonus the next
    hand's winner collects, R9.2)."""
    shown = describe_score(score, seats, style)
    if pending_bonus:
        return _("Match: {score} (first to {target}); the next hand's winner also gets {bonus}."
                 ).format(score=shown, target=target, bonus=pending_bonus)
    return _("Match: {score} (first to {target}).").format(score=shown, target=target)


def describe_match_end(winner: int | None, score: tuple[int, int], seats: Seats,
                       style: Style) -> str:
    me, them = seats.seat, 1 - seats.seat
    final = f"{score[me]}-{score[them]}"
    if winner is None:
        return _("The match is not finished: {score}.").format(score=describe_score(score, seats, style))
    if winner == me:
        return style.good(_("You win the match, {score}!").format(score=final))
    return style.bad(_("{name} wins the match, {score}.").format(name=seats.other, score=final))


def render_hint(lines: Sequence[ActionValue], style: Style) -> str:
    """An analysis (best first) as text: each action with its game points for you."""
    out = [_("Hint (game points for you with each action, best first):")]
    for line in lines:
        if line.exact:
            value = _("{value} exactly").format(value=f"{line.value:+.0f}")
        else:
            value = f"{line.value:+.2f} ± {line.error:.2f}"
        # Written as the hand shows it (10♦, not TD); padded by what is seen, not the colour codes.
        plain = AnsiStyle(color=False, symbols=getattr(style, "symbols", False)).action(line.action)
        out.append(f"  {style.action(line.action)}{' ' * max(1, 7 - len(plain))}{value}")
    if lines and not lines[0].exact:
        n = lines[0].samples
        out.append("  " + ngettext("(averaged over {n} layout of the hidden cards; ± is a 95% margin)",
                                   "(averaged over {n} layouts of the hidden cards; ± is a 95% margin)",
                                   n).format(n=n))
    return "\n".join(out)
