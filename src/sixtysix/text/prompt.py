"""What a person types at the prompt: the action it means, or why it is not allowed.

:func:`parse_choice` reads an action by its number in the list of choices
(:func:`~sixtysix.text.screen.ordered_legal`), in lenient notation, or with the
rank letters of the player's language. When the action is not legal now, the
reason is told in words (:func:`why_illegal`).

>>> from sixtysix import Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> view = hand.view(1)
>>> parse_choice("2", view), parse_choice("as", view)
(Action.parse('AD'), Action.parse('AS'))
>>> parse_choice("66", view)
Traceback (most recent call last):
...
sixtysix.errors.ParseError: 66 is not allowed: you may declare only on lead after winning a trick (R8.1)
>>> with i18n.use("de"):
...     parse_choice("dd", view)
Action.parse('QD')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sixtysix import i18n
from sixtysix.actions import Action, ActionKind
from sixtysix.cards import Card, Rank
from sixtysix.errors import ParseError
from sixtysix.i18n import N_, _
from sixtysix.text.screen import ordered_legal
from sixtysix.text.words import rank_word

if TYPE_CHECKING:
    from sixtysix.views import View

__all__ = ["HELP", "parse_choice", "why_illegal"]

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


# Refusals ------------------------------------------------------------------------

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
                rank=rank_word(low.rank), card=low)
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


# Reading -------------------------------------------------------------------------

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
