"""A fast playout policy for search bots, working on :class:`~sixtysix.hand.Hand` internals.

Search bots play thousands of hands to the end from sampled worlds. Building a
:class:`~sixtysix.views.View` at every step would cost more than the rest of
the playout together, so the policy here reads the engine's integers (card
masks, points, trick counts, the stock pointer) directly and pushes action
codes with :meth:`Hand.push_code <sixtysix.hand.Hand.push_code>`.

The policy sees the whole world it is given (both hands and the stock order):
it is a *perfect-information* playout, as usual for determinized search. Its
rules, for the player to act:

* declare 66 (or ``66+S``) as soon as the counted total reaches 66 (R8.1,
  R5.5), and never declare falsely;
* draw rather than close (it never closes), and exchange the trump nine when
  it may (R4);
* on lead, announce a marriage when one can be announced, trumps first,
  leading the Queen (R5);
* otherwise lead: in phase 1, an unbeatable Ace or Ten when there is one,
  else the card that costs least to give away (points, plus a premium for
  trumps and marriage partners); in phase 2, the highest-scoring card the
  opponent cannot beat, else the cheapest card;
* when following, take the trick with the cheapest winning card when the
  trick is worth it (it reaches 66, it stops the opponent reaching 66, or the
  points won outweigh what the winning card is worth keeping), else throw
  the cheapest losing card; under table rules it never revokes (R10.2);
* with probability ``epsilon`` a card decision is made uniformly at random
  among the legal cards instead (declarations stay as above).

>>> import random
>>> from sixtysix import Hand
>>> hand = Hand.random(seed=2)
>>> playout(hand, random.Random(1))
>>> hand.is_over()
True
"""

from __future__ import annotations

import math
import random

from sixtysix.actions import CLOSE, DECLARE, DECLARE_MARRIAGE, DRAW, EXCHANGE, MARRIAGE
from sixtysix.cards import pack
from sixtysix.hand import (
    ABOVE,
    DRAWING,
    FOLLOW,
    LEAD,
    OVER,
    PENDING_SHIFT,
    POINTS,
    STOCK_CARDS,
    SUIT_MASK,
    SUIT_OF,
    WINNING_TOTAL,
    Hand,
    conceded,
    follow_mask,
)
from sixtysix.rules import Rules

__all__ = ["fast_playout", "outcome_value", "playout", "policy_code", "random_card", "random_game",
           "random_playout"]

_CARD_BITS = (1 << 24) - 1
_KINGS = sum(1 << (6 * s + 3) for s in range(4))
_QUEEN = 2
_KING = 3
#: Premium for keeping a trump in phase 1 (before its rank) and in phase 2.
_TRUMP_KEEP_1 = 8.0
_TRUMP_KEEP_2 = 3.0
#: Premium per rank step of a trump in phase 1.
_TRUMP_RANK_1 = 1.5
#: Premium for keeping a King or Queen whose partner is in hand while marriages can come.
_PARTNER_KEEP = 14.0
#: Points counted for the opponent's card in each trick a closer runs off.
_CLOSE_SLACK = 3


def outcome_value(hand: Hand) -> int:
    """Game points of a finished hand for seat 0: positive when seat 0 won, 0 for a tie."""
    outcome = hand._outcome
    assert outcome is not None
    winner, points, _ = outcome
    if winner is None:
        return 0
    return points if winner == 0 else -points


def random_card(cards: int, rng: random.Random) -> int:
    """A card index drawn uniformly from a non-empty card mask."""
    k = rng.randrange(cards.bit_count())
    while k:
        cards &= cards - 1
        k -= 1
    return (cards & -cards).bit_length() - 1


def _keep_table(trump: int, phase2: bool) -> tuple[float, ...]:
    """What each card is worth keeping beyond its points, before marriage partners."""
    table = []
    for card in range(24):
        value = 0.0
        if SUIT_OF[card] == trump:
            value = _TRUMP_KEEP_2 if phase2 else _TRUMP_KEEP_1 + _TRUMP_RANK_1 * (card % 6)
        table.append(value)
    return tuple(table)


