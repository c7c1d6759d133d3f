"""The fixed-size encoding of a :class:`~sixtysix.game.views.View`, shared by the RL adapters
(:mod:`sixtysix.envs`) and the learned players (:mod:`sixtysix.search.net`); needs numpy.

An observation is built from ``hand.view(seat)`` alone, so it holds exactly
what that seat may know (R11, docs/design.md §6). It is a flat ``float32`` vector
with every entry in ``[0, 1]``, made of the blocks of :data:`LAYOUT`, in order.
"Mine" and "the opponent's" are relative to the observing seat, so one policy
can play either seat.

Action codes are those of :mod:`sixtysix.game.actions` (``Discrete(56)``); the
mask has a 1 for each legal action of the seat to act, and only that seat's
mask has any 1.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=3)
>>> obs = encode(hand.view(hand.to_act))
>>> obs.shape == (OBSERVATION_SIZE,), float(obs[block("my_hand")].sum())
(True, 6.0)
>>> [str(a) for a in actions_of(action_mask(hand.view(hand.to_act)))] == \\
...     [str(a) for a in hand.legal_actions()]
True
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import numpy.typing as npt

from sixtysix.game.actions import ACTIONS, NUM_CODES, Action
from sixtysix.game.views import View
from sixtysix.kernel import OBSERVATION_BLOCKS
from sixtysix.kernel.tables import SCHNEIDER, WINNING_TOTAL

__all__ = [
    "LAYOUT",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "action_mask",
    "actions_of",
    "block",
    "decode",
    "encode",
    "kernel_offsets",
]

#: The size of the action space: every action code (some codes, such as a
#: marriage lead with a nine, are never legal).
NUM_ACTIONS = NUM_CODES

#: Points are scaled by this (more than any total a hand can reach: 120 card
#: points, 100 in marriages, a last-trick bonus).
POINT_SCALE = 256.0

#: The blocks of an observation: name, length, meaning.
LAYOUT: tuple[tuple[str, int, str], ...] = (
    ("my_hand", 24, "cards in my hand (by card index, clubs 9 first, spades ace last)"),
    ("my_tricks", 24, "cards in the tricks I won"),
    ("opponent_tricks", 24, "cards in the tricks the opponent won"),
    ("table", 24, "the card led to the current trick, if any"),
    ("last_trick", 24, "the two cards of the trick just completed (R3.5), until the next lead"),
    ("stock_bottom", 24, "the last card of the stock while it has cards: the turned-up trump or "
                         "the nine exchanged for it, face up or closed (R2.3, R6.2)"),
    ("opponent_known", 24, "cards the opponent is known to hold (a marriage partner shown, "
                           "the card taken in an exchange, the last trump drawn)"),
    ("unseen", 24, "cards whose place I do not know (the opponent's hand or the stock)"),
    ("trump_suit", 4, "the trump suit, one-hot (clubs, diamonds, hearts, spades)"),
    ("state", 4, "lead, follow, draw, over; one-hot"),
    ("my_turn", 1, "1 when I am to act"),
    ("i_lead", 1, "1 when I lead (or led) the current trick"),
    ("i_dealt", 1, "1 when I dealt this hand"),
    ("stock", 1, "cards left in the stock (counting the turned-up trump) / 12"),
    ("closed", 2, "closed by me, closed by the opponent (R6)"),
    ("scores", 2, "my total toward 66, the opponent's (R5.3) / 256"),
    ("card_points", 2, "my card points, the opponent's / 256"),
    ("tricks_won", 2, "tricks I won, the opponent won / 12"),
    ("reached", 4, "I have 33, I have 66, the opponent has 33, the opponent has 66"),
    ("my_marriages", 4, "marriages I announced, by suit"),
    ("opponent_marriages", 4, "marriages the opponent announced, by suit"),
    ("exchange", 2, "I exchanged the trump nine, the opponent did (R4)"),
    ("match", 3, "match game points: mine / target, the opponent's / target, "
                 "tie bonus at stake / target (all 0 for a single hand)"),
)

_OFFSETS: dict[str, tuple[int, int]] = {}
_start = 0
for _name, _length, _ in LAYOUT:
    _OFFSETS[_name] = (_start, _start + _length)
    _start += _length
#: The length of an observation vector.
OBSERVATION_SIZE = _start

_STATES = ("lead", "follow", "draw", "over")


def block(name: str) -> slice:
    """The slice of an observation that holds block ``name`` of :data:`LAYOUT`.

    >>> block("my_hand")
    slice(0, 24, None)
    """
    try:
        start, stop = _OFFSETS[name]
    except KeyError:
        raise KeyError(f"no observation block {name!r}: expected one of "
                       f"{', '.join(_OFFSETS)}") from None
    return slice(start, stop)


def kernel_offsets() -> list[int]:
    """Where each block the kernel writes (:data:`sixtysix.kernel.OBSERVATION_BLOCKS`)
    starts, then the size: how the kernel's tables and network are told the layout."""
    return [block(name).start for name in OBSERVATION_BLOCKS] + [OBSERVATION_SIZE]


