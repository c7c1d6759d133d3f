"""Guided lessons: one hand on a fixed deal, every move of both seats scripted.

A :class:`Lesson` is a deck (as :meth:`Hand.deal` takes it), the dealer and the
:class:`Step` list of every action of the hand. Before each of the learner's
actions a prompt says what to play and why; after each of the computer's a
narration says what it did and what it means. The rules stay in the kernel: a
lesson never decides what is legal, who won a trick or what anybody counts; the
hand replayed to a step says so, and the numbers and cards a message cites are
filled in from the learner's view at that step (:func:`facts`).

Messages are marked with :func:`~sixtysix.i18n.N_` and translated when served;
their ``{name}`` placeholders are the keys of :func:`facts` (cards written as the
player reads them: ``10♠``, ``D♥`` in German).

The web page is stateless: :func:`step_json` is what the learner may see after
``n`` scripted actions, :func:`check_json` answers an action the learner chose.

>>> hand = FIRST.hand(len(FIRST.steps))
>>> hand.result().winner == FIRST.learner
True
>>> step_json(FIRST, 0)["next"]["expected"]
'JC'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sixtysix.errors import ParseError
from sixtysix.game.actions import Action
from sixtysix.game.cards import Card, Rank, Suit
from sixtysix.game.hand import Hand
from sixtysix.i18n import N_, _, ngettext, rank_letter, suit_name, use
from sixtysix.present.wire import seat_view_json

__all__ = ["COMPUTER", "FIRST", "LEARNER", "LESSONS", "Lesson", "LessonError", "Step", "card_text",
           "check_json", "facts", "message", "step_json"]

LEARNER = 0
COMPUTER = 1


#: Why a lesson refuses a request, each sentence once (its blanks filled by the
#: refusal's ``args``; the catalogs hold each, a test checks the list).
BAD_STEP = N_("The step must be a whole number from 0 to {n}.")
NOT_YOUR_MOVE = N_("Step {step} is not the learner's move.")
BAD_ACTION = N_("This action cannot be read: {problem}")
ILLEGAL = N_("{action} is not a legal action here.")
NO_LESSON = N_("There is no lesson {name}.")
REFUSALS = (BAD_STEP, NOT_YOUR_MOVE, BAD_ACTION, ILLEGAL, NO_LESSON)


class LessonError(ValueError):
    """A request a lesson cannot answer: ``code`` names it, ``status`` is the HTTP status,
    ``sentence`` (one of :data:`REFUSALS`) and ``args`` what a page says; the message is
    the sentence filled in English.

    >>> str(LessonError(BAD_STEP, "bad_step", 400, n=7))
    'The step must be a whole number from 0 to 7.'
    """

    def __init__(self, sentence: str, code: str, status: int, **args: str | int) -> None:
        super().__init__(sentence.format(**args))
        self.code = code
        self.status = status
        self.sentence = sentence
        self.args_shown = args


@dataclass(frozen=True)
class Step:
    """One scripted action.

    ``text`` is the prompt before a learner's action, or the narration after the
    computer's. ``why`` (the learner's steps) tells why the scripted action is
    better than another legal one. ``held`` names cards the text says the learner
    holds (``{"ace": "AS"}``), and ``claims`` the facts the text relies on
    (``{"points": 64}``); the tests check both against the kernel.
    """

    seat: int
    action: str
    text: str
    why: str = ""
    held: Mapping[str, str] = field(default_factory=dict)
    claims: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Lesson:
    """A fixed deal and the script of the whole hand."""

    name: str
    deck: str
    dealer: int
    steps: tuple[Step, ...]
    #: What the learner has seen by the end, a sentence each.
    learnt: tuple[str, ...]
    learner: int = LEARNER

    def hand(self, step: int = 0) -> Hand:
        """The hand after the first ``step`` scripted actions."""
        hand = Hand.deal(self.deck, self.dealer)
        for s in self.steps[:step]:
            hand.push(Action.parse(s.action))
        return hand


def card_text(card: Card) -> str:
    """A card as the player reads it on the page: rank letter of the language and suit sign."""
    rank = "10" if card.rank is Rank.TEN else rank_letter(card.rank.letter)
    return rank + card.suit.symbol


def facts(lesson: Lesson, index: int) -> dict[str, Any]:
    """What the messages of step ``index`` may cite, from the learner's view before and
    after its action (nothing the learner may not know):

    ``card`` the action's card; ``led`` the card on the table before it; ``trump`` the
    trump suit; ``turned`` the turned-up trump (before); ``nine`` the trump the exchange
    gives for it; ``points`` the learner's total toward 66 (before a learner's action,
    after the computer's); ``points_after`` and ``their_points`` the learner's and the
    computer's totals after it; ``trick_points`` and ``winner`` of the trick it
    completed; ``value`` of the marriage it announced; ``cards`` the learner holds
    after it; ``game_points`` of the learner's win when it ended the hand; and the
    cards of ``held``.
    """
    step = lesson.steps[index]
    hand = lesson.hand(index)
    me = lesson.learner
    before = hand.view(me)
    action = Action.parse(step.action)
    hand.push(action)
    after = hand.view(me)
    found: dict[str, Any] = {
        "trump": before.trump,
        "nine": before.exchange_card,
        "points": before.scores[me] if step.seat == me else after.scores[me],
        "points_after": after.scores[me],
        "their_points": after.scores[1 - me],
        "cards": len(after.hand),
    }
    if action.card is not None:
        found["card"] = action.card
    if before.lead is not None:
        found["led"] = before.lead[1]
    if before.trump_card is not None:
        found["turned"] = before.trump_card
    if len(after.tricks) > len(before.tricks):
        trick = after.tricks[-1]
        found["trick_points"] = trick.points
        found["winner"] = trick.winner
    if len(after.marriages) > len(before.marriages):
        found["value"] = after.marriages[-1].value
    if after.result is not None and after.result.winner == me:
        found["game_points"] = after.result.game_points
    for name, card in step.held.items():
        found[name] = Card.parse(card)
    return found


def _words(value: Any) -> str:
    if isinstance(value, Card):
        return card_text(value)
    if isinstance(value, Suit):
        return suit_name(value.letter)
    return str(value)


def message(lesson: Lesson, index: int, text: str) -> str:
    """``text`` (a message of step ``index``) in the current language, its placeholders
    filled with :func:`facts`."""
    filled = {name: _words(value) for name, value in facts(lesson, index).items()}
    return _(text).format(**filled)


def _step_number(lesson: Lesson, step: Any) -> int:
    if type(step) is not int or not 0 <= step <= len(lesson.steps):
        raise LessonError(BAD_STEP, "bad_step", 400, n=len(lesson.steps))
    return step


def step_json(lesson: Lesson, step: int, lang: str | None = None) -> dict[str, Any]:
    """What the learner may see after ``step`` scripted actions, in ``lang``:

    ``view``, the learner's view (:func:`sixtysix.present.wire.seat_view_json`, as the game page
    gets it); ``done``, the last action with its narration when the computer took it;
    ``next``, who acts next, and for the learner the prompt, the expected action and
    the legal ones (never the computer's next action: that is one of its hidden cards);
    at the end ``summary``. Raises :class:`LessonError` for a step out of range."""
    step = _step_number(lesson, step)
    hand = lesson.hand(step)
    me = lesson.learner
    with use(lang) as chosen:
        answer: dict[str, Any] = {"lesson": lesson.name, "lang": chosen, "step": step,
                                  "steps": len(lesson.steps), "learner": me,
                                  "view": seat_view_json(hand, me), "done": None, "next": None,
                                  "summary": None}
        if step > 0:
            last = lesson.steps[step - 1]
            answer["done"] = {"seat": last.seat, "action": last.action,
                              "narration": message(lesson, step - 1, last.text) if last.seat != me else None}
        if step < len(lesson.steps):
            following = lesson.steps[step]
            if following.seat == me:
                answer["next"] = {"seat": me, "expected": following.action,
                                  "prompt": message(lesson, step, following.text),
                                  "legal": [str(a) for a in hand.legal_actions()]}
            else:
                answer["next"] = {"seat": following.seat}
        else:
            result = hand.result()
            assert result is not None and result.winner == me
            points, theirs = result.points[me], result.points[1 - me]
            answer["summary"] = {
                "title": _("You won the hand!"),
                "text": ngettext("You declared 66 with {points} against the computer's {their_points}: "
                                 "{n} game point is yours.",
                                 "You declared 66 with {points} against the computer's {their_points}: "
                                 "{n} game points are yours.", result.game_points).format(
                    points=points, their_points=theirs, n=result.game_points),
                "learnt": [_(text) for text in lesson.learnt],
            }
    return answer


def check_json(lesson: Lesson, step: int, action: str, lang: str | None = None) -> dict[str, Any]:
    """The answer to the learner choosing ``action`` at ``step``: ``{"expected": true}``
    for the scripted action, else ``{"expected": false, "refusal": ...}`` saying why the
    scripted one is better. An illegal action, or a step that is not the learner's, is
    a :class:`LessonError`."""
    step = _step_number(lesson, step)
    if step == len(lesson.steps) or lesson.steps[step].seat != lesson.learner:
        raise LessonError(NOT_YOUR_MOVE, "not_your_move", 409, step=step)
    try:
        chosen = Action.parse(action)
    except ParseError as exc:
        raise LessonError(BAD_ACTION, "bad_action", 422, problem=str(exc)) from None
    hand = lesson.hand(step)
    if not hand.is_legal(chosen):
        raise LessonError(ILLEGAL, "illegal", 422, action=str(chosen))
    scripted = lesson.steps[step]
    if chosen == Action.parse(scripted.action):
        return {"expected": True}
    with use(lang):
        refusal = _("You may play that, but this lesson shows a better move.") + " " + \
            message(lesson, step, scripted.why)
    return {"expected": False, "refusal": refusal}


# The first game ----------------------------------------------------------------------
# Trumps are hearts, the ace turned up; the computer deals, so the learner leads. The
# learner gives away a jack, takes the computer's ten with an ace, draws, exchanges the
# trump nine for the ace, announces 40, closes the stock with 64 and the highest trump,
# wins the trick the computer must follow with a trump, and declares 66.
FIRST = Lesson(
    name="first",
    deck="JC AS 9H AC TS JH KH QH KD 9D QS JD AH KC 9S TD JS QD 9C TH AD KS QC TC",
    dealer=COMPUTER,
    steps=(
        Step(LEARNER, "JC",
             N_("You lead the first trick. Trumps are {trump}: the card turned up under the stock is "
                "{turned}. Lead {card}, a card worth little. Keep your {ace}: an ace can take a ten "
                "later. Keep {king} and {queen} too: together they are a marriage."),
             N_("A card worth little is the safe first lead: lead {card}, and keep your {ace} and "
                "your trumps for later."),
             held={"ace": "AS", "king": "KH", "queen": "QH"}),
        Step(COMPUTER, "AC",
             N_("The computer took your {led} with its {card}: the higher card of the suit led wins. "
                "The trick gives it {trick_points} points."),
             claims={"winner": COMPUTER, "trick_points": 13}),
        Step(COMPUTER, "D",
             N_("The winner of a trick draws first: the computer took the top card of the stock, "
                "then you took the next. You hold {cards} cards again."),
             claims={"cards": 6}),
        Step(COMPUTER, "TS", N_("The computer leads {card}.")),
        Step(LEARNER, "AS",
             N_("While the stock is open you need not follow suit, but you may take the trick. "
                "Take the {led} with your {card}: the ace is the highest card of its suit, and the "
                "trick is worth {trick_points} points."),
             N_("Your {card} wins this trick for sure and takes the computer's {led} with it."),
             claims={"winner": LEARNER, "trick_points": 21}),
        Step(LEARNER, "D",
             N_("You won the trick, so you draw first, then the computer. You count {points}. "
                "Instead of drawing you could close the stock, but only do that when you can "
                "reach 66 without new cards."),
             N_("With {points} you are far from 66: draw a card and make your hand stronger."),
             claims={"points": 21}),
        Step(LEARNER, "X",
             N_("You have won a trick, you are on lead and you hold {nine}, the nine of trumps. "
                "Exchange it for the turned-up {turned}: the highest trump for a card worth "
                "nothing."),
             N_("Exchange first: your {nine} worth nothing becomes the {turned}, the highest trump."),
             claims={"turned": Card.parse("AH"), "nine": Card.parse("9H")}),
        Step(LEARNER, "QH+",
             N_("Now your marriage: {king} and {queen} of trumps are worth {value}. You announce "
                "it by leading one of them, and it counts at once because you have already won "
                "a trick. Choose {card} and then the marriage: you will count {points_after}."),
             N_("Announce the marriage now: its {value} points count for you at once, because "
                "you have won a trick."),
             held={"king": "KH", "queen": "QH"},
             claims={"value": 40, "points_after": 61}),
        Step(COMPUTER, "9D",
             N_("The computer played {card}, worth nothing, and did not beat your trump. You win "
                "the trick, and with the marriage you count {points}."),
             claims={"winner": LEARNER, "points": 64}),
        Step(LEARNER, "C",
             N_("You count {points}, and your {ace} is the highest trump: it will win the next "
                "trick and take you past 66. Close the stock now: nobody draws any more, and "
                "from now on the computer must follow suit and beat your card if it can."),
             N_("Drawing would give the computer new cards, and with {points} you cannot declare "
                "yet. Close the stock: then your {ace} is sure to bring you past 66."),
             held={"ace": "AH"},
             claims={"points": 64}),
        Step(LEARNER, "AH",
             N_("The stock is closed. Lead your {card}: nothing beats it, and the computer must "
                "play a trump if it has one."),
             N_("Your {card} cannot be beaten: lead it and make sure of the points you need."),
             claims={"card": Card.parse("AH")}),
        Step(COMPUTER, "JH",
             N_("The stock is closed, so the computer had to follow suit: it played {card}, a "
                "lower trump. Your ace wins the trick and its {trick_points} points."),
             claims={"winner": LEARNER, "trick_points": 13}),
        Step(LEARNER, "66",
             N_("You count {points}: declare 66 now. Reaching 66 is not enough, you must say so; "
                "then the hand ends at once. The computer has {their_points}, under 33, so you "
                "win {game_points} game points."),
             N_("You already have 66: declare now. Every further card only risks what you have "
                "won."),
             claims={"points": 77, "their_points": 13, "game_points": 2}),
    ),
    learnt=(
        N_("The cards count: ace 11, ten 10, king 4, queen 3, jack 2, nine 0."),
        N_("Lead a card worth little; keep your aces and trumps for later."),
        N_("The higher card of the suit led wins the trick; a trump beats every other suit."),
        N_("While the stock is open you need not follow suit; the winner of a trick draws first."),
        N_("On lead, after a trick won, exchange the nine of trumps for the turned-up trump."),
        N_("King and queen of a suit are a marriage: 20 points, 40 in trumps, counted once you "
           "have won a trick."),
        # R7.2: after a close only the follower is bound (follow suit and win if he can);
        # the leader still leads any card.
        N_("Close the stock when you are sure to reach 66: from then on no card is drawn, and "
           "whoever follows a trick must follow suit and win it if he can, as when the stock "
           "runs out; the leader may lead any card."),
        N_("Declare 66 as soon as you have it: that ends the hand."),
    ),
)

#: The lessons by name (the page's ``/api/lessons/{name}``).
LESSONS: dict[str, Lesson] = {FIRST.name: FIRST}
