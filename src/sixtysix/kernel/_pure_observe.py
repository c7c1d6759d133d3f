"""The observation of a kernel state, written straight from the state and its history
rather than through a :class:`~sixtysix.game.views.View` (the layout of
:mod:`sixtysix.game.observation`, whose block offsets are passed in): the pure kernel's
batch of tables (:mod:`~sixtysix.kernel._pure_tables`) writes it; the compiled kernel
does the same in C. ``tests/test_envs_vector.py`` checks it against
``encode(hand.view(seat))``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sixtysix.kernel.tables import (
    DECLARE_MARRIAGE,
    EXCHANGE,
    MARRIAGE,
    SCHNEIDER,
    STOCK_CARDS,
    WINNING_TOTAL,
    Phase,
    Reason,
    beats,
)

if TYPE_CHECKING:
    from sixtysix.kernel._pure_rules import State

__all__ = ["OBSERVATION_BLOCKS", "Past", "encode", "encode_past"]

#: The observation blocks the kernel writes, in the order their offsets are given.
OBSERVATION_BLOCKS = (
    "my_hand", "my_tricks", "opponent_tricks", "table", "last_trick", "stock_bottom",
    "opponent_known", "unseen", "trump_suit", "state", "my_turn", "i_lead", "i_dealt", "stock",
    "closed", "scores", "card_points", "tricks_won", "reached", "my_marriages",
    "opponent_marriages", "exchange", "match",
)
FOLLOW, OVER, REVOKE = int(Phase.FOLLOW), int(Phase.OVER), int(Reason.REVOKE)


class Past:
    """What an observation needs of the past that a state does not hold: the cards each
    seat won, the marriages each showed (suits as bits), who exchanged (-1: nobody) and
    the card he took, the tricks played, the winner of the trick that emptied the stock
    (-1: none yet), the last trick's two cards (a mask), and the stock's last card when
    the stock was empty as the state was built without its history (-1: the state holds
    it). Gathered from a state's undo records by :meth:`scan`, or given."""

    __slots__ = ("exchanged_by", "face_up", "last", "shown", "sixth_winner", "taken", "tricks", "won")

    def __init__(self, won: tuple[int, int] = (0, 0), shown: tuple[int, int] = (0, 0),
                 exchanged_by: int = -1, taken: int = -1, tricks: int = 0, sixth_winner: int = -1,
                 last: int = 0, face_up: int = -1) -> None:
        self.won = list(won)
        self.shown = list(shown)
        self.exchanged_by = exchanged_by
        self.taken = taken
        self.tricks = tricks
        self.sixth_winner = sixth_winner
        self.last = last
        self.face_up = face_up

    def scan(self, s: State, start: int = 0) -> None:
        """Add the state's undo records from ``start`` on to what is known."""
        trump = s.trump
        draws = 6 if s.config.deck == 24 else 5  # tricks until the stock is gone (R3.4, S2.2)
        undo = s._undo
        n = len(undo)
        for index in range(start, n):
            record = undo[index]
            code, phase, actor, lead = record[0], record[1], record[2], record[3]
            if code < EXCHANGE and phase == FOLLOW:
                self.last = 1 << lead | 1 << code
                self.tricks += 1
                if not (index == n - 1 and s.reason == REVOKE):
                    winner = actor if beats(code, lead, trump) else 1 - actor
                    self.won[winner] |= self.last
                    if self.tricks == draws:
                        self.sixth_winner = winner
            elif MARRIAGE <= code < EXCHANGE:
                self.shown[actor] |= 1 << ((code - MARRIAGE) // 6)
            elif code >= DECLARE_MARRIAGE:
                self.shown[actor] |= 1 << (code - DECLARE_MARRIAGE)
            elif code == EXCHANGE:
                self.exchanged_by = actor
                self.taken = record[-1]


def encode(s: State, me: int, dealer: int, out: Any, base: int, offsets: Sequence[int],
           scale: float, pack: int) -> None:
    """Write the observation of seat ``me`` into ``out[base:]`` (zeroed by the caller)."""
    past = Past()
    past.scan(s)
    encode_past(s, past, me, dealer, out, base, offsets, scale, pack)


def encode_past(s: State, past: Past, me: int, dealer: int, out: Any, base: int, offsets: Sequence[int],
                scale: float, pack: int) -> None:
    """:func:`encode` with the past given (the match block is not written)."""
    (my_hand, my_tricks, opp_tricks, table, last_trick, stock_bottom, opp_known, unseen, trump_suit,
     state, my_turn, i_lead, i_dealt, stock, closed, scores, card_points, tricks_won, reached,
     my_marriages, opp_marriages, exchange, _match, _size) = offsets
    them = 1 - me
    trump = s.trump
    draws = 6 if s.config.deck == 24 else 5
    shown = past.shown
    hands = s.hands
    left = s.stock[s.drawn:]
    stock_mask = 0
    for card in left:
        stock_mask |= 1 << card
    played = pack & ~hands[0] & ~hands[1] & ~stock_mask
    known = 0
    for suit in range(4):
        if shown[them] >> suit & 1:
            known |= 0b1100 << (6 * suit)  # the Queen and the King
    if past.exchanged_by == them and past.taken >= 0:
        known |= 1 << past.taken
    size = STOCK_CARDS - s.drawn
    bottom = past.face_up if size == 0 and past.face_up >= 0 else s.stock[-1]
    if size == 0 and s.closed_by < 0 and past.tricks >= draws and past.sixth_winner == me:
        known |= 1 << bottom  # R3.4: he took the face-up card with the last draw
    known &= ~(played | hands[me])
    seen = hands[me] | played | known
    if size > 0:
        seen |= 1 << s.stock[-1]
        out[base + stock_bottom + s.stock[-1]] = 1.0
    _bits(out, base + my_hand, hands[me])
    _bits(out, base + my_tricks, past.won[me])
    _bits(out, base + opp_tricks, past.won[them])
    if s.lead >= 0:
        out[base + table + s.lead] = 1.0
    elif past.tricks:
        _bits(out, base + last_trick, past.last)
    _bits(out, base + opp_known, known)
    _bits(out, base + unseen, pack & ~seen)
    out[base + trump_suit + trump] = 1.0
    out[base + state + s.phase] = 1.0
    over = s.phase == OVER
    if not over and s.to_act == me:
        out[base + my_turn] = 1.0
    leader = 1 - s.to_act if s.lead >= 0 else (-1 if over else s.to_act)
    if leader == me:
        out[base + i_lead] = 1.0
    if dealer == me:
        out[base + i_dealt] = 1.0
    out[base + stock] = size / 12
    if s.closed_by >= 0:
        out[base + closed + (0 if s.closed_by == me else 1)] = 1.0
    for i, seat in enumerate((me, them)):
        total = s.score(seat)
        out[base + scores + i] = min(total / scale, 1.0)
        out[base + card_points + i] = min(s.points[seat] / scale, 1.0)
        out[base + tricks_won + i] = s.tricks[seat] / 12
        out[base + reached + 2 * i] = float(total >= SCHNEIDER)
        out[base + reached + 2 * i + 1] = float(total >= WINNING_TOTAL)
    _bits(out, base + my_marriages, shown[me] & 0xF)
    _bits(out, base + opp_marriages, shown[them] & 0xF)
    if past.exchanged_by >= 0:
        out[base + exchange + (0 if past.exchanged_by == me else 1)] = 1.0


def _bits(out: Any, at: int, mask: int) -> None:
    while mask:
        low = mask & -mask
        mask ^= low
        out[at + low.bit_length() - 1] = 1.0
