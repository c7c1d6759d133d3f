"""Text for people: a seat's view of a hand drawn as lines of text.

Everything here works from a :class:`~sixtysix.views.View` (what one seat may
know, R11) and public facts such as the match score, never from a
:class:`~sixtysix.hand.Hand`, so whatever it prints is safe to show to that
seat (DESIGN.md §5). The functions return strings; how they reach the player
(a terminal line by line, a full-screen UI, a web page) is up to the caller.

A :class:`Style` decides how cards and emphasis look: the plain style prints
canonical notation (``KH``) and no escape codes; :class:`AnsiStyle` uses suit
symbols and terminal colours.

>>> from sixtysix import Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> seats = Seats(seat=1)
>>> print(render_hand(hand.view(1), Style()))
TC* | AD QD JD | AS KS
>>> [str(a) for a in ordered_legal(hand.view(1))]
['TC', 'AD', 'QD', 'JD', 'AS', 'KS', 'C']
>>> parse_choice("2", hand.view(1))
Action.parse('AD')
>>> seats.say(1, "lead", "leads"), seats.say(0, "lead", "leads")
('You lead', 'Computer leads')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sixtysix.actions import Action, ActionKind
from sixtysix.analysis import ActionValue
from sixtysix.cards import Card, Rank, Suit
from sixtysix.errors import ParseError
from sixtysix.hand import HandResult
from sixtysix.kernel.tables import SCHNEIDER, marriage_value
from sixtysix.views import View

__all__ = [
    "HELP",
    "render_hint",
    "AnsiStyle",
    "MatchInfo",
    "Seats",
    "Style",
    "action_meaning",
    "describe_action",
    "describe_cuts",
    "describe_deal",
    "describe_match_end",
    "describe_result",
    "describe_score",
    "ordered_legal",
    "parse_choice",
    "render_choices",
    "render_hand",
    "render_screen",
    "sorted_cards",
    "why_illegal",
]

SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_ORDER = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE)


def _rank_word(card: Card) -> str:
    """``nine``, ``jack`` ...: the rank of a card in words."""
    return card.rank.name.lower()

HELP = """\
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
loser has under 33, 3 if he took no trick. Declaring is up to you."""


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
        name = SUIT_NAMES[suit]
        return self.paint_suit(f"{suit.symbol} {name}" if self.symbols else name, suit)

    def action(self, action: Action) -> str:
        """An action in the notation of DESIGN.md §2, with its card styled."""
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
        if not self.symbols:
            return str(card)
        rank = "10" if card.rank is Rank.TEN else card.rank.letter
        return rank + card.suit.symbol

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
    "you", the other seat is called ``opponent``."""

    seat: int = 0
    you: str = "You"
    opponent: str = "Computer"

    def name(self, seat: int, *, start: bool = True) -> str:
        """The subject for ``seat``: ``You`` (or ``you`` inside a sentence) or the opponent's name."""
        if seat == self.seat:
            return self.you if start else self.you.lower()
        return self.opponent

    def say(self, seat: int, you_verb: str, other_verb: str, *, start: bool = True) -> str:
        """``You lead`` / ``Computer leads``."""
        verb = you_verb if seat == self.seat else other_verb
        return f"{self.name(seat, start=start)} {verb}"

    def possessive(self, seat: int) -> str:
        return "your" if seat == self.seat else f"{self.opponent}'s"


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
    return " | ".join(groups) if groups else "(no cards)"


def _tricks(n: int) -> str:
    return f"{n} trick{'' if n == 1 else 's'}"


def _stock_line(view: View, seats: Seats, style: Style) -> str:
    trump = f"Trump: {style.strong(style.suit(view.trump))}"
    if view.closed_by is not None:
        by = seats.name(view.closed_by, start=False)
        face_up = view.exchange_card if view.exchange is not None else view.dealt_trump_card
        turned = f", {style.card(face_up)} turned down" if view.stock_size else ""
        cards = "card" if view.stock_size == 1 else "cards"
        return f"{trump}   Stock: closed by {by} ({view.stock_size} {cards}{turned})"
    if view.stock_size == 0:
        return f"{trump}   Stock: exhausted"
    turned = f", turned up {style.card(view.trump_card)}" if view.trump_card is not None else ""
    cards = "card" if view.stock_size == 1 else "cards"
    return f"{trump}{turned}   Stock: {view.stock_size} {cards}"


