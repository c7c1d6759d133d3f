"""Why a hand ended as it did: the facts a result sentence needs, for every front end.

A :class:`~sixtysix.game.hand.HandResult` says who won, how many game points and the
reason; a person also wants to know *why that many*: "3 game points, because he
had no trick when you closed" (R6.4), "2, because you had under 33" (R9.1). The
:class:`Explanation` of a finished hand holds those facts as values — who
declared or closed, which scale of R9.1/R6.4/R8.3 gave the game points, the loser's
points and tricks it was measured on, the last-trick bonus — and each front end
words them in the player's language (:mod:`sixtysix.present.text.narration` for the terminal,
the web page from :meth:`Explanation.to_json`).

The facts are the rules kernel's, read off the result (:class:`~sixtysix.game.result.Scored`,
which :meth:`State.scoring <sixtysix.kernel.State.scoring>` gave when the hand ended),
never worked out again: an explanation cannot disagree with the score.

>>> from sixtysix import Hand
>>> hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH")
>>> for text in "C TC 9C".split():
...     _ = hand.push_text(text)
>>> _ = hand.push_text("66")   # seat 1 closed, won a trick and declares with 10: false
>>> why = explain(hand.view(0))
>>> why.reason, why.winner, why.declarer, why.closer, why.scale, why.game_points
(<Reason.CLOSED_FAILED: 'closed_failed'>, 0, 1, 1, <Scale.NO_TRICK_AT_CLOSE: 'no_trick_at_close'>, 3)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from sixtysix.game.views import View
from sixtysix.kernel.tables import SCHNEIDER, Scoring
from sixtysix.states import Reason

__all__ = ["Explanation", "Reason", "Scale", "explain"]


class Scale(enum.Enum):
    """Which rule set the number of game points."""

    #: R9.1: the loser had 33 or more: 1.
    THIRTY_THREE = "33_or_more"
    #: R9.1: the loser had under 33 but a trick (Schneider): 2.
    UNDER_33 = "under_33"
    #: R9.1: the loser took no trick (Schwarz): 3.
    NO_TRICK = "no_trick"
    #: R6.4: the closer failed; his opponent had a trick when the stock was closed: 2.
    TRICK_AT_CLOSE = "trick_at_close"
    #: R6.4: the closer failed; his opponent had no trick when the stock was closed: 3.
    NO_TRICK_AT_CLOSE = "no_trick_at_close"
    #: A fixed number: R8.3's 2 for a false declaration, a failed close under a
    #: rule that always gives 3, S6.3's 1 for the last trick without 66, a revoke
    #: (R10.2), a forfeit.
    FIXED = "fixed"
    #: R8.3 with the 3-point option: the false declarer's opponent had no trick.
    NO_TRICK_FALSE = "no_trick_false"


#: The scale of each of the kernel's scorings (a line of R9.1 measured at the close too).
SCALES: dict[Scoring, Scale | None] = {
    Scoring.NONE: None,
    Scoring.THIRTY_THREE: Scale.THIRTY_THREE,
    Scoring.UNDER_33: Scale.UNDER_33,
    Scoring.NO_TRICK: Scale.NO_TRICK,
    Scoring.CLOSED_THIRTY_THREE: Scale.THIRTY_THREE,
    Scoring.CLOSED_UNDER_33: Scale.UNDER_33,
    Scoring.CLOSED_NO_TRICK: Scale.NO_TRICK,
    Scoring.TRICK_AT_CLOSE: Scale.TRICK_AT_CLOSE,
    Scoring.NO_TRICK_AT_CLOSE: Scale.NO_TRICK_AT_CLOSE,
    Scoring.FAILED_CLOSE: Scale.FIXED,
    Scoring.FALSE_DECLARATION: Scale.FIXED,
    Scoring.NO_TRICK_FALSE: Scale.NO_TRICK_FALSE,
    Scoring.LAST_TRICK: Scale.FIXED,
    Scoring.REVOKE: Scale.FIXED,
    Scoring.REVOKE_NO_POINTS: Scale.FIXED,
    Scoring.FORFEIT: Scale.FIXED,
}


@dataclass(frozen=True)
class Explanation:
    """The facts behind a hand's result (see the module)."""

    reason: Reason
    #: ``None`` for a tie.
    winner: int | None
    game_points: int
    #: Game points of tied hands before this one that the winner collects (R9.2).
    bonus: int
    scale: Scale | None
    #: The seat whose declaration of 66 ended the hand (``None`` when nobody declared:
    #: the cards ran out, or the program declared for him under ``auto_declare``).
    declarer: int | None
    closer: int | None
    #: The loser's points and tricks the scale was measured on: at the end of the hand,
    #: or when the stock was closed (Schnapsen's successful close, S5.3).
    loser_points: int
    loser_tricks: int
    at_close: bool
    #: The seat that earned the last-trick bonus (R7.3) and its value, if one was earned.
    last_trick_seat: int | None
    last_trick_bonus: int
    #: The total under which a loser with a trick concedes 2 (R9.1), which the words of
    #: the scales name.
    threshold: int = SCHNEIDER

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    def to_json(self) -> dict[str, Any]:
        """The explanation as JSON (the web page's ``why``).

        >>> from sixtysix import Hand
        >>> from sixtysix.bots import RandomBot
        >>> from sixtysix.play.runner import play_hand
        >>> hand = play_hand(Hand.random(seed=4), [RandomBot(seed=1), RandomBot(seed=2)])
        >>> sorted(explain(hand.view(0)).to_json())  # doctest: +NORMALIZE_WHITESPACE
        ['at_close', 'bonus', 'closer', 'declarer', 'game_points', 'last_trick_bonus',
         'last_trick_seat', 'loser_points', 'loser_tricks', 'reason', 'scale', 'threshold', 'winner']
        """
        return {
            "reason": self.reason.value,
            "winner": self.winner,
            "game_points": self.game_points,
            "bonus": self.bonus,
            "scale": None if self.scale is None else self.scale.value,
            "declarer": self.declarer,
            "closer": self.closer,
            "loser_points": self.loser_points,
            "loser_tricks": self.loser_tricks,
            "at_close": self.at_close,
            "last_trick_seat": self.last_trick_seat,
            "last_trick_bonus": self.last_trick_bonus,
            "threshold": self.threshold,
        }


def explain(view: View, bonus: int = 0) -> Explanation:
    """The explanation of the finished hand that ``view`` shows (any seat's view: once
    the hand is over everything in it is public), from the kernel's scoring of it that
    its result carries. ``bonus`` is the tie bonus the match added (R9.2; a hand alone
    knows nothing of earlier hands). Raises :class:`ValueError` for a hand not over, and
    for a result read from JSON, which does not carry the scoring."""
    result = view.result
    if result is None:
        raise ValueError("the hand is not over: there is no result to explain")
    scored = result.scored
    if scored is None:
        raise ValueError("the result does not carry the kernel's scoring (it was read from JSON)")
    last = view.history[-1] if view.history else None
    seat = scored.last_trick_seat
    return Explanation(
        reason=Reason(result.reason), winner=result.winner, game_points=result.game_points, bonus=bonus,
        scale=SCALES[scored.scoring],
        declarer=last[0] if last is not None and last[1].is_declaration else None,
        closer=result.closed_by, loser_points=scored.loser_points, loser_tricks=scored.loser_tricks,
        at_close=scored.at_close, last_trick_seat=seat,
        last_trick_bonus=0 if seat is None else view.rules.last_trick_bonus)
