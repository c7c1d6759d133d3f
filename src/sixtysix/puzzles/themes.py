"""What a puzzle is about, read from the kernel's facts about its solution.

:func:`classify` plays the solution line on a copy of the position's kernel state and
asks the kernel what happened: how the hand ended (``reason``), which rule scored it
(``scoring``), who won each trick (``trick_history``), and what an action would have
done (pushed and taken back). It decides no rule itself; each theme rests on the rule
paragraph named beside it (the rule book's numbers, docs/rules.md).

=================  ============================================================  ==========
theme              when                                                          rules
=================  ============================================================  ==========
``declare``        the line ends with the player's correct declaration          R8.1, R8.2
``play_on``        a correct declaration was open to the player, the line       R8.4
                   plays on instead
``close``          the player closes first and the close succeeds               R6.1, R6.3
``dont_close``     closing was open, and with best play after it the close      R6.4
                   fails
``last_trump``     the player wins the last trick of an exhausted stock with a  R7.3
                   trump, and its bonus
``marriage``       the first action announces a marriage (led or shown with a   R5.1, R5.5
                   declaration)
``exchange``       the first action exchanges the trump nine                    R4.1
``schwarz``        the player wins with the opponent trickless: 3 game points   R9.1
``tie``            the line ends in a tie                                       R8.5, R9.2
``revoke``         under table rules, a card the player could follow with is a  R7.2,
                   revoke                                                        R10.2
=================  ============================================================  ==========

A mined puzzle: the player leads the Ace of diamonds, wins the trick with it and
has 66 (the ten of diamonds follows it), and declares:

>>> from sixtysix import Action, Hand
>>> hand = Hand("KS 9C JS KD AH AC TC KH JH AD QH TS KC AS QS JD TH QC TD 9S 9H JC QD 9D", dealer=0)
>>> for token in ("JS TS D QH JH D JD KH D AH QS D 9S KS D X TC AC D").split():
...     hand.push(Action.parse(token))
>>> classify(hand, [Action.parse(t) for t in ("AD", "TD", "66")])
(<Theme.DECLARE: 'declare'>,)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.hand import Hand
from sixtysix.kernel import CLOSE, DECLARE, SUIT_OF, Phase, Reason, Scoring, State

__all__ = ["Theme", "classify"]


class Theme(enum.StrEnum):
    """A puzzle's theme (the module text says when each applies)."""

    DECLARE = "declare"
    PLAY_ON = "play_on"
    CLOSE = "close"
    DONT_CLOSE = "dont_close"
    LAST_TRUMP = "last_trump"
    MARRIAGE = "marriage"
    EXCHANGE = "exchange"
    SCHWARZ = "schwarz"
    TIE = "tie"
    REVOKE = "revoke"


_SCHWARZ = frozenset({Scoring.NO_TRICK, Scoring.CLOSED_NO_TRICK})  # R9.1's third line


def _played(position: Hand, line: Sequence[Action]) -> State:
    state = position.kernel.copy()
    for action in line:
        state.push(action.code)
    return state


def _ends_with(position: Hand, line: Sequence[Action], reasons: frozenset[Reason]) -> bool:
    """Whether ``line`` ends the hand in one of ``reasons`` with the player to act winning."""
    end = _played(position, line)
    return end.phase == Phase.OVER and end.reason in reasons and end.winner == position.to_act


def _declares(position: Hand, line: Sequence[Action]) -> bool:
    # R8.1, R8.2: the player's own declaration ends the line, judged correct by the kernel
    # (in a closed hand a correct declaration is the close succeeding, R6.3).
    if not line[-1].is_declaration or _played(position, line[:-1]).to_act != position.to_act:
        return False
    return _ends_with(position, line, frozenset({Reason.DECLARED, Reason.CLOSED_SUCCEEDED}))


def _could_declare(position: Hand, line: Sequence[Action]) -> bool:
    # R8.4: 66 was open and correct, and the player played on.
    state = position.kernel.copy()
    if not state.legal_mask() >> DECLARE & 1 or line[0].is_declaration:
        return False
    state.push(DECLARE)
    return state.winner == position.to_act and state.reason != Reason.FALSE_DECLARATION


def _closes(position: Hand, line: Sequence[Action]) -> bool:
    # R6.1, R6.3: the player closes first, and the close succeeds.
    succeeded = frozenset({Reason.CLOSED_SUCCEEDED})
    return line[0].kind is ActionKind.CLOSE and _ends_with(position, line, succeeded)


def _close_fails(position: Hand, close_line: Sequence[Action] | None) -> bool:
    # R6.4: closing was legal and, with best play after it, the closer fails.
    if close_line is None or not close_line or close_line[0].code != CLOSE:
        return False
    end = _played(position, close_line)
    return end.phase == Phase.OVER and end.reason == Reason.CLOSED_FAILED


def _last_trump(position: Hand, line: Sequence[Action]) -> bool:
    # R7.3: the stock was exhausted, not closed, and the player took the last trick with a trump.
    end = _played(position, line)
    if end.phase != Phase.OVER or end.closed_by >= 0 or position.rules.last_trick_bonus == 0:
        return False
    if end.hand(0) | end.hand(1):
        return False  # the hand ended before its last trick
    leader, lead, follow, winner = end.trick_history()[-1]
    player = position.to_act
    card = lead if leader == player else follow
    return winner == player and SUIT_OF[card] == end.trump


def _schwarz(position: Hand, line: Sequence[Action]) -> bool:
    end = _played(position, line)
    return end.phase == Phase.OVER and end.winner == position.to_act and end.scoring()[0] in _SCHWARZ


def _tie(position: Hand, line: Sequence[Action]) -> bool:
    end = _played(position, line)  # R8.5, R9.2: played out with equal totals
    return end.phase == Phase.OVER and end.reason == Reason.TIE


def _revoke_open(position: Hand) -> bool:
    # R7.2, R10.2: under table rules a revoke is a legal card; the kernel ends the hand on it.
    if position.rules.enforce_follow or position.kernel.phase != Phase.FOLLOW:
        return False
    for action in position.legal_actions():
        state = position.kernel.copy()
        state.push(action.code)
        if state.phase == Phase.OVER and state.reason == Reason.REVOKE:
            return True
    return False


def classify(position: Hand, line: Sequence[Action],
             close_line: Sequence[Action] | None = None) -> tuple[Theme, ...]:
    """The themes of a puzzle: ``position`` is the hand at it (every card known),
    ``line`` the solution (the first action, then best play to the end of the hand), and
    ``close_line`` best play from the position after closing, when closing is legal there
    and is not the solution (for :attr:`Theme.DONT_CLOSE`). In the order of :class:`Theme`."""
    if not line:
        raise ValueError("a solution has at least one action")
    first = line[0]
    found = {
        Theme.DECLARE: _declares(position, line),
        Theme.PLAY_ON: _could_declare(position, line),
        Theme.CLOSE: _closes(position, line),
        Theme.DONT_CLOSE: first.code != CLOSE and _close_fails(position, close_line),
        Theme.LAST_TRUMP: _last_trump(position, line),
        Theme.MARRIAGE: first.kind in (ActionKind.MARRIAGE, ActionKind.DECLARE_MARRIAGE),
        Theme.EXCHANGE: first.kind is ActionKind.EXCHANGE,
        Theme.SCHWARZ: _schwarz(position, line),
        Theme.TIE: _tie(position, line),
        Theme.REVOKE: _revoke_open(position),
    }
    return tuple(theme for theme in Theme if found[theme])