def _trick_text(view: View, seats: Seats, style: Style, memory: bool) -> str:
    trick = view.last_trick
    if trick is None:
        return ""
    other = 1 - trick.leader
    text = (f"{seats.say(trick.leader, 'led', 'led')} {style.card(trick.lead)}, "
            f"{seats.say(other, 'played', 'played', start=False)} {style.card(trick.follow)}")
    if trick.winner is None:
        return text + " - revoked, it counts for nobody"
    won = seats.say(trick.winner, "won it", "won it", start=False)
    points = "" if memory else f" ({trick.points} points)"
    return f"{text} - {won}{points}"


def _marriages_text(view: View, seats: Seats, style: Style) -> str:
    parts = []
    for m in view.marriages:
        waits = "counts with the next trick won" if view.rules.marriage_counts == "next_trick" \
            else "counts once a trick is won"
        note = "" if view.counts(m) else f", {waits}"
        parts.append(f"{seats.name(m.seat, start=False)}: {style.suit(m.suit)} "
                     f"{style.card(m.cards[0])} {style.card(m.cards[1])} ({m.value}{note})")
    return "; ".join(parts) if parts else "none"


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
    title = f"Hand {info.hand_number}" if info else "Hand"
    title += f", trick {min(len(view.tricks) + 1, 12)}"
    dealer = "you deal" if view.dealer == me else f"{seats.opponent} deals"
    head = f"{title} ({dealer})"
    if info is not None:
        match = f"Match: {describe_score(info.score, seats, style)} (first to {info.target})"
        if info.pending_bonus:
            match += f", +{info.pending_bonus} for the winner of this hand (tie)"
        head = f"{head}   {match}"
    lines.append(style.strong(f"== {head} =="))
    lines.append(_stock_line(view, seats, style))
    if view.exchange is not None and view.stock_open:
        who, card = view.exchange
        lines.append(f"Exchange: {seats.say(who, 'took', 'took', start=False)} {style.card(card)} "
                     f"for the trump {_rank_word(view.exchange_card)}")
    if view.last_trick is not None:
        lines.append(f"Last trick: {_trick_text(view, seats, style, memory)}")
    lines.append(f"Marriages: {_marriages_text(view, seats, style)}")
    known = view.known_opponent_cards()
    if known and not memory:  # what was shown and not yet played: a memory aid (R11.3)
        cards = " ".join(style.card(c, view.trump) for c in sorted_cards(known, view.trump))
        lines.append(f"Known in {seats.possessive(them)} hand: {cards}")
    tricks = f"{seats.name(me)} {_tricks(view.tricks_won[me])}, " \
             f"{seats.name(them)} {_tricks(view.tricks_won[them])}"
    if memory:
        lines.append(f"Tricks: {tricks} (points hidden: memory mode)")
    else:
        lines.append(f"Points: {seats.name(me)} {view.scores[me]} ({_tricks(view.tricks_won[me])}), "
                     f"{seats.name(them)} {view.scores[them]} ({_tricks(view.tricks_won[them])})")
    if view.lead is not None:
        leader, card = view.lead
        lines.append(f"On the table: {seats.say(leader, 'led', 'led')} {style.strong(style.card(card))}")
    lines.append(f"Your hand: {render_hand(view, style)}")
    return "\n".join(lines)


# Choices ---------------------------------------------------------------------