def encode(view: View, match: tuple[int, int, int, int] | None = None) -> npt.NDArray[np.float32]:
    """The observation of ``view``: a new ``float32`` vector of :data:`OBSERVATION_SIZE`.

    ``match`` gives the public match state as ``(my game points, the
    opponent's, the target, the tie bonus at stake)``; leave it out for a
    single hand.
    """
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me, them = view.seat, view.opponent

    def put(name: str, index: int, value: float = 1.0) -> None:
        obs[_OFFSETS[name][0] + index] = value

    for card in view.hand:
        put("my_hand", card.index)
    for trick in view.tricks:
        owner = "my_tricks" if trick.winner == me else "opponent_tricks"
        if trick.winner is None:  # a revoked trick (R10.2) belongs to nobody: leave it out
            continue
        put(owner, trick.lead.index)
        put(owner, trick.follow.index)
    if view.lead is not None:
        put("table", view.lead[1].index)
    last = view.last_trick
    if last is not None:
        put("last_trick", last.lead.index)
        put("last_trick", last.follow.index)
    if view.stock_bottom is not None:
        put("stock_bottom", view.stock_bottom.index)
    for card in view.known_opponent_cards():
        put("opponent_known", card.index)
    for card in view.unseen():
        put("unseen", card.index)
    put("trump_suit", int(view.trump))
    put("state", _STATES.index(view.state))
    if view.to_act == me:
        put("my_turn", 0)
    leader = view.lead[0] if view.lead is not None else (
        view.to_act if view.to_act is not None else None)
    if leader == me:
        put("i_lead", 0)
    if view.dealer == me:
        put("i_dealt", 0)
    put("stock", 0, view.stock_size / 12)
    if view.closed_by is not None:
        put("closed", 0 if view.closed_by == me else 1)
    for i, seat in enumerate((me, them)):
        put("scores", i, min(view.scores[seat] / POINT_SCALE, 1.0))
        put("card_points", i, min(view.card_points[seat] / POINT_SCALE, 1.0))
        put("tricks_won", i, view.tricks_won[seat] / 12)
        put("reached", 2 * i, float(view.scores[seat] >= SCHNEIDER))
        put("reached", 2 * i + 1, float(view.scores[seat] >= WINNING_TOTAL))
    for marriage in view.marriages:
        put("my_marriages" if marriage.seat == me else "opponent_marriages", int(marriage.suit))
    if view.exchange is not None:
        put("exchange", 0 if view.exchange[0] == me else 1)
    if match is not None:
        mine, theirs, target, bonus = match
        scale = max(target, 1)
        put("match", 0, min(mine / scale, 1.0))
        put("match", 1, min(theirs / scale, 1.0))
        put("match", 2, min(bonus / scale, 1.0))
    return obs


def action_mask(view: View) -> npt.NDArray[np.int8]:
    """The legal actions of ``view``'s seat as a new ``int8`` vector over the 56 action codes
    (all zeros when the seat is not to act), the form ``Discrete.sample(mask=...)`` takes."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in view.legal:
        mask[action.code] = 1
    return mask


def actions_of(mask: npt.NDArray[Any]) -> list[Action]:
    """The actions a mask allows, by code.

    >>> [str(a) for a in actions_of(np.eye(56, dtype=np.int8)[49])]
    ['C']
    """
    out: list[Action] = []
    for code in np.flatnonzero(mask):
        action = ACTIONS[int(code)]
        if action is None:
            raise ValueError(f"action code {int(code)} is never legal")
        out.append(action)
    return out



def decode(value: object) -> tuple[int, Action | None]:
    """An action code as an agent gives it (an ``int`` or a NumPy integer) and its action;
    ``None`` for a code no action has. Anything but an integer is a :class:`TypeError`.

    >>> decode(np.int64(49))
    (49, Action.parse('C'))
    >>> decode(99)
    (99, None)
    """
    try:
        if isinstance(value, bool):
            raise TypeError
        code = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"an action is an integer code 0-{NUM_ACTIONS - 1}, not {value!r}") from None
    return code, (ACTIONS[code] if 0 <= code < NUM_ACTIONS else None)
