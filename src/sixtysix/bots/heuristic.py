"""A rule-of-thumb player (``heuristic``, also registered as ``medium``).

The bot works from its :class:`~sixtysix.game.views.View` alone (docs/design.md §6).
Every decision starts by rebuilding what the seat knows as card masks: its own
cards, every card played, the cards the opponent is known to hold (marriage
partners shown, the trump taken in an exchange, the turned-up trump taken with
the last draw), the cards known to lie in the stock, and the suits the
opponent has shown to be void in after the stock was closed. From that it
plays by a short list of priorities:

1. Declare 66 (or ``66+S``) exactly when the counted total reaches 66.
2. Exchange the trump nine whenever the rules allow (R4).
3. Close (R6) when the cards it can run off as sure winners, added to the
   points it already counts (and a marriage it can still show), reach 66,
   allowing a few points for the opponent's cards in those tricks.
4. Announce a marriage as soon as one can be announced in phase 1 (R5),
   trumps first; in phase 2 (closing turn, or ``marriages_in_phase2``) with a
   card that wins the trick, or when it is the last chance.
5. Phase 1 (R3): lead cheap, safe cards; when following, score each card by
   the points won or given away minus what the card is worth keeping
   (trumps for phase 2, marriage partners, aces and tens), so that an ace or
   ten led by the opponent is taken cheaply and low leads are not trumped.
6. Phase 2 (R7): once the stock is exhausted the opponent's hand is known
   exactly and an alpha-beta search plays the ending perfectly; after a
   close, run sure winners (top trumps first, to draw the opponent's trumps),
   then lead low cards that force the opponent's high cards out, and win
   tricks as cheaply as the follow rules allow.

>>> from sixtysix import Hand
>>> hand = Hand.random(seed=3)
>>> bot = HeuristicBot(seed=1)
>>> action = bot.choose(hand.view(hand.to_act), hand.legal_actions())
>>> hand.is_legal(action)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sixtysix.game.actions import (
    CLOSE,
    DECLARE,
    DECLARE_MARRIAGE,
    DRAW,
    EXCHANGE,
    MARRIAGE,
    Action,
)
from sixtysix.game.cards import cards_of, mask_of, pack
from sixtysix.game.hand import Hand
from sixtysix.game.player import BaseBot
from sixtysix.game.views import View
from sixtysix.kernel import (
    ABOVE,
    POINTS,
    SUIT_MASK,
    WINNING_TOTAL,
    Solver,
    beats,
    declared_total,
    follow_mask,
    marriage_value,
)

__all__ = ["HeuristicBot", "counted_total", "sure_winners"]

TARGET = WINNING_TOTAL  # R8
NINE, JACK, QUEEN, KING, TEN, ACE = range(6)

#: The exact phase-2 search is used when both hands together hold at most this many cards.
SOLVE_CARDS = 12
#: Entries kept in the search memo before it is cleared (bounds memory).
MEMO_LIMIT = 200_000


def _bits(mask: int) -> list[int]:
    """Card indices in ``mask``, lowest first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _marriage_lead(codes: dict[int, Action], suit: int) -> Action:
    """The marriage in ``suit`` leading the Queen, or the King where only it may be led
    (marriage_lead = king)."""
    return codes.get(MARRIAGE + suit * 6 + QUEEN) or codes[MARRIAGE + suit * 6 + KING]


def counted_total(view: View, action: Action | None = None) -> int:
    """The seat's total toward 66 as it would stand after ``action``.

    That is ``view.scores[seat]`` (card points plus marriages that count, R5.3),
    plus the marriage's value for ``66+S`` (R5.5).

    >>> from sixtysix import Hand
    >>> counted_total(Hand.random(seed=1).view(0))
    0
    """
    if action is None:
        return view.scores[view.seat]
    return view.declared_total(action)


