"""What a person types at the prompt: the action it means, or why it is not allowed.

:func:`parse_choice` reads an action by its number in the list of choices
(:func:`~sixtysix.present.text.screen.ordered_legal`), in lenient notation, or with the
rank letters of the player's language. When the action is not legal now, the
reason shown is the engine's (:func:`why_illegal`): the rules are explained where
they are enforced, once, and only worded here in the player's language.

>>> from sixtysix import Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> view = hand.view(1)
>>> parse_choice("2", view), parse_choice("as", view)
(Action.parse('AD'), Action.parse('AS'))
>>> try:
...     parse_choice("66", view)
... except RefusedChoice as exc:
...     print(exc)
You cannot declare 66 now: only a player who has won a trick may declare (R8.1).
>>> with i18n.use("de"):
...     parse_choice("dd", view)
Action.parse('QD')
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from sixtysix import i18n
from sixtysix.errors import IllegalActionError, ParseError
from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.cards import Card
from sixtysix.game.refusal import MUST_FOLLOW, NOT_HELD, OVER, REASONS
from sixtysix.game.worlds import sample_worlds
from sixtysix.i18n import N_, _
from sixtysix.present.text.screen import ordered_legal
from sixtysix.present.text.style import AnsiStyle, Style
from sixtysix.present.text.words import card_text

if TYPE_CHECKING:
    from sixtysix.game.views import View

__all__ = ["ENGINE_REASONS", "HELP", "RefusedChoice", "parse_choice", "refused", "why_illegal"]


class RefusedChoice(ParseError):
    """An action the player named that the rules refuse now; the message is a whole
    sentence naming it in words, as :func:`refused` says it (not its notation)."""

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
  hint             the best action and what it wins (hint again: the numbers)
  ?  or help       this help
  quit             stop the game (the record is still saved with --save)
While the stock is open any card may follow. Once it is closed or exhausted
the follower must follow suit and win if he can, else trump if he can.
The first player to declare 66 correctly wins the hand: 1 game point, 2 if the
loser has under 33, 3 if he took no trick. Declaring is up to you.""")


# Refusals ------------------------------------------------------------------------

#: The engine's reasons for refusing an action (:data:`sixtysix.game.refusal.REASONS`,
#: marked there for the message catalogs); :func:`why_illegal` shows them in the
#: player's language.
ENGINE_REASONS = REASONS


def why_illegal(action: Action, view: View, style: Style | None = None) -> str:
    """Why ``action`` is not legal for the seat now, in words for the player: the
    engine's reason, in the player's language, cards as they look on the cards (or
    as ``style`` writes them on the screen beside it).

    The engine judges whole hands, so it is asked about one that the view allows
    (:func:`sixtysix.game.worlds.sample_worlds`); its reason depends only on what the
    seat knows (its own cards and the public facts), never on the hidden cards
    filled in. Raises :class:`ValueError` if the action is legal.
    """
    if view.to_act is None:
        return _(OVER)
    if view.to_act != view.seat:
        return _("it is not your turn")  # the engine does not know who asks
    world = sample_worlds(view, 1, random.Random(0))[0]
    try:
        world.push(action)
    except IllegalActionError as exc:
        why = exc.refusal
    else:
        raise ValueError(f"{action} is legal now")
    assert why is not None, "the engine gives every refusal a reason"
    show = card_text if style is None else style.card_token
    blanks = {name: show(value) if isinstance(value, Card) else value for name, value in why.blanks.items()}
    if why.sentence == NOT_HELD:  # the engine names the seat by its number; to the player it is "you"
        return _("you do not hold {card}").format(**blanks)
    return _(why.sentence).format(**blanks)


def _must_follow(action: Action, view: View) -> bool:
    """Whether the engine refuses ``action`` for the duty to follow (R7.2)."""
    world = sample_worlds(view, 1, random.Random(0))[0]
    try:
        world.push(action)
    except IllegalActionError as exc:
        return exc.refusal is not None and exc.refusal.sentence == MUST_FOLLOW
    return False


def refused(action: Action, view: View, style: Style, quote: Callable[[str], str] | None = None) -> str:
    """Why ``action``, chosen with a key or a click, is refused, named in words
    rather than by its notation (``quote`` escapes the reason for a screen's markup).

    >>> from sixtysix import Hand
    >>> from sixtysix.present.text.style import Style
    >>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
    >>> refused(Action.parse("X"), hand.view(1), Style())
    'You cannot exchange the trump card now: the exchange needs a trick won first (R4.1).'
    """
    if view.to_act == view.seat and action.kind is ActionKind.PLAY and _must_follow(action, view):
        # "Phase 2" is the rule book's word; the full-screen game speaks of the stock.
        why = _("the stock is closed or used up: now you must follow suit and win the trick "
                "if you can, else play a trump (R7.2)")
    else:
        why = why_illegal(action, view, style)
    why = quote(why) if quote is not None else why
    kind = action.kind
    if kind is ActionKind.PLAY and action.card is not None:
        return _("You cannot play {card} now: {why}.").format(card=style.card(action.card), why=why)
    if kind is ActionKind.MARRIAGE and action.card is not None:
        return _("You cannot announce a marriage with {card} now: {why}.").format(
            card=style.card(action.card), why=why)
    sentence = {ActionKind.EXCHANGE: N_("You cannot exchange the trump card now: {why}."),
                ActionKind.CLOSE: N_("You cannot close the stock now: {why}."),
                ActionKind.DRAW: N_("You cannot draw now: {why}.")}.get(
        kind, N_("You cannot declare 66 now: {why}."))
    return _(sentence).format(why=why)


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


def parse_choice(text: str, view: View, style: Style | None = None) -> Action:
    """The action a player means by ``text``: a number from :func:`ordered_legal`,
    an action in lenient notation (cards also with the rank letters of the current
    language: ``DH`` or ``D♥`` for the queen of hearts in German), or Enter for the draw.
    A refusal writes its cards as ``style`` does (default: as on the cards).

    Raises :class:`~sixtysix.errors.ParseError` saying why when it is not an
    action, :class:`RefusedChoice` when the rules refuse it now.
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
        raise RefusedChoice(refused(action, view, style or AnsiStyle(color=False)))
    return action