#: ``_KEEP[phase2][trump][card]``.
_KEEP = tuple(tuple(_keep_table(trump, phase2) for trump in range(4)) for phase2 in (False, True))
#: The marriage partner of each King and Queen, as a mask (0 for other cards).
_PARTNER = tuple(
    (1 << (card + 1) if card % 6 == _QUEEN else 1 << (card - 1)) if card % 6 in (_QUEEN, _KING) else 0
    for card in range(24))


def _run_off(mine: int, theirs: int, trump: int) -> int:
    """Points of the cards ``mine`` can lead one after another after a close and win
    whatever ``theirs`` plays (R7.2: the opponent must follow suit, else trump): the
    trumps above all of his, then, once his trumps are drawn, the tops of the plain suits.
    """
    tmask = SUIT_MASK[trump]
    points = 0
    count = 0
    mt = mine & tmask
    ot = theirs & tmask
    top = ot.bit_length()  # within a suit, a higher rank has a higher index
    run = mt >> top << top
    while run:
        high = 1 << (run.bit_length() - 1)
        points += POINTS[high.bit_length() - 1]
        count += 1
        run ^= high
    if count >= ot.bit_count():
        for suit in range(4):
            if suit == trump:
                continue
            sm = SUIT_MASK[suit]
            os_ = theirs & sm
            ms = mine & sm
            top = os_.bit_length()
            run = ms >> top << top
            while run:
                high = 1 << (run.bit_length() - 1)
                points += POINTS[high.bit_length() - 1]
                count += 1
                run ^= high
    return points + _CLOSE_SLACK * count


def _lead(cards: int, mine: int, theirs: int, trump: int, phase2: bool, score: int) -> int:
    tmask = SUIT_MASK[trump]
    opp_trumps = theirs & tmask
    best_sure, best_sure_pts = -1, -1
    cheapest, cheapest_cost = -1, 1e9
    keep = _KEEP[phase2][trump]
    c = cards
    while c:
        low = c & -c
        c ^= low
        card = low.bit_length() - 1
        suit = SUIT_OF[card]
        beaten = theirs & ABOVE[card] or (
            suit != trump and opp_trumps and (not phase2 or not theirs & SUIT_MASK[suit]))
        pts = POINTS[card]
        if not beaten and pts > best_sure_pts:
            best_sure, best_sure_pts = card, pts
        cost = pts + keep[card]
        if not phase2 and mine & _PARTNER[card]:
            cost += _PARTNER_KEEP
        if cost < cheapest_cost:
            cheapest, cheapest_cost = card, cost
    if best_sure >= 0 and (phase2 or best_sure_pts >= 10 or score + best_sure_pts >= WINNING_TOTAL):
        return best_sure
    return cheapest


def _follow(cards: int, lead: int, mine: int, trump: int, phase2: bool,
            score: int, opp_score: int) -> int:
    lead_suit = SUIT_OF[lead]
    lead_pts = POINTS[lead]
    winner, winner_cost = -1, 1e9
    loser, loser_cost = -1, 1e9
    keeps = _KEEP[phase2][trump]
    c = cards
    while c:
        low = c & -c
        c ^= low
        card = low.bit_length() - 1
        suit = SUIT_OF[card]
        wins = card > lead if suit == lead_suit else suit == trump
        keep = keeps[card]
        if not phase2 and mine & _PARTNER[card]:
            keep += _PARTNER_KEEP
        if wins:
            cost = keep + 0.1 * (card % 6)
            if cost < winner_cost:
                winner, winner_cost = card, cost
        else:
            cost = POINTS[card] + keep
            if cost < loser_cost:
                loser, loser_cost = card, cost
    if winner < 0:
        return loser
    if loser < 0:
        return winner
    gain = lead_pts + POINTS[winner]
    if score + gain >= WINNING_TOTAL or opp_score + lead_pts + POINTS[loser] >= WINNING_TOTAL:
        return winner
    return winner if gain >= winner_cost else loser