class _Info:
    """What the seat knows, as card masks (rebuilt from the view at every decision)."""

    __slots__ = (
        "view", "seat", "trump", "tmask", "mine", "played", "lead", "known", "pool",
        "opp_n", "exact", "phase2", "score", "opp_score", "won", "opp_won",
        "pending", "opp_pending", "face_up",
    )

    def __init__(self, view: View) -> None:
        self.view = view
        seat = view.seat
        self.seat = seat
        trump = int(view.trump)
        self.trump = trump
        self.tmask = SUIT_MASK[trump]
        mine = 0
        for card in view.hand:
            mine |= card.mask
        self.mine = mine
        played = 0
        for trick in view.tricks:
            played |= trick.lead.mask | trick.follow.mask
        lead = -1
        if view.lead is not None:
            lead = view.lead[1].index
            played |= 1 << lead
        self.lead = lead
        self.played = played
        known = 0
        for card in view.known_opponent_cards():
            known |= card.mask
        self.known = known
        # Cards known to lie in the stock: the turned-up trump while face up; after a
        # close it stays at the bottom of the stock, face down (R6.2).
        in_stock = 0
        self.face_up = -1
        if view.trump_card is not None:
            in_stock = view.trump_card.mask
            self.face_up = view.trump_card.index
        elif view.closed_by is not None and (bottom := view.stock_bottom) is not None:
            in_stock = bottom.mask  # face down under the closed stock (R6.2)
        pool = mask_of(pack(view.rules.deck)) & ~mine & ~played & ~in_stock
        if view.closed_by is not None and view.closed_at is not None and view.stock_size > 0:
            pool &= ~self._voids(view, view.closed_at)
        self.pool = pool | known
        self.opp_n = view.rules.deck - mine.bit_count() - played.bit_count() - view.stock_size
        self.exact = self.pool.bit_count() == self.opp_n
        self.phase2 = not view.stock_open
        opp = 1 - seat
        self.score = view.scores[seat]
        self.opp_score = view.scores[opp]
        self.won = view.tricks_won[seat] > 0
        self.opp_won = view.tricks_won[opp] > 0
        # Marriage points announced but not yet counted (R5.3): they count with the first
        # trick (or the next one, under marriage_counts = next_trick).
        pending = view.pending_marriages
        self.pending = pending[seat]
        self.opp_pending = pending[opp]

    def _voids(self, view: View, start: int) -> int:
        """Cards the opponent cannot hold, from how he followed after the close (R7.2).

        The opponent draws no more cards once the stock is closed, so a suit he
        failed to follow (or a card he could not beat) stays that way.
        """
        excluded = 0
        trump = self.trump
        for trick in view.tricks[start:]:
            if trick.leader != view.seat or trick.winner is None:
                continue
            led, followed = trick.lead, trick.follow
            if followed.suit == led.suit:
                if followed.index < led.index:
                    excluded |= ABOVE[led.index]  # could not win: holds nothing higher
            else:
                excluded |= SUIT_MASK[led.suit]
                if int(led.suit) != trump and int(followed.suit) != trump:
                    excluded |= self.tmask  # neither followed nor trumped
        return excluded


def _top_run(mine: int, pool: int, suit_mask: int) -> list[int]:
    """The cards of one suit the seat can win with one after another: from the top,
    every card of the suit the opponent might hold must be below them."""
    run: list[int] = []
    for index in reversed(_bits(suit_mask)):
        bit = 1 << index
        if mine & bit:
            run.append(index)
        elif pool & bit:
            break
    return run


def sure_winners(mine: int, pool: int, trump: int, opp_n: int) -> list[int]:
    """Cards the seat can lead in phase 2 and win every trick with, whatever the
    opponent holds among ``pool`` (worst case), in the order to lead them.

    Top trumps come first: each draws a trump from the opponent if he has one
    (R7.2). Once he cannot hold a trump any more, the top cards of the plain
    suits are sure winners too.
    """
    tmask = SUIT_MASK[trump]
    winners = _top_run(mine, pool, tmask)
    opp_trumps = min((pool & tmask).bit_count(), opp_n)
    if opp_trumps <= len(winners):
        for suit in range(4):
            if suit != trump:
                winners.extend(_top_run(mine, pool, SUIT_MASK[suit]))
    return winners