def action_meaning(action: Action, view: View, style: Style) -> str:
    """A few words on what an action does (empty for a plain card play)."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        return ""
    if kind is ActionKind.MARRIAGE and action.card is not None:
        value = marriage_value(action.card.suit, view.trump)
        return f"marriage in {SUIT_NAMES[action.card.suit]} ({value}), lead {style.card(action.card)}"
    if kind is ActionKind.EXCHANGE:
        take = f" for {style.card(view.trump_card)}" if view.trump_card is not None else ""
        return f"exchange {style.card(view.exchange_card)}{take}"
    if kind is ActionKind.CLOSE:
        return "close the stock without drawing" if view.state == "draw" else "close the stock"
    if kind is ActionKind.DRAW:
        return "draw (Enter)"
    if kind is ActionKind.DECLARE:
        return "declare 66"
    assert action.suit is not None
    value = marriage_value(action.suit, view.trump)
    return f"show the {SUIT_NAMES[action.suit]} marriage ({value}) and declare 66"


def _situation(view: View, seats: Seats, style: Style) -> str:
    if view.state == "draw":
        return "You won the trick."
    if view.state == "follow" and view.lead is not None:
        leader, card = view.lead
        strict = "" if view.stock_open else " (follow suit and win if you can, else trump)"
        return f"Your turn: answer {seats.possessive(leader)} {style.card(card)}{strict}."
    return "Your lead."


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
    lines = [f"{_situation(view, seats, style)} Choose by notation or number (? for help):"]
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
        return "it is not your turn"
    if card is not None and kind in (ActionKind.PLAY, ActionKind.MARRIAGE) and card not in view.hand:
        return f"you do not hold {card}"
    if state == "draw":
        return "you won the trick: first draw (D), close (C) or declare (66)"
    if state == "follow":
        if card is None or kind is not ActionKind.PLAY:
            return "you must play a card to the trick"
        return "the stock is closed or exhausted: follow suit and win if you can, else trump (R7.2)"
    if kind is ActionKind.MARRIAGE and card is not None:
        partner = Card(card.suit, Rank.QUEEN if card.rank is Rank.KING else Rank.KING)
        if partner not in view.hand:
            return f"a marriage needs both King and Queen: you do not hold {partner}"
        return "no marriage may be announced now (R5)"
    if kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
        king, queen = Card(action.suit, Rank.KING), Card(action.suit, Rank.QUEEN)
        if king not in view.hand or queen not in view.hand:
            return f"you do not hold both {king} and {queen}"
    if kind in (ActionKind.DECLARE, ActionKind.DECLARE_MARRIAGE):
        if view.rules.auto_declare:
            return "declarations are automatic under these rules"
        return "you may declare only on lead after winning a trick (R8.1)"
    won = view.tricks_won[view.seat] > 0
    if kind is ActionKind.EXCHANGE:
        low = view.exchange_card
        if low not in view.hand:
            return f"only the holder of the trump {_rank_word(low)} ({low}) may exchange it (R4.1)"
        if not won:
            return "you may exchange only after winning a trick (R4.1)"
        if not view.stock_open:
            return "the stock is closed or exhausted (R4.1)"
        return "too few cards are left in the stock (R4)"
    if kind is ActionKind.CLOSE:
        if not view.stock_open:
            return "the stock is already closed or exhausted (R6.1)"
        if not view.tricks and not view.rules.close_first_lead:
            return "these rules do not allow closing before the first trick"
        return "too few cards are left in the stock to close"
    if kind is ActionKind.DRAW:
        return "there is nothing to draw now"
    return "that is not allowed now"


def parse_choice(text: str, view: View) -> Action:
    """The action a player means by ``text``: a number from :func:`ordered_legal`,
    an action in lenient notation, or Enter for the draw.

    Raises :class:`~sixtysix.errors.ParseError` saying why when it is not a
    legal action.
    """
    raw = text.strip().replace("*", "")
    actions = ordered_legal(view)
    draw = Action.parse("D")
    if not raw:
        if draw in actions:
            return draw
        raise ParseError("type an action or its number")
    if raw.isdigit() and raw != "66":
        number = int(raw)
        if 1 <= number <= len(actions):
            return actions[number - 1]
        raise ParseError(f"there is no choice {number}: choose 1 to {len(actions)}")
    try:
        action = Action.parse(raw, lenient=True)
    except ParseError:
        raise ParseError(
            f"{raw!r} is not an action: type a card (KH, 10h), a marriage (KH+), "
            "X, C, D, 66, 66+H or a number from the list"
        ) from None
    if action not in view.legal:
        raise ParseError(f"{action} is not allowed: {why_illegal(action, view)}")
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
        text = (f"{seats.say(seat, 'announce', 'announces')} the marriage in "
                f"{style.suit(suit)}, {style.card(king)} {style.card(queen)} ({value})")
        if after.lead is not None and after.lead[0] == seat:
            text += f", and {'lead' if seat == me else 'leads'} {style.card(action.card)}"
        lines.append(mark(text + "."))
    elif kind is ActionKind.PLAY and action.card is not None:
        if before.lead is None:
            lines.append(mark(f"{seats.say(seat, 'lead', 'leads')} {style.card(action.card)}."))
        else:
            lines.append(mark(f"{seats.say(seat, 'play', 'plays')} {style.card(action.card)}."))
    elif kind is ActionKind.EXCHANGE:
        took = before.trump_card
        low = before.exchange_card
        lines.append(mark(f"{seats.say(seat, 'exchange', 'exchanges')} the trump {_rank_word(low)}: "
                          f"{style.card(low)} is turned up, "
                          f"{seats.name(seat, start=False)} "
                          f"{'take' if seat == me else 'takes'} "
                          f"{style.card(took) if took is not None else 'the trump card'}."))
    elif kind is ActionKind.CLOSE:
        when = " without drawing" if before.state == "draw" else ""
        lines.append(mark(f"{seats.say(seat, 'close', 'closes')} the stock{when}. "
                          "From now on: follow suit and win if you can, else trump."))
    elif kind is ActionKind.DECLARE:
        lines.append(mark(f"{seats.say(seat, 'declare', 'declares')} 66!"))
    elif kind is ActionKind.DECLARE_MARRIAGE and action.suit is not None:
        suit = action.suit
        value = marriage_value(suit, before.trump)
        lines.append(mark(f"{seats.say(seat, 'show', 'shows')} the marriage in {style.suit(suit)} "
                          f"({value}) and {'declare' if seat == me else 'declares'} 66!"))
    # What followed from the action: a completed trick, a draw.
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        if trick.winner is None:
            lines.append(style.bad("The trick is revoked: it counts for nobody."))
        else:
            points = "" if memory else f" ({trick.points} points)"
            lines.append(f"{seats.say(trick.winner, 'win', 'wins')} the trick{points}.")
    if after.stock_size < before.stock_size:
        lines.append(_describe_draw(before, after, seats, style))
    return lines


def _describe_draw(before: View, after: View, seats: Seats, style: Style) -> str:
    me = seats.seat
    mine = _new_cards(before, after)
    drew = style.card(mine[0]) if mine else "a card"
    # R3.4: the trick winner draws first.
    winner = after.tricks[-1].winner if after.tricks else me
    if after.stock_size > 0:
        left = f"{after.stock_size} left in the stock."
        if winner == me:
            return f"You draw {drew}, {seats.opponent} draws a card; {left}"
        return f"{seats.opponent} draws a card, you draw {drew}; {left}"
    # The last face-down card to the trick winner, the turned-up trump to the loser.
    trump = before.trump_card
    shown = style.card(trump) if trump is not None else "the trump card"
    if winner == me:
        return (f"You draw the last card, {drew}; {seats.opponent} takes the turned-up {shown}. "
                "The stock is exhausted: follow suit and win if you can, else trump.")
    return (f"{seats.opponent} draws the last card; you take the turned-up {drew}. "
            "The stock is exhausted: follow suit and win if you can, else trump.")


def describe_cuts(cuts: Sequence[tuple[Card, Card]], first_dealer: int, seats: Seats,
                  style: Style) -> list[str]:
    """The cut for the first deal (R2.1)."""
    lines: list[str] = []
    me, them = seats.seat, 1 - seats.seat
    for pair in cuts:
        text = (f"Cut for the deal: you cut {style.card(pair[me])}, "
                f"{seats.opponent} cuts {style.card(pair[them])}")
        if pair[0].rank == pair[1].rank:
            text += " - equal, cut again."
        else:
            text += "."
        lines.append(text)
    lines.append(f"{seats.say(first_dealer, 'deal', 'deals')} first.")
    return lines


def describe_deal(view: View, seats: Seats, style: Style, number: int) -> str:
    """The start of a hand: who deals and the trump turned up (R2.3)."""
    leader = 1 - view.dealer
    return style.strong(
        f"--- Hand {number}: {seats.say(view.dealer, 'deal', 'deals')}; "
        f"{style.card(view.dealt_trump_card)} is turned up, trump is {style.suit(view.trump)}; "
        f"{seats.say(leader, 'lead', 'leads', start=False)} first. ---"
    )


def _game_points(n: int) -> str:
    return f"{n} game point{'' if n == 1 else 's'}"


def describe_result(result: HandResult, seats: Seats, style: Style,
                    last: tuple[int, Action] | None = None, view: View | None = None) -> list[str]:
    """How the hand ended, why, and what it scored. ``last`` is the final action and
    its seat; ``view``, the reader's view of the finished hand, tells who earned
    the last-trick bonus (R7.3)."""
    me, them = seats.seat, 1 - seats.seat
    bonus_seat: int | None = None
    if (view is not None and view.closed_by is None and view.rules.last_trick_bonus
            and not view.hand and view.tricks and result.reason in ("played_out", "tie")):
        bonus_seat = view.tricks[-1].winner

    def total(seat: int) -> str:
        extra = f", {view.rules.last_trick_bonus} for the last trick" \
            if view is not None and seat == bonus_seat else ""
        return f"{seats.name(seat)} {result.points[seat]} ({_tricks(result.tricks[seat])}{extra})"

    points = f"Points: {total(me)}, {total(them)}."
    winner = result.winner
    if winner is None:
        return [style.bad("The hand is tied: all cards are played and the totals are equal. "
                          "Nobody scores."), points]
    loser = 1 - winner
    reason = result.reason
    closer = result.closed_by
    declarer = last[0] if last is not None and last[1].is_declaration else None
    loser_points = result.points[loser]
    if reason in ("declared", "played_out", "closed_succeeded"):
        if result.tricks[loser] == 0:
            scale = f"{seats.name(loser, start=False)} took no trick"
        elif loser_points < SCHNEIDER:
            scale = f"{seats.say(loser, 'have', 'has', start=False)} under {SCHNEIDER}"
        else:
            scale = f"{seats.say(loser, 'have', 'has', start=False)} {SCHNEIDER} or more"
    else:
        scale = ""
    if reason == "declared" and declarer is None:  # auto_declare: the program declared
        why = f"{seats.say(winner, 'reached', 'reached')} 66"
    elif reason == "declared":
        why = f"{seats.say(winner, 'declared', 'declared')} 66 correctly"
    elif reason == "played_out" and view is not None and view.rules.played_out == "last_trick":
        why = "all cards are played and " + seats.say(winner, "won", "won", start=False) + \
              " the last trick"  # S6.3
    elif reason == "played_out":
        why = "all cards are played and " + seats.say(winner, "have", "has", start=False) + \
              " the higher total"
    elif reason == "closed_succeeded":
        why = f"{seats.say(winner, 'closed', 'closed')} the stock and made 66"
    elif reason == "closed_failed":
        closer_name = seats.name(closer if closer is not None else loser, start=False)
        if declarer == winner:
            why = f"{seats.say(winner, 'reached', 'reached')} 66 after {closer_name} closed"
        elif declarer == loser:
            why = f"{seats.say(loser, 'closed', 'closed')} and declared 66 falsely"
        else:
            why = f"{seats.say(loser, 'closed', 'closed')} but did not make 66"
    elif reason == "false_declaration":
        why = f"{seats.say(loser, 'declared', 'declared')} 66 with only {loser_points}"
    elif reason == "revoke":
        why = f"{seats.say(loser, 'revoked', 'revoked')} (broke the follow rule, R10.2)"
    elif reason == "forfeit":
        why = f"{seats.name(loser, start=False)} forfeited (the program failed)"
    else:  # pragma: no cover - every reason is handled above
        why = reason
    gp = _game_points(result.game_points)
    if scale:
        gp += f" ({scale})"
    if result.bonus:
        gp += f", plus {result.bonus} for the tied hand{'s' if result.bonus > 1 else ''} before"
    outcome = f"{seats.say(winner, 'win', 'wins')} the hand: {gp}."
    text = f"{why[0].upper()}{why[1:]}. {outcome}"
    return [(style.good if winner == me else style.bad)(text), points]


def describe_match_end(winner: int | None, score: tuple[int, int], seats: Seats,
                       style: Style) -> str:
    me, them = seats.seat, 1 - seats.seat
    final = f"{score[me]}-{score[them]}"
    if winner is None:
        return f"The match is not finished: {describe_score(score, seats, style)}."
    if winner == me:
        return style.good(f"You win the match, {final}!")
    return style.bad(f"{seats.opponent} wins the match, {final}.")


def render_hint(lines: Sequence[ActionValue], style: Style) -> str:
    """An analysis (best first) as text: each action with its game points for you."""
    out = ["Hint (game points for you with each action, best first):"]
    for line in lines:
        value = f"{line.value:+.0f} exactly" if line.exact else f"{line.value:+.2f} ± {line.error:.2f}"
        # Written as the hand shows it (10♦, not TD); padded by what is seen, not the colour codes.
        plain = AnsiStyle(color=False, symbols=getattr(style, "symbols", False)).action(line.action)
        out.append(f"  {style.action(line.action)}{' ' * max(1, 7 - len(plain))}{value}")
    if lines and not lines[0].exact:
        out.append(f"  (averaged over {lines[0].samples} layouts of the hidden cards; ± is a 95% margin)")
    return "\n".join(out)