def policy_code(hand: Hand, rng: random.Random, epsilon: float = 0.0, fair: bool = False,
                close: bool = False) -> int:
    """The policy's action code for the player to act (the hand must not be over).

    With ``fair``, a lead counts as unbeatable only if no card the player
    cannot see (the opponent's hand and the face-down stock) beats it, rather
    than judging by the opponent's actual cards.
    """
    m = hand.legal_mask()
    st = hand._state
    p = hand._to_act
    won = hand._won
    tricks = hand._tricks
    marr = hand._marr
    score = won[p] + (marr[p] if tricks[p] else 0)
    if st == DRAWING:
        if m >> DECLARE & 1 and score >= WINNING_TOTAL:
            return DECLARE
        return DRAW if m >> DRAW & 1 else (m & -m).bit_length() - 1
    trump = SUIT_OF[hand._nine]
    hands = hand._hands
    mine = hands[p]
    phase2 = hand._closed_by >= 0 or hand._drawn >= STOCK_CARDS
    if st == LEAD:
        if m >> DECLARE & 1 and score >= WINNING_TOTAL:
            return DECLARE
        shows = m >> DECLARE_MARRIAGE
        if shows:
            for suit in range(4):
                if shows >> suit & 1 and won[p] + marr[p] + (40 if suit == trump else 20) >= WINNING_TOTAL:
                    return DECLARE_MARRIAGE + suit
        if m >> EXCHANGE & 1:
            return EXCHANGE
        pairs = (m >> MARRIAGE) & _CARD_BITS
        if close and m >> CLOSE & 1 and _close_pays(hand, p, pairs, trump):
            return CLOSE
        if pairs:
            pick = pairs & SUIT_MASK[trump] or pairs
            return MARRIAGE + (pick & -pick).bit_length() - 1  # the Queen of the pair
        cards = m & _CARD_BITS
        if epsilon and rng.random() < epsilon:
            return random_card(cards, rng)
        theirs = hands[1 - p]
        if fair:
            stock = hand._stock
            for i in range(hand._drawn, STOCK_CARDS - 1):
                theirs |= 1 << stock[i]
        return _lead(cards, mine, theirs, trump, phase2, score)
    # Following.
    cards = m & _CARD_BITS
    lead = hand._lead
    if phase2 and not hand._enforce:
        cards &= follow_mask(mine, lead, trump)  # never revoke (R10.2)
    if epsilon and rng.random() < epsilon:
        return random_card(cards, rng)
    o = 1 - p
    opp_score = won[o] + (marr[o] if tricks[o] else 0)
    return _follow(cards, lead, mine, trump, phase2, score, opp_score)


def _close_pays(hand: Hand, p: int, pairs: int, trump: int) -> bool:
    """Whether the player on lead reaches 66 by closing now and running off sure winners
    (judged on the opponent's actual cards), with the best marriage he may show."""
    marriage = 0
    c = pairs
    while c:
        q = c & -c
        c ^= q
        marriage = max(marriage, 40 if SUIT_OF[q.bit_length() - 1] == trump else 20)
    if hand._tricks[p] and not hand._next_trick and hand._won[p] + hand._marr[p] + marriage >= WINNING_TOTAL:
        return False  # showing the marriage reaches 66 without closing (R5.5)
    gain = _run_off(hand._hands[p], hand._hands[1 - p], trump)
    return hand._won[p] + hand._marr[p] + marriage + gain >= WINNING_TOTAL and (
        hand._tricks[p] > 0 or gain > 0)


