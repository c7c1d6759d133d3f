"""The pure-Python rules: the reference implementation of the rules' :class:`State`.

Standard library only, and nothing of the engine (search, solver, network, vector
tables): the rules stand alone, as the compiled rules (``_crules.c``) do. The engine's
:class:`sixtysix.kernel._pure.State` adds the playout policy on top.
``tests/test_kernel_diff.py`` walks both kernels through the same positions and
compares everything they say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from sixtysix.kernel._pure_rng import Rng
from sixtysix.kernel.tables import (
    AT_CLOSE,
    BIT_CLOSE,
    BIT_DECLARE,
    BIT_DRAW,
    BIT_EXCHANGE,
    CLOSE,
    DEAL_LAYOUTS,
    DECLARE,
    DECLARE_MARRIAGE,
    DRAW,
    EXCHANGE,
    KINGS,
    MARRIAGE,
    MEASURED_AT_CLOSE,
    NUM_CODES,
    POINTS,
    SCORING_POINTS,
    STOCK_CARDS,
    SUIT_OF,
    WINNING_TOTAL,
    Config,
    Refused,
    Scoring,
    conceded,
    follow_mask,
    marriage_value,
)

__all__ = ["NAME", "Rng", "State"]

#: Which kernel this is (``sixtysix --version`` prints it).
NAME = "python"

LEAD, FOLLOW, DRAWING, OVER = 0, 1, 2, 3
# Reasons (tables.Reason).
DECLARED, FALSE_DECLARATION, CLOSED_FAILED, CLOSED_SUCCEEDED, PLAYED_OUT, TIE, REVOKE, FORFEIT = range(8)
# Scorings (tables.Scoring) as plain ints; R9.1's lines are their game points (conceded).
(NO_SCORE, NO_TRICK, TRICK_AT_CLOSE, NO_TRICK_AT_CLOSE, FAILED_CLOSE, FALSE_DECLARED, NO_TRICK_FALSE,
 LAST_TRICK, REVOKED, REVOKED_NO_POINTS, FORFEITED) = (
    int(s) for s in (Scoring.NONE, Scoring.NO_TRICK, Scoring.TRICK_AT_CLOSE, Scoring.NO_TRICK_AT_CLOSE,
                     Scoring.FAILED_CLOSE, Scoring.FALSE_DECLARATION, Scoring.NO_TRICK_FALSE,
                     Scoring.LAST_TRICK, Scoring.REVOKE, Scoring.REVOKE_NO_POINTS, Scoring.FORFEIT))
# Refusals (tables.Refused), as plain ints for legal_mask's hot path.
LEGAL = int(Refused.LEGAL)


class State:
    """One hand's whole state on bitmasks, with make/unmake.

    Unchecked: :meth:`push` trusts that the code is legal (see
    :meth:`legal_mask`); the checked API is :class:`sixtysix.game.hand.Hand`.

    >>> from sixtysix.kernel.tables import config
    >>> from sixtysix.rules import CLASSIC
    >>> s = State.deal(list(range(24)), 0, config(CLASSIC))
    >>> s.phase, s.to_act, s.trump, s.hand(1) == 0b111000111
    (0, 1, 2, True)
    """

    __slots__ = (
        "config", "phase", "to_act", "lead", "trump", "exchange_card", "hands", "points", "tricks",
        "marriages", "pending", "drawn", "stock", "closed_by", "closed_at", "close_value",
        "bonus_seat", "winner", "game_points", "reason", "_undo", "_lmask",
        # How the result was scored (scoring): the Scoring, and the closer's opponent's
        # total and tricks when the stock was closed (S5.3; -1 when not known).
        "_scored", "close_score", "close_tricks",
        # Rule options (Config), as attributes for the hot paths.
        "_enforce", "_auto", "_draw_step", "_close_min", "_close_first", "_exchange_min",
        "_exchange_first", "_marriage_first", "_marriages_p2", "_last_bonus", "_next_trick",
        "_king_lead", "_last_trick_wins", "_close_at_close", "_failed_three", "_false_three",
        "_closing", "_declare_bits", "_close_bits",
    )

    config: Config
    phase: int
    to_act: int
    lead: int
    trump: int
    exchange_card: int
    hands: list[int]
    points: list[int]
    tricks: list[int]
    marriages: list[int]
    pending: list[int]
    drawn: int
    stock: list[int]
    closed_by: int
    closed_at: int
    close_value: int
    close_score: int
    close_tricks: int
    bonus_seat: int
    winner: int
    game_points: int
    reason: int

    # Construction ----------------------------------------------------------------
    @classmethod
    def deal(cls, deck: Sequence[int], dealer: int, config: Config) -> Self:
        """Deal ``deck`` (card indices, top first, ``config.deck`` of them): R2.3/R2.4,
        three to the non-dealer, three to the dealer, again, then the trump turned;
        S2.1 for 20 cards: three each, the trump turned, then two each."""
        if len(deck) != config.deck:
            raise ValueError(f"the deck must have {config.deck} cards, not {len(deck)}")
        s = object.__new__(cls)
        s._configure(config)
        non_dealer = 1 - dealer
        layout = DEAL_LAYOUTS[config.deck]
        hands = [0, 0]
        for i in layout.non_dealer:
            hands[non_dealer] |= 1 << deck[i]
        for i in layout.dealer:
            hands[dealer] |= 1 << deck[i]
        turned = layout.trump
        stock = [deck[i] for i in layout.stock]
        drawn = STOCK_CARDS - len(stock)
        s._start(SUIT_OF[deck[turned]], hands, [0] * drawn + stock, drawn, non_dealer)
        return s

    @classmethod
    def from_key(cls, config: Config, key: Sequence[int]) -> Self:
        """The state whose :meth:`key` is ``key`` (with no history to pop). The key of
        a finished hand does not hold its result: it is refused."""
        (phase, to_act, lead, trump, h0, h1, c0, c1, t0, t1, m0, m1, q0, q1, drawn, closed_by,
         closed_at, close_value, bonus_seat) = key[:19]
        if phase == OVER:
            raise ValueError("the key of a finished hand does not hold its result")
        s = object.__new__(cls)
        s._configure(config)
        s._start(trump, [h0, h1], [0] * drawn + list(key[19:]), drawn, to_act)
        s.phase = phase
        s.lead = lead
        s.points = [c0, c1]
        s.tricks = [t0, t1]
        s.marriages = [m0, m1]
        s.pending = [q0, q1]
        s.closed_by = closed_by
        s.closed_at = closed_at
        s.close_value = close_value
        s.bonus_seat = bonus_seat
        if len(s.stock) != STOCK_CARDS:
            raise ValueError("the stock and the cards drawn do not add up to 12 places")
        return s

    def _configure(self, config: Config) -> None:
        self.config = config
        self._enforce = config.enforce_follow
        self._auto = config.auto_declare
        self._draw_step = config.close_before_draw
        self._close_min = config.close_min_stock
        self._close_first = config.close_first_lead
        self._exchange_min = config.exchange_min_stock
        self._exchange_first = config.exchange_first_lead
        self._marriage_first = config.marriage_first_lead
        self._marriages_p2 = config.marriages_in_phase2
        self._last_bonus = config.last_trick_bonus
        self._next_trick = config.next_trick
        self._king_lead = config.king_lead
        self._last_trick_wins = config.last_trick_wins
        self._close_at_close = config.close_scored_at_close
        self._failed_three = config.failed_close_three
        self._false_three = config.false_declaration_three
        self._closing = config.closing
        tables = _GATE_TABLES.get(config)
        if tables is None:
            tables = _GATE_TABLES[config] = self._gate_tables()
        self._declare_bits, self._close_bits = tables

    def _gate_tables(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """The answers of the gates that the rules and a few numbers decide, as the bits
        legal_mask sets (a lookup is faster than a call here): declaring by whether the
        player has won a trick, closing an open stock by whether a trick was played and the
        stock's size."""
        declare = tuple(BIT_DECLARE if self._declare_gate(won) == LEGAL else 0 for won in (False, True))
        close = tuple(tuple(BIT_CLOSE if self._close_gate(played, True, stock) == LEGAL else 0
                            for stock in range(STOCK_CARDS + 1)) for played in (False, True))
        return declare, close

    def _start(self, trump: int, hands: list[int], stock: list[int], drawn: int, to_act: int) -> None:
        self.phase = LEAD
        self.to_act = to_act
        self.lead = -1
        self.trump = trump
        self.exchange_card = trump * 6 + self.config.exchange_rank
        self.hands = hands
        self.points = [0, 0]
        self.tricks = [0, 0]
        self.marriages = [0, 0]
        self.pending = [0, 0]
        self.drawn = drawn
        self.stock = stock
        self.closed_by = -1
        self.closed_at = -1
        self.close_value = 0
        self.close_score = -1
        self.close_tricks = -1
        self.bonus_seat = -1
        self.winner = -1
        self.game_points = 0
        self.reason = -1
        self._scored = NO_SCORE
        self._undo: list[tuple[int, ...]] = []
        self._lmask = -1

    def copy(self) -> Self:
        """An independent copy, with its history."""
        other = object.__new__(type(self))
        for name in _SCALARS:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands[:]
        other.points = self.points[:]
        other.tricks = self.tricks[:]
        other.marriages = self.marriages[:]
        other.pending = self.pending[:]
        other.stock = self.stock[:]
        other._undo = self._undo[:]
        return other

    # Queries -------------------------------------------------------------------------
    def hand(self, seat: int) -> int:
        """The cards ``seat`` holds, as a mask."""
        return self.hands[seat]

    def card_points(self, seat: int) -> int:
        """Card points taken in tricks (R1.3)."""
        return self.points[seat]

    def tricks_won(self, seat: int) -> int:
        return self.tricks[seat]

    def marriage_points(self, seat: int) -> int:
        """Marriage points announced and not waiting for a next trick (counted once
        ``seat`` has a trick, R5.3)."""
        return self.marriages[seat]

    def pending_points(self, seat: int) -> int:
        """Marriage points waiting for ``seat``'s next trick won (``marriage_counts =
        next_trick``); always 0 under the classic rule."""
        return self.pending[seat]

    def score(self, seat: int) -> int:
        """The total toward 66: card points, counted marriages, last-trick bonus (R5.3, R7.3)."""
        total = self.points[seat]
        if self.tricks[seat]:
            total += self.marriages[seat]
        if self.bonus_seat == seat:
            total += self._last_bonus
        return total

    @property
    def stock_size(self) -> int:
        """Cards left in the stock, counting the turned-up trump."""
        return STOCK_CARDS - self.drawn

    @property
    def stock_open(self) -> bool:
        """Neither closed nor exhausted: phase 1 (R3)."""
        return self.closed_by < 0 and self.drawn < STOCK_CARDS

    def stock_cards(self) -> list[int]:
        """The cards left in the stock, next to be drawn first (the face-up trump last)."""
        return self.stock[self.drawn:]

    def history(self) -> list[tuple[int, int]]:
        """Every action pushed on this state, as ``(code, seat)``."""
        return [(u[0], u[2]) for u in self._undo]

    def depth(self) -> int:
        """How many actions :meth:`pop` can take back."""
        return len(self._undo)

    # The public record: what the kernel decided as the actions were pushed, read off
    # their undo records (each holds the state before its action; the state after the
    # last is the current one).
    def trick_history(self) -> list[tuple[int, int, int, int]]:
        """Every trick completed by the actions pushed on this state, in order, as
        ``(leader, lead, follow, winner)``: the cards as indices, the winner the seat
        whose tricks grew (R3.3), -1 for a revoke, which ends the hand with the trick
        counting for nobody (R10.2).

        >>> from sixtysix.kernel.tables import config
        >>> from sixtysix.rules import CLASSIC
        >>> s = State.deal(list(range(24)), 0, config(CLASSIC))
        >>> s.push(0); s.push(3)   # seat 1 leads the nine of clubs, seat 0 the king
        >>> s.trick_history()
        [(1, 0, 3, 0)]
        """
        undo = self._undo
        out = []
        for i, u in enumerate(undo):
            if u[1] == FOLLOW and u[0] < MARRIAGE:
                after = undo[i + 1][8:10] if i + 1 < len(undo) else self.tricks
                winner = 0 if after[0] > u[8] else 1 if after[1] > u[9] else -1
                out.append((1 - u[2], u[3], u[0], winner))
        return out

    def marriages_shown(self) -> list[tuple[int, int, int, int]]:
        """Every marriage shown by the actions pushed on this state, in order, as ``(seat,
        suit, value, at_trick)``: led (R5.1) or shown with 66 (R5.5), worth 40 in trumps
        and 20 otherwise, ``at_trick`` the number of tricks completed before it."""
        out = []
        for u in self._undo:
            code = u[0]
            if MARRIAGE <= code < EXCHANGE or code >= DECLARE_MARRIAGE:
                suit = SUIT_OF[code - MARRIAGE] if code < EXCHANGE else code - DECLARE_MARRIAGE
                out.append((u[2], suit, marriage_value(suit, self.trump), u[8] + u[9]))
        return out

    def exchanged(self) -> tuple[int, int]:
        """Who exchanged the trump nine (the jack from 20 cards) by an action pushed on this
        state, and the turned-up card he took (R4.1, S4.1); ``(-1, -1)`` if nobody did."""
        for u in self._undo:
            if u[0] == EXCHANGE:
                return u[2], u[18]
        return -1, -1

    def failed_close_points(self) -> int:
        """The game points a failed close gives the closer's opponent (R6.4), as judged
        when the stock was closed: 3 if the opponent had no trick then, or always under
        ``failed_close = three``; else 2. 0 while nobody closed.

        >>> from sixtysix.kernel.tables import CLOSE, config
        >>> from sixtysix.rules import CLASSIC
        >>> s = State.deal(list(range(24)), 0, config(CLASSIC))
        >>> s.failed_close_points()
        0
        >>> s.push(CLOSE)  # closed before anybody took a trick
        >>> s.failed_close_points()
        3
        """
        if self.closed_by < 0:
            return 0
        return SCORING_POINTS[self._failed_close()]

    def scoring(self) -> tuple[int, int, int]:
        """How the game points of a finished hand were decided: the
        :class:`~sixtysix.kernel.tables.Scoring` (the rule that gave them; ``NONE`` before
        the end and for a tie) and the loser's total and tricks it was measured on: at the
        end of the hand, or for a close scored at the close (S5.3) when the stock was
        closed (-1, -1 if that was before this state's history, :meth:`from_key`).
        ``(NONE, 0, 0)`` when there is no loser.

        >>> from sixtysix.kernel.tables import CLOSE, DECLARE, config
        >>> from sixtysix.rules import CLASSIC
        >>> s = State.deal(list(range(24)), 0, config(CLASSIC))
        >>> s.push(CLOSE); s.push(0); s.push(3)   # seat 1 closes and loses a trick
        >>> s.push(DECLARE)                          # seat 0 declares 66 with 4 points
        >>> s.reason, s.winner, s.game_points        # false (R8.3): seat 1 had no trick
        (1, 1, 3)
        >>> s.scoring()                              # NO_TRICK_FALSE; seat 0 had 4, a trick
        (11, 4, 1)
        """
        if self.phase != OVER or self.winner < 0:
            return NO_SCORE, 0, 0
        if self._scored in MEASURED_AT_CLOSE:
            return self._scored, self.close_score, self.close_tricks
        loser = 1 - self.winner
        return self._scored, self.score(loser), self.tricks[loser]

    def value(self) -> int:
        """Game points of a finished hand for seat 0: positive when seat 0 won, 0 for a tie."""
        w = self.winner
        if w < 0:
            return 0
        return self.game_points if w == 0 else -self.game_points

    def key(self) -> tuple[int, ...]:
        """The whole state as a tuple (history aside): equal keys, equal futures."""
        h, c, t, m, q = self.hands, self.points, self.tricks, self.marriages, self.pending
        return (self.phase, self.to_act, self.lead, self.trump, h[0], h[1], c[0], c[1], t[0], t[1],
                m[0], m[1], q[0], q[1], self.drawn, self.closed_by, self.closed_at, self.close_value,
                self.bonus_seat, *self.stock[self.drawn:])

    # Legal actions ---------------------------------------------------------------------
    # Each kind of action has one gate, a method that returns why it may not be taken now
    # (a tables.Refused code, LEGAL when it may): legal_mask opens the action's bit by
    # it (or by a table of its answers, _gate_tables), refusal names the reason by it, so
    # the two cannot disagree.

    def legal_mask(self) -> int:
        """The legal actions as a bitmask over action codes."""
        m = self._lmask
        if m >= 0:
            return m
        st = self.phase
        p = self.to_act
        h = self.hands[p]
        if st == FOLLOW:
            # R3.2 any card while the stock is open; R7.2 in phase 2; R10.2 table rules.
            if self._enforce and (self.closed_by >= 0 or self.drawn >= STOCK_CARDS):
                m = follow_mask(h, self.lead, self.trump)
            else:
                m = h
        elif st == LEAD:
            m = h
            won = self.tricks[p] > 0
            ntricks = self.tricks[0] + self.tricks[1]
            stock_open = self.closed_by < 0 and self.drawn < STOCK_CARDS
            pairs = h & KINGS & (h << 1)
            if pairs and self._marriage_gate(p, ntricks, stock_open) == LEGAL:
                # R5.5 (not when the marriage only counts with a later trick).
                declares = self._declare_marriage_gate(won) == LEGAL
                while pairs:
                    king = pairs & -pairs
                    pairs ^= king
                    # R5.1: lead either card; marriage_lead = king: the King.
                    m |= (king if self._king_lead else king | king >> 1) << MARRIAGE
                    if declares:
                        m |= 1 << (DECLARE_MARRIAGE + SUIT_OF[king.bit_length() - 1])
            if stock_open:
                # (The gate is asked only when the card it needs is held.)
                if h >> self.exchange_card & 1 and self._exchange_gate(h, won, ntricks, stock_open) == LEGAL:
                    m |= BIT_EXCHANGE
                m |= self._close_bits[ntricks > 0][STOCK_CARDS - self.drawn]
            m |= self._declare_bits[won]
        elif st == DRAWING:
            # R3.6: the draw step follows a trick won while the stock is open.
            m = BIT_DRAW
            m |= self._close_bits[True][STOCK_CARDS - self.drawn] | self._declare_bits[True]
        else:
            m = 0
        self._lmask = m
        return m

    def _declare_gate(self, won: bool) -> int:
        """66 (R8.1): by a player who has won a trick, unless the program declares."""
        if self._auto:
            return Refused.AUTO_DECLARE
        return LEGAL if won else Refused.DECLARE_AFTER_TRICK

    def _declare_marriage_gate(self, won: bool) -> int:
        """66+S (R5.5) as far as it is not the marriage's: as 66, and not while a marriage
        counts only with a later trick (marriage_counts = next_trick)."""
        why = self._declare_gate(won)
        if why == LEGAL and self._next_trick:
            return Refused.DECLARE_NEXT_TRICK
        return why

    def _marriage_gate(self, p: int, ntricks: int, stock_open: bool) -> int:
        """When ``p`` may show a marriage, whatever he holds: R5.2 (marriage_first_lead),
        R5.4 while the stock is open, in the turn of closing, or in phase 2 by option."""
        if not (ntricks or self._marriage_first):
            return Refused.MARRIAGE_FIRST_LEAD
        if stock_open or self._marriages_p2 or (self.closed_by == p and self.closed_at == ntricks):
            return LEGAL
        return Refused.MARRIAGE_STOCK

    def _exchange_gate(self, h: int, won: bool, ntricks: int, stock_open: bool) -> int:
        """R4.1: won a trick, the stock open and large enough, holds the trump nine (S4.1:
        the jack, perhaps at the first lead)."""
        if not stock_open:
            return Refused.EXCHANGE_STOCK_GONE
        if not (won or (self._exchange_first and not ntricks)):
            return Refused.EXCHANGE_TRICK
        if STOCK_CARDS - self.drawn < self._exchange_min:
            return Refused.EXCHANGE_FEW
        return LEGAL if h >> self.exchange_card & 1 else Refused.EXCHANGE_CARD

    def _close_gate(self, ntricks: int, stock_open: bool, stock: int) -> int:
        """R6.1: close while the stock is open and large enough, also before the first
        lead unless close_first_lead is off; not at all without closing."""
        if not self._closing:
            return Refused.CLOSING_OFF
        if not stock_open:
            return Refused.CLOSE_GONE
        if stock < self._close_min:
            return Refused.CLOSE_FEW
        return LEGAL if ntricks or self._close_first else Refused.CLOSE_FIRST_LEAD

    def refusal(self, code: int) -> tuple[int, int]:
        """Why the action ``code`` may not be taken now: a :class:`~sixtysix.kernel.tables.Refused`
        code (``LEGAL``, 0, when it may) and its argument, a card index or a number (-1
        when the reason has none). Decided by the gates that :meth:`legal_mask` opens
        its bits by, so the code is ``LEGAL`` exactly when its bit is set.

        >>> from sixtysix.kernel.tables import CLOSE, EXCHANGE, config
        >>> from sixtysix.rules import CLASSIC
        >>> s = State.deal(list(range(24)), 0, config(CLASSIC))
        >>> s.refusal(CLOSE), s.refusal(EXCHANGE), s.refusal(3)  # seat 1 holds no card 3
        ((0, -1), (20, -1), (2, 3))
        """
        # A marriage is a King's or a Queen's (the King's index with its lowest bit set).
        marriage = MARRIAGE <= code < EXCHANGE
        if not 0 <= code < NUM_CODES or (marriage and not KINGS >> (code - MARRIAGE | 1) & 1):
            raise ValueError(f"{code} is not an action code (0-55, a marriage a King's or Queen's)")
        why, arg = self._refusal(code)
        return int(why), arg

    def _refusal(self, code: int) -> tuple[int, int]:
        st = self.phase
        if st == OVER:
            return Refused.OVER, -1
        h = self.hands[self.to_act]
        if code < EXCHANGE:
            card = code if code < MARRIAGE else code - MARRIAGE
            if not h >> card & 1:
                return Refused.NOT_HELD, card
        if st == FOLLOW:
            return self._follow_refusal(code)
        if st == DRAWING:
            return self._draw_refusal(code)
        return self._lead_refusal(code, h)

    def _follow_refusal(self, code: int) -> tuple[int, int]:
        if code >= MARRIAGE:
            return (Refused.MARRIAGE_ON_LEAD if code < EXCHANGE else Refused.PLAY_A_CARD), -1
        return (LEGAL if self.legal_mask() >> code & 1 else Refused.MUST_FOLLOW), -1

    def _draw_refusal(self, code: int) -> tuple[int, int]:
        # R3.6: the trick's winner draws (or closes, R6.1, or declares) first.
        if code == DECLARE or code >= DECLARE_MARRIAGE:
            why = self._declare_gate(True)
            if why != LEGAL or code == DECLARE:
                return why, -1
            return Refused.DECLARE_ON_LEAD, -1
        if code == DRAW:
            return LEGAL, -1
        why = self._close_gate(1, True, STOCK_CARDS - self.drawn)
        if code == CLOSE:
            return why, self._close_min if why == Refused.CLOSE_FEW else -1
        return (Refused.DRAW_FIRST if why == LEGAL else Refused.DRAW_OR_DECLARE), -1

    def _lead_refusal(self, code: int, h: int) -> tuple[int, int]:
        p = self.to_act
        won = self.tricks[p] > 0
        ntricks = self.tricks[0] + self.tricks[1]
        stock_open = self.closed_by < 0 and self.drawn < STOCK_CARDS
        if code < MARRIAGE:
            return LEGAL, -1
        if code < EXCHANGE:
            card = code - MARRIAGE
            partner = card ^ 1  # the King and the Queen of a suit differ in the lowest bit
            if not h >> partner & 1:
                return Refused.MARRIAGE_NEEDS_PAIR, partner
            if self._king_lead and card < partner:  # R5.1; marriage_lead = king
                return Refused.MARRIAGE_KING, partner
            return self._marriage_gate(p, ntricks, stock_open), -1
        if code >= DECLARE_MARRIAGE:
            why = self._declare_marriage_gate(won)
            if why != LEGAL and why != Refused.DECLARE_NEXT_TRICK:
                return why, -1
            king = (code - DECLARE_MARRIAGE) * 6 + 3
            if not (h >> king & 1 and h >> (king - 1) & 1):
                return Refused.DECLARE_NEEDS_PAIR, king
            return (why if why != LEGAL else self._marriage_gate(p, ntricks, stock_open)), -1
        if code == EXCHANGE:
            why = self._exchange_gate(h, won, ntricks, stock_open)
            if why == Refused.EXCHANGE_FEW:
                return why, self._exchange_min
            return why, self.exchange_card if why == Refused.EXCHANGE_CARD else -1
        if code == CLOSE:
            why = self._close_gate(ntricks, stock_open, STOCK_CARDS - self.drawn)
            return why, self._close_min if why == Refused.CLOSE_FEW else -1
        if code == DRAW:
            return Refused.NOTHING_TO_DRAW, -1
        return self._declare_gate(won), -1

    # Make / unmake ---------------------------------------------------------------------
    def push(self, code: int) -> None:
        """Apply the action ``code``, which must be legal (not checked)."""
        hands = self.hands
        won = self.points
        tricks = self.tricks
        marr = self.marriages
        pend = self.pending
        p = self.to_act
        self._undo.append((code, self.phase, p, self.lead, hands[0], hands[1], won[0], won[1],
                           tricks[0], tricks[1], marr[0], marr[1], pend[0], pend[1], self.drawn,
                           self.closed_by, self.closed_at, self.close_value, self.stock[-1]))
        self._lmask = -1
        if code < 24:
            if self.phase == FOLLOW:
                self._follow(p, code)
            else:
                hands[p] ^= 1 << code
                self.lead = code
                self.phase = FOLLOW
                self.to_act = 1 - p
        elif code < EXCHANGE:
            card = code - MARRIAGE
            value = marriage_value(SUIT_OF[card], self.trump)
            if self._next_trick:
                pend[p] += value  # counts when p next wins a trick
            else:
                marr[p] += value
            if self._auto and tricks[p] and self.score(p) >= WINNING_TOTAL:
                self._declare(p)  # R5.5 under auto_declare: the card is not led
                return
            hands[p] ^= 1 << card
            self.lead = card
            self.phase = FOLLOW
            self.to_act = 1 - p
        elif code == DRAW:
            self._draw(p)
            self.phase = LEAD
        elif code == CLOSE:
            # R6.4: the failed-close penalty is judged at the moment of closing; S5.3:
            # what a successful close is worth may be too.
            self.closed_by = p
            self.closed_at = tricks[0] + tricks[1]
            self.close_value = conceded(tricks[1 - p], self.score(1 - p))
            self.close_score = self.score(1 - p)
            self.close_tricks = tricks[1 - p]
            self.phase = LEAD
        elif code == EXCHANGE:
            stock = self.stock
            hands[p] ^= (1 << self.exchange_card) | (1 << stock[-1])
            stock[-1] = self.exchange_card
        elif code == DECLARE:
            self._declare(p)
        elif DECLARE_MARRIAGE <= code < NUM_CODES:  # 66+S: show the marriage, declare (R5.5)
            marr[p] += marriage_value(code - DECLARE_MARRIAGE, self.trump)
            self._declare(p)
        else:
            self._undo.pop()
            raise ValueError(f"{code} is not an action code (0-{NUM_CODES - 1})")

    def pop(self) -> int:
        """Take back the last action and return its code."""
        (code, self.phase, self.to_act, self.lead, h0, h1, w0, w1, t0, t1, m0, m1, q0, q1,
         self.drawn, self.closed_by, self.closed_at, self.close_value, self.stock[-1]) = self._undo.pop()
        self.hands[0] = h0
        self.hands[1] = h1
        self.points[0] = w0
        self.points[1] = w1
        self.tricks[0] = t0
        self.tricks[1] = t1
        self.marriages[0] = m0
        self.marriages[1] = m1
        self.pending[0] = q0
        self.pending[1] = q1
        # Only the action that ended the hand sets these, and nothing follows it.
        self.bonus_seat = -1
        self.winner = -1
        self.game_points = 0
        self.reason = -1
        self._lmask = -1
        return code

    def forfeit(self, seat: int) -> None:
        """End the hand: ``seat``'s program failed, the opponent scores 3. Not a rule
        of the game and not an action: :meth:`pop` takes back the action before it."""
        self._finish(1 - seat, FORFEITED, FORFEIT)
        self._lmask = -1

    def deal_hidden(self, seat: int, hand: int, stock: Sequence[int]) -> None:
        """Give ``seat`` the cards ``hand`` and the stock the order ``stock`` (the cards
        left, next first): a sampled world for a player who cannot see them. The caller
        keeps the pack whole. Not an action: actions pushed before it must not be popped
        afterwards (their undo records hold the old cards)."""
        self.hands[seat] = hand
        self.stock[self.drawn:] = stock
        self._lmask = -1

    # The rules -----------------------------------------------------------------------
    def _draw(self, winner: int) -> None:
        # R3.4: the winner draws first, then the loser.
        d = self.drawn
        stock = self.stock
        self.hands[winner] |= 1 << stock[d]
        self.hands[1 - winner] |= 1 << stock[d + 1]
        self.drawn = d + 2

    def _follow(self, p: int, card: int) -> None:
        hands = self.hands
        lead = self.lead
        leader = 1 - p
        phase2 = self.closed_by >= 0 or self.drawn >= STOCK_CARDS
        if phase2 and not self._enforce and not follow_mask(hands[p], lead, self.trump) >> card & 1:
            # R10.2: the revoke stands, is established with the trick, and ends the hand.
            hands[p] ^= 1 << card
            self.lead = -1
            self._finish(leader, REVOKED_NO_POINTS if self.points[p] == 0 else REVOKED, REVOKE)
            return
        hands[p] ^= 1 << card
        # R3.3: the higher card of the suit led, unless trumped.
        if SUIT_OF[card] == SUIT_OF[lead]:
            winner = p if card > lead else leader
        elif SUIT_OF[card] == self.trump:
            winner = p
        else:
            winner = leader
        self.points[winner] += POINTS[lead] + POINTS[card]
        self.tricks[winner] += 1
        pend = self.pending[winner]
        if pend:
            # marriage_counts = next_trick: the winner's pending marriages count now.
            self.marriages[winner] += pend
            self.pending[winner] = 0
        self.lead = -1
        self.to_act = winner
        if not hands[winner]:
            # All cards played. R7.3: the last trick earns the bonus unless the hand was closed.
            if self.closed_by < 0:
                self.bonus_seat = winner
            self._played_out()
            return
        if self.closed_by < 0 and self.drawn < STOCK_CARDS:
            if self._draw_step:
                self.phase = DRAWING
            else:
                self._draw(winner)
                self.phase = LEAD
        else:
            self.phase = LEAD
        if self._auto and self.score(winner) >= WINNING_TOTAL:
            self._declare(winner)

    # The scoring helpers return a tables.Scoring: the rule that gives the game points.
    def _concede(self, loser: int) -> int:
        """R9.1's line by ``loser``'s tricks and total now (its code is its game points)."""
        return conceded(self.tricks[loser], self.score(loser))

    def _close_success(self) -> int:
        # R6.3: by the opponent's points and tricks at the end; S5.3: at the close.
        if self._close_at_close:
            return self.close_value + AT_CLOSE
        return self._concede(1 - self.closed_by)

    def _failed_close(self) -> int:
        # R6.4: 3 if the opponent had no trick at the close (option failed_close).
        if self._failed_three:
            return FAILED_CLOSE
        return NO_TRICK_AT_CLOSE if self.close_value == NO_TRICK else TRICK_AT_CLOSE

    def _false_declaration(self, opponent: int) -> int:
        # R8.3 with option false_declaration.
        return NO_TRICK_FALSE if self._false_three and not self.tricks[opponent] else FALSE_DECLARED

    def _declare(self, p: int) -> None:
        o = 1 - p
        correct = self.score(p) >= WINNING_TOTAL
        closer = self.closed_by
        if closer < 0:
            if correct:
                self._finish(p, self._concede(o), DECLARED)  # R8.2
            else:
                self._finish(o, self._false_declaration(o), FALSE_DECLARATION)  # R8.3
        elif p == closer:
            if correct:
                self._finish(p, self._close_success(), CLOSED_SUCCEEDED)  # R6.3, S5.3
            else:
                self._finish(o, self._failed_close(), CLOSED_FAILED)  # R6.4
        elif correct:
            self._finish(p, self._failed_close(), CLOSED_FAILED)  # R6.4
        else:
            self._finish(closer, self._false_declaration(closer), FALSE_DECLARATION)

    def _played_out(self) -> None:
        # R8.5: a closed hand by R6.3/R6.4, otherwise the higher total; equal is a tie.
        # S6.3 (last_trick_wins): the winner of the last trick wins; with 66 he scores as
        # declared, else one game point. A closer who loses the last trick has failed.
        closer = self.closed_by
        last = self.to_act
        if closer >= 0:
            if self.score(closer) >= WINNING_TOTAL and (not self._last_trick_wins or last == closer):
                self._finish(closer, self._close_success(), CLOSED_SUCCEEDED)
            else:
                self._finish(1 - closer, self._failed_close(), CLOSED_FAILED)
            return
        if self._last_trick_wins:
            scoring = self._concede(1 - last) if self.score(last) >= WINNING_TOTAL else LAST_TRICK
            self._finish(last, scoring, PLAYED_OUT)
            return
        s0, s1 = self.score(0), self.score(1)
        if s0 == s1:
            self._finish(-1, NO_SCORE, TIE)  # R9.2
        else:
            winner = 0 if s0 > s1 else 1
            self._finish(winner, self._concede(1 - winner), PLAYED_OUT)

    def _finish(self, winner: int, scoring: int, reason: int) -> None:
        self.phase = OVER
        self.winner = winner
        self.game_points = SCORING_POINTS[scoring]
        self.reason = reason
        self._scored = scoring

    # Bulk operations -----------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """The number of legal action sequences of length ``depth`` from here, by push
        and pop (a finished hand has no actions: a sequence that ends it is not extended).

        >>> from sixtysix.kernel.tables import config
        >>> from sixtysix.rules import CLASSIC
        >>> State.deal(list(range(24)), 0, config(CLASSIC)).perft(2)
        42
        """
        if depth == 0:
            return 1
        m = self.legal_mask()
        if depth == 1:
            return m.bit_count()
        total = 0
        while m:
            low = m & -m
            m ^= low
            self.push(low.bit_length() - 1)
            total += self.perft(depth - 1)
            self.pop()
        return total

    def random_playout(self, seed: int) -> int:
        """Play on to the end, every legal action equally likely at each turn, driven by
        :class:`Rng` ``seed``; returns :meth:`value`. The same seed gives the same play
        in both kernels. History is kept (the playout can be popped)."""
        rng = Rng(seed)
        while self.phase != OVER:
            m = self.legal_mask()
            k = rng.below(m.bit_count())
            while k:
                m &= m - 1
                k -= 1
            self.push((m & -m).bit_length() - 1)
        return self.value()


#: The gate tables of each rule set met (State._gate_tables).
_GATE_TABLES: dict[Config, tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = {}

_SCALARS = tuple(n for n in State.__slots__ if n not in (
    "hands", "points", "tricks", "marriages", "pending", "stock", "_undo"))