def _first_leads(winners: list[int], pool: int, trump: int) -> set[int]:
    """The sure winners that win even when led now, before the opponent's trumps are drawn."""
    if not pool & SUIT_MASK[trump]:
        return set(winners)
    return {c for c in winners if c // 6 == trump}


class HeuristicBot(BaseBot):
    """A sensible player from rules of thumb and card counting (see the module docstring).

    ``seed`` or ``rng`` make its few random tie-breaks reproducible.
    """

    name = "heuristic"

    #: Phase-1 worth of keeping a trump: its points, plus a base, plus a step per rank.
    trump_keep_base = 6.0
    trump_keep_step = 2.0
    #: Phase-1 worth of keeping a plain ace or ten (winners for phase 2).
    ace_keep = 4.0
    ten_keep = 2.0
    #: Share of a marriage's value a King or Queen is worth while its partner may be drawn.
    partner_hope = 0.3
    #: Points assumed per sure trick from the opponent's card when counting a close.
    close_slack = 4.0

    def __init__(self, seed: int | None = None, rng: random.Random | None = None,
                 solve_cards: int = SOLVE_CARDS) -> None:
        self.rng = rng if rng is not None else random.Random(seed)
        self.solve_cards = solve_cards
        #: The exact search of endings, kept through a hand (its table carries over).
        self._solver = Solver()

    def new_hand(self, view: View) -> None:
        """Forget the search memo of the previous hand."""
        self._solver = Solver()

    # The decision ---------------------------------------------------------------------
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        codes = {a.code: a for a in legal}
        declaration = self._declaration(view, codes)
        if declaration is not None:
            return declaration
        info = _Info(view)
        if view.state == "draw":
            if CLOSE in codes and self._close_pays(info):
                return codes[CLOSE]
            if DRAW in codes:
                return codes[DRAW]
        elif view.state == "lead":
            action = self._lead(info, codes)
            if action is not None:
                return action
        elif view.state == "follow":
            card = self._follow(info, codes)
            if card >= 0 and card in codes:
                return codes[card]
        return self._fallback(view, legal)

    @staticmethod
    def _declaration(view: View, codes: dict[int, Action]) -> Action | None:
        """Declare exactly when the counted total reaches 66 (R8.1, R5.5)."""
        if DECLARE in codes and counted_total(view) >= TARGET:
            return codes[DECLARE]
        best: Action | None = None
        for code, action in codes.items():
            if code >= DECLARE_MARRIAGE and counted_total(view, action) >= TARGET and (
                    best is None or counted_total(view, action) > counted_total(view, best)):
                best = action
        return best

    def _fallback(self, view: View, legal: Sequence[Action]) -> Action:
        """A legal action that is never a false declaration (should not be reached)."""
        safe = [a for a in legal if not a.is_declaration or counted_total(view, a) >= TARGET]
        cards = [a for a in safe if a.is_card]
        return self.rng.choice(cards or safe or list(legal))

    # Leading ----------------------------------------------------------------------------
    def _lead(self, info: _Info, codes: dict[int, Action]) -> Action | None:
        if EXCHANGE in codes:
            return codes[EXCHANGE]  # R4: the turned-up trump is always worth more than the nine
        if CLOSE in codes and self._close_pays(info):
            return codes[CLOSE]
        if info.phase2 and info.exact and 2 * info.mine.bit_count() <= self.solve_cards:
            card = self._solve(info, info.mine)
            if card >= 0:
                if MARRIAGE + card in codes:
                    return codes[MARRIAGE + card]  # the search counted the marriage
                return codes.get(card)
        marriage = self._marriage(info, codes)
        if marriage is not None:
            return marriage
        card = self._lead_phase2(info) if info.phase2 else self._lead_phase1(info)
        return codes.get(card)

    def _marriage(self, info: _Info, codes: dict[int, Action]) -> Action | None:
        """Pick a marriage lead (``KH+`` / ``QH+``), if one should be announced now."""
        options = [code - MARRIAGE for code in codes if MARRIAGE <= code < EXCHANGE]
        if not options:
            return None
        trump = info.trump
        suits = sorted({card // 6 for card in options},
                       key=lambda s: marriage_value(s, trump), reverse=True)
        if not info.phase2:
            # Phase 1: announce at once, the best marriage first, leading the cheaper card
            # (the King and Queen are beaten by the same cards).
            return _marriage_lead(codes, suits[0])
        winners = sure_winners(info.mine, info.pool, trump, info.opp_n)
        first = _first_leads(winners, info.pool, trump)
        for suit in suits:
            for card in (suit * 6 + KING, suit * 6 + QUEEN):
                if card in first and MARRIAGE + card in codes:
                    return codes[MARRIAGE + card]  # announce and win the trick
        if info.score + info.pending + sum(POINTS[c] for c in winners) >= TARGET:
            return None  # the sure winners make 66 alone: keep the lead
        later = info.view.rules.marriages_in_phase2
        for suit in suits:
            shown = declared_total(info.score, DECLARE_MARRIAGE + suit, trump)
            if not later or not winners or (info.won and shown >= TARGET):
                # The last chance (R5.4), nothing better to lead, or 66 at once (R5.5).
                return _marriage_lead(codes, suit)
        return None

    def _keep_value(self, info: _Info, card: int) -> float:
        """What a card is worth keeping in phase 1, beyond its points."""
        rank = card % 6
        suit = card // 6
        value = 0.0
        if suit == info.trump:
            value = POINTS[card] + self.trump_keep_base + self.trump_keep_step * rank
            if rank == info.view.rules.exchange_rank and info.face_up >= 0 and \
                    info.view.stock_size > info.view.rules.exchange_min_stock:
                value += POINTS[info.face_up]  # still exchangeable for the turned-up trump (R4)
        elif rank == ACE:
            value = self.ace_keep
        elif rank == TEN:
            value = self.ten_keep
        if rank in (KING, QUEEN) and info.view.stock_open:
            partner = card + 1 if rank == QUEEN else card - 1
            marriage = marriage_value(suit, info.trump)
            if info.mine >> partner & 1:
                value += marriage  # breaking a marriage still to announce
            elif not (info.played | info.known) >> partner & 1 and info.view.stock_size > 2:
                value += self.partner_hope * marriage  # the partner may still come from the stock
        return value

    def _lead_phase1(self, info: _Info) -> int:
        """Lead a cheap card that costs little if the opponent takes it (R3.2)."""
        best, best_cost = -1, 1e9
        unknown = info.pool | (1 << info.face_up if info.face_up >= 0 else 0)
        trump = info.trump
        for card in _bits(info.mine):
            risk = 1.0 if unknown & ABOVE[card] else 0.5
            if card // 6 == trump:
                risk = 1.0 if unknown & ABOVE[card] else 0.0
            cost = POINTS[card] * risk + self._keep_value(info, card) + self.rng.random() * 0.01
            if cost < best_cost:
                best, best_cost = card, cost
        return best

    def _follow(self, info: _Info, codes: dict[int, Action]) -> int:
        lead = info.lead
        mine = info.mine
        if info.phase2:
            allowed = follow_mask(mine, lead, info.trump)  # R7.2, also under table rules (R10.2)
            if info.exact and (mine.bit_count() + info.opp_n) <= self.solve_cards + 1:
                card = self._solve(info, allowed)
                if card >= 0:
                    return card
            return self._follow_phase2(info, allowed)
        return self._follow_phase1(info)

    def _follow_phase1(self, info: _Info) -> int:
        """Score every card: points won or lost in the trick, less what the card is worth keeping."""
        lead = info.lead
        trump = info.trump
        best, best_score = -1, -1e9
        for card in _bits(info.mine):
            pts = POINTS[lead] + POINTS[card]
            keep = self._keep_value(info, card)
            if beats(card, lead, trump):
                score = pts - keep
                if info.score + info.pending + pts >= TARGET:
                    score += 100  # the trick brings us to 66
                score += info.pending
            else:
                score = -pts - keep
                if info.opp_score + info.opp_pending + pts >= TARGET:
                    score -= 100
                score -= info.opp_pending
            score += self.rng.random() * 0.01
            if score > best_score:
                best, best_score = card, score
        return best

    # Phase 2 ----------------------------------------------------------------------------
    def _lead_phase2(self, info: _Info) -> int:
        trump = info.trump
        winners = sure_winners(info.mine, info.pool, trump, info.opp_n)
        if winners:
            return winners[0] if winners[0] // 6 == trump else \
                max(winners, key=lambda c: POINTS[c])
        # No sure winner: lead low, preferring suits where a higher card of ours
        # is promoted when the opponent must win (R7.2), and keep trumps.
        best, best_cost = -1, 1e9
        for card in _bits(info.mine):
            suit_mask = SUIT_MASK[card // 6]
            cost = POINTS[card] * 1.0
            if card // 6 == trump:
                cost += 8
            if info.mine & suit_mask & ABOVE[card]:
                cost -= 1
            if not info.pool & suit_mask and (card // 6 == trump or not info.pool & info.tmask):
                cost -= 20  # the opponent can neither follow nor trump
            cost += self.rng.random() * 0.01
            if cost < best_cost:
                best, best_cost = card, cost
        return best

    def _follow_phase2(self, info: _Info, allowed: int) -> int:
        """Win as cheaply as possible when we can, otherwise give up the least."""
        lead = info.lead
        trump = info.trump
        cards = _bits(allowed)
        winning = [c for c in cards if beats(c, lead, trump)]
        if winning:
            reach = [c for c in winning
                     if info.score + info.pending + POINTS[lead] + POINTS[c] >= TARGET]
            if reach:
                return min(reach, key=lambda c: (c // 6 == trump, c % 6))
            return min(winning, key=lambda c: (c // 6 == trump, c % 6))
        return min(cards, key=lambda c: (POINTS[c], c // 6 == trump, c % 6))

    def _solve(self, info: _Info, allowed: int) -> int:
        """The best card by exact search (both hands known, stock exhausted); -1 if not applicable.

        Ties go to the card that banks most points when following, or gives away the
        fewest when leading."""
        view = info.view
        if view.closed_by is not None:
            return -1
        try:
            world = Hand.from_view(view, cards_of(info.pool), [])
        except ValueError:
            return -1
        if self._solver.entries() > MEMO_LIMIT:
            self._solver = Solver()
        state = world.kernel
        seat = info.seat
        legal = state.legal_mask()
        best, best_key = -1, (-9, 0)
        for card in _bits(allowed):
            value = -9
            for code in (card, MARRIAGE + card):
                if legal >> code & 1:
                    state.push(code)
                    v = self._solver.value(state)
                    state.pop()
                    value = max(value, v if seat == 0 else -v)
            if info.lead >= 0:
                pts = POINTS[info.lead] + POINTS[card]
                tie = pts if beats(card, info.lead, info.trump) else -pts
            else:
                tie = -POINTS[card]
            if (value, tie) > best_key:
                best, best_key = card, (value, tie)
        return best

    # Closing ----------------------------------------------------------------------------
    def _close_pays(self, info: _Info) -> bool:
        """Whether closing now (R6) is likely to reach 66.

        The count is the points already counted, plus the cards we can run off
        one after another whatever the opponent holds (worst case over every
        card he might hold or the stock might keep), plus a marriage we can
        still announce: with this very lead (R5.4), or later when marriages are
        allowed in phase 2; plus ``close_slack`` points for the opponent's card
        in each of those tricks. A failed close costs 2 or 3 game points
        (R6.4), so nothing else is counted on.
        """
        view = info.view
        trump = info.trump
        # After closing, the turned-up trump stays in the stock (R6.2): not the opponent's.
        pool = info.pool
        opp_n = info.opp_n
        winners = sure_winners(info.mine, pool, trump, opp_n)
        total = info.score + info.pending + sum(POINTS[c] for c in winners)
        if not winners:
            return False
        best_marriage = 0
        first = _first_leads(winners, pool, trump)
        for suit in range(4):
            king, queen = suit * 6 + KING, suit * 6 + QUEEN
            if info.mine >> king & 1 and info.mine >> queen & 1 and (
                    view.rules.marriages_in_phase2 or king in first or queen in first):
                # Announced with this very lead (R5.4), or later when the rules allow.
                best_marriage = max(best_marriage, marriage_value(suit, trump))
        return total + best_marriage + self.close_slack * len(winners) >= TARGET