def playout(hand: Hand, rng: random.Random, epsilon: float = 0.0, *,
            stop_cards: int = -1, fair: bool = False, close: bool = False) -> None:
    """Play ``hand`` on with the policy until it is over, or until the stock is
    closed or exhausted and the player to act holds at most ``stop_cards`` cards
    (for an exact search to take over)."""
    push = hand._push
    hands = hand._hands
    while hand._state != OVER:
        if stop_cards >= 0 and (hand._closed_by >= 0 or hand._drawn >= STOCK_CARDS) \
                and hands[hand._to_act].bit_count() <= stop_cards:
            return
        push(policy_code(hand, rng, epsilon, fair, close))


def fast_playout(hand: Hand, rng: random.Random, epsilon: float = 0.0, *,
                 stop_cards: int = -1, fair: bool = False, close: bool = False) -> None:
    """What :func:`playout` does, several times faster, for a hand that is thrown away.

    The play runs on plain integers, with the same policy and the same use
    of ``rng``, so it takes the same actions as :func:`playout`; the rules
    the policy can meet (draws, the exchange, marriages, phase-2 following,
    the last-trick bonus) are applied here, and the hand's own scoring
    decides the end (:meth:`Hand._declare`, :meth:`Hand._played_out`). The
    final state is written back into ``hand``, but not its history: it can
    no longer be popped past this point.
    """
    state = hand._state
    if state == OVER:
        return
    h, won, tricks, marr, pend = _read_state(hand)
    next_trick = hand._next_trick
    king_lead = hand._king_lead
    stock = hand._stock
    drawn = hand._drawn
    closer = hand._closed_by
    closed_trick = hand._closed_trick
    close_points = hand._close_points
    close_min = hand._close_min
    close_first = hand._close_first
    trump = SUIT_OF[hand._nine]
    nine_bit = 1 << hand._nine
    tmask = SUIT_MASK[trump]
    auto = hand._auto
    draw_state = hand._draw_state
    marriage_first = hand._marriage_first
    marriages_p2 = hand._marriages_p2
    exchange_min = hand._exchange_min
    exchange_first = hand._exchange_first
    p = hand._to_act
    lead = hand._lead
    end = ""  # "declare" or "played"
    bonus = -1
    while True:
        phase2 = closer >= 0 or drawn >= STOCK_CARDS
        if state == DRAWING:
            if won[p] + (marr[p] if tricks[p] else 0) >= WINNING_TOTAL:
                end = "declare"
                break
            w = p
            h[w] |= 1 << stock[drawn]
            h[1 - w] |= 1 << stock[drawn + 1]
            drawn += 2
            state = LEAD
            continue
        mine = h[p]
        if stop_cards >= 0 and phase2 and mine.bit_count() <= stop_cards:
            break
        if state == LEAD:
            score = won[p] + (marr[p] if tricks[p] else 0)
            if tricks[p] and score >= WINNING_TOTAL:
                end = "declare"
                break
            stock_open = not phase2
            ntricks = tricks[0] + tricks[1]
            pairs = 0
            if (ntricks or marriage_first) and (
                    stock_open or marriages_p2 or (closer == p and closed_trick == ntricks)):
                pairs = mine & _KINGS & (mine << 1)
            if pairs and tricks[p] and not next_trick:
                # R5.5: show a marriage that brings the total to 66 and declare.
                shown = -1
                c = pairs
                while c:
                    king = c & -c
                    c ^= king
                    suit = SUIT_OF[king.bit_length() - 1]
                    if won[p] + marr[p] + (40 if suit == trump else 20) >= WINNING_TOTAL:
                        shown = suit
                        break
                if shown >= 0:
                    marr[p] += 40 if shown == trump else 20
                    end = "declare"
                    break
            if stock_open and (tricks[p] or (exchange_first and not ntricks)) and \
                    STOCK_CARDS - drawn >= exchange_min and mine & nine_bit:
                # R4: take the turned-up trump for the nine, then think again.
                h[p] = mine ^ (nine_bit | 1 << stock[-1])
                stock[-1] = hand._nine
                continue
            if close and stock_open and STOCK_CARDS - drawn >= close_min and (ntricks or close_first):
                marriage = 0
                c = pairs
                while c:
                    king = c & -c
                    c ^= king
                    marriage = max(marriage, 40 if SUIT_OF[king.bit_length() - 1] == trump else 20)
                gain = _run_off(mine, h[1 - p], trump)
                if won[p] + marr[p] + marriage + gain >= WINNING_TOTAL and (tricks[p] or gain):
                    # R6: close; the penalty is judged now (R6.4).
                    closer = p
                    closed_trick = ntricks
                    o = 1 - p
                    # The opponent's state now (R6.4, S5.3), as Hand does.
                    close_points = conceded(tricks[o], won[o] + (marr[o] if tricks[o] else 0))
                    continue
            if pairs:
                pick = pairs & tmask or pairs
                # The Queen of the pair (the King under marriage_lead = king).
                card = (pick & -pick).bit_length() - (1 if king_lead else 2)
                if next_trick:
                    pend[p] += 40 if SUIT_OF[card] == trump else 20
                else:
                    marr[p] += 40 if SUIT_OF[card] == trump else 20
            elif epsilon and rng.random() < epsilon:
                card = random_card(mine, rng)
            else:
                theirs = h[1 - p]
                if fair:
                    for i in range(drawn, STOCK_CARDS - 1):
                        theirs |= 1 << stock[i]
                card = _lead(mine, mine, theirs, trump, phase2, score)
            h[p] = mine ^ (1 << card)
            lead = card
            p = 1 - p
            state = FOLLOW
            continue
        # Following.
        cards = follow_mask(mine, lead, trump) if phase2 else mine
        if epsilon and rng.random() < epsilon:
            card = random_card(cards, rng)
        else:
            o = 1 - p
            card = _follow(cards, lead, mine, trump, phase2, won[p] + (marr[p] if tricks[p] else 0),
                           won[o] + (marr[o] if tricks[o] else 0))
        h[p] = mine ^ (1 << card)
        leader = 1 - p
        if SUIT_OF[card] == SUIT_OF[lead]:
            w = p if card > lead else leader
        elif SUIT_OF[card] == trump:
            w = p
        else:
            w = leader
        won[w] += POINTS[lead] + POINTS[card]
        tricks[w] += 1
        if pend[w]:
            marr[w] += pend[w]
            pend[w] = 0
        lead = -1
        p = w
        if not h[w]:
            if closer < 0:
                bonus = w
            end = "played"
            break
        if auto and won[w] + (marr[w] if tricks[w] else 0) >= WINNING_TOTAL:
            end = "declare"  # auto_declare: at once, before the draw
            break
        state = LEAD
        if not phase2:
            if draw_state:
                state = DRAWING
            else:
                h[w] |= 1 << stock[drawn]
                h[1 - w] |= 1 << stock[drawn + 1]
                drawn += 2
    _write_back(hand, h, won, tricks, marr, pend, (drawn, closer, closed_trick, close_points, p, lead, state),
                end, bonus)


def random_playout(hand: Hand, rng: random.Random) -> None:
    """Play ``hand`` to its end with every legal action equally likely at each turn
    (a random player, like the course platform's ``RandBot``).

    One ``rng.random()`` per decision picks the k-th legal action in code order, so
    the result depends only on the state and the random numbers. Under automatic
    declaring with the draw at once and strict following (the presets ``course``
    and ``schnapsen,auto_declare=true``) the play runs on plain integers, several
    times faster, and the final state is written back into ``hand`` (its history
    can then no longer be popped past this point); other rules go through
    :meth:`Hand.legal_mask` and the engine's own push.
    """
    rnd = rng.random
    if hand._state == OVER:
        return
    if not hand._auto or hand._draw_state or not hand._enforce:
        _random_playout_engine(hand, rng)
        return
    h, won, tricks, marr, pend = _read_state(hand)
    next_trick = hand._next_trick
    king_lead = hand._king_lead
    stock = hand._stock
    drawn = hand._drawn
    closer = hand._closed_by
    closed_trick = hand._closed_trick
    close_points = hand._close_points
    close_min = hand._close_min
    closing = close_min <= STOCK_CARDS  # option closing (R6.1)
    close_first = hand._close_first
    nine = hand._nine
    trump = SUIT_OF[nine]
    nine_bit = 1 << nine
    marriage_first = hand._marriage_first
    marriages_p2 = hand._marriages_p2
    exchange_min = hand._exchange_min
    exchange_first = hand._exchange_first
    p = hand._to_act
    lead = hand._lead
    state = hand._state
    stock_open = closer < 0 and drawn < STOCK_CARDS  # phase 1 (R3)
    # Globals as locals: the loop below runs millions of times in a benchmark.
    suit_of, points_of, kings, follow = SUIT_OF, POINTS, _KINGS, follow_mask
    full, win = STOCK_CARDS, WINNING_TOTAL
    lead_state, follow_state = LEAD, FOLLOW
    end = ""  # "declare" or "played"
    bonus = -1
    while True:
        mine = h[p]
        if state == lead_state:
            # The legal actions in code order: cards, marriages, the exchange, closing.
            married = mine & kings & (mine << 1)
            ntricks = tricks[0] + tricks[1]
            if married:
                if (ntricks or marriage_first) and (
                        stock_open or marriages_p2 or (closer == p and closed_trick == ntricks)):
                    if not king_lead:
                        married |= married >> 1
                else:
                    married = 0
            extra = 0
            exchange = mine & nine_bit and stock_open and (tricks[p] or (exchange_first and not ntricks)) \
                and full - drawn >= exchange_min
            if exchange:
                extra = 1
            if closing and stock_open and full - drawn >= close_min and (ntricks or close_first):
                extra += 1
            ncards = mine.bit_count()
            marriage = False
            if married or extra:
                nmarried = married.bit_count()
                k = int(rnd() * (ncards + nmarried + extra))
                if k < ncards:
                    m = mine
                elif k < ncards + nmarried:
                    m = married
                    k -= ncards
                    marriage = True
                elif exchange and k == ncards + nmarried:
                    # R4: the exchange; the same player leads on.
                    h[p] = mine ^ (nine_bit | 1 << stock[-1])
                    stock[-1] = nine
                    continue
                else:
                    # R6: close; the opponent's state now decides the scoring (R6.4, S5.3).
                    closer = p
                    closed_trick = ntricks
                    stock_open = False
                    o = 1 - p
                    close_points = conceded(tricks[o], won[o] + (marr[o] if tricks[o] else 0))
                    continue
            else:
                m = mine
                k = int(rnd() * ncards)
            while k:
                m &= m - 1
                k -= 1
            card = (m & -m).bit_length() - 1
            if marriage:
                value = 40 if suit_of[card] == trump else 20
                if next_trick:
                    pend[p] += value
                else:
                    marr[p] += value
                    if tricks[p] and won[p] + marr[p] >= win:
                        end = "declare"  # R5.5 under auto_declare: the card is not led
                        break
            h[p] = mine ^ (1 << card)
            lead = card
            p = 1 - p
            state = follow_state
            continue
        # Following: any card while the stock is open, else R7.2.
        cards = mine if stock_open else follow(mine, lead, trump)
        k = int(rnd() * cards.bit_count())
        while k:
            cards &= cards - 1
            k -= 1
        card = (cards & -cards).bit_length() - 1
        h[p] = mine ^ (1 << card)
        leader = 1 - p
        if suit_of[card] == suit_of[lead]:
            w = p if card > lead else leader
        elif suit_of[card] == trump:
            w = p
        else:
            w = leader
        won[w] += points_of[lead] + points_of[card]
        tricks[w] += 1
        if pend[w]:
            marr[w] += pend[w]
            pend[w] = 0
        lead = -1
        p = w
        state = lead_state
        if not h[w]:
            if closer < 0:
                bonus = w
            end = "played"
            break
        if stock_open:
            h[w] |= 1 << stock[drawn]
            h[1 - w] |= 1 << stock[drawn + 1]
            drawn += 2
            stock_open = drawn < full
        if won[w] + marr[w] >= win:  # he has a trick now
            end = "declare"
            break
    _write_back(hand, h, won, tricks, marr, pend, (drawn, closer, closed_trick, close_points, p, lead, state),
                end, bonus)


def _read_state(hand: Hand) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """Copies of the hands, card points, tricks, counted and pending marriage points
    (per seat) for an integer playout; :func:`_write_back` stores them again.
    Pending points are apart only under marriage_counts = next_trick (Hand._pending)."""
    pend = [hand.pending_points(0), hand.pending_points(1)] if hand._next_trick else [0, 0]
    return hand._hands[:], hand._won[:], hand._tricks[:], hand._marr[:], pend


def _write_back(hand: Hand, h: list[int], won: list[int], tricks: list[int], marr: list[int],
                pend: list[int], state: tuple[int, int, int, int, int, int, int], end: str,
                bonus: int) -> None:
    """Store the state an integer playout reached in ``hand`` and let the hand's own
    scoring end it (``end``: ``declare`` by the player to act, ``played`` out, or ``""``
    when the playout stopped early)."""
    hand._hands[0], hand._hands[1] = h
    hand._won[:] = won
    hand._tricks[:] = tricks
    hand._marr[:] = marr
    if hand._next_trick:
        hand._pending = pend[0] | pend[1] << PENDING_SHIFT
    (hand._drawn, hand._closed_by, hand._closed_trick, hand._close_points, hand._to_act, hand._lead,
     hand._state) = state
    hand._lmask = -1
    if end == "declare":
        hand._declare(hand._to_act)
    elif end == "played":
        hand._bonus_seat = bonus
        hand._played_out()


def _random_playout_engine(hand: Hand, rng: random.Random) -> None:
    """:func:`random_playout` through the engine's legal mask and push (any rules)."""
    rnd = rng.random
    while hand._state != OVER:
        m = hand.legal_mask()
        k = int(rnd() * m.bit_count())
        while k:
            m &= m - 1
            k -= 1
        hand._push((m & -m).bit_length() - 1)


def random_game(rules: Rules, rng: random.Random, dealer: int = 1) -> Hand:
    """A uniformly shuffled deal of ``rules`` played to its end by two random players
    (:func:`random_playout`); the hand's :meth:`~Hand.result` says how it ended.

    >>> from sixtysix import Rules
    >>> hand = random_game(Rules.preset("course"), random.Random(1))
    >>> hand.is_over(), hand.result().game_points in (1, 2, 3)
    (True, True)
    """
    idx = list(_PACK_INDICES[rules.deck])
    # Fisher-Yates driven by one uniform number below n! (drawn by rejection, no bias),
    # read digit by digit in the factorial number system.
    n = len(idx)
    limit = _FACTORIALS[n]
    bits = limit.bit_length()
    r = rng.getrandbits(bits)
    while r >= limit:
        r = rng.getrandbits(bits)
    for i in range(n, 1, -1):
        r, j = divmod(r, i)
        idx[i - 1], idx[j] = idx[j], idx[i - 1]
    hand = Hand._trusted(idx, dealer, rules)
    random_playout(hand, rng)
    return hand


#: The card indices of each pack, in pack order.
_PACK_INDICES = {size: tuple(c.index for c in pack(size)) for size in (24, 20)}
_FACTORIALS = {size: math.factorial(size) for size in (24, 20)}
